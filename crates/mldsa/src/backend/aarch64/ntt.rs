//! The NTT and NTT^-1 of `crate::math::ntt` on NEON vectors, and the coefficient-wise caddq and
//! centring.
//!
//! A polynomial is 64 vectors of four consecutive coefficients, handled in two passes that each
//! keep their data in registers (NEON has 32):
//! - the layers with len = 128, 64, 32, 16 pair vectors 32, 16, 8, 4 apart, so the 16 vectors
//!   c, c + 4, ..., c + 60 (c = 0..3) are closed under them: four rounds of 16 vectors, four
//!   layers each, with the 15 twiddles of those layers in four table vectors read by lane;
//! - the layers with len = 8, 4, 2, 1 stay inside blocks of 16 coefficients (four vectors):
//!   len 8 and 4 pair whole vectors; for len 2 and 1 the block is transposed (4x4), so that
//!   lane i of vector j holds coefficient 4i + j and the partners are again whole vectors, with
//!   a twiddle per lane. The NTT stores the transposed block with `st4`, which interleaves it
//!   back; NTT^-1 loads its blocks with `ld4`, which de-interleaves them.
//!
//! The operations are the portable ones, coefficient by coefficient (the same butterflies with
//! the same twiddles, wrapping additions, exact Montgomery products: `field.rs`), so each output
//! is the very integer the portable function computes and the portable bounds carry over: no
//! reduction between layers (input |c| < q grows by less than q per NTT layer, to < 9q; NTT^-1's
//! sums double per layer, to < 256 q < 2^31, and every product has |a z| < 2^31 q/2).
//!
//! Constant time: straight-line vector code; loop bounds and table indices depend only on
//! positions.

use super::field::{
    caddq as caddq_v, load, load4, mont_mul_lane, mont_mul_pre, quads_mut, store, store4,
    times_qinv,
};
use crate::math::field::Q;
use crate::math::ntt::{INV_NTT_SCALE, zeta_mont};
use crate::math::poly::{N, NttPoly, Poly};
use core::arch::aarch64::*;

/// Twiddles of one 16-coefficient block (four vectors) and their q^-1 multiples.
#[derive(Clone, Copy)]
struct BlockTwiddles {
    /// Lanes 0, 1, 2: the twiddles of the whole-vector layers (NTT: len 8, then len 4 for
    /// vectors 0-1 and 2-3; NTT^-1: len 4 for vectors 0-1 and 2-3, then len 8).
    whole: [i32; 4],
    whole_q: [i32; 4],
    /// Per lane (lane i = the block's i-th group of four): the len = 2 twiddle.
    len2: [i32; 4],
    len2_q: [i32; 4],
    /// Per lane: the len = 1 twiddle of the pair (4i, 4i + 1), then of (4i + 2, 4i + 3).
    len1: [[i32; 4]; 2],
    len1_q: [[i32; 4]; 2],
}

/// The blocks' twiddles, from ZETAS (FIPS 204 Appendix B, Montgomery form): the NTT's
/// (`forward`, Alg. 41 numbering: groups of a layer are m = N / (2 len) + their index), or
/// NTT^-1's (Alg. 42: -ZETAS, m counting down from 2 N / (2 len) - 1).
const fn block_twiddles(forward: bool) -> [BlockTwiddles; 16] {
    // Twiddle of group `g` (counted from the start of the polynomial) of the layer `len`.
    const fn tw(len: usize, g: usize, forward: bool) -> i32 {
        let first = N / (2 * len);
        if forward {
            zeta_mont(first + g)
        } else {
            -zeta_mont(2 * first - 1 - g)
        }
    }
    let zero = BlockTwiddles {
        whole: [0; 4],
        whole_q: [0; 4],
        len2: [0; 4],
        len2_q: [0; 4],
        len1: [[0; 4]; 2],
        len1_q: [[0; 4]; 2],
    };
    let mut t = [zero; 16];
    let mut b = 0;
    while b < 16 {
        // Block b: coefficients 16b..16b + 16; one len-8 group, two len-4 groups.
        t[b].whole = [
            tw(8, b, forward),
            tw(4, 2 * b, forward),
            tw(4, 2 * b + 1, forward),
            0,
        ];
        let mut i = 0;
        while i < 4 {
            t[b].len2[i] = tw(2, 4 * b + i, forward);
            t[b].len1[0][i] = tw(1, 8 * b + 2 * i, forward);
            t[b].len1[1][i] = tw(1, 8 * b + 2 * i + 1, forward);
            i += 1;
        }
        i = 0;
        while i < 4 {
            t[b].whole_q[i] = times_qinv(t[b].whole[i]);
            t[b].len2_q[i] = times_qinv(t[b].len2[i]);
            t[b].len1_q[0][i] = times_qinv(t[b].len1[0][i]);
            t[b].len1_q[1][i] = times_qinv(t[b].len1[1][i]);
            i += 1;
        }
        b += 1;
    }
    t
}

static FWD_BLOCKS: [BlockTwiddles; 16] = block_twiddles(true);
static INV_BLOCKS: [BlockTwiddles; 16] = block_twiddles(false);

/// The 15 twiddles of the layers len = 128..16, ZETAS\[m\] at lane m % 4 of vector m / 4
/// (m = 1..15), or -ZETAS\[m\] for NTT^-1 (whose groups of those layers use m = 15..1, Alg. 42),
/// which puts INV_NTT_SCALE in the free slot m = 0. Then the q^-1 multiples, as four more.
const fn strided_twiddles(forward: bool) -> [[i32; 4]; 8] {
    let mut t = [[0i32; 4]; 8];
    let mut m = 0;
    while m < 16 {
        let z = if m == 0 {
            if forward { 0 } else { INV_NTT_SCALE }
        } else if forward {
            zeta_mont(m)
        } else {
            -zeta_mont(m)
        };
        t[m / 4][m % 4] = z;
        t[4 + m / 4][m % 4] = times_qinv(z);
        m += 1;
    }
    t
}

static FWD_STRIDED: [[i32; 4]; 8] = strided_twiddles(true);
static INV_STRIDED: [[i32; 4]; 8] = strided_twiddles(false);

/// A twiddle table as vectors.
#[inline]
#[target_feature(enable = "neon")]
fn table<const K: usize>(t: &[[i32; 4]; K]) -> [int32x4_t; K] {
    core::array::from_fn(|k| load4(&t[k]))
}

/// The NTT's butterfly on whole vectors: (a + z b, a - z b), z in lane `L` of `z`.
#[inline]
#[target_feature(enable = "neon")]
fn ct<const L: i32>(x: &mut [int32x4_t], i: usize, j: usize, z: int32x4_t, zq: int32x4_t) {
    let t = mont_mul_lane::<L>(x[j], z, zq);
    x[j] = vsubq_s32(x[i], t);
    x[i] = vaddq_s32(x[i], t);
}

/// The NTT's butterfly with a twiddle per lane.
#[inline]
#[target_feature(enable = "neon")]
fn ct_lanes(x: &mut [int32x4_t], i: usize, j: usize, z: int32x4_t, zq: int32x4_t) {
    let t = mont_mul_pre(x[j], z, zq);
    x[j] = vsubq_s32(x[i], t);
    x[i] = vaddq_s32(x[i], t);
}

/// NTT^-1's butterfly on whole vectors: (a + b, z (a - b)), z (already negated) in lane `L`.
#[inline]
#[target_feature(enable = "neon")]
fn gs<const L: i32>(x: &mut [int32x4_t], i: usize, j: usize, z: int32x4_t, zq: int32x4_t) {
    let d = vsubq_s32(x[i], x[j]);
    x[i] = vaddq_s32(x[i], x[j]);
    x[j] = mont_mul_lane::<L>(d, z, zq);
}

/// NTT^-1's butterfly with a twiddle per lane.
#[inline]
#[target_feature(enable = "neon")]
fn gs_lanes(x: &mut [int32x4_t], i: usize, j: usize, z: int32x4_t, zq: int32x4_t) {
    let d = vsubq_s32(x[i], x[j]);
    x[i] = vaddq_s32(x[i], x[j]);
    x[j] = mont_mul_pre(d, z, zq);
}

/// The butterflies (k, k + half) for k in `start..start + half`, with [`ct`] or [`gs`].
macro_rules! group {
    ($bf:ident::<$lane:literal>, $x:expr, $start:expr, $half:expr, $z:expr, $zq:expr) => {
        for k in $start..$start + $half {
            $bf::<$lane>($x, k, k + $half, $z, $zq);
        }
    };
}

/// 4x4 transpose: lane i of vector j to lane j of vector i.
#[inline]
#[target_feature(enable = "neon")]
fn transpose(x: &mut [int32x4_t; 4]) {
    let t0 = vreinterpretq_s64_s32(vtrn1q_s32(x[0], x[1]));
    let t1 = vreinterpretq_s64_s32(vtrn2q_s32(x[0], x[1]));
    let t2 = vreinterpretq_s64_s32(vtrn1q_s32(x[2], x[3]));
    let t3 = vreinterpretq_s64_s32(vtrn2q_s32(x[2], x[3]));
    x[0] = vreinterpretq_s32_s64(vtrn1q_s64(t0, t2));
    x[1] = vreinterpretq_s32_s64(vtrn1q_s64(t1, t3));
    x[2] = vreinterpretq_s32_s64(vtrn2q_s64(t0, t2));
    x[3] = vreinterpretq_s32_s64(vtrn2q_s64(t1, t3));
}

/// FIPS 204 Algorithm 41, NTT, as [`crate::math::ntt::ntt`].
///
/// Bounds: input |c| < q; output |c| < 9q, the portable function's integers.
#[target_feature(enable = "neon")]
pub(super) fn ntt(w: &Poly, out: &mut NttPoly) {
    tick!(Ntt, 1);
    let tw = table(&FWD_STRIDED);
    let (z, zq) = (&tw[..4], &tw[4..]);
    // len = 128, 64, 32, 16 on the vectors c + 4k, k = 0..15 (x[k]); m = 1..15 (Alg. 41).
    for c in 0..4 {
        let mut x: [int32x4_t; 16] = core::array::from_fn(|k| load4(&w.0[4 * (c + 4 * k)..]));
        let x = &mut x[..];
        group!(ct::<1>, x, 0, 8, z[0], zq[0]);
        group!(ct::<2>, x, 0, 4, z[0], zq[0]);
        group!(ct::<3>, x, 8, 4, z[0], zq[0]);
        group!(ct::<0>, x, 0, 2, z[1], zq[1]);
        group!(ct::<1>, x, 4, 2, z[1], zq[1]);
        group!(ct::<2>, x, 8, 2, z[1], zq[1]);
        group!(ct::<3>, x, 12, 2, z[1], zq[1]);
        group!(ct::<0>, x, 0, 1, z[2], zq[2]);
        group!(ct::<1>, x, 2, 1, z[2], zq[2]);
        group!(ct::<2>, x, 4, 1, z[2], zq[2]);
        group!(ct::<3>, x, 6, 1, z[2], zq[2]);
        group!(ct::<0>, x, 8, 1, z[3], zq[3]);
        group!(ct::<1>, x, 10, 1, z[3], zq[3]);
        group!(ct::<2>, x, 12, 1, z[3], zq[3]);
        group!(ct::<3>, x, 14, 1, z[3], zq[3]);
        for (k, &v) in x.iter().enumerate() {
            store4(&mut out.0[4 * (c + 4 * k)..], v);
        }
    }
    // len = 8, 4, 2, 1 on each block of 16 coefficients.
    for (b, t) in FWD_BLOCKS.iter().enumerate() {
        let block = &mut out.0[16 * b..16 * b + 16];
        let mut x: [int32x4_t; 4] = core::array::from_fn(|j| load4(&block[4 * j..]));
        let (wz, wq) = (load4(&t.whole), load4(&t.whole_q));
        ct::<0>(&mut x, 0, 2, wz, wq);
        ct::<0>(&mut x, 1, 3, wz, wq);
        ct::<1>(&mut x, 0, 1, wz, wq);
        ct::<2>(&mut x, 2, 3, wz, wq);
        transpose(&mut x);
        let (z2, q2) = (load4(&t.len2), load4(&t.len2_q));
        ct_lanes(&mut x, 0, 2, z2, q2);
        ct_lanes(&mut x, 1, 3, z2, q2);
        ct_lanes(&mut x, 0, 1, load4(&t.len1[0]), load4(&t.len1_q[0]));
        ct_lanes(&mut x, 2, 3, load4(&t.len1[1]), load4(&t.len1_q[1]));
        let block: &mut [i32; 16] = block.try_into().expect("16 coefficients");
        // SAFETY: `block` is 16 writable i32; `st4` writes exactly 16 with i32 alignment.
        unsafe { vst4q_s32(block.as_mut_ptr(), int32x4x4_t(x[0], x[1], x[2], x[3])) };
    }
}

/// FIPS 204 Algorithm 42, NTT^-1, times 2^32, as [`crate::math::ntt::ntt_inverse`]; with
/// `NONNEG` also caddq in the last pass (`Backend::ntt_inverse_nonneg`).
///
/// Bounds: input |c| < q; output |c| < q (the portable function's integers), or with `NONNEG`
/// their representatives in [0, q).
#[target_feature(enable = "neon")]
pub(super) fn ntt_inverse<const NONNEG: bool>(w_hat: &NttPoly, out: &mut Poly) {
    tick!(NttInverse, 1);
    debug_assert!(w_hat.0.iter().all(|c| c.abs() < Q), "Bounds: NTT^-1 input");
    // len = 1, 2 (transposed blocks), then 4, 8.
    for (b, t) in INV_BLOCKS.iter().enumerate() {
        let block: &[i32; 16] = w_hat.0[16 * b..16 * b + 16].try_into().expect("16");
        // SAFETY: `block` is 16 readable i32; `ld4` reads exactly 16 with i32 alignment.
        let v = unsafe { vld4q_s32(block.as_ptr()) };
        let mut x = [v.0, v.1, v.2, v.3];
        gs_lanes(&mut x, 0, 1, load4(&t.len1[0]), load4(&t.len1_q[0]));
        gs_lanes(&mut x, 2, 3, load4(&t.len1[1]), load4(&t.len1_q[1]));
        let (z2, q2) = (load4(&t.len2), load4(&t.len2_q));
        gs_lanes(&mut x, 0, 2, z2, q2);
        gs_lanes(&mut x, 1, 3, z2, q2);
        transpose(&mut x);
        let (wz, wq) = (load4(&t.whole), load4(&t.whole_q));
        // len 4: vectors 0-1 are group 2b, 2-3 group 2b + 1 (lanes 1, 2); len 8: lane 0.
        gs::<1>(&mut x, 0, 1, wz, wq);
        gs::<2>(&mut x, 2, 3, wz, wq);
        gs::<0>(&mut x, 0, 2, wz, wq);
        gs::<0>(&mut x, 1, 3, wz, wq);
        for (j, &v) in x.iter().enumerate() {
            store4(&mut out.0[16 * b + 4 * j..], v);
        }
    }
    // len = 16, 32, 64, 128 on the vectors c + 4k (x[k]); -ZETAS[m] for m = 15..1 (Alg. 42:
    // group g of len 16 is m = 15 - g, and so on), then the scaling by INV_NTT_SCALE (m = 0).
    let tw = table(&INV_STRIDED);
    let (z, zq) = (&tw[..4], &tw[4..]);
    for c in 0..4 {
        let mut x: [int32x4_t; 16] = core::array::from_fn(|k| load4(&out.0[4 * (c + 4 * k)..]));
        let x = &mut x[..];
        group!(gs::<3>, x, 0, 1, z[3], zq[3]);
        group!(gs::<2>, x, 2, 1, z[3], zq[3]);
        group!(gs::<1>, x, 4, 1, z[3], zq[3]);
        group!(gs::<0>, x, 6, 1, z[3], zq[3]);
        group!(gs::<3>, x, 8, 1, z[2], zq[2]);
        group!(gs::<2>, x, 10, 1, z[2], zq[2]);
        group!(gs::<1>, x, 12, 1, z[2], zq[2]);
        group!(gs::<0>, x, 14, 1, z[2], zq[2]);
        group!(gs::<3>, x, 0, 2, z[1], zq[1]);
        group!(gs::<2>, x, 4, 2, z[1], zq[1]);
        group!(gs::<1>, x, 8, 2, z[1], zq[1]);
        group!(gs::<0>, x, 12, 2, z[1], zq[1]);
        group!(gs::<3>, x, 0, 4, z[0], zq[0]);
        group!(gs::<2>, x, 8, 4, z[0], zq[0]);
        group!(gs::<1>, x, 0, 8, z[0], zq[0]);
        for (k, v) in x.iter().enumerate() {
            let mut v = mont_mul_lane::<0>(*v, z[0], zq[0]);
            if NONNEG {
                v = caddq_v(v);
            }
            store4(&mut out.0[4 * (c + 4 * k)..], v);
        }
    }
}

/// c := c + q where c < 0, as [`crate::math::poly::Poly::caddq`]. Bounds: (-q, q) in, [0, q) out.
#[target_feature(enable = "neon")]
pub(super) fn caddq(p: &mut Poly) {
    for c in quads_mut(&mut p.0) {
        store(c, caddq_v(load(c)));
    }
}

/// c := center(freeze(c)), as the portable `Backend::centre_freeze`: the representative in
/// [-(q-1)/2, (q-1)/2]. Bounds: |c| < q.
#[cfg(test)]
#[target_feature(enable = "neon")]
pub(super) fn centre_freeze(p: &mut Poly) {
    let half = vdupq_n_s32((Q - 1) / 2);
    for c in quads_mut(&mut p.0) {
        let a = caddq_v(super::field::reduce32(load(c)));
        // Subtract q where a > (q-1)/2: the sign of (q-1)/2 - a, as `field::center`.
        let over = vshrq_n_s32::<31>(vsubq_s32(half, a));
        store(c, vsubq_s32(a, vandq_s32(over, vdupq_n_s32(Q))));
    }
}
