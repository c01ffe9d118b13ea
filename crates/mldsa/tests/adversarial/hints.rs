//! Strict signature decoding of the hints: the five non-canonical encodings are rejected, their
//! valid boundaries accepted.

use mldsa::{Error, Malformed, ParameterSet, SEED_LEN, Signature, SigningKey};

use crate::helpers::*;

/// The test-side HintBitPack reproduces the library's hint bytes, so the edits below start from
/// a correct picture of the layout.
pub(crate) fn hint_layout_matches<P: ParameterSet>() {
    let sk = SigningKey::<P>::from_seed(&[1; SEED_LEN]);
    let mut total_hints = 0;
    for i in 0..20u8 {
        let sig = sk.sign_deterministic(&[i], b"layout").unwrap();
        let hints = parse_hints::<P>(sig.as_bytes());
        for h in &hints {
            assert!(h.windows(2).all(|w| w[0] < w[1]), "indices increase");
        }
        total_hints += hints.iter().map(Vec::len).sum::<usize>();
        let y = encode_hints::<P>(&hints);
        assert_eq!(&sig.as_bytes()[hint_offset::<P>()..], &y[..]);
    }
    assert!(total_hints > 0, "signatures carry hints");
}

pub(crate) fn non_canonical_hints_rejected<P: ParameterSet>() {
    let (sk, msg, sig) = signature_with_rich_hints::<P>();
    let vk = sk.verifying_key();
    assert_eq!(vk.verify(&msg, b"", &sig), Ok(()));
    let bytes = sig.as_bytes();
    let y: Vec<u8> = bytes[hint_offset::<P>()..].to_vec();
    let hints = parse_hints::<P>(bytes);
    let cut = |i: usize| usize::from(y[P::OMEGA + i]);
    let start = |i: usize| if i == 0 { 0 } else { cut(i - 1) };
    let total = cut(P::K - 1);
    let check = |edit: &dyn Fn(&mut Vec<u8>), what: Malformed, label: &str| {
        let mut bad = y.clone();
        edit(&mut bad);
        assert_ne!(bad, y, "{label}: the edit changed nothing");
        assert_eq!(
            Signature::<P>::from_bytes(&with_hint_bytes::<P>(bytes, &bad)),
            Err(malformed_sig(what)),
            "{}: {label}",
            P::NAME
        );
    };

    // Indices within one polynomial: repeated, decreasing, last one not above the previous.
    let p = hints.iter().position(|h| h.len() >= 2).unwrap();
    let (s, e) = (start(p), cut(p));
    check(
        &|b| b[s + 1] = b[s],
        Malformed::HintIndicesNotIncreasing,
        "repeated index",
    );
    check(
        &|b| b.swap(s, s + 1),
        Malformed::HintIndicesNotIncreasing,
        "decreasing indices",
    );
    check(
        &|b| b[e - 1] = b[e - 2],
        Malformed::HintIndicesNotIncreasing,
        "last index repeated",
    );
    check(
        &|b| b[e - 1] = 0,
        Malformed::HintIndicesNotIncreasing,
        "last index reset to 0",
    );

    // Cut points: decreasing.
    let q = (1..P::K).find(|&i| cut(i - 1) >= 1).unwrap();
    check(
        &|b| b[P::OMEGA + q] = (cut(q - 1) - 1) as u8,
        Malformed::HintCountDecreasing,
        "cut point one below the previous",
    );
    check(
        &|b| b[P::OMEGA + q] = 0,
        Malformed::HintCountDecreasing,
        "cut point reset to 0",
    );

    // Cut points above omega.
    for v in [P::OMEGA + 1, P::OMEGA + 2, 255] {
        check(
            &|b| b[P::OMEGA + P::K - 1] = v as u8,
            Malformed::HintCountAboveOmega,
            "last cut point above omega",
        );
        check(
            &|b| b[P::OMEGA..].fill(v as u8),
            Malformed::HintCountAboveOmega,
            "every cut point above omega",
        );
    }

    // Padding after the last used index.
    assert!(total < P::OMEGA);
    check(
        &|b| b[total] = 1,
        Malformed::HintPaddingNonZero,
        "first padding byte",
    );
    check(
        &|b| b[P::OMEGA - 1] = 0x80,
        Malformed::HintPaddingNonZero,
        "last padding byte",
    );
    check(
        &|b| b[total..P::OMEGA].fill(0xFF),
        Malformed::HintPaddingNonZero,
        "all padding bytes",
    );
}

/// Canonical hint encodings at the edges of what is allowed decode (and then fail to verify,
/// since they are not the signer's hints); the signer's own hints re-encoded verify.
pub(crate) fn canonical_hint_boundaries_accepted<P: ParameterSet>() {
    let (sk, msg, sig) = signature_with_rich_hints::<P>();
    let vk = sk.verifying_key();
    let bytes = sig.as_bytes();
    let hints = parse_hints::<P>(bytes);
    let omega = P::OMEGA as u8;

    let accepted = |h: &[Vec<u8>], label: &str| {
        let encoded = with_hint_bytes::<P>(bytes, &encode_hints::<P>(h));
        let decoded = Signature::<P>::from_bytes(&encoded)
            .unwrap_or_else(|e| panic!("{}: {label}: {e}", P::NAME));
        assert_eq!(decoded.as_bytes(), &encoded[..]);
        decoded
    };
    let rejected_by_verify = |h: &[Vec<u8>], label: &str| {
        let s = accepted(h, label);
        assert_eq!(
            vk.verify(&msg, b"", &s),
            Err(Error::InvalidSignature),
            "{}: {label}",
            P::NAME
        );
    };

    // The signer's own hints, re-encoded: the original signature.
    let same = accepted(&hints, "original hints");
    assert_eq!(same, sig);
    assert_eq!(vk.verify(&msg, b"", &same), Ok(()));

    let empty = vec![Vec::new(); P::K];
    rejected_by_verify(&empty, "no hints at all");

    let mut all_last = empty.clone();
    all_last[P::K - 1] = (0..omega).collect();
    rejected_by_verify(&all_last, "omega hints in the last polynomial");

    let mut all_first = empty.clone();
    all_first[0] = (256 - P::OMEGA..256).map(|j| j as u8).collect();
    rejected_by_verify(
        &all_first,
        "omega hints in the first polynomial, up to index 255",
    );

    // The same index in every polynomial (strictly increasing is per polynomial only).
    let same_index: Vec<Vec<u8>> = (0..P::K).map(|_| vec![0, 255]).collect();
    rejected_by_verify(&same_index, "indices 0 and 255 in every polynomial");

    // Exactly omega hints spread evenly, no padding left.
    let per = P::OMEGA / P::K;
    let mut spread: Vec<Vec<u8>> = (0..P::K)
        .map(|i| (0..per as u8).map(|j| j * 3 + i as u8).collect())
        .collect();
    spread[P::K - 1].extend((0..(P::OMEGA - per * P::K) as u8).map(|j| 200 + j));
    assert_eq!(spread.iter().map(Vec::len).sum::<usize>(), P::OMEGA);
    rejected_by_verify(&spread, "exactly omega hints spread over the polynomials");

    // The signer's hints rearranged canonically: polynomial p's hints moved into the next one.
    let p = hints[..P::K - 1]
        .iter()
        .position(|h| !h.is_empty())
        .unwrap();
    let mut moved = hints.clone();
    let taken = std::mem::take(&mut moved[p]);
    moved[p + 1].extend(taken);
    moved[p + 1].sort_unstable();
    moved[p + 1].dedup();
    rejected_by_verify(&moved, "hints of one polynomial moved to the next");
}
