//! The pointwise products in T_q of `crate::math::ntt` (MultiplyNTT, MatrixVectorNTT,
//! ScalarVectorNTT) on NEON vectors, with the portable integers as results (`field.rs`).
//!
//! Constant time: straight-line vector code.

use super::field::{
    load, load64, mont_mul, montgomery_reduce, quads, quads_mut, reduce32, store, store64,
};
use crate::math::poly::{N, NttPoly};
use core::arch::aarch64::*;

/// FIPS 204 Algorithm 45, MultiplyNTT, times 2^-32, as [`crate::math::ntt::multiply_ntt`].
///
/// Bounds: |a_i b_i| <= 2^31 q; output |c| < q.
#[target_feature(enable = "neon")]
pub(super) fn multiply_ntt(a: &NttPoly, b: &NttPoly, out: &mut NttPoly) {
    tick!(Pointwise, 1);
    let lanes = quads(&a.0).iter().zip(quads(&b.0));
    for (o, (x, y)) in quads_mut(&mut out.0).iter_mut().zip(lanes) {
        store(o, mont_mul(load(x), load(y)));
    }
}

/// The 64-bit sums of one row of A-hat o v while ExpandA's fused product
/// (`sample::expand_a_times`) adds its terms one entry at a time: what [`matrix_vector_ntt`]
/// keeps in registers over a whole row, kept in memory between entries (2 KiB).
pub(crate) struct RowSum([[i64; 2]; N / 2]);

impl RowSum {
    pub(crate) const fn new() -> Self {
        Self([[0; 2]; N / 2])
    }
}

/// One term a o v of a row of A-hat o v * 2^-32: `FIRST` starts the row's sums in `acc`, a
/// later term adds to them, and `LAST` ends them into `out` (Montgomery reduction, then
/// reduce32, once per row rather than once per term). Each row so gets [`matrix_vector_ntt`]'s
/// integers, the portable ones.
///
/// Bounds: as [`matrix_vector_ntt`]: a in [0, q), |v| < 9q, at most 7 terms a row; the row in
/// `out`, |c| <= 6283009.
#[target_feature(enable = "neon")]
pub(super) fn row_term<const FIRST: bool, const LAST: bool>(
    a: &NttPoly,
    v: &NttPoly,
    acc: &mut RowSum,
    out: &mut NttPoly,
) {
    tick!(Pointwise, 1);
    // Eight coefficients a step: loads and stores in pairs, half the loop's overhead.
    let lanes = a.0.as_chunks::<8>().0.iter().zip(v.0.as_chunks::<8>().0);
    let sums = acc.0.as_chunks_mut::<4>().0.iter_mut();
    for ((s, o), (x, y)) in sums.zip(out.0.as_chunks_mut::<8>().0).zip(lanes) {
        let (x, y, o) = (
            x.as_chunks::<4>().0,
            y.as_chunks::<4>().0,
            o.as_chunks_mut::<4>().0,
        );
        for h in 0..2 {
            let (x, y) = (load(&x[h]), load(&y[h]));
            let (lo, hi) = if FIRST {
                (
                    vmull_s32(vget_low_s32(x), vget_low_s32(y)),
                    vmull_high_s32(x, y),
                )
            } else {
                (
                    vmlal_s32(load64(&s[2 * h]), vget_low_s32(x), vget_low_s32(y)),
                    vmlal_high_s32(load64(&s[2 * h + 1]), x, y),
                )
            };
            if LAST {
                store(&mut o[h], reduce32(montgomery_reduce(lo, hi)));
            } else {
                store64(&mut s[2 * h], lo);
                store64(&mut s[2 * h + 1], hi);
            }
        }
    }
}

/// FIPS 204 Algorithm 47, ScalarVectorNTT, times 2^-32, as
/// [`crate::math::ntt::scalar_vector_ntt`]: c's q^-1 multiples computed once for all of v.
///
/// Bounds: as [`multiply_ntt`].
#[cfg(test)]
#[target_feature(enable = "neon")]
pub(super) fn scalar_vector_ntt(c: &NttPoly, v: &[NttPoly], out: &mut [NttPoly]) {
    use super::field::{QINV, load4, mont_mul_pre, store4};
    let qinv = vdupq_n_s32(QINV);
    let c_q: [i32; crate::math::poly::N] = {
        let mut t = [0i32; crate::math::poly::N];
        for (o, x) in t.chunks_exact_mut(4).zip(c.0.chunks_exact(4)) {
            store4(o, vmulq_s32(load4(x), qinv));
        }
        t
    };
    for (o, p) in out.iter_mut().zip(v) {
        let lanes =
            p.0.chunks_exact(4)
                .zip(c.0.chunks_exact(4).zip(c_q.chunks_exact(4)));
        for (o, (x, (z, zq))) in o.0.chunks_exact_mut(4).zip(lanes) {
            store4(o, mont_mul_pre(load4(x), load4(z), load4(zq)));
        }
    }
}

/// FIPS 204 Algorithm 48, MatrixVectorNTT, times 2^-32, as
/// [`crate::math::ntt::matrix_vector_ntt`]: each row's products summed in 64-bit lanes
/// (`smlal`), reduced once (Montgomery, then reduce32): the portable integers.
///
/// Bounds: A-hat entries in [0, q), |v| < 9q, l <= 7; output |c| <= 6283009.
#[target_feature(enable = "neon")]
pub(super) fn matrix_vector_ntt<Row: AsRef<[NttPoly]>>(
    a_hat: &[Row],
    v: &[NttPoly],
    out: &mut [NttPoly],
) {
    tick!(Pointwise, terms(a_hat, v, out.len()));
    for (w_i, row) in out.iter_mut().zip(a_hat.iter()) {
        // Two vectors of four at a time: four accumulators, to keep several `smlal` in flight.
        for k in (0..N).step_by(8) {
            let (mut lo0, mut hi0) = (vdupq_n_s64(0), vdupq_n_s64(0));
            let (mut lo1, mut hi1) = (vdupq_n_s64(0), vdupq_n_s64(0));
            for (a_ij, v_j) in row.as_ref().iter().zip(v.iter()) {
                let (a, v) = (&quads(&a_ij.0)[k / 4..], &quads(&v_j.0)[k / 4..]);
                let (x0, y0) = (load(&a[0]), load(&v[0]));
                let (x1, y1) = (load(&a[1]), load(&v[1]));
                lo0 = vmlal_s32(lo0, vget_low_s32(x0), vget_low_s32(y0));
                hi0 = vmlal_high_s32(hi0, x0, y0);
                lo1 = vmlal_s32(lo1, vget_low_s32(x1), vget_low_s32(y1));
                hi1 = vmlal_high_s32(hi1, x1, y1);
            }
            let w = &mut quads_mut(&mut w_i.0)[k / 4..];
            store(&mut w[0], reduce32(montgomery_reduce(lo0, hi0)));
            store(&mut w[1], reduce32(montgomery_reduce(lo1, hi1)));
        }
    }
}
