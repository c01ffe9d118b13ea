//! The spki / pkcs8 crates' traits.

use mldsa::pkix::KeyForm;
use mldsa::{MlDsa44, MlDsa65, MlDsa87, SigningKey, VerifyingKey};

use crate::helpers::*;

#[test]
fn spki_and_pkcs8_traits() {
    use mldsa::pkix::pkcs8::spki::{
        AssociatedAlgorithmIdentifier, DecodePublicKey, EncodePublicKey,
        SignatureAlgorithmIdentifier,
    };
    use mldsa::pkix::pkcs8::{DecodePrivateKey, EncodePrivateKey};

    let sk = SigningKey::<MlDsa65>::from_seed(&seed_rfc());
    let vk = *sk.verifying_key();
    assert_eq!(
        <VerifyingKey<MlDsa65> as AssociatedAlgorithmIdentifier>::ALGORITHM_IDENTIFIER
            .oid
            .to_string(),
        "2.16.840.1.101.3.4.3.18"
    );
    assert!(
        <SigningKey<MlDsa87> as SignatureAlgorithmIdentifier>::SIGNATURE_ALGORITHM_IDENTIFIER
            .parameters
            .is_none()
    );

    let doc = EncodePublicKey::to_public_key_der(&vk).unwrap();
    assert_eq!(doc.as_bytes(), data("mldsa65-rfc.pub.der"));
    let back =
        <VerifyingKey<MlDsa65> as DecodePublicKey>::from_public_key_der(doc.as_bytes()).unwrap();
    assert_eq!(back, vk);
    assert!(
        <VerifyingKey<MlDsa44> as DecodePublicKey>::from_public_key_der(doc.as_bytes()).is_err()
    );

    let doc = EncodePrivateKey::to_pkcs8_der(&sk).unwrap();
    assert_eq!(doc.as_bytes(), data("mldsa65-rfc.priv.der"));
    let back = <SigningKey<MlDsa65> as DecodePrivateKey>::from_pkcs8_der(doc.as_bytes()).unwrap();
    assert_eq!(back.seed(), Some(&seed_rfc()));
    let back =
        <SigningKey<MlDsa65> as DecodePrivateKey>::from_pkcs8_pem(&text("mldsa65-rfc.priv.pem"))
            .unwrap();
    assert_eq!(back.verifying_key(), &vk);
    assert!(<SigningKey<MlDsa87> as DecodePrivateKey>::from_pkcs8_der(doc.as_bytes()).is_err());

    // Through the traits too, the RFC's inconsistent keys are refused, and a key without a seed
    // is written in the expanded form.
    assert!(
        <SigningKey<MlDsa44> as DecodePrivateKey>::from_pkcs8_pem(&text(
            "rfc9881/bad-ML-DSA-44-1.priv"
        ))
        .is_err()
    );
    assert!(
        <SigningKey<MlDsa44> as DecodePrivateKey>::from_pkcs8_pem(&text(
            "rfc9881/bad-ML-DSA-44-3.priv"
        ))
        .is_err()
    );
    let no_seed = SigningKey::<MlDsa65>::from_expanded(sk.to_expanded_bytes().as_ref()).unwrap();
    let doc = EncodePrivateKey::to_pkcs8_der(&no_seed).unwrap();
    assert_eq!(
        doc.as_bytes(),
        sk.to_pkcs8_der(KeyForm::Expanded).unwrap().as_slice()
    );
}
