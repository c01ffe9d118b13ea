//! The pointwise products in T_q of `crate::math::ntt` (MultiplyNTT, MatrixVectorNTT,
//! ScalarVectorNTT) on NEON vectors, with the portable integers as results (`field.rs`).
//!
//! Constant time: straight-line vector code.

use super::field::{load, mont_mul, montgomery_reduce, quads, quads_mut, reduce32, store};
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

/// `acc += a o b * 2^-32`: [`multiply_ntt`] added into `acc` in the same pass (ExpandA's fused
/// product, `sample::expand_a_times`), eight coefficients a step.
///
/// Bounds: as [`multiply_ntt`] for each product (|c| < q); the caller bounds the sums.
#[target_feature(enable = "neon")]
pub(super) fn multiply_ntt_acc(a: &NttPoly, b: &NttPoly, acc: &mut NttPoly) {
    tick!(Pointwise, 1);
    let lanes = a.0.as_chunks::<8>().0.iter().zip(b.0.as_chunks::<8>().0);
    for (o, (x, y)) in acc.0.as_chunks_mut::<8>().0.iter_mut().zip(lanes) {
        let (o, x, y) = (
            o.as_chunks_mut::<4>().0,
            x.as_chunks::<4>().0,
            y.as_chunks::<4>().0,
        );
        let p0 = mont_mul(load(&x[0]), load(&y[0]));
        let p1 = mont_mul(load(&x[1]), load(&y[1]));
        let s0 = vaddq_s32(load(&o[0]), p0);
        let s1 = vaddq_s32(load(&o[1]), p1);
        store(&mut o[0], s0);
        store(&mut o[1], s1);
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
