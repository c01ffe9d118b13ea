//! AVX2 rounding (Power2Round, Decompose, MakeHint, UseHint), norm checks and packing.
//!
//! (Stubs delegating to the portable code until the vectorised kernels land.)

use crate::params::Parameters;
use crate::poly::Poly;

/// Contract: as [`crate::rounding::power2_round_vec`].
#[target_feature(enable = "avx2")]
pub(crate) fn power2_round_vec(t: &[Poly], t1: &mut [Poly], t0: &mut [Poly]) {
    crate::rounding::power2_round_vec(t, t1, t0)
}

/// Contract: as [`crate::rounding::high_bits_vec`].
#[target_feature(enable = "avx2")]
pub(crate) fn high_bits_vec<P: Parameters>(w: &[Poly], w1: &mut [Poly]) {
    crate::rounding::high_bits_vec::<P>(w, w1)
}

/// Contract: as [`crate::rounding::low_bits_exceed`].
#[target_feature(enable = "avx2")]
pub(crate) fn low_bits_exceed<P: Parameters>(r: &[Poly], bound: i32) -> u32 {
    crate::rounding::low_bits_exceed::<P>(r, bound)
}

/// Contract: as [`crate::rounding::make_hint_vec`].
#[target_feature(enable = "avx2")]
pub(crate) fn make_hint_vec<P: Parameters>(r_plus_z: &[Poly], r: &[Poly], h: &mut [Poly]) -> u32 {
    crate::rounding::make_hint_vec::<P>(r_plus_z, r, h)
}

/// Contract: as [`crate::rounding::use_hint_vec`].
#[target_feature(enable = "avx2")]
pub(crate) fn use_hint_vec<P: Parameters>(h: &[Poly], r: &[Poly], w1: &mut [Poly]) {
    crate::rounding::use_hint_vec::<P>(h, r, w1)
}

/// Contract: as [`crate::poly::vec_exceeds`].
#[target_feature(enable = "avx2")]
pub(crate) fn vec_exceeds(v: &[Poly], bound: i32) -> u32 {
    crate::poly::vec_exceeds(v, bound)
}

/// FIPS 204 Algorithm 28, w1Encode. Contract: as [`crate::encode::w1_encode`].
#[target_feature(enable = "avx2")]
pub(crate) fn w1_encode<P: Parameters>(w1: &[Poly], out: &mut [u8]) {
    crate::encode::w1_encode::<P>(w1, out)
}
