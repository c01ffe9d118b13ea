//! Property tests of the public API, written once as generic functions and run for each of
//! ML-DSA-44, ML-DSA-65 and ML-DSA-87 (see `instantiate!` at the bottom).
//!
//! - encodings round trip (verifying key, signature, expanded signing key, seed);
//! - sign then verify through every front door (hedged, deterministic, HashML-DSA, external mu,
//!   internal interface, streaming, `std::io::Write`);
//! - single-bit flips of the signature (every bit, for fixed keys; random bits otherwise), the
//!   message, the context and the verifying key are rejected;
//! - wrong lengths give `Error::Length` with the right fields, long contexts `ContextTooLong`;
//! - a signature or key of one parameter set is never accepted by another.
//!
//! Case counts are kept small (signing is the expensive part) so that the whole file runs in
//! a few seconds in the optimised test profile.

use mldsa::{MAX_CONTEXT_LEN, MlDsa44, MlDsa65, MlDsa87, PreHash, SEED_LEN};
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::select;

mod helpers;

mod bit_flips;
mod cross_parameter_sets;
mod encodings;
mod lengths_and_contexts;
mod sign_verify;

// The generic properties and the case counts, for the per-set modules below (`use super::*`).
use bit_flips::*;
use cross_parameter_sets::*;
use encodings::*;
use helpers::*;
use lengths_and_contexts::*;
use sign_verify::*;

// ---------------------------------------------------------------------------------------------
// Instantiation per parameter set
// ---------------------------------------------------------------------------------------------

fn msg_strategy() -> impl Strategy<Value = Vec<u8>> {
    vec(any::<u8>(), 0..2048)
}

fn ctx_strategy() -> impl Strategy<Value = Vec<u8>> {
    vec(any::<u8>(), 0..=MAX_CONTEXT_LEN)
}

fn prehash_strategy() -> impl Strategy<Value = PreHash> {
    select(PreHash::ALL.to_vec())
}

macro_rules! instantiate {
    ($module:ident, $p:ty, $other1:ty, $other2:ty) => {
        mod $module {
            use super::*;

            #[test]
            fn wrong_lengths_fixed() {
                fixed_wrong_lengths::<$p>();
            }

            #[test]
            fn context_length_boundary() {
                context_boundary::<$p>();
            }

            proptest! {
                #![proptest_config(ProptestConfig::with_cases(SIGN_CASES))]

                #[test]
                fn encodings_round_trip(
                    seed in any::<[u8; 32]>(), msg in msg_strategy(), ctx in ctx_strategy(),
                ) {
                    prop_encodings_round_trip::<$p>(seed, &msg, &ctx)?;
                }

                #[test]
                fn sign_verify_hedged(
                    seed in any::<[u8; 32]>(), r in any::<u64>(),
                    msg in msg_strategy(), ctx in ctx_strategy(),
                ) {
                    prop_sign_verify_hedged::<$p>(seed, r, &msg, &ctx)?;
                }

                #[test]
                fn sign_verify_deterministic(
                    seed in any::<[u8; 32]>(), msg in msg_strategy(), ctx in ctx_strategy(),
                ) {
                    prop_sign_verify_deterministic::<$p>(seed, &msg, &ctx)?;
                }

                #[test]
                fn hedged_randomness(
                    seed in any::<[u8; 32]>(), r1 in any::<u64>(), r2 in any::<u64>(),
                    msg in msg_strategy(), ctx in ctx_strategy(),
                ) {
                    prop_hedged_randomness::<$p>(seed, r1, r2, &msg, &ctx)?;
                }

                #[test]
                fn prehashed(
                    seed in any::<[u8; 32]>(), r in any::<u64>(),
                    ph in prehash_strategy(), other_ph in prehash_strategy(),
                    msg in msg_strategy(), ctx in ctx_strategy(),
                ) {
                    prop_prehashed::<$p>(seed, r, ph, other_ph, &msg, &ctx)?;
                }

                #[test]
                fn external_mu(
                    seed in any::<[u8; 32]>(), rnd in any::<[u8; 32]>(),
                    msg in msg_strategy(), ctx in ctx_strategy(),
                ) {
                    prop_external_mu::<$p>(seed, rnd, &msg, &ctx)?;
                }

                #[test]
                fn internal_interface(
                    seed in any::<[u8; 32]>(), rnd in any::<[u8; 32]>(),
                    m_prime in msg_strategy(), msg in msg_strategy(), ctx in ctx_strategy(),
                ) {
                    prop_internal::<$p>(seed, rnd, &m_prime, &msg, &ctx)?;
                }

                #[test]
                fn streaming(
                    seed in any::<[u8; 32]>(), r in any::<u64>(),
                    msg in msg_strategy(), ctx in ctx_strategy(),
                    cuts in vec(any::<usize>(), 0..12), step in 1usize..300,
                ) {
                    prop_streaming::<$p>(seed, r, &msg, &ctx, &cuts, step)?;
                }

                #[test]
                fn bit_flips_rejected(
                    seed in any::<[u8; 32]>(), msg in msg_strategy(), ctx in ctx_strategy(),
                    bits in any::<[usize; 4]>(),
                ) {
                    prop_bit_flips_rejected::<$p>(seed, &msg, &ctx, bits)?;
                }

                #[test]
                fn context_too_long(
                    seed in any::<[u8; 32]>(), len in (MAX_CONTEXT_LEN + 1)..2048,
                ) {
                    prop_context_too_long::<$p>(seed, len)?;
                }

                #[test]
                fn cross_parameter_sets(seed in any::<[u8; 32]>(), msg in msg_strategy()) {
                    prop_cross_parameter_sets::<$p, $other1>(seed, &msg)?;
                    prop_cross_parameter_sets::<$p, $other2>(seed, &msg)?;
                }
            }

            proptest! {
                #![proptest_config(ProptestConfig::with_cases(PARSE_CASES))]

                #[test]
                fn wrong_lengths_random(len in 0usize..(2 * <$p>::SK_LEN), fill in any::<u8>()) {
                    prop_lengths::<$p>(len, fill)?;
                }

                #[test]
                fn wrong_lengths_near_each_size(
                    which in 0usize..4, delta in -64isize..=64, fill in any::<u8>(),
                ) {
                    let base = [<$p>::PK_LEN, <$p>::SIG_LEN, <$p>::SK_LEN, SEED_LEN][which];
                    let len = base.saturating_add_signed(delta);
                    prop_lengths::<$p>(len, fill)?;
                }
            }
        }
    };
}

instantiate!(ml_dsa_44, MlDsa44, MlDsa65, MlDsa87);
instantiate!(ml_dsa_65, MlDsa65, MlDsa44, MlDsa87);
instantiate!(ml_dsa_87, MlDsa87, MlDsa44, MlDsa65);
