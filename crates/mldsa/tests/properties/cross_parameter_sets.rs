//! A signature or key of one parameter set is never accepted by another.

use mldsa::{Error, Input, SEED_LEN, Signature, SigningKey, VerifyingKey};
use proptest::prelude::*;

use crate::helpers::*;

/// A signature, verifying key or expanded key of parameter set `P` is never accepted as one of
/// `Q`: the lengths differ, and the error says so. Resized to `Q`'s length, it still does not
/// verify under `Q`'s key for the same seed.
pub(crate) fn prop_cross_parameter_sets<P: Set, Q: Set>(
    seed: [u8; SEED_LEN],
    msg: &[u8],
) -> TestResult {
    let sk = SigningKey::<P>::from_seed(&seed);
    let sig = sk.sign_deterministic(msg, &[]).unwrap();
    let vk = sk.verifying_key();
    let expanded = sk.to_expanded_bytes();

    prop_assert_eq!(
        Signature::<Q>::from_bytes(sig.as_bytes()),
        Err(Error::Length {
            input: Input::Signature,
            expected: Q::SIG_LEN,
            got: P::SIG_LEN
        })
    );
    prop_assert_eq!(
        VerifyingKey::<Q>::from_bytes(vk.as_bytes()),
        Err(Error::Length {
            input: Input::VerifyingKey,
            expected: Q::PK_LEN,
            got: P::PK_LEN
        })
    );
    prop_assert_eq!(
        SigningKey::<Q>::from_expanded(expanded.as_ref()).err(),
        Some(Error::Length {
            input: Input::SigningKey,
            expected: Q::SK_LEN,
            got: P::SK_LEN
        })
    );

    // The same seed makes unrelated keys in the two sets.
    let sk_q = SigningKey::<Q>::from_seed(&seed);
    let vk_q = sk_q.verifying_key();
    prop_assert_ne!(&vk_q.as_bytes()[32..], &vk.as_bytes()[32..]);

    // P's signature truncated or zero-padded to Q's length: rejected one way or the other.
    let mut resized = sig.as_bytes().to_vec();
    resized.resize(Q::SIG_LEN, 0);
    match Signature::<Q>::from_bytes(&resized) {
        Err(Error::Malformed {
            input: Input::Signature,
            ..
        }) => {}
        Err(e) => prop_assert!(false, "unexpected error {:?}", e),
        Ok(s) => prop_assert_eq!(vk_q.verify(msg, &[], &s), Err(Error::InvalidSignature)),
    }
    Ok(())
}
