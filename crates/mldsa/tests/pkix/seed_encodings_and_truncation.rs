//! Rejections: seed encodings other than RFC 9881's, and truncated documents or trailing data.

use mldsa::pkix::{Algorithm, AnyVerifyingKey, DerProblem, Field, KeyForm, PkixError};
use mldsa::{Error, MlDsa44, SigningKey, VerifyingKey};

use crate::helpers::*;

#[test]
fn seed_encodings_other_than_the_rfc_one() {
    let a = alg_id(Algorithm::MlDsa44);
    let s = seed_rfc();
    for (inner, want) in [
        // Constructed [0] (BER, not DER).
        (
            tlv(0xa0, &tlv(0x04, &s)),
            PkixError::UnknownPrivateKeyForm { tag: 0xa0 },
        ),
        // [1], [2], an INTEGER, a BIT STRING.
        (
            tlv(0x81, &s),
            PkixError::UnknownPrivateKeyForm { tag: 0x81 },
        ),
        (
            tlv(0x82, &s),
            PkixError::UnknownPrivateKeyForm { tag: 0x82 },
        ),
        (
            tlv(0x02, &s),
            PkixError::UnknownPrivateKeyForm { tag: 0x02 },
        ),
        (
            tlv(0x03, &s),
            PkixError::UnknownPrivateKeyForm { tag: 0x03 },
        ),
        // The raw seed with no CHOICE around it (00 01 .. reads as tag 0x00).
        (
            s.to_vec(),
            PkixError::Der {
                at: Field::PrivateKey,
                problem: DerProblem::UnexpectedTag { found: 0 },
            },
        ),
        (
            seed_ff().to_vec(),
            PkixError::Der {
                at: Field::PrivateKey,
                problem: DerProblem::UnexpectedTag { found: 0xff },
            },
        ),
        // An empty privateKey.
        (
            vec![],
            PkixError::Der {
                at: Field::PrivateKey,
                problem: DerProblem::Truncated,
            },
        ),
        // Trailing bytes inside the privateKey OCTET STRING.
        (
            cat(&[&seed_inner(&s), &[0]]),
            PkixError::TrailingData {
                after: Field::PrivateKey,
            },
        ),
        // Non-minimal length octets (81 20 for 32).
        (
            cat(&[&[0x80, 0x81, 0x20], &s]),
            PkixError::Der {
                at: Field::PrivateKey,
                problem: DerProblem::Length,
            },
        ),
        // Indefinite length.
        (
            cat(&[&[0x80, 0x80], &s, &[0, 0]]),
            PkixError::Der {
                at: Field::PrivateKey,
                problem: DerProblem::Length,
            },
        ),
    ] {
        let doc = one_asymmetric_key(&[0], &a, &inner, &[]);
        assert_eq!(
            pkix(SigningKey::<MlDsa44>::from_pkcs8_der(&doc).unwrap_err()),
            want,
            "{:02x?}",
            &inner[..2.min(inner.len())]
        );
    }
    // `both` with a tagged seed or extra elements.
    let sk = SigningKey::<MlDsa44>::from_seed(&s);
    let e = sk.to_expanded_bytes();
    let tagged = tlv(0x30, &cat(&[&tlv(0x80, &s), &tlv(0x04, e.as_ref())]));
    let doc = one_asymmetric_key(&[0], &a, &tagged, &[]);
    assert_eq!(
        pkix(SigningKey::<MlDsa44>::from_pkcs8_der(&doc).unwrap_err()),
        PkixError::Der {
            at: Field::Seed,
            problem: DerProblem::UnexpectedTag { found: 0x80 }
        }
    );
    let extra = tlv(
        0x30,
        &cat(&[&tlv(0x04, &s), &tlv(0x04, e.as_ref()), &[0x05, 0x00]]),
    );
    let doc = one_asymmetric_key(&[0], &a, &extra, &[]);
    assert_eq!(
        pkix(SigningKey::<MlDsa44>::from_pkcs8_der(&doc).unwrap_err()),
        PkixError::TrailingData {
            after: Field::ExpandedKey
        }
    );
    let swapped = tlv(0x30, &cat(&[&tlv(0x04, e.as_ref()), &tlv(0x04, &s)]));
    let doc = one_asymmetric_key(&[0], &a, &swapped, &[]);
    assert_eq!(
        pkix(SigningKey::<MlDsa44>::from_pkcs8_der(&doc).unwrap_err()),
        PkixError::Length {
            at: Field::Seed,
            expected: 32,
            got: 2560
        }
    );
}

#[test]
fn truncated_and_trailing() {
    let sk = SigningKey::<MlDsa44>::from_seed(&seed_rfc());
    let docs = [
        sk.to_pkcs8_der(KeyForm::Seed).unwrap().to_vec(),
        sk.to_pkcs8_der(KeyForm::Both).unwrap().to_vec(),
        sk.verifying_key().to_public_key_der(),
    ];
    for doc in &docs {
        let is_pub = doc.len() > 1000 && doc[4] == 0x30;
        let read = |d: &[u8]| -> Result<(), Error> {
            if is_pub {
                VerifyingKey::<MlDsa44>::from_public_key_der(d).map(|_| ())
            } else {
                SigningKey::<MlDsa44>::from_pkcs8_der(d).map(|_| ())
            }
        };
        // Every proper prefix is rejected.
        for n in 0..doc.len() {
            let e = read(&doc[..n]).unwrap_err();
            assert!(
                matches!(
                    pkix(e),
                    PkixError::Der {
                        problem: DerProblem::Truncated,
                        ..
                    }
                ),
                "prefix {n}: {e:?}"
            );
        }
        // Anything appended is rejected.
        for extra in [&[0u8][..], &[0, 0], &[0x30, 0x00], &doc[..]] {
            let e = read(&cat(&[doc, extra])).unwrap_err();
            assert_eq!(
                pkix(e),
                PkixError::TrailingData {
                    after: Field::Document
                }
            );
        }
        // The outer length one too long, one too short.
        let mut longer = doc.clone();
        longer[3] += 1;
        assert!(read(&longer).is_err());
        let mut shorter = doc.clone();
        shorter[3] -= 1;
        assert!(read(&shorter).is_err());
    }
    // Data after the BIT STRING inside a SubjectPublicKeyInfo.
    let a = alg_id(Algorithm::MlDsa44);
    let pk = sk.verifying_key().as_bytes();
    let doc = tlv(
        0x30,
        &cat(&[&a, &tlv(0x03, &cat(&[&[0], pk])), &[0x05, 0x00]]),
    );
    assert_eq!(
        pkix(VerifyingKey::<MlDsa44>::from_public_key_der(&doc).unwrap_err()),
        PkixError::TrailingData {
            after: Field::SubjectPublicKey
        }
    );
    // BIT STRING with unused bits, or empty.
    let doc = tlv(0x30, &cat(&[&a, &tlv(0x03, &cat(&[&[1], pk]))]));
    assert_eq!(
        pkix(VerifyingKey::<MlDsa44>::from_public_key_der(&doc).unwrap_err()),
        PkixError::Der {
            at: Field::SubjectPublicKey,
            problem: DerProblem::Value
        }
    );
    let doc = tlv(0x30, &cat(&[&a, &tlv(0x03, &[])]));
    assert_eq!(
        pkix(VerifyingKey::<MlDsa44>::from_public_key_der(&doc).unwrap_err()),
        PkixError::Der {
            at: Field::SubjectPublicKey,
            problem: DerProblem::Value
        }
    );
    // OCTET STRING where the BIT STRING belongs.
    let doc = tlv(0x30, &cat(&[&a, &tlv(0x04, pk)]));
    assert_eq!(
        pkix(VerifyingKey::<MlDsa44>::from_public_key_der(&doc).unwrap_err()),
        PkixError::Der {
            at: Field::SubjectPublicKey,
            problem: DerProblem::UnexpectedTag { found: 0x04 }
        }
    );
    // A private key where a public key is expected and vice versa.
    let e = VerifyingKey::<MlDsa44>::from_public_key_der(&docs[0]).unwrap_err();
    assert_eq!(
        pkix(e),
        PkixError::Der {
            at: Field::AlgorithmIdentifier,
            problem: DerProblem::UnexpectedTag { found: 0x02 }
        }
    );
    let e = SigningKey::<MlDsa44>::from_pkcs8_der(&docs[2]).unwrap_err();
    assert_eq!(
        pkix(e),
        PkixError::Der {
            at: Field::Version,
            problem: DerProblem::UnexpectedTag { found: 0x30 }
        }
    );
    // Not a SEQUENCE at all; empty input.
    assert_eq!(
        pkix(SigningKey::<MlDsa44>::from_pkcs8_der(b"\x04\x00").unwrap_err()),
        PkixError::Der {
            at: Field::OneAsymmetricKey,
            problem: DerProblem::UnexpectedTag { found: 0x04 }
        }
    );
    assert_eq!(
        pkix(AnyVerifyingKey::from_public_key_der(b"").unwrap_err()),
        PkixError::Der {
            at: Field::SubjectPublicKeyInfo,
            problem: DerProblem::Truncated
        }
    );
}
