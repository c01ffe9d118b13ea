//! AVX-512 variants of the pointwise products in T_q (MultiplyNTT and MatrixVectorNTT): the
//! AVX2 kernels' arithmetic (`ntt.rs`: the same signed Montgomery reduction of 64-bit products,
//! even and odd lanes apart) on 16-lane zmm registers, so each multiplication does twice the
//! work. Same layout, same contracts, same results as the AVX2 kernels, lane for lane.
//!
//! Constant time: straight-line vector code; loop bounds and indices depend only on lengths.

// Every `unsafe` block here must say why it is sound.
#![deny(clippy::undocumented_unsafe_blocks)]

use crate::params::Q;
use crate::poly::{N, NttPoly};
use core::arch::x86_64::{
    __m512i, _mm512_add_epi64, _mm512_loadu_si512, _mm512_mask_blend_epi32, _mm512_mul_epi32,
    _mm512_set1_epi32, _mm512_setzero_si512, _mm512_srli_epi64, _mm512_storeu_si512,
    _mm512_sub_epi32,
};

/// Vectors (of 16 coefficients) per polynomial.
const VECS: usize = N / 16;

/// q^-1 mod 2^32 (as the AVX2 kernels use it).
const QINV: i32 = super::ntt::QINV;

/// Vector i (coefficients 16i..16i+15) of a polynomial.
#[inline]
#[target_feature(enable = "avx512f")]
fn load(p: &[i32; N], i: usize) -> __m512i {
    let chunk: &[i32; 16] = &p.as_chunks::<16>().0[i];
    // SAFETY: `chunk` is a valid reference to 16 i32 (64 bytes); the load is unaligned.
    unsafe { _mm512_loadu_si512(chunk.as_ptr().cast()) }
}

/// Writes vector i (coefficients 16i..16i+15) of a polynomial.
#[inline]
#[target_feature(enable = "avx512f")]
fn store(p: &mut [i32; N], i: usize, v: __m512i) {
    let chunk: &mut [i32; 16] = &mut p.as_chunks_mut::<16>().0[i];
    // SAFETY: `chunk` is a valid, exclusive reference to 16 i32 (64 bytes); the store is
    // unaligned.
    unsafe { _mm512_storeu_si512(chunk.as_mut_ptr().cast(), v) }
}

/// Moves each odd lane to the even lane below it, where `_mm512_mul_epi32` reads its operands
/// (the odd lanes become zero; the multiplication ignores them).
#[inline]
#[target_feature(enable = "avx512f")]
fn odd_down(a: __m512i) -> __m512i {
    _mm512_srli_epi64::<32>(a)
}

/// Montgomery reduction of 64-bit sums: `even` and `odd` hold the sums for the even and the odd
/// lanes; returns sum * 2^-32 mod q per lane, exactly as the AVX2 `montgomery_reduce`.
///
/// Bounds: |sum| <= 2^31 q; result r with |r| <= |sum| / 2^32 + q/2 < q.
#[inline]
#[target_feature(enable = "avx512f")]
fn montgomery_reduce(even: __m512i, odd: __m512i) -> __m512i {
    let q = _mm512_set1_epi32(Q);
    let qinv = _mm512_set1_epi32(QINV);
    // t = sum * q^-1 mod 2^32 in the low half, read as signed by the next multiplication.
    let tq_even = _mm512_mul_epi32(_mm512_mul_epi32(even, qinv), q);
    let tq_odd = _mm512_mul_epi32(_mm512_mul_epi32(odd, qinv), q);
    // sum - t q = 0 mod 2^32: the low halves are equal, so the high halves' difference is
    // exactly (sum - t q) / 2^32. Even lanes' results move down from their high halves; the odd
    // lanes' already sit in the odd (high) positions.
    let r_even = _mm512_sub_epi32(even, tq_even);
    let r_odd = _mm512_sub_epi32(odd, tq_odd);
    _mm512_mask_blend_epi32(0xAAAA, odd_down(r_even), r_odd)
}

/// FIPS 204, Algorithm 45 (MultiplyNTT), times 2^-32, AVX-512.
///
/// Contract: as [`super::ntt::multiply_ntt`] (|a_i * b_i| <= 2^31 q; out_i = a_i * b_i * 2^-32
/// mod q, |out_i| < q, the same values).
#[target_feature(enable = "avx512f")]
pub(crate) fn multiply_ntt(a: &NttPoly, b: &NttPoly, out: &mut NttPoly) {
    tick!(Pointwise, 1);
    debug_assert!(
        a.0.iter()
            .zip(b.0.iter())
            .all(|(&x, &y)| (x as i64 * y as i64).unsigned_abs() <= (1u64 << 31) * Q as u64),
        "Bounds: multiply_ntt input"
    );
    for i in 0..VECS {
        let x = load(&a.0, i);
        let y = load(&b.0, i);
        let even = _mm512_mul_epi32(x, y);
        let odd = _mm512_mul_epi32(odd_down(x), odd_down(y));
        store(&mut out.0, i, montgomery_reduce(even, odd));
    }
}

/// FIPS 204, Algorithm 48 (MatrixVectorNTT), with Algorithms 44 and 46 (AddNTT,
/// AddVectorNTT) fused, times 2^-32, AVX-512.
///
/// Contract: as [`super::ntt::matrix_vector_ntt`] (A-hat entries in [0, q), |v_j| < 9q, at most
/// 7 terms per row; zip semantics; the same values, |c| < 0.63 q).
#[target_feature(enable = "avx512f")]
pub(crate) fn matrix_vector_ntt<Row: AsRef<[NttPoly]>>(
    a_hat: &[Row],
    v: &[NttPoly],
    out: &mut [NttPoly],
) {
    tick!(Pointwise, crate::profile::matrix_terms(a_hat, v, out.len()));
    debug_assert!(
        a_hat.iter().all(|row| row.as_ref().len().min(v.len()) <= 7),
        "Bounds: at most 7 terms per row"
    );
    debug_assert!(
        a_hat.iter().all(|row| row
            .as_ref()
            .iter()
            .all(|p| p.0.iter().all(|c| (0..Q).contains(c)))),
        "Bounds: A-hat entries in [0, q)"
    );
    debug_assert!(
        v.iter()
            .all(|p| p.0.iter().all(|c| c.unsigned_abs() < 9 * Q as u32)),
        "Bounds: |v_j| < 9q"
    );
    for (w_i, row) in out.iter_mut().zip(a_hat.iter()) {
        let row = row.as_ref();
        for i in 0..VECS {
            let mut even = _mm512_setzero_si512();
            let mut odd = _mm512_setzero_si512();
            for (a_ij, v_j) in row.iter().zip(v.iter()) {
                let x = load(&a_ij.0, i);
                let y = load(&v_j.0, i);
                even = _mm512_add_epi64(even, _mm512_mul_epi32(x, y));
                odd = _mm512_add_epi64(odd, _mm512_mul_epi32(odd_down(x), odd_down(y)));
            }
            store(&mut w_i.0, i, montgomery_reduce(even, odd));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::avx2::Avx2;

    /// `true` if the CPU has AVX-512 F and VL; otherwise prints why the calling test does
    /// nothing.
    fn have_avx512() -> bool {
        let yes = Avx2::detect().is_some_and(|a| a.detect_avx512());
        if !yes {
            std::println!("skipped: this CPU has no AVX-512");
        }
        yes
    }

    /// Reproducible coefficients in [lo, hi], biased to the ends and their neighbours.
    fn coeffs(rng: &mut crate::splitmix::SplitMix64, lo: i32, hi: i32) -> [i32; N] {
        let span = (hi as i64 - lo as i64 + 1) as u64;
        core::array::from_fn(|_| {
            let r = rng.next_u64();
            match r % 8 {
                0 => lo + ((r >> 8) % 3) as i32,
                1 => hi - ((r >> 8) % 3) as i32,
                _ => (lo as i64 + ((r >> 8) % span) as i64) as i32,
            }
        })
    }

    /// MultiplyNTT: the same values as the AVX2 kernel (and so the portable one), over the
    /// whole input domain of NTT outputs (|c| < 9q) and at its ends.
    #[test]
    fn multiply_ntt_equals_avx2() {
        if !have_avx512() {
            return;
        }
        let mut rng = crate::splitmix::SplitMix64(0x5151);
        let bound = 9 * Q - 1;
        for _ in 0..2000 {
            let a = NttPoly(coeffs(&mut rng, -bound, bound));
            let b = NttPoly(coeffs(&mut rng, -bound, bound));
            let (mut x, mut y) = (NttPoly([0; N]), NttPoly([0; N]));
            // SAFETY: `have_avx512` found AVX-512 F and VL (and so AVX2) on this CPU.
            unsafe {
                multiply_ntt(&a, &b, &mut x);
                super::super::ntt::multiply_ntt(&a, &b, &mut y);
            }
            assert_eq!(x.0, y.0);
        }
    }

    /// MatrixVectorNTT: the same values as the AVX2 kernel for 1 to 7 terms per row, A-hat
    /// entries over [0, q) and v over |c| < 9q, ends included.
    #[test]
    fn matrix_vector_ntt_equals_avx2() {
        if !have_avx512() {
            return;
        }
        let mut rng = crate::splitmix::SplitMix64(0x4848);
        let bound = 9 * Q - 1;
        for terms in 1..=7 {
            for _ in 0..100 {
                let rows: std::vec::Vec<std::vec::Vec<NttPoly>> = (0..3)
                    .map(|_| {
                        (0..terms)
                            .map(|_| NttPoly(coeffs(&mut rng, 0, Q - 1)))
                            .collect()
                    })
                    .collect();
                let v: std::vec::Vec<NttPoly> = (0..terms)
                    .map(|_| NttPoly(coeffs(&mut rng, -bound, bound)))
                    .collect();
                let mut x = [NttPoly([0; N]), NttPoly([0; N]), NttPoly([0; N])];
                let mut y = x;
                // SAFETY: `have_avx512` found AVX-512 F and VL (and so AVX2) on this CPU.
                unsafe {
                    matrix_vector_ntt(&rows, &v, &mut x);
                    super::super::ntt::matrix_vector_ntt(&rows, &v, &mut y);
                }
                assert!(x == y, "{terms} terms");
            }
        }
    }
}

#[cfg(test)]
mod timing {
    use super::*;
    use crate::backend::avx2::Avx2;

    /// Nanoseconds per ML-DSA-65 A-hat o v (6 x 5), AVX2 and AVX-512: `cargo test --release -p
    /// mldsa --lib pointwise512::timing -- --ignored --nocapture`.
    #[test]
    #[ignore = "timing, not a test"]
    fn matrix_vector_ntt_ns() {
        if !Avx2::detect().is_some_and(|a| a.detect_avx512()) {
            return;
        }
        let mut rng = crate::splitmix::SplitMix64(1);
        let rows: std::vec::Vec<std::vec::Vec<NttPoly>> = (0..6)
            .map(|_| (0..5).map(|_| NttPoly(rng.poly().0)).collect())
            .collect();
        let v: std::vec::Vec<NttPoly> = (0..5).map(|_| NttPoly(rng.poly().0)).collect();
        let mut out = [NttPoly([0; N]); 6];
        for round in 0..3 {
            for wide in [false, true] {
                let mut best = u128::MAX;
                for _ in 0..200 {
                    let t = std::time::Instant::now();
                    for _ in 0..50 {
                        // SAFETY: AVX-512 F and VL (and AVX2) were detected above.
                        unsafe {
                            if wide {
                                matrix_vector_ntt(&rows, &v, &mut out);
                            } else {
                                super::super::ntt::matrix_vector_ntt(&rows, &v, &mut out);
                            }
                        }
                        core::hint::black_box(&mut out);
                    }
                    best = best.min(t.elapsed().as_nanos() / 50);
                }
                std::println!("round {round} avx512={wide}: {best} ns (minimum of 200 x 50)");
            }
        }
    }
}
