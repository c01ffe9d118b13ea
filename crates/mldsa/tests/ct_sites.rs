//! Every place where a secret-derived value is declared public is reviewed: this file lists the
//! sites one by one (file and line of code), and the test fails if the source has one more, one
//! fewer, or one changed, so a new declassification cannot slip in unreviewed. See
//! `src/support/declassify.rs` and the policy in ASSURANCE.md section 2.

#[path = "common/source.rs"]
mod source;

use source::rust_files;
use std::fs;
use std::path::Path;

/// The reviewed sites: (file under `src/`, the line of code, trimmed), sorted by file and then in
/// source order. What each one reveals, and why FIPS 204 allows it, is in the `Constant time:`
/// comment above it.
const REVIEWED: &[(&str, &str)] = &[
    // NEON signing: c-tilde, and SampleInBall's stream SHAKE256(c-tilde), as lane 0 gives them.
    ("backend/aarch64/mask_lanes.rs", "public_mut(c_tilde);"),
    ("backend/aarch64/mask_lanes.rs", "public_mut(block);"),
    // AVX2 signing: c-tilde, and SampleInBall's stream SHAKE256(c-tilde), as lane 0 gives them.
    ("backend/x86_64/avx2/mask_lanes.rs", "public_mut(c_tilde);"),
    ("backend/x86_64/avx2/mask_lanes.rs", "public_mut(block);"),
    // One bit per ExpandS candidate nibble, eight at a time: which candidates were rejected.
    ("backend/x86_64/avx2/sample.rs", "let mask = public(mask);"),
    // The same on AVX-512, sixteen at a time.
    (
        "backend/x86_64/avx512/sample.rs",
        "let accept = public(_mm512_cmplt_epi32_mask(b, limit));",
    ),
    // The same on NEON, sixteen at a time.
    (
        "backend/aarch64/sample_bounded.rs",
        "let masks = public(masks);",
    ),
    // skDecode: the verdict on coefficients outside [-eta, eta] (a malformed key).
    ("encoding/encode.rs", "if public(bad_s1) != 0 {"),
    ("encoding/encode.rs", "if public(bad_s2) != 0 {"),
    // Strict expanded-key import: the verdict on tr and t0 (a malformed key).
    (
        "algorithm/expanded.rs",
        "if !public(bool::from(tr.ct_eq(&secret.tr))) {",
    ),
    (
        "algorithm/expanded.rs",
        "if !public(bool::from(t0_equal)) {",
    ),
    // KeyGen: rho and the public key (row by row as t1 is packed) are public by definition.
    ("algorithm/keygen.rs", "public_mut(&mut sk.rho);"),
    ("algorithm/keygen.rs", "public_mut(pk_i);"),
    // Signing's challenge with the scalar sponge: c-tilde.
    ("backend/mask_stream.rs", "public_mut(c_tilde);"),
    // Scalar rejection sampling: whether one candidate was rejected.
    ("hash/sample.rs", "public(b < limit).then_some(value)"),
    // Sign: the yes/no outcome of each of the four checks (the first two a polynomial at a
    // time, so also which polynomial failed first), the accepted z and h.
    ("algorithm/sign.rs", "if public(z_out) != 0 {"),
    ("algorithm/sign.rs", "if public(r0_out) != 0 {"),
    (
        "algorithm/sign.rs",
        "if public(b.vec_exceeds(ct0, P::GAMMA2)) != 0 {",
    ),
    ("algorithm/sign.rs", "if public(too_many) != 0 {"),
    ("algorithm/sign.rs", "public_mut(z);"),
    ("algorithm/sign.rs", "public_mut(s.w1);"),
];

/// How many lines above a site its `Constant time:` comment may start.
const COMMENT_WINDOW: usize = 8;

/// The code of a line: no `//` comment, no string literal contents (so "public key" in an error
/// message is not a site).
fn code_of(line: &str) -> String {
    let mut code = String::new();
    let mut in_string = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => in_string = !in_string,
            '\\' if in_string => {
                chars.next();
            }
            '/' if !in_string && chars.peek() == Some(&'/') => break,
            _ if in_string => {}
            _ => code.push(c),
        }
    }
    code
}

/// Whole-word occurrences of `word` in `code`.
fn mentions(code: &str, word: &str) -> usize {
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    code.match_indices(word)
        .filter(|&(i, _)| {
            let before = code[..i].chars().next_back();
            let after = code[i + word.len()..].chars().next();
            !before.is_some_and(is_ident) && !after.is_some_and(is_ident)
        })
        .count()
}

#[test]
fn declassification_sites_are_exactly_the_reviewed_list() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let files = rust_files(&src);

    let mut found: Vec<(String, String)> = Vec::new();
    let mut problems = Vec::new();
    for path in &files {
        let rel = path
            .strip_prefix(&src)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        // The two files that define the mechanism.
        if rel == "support/declassify.rs" || rel == "support/ct.rs" {
            continue;
        }
        let text = fs::read_to_string(path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let code = code_of(line);
            let uses = mentions(&code, "public") + mentions(&code, "public_mut");
            if mentions(&code, "declassify") > 0
                && !code
                    .trim_start()
                    .starts_with("use crate::support::declassify::")
                && code.trim() != "pub mod declassify;"
                && code.trim() != "pub use crate::support::declassify;"
            {
                problems.push(format!(
                    "{rel}:{}: the valgrind hook is called directly: {}",
                    i + 1,
                    line.trim()
                ));
            }
            if uses == 0 {
                continue;
            }
            if code.trim_start().starts_with("use ") {
                if code.contains(" as ") {
                    problems.push(format!(
                        "{rel}:{}: renamed on import (hides sites from this test): {}",
                        i + 1,
                        line.trim()
                    ));
                }
                continue;
            }
            let calls = code.matches("public(").count() + code.matches("public_mut(").count();
            if calls != uses {
                problems.push(format!(
                    "{rel}:{}: used other than as a direct call: {}",
                    i + 1,
                    line.trim()
                ));
            }
            let window = &lines[i.saturating_sub(COMMENT_WINDOW)..i];
            if !window.iter().any(|l| l.contains("Constant time:")) {
                problems.push(format!(
                    "{rel}:{}: no `Constant time:` comment above: {}",
                    i + 1,
                    line.trim()
                ));
            }
            for _ in 0..calls {
                found.push((rel.clone(), line.trim().to_string()));
            }
        }
    }

    assert!(problems.is_empty(), "{}", problems.join("\n"));
    let reviewed: Vec<(String, String)> = REVIEWED
        .iter()
        .map(|&(f, l)| (f.to_string(), l.to_string()))
        .collect();
    let unreviewed: Vec<_> = found.iter().filter(|s| !reviewed.contains(s)).collect();
    let gone: Vec<_> = reviewed.iter().filter(|s| !found.contains(s)).collect();
    assert!(
        unreviewed.is_empty() && gone.is_empty() && found.len() == reviewed.len(),
        "declassification sites changed; review them and update REVIEWED in tests/ct_sites.rs \
         (and declassify::SITES)\nnot reviewed: {unreviewed:#?}\nno longer in the source: {gone:#?}\n\
         found {} sites, {} reviewed",
        found.len(),
        reviewed.len()
    );
    assert_eq!(
        mldsa::declassify::SITES,
        REVIEWED.len(),
        "declassify::SITES is out of date"
    );
}
