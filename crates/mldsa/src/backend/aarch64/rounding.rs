//! Decompose, the hints and the norm checks of `crate::math::rounding` and `crate::math::poly`
//! on NEON vectors: the portable functions' operations lane by lane (branch-free already), so
//! the results are the same integers. (Power2Round and `sub_freeze` stay portable: LLVM
//! vectorises those loops as well as hand-written NEON, unrolled by two with paired loads.)
//!
//! Constant time: straight-line vector code; the verdicts are gathered with `umaxv`/`addv`
//! (data-independent timing), never by branching on a lane.

use super::field::{load, quads, quads_mut, store};
use crate::math::field::Q;
use crate::math::poly::Poly;
use core::arch::aarch64::*;

/// FIPS 204 Algorithm 36, Decompose, lane by lane, as `rounding::decompose`: (r1, r0).
///
/// floor(x / 2 gamma2) is the portable multiply-and-shift x M >> 48 (M < 2^31, x < 2^24):
/// `sqdmulh` gives floor(2 x M / 2^32) (2 x M < 2^56: no saturation), and a further shift by
/// 17 makes it floor(x M / 2^48), floors of floors being one floor.
///
/// Bounds: r in [0, q). Output r1 in [0, (q-1)/(2 gamma2)), r0 in [-gamma2, gamma2].
#[inline]
#[target_feature(enable = "neon")]
fn decompose<const GAMMA2: i32>(r: int32x4_t) -> (int32x4_t, int32x4_t) {
    let mul = const {
        let m = (1u64 << 48).div_ceil(2 * GAMMA2 as u64);
        assert!(m < 1 << 31);
        m as i32
    };
    let top = vdupq_n_s32(const { (Q - 1) / (2 * GAMMA2) });
    let x = vaddq_s32(r, vdupq_n_s32(GAMMA2 - 1));
    let r1 = vshrq_n_s32::<17>(vqdmulhq_s32(x, vdupq_n_s32(mul)));
    let r0 = vmlsq_s32(r, r1, vdupq_n_s32(2 * GAMMA2));
    // Alg. 36 step 3, as the portable code: all ones where r1 = (q-1)/(2 gamma2) (r1 <= that,
    // so the portable ((r1 ^ top) - 1) >> 31 is this equality), then r1 = 0 and r0 - 1 there.
    let wrap = vreinterpretq_s32_u32(vceqq_s32(r1, top));
    (vbicq_s32(r1, wrap), vaddq_s32(r0, wrap))
}

/// FIPS 204 Algorithm 37, HighBits, on every coefficient, as
/// [`crate::math::rounding::high_bits_vec`].
///
/// Bounds: w in [0, q).
#[target_feature(enable = "neon")]
pub(super) fn high_bits_vec<const GAMMA2: i32>(w: &[Poly], w1: &mut [Poly]) {
    tick!(HighBits, w.len());
    for (w, w1) in w.iter().zip(w1.iter_mut()) {
        for (w, w1) in quads(&w.0).iter().zip(quads_mut(&mut w1.0)) {
            store(w1, decompose::<GAMMA2>(load(w)).0);
        }
    }
}

/// 1 if ||LowBits(r)||_inf >= bound, else 0 (FIPS 204 Algorithm 38, LowBits, and the norm
/// check), as [`crate::math::rounding::low_bits_exceed`]: every coefficient looked at.
///
/// Bounds: r in [0, q); bound > 0.
#[target_feature(enable = "neon")]
pub(super) fn low_bits_exceed<const GAMMA2: i32>(r: &[Poly], bound: i32) -> u32 {
    tick!(LowBitsCheck, r.len());
    let limit = vdupq_n_s32(bound - 1);
    let mut any = vdupq_n_s32(0);
    for r in r {
        for r in quads(&r.0) {
            let r0 = decompose::<GAMMA2>(load(r)).1;
            // (bound - 1 - |r0|) is negative exactly when |r0| >= bound (Poly::exceeds).
            any = vorrq_s32(any, vsubq_s32(limit, vabsq_s32(r0)));
        }
    }
    sign_bit_of_any(any)
}

/// 1 if any lane of `x` is negative, else 0.
#[inline]
#[target_feature(enable = "neon")]
fn sign_bit_of_any(x: int32x4_t) -> u32 {
    vmaxvq_u32(vshrq_n_u32::<31>(vreinterpretq_u32_s32(x)))
}

/// 1 if any polynomial of `v` has a coefficient with |c| >= bound, else 0, as
/// [`crate::math::poly::vec_exceeds`] (the same wrapping |c| and difference, so the same verdict
/// for every i32 input).
///
/// Bounds: any coefficients; bound > 0.
#[target_feature(enable = "neon")]
pub(super) fn vec_exceeds(v: &[Poly], bound: i32) -> u32 {
    tick!(NormCheck, v.len());
    let limit = vdupq_n_s32(bound - 1);
    let (mut any0, mut any1) = (vdupq_n_s32(0), vdupq_n_s32(0));
    for p in v {
        for pair in quads(&p.0).chunks_exact(2) {
            any0 = vorrq_s32(any0, vsubq_s32(limit, vabsq_s32(load(&pair[0]))));
            any1 = vorrq_s32(any1, vsubq_s32(limit, vabsq_s32(load(&pair[1]))));
        }
    }
    sign_bit_of_any(vorrq_s32(any0, any1))
}

/// FIPS 204 Algorithm 39, MakeHint, on every coefficient, as
/// [`crate::math::rounding::make_hint_vec`]; returns the number of 1s in h.
///
/// Bounds: r and r + z in [0, q) (`r_plus_z` is passed instead of z).
#[target_feature(enable = "neon")]
pub(super) fn make_hint_vec<const GAMMA2: i32>(
    r_plus_z: &[Poly],
    r: &[Poly],
    h: &mut [Poly],
) -> u32 {
    tick!(MakeHint, r.len());
    let one = vdupq_n_u32(1);
    let mut count = vdupq_n_u32(0);
    for ((rz, r), h) in r_plus_z.iter().zip(r.iter()).zip(h.iter_mut()) {
        let lanes = quads(&rz.0).iter().zip(quads(&r.0));
        for ((rz, r), h) in lanes.zip(quads_mut(&mut h.0)) {
            let r1 = decompose::<GAMMA2>(load(r)).0;
            let v1 = decompose::<GAMMA2>(load(rz)).0;
            // 1 where the high bits differ: h there, and the count goes up by it.
            let differ = vbicq_u32(one, vceqq_s32(r1, v1));
            store(h, vreinterpretq_s32_u32(differ));
            count = vaddq_u32(count, differ);
        }
    }
    vaddvq_u32(count)
}

/// FIPS 204 Algorithm 40, UseHint, on every coefficient, as
/// [`crate::math::rounding::use_hint_vec`].
///
/// Bounds: h in {0, 1}, r in [0, q).
#[target_feature(enable = "neon")]
pub(super) fn use_hint_vec<const GAMMA2: i32>(h: &[Poly], r: &[Poly], w1: &mut [Poly]) {
    tick!(UseHint, r.len());
    let m = const { (Q - 1) / (2 * GAMMA2) };
    let top = vdupq_n_s32(m);
    let one = vdupq_n_s32(1);
    for ((h, r), w1) in h.iter().zip(r.iter()).zip(w1.iter_mut()) {
        let lanes = quads(&h.0).iter().zip(quads(&r.0));
        for ((h, r), w1) in lanes.zip(quads_mut(&mut w1.0)) {
            let (r1, r0) = decompose::<GAMMA2>(load(r));
            // The portable step (+1 where r0 > 0, else -1) negated: -1 where r0 > 0 (all
            // ones), else 1; subtracted only where h = 1 (-h all ones there).
            let minus_step = vorrq_s32(vreinterpretq_s32_u32(vcgtzq_s32(r0)), one);
            let moved = vsubq_s32(r1, vandq_s32(minus_step, vnegq_s32(load(h))));
            // moved mod m, for moved in [-1, m]: -1 to m - 1, m to 0.
            let w = if m & (m - 1) == 0 {
                // m = 16 (gamma2 = (q-1)/32): the low bits are the residue.
                vandq_s32(moved, vdupq_n_s32(m - 1))
            } else {
                let moved = vaddq_s32(moved, vandq_s32(vshrq_n_s32::<31>(moved), top));
                vbicq_s32(moved, vreinterpretq_s32_u32(vceqq_s32(moved, top)))
            };
            store(w1, w);
        }
    }
}
