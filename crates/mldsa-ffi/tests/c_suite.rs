//! The C suite (`tests/c/run.sh`): builds libmldsa, checks that the headers and the exported
//! symbols agree, compiles the headers as C99 / C11 / C++20 with -Wall -Wextra -Werror
//! -pedantic, and runs the C tests (ACVP, reference and round-3 KATs, error paths, drop-ins)
//! plain, under ASan + UBSan, and under valgrind memcheck. Its closing line is
//! `N passed, N failed`. With `MLDSA_C_TARGET=aarch64-unknown-linux-gnu` in the environment the
//! suite runs its API checks on AArch64 under qemu instead (`scripts/aarch64-tests.sh` sets it).
//!
//! This file flattens the ACVP JSON into one line per case for the C programs (C has no JSON
//! parser to hand; the flattening only selects and renames fields, it computes nothing).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::Value;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn load(rel: &str) -> Value {
    let path = root().join("../shared/vectors/acvp").join(rel);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap()
}

/// A field as a token: the hex string, or "-" when absent or empty.
fn tok(v: &Value, key: &str) -> String {
    match v.get(key).and_then(Value::as_str) {
        Some(s) if !s.is_empty() => s.to_string(),
        _ => "-".to_string(),
    }
}

fn set(g: &Value) -> &str {
    g["parameterSet"]
        .as_str()
        .unwrap()
        .trim_start_matches("ML-DSA-")
}

/// The mldsa.h pre-hash id of an ACVP hash name, or -1 outside pre-hash groups.
fn hash_id(t: &Value) -> i32 {
    match t.get("hashAlg").and_then(Value::as_str) {
        Some(name) if name != "none" => {
            let ph: mldsa_core::PreHash = name.parse().unwrap();
            mldsa_core::PreHash::ALL
                .iter()
                .position(|&p| p == ph)
                .unwrap() as i32
        }
        _ => -1,
    }
}

/// pure | prehash | internal | mu.
fn kind(g: &Value) -> &'static str {
    match (
        g["signatureInterface"].as_str(),
        g.get("preHash").and_then(Value::as_str),
    ) {
        (Some("external"), Some("preHash")) => "prehash",
        (Some("external"), _) => "pure",
        _ if g.get("externalMu").and_then(Value::as_bool) == Some(true) => "mu",
        _ => "internal",
    }
}

/// Each test of `prompt` with its expected result of the same tcId.
fn cases<'a>(prompt: &'a Value, expected: &'a Value) -> Vec<(&'a Value, &'a Value, &'a Value)> {
    let mut out = Vec::new();
    for (g, eg) in prompt["testGroups"]
        .as_array()
        .unwrap()
        .iter()
        .zip(expected["testGroups"].as_array().unwrap())
    {
        assert_eq!(g["tgId"], eg["tgId"]);
        for (t, e) in g["tests"]
            .as_array()
            .unwrap()
            .iter()
            .zip(eg["tests"].as_array().unwrap())
        {
            assert_eq!(t["tcId"], e["tcId"]);
            out.push((g, t, e));
        }
    }
    out
}

/// `K set seed pk sk`, `G set kind rnd keyform key hashid ctx msg sig`,
/// `V set kind pk hashid ctx msg sig passed` ("-" for an empty field).
fn flatten_acvp() -> String {
    let mut out = String::new();
    let (p, e) = (
        load("ML-DSA-keyGen-FIPS204/prompt.json"),
        load("ML-DSA-keyGen-FIPS204/expectedResults.json"),
    );
    for (g, t, r) in cases(&p, &e) {
        writeln!(
            out,
            "K {} {} {} {}",
            set(g),
            tok(t, "seed"),
            tok(r, "pk"),
            tok(r, "sk")
        )
        .unwrap();
    }
    for dir in ["ML-DSA-sigGen-FIPS204", "ML-DSA-sigGen-FIPS204-tr1"] {
        let (p, e) = (
            load(&format!("{dir}/prompt.json")),
            load(&format!("{dir}/expectedResults.json")),
        );
        for (g, t, r) in cases(&p, &e) {
            let seeded = g.get("keyFormat").and_then(Value::as_str) == Some("seed");
            let key = if seeded { tok(t, "seed") } else { tok(t, "sk") };
            let msg = if kind(g) == "mu" {
                tok(t, "mu")
            } else {
                tok(t, "message")
            };
            let form = if seeded { "seed" } else { "sk" };
            writeln!(
                out,
                "G {} {} {} {form} {key} {} {} {msg} {}",
                set(g),
                kind(g),
                tok(t, "rnd"),
                hash_id(t),
                tok(t, "context"),
                tok(r, "signature")
            )
            .unwrap();
        }
    }
    let (p, e) = (
        load("ML-DSA-sigVer-FIPS204/prompt.json"),
        load("ML-DSA-sigVer-FIPS204/expectedResults.json"),
    );
    for (g, t, r) in cases(&p, &e) {
        let msg = if kind(g) == "mu" {
            tok(t, "mu")
        } else {
            tok(t, "message")
        };
        writeln!(
            out,
            "V {} {} {} {} {} {msg} {} {}",
            set(g),
            kind(g),
            tok(t, "pk"),
            hash_id(t),
            tok(t, "context"),
            tok(t, "signature"),
            u8::from(r["testPassed"].as_bool().unwrap())
        )
        .unwrap();
    }
    out
}

#[test]
fn c_suite() {
    let work = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("mldsa-ffi-c");
    std::fs::create_dir_all(&work).unwrap();
    let acvp = flatten_acvp();
    assert_eq!(
        acvp.lines().count(),
        75 + 360 + 720 + 180,
        "ACVP case count"
    );
    std::fs::write(work.join("acvp.txt"), acvp).unwrap();
    let status = Command::new("bash")
        .arg(root().join("crates/mldsa-ffi/tests/c/run.sh"))
        .arg(&work)
        .current_dir(root())
        .stdin(Stdio::null())
        .status()
        .expect("bash must be installed to run tests/c/run.sh");
    assert!(
        status.success(),
        "tests/c/run.sh failed ({status}): see its FAIL lines above"
    );
}
