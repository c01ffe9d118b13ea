//! Every place where a secret-derived value is declared public is counted: adding one without
//! updating `declassify::SITES` (and so without a review of why FIPS 204 allows it) fails here.

use std::fs;
use std::path::Path;

#[test]
fn declassification_sites_are_all_accounted_for() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut found = Vec::new();
    let mut stack = vec![src];
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.file_name().unwrap() == "declassify.rs" {
                continue;
            }
            let text = fs::read_to_string(&path).unwrap();
            for (i, line) in text.lines().enumerate() {
                let code = line.split("//").next().unwrap();
                let calls = code.matches("public(").count() + code.matches("public_mut(").count();
                for _ in 0..calls {
                    found.push(format!("{}:{}", path.display(), i + 1));
                }
            }
        }
    }
    found.sort();
    assert_eq!(
        found.len(),
        mldsa::declassify::SITES,
        "declassification sites changed; review them and update declassify::SITES:\n{}",
        found.join("\n")
    );
}
