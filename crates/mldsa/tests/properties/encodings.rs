//! Every encoding (verifying key, signature, expanded signing key, seed) round trips.

use mldsa::{SEED_LEN, Signature, SigningKey, VerifyingKey};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

use crate::helpers::*;

/// Every encoding decodes back to the same value, and a key re-imported from its expanded
/// encoding behaves exactly like the original.
pub(crate) fn prop_encodings_round_trip<P: Set>(
    seed: [u8; SEED_LEN],
    msg: &[u8],
    ctx: &[u8],
) -> TestResult {
    let sk = SigningKey::<P>::from_seed(&seed);
    prop_assert_eq!(sk.seed(), Some(&seed));
    let vk = sk.verifying_key();

    // Verifying key.
    prop_assert_eq!(vk.as_bytes().len(), P::PK_LEN);
    prop_assert_eq!(VerifyingKey::<P>::LEN, P::PK_LEN);
    let vk2 = VerifyingKey::<P>::from_bytes(vk.as_bytes())
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(&vk2, vk);
    prop_assert_eq!(vk2.tr(), vk.tr());
    let vk2_bytes = vk2.to_bytes();
    prop_assert_eq!(vk2_bytes.as_ref(), vk.as_bytes());
    prop_assert_eq!(VerifyingKey::<P>::try_from(vk.as_bytes()), Ok(*vk));

    // Seed as a slice.
    let sk_slice = SigningKey::<P>::from_seed_slice(&seed).unwrap();
    prop_assert_eq!(sk_slice.seed(), Some(&seed));
    prop_assert_eq!(sk_slice.verifying_key(), vk);

    // Expanded encoding, strict and unverified import.
    let expanded = sk.to_expanded_bytes();
    prop_assert_eq!(expanded.as_ref().len(), P::SK_LEN);
    prop_assert_eq!(SigningKey::<P>::EXPANDED_LEN, P::SK_LEN);
    prop_assert_eq!(&expanded.as_ref()[..32], &vk.as_bytes()[..32], "rho");
    prop_assert_eq!(&expanded.as_ref()[64..128], &vk.tr()[..], "tr");
    let sk2 = SigningKey::<P>::from_expanded(expanded.as_ref()).unwrap();
    let sk3 = SigningKey::<P>::from_expanded_unverified(expanded.as_ref()).unwrap();
    prop_assert_eq!(sk2.seed(), None);
    prop_assert_eq!(sk3.seed(), None);
    prop_assert_eq!(sk2.verifying_key(), vk);
    prop_assert_eq!(sk3.verifying_key(), vk);
    let (e2, e3) = (sk2.to_expanded_bytes(), sk3.to_expanded_bytes());
    prop_assert_eq!(e2.as_ref(), expanded.as_ref());
    prop_assert_eq!(e3.as_ref(), expanded.as_ref());

    // Same deterministic signatures from every form of the key.
    let sig = sk.sign_deterministic(msg, ctx).unwrap();
    prop_assert_eq!(sk2.sign_deterministic(msg, ctx).unwrap(), sig);
    prop_assert_eq!(sk3.sign_deterministic(msg, ctx).unwrap(), sig);
    prop_assert_eq!(sk.clone().sign_deterministic(msg, ctx).unwrap(), sig);

    // Signature.
    prop_assert_eq!(sig.as_bytes().len(), P::SIG_LEN);
    prop_assert_eq!(Signature::<P>::LEN, P::SIG_LEN);
    prop_assert_eq!(sig.c_tilde(), &sig.as_bytes()[..P::C_TILDE_LEN]);
    let sig_bytes = sig.to_bytes();
    prop_assert_eq!(sig_bytes.as_ref(), sig.as_bytes());
    let sig2 = Signature::<P>::from_bytes(sig.as_bytes()).unwrap();
    prop_assert_eq!(sig2, sig);
    prop_assert_eq!(sig2.as_bytes(), sig.as_bytes());
    prop_assert_eq!(Signature::<P>::try_from(sig.as_bytes()), Ok(sig));
    prop_assert_eq!(vk2.verify(msg, ctx, &sig2), Ok(()));
    Ok(())
}
