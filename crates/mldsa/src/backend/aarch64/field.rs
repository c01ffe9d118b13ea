//! Arithmetic in Z_q on NEON vectors of four 32-bit lanes, and the loads and stores the kernels
//! share.
//!
//! Montgomery multiplication with the saturating doubling multiply-high (`sqdmulh`): for a
//! product a z, with t = a z q^-1 mod 2^32 (one `mul`, z q^-1 precomputed for a constant z),
//!
//!   (sqdmulh(a, z) - sqdmulh(t, q)) / 2   (`shsub`, which halves without overflowing)
//!
//! is exactly `field::montgomery_reduce(a z)` = (a z - t q) / 2^32. Why: write a z = H 2^32 + L
//! and t q = H' 2^32 + L' with 0 <= L, L' < 2^32. t q = a z mod 2^32 gives L = L', so
//! sqdmulh(a, z) = floor(2 a z / 2^32) = 2H + (L >> 31) and sqdmulh(t, q) = 2H' + (L >> 31):
//! the difference is 2 (H - H') and its half H - H' = (a z - t q) / 2^32, the integer the
//! portable code computes (its t is the same, lo32(a z) q^-1). `sqdmulh` saturates only for
//! i32::MIN times i32::MIN, which no input in the contracts below reaches (|a z| <= 2^31 q, and
//! q is not i32::MIN). So every kernel built on it gives the portable integers, not just values
//! congruent to them.
//!
//! Constant time: straight-line vector code.

use crate::math::field::Q;
use core::arch::aarch64::*;

/// q^-1 mod 2^32 (as `field`'s, which is private to it; checked below).
pub(super) const QINV: i32 = 58_728_449;
const _: () = assert!((Q as u32).wrapping_mul(QINV as u32) == 1);

/// z q^-1 mod 2^32: the precomputed half of a Montgomery multiplication by the constant z.
pub(super) const fn times_qinv(z: i32) -> i32 {
    z.wrapping_mul(QINV)
}

/// The four i32 at `a[0..4]` as a vector.
#[inline]
#[target_feature(enable = "neon")]
pub(super) fn load4(a: &[i32]) -> int32x4_t {
    let a: &[i32; 4] = a[..4].try_into().expect("four lanes");
    // SAFETY: `a` is four readable, initialised i32; `ld1` needs only i32 alignment.
    unsafe { vld1q_s32(a.as_ptr()) }
}

/// The vector at `a` (kernels that walk a polynomial by `as_chunks`, which needs no bounds
/// checks).
#[inline]
#[target_feature(enable = "neon")]
pub(super) fn load(a: &[i32; 4]) -> int32x4_t {
    // SAFETY: `a` is four readable, initialised i32; `ld1` needs only i32 alignment.
    unsafe { vld1q_s32(a.as_ptr()) }
}

/// Stores `x` at `out`.
#[inline]
#[target_feature(enable = "neon")]
pub(super) fn store(out: &mut [i32; 4], x: int32x4_t) {
    // SAFETY: `out` is four writable i32 (borrowed mutably); `st1` needs only i32 alignment.
    unsafe { vst1q_s32(out.as_mut_ptr(), x) }
}

/// The groups of four coefficients of `p`.
#[inline(always)]
pub(super) fn quads(p: &[i32; crate::math::poly::N]) -> &[[i32; 4]] {
    p.as_chunks::<4>().0
}

/// The groups of four coefficients of `p`, writable.
#[inline(always)]
pub(super) fn quads_mut(p: &mut [i32; crate::math::poly::N]) -> &mut [[i32; 4]] {
    p.as_chunks_mut::<4>().0
}

/// The two i64 at `a` as a vector (the 64-bit row sums of `products::row_term`).
#[inline]
#[target_feature(enable = "neon")]
pub(super) fn load64(a: &[i64; 2]) -> int64x2_t {
    // SAFETY: `a` is two readable, initialised i64; `ld1` needs only i64 alignment.
    unsafe { vld1q_s64(a.as_ptr()) }
}

/// Stores `x` at `out`.
#[inline]
#[target_feature(enable = "neon")]
pub(super) fn store64(out: &mut [i64; 2], x: int64x2_t) {
    // SAFETY: `out` is two writable i64 (borrowed mutably); `st1` needs only i64 alignment.
    unsafe { vst1q_s64(out.as_mut_ptr(), x) }
}

/// Stores `x` to `out[0..4]`.
#[inline]
#[target_feature(enable = "neon")]
pub(super) fn store4(out: &mut [i32], x: int32x4_t) {
    let out: &mut [i32; 4] = (&mut out[..4]).try_into().expect("four lanes");
    // SAFETY: `out` is four writable i32 (borrowed mutably); `st1` needs only i32 alignment.
    unsafe { vst1q_s32(out.as_mut_ptr(), x) }
}

/// `field::montgomery_reduce(a z)` lane by lane, `zq` = z q^-1 mod 2^32 lane by lane.
///
/// Bounds: |a z| <= 2^31 q; result in (-q, q), the portable integer (module docs).
#[inline]
#[target_feature(enable = "neon")]
pub(super) fn mont_mul_pre(a: int32x4_t, z: int32x4_t, zq: int32x4_t) -> int32x4_t {
    let hi = vqdmulhq_s32(a, z);
    let t = vmulq_s32(a, zq);
    vhsubq_s32(hi, vqdmulhq_s32(t, vdupq_n_s32(Q)))
}

/// As [`mont_mul_pre`] with the twiddle and its q^-1 multiple in lane `L` of `z` and `zq`
/// (the by-element forms, so one table vector holds four twiddles).
#[inline]
#[target_feature(enable = "neon")]
pub(super) fn mont_mul_lane<const L: i32>(a: int32x4_t, z: int32x4_t, zq: int32x4_t) -> int32x4_t {
    let hi = vqdmulhq_laneq_s32::<L>(a, z);
    let t = vmulq_laneq_s32::<L>(a, zq);
    vhsubq_s32(hi, vqdmulhq_s32(t, vdupq_n_s32(Q)))
}

/// `field::mont_mul(a, b)` lane by lane. Bounds: |a b| <= 2^31 q; result in (-q, q).
#[inline]
#[target_feature(enable = "neon")]
pub(super) fn mont_mul(a: int32x4_t, b: int32x4_t) -> int32x4_t {
    mont_mul_pre(a, b, vmulq_s32(b, vdupq_n_s32(QINV)))
}

/// `field::montgomery_reduce` on four 64-bit sums, lanes 0-1 in `lo` and 2-3 in `hi`.
///
/// Bounds: |a| <= 2^31 q; result in (-q, q), the portable integer.
#[inline]
#[target_feature(enable = "neon")]
pub(super) fn montgomery_reduce(lo: int64x2_t, hi: int64x2_t) -> int32x4_t {
    // The low halves (the even 32-bit lanes), times q^-1: t of each lane.
    let low = vuzp1q_s32(vreinterpretq_s32_s64(lo), vreinterpretq_s32_s64(hi));
    let t = vmulq_s32(low, vdupq_n_s32(QINV));
    let q = vdupq_n_s32(Q);
    // a - t q in 64 bits; the low halves are now 0, the high halves (odd lanes) the result.
    let d_lo = vmlsl_s32(lo, vget_low_s32(t), vget_low_s32(q));
    let d_hi = vmlsl_high_s32(hi, t, q);
    vuzp2q_s32(vreinterpretq_s32_s64(d_lo), vreinterpretq_s32_s64(d_hi))
}

/// `field::reduce32` lane by lane. Bounds: a <= 2^31 - 2^22 - 1; result in [-6283009, 6283008].
#[inline]
#[target_feature(enable = "neon")]
pub(super) fn reduce32(a: int32x4_t) -> int32x4_t {
    let t = vshrq_n_s32::<23>(vaddq_s32(a, vdupq_n_s32(1 << 22)));
    vmlsq_s32(a, t, vdupq_n_s32(Q))
}

/// `field::caddq` lane by lane. Bounds: [-q, q) in, [0, q) out.
#[inline]
#[target_feature(enable = "neon")]
pub(super) fn caddq(a: int32x4_t) -> int32x4_t {
    vaddq_s32(a, vandq_s32(vshrq_n_s32::<31>(a), vdupq_n_s32(Q)))
}
