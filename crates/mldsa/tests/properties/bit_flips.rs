//! Single-bit flips of the signature, message, context and verifying key are rejected: random
//! bits as a property, every bit for fixed keys.

use mldsa::{Error, MlDsa44, MlDsa65, MlDsa87, SEED_LEN, Signature, SigningKey, VerifyingKey};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

use crate::helpers::*;

/// Single-bit flips of the signature (random position), message, context and verifying key
/// are all rejected.
pub(crate) fn prop_bit_flips_rejected<P: Set>(
    seed: [u8; SEED_LEN],
    msg: &[u8],
    ctx: &[u8],
    bits: [usize; 4],
) -> TestResult {
    let sk = SigningKey::<P>::from_seed(&seed);
    let vk = sk.verifying_key();
    let sig = sk.sign_deterministic(msg, ctx).unwrap();
    prop_assert_eq!(vk.verify(msg, ctx, &sig), Ok(()));

    let sig_bit = bits[0] % (P::SIG_LEN * 8);
    flipped_signature_is_rejected(vk, msg, ctx, &flip_bit(sig.as_bytes(), sig_bit))
        .map_err(|e| TestCaseError::fail(format!("signature bit {sig_bit}: {e}")))?;

    if !msg.is_empty() {
        let m = flip_bit(msg, bits[1] % (msg.len() * 8));
        prop_assert_eq!(vk.verify(&m, ctx, &sig), Err(Error::InvalidSignature));
        prop_assert_ne!(
            vk.compute_mu(&m, ctx).unwrap(),
            vk.compute_mu(msg, ctx).unwrap()
        );
    }
    if !ctx.is_empty() {
        let c = flip_bit(ctx, bits[2] % (ctx.len() * 8));
        prop_assert_eq!(vk.verify(msg, &c, &sig), Err(Error::InvalidSignature));
    }
    let pk_bit = bits[3] % (P::PK_LEN * 8);
    let other_vk = VerifyingKey::<P>::from_bytes(&flip_bit(vk.as_bytes(), pk_bit)).unwrap();
    prop_assert_ne!(other_vk.tr(), vk.tr());
    prop_assert_eq!(
        other_vk.verify(msg, ctx, &sig),
        Err(Error::InvalidSignature),
        "public key bit {}",
        pk_bit
    );
    Ok(())
}
// ---------------------------------------------------------------------------------------------
// Exhaustive bit flips for fixed keys (plain tests; every bit position of the signature)
// ---------------------------------------------------------------------------------------------

/// Flips every bit of a signature, for two fixed keys, and checks that each result is
/// rejected. Work is split across threads since this is ~20k-37k verifications per key.
pub(crate) fn every_signature_bit_flip_is_rejected<P: Set>() {
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    for (seed_byte, ctx) in [(0x00u8, &b""[..]), (0xC3, &b"bit-flip context"[..])] {
        let sk = SigningKey::<P>::from_seed(&[seed_byte; SEED_LEN]);
        let vk = sk.verifying_key();
        let msg = b"every bit of this signature matters";
        let sig = sk.sign_deterministic(msg, ctx).unwrap();
        assert_eq!(vk.verify(msg, ctx, &sig), Ok(()));
        let total_bits = P::SIG_LEN * 8;
        let per_thread = total_bits.div_ceil(threads);
        let (malformed, invalid) = std::thread::scope(|s| {
            let handles: Vec<_> = (0..threads)
                .map(|t| {
                    let bytes = sig.as_bytes();
                    s.spawn(move || {
                        let (mut malformed, mut invalid) = (0usize, 0usize);
                        let start = t * per_thread;
                        let end = total_bits.min(start + per_thread);
                        for bit in start..end {
                            let flipped = flip_bit(bytes, bit);
                            if Signature::<P>::from_bytes(&flipped).is_err() {
                                malformed += 1;
                            } else {
                                invalid += 1;
                            }
                            if let Err(e) = flipped_signature_is_rejected(vk, msg, ctx, &flipped) {
                                panic!("{}: signature bit {bit}: {e}", P::NAME);
                            }
                        }
                        (malformed, invalid)
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap())
                .fold((0, 0), |(a, b), (c, d)| (a + c, b + d))
        });
        assert_eq!(malformed + invalid, total_bits);
        // Flips of c-tilde and of most of z decode and fail verification; flips in the hint
        // section mostly fail decoding.
        assert!(invalid >= 8 * (P::C_TILDE_LEN + P::L * 32 * P::Z_BITS) / 2);
        assert!(malformed > 0);
        println!(
            "{} key {seed_byte:#04x}: {total_bits} flips, {malformed} rejected by decoding, \
             {invalid} by verification",
            P::NAME
        );
    }
}

#[test]
fn every_signature_bit_flip_is_rejected_44() {
    every_signature_bit_flip_is_rejected::<MlDsa44>();
}

#[test]
fn every_signature_bit_flip_is_rejected_65() {
    every_signature_bit_flip_is_rejected::<MlDsa65>();
}

#[test]
fn every_signature_bit_flip_is_rejected_87() {
    every_signature_bit_flip_is_rejected::<MlDsa87>();
}
