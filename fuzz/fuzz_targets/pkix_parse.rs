//! Key containers: SubjectPublicKeyInfo, PKCS#8 / OneAsymmetricKey and PEM through
//! `mldsa::pkix`, on arbitrary bytes.
//!
//! The first byte picks the parameter set for the typed readers; the rest is the document,
//! given to every reader (typed and any-set, DER and, if it is UTF-8, PEM) and to the sniffing
//! helpers. Properties:
//! - nothing panics;
//! - typed and any-set readers agree (the any-set reader accepts a document of set P exactly
//!   when the typed reader for P does, with the same key), and `der_algorithm` / `der_kind`
//!   name what was read;
//! - an accepted SPKI is canonical: the library writes back exactly the input bytes;
//! - an accepted PKCS#8 re-encodes (in the form it was read in) to a document that reads back
//!   to the same key and form; that document is never longer than the input, and when it has
//!   the same length it is byte for byte the input (strict DER: only a v2 publicKey or
//!   attributes, which the writer omits, can make a valid input longer);
//! - an accepted PEM document has the expected label, and the key re-encodes to PEM that reads
//!   back to the same key.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mldsa::pkix::{
    Algorithm, AnySigningKey, AnyVerifyingKey, KeyForm, PRIVATE_KEY_LABEL, PUBLIC_KEY_LABEL,
    PemLabel, der_algorithm, der_kind, pem_label,
};
use mldsa::{ParameterSet, SigningKey, VerifyingKey};
use mldsa_fuzz::{Set, with_set};

/// The parts of a signing key that define it.
fn identity<P: ParameterSet>(sk: &SigningKey<P>) -> (Vec<u8>, Option<[u8; 32]>, Vec<u8>) {
    (
        sk.to_expanded_bytes().as_ref().to_vec(),
        sk.seed().copied(),
        sk.verifying_key().as_bytes().to_vec(),
    )
}

fn any_identity(sk: &AnySigningKey) -> (Vec<u8>, Option<[u8; 32]>, Vec<u8>) {
    match sk {
        AnySigningKey::MlDsa44(k) => identity(k),
        AnySigningKey::MlDsa65(k) => identity(k),
        AnySigningKey::MlDsa87(k) => identity(k),
    }
}

fn check_der<P: ParameterSet>(doc: &[u8]) {
    let alg = Algorithm::of::<P>();
    let kind = der_kind(doc);
    let sniffed = der_algorithm(doc);

    // SubjectPublicKeyInfo.
    let typed = VerifyingKey::<P>::from_public_key_der(doc);
    let any = AnyVerifyingKey::from_public_key_der(doc);
    assert_eq!(
        typed.is_ok(),
        any.as_ref().is_ok_and(|k| k.parameter_set() == alg),
        "typed and any-set SPKI readers disagree"
    );
    if let Ok(any) = &any {
        assert_eq!(kind, Some(PemLabel::PublicKey));
        assert_eq!(sniffed.as_ref().ok(), Some(&any.parameter_set()));
        assert_eq!(
            any.to_public_key_der(),
            doc,
            "accepted SPKI is not canonical"
        );
    }
    if let Ok(vk) = typed {
        assert_eq!(
            vk.to_public_key_der(),
            doc,
            "accepted SPKI is not canonical"
        );
        assert_eq!(any.expect("checked").as_bytes(), vk.as_bytes());
    }

    // OneAsymmetricKey.
    let typed = SigningKey::<P>::from_pkcs8_der_with_form(doc);
    let any = AnySigningKey::from_pkcs8_der(doc);
    assert_eq!(
        typed.is_ok(),
        any.as_ref().is_ok_and(|(k, _)| k.parameter_set() == alg),
        "typed and any-set PKCS#8 readers disagree"
    );
    if let Ok((any, form)) = &any {
        assert_eq!(kind, Some(PemLabel::PrivateKey));
        assert_eq!(sniffed.as_ref().ok(), Some(&any.parameter_set()));
        let again = any.to_pkcs8_der(*form).expect("re-encode in the form read");
        check_reencoding(doc, &again);
        let (back, back_form) = AnySigningKey::from_pkcs8_der(&again).expect("own PKCS#8");
        assert_eq!(back_form, *form);
        assert_eq!(any_identity(&back), any_identity(any));
    }
    if let Ok((sk, form)) = typed {
        let (any, any_form) = any.expect("checked");
        assert_eq!(any_form, form);
        assert_eq!(any_identity(&any), identity(&sk));
        match form {
            KeyForm::Seed | KeyForm::Both => assert!(sk.seed().is_some()),
            KeyForm::Expanded => assert!(sk.seed().is_none()),
        }
    }
}

fn check_reencoding(input: &[u8], ours: &[u8]) {
    assert!(
        ours.len() <= input.len(),
        "re-encoding is longer than the accepted input"
    );
    if ours.len() == input.len() {
        assert_eq!(ours, input, "accepted PKCS#8 is not canonical");
    }
}

fn check_pem<P: ParameterSet>(text: &str) {
    let alg = Algorithm::of::<P>();
    let label = pem_label(text);

    let typed = VerifyingKey::<P>::from_public_key_pem(text);
    let any = AnyVerifyingKey::from_public_key_pem(text);
    assert_eq!(
        typed.is_ok(),
        any.as_ref().is_ok_and(|k| k.parameter_set() == alg)
    );
    if let Ok(any) = any {
        assert_eq!(label, Some(PUBLIC_KEY_LABEL));
        let back = AnyVerifyingKey::from_public_key_pem(&any.to_public_key_pem()).expect("own");
        assert_eq!(back, any);
        if let Ok(vk) = typed {
            assert_eq!(vk.as_bytes(), any.as_bytes());
        }
    }

    let typed = SigningKey::<P>::from_pkcs8_pem(text);
    let any = AnySigningKey::from_pkcs8_pem(text);
    assert_eq!(
        typed.is_ok(),
        any.as_ref().is_ok_and(|(k, _)| k.parameter_set() == alg)
    );
    if let Ok((any, form)) = any {
        assert_eq!(label, Some(PRIVATE_KEY_LABEL));
        let pem = any.to_pkcs8_pem(form).expect("re-encode");
        let (back, back_form) = AnySigningKey::from_pkcs8_pem(&pem).expect("own PEM");
        assert_eq!(back_form, form);
        assert_eq!(any_identity(&back), any_identity(&any));
        if let Ok(sk) = typed {
            assert_eq!(identity(&sk), any_identity(&any));
        }
    }
}

fn check<P: ParameterSet>(doc: &[u8]) {
    check_der::<P>(doc);
    if let Ok(text) = core::str::from_utf8(doc) {
        check_pem::<P>(text);
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&first, doc)) = data.split_first() else {
        return;
    };
    with_set!(Set::from_byte(first), check(doc));
});
