//! Adversarial inputs: hand-made non-canonical encodings, boundary values, random garbage, and
//! checks that errors are informative without leaking secrets.
//!
//! Byte layouts used here (FIPS 204 Algorithms 22-27):
//!
//! - signature = c-tilde (lambda/4 bytes) || z (l polynomials, `Z_BITS` bits per coefficient,
//!   each stored as gamma1 - z, little-endian bit order) || hints (omega index bytes, then k
//!   cut points);
//! - expanded key = rho (32) || K (32) || tr (64) || s1 (l polynomials, `ETA_BITS` bits, stored
//!   as eta - s) || s2 (k polynomials, same) || t0 (k polynomials, 13 bits, stored as
//!   2^12 - t0).
//!
//! Every generic check is instantiated per parameter set at the bottom of the file.

use mldsa::{MlDsa44, MlDsa65, MlDsa87};

mod helpers;

mod degenerate_keys;
mod errors_and_debug;
mod expanded_keys;
mod hints;
mod random_inputs;
mod traits_and_rng_failure;
mod z_and_c_tilde;

// The generic checks, for the per-set modules below (`use super::*`).
use degenerate_keys::*;
use errors_and_debug::*;
use expanded_keys::*;
use hints::*;
use random_inputs::*;
use traits_and_rng_failure::*;
use z_and_c_tilde::*;

// ---------------------------------------------------------------------------------------------
// Instantiation per parameter set
// ---------------------------------------------------------------------------------------------

/// Random-input iterations per parameter set.
const FUZZ_ITERATIONS: usize = 12_000;

macro_rules! instantiate {
    ($module:ident, $p:ty, $seed:literal) => {
        mod $module {
            use super::*;

            #[test]
            fn hint_layout() {
                hint_layout_matches::<$p>();
            }

            #[test]
            fn non_canonical_hints() {
                non_canonical_hints_rejected::<$p>();
            }

            #[test]
            fn canonical_hint_boundaries() {
                canonical_hint_boundaries_accepted::<$p>();
            }

            #[test]
            fn z_range() {
                z_range_is_strict::<$p>();
            }

            #[test]
            fn z_max_verifies() {
                z_at_max_verifies::<$p>();
            }

            #[test]
            fn zero_t1_key() {
                zero_t1_key_verifies::<$p>();
            }

            #[test]
            fn c_tilde_bytes() {
                every_c_tilde_byte_matters::<$p>();
            }

            #[test]
            fn expanded_key() {
                expanded_key_strictness::<$p>();
            }

            #[test]
            fn degenerate_keys() {
                degenerate_public_keys::<$p>();
            }

            #[test]
            fn random_inputs() {
                random_inputs_never_panic::<$p>(FUZZ_ITERATIONS, $seed);
            }

            #[test]
            fn debug_no_secrets() {
                debug_output_has_no_secrets::<$p>();
            }

            #[test]
            fn signature_crate_traits() {
                signature_traits::<$p>();
            }

            #[test]
            fn failing_rng() {
                failing_rng_is_an_error::<$p>();
            }
        }
    };
}

instantiate!(ml_dsa_44, MlDsa44, 0x4444_0001);
instantiate!(ml_dsa_65, MlDsa65, 0x6565_0002);
instantiate!(ml_dsa_87, MlDsa87, 0x8787_0003);
