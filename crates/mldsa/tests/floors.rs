//! The floors of `src/` (issue 35): every `crate::` path in the library's source, unit-test
//! modules aside, names a floor at or below the one it is written in. The floors and their
//! order are read from the "Map of the floors" table in `src/lib.rs`, so the table and the code
//! cannot drift apart; paths through the crate root's re-exports (`crate::SigningKey`) count as
//! the floor of the item re-exported. Doc links count too: a reader follows them like imports.

#[path = "common/source.rs"]
mod source;

use source::{doc_table_rows, rust_files};
use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

fn src_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The floors, bottom-up, from the table in lib.rs: folder (or file stem) -> rank.
fn floors(lib: &str) -> BTreeMap<String, usize> {
    doc_table_rows(lib, "Map of the floors")
        .into_iter()
        .filter_map(|cells| {
            let rank = cells.first()?.parse::<usize>().ok()?;
            Some((cells.get(1)?.trim_matches('`').to_string(), rank))
        })
        .collect()
}

/// The crate root's re-exports: name -> the floor it comes from (`pub use crate::keys::...`).
fn root_reexports(lib: &str) -> BTreeMap<String, String> {
    let mut names = BTreeMap::new();
    let mut statement = String::new();
    for line in lib.lines() {
        let line = line.trim();
        if statement.is_empty() && !line.starts_with("pub use crate::") {
            continue;
        }
        statement.push_str(line);
        if !line.ends_with(';') {
            continue;
        }
        let path = statement
            .trim_start_matches("pub use crate::")
            .trim_end_matches(';');
        let floor = path.split("::").next().unwrap().to_string();
        let items = match path.split_once('{') {
            Some((_, list)) => list.trim_end_matches('}').to_string(),
            None => path.rsplit("::").next().unwrap().to_string(),
        };
        for item in items.split(',').map(str::trim).filter(|i| !i.is_empty()) {
            names.insert(item.to_string(), floor.clone());
        }
        statement.clear();
    }
    names
}

/// `text` with its `#[cfg(test)] mod name { ... }` blocks blanked (their lines kept, empty, so
/// that line numbers still match). Braces inside strings, character literals and comments are
/// skipped when matching the block's end.
fn without_test_modules(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::with_capacity(lines.len());
    let mut i = 0;
    while i < lines.len() {
        let opens_test_module = lines[i].trim() == "#[cfg(test)]"
            && lines.get(i + 1).is_some_and(|l| {
                let l = l.trim();
                (l.starts_with("mod ") || l.starts_with("pub(crate) mod ")) && l.ends_with('{')
            });
        if !opens_test_module {
            out.push(lines[i].to_string());
            i += 1;
            continue;
        }
        let mut depth = 0i32;
        let mut j = i + 1;
        loop {
            depth += brace_balance(lines[j]);
            out.push(String::new());
            j += 1;
            if depth == 0 || j == lines.len() {
                break;
            }
        }
        out.push(String::new()); // the attribute line
        i = j;
    }
    out.join("\n")
}

/// Opening minus closing braces on a line of code, outside strings, characters and comments.
fn brace_balance(line: &str) -> i32 {
    let bytes = line.as_bytes();
    let mut balance = 0;
    let mut k = 0;
    while k < bytes.len() {
        match bytes[k] {
            b'/' if bytes.get(k + 1) == Some(&b'/') => break,
            b'"' => {
                k += 1;
                while k < bytes.len() && bytes[k] != b'"' {
                    k += if bytes[k] == b'\\' { 2 } else { 1 };
                }
            }
            // A character literal ('{', '\'', '\n'), not a lifetime ('a).
            b'\'' if bytes.get(k + 2) == Some(&b'\'') => k += 2,
            b'\'' if bytes.get(k + 1) == Some(&b'\\') => {
                k += 2;
                while k < bytes.len() && bytes[k] != b'\'' {
                    k += 1;
                }
            }
            b'{' => balance += 1,
            b'}' => balance -= 1,
            _ => {}
        }
        k += 1;
    }
    balance
}

/// The identifiers that follow each `crate::` on a line.
fn crate_paths(line: &str) -> Vec<&str> {
    line.match_indices("crate::")
        .filter(|(at, _)| {
            // Not the tail of another path (`mldsa_crate::`); `$crate::` counts.
            *at == 0
                || !line.as_bytes()[at - 1].is_ascii_alphanumeric()
                    && line.as_bytes()[at - 1] != b'_'
        })
        .map(|(at, m)| {
            let rest = &line[at + m.len()..];
            let end = rest
                .find(|c: char| !c.is_ascii_alphanumeric() && c != '_')
                .unwrap_or(rest.len());
            &rest[..end]
        })
        .filter(|name| !name.is_empty())
        .collect()
}

#[test]
fn imports_run_only_downwards() {
    let lib = fs::read_to_string(src_dir().join("lib.rs")).unwrap();
    let floors = floors(&lib);
    assert!(
        floors.len() >= 10,
        "the map of the floors in lib.rs lists only {floors:?}"
    );
    let reexports = root_reexports(&lib);
    let files = rust_files(&src_dir());
    let mut checked = 0;
    let mut upward = Vec::new();
    for path in &files {
        let rel = path
            .strip_prefix(src_dir())
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        if rel == "lib.rs" {
            continue; // the root declares the floors and re-exports from every one of them
        }
        let floor = rel
            .split('/')
            .next()
            .unwrap()
            .trim_end_matches(".rs")
            .to_string();
        let Some(&rank) = floors.get(&floor) else {
            panic!("src/{rel}: its floor `{floor}` is not in lib.rs's map of the floors");
        };
        let text = without_test_modules(&fs::read_to_string(path).unwrap());
        for (n, line) in text.lines().enumerate() {
            for name in crate_paths(line) {
                let target = reexports.get(name).map_or(name, String::as_str);
                // Paths to the crate root's own items (macros, `crate::Parameters` ...) that are
                // not floors resolve through `reexports`; anything else is a floor or unknown.
                let Some(&target_rank) = floors.get(target) else {
                    panic!(
                        "src/{rel}:{}: `crate::{name}` is neither a floor nor a root re-export",
                        n + 1
                    );
                };
                checked += 1;
                if target_rank > rank {
                    upward.push(format!(
                        "src/{rel}:{}: {floor} -> {target}: {}",
                        n + 1,
                        line.trim()
                    ));
                }
            }
        }
    }
    assert!(
        checked > 300,
        "only {checked} crate:: paths found: is the source where expected?"
    );
    assert!(
        upward.is_empty(),
        "imports that run upwards:\n{}",
        upward.join("\n")
    );
}

/// The parser sees through what it must: a test module's braces inside strings and characters.
#[test]
fn test_module_stripping_balances_braces() {
    let text = "a\n#[cfg(test)]\nmod tests {\n    let s = \"}\";\n    let c = '{';\n    // }\n    fn f<'a>() {}\n}\nb crate::x";
    let stripped = without_test_modules(text);
    assert_eq!(stripped.lines().count(), text.lines().count());
    assert!(stripped.starts_with("a\n"));
    assert!(stripped.ends_with("b crate::x"));
    assert!(!stripped.contains("fn f"));
    assert_eq!(
        crate_paths("use crate::math::poly; $crate::support::x; my_crate::no"),
        ["math", "support"]
    );
}
