//! The library's source files, for the tests that read the source itself (`floors.rs`,
//! `unsafe_budget.rs`, `ct_sites.rs`, `spec_map.rs`).

#![allow(dead_code)] // each test binary uses a different subset

use std::fs;
use std::path::{Path, PathBuf};

/// Every `.rs` file below `dir`, sorted.
pub fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    collect(dir, &mut out);
    out.sort();
    out
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            collect(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The cells of each table row (`| a | b | ... |`, trimmed) under the crate-doc heading
/// `# <heading>` of `lib` (a lib.rs), up to the next heading: the tables other tests hold the
/// code to (the spec map, the map of the floors).
pub fn doc_table_rows(lib: &str, heading: &str) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    let mut inside = false;
    for line in lib.lines() {
        let line = line.trim_start_matches("//!").trim();
        if line.strip_prefix("# ") == Some(heading) {
            inside = true;
            continue;
        }
        if inside && line.starts_with('#') {
            break;
        }
        if inside && line.starts_with('|') {
            let cells = line.trim_matches('|').split('|');
            rows.push(cells.map(|c| c.trim().to_string()).collect());
        }
    }
    rows
}
