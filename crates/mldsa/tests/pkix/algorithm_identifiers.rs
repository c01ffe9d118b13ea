//! Rejections: wrong or unknown algorithms and parameters that must be absent, and hand-built
//! documents equal to ours.

use mldsa::pkix::{
    Algorithm, AnySigningKey, AnyVerifyingKey, DerProblem, Field, KeyForm, PkixError,
};
use mldsa::{Error, MlDsa44, MlDsa65, MlDsa87, SigningKey, VerifyingKey};

use crate::helpers::*;

#[test]
fn wrong_or_unknown_algorithm() {
    let sk65 = SigningKey::<MlDsa65>::from_seed(&seed_rfc());
    for form in [KeyForm::Seed, KeyForm::Expanded, KeyForm::Both] {
        let der = sk65.to_pkcs8_der(form).unwrap();
        let want = PkixError::WrongAlgorithm {
            expected: Algorithm::MlDsa44,
            found: Algorithm::MlDsa65,
        };
        assert_eq!(
            pkix(SigningKey::<MlDsa44>::from_pkcs8_der(&der).unwrap_err()),
            want
        );
        let want = PkixError::WrongAlgorithm {
            expected: Algorithm::MlDsa87,
            found: Algorithm::MlDsa65,
        };
        assert_eq!(
            pkix(SigningKey::<MlDsa87>::from_pkcs8_der(&der).unwrap_err()),
            want
        );
    }
    let spki65 = sk65.verifying_key().to_public_key_der();
    let e = VerifyingKey::<MlDsa44>::from_public_key_der(&spki65).unwrap_err();
    assert_eq!(
        pkix(e),
        PkixError::WrongAlgorithm {
            expected: Algorithm::MlDsa44,
            found: Algorithm::MlDsa65
        }
    );
    assert_eq!(
        e.to_string(),
        "expected an ML-DSA-44 key, found an ML-DSA-65 key"
    );

    // An ML-DSA-65 OID on a document whose key has ML-DSA-44's lengths: caught by length.
    let sk44 = SigningKey::<MlDsa44>::from_seed(&seed_rfc());
    let relabelled = spki(&alg_id(Algorithm::MlDsa65), sk44.verifying_key().as_bytes());
    assert_eq!(
        pkix(AnyVerifyingKey::from_public_key_der(&relabelled).unwrap_err()),
        PkixError::Length {
            at: Field::SubjectPublicKey,
            expected: 1952,
            got: 1312
        }
    );
    let relabelled = one_asymmetric_key(
        &[0],
        &alg_id(Algorithm::MlDsa65),
        &tlv(0x04, sk44.to_expanded_bytes().as_ref()),
        &[],
    );
    assert_eq!(
        pkix(AnySigningKey::from_pkcs8_der(&relabelled).unwrap_err()),
        PkixError::Length {
            at: Field::ExpandedKey,
            expected: 4032,
            got: 2560
        }
    );

    // Another OID under the same arc (id-slh-dsa-sha2-128s = .20), and Ed25519.
    let other = tlv(0x30, &tlv(0x06, &cat(&[&OID_PREFIX, &[0x14]])));
    let doc = one_asymmetric_key(&[0], &other, &seed_inner(&seed_rfc()), &[]);
    let e = pkix(AnySigningKey::from_pkcs8_der(&doc).unwrap_err());
    let PkixError::UnknownAlgorithm { found } = e else {
        panic!("{e:?}")
    };
    assert_eq!(found.to_string(), "2.16.840.1.101.3.4.3.20");
    assert_eq!(
        Error::Pkix(e).to_string(),
        "algorithm 2.16.840.1.101.3.4.3.20 is not ML-DSA (RFC 9881)"
    );

    let ed25519 = spki(&tlv(0x30, &tlv(0x06, &[0x2b, 0x65, 0x70])), &[7; 32]);
    let e = pkix(VerifyingKey::<MlDsa65>::from_public_key_der(&ed25519).unwrap_err());
    let PkixError::UnknownAlgorithm { found } = e else {
        panic!("{e:?}")
    };
    assert_eq!(found.to_string(), "1.3.101.112");
    assert_eq!(
        pkix(AnyVerifyingKey::from_public_key_der(&ed25519).unwrap_err()),
        e
    );

    // rsaEncryption with NULL parameters: the OID is reported, not the parameters.
    let rsa = spki(
        &tlv(
            0x30,
            &cat(&[
                &tlv(
                    0x06,
                    &[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01],
                ),
                &[0x05, 0x00],
            ]),
        ),
        &[0x30, 0x00],
    );
    assert!(matches!(
        pkix(AnyVerifyingKey::from_public_key_der(&rsa).unwrap_err()),
        PkixError::UnknownAlgorithm { .. }
    ));

    // A malformed OID (non-minimal arc).
    let bad_oid = spki(&tlv(0x30, &tlv(0x06, &[0x80, 0x01])), &[0; 1312]);
    assert_eq!(
        pkix(AnyVerifyingKey::from_public_key_der(&bad_oid).unwrap_err()),
        PkixError::Der {
            at: Field::Algorithm,
            problem: DerProblem::Value
        }
    );
}

#[test]
fn parameters_must_be_absent() {
    let sk = SigningKey::<MlDsa44>::from_seed(&seed_rfc());
    for params in [
        &[0x05, 0x00][..],
        &[0x30, 0x00],
        &[0x04, 0x01, 0x00],
        &[0xff],
    ] {
        let with_params = tlv(0x30, &cat(&[&oid_of(Algorithm::MlDsa44), params]));
        let doc = one_asymmetric_key(&[0], &with_params, &seed_inner(&seed_rfc()), &[]);
        assert_eq!(
            pkix(SigningKey::<MlDsa44>::from_pkcs8_der(&doc).unwrap_err()),
            PkixError::ParametersPresent
        );
        assert_eq!(
            pkix(AnySigningKey::from_pkcs8_der(&doc).unwrap_err()),
            PkixError::ParametersPresent
        );
        let doc = spki(&with_params, sk.verifying_key().as_bytes());
        assert_eq!(
            pkix(VerifyingKey::<MlDsa44>::from_public_key_der(&doc).unwrap_err()),
            PkixError::ParametersPresent
        );
        assert_eq!(
            pkix(AnyVerifyingKey::from_public_key_der(&doc).unwrap_err()),
            PkixError::ParametersPresent
        );
    }
}

#[test]
fn hand_built_documents_match_ours() {
    // The test's own DER builder agrees with the library, so the negative cases below differ
    // from valid documents only where they say.
    let sk = SigningKey::<MlDsa87>::from_seed(&seed_ff());
    let a = alg_id(Algorithm::MlDsa87);
    let e = sk.to_expanded_bytes();
    assert_eq!(
        one_asymmetric_key(&[0], &a, &seed_inner(&seed_ff()), &[]),
        *sk.to_pkcs8_der(KeyForm::Seed).unwrap()
    );
    assert_eq!(
        one_asymmetric_key(&[0], &a, &tlv(0x04, e.as_ref()), &[]),
        *sk.to_pkcs8_der(KeyForm::Expanded).unwrap()
    );
    assert_eq!(
        one_asymmetric_key(&[0], &a, &both_inner(&seed_ff(), e.as_ref()), &[]),
        *sk.to_pkcs8_der(KeyForm::Both).unwrap()
    );
    assert_eq!(
        spki(&a, sk.verifying_key().as_bytes()),
        sk.verifying_key().to_public_key_der()
    );
}
