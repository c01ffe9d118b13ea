//! Verifying-key decoding: `VerifyingKey::from_bytes` on arbitrary bytes (any length).
//!
//! Properties:
//! - it never panics and accepts exactly the byte strings of length pk_len (FIPS 204
//!   Algorithm 23: every such string is a key);
//! - an accepted key keeps its bytes (`as_bytes`, `to_bytes`), and tr = SHAKE256(pk, 64)
//!   computed with an independent SHAKE;
//! - the key survives SubjectPublicKeyInfo (DER and PEM) and `AnyVerifyingKey` unchanged, and
//!   the SPKI the library writes is read back by the typed and the any-set reader.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mldsa::pkix::{Algorithm, AnyVerifyingKey};
use mldsa::{ParameterSet, VerifyingKey};
use mldsa_fuzz::{Set, Spec, shake256, with_set};

fn check<P: ParameterSet>(spec: &Spec, bytes: &[u8]) {
    assert_eq!(VerifyingKey::<P>::LEN, spec.pk_len);
    let ours = VerifyingKey::<P>::from_bytes(bytes);
    assert_eq!(ours.is_ok(), bytes.len() == spec.pk_len, "length rule");
    assert_eq!(
        VerifyingKey::<P>::try_from(bytes).is_ok(),
        ours.is_ok(),
        "TryFrom disagrees"
    );
    let Ok(vk) = ours else {
        return;
    };
    assert_eq!(vk.as_bytes(), bytes);
    assert_eq!(vk.to_bytes().as_ref(), bytes);
    assert_eq!(
        vk.tr().as_slice(),
        shake256(&[bytes], 64).as_slice(),
        "tr != H(pk)"
    );

    let der = vk.to_public_key_der();
    let back = VerifyingKey::<P>::from_public_key_der(&der).expect("own SPKI rejected");
    assert_eq!(back, vk);
    assert_eq!(
        mldsa::pkix::der_algorithm(&der).ok(),
        Some(Algorithm::of::<P>())
    );
    let pem = vk.to_public_key_pem();
    assert_eq!(VerifyingKey::<P>::from_public_key_pem(&pem).ok(), Some(vk));

    let any = AnyVerifyingKey::from_public_key_der(&der).expect("own SPKI rejected (any)");
    assert_eq!(any.parameter_set(), Algorithm::of::<P>());
    assert_eq!(any.as_bytes(), bytes);
    let raw = AnyVerifyingKey::from_bytes(Algorithm::of::<P>(), bytes).expect("raw any");
    assert_eq!(raw, any);
    assert_eq!(any.to_public_key_der(), der);
}

fuzz_target!(|data: &[u8]| {
    let Some((&first, bytes)) = data.split_first() else {
        return;
    };
    let set = Set::from_byte(first);
    with_set!(set, check(&set.spec(), bytes));
});
