//! Wrong lengths give `Error::Length` with the right fields, pre-hash digests must have their
//! length, and contexts longer than 255 bytes give `ContextTooLong`.

use std::io::{self};

use mldsa::{
    Error, Input, MAX_CONTEXT_LEN, MuBuilder, PreHash, PreHashed, PreHasher, SEED_LEN, Signature,
    SigningKey, VerifyingKey,
};
use proptest::prelude::*;
use proptest::sample::select;

use crate::helpers::*;

/// Every decoder rejects a wrong length with `Error::Length` naming the input, the expected and
/// the actual length; the right length never gives a `Length` error.
pub(crate) fn prop_lengths<P: Set>(len: usize, fill: u8) -> TestResult {
    let bytes = vec![fill; len];
    let length = |input, expected| Error::Length {
        input,
        expected,
        got: len,
    };

    let r = VerifyingKey::<P>::from_bytes(&bytes);
    if len == P::PK_LEN {
        prop_assert!(r.is_ok(), "every {}-byte string is a verifying key", len);
    } else {
        prop_assert_eq!(r, Err(length(Input::VerifyingKey, P::PK_LEN)));
        prop_assert_eq!(
            VerifyingKey::<P>::try_from(&bytes[..]),
            Err(length(Input::VerifyingKey, P::PK_LEN))
        );
    }

    let r = Signature::<P>::from_bytes(&bytes);
    if len == P::SIG_LEN {
        let length_error = matches!(r, Err(Error::Length { .. }));
        prop_assert!(!length_error);
    } else {
        prop_assert_eq!(r, Err(length(Input::Signature, P::SIG_LEN)));
        prop_assert_eq!(
            Signature::<P>::try_from(&bytes[..]),
            Err(length(Input::Signature, P::SIG_LEN))
        );
    }

    if len == P::SK_LEN {
        let length_error = matches!(
            SigningKey::<P>::from_expanded(&bytes),
            Err(Error::Length { .. })
        );
        prop_assert!(!length_error);
    } else {
        prop_assert_eq!(
            SigningKey::<P>::from_expanded(&bytes).err(),
            Some(length(Input::SigningKey, P::SK_LEN))
        );
        prop_assert_eq!(
            SigningKey::<P>::from_expanded_unverified(&bytes).err(),
            Some(length(Input::SigningKey, P::SK_LEN))
        );
    }

    let r = SigningKey::<P>::from_seed_slice(&bytes);
    if len == SEED_LEN {
        let sk = r.unwrap();
        prop_assert_eq!(sk.seed(), Some(&[fill; SEED_LEN]));
    } else {
        prop_assert_eq!(r.err(), Some(length(Input::Seed, SEED_LEN)));
    }

    // Export into a caller's buffer: only exactly SK_LEN bytes are written, and a wrong-length
    // buffer is left untouched.
    let sk = SigningKey::<P>::from_seed(&[fill; SEED_LEN]);
    let mut out = vec![fill; len];
    let r = sk.write_expanded_bytes(&mut out);
    if len == P::SK_LEN {
        prop_assert_eq!(r, Ok(()));
        let expected = sk.to_expanded_bytes();
        prop_assert_eq!(&out[..], expected.as_ref());
    } else {
        prop_assert_eq!(r, Err(length(Input::SigningKey, P::SK_LEN)));
        prop_assert!(out.iter().all(|&b| b == fill));
    }
    Ok(())
}

/// Digest lengths of `PreHashed::from_digest` (independent of the parameter set).
pub(crate) fn prop_digest_length(ph: PreHash, len: usize) -> TestResult {
    let bytes = vec![0xA5; len];
    let r = PreHashed::from_digest(ph, &bytes);
    if len == ph.digest_len() {
        let d = r.unwrap();
        prop_assert_eq!(d.digest(), &bytes[..]);
        prop_assert_eq!(d.algorithm(), ph);
    } else {
        prop_assert_eq!(
            r,
            Err(Error::Length {
                input: Input::Digest,
                expected: ph.digest_len(),
                got: len
            })
        );
    }
    Ok(())
}

/// A context longer than 255 bytes is refused, with its length, by every entry point that
/// takes one.
pub(crate) fn prop_context_too_long<P: Set>(seed: [u8; SEED_LEN], len: usize) -> TestResult {
    let sk = SigningKey::<P>::from_seed(&seed);
    let vk = sk.verifying_key();
    let ctx = vec![0x5A; len];
    let msg = b"message";
    let e = Error::ContextTooLong { len };
    let ph = PreHashed::hash(PreHash::Sha2_256, msg);
    let sig = sk.sign_deterministic(msg, &[]).unwrap();
    let ph_sig = sk.sign_prehashed_deterministic(&ph, &[]).unwrap();

    prop_assert_eq!(sk.sign_with_rng(&mut TestRng::new(1), msg, &ctx), Err(e));
    prop_assert_eq!(sk.sign_deterministic(msg, &ctx), Err(e));
    prop_assert_eq!(
        sk.sign_prehashed_with_rng(&mut TestRng::new(1), &ph, &ctx),
        Err(e)
    );
    prop_assert_eq!(sk.sign_prehashed_deterministic(&ph, &ctx), Err(e));
    prop_assert_eq!(sk.message_signer(&ctx).err(), Some(e));
    prop_assert_eq!(vk.verify(msg, &ctx, &sig), Err(e));
    prop_assert_eq!(vk.verify_prehashed(&ph, &ctx, &ph_sig), Err(e));
    prop_assert_eq!(vk.compute_mu(msg, &ctx).err(), Some(e));
    prop_assert_eq!(vk.message_verifier(&ctx).err(), Some(e));
    prop_assert_eq!(MuBuilder::pure(vk.tr(), &ctx).err(), Some(e));
    prop_assert_eq!(MuBuilder::prehashed(vk.tr(), &ctx, &ph).err(), Some(e));
    Ok(())
}
// ---------------------------------------------------------------------------------------------
// Fixed boundary cases (plain tests)
// ---------------------------------------------------------------------------------------------

/// Lengths 0, L - 1, L + 1, 2L and L + 4096 for every decoder.
pub(crate) fn fixed_wrong_lengths<P: Set>() {
    for l in [P::PK_LEN, P::SIG_LEN, P::SK_LEN, SEED_LEN] {
        for len in [0, 1, l - 1, l, l + 1, 2 * l, l + 4096] {
            prop_lengths::<P>(len, 0x3C).unwrap();
            prop_lengths::<P>(len, 0xFF).unwrap();
        }
    }
}

/// A 255-byte context works everywhere; 256 does not.
pub(crate) fn context_boundary<P: Set>() {
    let sk = SigningKey::<P>::from_seed(&[7; SEED_LEN]);
    let vk = sk.verifying_key();
    let msg = b"context boundary";
    let ctx = [0xEE; MAX_CONTEXT_LEN];
    let sig = sk.sign_deterministic(msg, &ctx).unwrap();
    assert_eq!(vk.verify(msg, &ctx, &sig), Ok(()));
    let hedged = sk.sign_with_rng(&mut TestRng::new(9), msg, &ctx).unwrap();
    assert_eq!(vk.verify(msg, &ctx, &hedged), Ok(()));
    let mut signer = sk.message_signer(&ctx).unwrap();
    signer.update(msg);
    assert_eq!(signer.sign_deterministic().unwrap(), sig);
    let mut verifier = vk.message_verifier(&ctx).unwrap();
    verifier.update(msg);
    assert_eq!(verifier.verify(&sig), Ok(()));
    let mu = vk.compute_mu(msg, &ctx).unwrap();
    let mut b = MuBuilder::pure(vk.tr(), &ctx).unwrap();
    b.update(msg);
    assert_eq!(b.finalize(), mu);
    assert_eq!(vk.verify_mu(&mu, &sig), Ok(()));
    let ph = PreHashed::hash(PreHash::Shake256, msg);
    let ph_sig = sk.sign_prehashed_deterministic(&ph, &ctx).unwrap();
    assert_eq!(vk.verify_prehashed(&ph, &ctx, &ph_sig), Ok(()));
    let ph_hedged = sk
        .sign_prehashed_with_rng(&mut TestRng::new(3), &ph, &ctx)
        .unwrap();
    assert_eq!(vk.verify_prehashed(&ph, &ctx, &ph_hedged), Ok(()));
    assert!(MuBuilder::prehashed(vk.tr(), &ctx, &ph).is_ok());

    for len in [MAX_CONTEXT_LEN + 1, 4096, 1 << 16] {
        prop_context_too_long::<P>([7; SEED_LEN], len).unwrap();
    }
}

#[test]
fn digest_lengths_fixed() {
    for ph in PreHash::ALL {
        let n = ph.digest_len();
        for len in [0, 1, n - 1, n, n + 1, 64, 65, 2 * n, 1000] {
            prop_digest_length(ph, len).unwrap();
        }
    }
}

#[test]
fn prehasher_streaming_matches_one_shot() {
    let msg: Vec<u8> = (0..3000u32).map(|i| (i * 31 % 251) as u8).collect();
    for ph in PreHash::ALL {
        let one_shot = PreHashed::hash(ph, &msg);
        for step in [1, 7, 64, 135, 136, 137, 4096] {
            let mut h = PreHasher::new(ph);
            assert_eq!(h.algorithm(), ph);
            for c in msg.chunks(step) {
                h.update(c);
            }
            assert_eq!(h.finalize(), one_shot, "{ph} step {step}");
            let mut h = PreHasher::new(ph);
            io::copy(&mut TrickleReader { data: &msg, step }, &mut h).unwrap();
            assert_eq!(h.finalize(), one_shot, "{ph} io::copy step {step}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(PARSE_CASES))]

    #[test]
    fn digest_lengths_random(ph in select(PreHash::ALL.to_vec()), len in 0usize..200) {
        prop_digest_length(ph, len)?;
    }
}
