//! The unsafe budget (issue #6 M-2): `unsafe` appears only in the AVX2 backend
//! (`src/backend/avx2/`, intrinsics) and in `src/ct.rs` (valgrind client requests, built only
//! with `--cfg mldsa_ct`). The crate root denies `unsafe_code`; this test fails if any other
//! file allows it or uses `unsafe`, and clippy's `undocumented_unsafe_blocks` (denied in
//! Cargo.toml) makes every block carry a `SAFETY:` comment.

use std::fs;
use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn unsafe_only_where_allowed() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let lib = fs::read_to_string(src.join("lib.rs")).unwrap();
    assert!(
        lib.contains("#![deny(unsafe_code)]"),
        "lib.rs must deny unsafe_code"
    );
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut allowed_files = 0;
    for path in files {
        let rel = path
            .strip_prefix(&src)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let text = fs::read_to_string(&path).unwrap();
        let code_mentions = text
            .lines()
            .filter(|l| {
                let l = l.trim_start();
                !l.starts_with("//")
                    && (l.contains("unsafe ")
                        || l.contains("unsafe{")
                        || l.contains("allow(unsafe_code)"))
            })
            .count();
        let may = rel.starts_with("backend/avx2/") || rel == "ct.rs";
        if may {
            allowed_files += usize::from(code_mentions > 0);
        } else {
            assert_eq!(code_mentions, 0, "{rel} uses unsafe outside the budget");
        }
    }
    assert!(
        allowed_files >= 2,
        "the AVX2 backend and ct.rs are expected to use unsafe"
    );
}
