//! The unsafe budget (issue #6 M-2): `unsafe` appears only in the x86-64 and AArch64 backends
//! (`src/backend/x86_64/`, `src/backend/aarch64/`, intrinsics) and in `src/support/ct.rs` (valgrind client requests,
//! built only with `--cfg mldsa_ct`). The crate root denies `unsafe_code`; every other floor
//! is declared `#[forbid(unsafe_code)]`, and so is every module of the two floors that hold
//! the exceptions (`backend`, `support`) but the exceptions themselves (so no `allow` inside
//! can undo it); this test fails if a module declaration lacks it, or if any other file allows
//! `unsafe_code` or uses `unsafe`.
//! Clippy's `undocumented_unsafe_blocks` (denied in Cargo.toml) makes every block carry a
//! `SAFETY:` comment.

#[path = "common/source.rs"]
mod source;

use source::rust_files;
use std::fs;
use std::path::Path;

#[test]
fn unsafe_only_where_allowed() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let lib = fs::read_to_string(src.join("lib.rs")).unwrap();
    assert!(
        lib.contains("#![deny(unsafe_code)]"),
        "lib.rs must deny unsafe_code"
    );
    let files = rust_files(&src);
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
        let may = rel.starts_with("backend/x86_64/")
            || rel.starts_with("backend/aarch64/")
            || rel == "support/ct.rs";
        if may {
            allowed_files += usize::from(code_mentions > 0);
        } else {
            assert_eq!(code_mentions, 0, "{rel} uses unsafe outside the budget");
        }
    }
    assert!(
        allowed_files >= 2,
        "the x86-64 backends and support/ct.rs are expected to use unsafe"
    );
}

/// Counts the `mod` declarations of `file` (under `src/`) that carry `#[forbid(unsafe_code)]`
/// among the attributes just above them, and fails on one that does not, but for `exempt`
/// (which must not: they hold the `unsafe` code).
fn forbidding_modules(file: &str, exempt: &[&str]) -> usize {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("src").join(file);
    let text = fs::read_to_string(path).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let mut checked = 0;
    for (i, line) in lines.iter().enumerate() {
        let Some(name) = line
            .trim()
            .strip_suffix(';')
            .and_then(|l| l.rsplit_once("mod "))
            .filter(|(vis, _)| matches!(vis.trim(), "" | "pub" | "pub(crate)"))
            .map(|(_, name)| name)
        else {
            continue;
        };
        let attrs = lines[..i]
            .iter()
            .rev()
            .take_while(|l| l.trim_start().starts_with("#["));
        let forbids = attrs
            .into_iter()
            .any(|l| l.trim() == "#[forbid(unsafe_code)]");
        if exempt.contains(&name) {
            assert!(!forbids, "{file}: {name} needs unsafe and cannot forbid it");
        } else {
            assert!(forbids, "{file}: `mod {name}` lacks #[forbid(unsafe_code)]");
            checked += 1;
        }
    }
    checked
}

/// Every floor in lib.rs but `backend` and `support` forbids `unsafe_code`; in those two, every
/// module but `x86_64` and `aarch64` (the intrinsics) and `ct` (the valgrind hooks).
#[test]
fn modules_forbid_unsafe() {
    let floors = forbidding_modules("lib.rs", &["backend", "support"]);
    assert!(
        floors >= 9,
        "only {floors} forbidding floors found in lib.rs"
    );
    let support = forbidding_modules("support/mod.rs", &["ct"]);
    assert!(
        support >= 4,
        "only {support} forbidding modules in support/mod.rs"
    );
    let backend = forbidding_modules("backend/mod.rs", &["x86_64", "aarch64"]);
    assert!(
        backend >= 1,
        "only {backend} forbidding modules in backend/mod.rs"
    );
}

/// A bindings crate forbids `unsafe_code` at its root and no file re-allows it.
fn bindings_forbid_unsafe(dir: &str, min_files: usize) {
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(dir);
    let lib = fs::read_to_string(src.join("lib.rs")).unwrap();
    assert!(
        lib.contains("#![forbid(unsafe_code)]"),
        "{dir}/lib.rs must forbid unsafe_code"
    );
    let files = rust_files(&src);
    assert!(files.len() >= min_files, "{dir} looks empty");
    for path in files {
        let text = fs::read_to_string(&path).unwrap();
        assert!(
            !text.contains("allow(unsafe_code)"),
            "{} re-allows unsafe_code",
            path.display()
        );
    }
}

/// The Python extension (PyO3) has no `unsafe` of its own.
#[test]
fn python_bindings_forbid_unsafe() {
    bindings_forbid_unsafe("bindings/python/src", 5);
}

/// The WebAssembly package (wasm-bindgen) has no `unsafe` of its own.
#[test]
fn js_bindings_forbid_unsafe() {
    bindings_forbid_unsafe("bindings/js/src", 5);
}

/// The C ABI crate (issue #16): `unsafe` only under `crates/mldsa-ffi/src/boundary/`, every
/// other module of its lib.rs forbids it, and every `unsafe` block there is preceded by a
/// `SAFETY:` comment (clippy's `undocumented_unsafe_blocks` is denied in its Cargo.toml too).
#[test]
fn ffi_unsafe_only_in_boundary() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../mldsa-ffi/src");
    let lib = fs::read_to_string(src.join("lib.rs")).unwrap();
    assert!(
        lib.contains("#![deny(unsafe_code)]"),
        "mldsa-ffi lib.rs must deny unsafe_code"
    );
    let lines: Vec<&str> = lib.lines().collect();
    let mut forbidding = 0;
    for (i, line) in lines.iter().enumerate() {
        let Some(name) = line
            .trim()
            .strip_suffix(';')
            .and_then(|l| l.rsplit_once("mod "))
        else {
            continue;
        };
        let forbids = lines[..i]
            .iter()
            .rev()
            .take_while(|l| l.trim_start().starts_with("#["))
            .any(|l| l.trim() == "#[forbid(unsafe_code)]");
        assert_eq!(
            forbids,
            name.1 != "boundary",
            "mldsa-ffi lib.rs: `mod {}`",
            name.1
        );
        forbidding += usize::from(forbids);
    }
    assert!(
        forbidding >= 5,
        "only {forbidding} forbidding modules found in mldsa-ffi lib.rs"
    );
    let files = rust_files(&src);
    let mut blocks = 0;
    for path in files {
        let rel = path
            .strip_prefix(&src)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let text = fs::read_to_string(&path).unwrap();
        let code: Vec<&str> = text
            .lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .collect();
        let uses = code
            .iter()
            .filter(|l| l.contains("unsafe {") || l.contains("unsafe{"))
            .count();
        if rel.starts_with("boundary/") {
            blocks += uses;
        } else {
            // lib.rs's attributes (deny / forbid / the boundary's allow) are checked above.
            assert!(
                code.iter()
                    .all(|l| l.trim_start().starts_with('#') || !l.contains("unsafe")),
                "mldsa-ffi {rel} uses unsafe outside boundary/"
            );
        }
    }
    println!("mldsa-ffi: {blocks} unsafe blocks, all in src/boundary/");
    assert!(blocks > 0, "the boundary is expected to use unsafe");
}
