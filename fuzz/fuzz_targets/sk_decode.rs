//! Expanded signing-key decoding: `SigningKey::from_expanded` (strict) and
//! `SigningKey::from_expanded_unverified` on arbitrary bytes (any length).
//!
//! Properties:
//! - neither panics;
//! - the unverified import accepts exactly the right-length inputs whose s1 and s2 coefficients
//!   all lie in [-eta, eta] (checked with a spec-literal skDecode), which is bug class 11
//!   (AWS-LC#2874: malformed expanded keys accepted);
//! - an accepted key (either import) re-encodes to the same bytes with `to_expanded_bytes`, and
//!   has no seed;
//! - the strict import accepts only keys the unverified one accepts, whose tr field equals
//!   SHAKE256(pk) of the verifying key derived from them and whose rho is the pk's rho; both
//!   imports agree on that verifying key;
//! - an accepted key signs (deterministically) a signature that decodes canonically, and, for a
//!   strictly accepted key, verifies under its verifying key.
#![no_main]

use libfuzzer_sys::fuzz_target;
use mldsa::{ParameterSet, Signature, SigningKey};
use mldsa_fuzz::{Set, Spec, shake256, sk_ranges_ok, with_set};

const MSG: &[u8] = b"sk_decode fuzz message";

fn check<P: ParameterSet>(spec: &Spec, bytes: &[u8]) {
    assert_eq!(SigningKey::<P>::EXPANDED_LEN, spec.sk_len);
    let strict = SigningKey::<P>::from_expanded(bytes);
    let loose = SigningKey::<P>::from_expanded_unverified(bytes);
    let ranges_ok = bytes.len() == spec.sk_len && sk_ranges_ok(spec, bytes);
    assert_eq!(loose.is_ok(), ranges_ok, "s1/s2 range rule");
    if strict.is_ok() {
        assert!(
            loose.is_ok(),
            "strict import accepts what the unverified one rejects"
        );
    }
    let Ok(loose) = loose else {
        return;
    };

    let vk = loose.verifying_key();
    let tr_ok = bytes[64..128] == shake256(&[vk.as_bytes()], 64)[..];
    assert_eq!(&vk.as_bytes()[..32], &bytes[..32], "rho not carried to pk");
    if !tr_ok {
        assert!(strict.is_err(), "tr mismatch not caught");
    }

    for (sk, is_strict) in [(strict.as_ref().ok(), true), (Some(&loose), false)] {
        let Some(sk) = sk else { continue };
        assert_eq!(
            sk.to_expanded_bytes().as_ref(),
            bytes,
            "re-encoding differs"
        );
        assert!(sk.seed().is_none(), "expanded import invented a seed");
        assert_eq!(sk.verifying_key(), vk, "imports derive different keys");
        let sig = sk.sign_deterministic(MSG, b"").expect("signing failed");
        assert!(
            Signature::<P>::from_bytes(sig.as_bytes()).is_ok(),
            "signer produced a non-canonical signature"
        );
        if is_strict {
            vk.verify(MSG, b"", &sig)
                .expect("signature of a strictly imported key does not verify");
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&first, bytes)) = data.split_first() else {
        return;
    };
    let set = Set::from_byte(first);
    with_set!(set, check(&set.spec(), bytes));
});
