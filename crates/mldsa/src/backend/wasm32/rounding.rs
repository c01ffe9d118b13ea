//! Power2Round, Decompose and the hints of `crate::math::rounding`, and the subtraction that
//! precedes them in signing, on simd128 vectors: the portable functions' operations, lane by
//! lane (branch-free already), so the results are the same integers.

use super::ntt::{caddq_v, reduce32};
use crate::math::field::Q;
use crate::math::poly::{N, Poly};
use crate::math::rounding::D;
use core::arch::wasm32::*;

#[inline(always)]
fn load(p: &Poly, k: usize) -> v128 {
    let c = &p.0[4 * k..4 * k + 4];
    i32x4(c[0], c[1], c[2], c[3])
}

#[inline(always)]
fn store(p: &mut Poly, k: usize, x: v128) {
    let c = &mut p.0[4 * k..4 * k + 4];
    c[0] = i32x4_extract_lane::<0>(x);
    c[1] = i32x4_extract_lane::<1>(x);
    c[2] = i32x4_extract_lane::<2>(x);
    c[3] = i32x4_extract_lane::<3>(x);
}

/// `rounding::decompose` lane by lane: (r1, r0).
///
/// floor(x / 2 gamma2) is the portable multiply-and-shift: x M >> 48 with M < 2^31 and
/// x < 2^24, so the signed 32x32->64 products are the unsigned ones and bits 48.. are the high
/// half's bits 16...
///
/// Bounds: r in [0, q). Output r1 in [0, (q-1)/(2 gamma2)), r0 in [-gamma2, gamma2].
#[inline(always)]
fn decompose<const GAMMA2: i32>(r: v128) -> (v128, v128) {
    let mul = const {
        let m = (1u64 << 48).div_ceil(2 * GAMMA2 as u64);
        assert!(m < 1 << 31);
        m as i32
    };
    let top = i32x4_splat(const { (Q - 1) / (2 * GAMMA2) });
    let x = i32x4_add(r, i32x4_splat(GAMMA2 - 1));
    let m = i32x4_splat(mul);
    let (lo, hi) = (i64x2_extmul_low_i32x4(x, m), i64x2_extmul_high_i32x4(x, m));
    let r1 = i32x4_shr(i32x4_shuffle::<1, 3, 5, 7>(lo, hi), 16);
    let r0 = i32x4_sub(r, i32x4_mul(r1, i32x4_splat(2 * GAMMA2)));
    // Alg. 36 step 3, as the portable code: all ones where r1 = (q-1)/(2 gamma2).
    let wrap = i32x4_shr(i32x4_sub(v128_xor(r1, top), i32x4_splat(1)), 31);
    let r1 = v128_andnot(r1, wrap);
    let r0 = i32x4_sub(r0, v128_and(wrap, i32x4_splat(1)));
    (r1, r0)
}

/// Power2Round on every coefficient, as [`crate::math::rounding::power2_round_vec`].
///
/// Bounds: t in [0, q).
pub(super) fn power2_round_vec(t: &[Poly], t1: &mut [Poly], t0: &mut [Poly]) {
    tick!(Power2Round, t.len());
    for ((t, t1), t0) in t.iter().zip(t1.iter_mut()).zip(t0.iter_mut()) {
        for k in 0..N / 4 {
            let r = load(t, k);
            let r1 = i32x4_shr(i32x4_add(r, i32x4_splat((1 << (D - 1)) - 1)), D);
            store(t1, k, r1);
            store(t0, k, i32x4_sub(r, i32x4_shl(r1, D)));
        }
    }
}

/// HighBits on every coefficient, as [`crate::math::rounding::high_bits_vec`].
///
/// Bounds: w in [0, q).
pub(super) fn high_bits_vec<const GAMMA2: i32>(w: &[Poly], w1: &mut [Poly]) {
    tick!(HighBits, w.len());
    for (w, w1) in w.iter().zip(w1.iter_mut()) {
        for k in 0..N / 4 {
            store(w1, k, decompose::<GAMMA2>(load(w, k)).0);
        }
    }
}

/// 1 if ||LowBits(r)||_inf >= bound, else 0, as [`crate::math::rounding::low_bits_exceed`]:
/// every coefficient looked at, the lanes' verdicts or-ed together.
///
/// Bounds: r in [0, q); bound > 0.
pub(super) fn low_bits_exceed<const GAMMA2: i32>(r: &[Poly], bound: i32) -> u32 {
    tick!(LowBitsCheck, r.len());
    let limit = i32x4_splat(bound - 1);
    let mut any = i32x4_splat(0);
    for r in r {
        for k in 0..N / 4 {
            let r0 = decompose::<GAMMA2>(load(r, k)).1;
            // (bound - 1 - |r0|) is negative exactly when |r0| >= bound (Poly::exceeds).
            any = v128_or(any, i32x4_sub(limit, i32x4_abs(r0)));
        }
    }
    // The sign bit of any lane (`bitmask` gathers the four), to 0 or 1 without a comparison.
    (i32x4_bitmask(any) as u32).wrapping_neg() >> 31
}

/// MakeHint on every coefficient, as [`crate::math::rounding::make_hint_vec`]; returns the
/// number of 1s in h.
///
/// Bounds: r and r + z in [0, q) (`r_plus_z` is passed instead of z).
pub(super) fn make_hint_vec<const GAMMA2: i32>(
    r_plus_z: &[Poly],
    r: &[Poly],
    h: &mut [Poly],
) -> u32 {
    tick!(MakeHint, r.len());
    let mut count = i32x4_splat(0);
    for ((rz, r), h) in r_plus_z.iter().zip(r.iter()).zip(h.iter_mut()) {
        for k in 0..N / 4 {
            let r1 = decompose::<GAMMA2>(load(r, k)).0;
            let v1 = decompose::<GAMMA2>(load(rz, k)).0;
            // All ones where the high bits differ: h = 1 there, and the count goes up by one.
            let differ = i32x4_ne(r1, v1);
            store(h, k, v128_and(differ, i32x4_splat(1)));
            count = i32x4_sub(count, differ);
        }
    }
    let lanes = [
        i32x4_extract_lane::<0>(count),
        i32x4_extract_lane::<1>(count),
        i32x4_extract_lane::<2>(count),
        i32x4_extract_lane::<3>(count),
    ];
    lanes.iter().map(|&c| c as u32).sum()
}

/// UseHint on every coefficient, as [`crate::math::rounding::use_hint_vec`].
///
/// Bounds: h in {0, 1}, r in [0, q).
pub(super) fn use_hint_vec<const GAMMA2: i32>(h: &[Poly], r: &[Poly], w1: &mut [Poly]) {
    tick!(UseHint, r.len());
    let top = i32x4_splat(const { (Q - 1) / (2 * GAMMA2) });
    let one = i32x4_splat(1);
    for ((h, r), w1) in h.iter().zip(r.iter()).zip(w1.iter_mut()) {
        for k in 0..N / 4 {
            let (r1, r0) = decompose::<GAMMA2>(load(r, k));
            // The portable steps: +1 when r0 > 0, else -1, where h = 1; then mod (q-1)/2gamma2.
            let up = i32x4_shr(i32x4_neg(r0), 31);
            let step = v128_or(v128_and(up, one), v128_not(up));
            let moved = i32x4_add(r1, v128_and(step, i32x4_neg(load(h, k))));
            let moved = i32x4_add(moved, v128_and(i32x4_shr(moved, 31), top));
            let is_top = i32x4_shr(i32x4_sub(v128_xor(moved, top), one), 31);
            store(w1, k, v128_andnot(moved, is_top));
        }
    }
}

/// cs2 := freeze(w - cs2), as the portable `Backend::sub_freeze`.
///
/// Bounds: w in [0, q), |cs2| <= (q-1)/2; result in [0, q).
pub(super) fn sub_freeze(w: &[Poly], cs2: &mut [Poly]) {
    for (r, w) in cs2.iter_mut().zip(w) {
        for k in 0..N / 4 {
            let d = i32x4_sub(load(w, k), load(r, k));
            store(r, k, caddq_v(reduce32(d)));
        }
    }
}
