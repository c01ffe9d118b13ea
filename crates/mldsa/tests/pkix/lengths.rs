//! Rejections: wrong lengths of the seed, the expanded key and the public key, every set.

use mldsa::pkix::{Algorithm, AnySigningKey, AnyVerifyingKey, Field, PkixError};
use mldsa::{MlDsa44, MlDsa65, MlDsa87, ParameterSet, SigningKey, VerifyingKey};

use crate::helpers::*;

#[test]
fn wrong_lengths() {
    let sk = SigningKey::<MlDsa65>::from_seed(&seed_rfc());
    let a = alg_id(Algorithm::MlDsa65);
    let e = sk.to_expanded_bytes();
    let e = e.as_ref();
    let s = seed_rfc();
    let cases: Vec<(Vec<u8>, PkixError)> = vec![
        (
            seed_inner(&s[..31]),
            PkixError::Length {
                at: Field::Seed,
                expected: 32,
                got: 31,
            },
        ),
        (
            seed_inner(&[s.as_slice(), &[0]].concat()),
            PkixError::Length {
                at: Field::Seed,
                expected: 32,
                got: 33,
            },
        ),
        (
            seed_inner(&[]),
            PkixError::Length {
                at: Field::Seed,
                expected: 32,
                got: 0,
            },
        ),
        (
            tlv(0x04, &e[..4031]),
            PkixError::Length {
                at: Field::ExpandedKey,
                expected: 4032,
                got: 4031,
            },
        ),
        (
            tlv(0x04, &[e, &[0]].concat()),
            PkixError::Length {
                at: Field::ExpandedKey,
                expected: 4032,
                got: 4033,
            },
        ),
        // A bare 32-byte OCTET STRING (an early draft's seed encoding) is an expandedKey of the
        // wrong length.
        (
            tlv(0x04, &s),
            PkixError::Length {
                at: Field::ExpandedKey,
                expected: 4032,
                got: 32,
            },
        ),
        (
            both_inner(&s[..16], e),
            PkixError::Length {
                at: Field::Seed,
                expected: 32,
                got: 16,
            },
        ),
        (
            both_inner(&s, &e[1..]),
            PkixError::Length {
                at: Field::ExpandedKey,
                expected: 4032,
                got: 4031,
            },
        ),
    ];
    for (inner, want) in cases {
        let doc = one_asymmetric_key(&[0], &a, &inner, &[]);
        assert_eq!(
            pkix(SigningKey::<MlDsa65>::from_pkcs8_der(&doc).unwrap_err()),
            want
        );
        assert_eq!(pkix(AnySigningKey::from_pkcs8_der(&doc).unwrap_err()), want);
    }
    let pk = sk.verifying_key().as_bytes();
    for (doc, got) in [
        (spki(&a, &pk[1..]), 1951),
        (spki(&a, &[pk, &[0]].concat()), 1953),
        (spki(&a, &[]), 0),
    ] {
        let want = PkixError::Length {
            at: Field::SubjectPublicKey,
            expected: 1952,
            got,
        };
        assert_eq!(
            pkix(VerifyingKey::<MlDsa65>::from_public_key_der(&doc).unwrap_err()),
            want
        );
        assert_eq!(
            pkix(AnyVerifyingKey::from_public_key_der(&doc).unwrap_err()),
            want
        );
    }
    let err = VerifyingKey::<MlDsa65>::from_public_key_der(&spki(&a, &pk[1..])).unwrap_err();
    assert_eq!(
        err.to_string(),
        "subjectPublicKey must be 1952 bytes, got 1951"
    );
}

/// Every parameter set: an expandedKey (alone or beside the seed) and a subjectPublicKey at
/// lengths 0, L - 1 and L + 1 give `PkixError::Length` naming the field and both lengths, through
/// the typed and the algorithm-agnostic decoders; the seed at 0, 31 and 33 likewise.
pub(crate) fn wrong_lengths_for<P: ParameterSet>(alg: Algorithm) {
    let sk = SigningKey::<P>::from_seed(&seed_ff());
    let a = alg_id(alg);
    let e = sk.to_expanded_bytes();
    let e = e.as_ref();
    let s = seed_ff();
    let long_e = [e, &[0]].concat();
    let long_s = [s.as_slice(), &[0]].concat();
    let expanded = |got| PkixError::Length {
        at: Field::ExpandedKey,
        expected: P::SK_LEN,
        got,
    };
    let seed = |got| PkixError::Length {
        at: Field::Seed,
        expected: 32,
        got,
    };
    let cases = [
        (tlv(0x04, &[]), expanded(0)),
        (tlv(0x04, &e[1..]), expanded(P::SK_LEN - 1)),
        (tlv(0x04, &long_e), expanded(P::SK_LEN + 1)),
        (both_inner(&s, &[]), expanded(0)),
        (both_inner(&s, &e[..P::SK_LEN - 1]), expanded(P::SK_LEN - 1)),
        (both_inner(&s, &long_e), expanded(P::SK_LEN + 1)),
        (seed_inner(&[]), seed(0)),
        (seed_inner(&s[..31]), seed(31)),
        (seed_inner(&long_s), seed(33)),
        (both_inner(&[], e), seed(0)),
        (both_inner(&long_s, e), seed(33)),
    ];
    for (inner, want) in cases {
        let doc = one_asymmetric_key(&[0], &a, &inner, &[]);
        assert_eq!(
            pkix(SigningKey::<P>::from_pkcs8_der(&doc).unwrap_err()),
            want,
            "{alg:?}"
        );
        assert_eq!(
            pkix(AnySigningKey::from_pkcs8_der(&doc).unwrap_err()),
            want,
            "{alg:?}"
        );
    }
    let pk = sk.verifying_key().as_bytes();
    for (doc, got) in [
        (spki(&a, &[]), 0),
        (spki(&a, &pk[1..]), P::PK_LEN - 1),
        (spki(&a, &[pk, &[0]].concat()), P::PK_LEN + 1),
    ] {
        let want = PkixError::Length {
            at: Field::SubjectPublicKey,
            expected: P::PK_LEN,
            got,
        };
        assert_eq!(
            pkix(VerifyingKey::<P>::from_public_key_der(&doc).unwrap_err()),
            want,
            "{alg:?}"
        );
        assert_eq!(
            pkix(AnyVerifyingKey::from_public_key_der(&doc).unwrap_err()),
            want,
            "{alg:?}"
        );
    }
    // The right lengths decode, in each form.
    for inner in [seed_inner(&s), tlv(0x04, e), both_inner(&s, e)] {
        let doc = one_asymmetric_key(&[0], &a, &inner, &[]);
        let back = SigningKey::<P>::from_pkcs8_der(&doc).unwrap();
        assert_eq!(back.verifying_key().as_bytes(), pk, "{alg:?}");
    }
    let vk = VerifyingKey::<P>::from_public_key_der(&spki(&a, pk)).unwrap();
    assert_eq!(vk.as_bytes(), pk);
}

#[test]
fn wrong_lengths_every_set() {
    wrong_lengths_for::<MlDsa44>(Algorithm::MlDsa44);
    wrong_lengths_for::<MlDsa65>(Algorithm::MlDsa65);
    wrong_lengths_for::<MlDsa87>(Algorithm::MlDsa87);
}
