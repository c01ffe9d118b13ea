//! Round trips, every set and every form, DER and PEM.

use mldsa::pkix::{
    Algorithm, AnySigningKey, AnyVerifyingKey, KeyForm, PemLabel, PkixError, der_algorithm,
    der_kind, pem_label,
};
use mldsa::{Error, MlDsa44, MlDsa65, MlDsa87, ParameterSet, SigningKey, VerifyingKey};

use crate::helpers::*;

pub(crate) fn round_trips<P: ParameterSet>() {
    let alg = Algorithm::of::<P>();
    for seed in [seed_rfc(), seed_ff(), [0x5a; 32]] {
        let sk = SigningKey::<P>::from_seed(&seed);
        let vk = *sk.verifying_key();
        for form in [KeyForm::Seed, KeyForm::Expanded, KeyForm::Both] {
            let der = sk.to_pkcs8_der(form).unwrap();
            let (back, got_form) = SigningKey::<P>::from_pkcs8_der_with_form(&der).unwrap();
            assert_eq!(got_form, form);
            assert_eq!(back.verifying_key(), &vk);
            assert_eq!(
                back.to_expanded_bytes().as_ref(),
                sk.to_expanded_bytes().as_ref()
            );
            let expect_seed = if form == KeyForm::Expanded {
                None
            } else {
                Some(&seed)
            };
            assert_eq!(back.seed(), expect_seed);
            // Writing again gives the same bytes.
            assert_eq!(back.to_pkcs8_der(form).unwrap().as_slice(), der.as_slice());

            let pem = sk.to_pkcs8_pem(form).unwrap();
            assert!(pem.starts_with("-----BEGIN PRIVATE KEY-----\n"));
            assert!(pem.ends_with("-----END PRIVATE KEY-----\n"));
            let body: Vec<&str> = pem.lines().filter(|l| !l.starts_with("-----")).collect();
            let (last, full) = body.split_last().unwrap();
            assert!(full.iter().all(|l| l.len() == 64), "64-column lines");
            assert!(!last.is_empty() && last.len() <= 64);
            let back = SigningKey::<P>::from_pkcs8_pem(&pem).unwrap();
            assert_eq!(back.verifying_key(), &vk);

            let (any, any_form) = AnySigningKey::from_pkcs8_der(&der).unwrap();
            assert_eq!((any.algorithm(), any_form), (P::NAME, form));
            assert_eq!(any.parameter_set(), alg);
            assert_eq!(any.verifying_key().as_bytes(), vk.as_bytes());
            assert_eq!(any.to_pkcs8_der(form).unwrap().as_slice(), der.as_slice());
            let (any, _) = AnySigningKey::from_pkcs8_pem(&pem).unwrap();
            assert_eq!(any.to_pkcs8_pem(form).unwrap().as_str(), pem.as_str());

            assert_eq!(pem_label(&pem), Some("PRIVATE KEY"));
            assert_eq!(der_kind(&der), Some(PemLabel::PrivateKey));
            assert_eq!(der_algorithm(&der).unwrap(), alg);
        }

        let der = vk.to_public_key_der();
        assert_eq!(VerifyingKey::<P>::from_public_key_der(&der).unwrap(), vk);
        let pem = vk.to_public_key_pem();
        assert!(pem.starts_with("-----BEGIN PUBLIC KEY-----\n"));
        assert!(pem.lines().all(|l| l.len() <= 64));
        assert_eq!(VerifyingKey::<P>::from_public_key_pem(&pem).unwrap(), vk);
        let any = AnyVerifyingKey::from_public_key_der(&der).unwrap();
        assert_eq!((any.algorithm(), any.as_bytes()), (P::NAME, vk.as_bytes()));
        assert_eq!(any.to_public_key_pem(), pem);
        assert_eq!(AnyVerifyingKey::from_public_key_pem(&pem).unwrap(), any);
        assert_eq!(pem_label(&pem), Some("PUBLIC KEY"));
        assert_eq!(der_kind(&der), Some(PemLabel::PublicKey));
        assert_eq!(der_algorithm(&der).unwrap(), alg);

        // Keys travel and still sign and verify.
        let (any_sk, _) =
            AnySigningKey::from_pkcs8_der(&sk.to_pkcs8_der(KeyForm::Seed).unwrap()).unwrap();
        let sig = any_sk.sign_deterministic(b"msg", b"ctx").unwrap();
        any.verify(b"msg", b"ctx", &sig).unwrap();
        assert_eq!(
            any.verify(b"msg", b"other", &sig),
            Err(Error::InvalidSignature)
        );
    }
}

#[test]
fn round_trips_ml_dsa_44() {
    round_trips::<MlDsa44>();
}

#[test]
fn round_trips_ml_dsa_65() {
    round_trips::<MlDsa65>();
}

#[test]
fn round_trips_ml_dsa_87() {
    round_trips::<MlDsa87>();
}

pub(crate) fn expanded_only_keys<P: ParameterSet>() {
    let sk = SigningKey::<P>::from_seed(&seed_ff());
    let imported = SigningKey::<P>::from_expanded(sk.to_expanded_bytes().as_ref()).unwrap();
    assert_eq!(imported.seed(), None);
    for form in [KeyForm::Seed, KeyForm::Both] {
        assert_eq!(
            pkix(imported.to_pkcs8_der(form).unwrap_err()),
            PkixError::NoSeed
        );
        assert_eq!(
            pkix(imported.to_pkcs8_pem(form).unwrap_err()),
            PkixError::NoSeed
        );
    }
    assert_eq!(
        imported.to_pkcs8_der(KeyForm::Expanded).unwrap().as_slice(),
        sk.to_pkcs8_der(KeyForm::Expanded).unwrap().as_slice()
    );
}

#[test]
fn keys_without_seed_write_only_the_expanded_form() {
    expanded_only_keys::<MlDsa44>();
    expanded_only_keys::<MlDsa65>();
    expanded_only_keys::<MlDsa87>();
}

#[test]
fn key_form_and_algorithm_names() {
    assert_eq!(KeyForm::default(), KeyForm::Seed);
    assert_eq!(KeyForm::Expanded.to_string(), "expandedKey");
    assert_eq!(Algorithm::from_name("ml-dsa-87"), Some(Algorithm::MlDsa87));
    assert_eq!(Algorithm::from_name("ML-DSA-66"), None);
    assert_eq!(Algorithm::MlDsa65.oid_str(), "2.16.840.1.101.3.4.3.18");
    assert_eq!(Algorithm::of::<MlDsa44>(), Algorithm::MlDsa44);
    assert_eq!(Algorithm::of::<MlDsa65>(), Algorithm::MlDsa65);
    assert_eq!(Algorithm::of::<MlDsa87>(), Algorithm::MlDsa87);
    for alg in Algorithm::ALL {
        let d: Vec<u8> = oid_of(alg);
        assert_eq!(d[2..], {
            let mut v = OID_PREFIX.to_vec();
            v.push(*d.last().unwrap());
            v
        });
    }
}
