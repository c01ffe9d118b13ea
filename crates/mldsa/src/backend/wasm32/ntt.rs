//! The NTT, NTT^-1 and the pointwise products of `crate::math::ntt` on simd128 vectors.
//!
//! A polynomial is handled as 64 vectors of four consecutive coefficients. The layers whose
//! butterflies pair coefficients at least four apart (len >= 4) run on whole vectors with one
//! broadcast twiddle; the last two layers of the NTT (the first two of NTT^-1) pair neighbours
//! within a vector, so two vectors are first shuffled into one of "tops" and one of "bottoms",
//! with a vector of per-pair twiddles laid out at compile time.
//!
//! Montgomery reduction is computed exactly as `field::montgomery_reduce` does: the 64-bit
//! products come from the widening multiplies (`i64x2_extmul_*_i32x4`), t = lo32(a) q^-1 is a
//! 32-bit wrapping product, and (a - t q) >> 32 is the high half of a 64-bit difference. So each
//! lane holds the integer the portable code computes, not just one congruent to it.

use crate::math::field::Q;
use crate::math::ntt::{INV_NTT_SCALE, zeta_mont};
use crate::math::poly::{N, NttPoly, Poly};
use core::arch::wasm32::*;

/// Vectors per polynomial.
const V: usize = N / 4;

/// q^-1 mod 2^32 (as `field`'s, which is private to it; checked below).
const QINV: i32 = 58_728_449;
const _: () = assert!((Q as u32).wrapping_mul(QINV as u32) == 1);

/// Twiddles of the layers that pair coefficients within a vector: for the pair of vectors k,
/// the four lanes' twiddles, in the order the shuffles of [`ntt`] and [`ntt_inverse`] put the
/// pairs in; `forward` for the NTT, else NTT^-1's (which uses -zeta).
const fn pair_twiddles(len: usize, forward: bool) -> [[i32; 4]; V / 2] {
    let mut t = [[0i32; 4]; V / 2];
    let mut k = 0;
    while k < V / 2 {
        let mut lane = 0;
        while lane < 4 {
            // The butterfly group (block of 2 len coefficients) that lane `lane` of pair k
            // belongs to: len = 2 has two groups per pair (lanes 0-1, 2-3), len = 1 four.
            let group = if len == 2 {
                2 * k + lane / 2
            } else {
                4 * k + lane
            };
            // Groups of a layer are numbered from N / (2 len) in the forward order (FIPS 204
            // Alg. 41: m runs 64.. for len 2, 128.. for len 1); NTT^-1 walks them backwards
            // from the top (Alg. 42: m runs 255 down for len 1, 127 down for len 2).
            let first = N / (2 * len);
            t[k][lane] = if forward {
                zeta_mont(first + group)
            } else {
                -zeta_mont(2 * first - 1 - group)
            };
            lane += 1;
        }
        k += 1;
    }
    t
}

static FWD_LEN2: [[i32; 4]; V / 2] = pair_twiddles(2, true);
static FWD_LEN1: [[i32; 4]; V / 2] = pair_twiddles(1, true);
static INV_LEN1: [[i32; 4]; V / 2] = pair_twiddles(1, false);
static INV_LEN2: [[i32; 4]; V / 2] = pair_twiddles(2, false);

#[inline(always)]
fn load4(a: &[i32; 4]) -> v128 {
    i32x4(a[0], a[1], a[2], a[3])
}

/// The 64 vectors of a polynomial's coefficients.
#[inline(always)]
fn load(a: &[i32; N]) -> [v128; V] {
    core::array::from_fn(|k| i32x4(a[4 * k], a[4 * k + 1], a[4 * k + 2], a[4 * k + 3]))
}

#[inline(always)]
fn store(v: &[v128; V], out: &mut [i32; N]) {
    for (o, &x) in out.chunks_exact_mut(4).zip(v.iter()) {
        o[0] = i32x4_extract_lane::<0>(x);
        o[1] = i32x4_extract_lane::<1>(x);
        o[2] = i32x4_extract_lane::<2>(x);
        o[3] = i32x4_extract_lane::<3>(x);
    }
}

/// `field::montgomery_reduce` on four 64-bit values, lanes 0-1 in `lo` and 2-3 in `hi`.
///
/// Bounds: |a| <= 2^31 q; result in (-q, q), equal to the portable one lane by lane.
#[inline(always)]
pub(super) fn montgomery_reduce(lo: v128, hi: v128) -> v128 {
    // The low 32 bits of each 64-bit lane (little-endian: the even 32-bit lanes).
    let t = i32x4_mul(i32x4_shuffle::<0, 2, 4, 6>(lo, hi), i32x4_splat(QINV));
    let q = i32x4_splat(Q);
    let d_lo = i64x2_sub(lo, i64x2_extmul_low_i32x4(t, q));
    let d_hi = i64x2_sub(hi, i64x2_extmul_high_i32x4(t, q));
    // >> 32: the odd 32-bit lanes.
    i32x4_shuffle::<1, 3, 5, 7>(d_lo, d_hi)
}

/// `field::mont_mul` lane by lane. Bounds: |a b| <= 2^31 q; result in (-q, q).
#[inline(always)]
pub(super) fn mont_mul(a: v128, b: v128) -> v128 {
    montgomery_reduce(i64x2_extmul_low_i32x4(a, b), i64x2_extmul_high_i32x4(a, b))
}

/// `field::reduce32` lane by lane. Bounds: a <= 2^31 - 2^22 - 1; result in [-6283009, 6283008].
#[inline(always)]
pub(super) fn reduce32(a: v128) -> v128 {
    let t = i32x4_shr(i32x4_add(a, i32x4_splat(1 << 22)), 23);
    i32x4_sub(a, i32x4_mul(t, i32x4_splat(Q)))
}

/// `field::caddq` lane by lane. Bounds: [-q, q) in, [0, q) out.
#[inline(always)]
pub(super) fn caddq_v(a: v128) -> v128 {
    i32x4_add(a, v128_and(i32x4_shr(a, 31), i32x4_splat(Q)))
}

/// The NTT's butterfly: (a + z b, a - z b).
#[inline(always)]
fn ct(a: v128, b: v128, z: v128) -> (v128, v128) {
    let t = mont_mul(z, b);
    (i32x4_add(a, t), i32x4_sub(a, t))
}

/// NTT^-1's butterfly: (a + b, z (a - b)), z already negated.
#[inline(always)]
fn gs(a: v128, b: v128, z: v128) -> (v128, v128) {
    (i32x4_add(a, b), mont_mul(z, i32x4_sub(a, b)))
}

/// The layer with len = 2: in each pair of vectors, lanes 0-1 of a vector meet lanes 2-3.
/// `bf` is the butterfly, `tw` the pairs' twiddles ([`pair_twiddles`]).
#[inline(always)]
fn layer_len2(v: &mut [v128; V], tw: &[[i32; 4]; V / 2], bf: Butterfly) {
    for (k, z) in tw.iter().enumerate() {
        let (x, y) = (v[2 * k], v[2 * k + 1]);
        let top = i32x4_shuffle::<0, 1, 4, 5>(x, y);
        let bot = i32x4_shuffle::<2, 3, 6, 7>(x, y);
        let (top, bot) = bf(top, bot, load4(z));
        v[2 * k] = i32x4_shuffle::<0, 1, 4, 5>(top, bot);
        v[2 * k + 1] = i32x4_shuffle::<2, 3, 6, 7>(top, bot);
    }
}

/// The layer with len = 1: even lanes meet odd lanes. As [`layer_len2`].
#[inline(always)]
fn layer_len1(v: &mut [v128; V], tw: &[[i32; 4]; V / 2], bf: Butterfly) {
    for (k, z) in tw.iter().enumerate() {
        let (x, y) = (v[2 * k], v[2 * k + 1]);
        let top = i32x4_shuffle::<0, 2, 4, 6>(x, y);
        let bot = i32x4_shuffle::<1, 3, 5, 7>(x, y);
        let (top, bot) = bf(top, bot, load4(z));
        v[2 * k] = i32x4_shuffle::<0, 4, 1, 5>(top, bot);
        v[2 * k + 1] = i32x4_shuffle::<2, 6, 3, 7>(top, bot);
    }
}

/// [`ct`] or [`gs`]: (top, bottom, twiddles) to the new (top, bottom).
type Butterfly = fn(v128, v128, v128) -> (v128, v128);

/// FIPS 204 Algorithm 41, NTT, as [`crate::math::ntt::ntt`].
///
/// Bounds: input |c| < q; output |c| < 9q (the portable function's integers).
pub(super) fn ntt(w: &Poly, out: &mut NttPoly) {
    tick!(Ntt, 1);
    let mut v = load(&w.0);
    let mut m = 0;
    // len = 128 .. 4 coefficients: whole vectors, `half` vectors apart.
    let mut half = V / 2;
    while half >= 1 {
        let mut start = 0;
        while start < V {
            m += 1;
            let z = i32x4_splat(zeta_of(m));
            for j in start..start + half {
                (v[j], v[j + half]) = ct(v[j], v[j + half], z);
            }
            start += 2 * half;
        }
        half /= 2;
    }
    layer_len2(&mut v, &FWD_LEN2, ct);
    layer_len1(&mut v, &FWD_LEN1, ct);
    store(&v, &mut out.0);
}

/// ZETAS\[m\] for the broadcast layers (m < 64), from a compile-time table.
#[inline(always)]
fn zeta_of(m: usize) -> i32 {
    static Z: [i32; V] = {
        let mut t = [0i32; V];
        let mut m = 0;
        while m < V {
            t[m] = zeta_mont(m);
            m += 1;
        }
        t
    };
    Z[m]
}

/// FIPS 204 Algorithm 42, NTT^-1, times 2^32, as [`crate::math::ntt::ntt_inverse`]; with
/// `NONNEG` also [`crate::math::poly::Poly::caddq`] (Backend::ntt_inverse_nonneg) in the last
/// pass.
///
/// Bounds: input |c| < q; output |c| < q, or [0, q) with `NONNEG`.
pub(super) fn ntt_inverse<const NONNEG: bool>(w_hat: &NttPoly, out: &mut Poly) {
    tick!(NttInverse, 1);
    debug_assert!(w_hat.0.iter().all(|c| c.abs() < Q), "Bounds: NTT^-1 input");
    let mut v = load(&w_hat.0);
    // len = 1, then len = 2: within vector pairs, as in `ntt`, with the twiddles of Alg. 42.
    layer_len1(&mut v, &INV_LEN1, gs);
    layer_len2(&mut v, &INV_LEN2, gs);
    // len = 4 .. 128: whole vectors; m continues down from 64 (Alg. 42).
    let mut m = V;
    let mut half = 1;
    while half < V {
        let mut start = 0;
        while start < V {
            m -= 1;
            let z = i32x4_splat(-zeta_of(m));
            for j in start..start + half {
                (v[j], v[j + half]) = gs(v[j], v[j + half], z);
            }
            start += 2 * half;
        }
        half *= 2;
    }
    let scale = i32x4_splat(INV_NTT_SCALE);
    for x in v.iter_mut() {
        *x = mont_mul(scale, *x);
        if NONNEG {
            *x = caddq_v(*x);
        }
    }
    store(&v, &mut out.0);
}

/// c := c + q where c < 0, as [`crate::math::poly::Poly::caddq`]. Bounds: (-q, q) in, [0, q) out.
pub(super) fn caddq(p: &mut Poly) {
    let mut v = load(&p.0);
    for x in v.iter_mut() {
        *x = caddq_v(*x);
    }
    store(&v, &mut p.0);
}

/// FIPS 204 Algorithm 45, MultiplyNTT, times 2^-32, as [`crate::math::ntt::multiply_ntt`].
///
/// Bounds: |a_i b_i| <= 2^31 q; output |c| < q.
pub(super) fn multiply_ntt(a: &NttPoly, b: &NttPoly, out: &mut NttPoly) {
    tick!(Pointwise, 1);
    let (a, b) = (load(&a.0), load(&b.0));
    let prod: [v128; V] = core::array::from_fn(|k| mont_mul(a[k], b[k]));
    store(&prod, &mut out.0);
}

/// FIPS 204 Algorithm 48, MatrixVectorNTT, times 2^-32, as
/// [`crate::math::ntt::matrix_vector_ntt`]: each row's products summed in 64-bit lanes, reduced
/// once (Montgomery, then reduce32).
///
/// Bounds: A-hat entries in [0, q), |v| < 9q, l <= 7; output |c| <= 6283009.
pub(super) fn matrix_vector_ntt<Row: AsRef<[NttPoly]>>(
    a_hat: &[Row],
    v: &[NttPoly],
    out: &mut [NttPoly],
) {
    tick!(Pointwise, terms(a_hat, v, out.len()));
    for (w_i, row) in out.iter_mut().zip(a_hat.iter()) {
        let mut w = [i32x4_splat(0); V];
        for (k, w_k) in w.iter_mut().enumerate() {
            let (mut lo, mut hi) = (i64x2_splat(0), i64x2_splat(0));
            for (a_ij, v_j) in row.as_ref().iter().zip(v.iter()) {
                let x = load4(a_ij.0[4 * k..4 * k + 4].try_into().unwrap());
                let y = load4(v_j.0[4 * k..4 * k + 4].try_into().unwrap());
                lo = i64x2_add(lo, i64x2_extmul_low_i32x4(x, y));
                hi = i64x2_add(hi, i64x2_extmul_high_i32x4(x, y));
            }
            *w_k = reduce32(montgomery_reduce(lo, hi));
        }
        store(&w, &mut w_i.0);
    }
}
