//! Known answers: pyca/cryptography (bundled OpenSSL) and RFC 9881's examples.

use mldsa::pkix::{AnySigningKey, KeyForm, PkixError};
use mldsa::{
    Error, Input, Malformed, MlDsa44, MlDsa65, MlDsa87, ParameterSet, SigningKey, VerifyingKey,
};

use crate::helpers::*;

pub(crate) fn peer_known_answers<P: ParameterSet>() {
    let n = &P::NAME[7..]; // "44"
    for (tag, seed) in [("rfc", seed_rfc()), ("ff", seed_ff())] {
        let base = format!("mldsa{n}-{tag}");
        let sk = SigningKey::<P>::from_seed(&seed);
        let vk = sk.verifying_key();

        // Ours, byte for byte, equals the peer's.
        assert_eq!(
            sk.to_pkcs8_der(KeyForm::Seed).unwrap().as_slice(),
            data(&format!("{base}.priv.der"))
        );
        assert_eq!(
            sk.to_pkcs8_pem(KeyForm::Seed).unwrap().as_str(),
            text(&format!("{base}.priv.pem"))
        );
        assert_eq!(vk.to_public_key_der(), data(&format!("{base}.pub.der")));
        assert_eq!(vk.to_public_key_pem(), text(&format!("{base}.pub.pem")));

        // The peer's, read by us, is the same key.
        let theirs = SigningKey::<P>::from_pkcs8_der(&data(&format!("{base}.priv.der"))).unwrap();
        assert_eq!(theirs.seed(), Some(&seed));
        assert_eq!(theirs.verifying_key(), vk);
        let theirs = SigningKey::<P>::from_pkcs8_pem(&text(&format!("{base}.priv.pem"))).unwrap();
        assert_eq!(theirs.verifying_key(), vk);
        let theirs =
            VerifyingKey::<P>::from_public_key_der(&data(&format!("{base}.pub.der"))).unwrap();
        assert_eq!(&theirs, vk);
        let theirs =
            VerifyingKey::<P>::from_public_key_pem(&text(&format!("{base}.pub.pem"))).unwrap();
        assert_eq!(&theirs, vk);
        let (any, form) =
            AnySigningKey::from_pkcs8_pem(&text(&format!("{base}.priv.pem"))).unwrap();
        assert_eq!((any.algorithm(), form), (P::NAME, KeyForm::Seed));
    }
}

#[test]
fn peer_known_answers_ml_dsa_44() {
    peer_known_answers::<MlDsa44>();
}

#[test]
fn peer_known_answers_ml_dsa_65() {
    peer_known_answers::<MlDsa65>();
}

#[test]
fn peer_known_answers_ml_dsa_87() {
    peer_known_answers::<MlDsa87>();
}

#[test]
fn rfc9881_examples() {
    let sk = SigningKey::<MlDsa44>::from_seed(&seed_rfc());
    // The seed-form example, as printed in RFC 9881.
    assert_eq!(
        sk.to_pkcs8_pem(KeyForm::Seed).unwrap().as_str(),
        "-----BEGIN PRIVATE KEY-----\n\
         MDQCAQAwCwYJYIZIAWUDBAMRBCKAIAABAgMEBQYHCAkKCwwNDg8QERITFBUWFxgZ\n\
         GhscHR4f\n\
         -----END PRIVATE KEY-----\n"
    );
    let both = text("rfc9881/ML-DSA-44-both.priv");
    let expanded = text("rfc9881/ML-DSA-44-expanded.priv");
    assert_eq!(sk.to_pkcs8_pem(KeyForm::Both).unwrap().as_str(), both);
    assert_eq!(
        sk.to_pkcs8_pem(KeyForm::Expanded).unwrap().as_str(),
        expanded
    );
    let (k, form) = SigningKey::<MlDsa44>::from_pkcs8_der_with_form(&pem_der(&both)).unwrap();
    assert_eq!((k.seed(), form), (Some(&seed_rfc()), KeyForm::Both));
    let (k, form) = AnySigningKey::from_pkcs8_pem(&expanded).unwrap();
    assert_eq!((k.seed(), form), (None, KeyForm::Expanded));
    assert_eq!(k.verifying_key().as_bytes(), sk.verifying_key().as_bytes());
    // The same public key as the peer's for this seed.
    assert_eq!(
        sk.verifying_key().to_public_key_der(),
        data("mldsa44-rfc.pub.der")
    );

    // RFC 9881's inconsistent examples: (1) `both` whose expandedKey is not its seed's;
    // (2) `expandedKey` whose tr does not match; (3) `expandedKey` whose t0 does not match.
    let bad1 = text("rfc9881/bad-ML-DSA-44-1.priv");
    assert_eq!(
        pkix(SigningKey::<MlDsa44>::from_pkcs8_pem(&bad1).unwrap_err()),
        PkixError::SeedExpandedMismatch
    );
    assert_eq!(
        pkix(AnySigningKey::from_pkcs8_pem(&bad1).unwrap_err()),
        PkixError::SeedExpandedMismatch
    );
    let malformed = |what| Error::Malformed {
        input: Input::SigningKey,
        what,
    };
    assert_eq!(
        SigningKey::<MlDsa44>::from_pkcs8_pem(&text("rfc9881/bad-ML-DSA-44-2.priv")).unwrap_err(),
        malformed(Malformed::TrMismatch)
    );
    assert_eq!(
        AnySigningKey::from_pkcs8_pem(&text("rfc9881/bad-ML-DSA-44-3.priv")).unwrap_err(),
        malformed(Malformed::T0Mismatch)
    );
}
