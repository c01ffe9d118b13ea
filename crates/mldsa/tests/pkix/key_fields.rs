//! Rejections: versions, the public-key field, inconsistent seed and expanded key, and invalid
//! expanded keys.

use mldsa::pkix::{Algorithm, AnySigningKey, DerProblem, Field, PkixError};
use mldsa::{Error, Input, Malformed, MlDsa44, MlDsa65, MlDsa87, SigningKey};

use crate::helpers::*;

#[test]
fn versions_and_the_public_key_field() {
    let sk = SigningKey::<MlDsa65>::from_seed(&seed_rfc());
    let pk = sk.verifying_key().as_bytes();
    let a = alg_id(Algorithm::MlDsa65);
    let e = sk.to_expanded_bytes();
    for inner in [
        seed_inner(&seed_rfc()),
        tlv(0x04, e.as_ref()),
        both_inner(&seed_rfc(), e.as_ref()),
    ] {
        // v2 with the matching public key: accepted.
        let v2 = one_asymmetric_key(&[1], &a, &inner, &public_key_field(pk));
        assert_eq!(
            SigningKey::<MlDsa65>::from_pkcs8_der(&v2)
                .unwrap()
                .verifying_key()
                .as_bytes(),
            pk
        );
        assert!(AnySigningKey::from_pkcs8_der(&v2).is_ok());

        // v2 with another key's public key.
        let other = SigningKey::<MlDsa65>::from_seed(&seed_ff());
        let doc = one_asymmetric_key(
            &[1],
            &a,
            &inner,
            &public_key_field(other.verifying_key().as_bytes()),
        );
        assert_eq!(
            pkix(SigningKey::<MlDsa65>::from_pkcs8_der(&doc).unwrap_err()),
            PkixError::PublicKeyMismatch
        );
        assert_eq!(
            pkix(AnySigningKey::from_pkcs8_der(&doc).unwrap_err()),
            PkixError::PublicKeyMismatch
        );
        // ... with one flipped bit,
        let mut flipped = pk.to_vec();
        flipped[1000] ^= 1;
        let doc = one_asymmetric_key(&[1], &a, &inner, &public_key_field(&flipped));
        assert_eq!(
            pkix(SigningKey::<MlDsa65>::from_pkcs8_der(&doc).unwrap_err()),
            PkixError::PublicKeyMismatch
        );
        // ... of the wrong length,
        let doc = one_asymmetric_key(&[1], &a, &inner, &public_key_field(&pk[..1951]));
        assert_eq!(
            pkix(SigningKey::<MlDsa65>::from_pkcs8_der(&doc).unwrap_err()),
            PkixError::Length {
                at: Field::PublicKey,
                expected: 1952,
                got: 1951
            }
        );
        // ... or with unused bits.
        let doc = one_asymmetric_key(&[1], &a, &inner, &tlv(0x81, &cat(&[&[3], pk])));
        assert_eq!(
            pkix(SigningKey::<MlDsa65>::from_pkcs8_der(&doc).unwrap_err()),
            PkixError::Der {
                at: Field::PublicKey,
                problem: DerProblem::Value
            }
        );

        // v1 with a public key, v2 without.
        let doc = one_asymmetric_key(&[0], &a, &inner, &public_key_field(pk));
        assert_eq!(
            pkix(SigningKey::<MlDsa65>::from_pkcs8_der(&doc).unwrap_err()),
            PkixError::VersionMismatch {
                version: 0,
                public_key_present: true
            }
        );
        let doc = one_asymmetric_key(&[1], &a, &inner, &[]);
        assert_eq!(
            pkix(SigningKey::<MlDsa65>::from_pkcs8_der(&doc).unwrap_err()),
            PkixError::VersionMismatch {
                version: 1,
                public_key_present: false
            }
        );

        // Versions other than 0 and 1, and non-minimal INTEGERs.
        for (version, want) in [
            (&[2][..], PkixError::UnsupportedVersion { found: 2 }),
            (&[0xff], PkixError::UnsupportedVersion { found: -1 }),
            (&[0x01, 0x00], PkixError::UnsupportedVersion { found: 256 }),
            (
                &[0x00, 0x00],
                PkixError::Der {
                    at: Field::Version,
                    problem: DerProblem::Value,
                },
            ),
            (
                &[0x00, 0x01],
                PkixError::Der {
                    at: Field::Version,
                    problem: DerProblem::Value,
                },
            ),
            (
                &[],
                PkixError::Der {
                    at: Field::Version,
                    problem: DerProblem::Value,
                },
            ),
        ] {
            let doc = one_asymmetric_key(version, &a, &inner, &[]);
            assert_eq!(
                pkix(SigningKey::<MlDsa65>::from_pkcs8_der(&doc).unwrap_err()),
                want,
                "{version:?}"
            );
        }

        // Attributes [0] are allowed (and ignored), before the public key too.
        let attrs = tlv(
            0xa0,
            &tlv(
                0x30,
                &cat(&[&tlv(0x06, &[0x2a, 0x03]), &tlv(0x31, &tlv(0x0c, b"x"))]),
            ),
        );
        let doc = one_asymmetric_key(&[0], &a, &inner, &attrs);
        assert!(SigningKey::<MlDsa65>::from_pkcs8_der(&doc).is_ok());
        let doc = one_asymmetric_key(&[1], &a, &inner, &cat(&[&attrs, &public_key_field(pk)]));
        assert!(SigningKey::<MlDsa65>::from_pkcs8_der(&doc).is_ok());
        // ... but must be well-formed, and come before the public key.
        let doc = one_asymmetric_key(&[0], &a, &inner, &tlv(0xa0, &[0x04, 0x00]));
        assert_eq!(
            pkix(SigningKey::<MlDsa65>::from_pkcs8_der(&doc).unwrap_err()),
            PkixError::Der {
                at: Field::Attributes,
                problem: DerProblem::UnexpectedTag { found: 0x04 }
            }
        );
        let doc = one_asymmetric_key(&[1], &a, &inner, &cat(&[&public_key_field(pk), &attrs]));
        assert_eq!(
            pkix(SigningKey::<MlDsa65>::from_pkcs8_der(&doc).unwrap_err()),
            PkixError::TrailingData {
                after: Field::PublicKey
            }
        );
        // Nothing may follow the public key (RFC 5958 defines no later field).
        let doc = one_asymmetric_key(
            &[1],
            &a,
            &inner,
            &cat(&[&public_key_field(pk), &tlv(0x82, &[0])]),
        );
        assert_eq!(
            pkix(SigningKey::<MlDsa65>::from_pkcs8_der(&doc).unwrap_err()),
            PkixError::TrailingData {
                after: Field::PublicKey
            }
        );
        let doc = one_asymmetric_key(&[0], &a, &inner, &[0x05, 0x00]);
        assert_eq!(
            pkix(SigningKey::<MlDsa65>::from_pkcs8_der(&doc).unwrap_err()),
            PkixError::TrailingData {
                after: Field::PrivateKey
            }
        );
    }
}

#[test]
fn inconsistent_both() {
    let sk = SigningKey::<MlDsa87>::from_seed(&seed_rfc());
    let a = alg_id(Algorithm::MlDsa87);
    let e = sk.to_expanded_bytes();
    let mut rng = XorShift(0x1234_5678_9abc_def1);
    for _ in 0..20 {
        let mut bad = e.as_ref().to_vec();
        let k = rng.below(bad.len());
        bad[k] ^= 1 << rng.below(8);
        let doc = one_asymmetric_key(&[0], &a, &both_inner(&seed_rfc(), &bad), &[]);
        assert_eq!(
            pkix(SigningKey::<MlDsa87>::from_pkcs8_der(&doc).unwrap_err()),
            PkixError::SeedExpandedMismatch
        );
    }
    // Another key's (valid) expanded key with this seed.
    let other = SigningKey::<MlDsa87>::from_seed(&seed_ff());
    let doc = one_asymmetric_key(
        &[0],
        &a,
        &both_inner(&seed_rfc(), other.to_expanded_bytes().as_ref()),
        &[],
    );
    let err = SigningKey::<MlDsa87>::from_pkcs8_der(&doc).unwrap_err();
    assert_eq!(pkix(err), PkixError::SeedExpandedMismatch);
    assert_eq!(
        err.to_string(),
        "the expanded key does not match the one its seed generates"
    );
}

#[test]
fn invalid_expanded_keys() {
    let sk = SigningKey::<MlDsa44>::from_seed(&seed_rfc());
    let a = alg_id(Algorithm::MlDsa44);
    let mut e = sk.to_expanded_bytes().as_ref().to_vec();
    e[128] = 0xff; // s1's first coefficients out of [-eta, eta]
    let doc = one_asymmetric_key(&[0], &a, &tlv(0x04, &e), &[]);
    assert_eq!(
        SigningKey::<MlDsa44>::from_pkcs8_der(&doc).unwrap_err(),
        Error::Malformed {
            input: Input::SigningKey,
            what: Malformed::S1OutOfRange
        }
    );
}
