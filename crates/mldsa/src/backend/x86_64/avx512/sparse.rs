//! The sparse challenge products ([`crate::math::sparse`]) in AVX-512 (F, BW): the variants of
//! [`crate::backend::x86_64::avx2::sparse`]'s kernels, with the same contracts and results.
//!
//! Each kernel writes the extended secret [s, -s, s] into the caller's scratch, then adds the
//! tau windows of it that c selects into accumulators that stay in registers: a whole s1 or s2
//! product in 16-bit lanes is 8 zmm (one pass); a t0 product is summed in 16-bit lanes a run
//! of at most 7 terms at a time (8 zmm) and the runs added into 32-bit sums (16 zmm). The sums
//! are exact, so the results are those of the portable kernels, bit for bit.
//!
//! Constant time: the loops run over c's window offsets, which are public; the secret only
//! flows through loads, stores at fixed positions, additions, sign extensions and (t0's
//! conversion to 16 bits) packing.

// Every `unsafe` block here must say why it is sound.
#![deny(clippy::undocumented_unsafe_blocks)]
use crate::backend::x86_64::avx2::sparse::load256;
use crate::math::poly::{N, Poly};
use crate::math::sparse::{SparseC, SparseScratch, T0_RUN};
use core::arch::x86_64::{
    __m512i, _mm512_add_epi8, _mm512_add_epi16, _mm512_add_epi32, _mm512_castsi256_si512,
    _mm512_castsi512_si256, _mm512_cvtepi8_epi16, _mm512_cvtepi8_epi32, _mm512_cvtepi16_epi32,
    _mm512_cvtepi32_epi16, _mm512_extracti32x4_epi32, _mm512_extracti64x4_epi64,
    _mm512_inserti64x4, _mm512_loadu_si512, _mm512_setzero_si512, _mm512_storeu_si512,
    _mm512_sub_epi8, _mm512_sub_epi16,
};

/// Loads 64 bytes (any element type, any alignment).
#[inline]
#[target_feature(enable = "avx2,avx512f")]
fn load512<T: Copy, const K: usize>(chunk: &[T; K]) -> __m512i {
    const { assert!(size_of::<[T; K]>() == 64) };
    // SAFETY: `chunk` is 64 readable bytes (asserted above); `loadu` accepts any alignment.
    unsafe { _mm512_loadu_si512(chunk.as_ptr().cast()) }
}

/// Stores 64 bytes (any element type, any alignment).
#[inline]
#[target_feature(enable = "avx2,avx512f")]
fn store512<T: Copy, const K: usize>(chunk: &mut [T; K], v: __m512i) {
    const { assert!(size_of::<[T; K]>() == 64) };
    // SAFETY: `chunk` is 64 writable bytes (asserted above); `storeu` accepts any alignment.
    unsafe { _mm512_storeu_si512(chunk.as_mut_ptr().cast(), v) }
}

/// Terms of c whose sum fits 8 bits for s in [-4, 4]: 31 * 4 = 124 <= 127.
const EIGHT_BIT_RUN: usize = 31;

/// `ext` := [s, -s, s], 8-bit lanes (the extended secret of [`crate::math::sparse`]), AVX-512.
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512bw")]
fn extend_tiny_512(s: &[i8; N], ext: &mut [i8; crate::math::sparse::EXT]) {
    let zero = _mm512_setzero_si512();
    let (blocks, _) = ext.as_chunks_mut::<64>();
    for (k, chunk) in s.as_chunks::<64>().0.iter().enumerate() {
        let v = load512(chunk);
        store512(&mut blocks[k], v);
        store512(&mut blocks[N / 64 + k], _mm512_sub_epi8(zero, v));
        store512(&mut blocks[2 * N / 64 + k], v);
    }
}

/// The sum of the windows of `ext` at `offsets` in 8-bit lanes, 4 registers of 64 (exact while
/// the count of offsets times ||s||_inf is at most 127), AVX-512.
#[inline]
#[target_feature(enable = "avx2,avx512f,avx512bw")]
fn window_sums_8_512(offsets: &[u16], ext: &[i8; crate::math::sparse::EXT]) -> [__m512i; 4] {
    let mut acc = [_mm512_setzero_si512(); 4];
    for &off in offsets {
        let start = off as usize;
        let (window, _) = ext[start..start + N].as_chunks::<64>();
        for (a, x) in acc.iter_mut().zip(window) {
            *a = _mm512_add_epi8(*a, load512(x));
        }
    }
    acc
}

/// [`crate::math::sparse::mul_tiny`] (c s1 or c s2 for eta = 2), AVX-512: one pass, the whole
/// product in 4 registers of 64 lanes. Contract and result: those of the portable kernel.
#[target_feature(enable = "avx2,avx512f,avx512bw")]
pub(crate) fn mul_tiny_512(c: &SparseC, s: &[i8; N], scratch: &mut SparseScratch, out: &mut Poly) {
    debug_assert!(
        crate::math::sparse::fits_8_bits(c, s),
        "Bounds: tau ||s|| <= 127"
    );
    let ext = &mut scratch.tiny;
    extend_tiny_512(s, ext);
    let acc = window_sums_8_512(c.offsets(), ext);
    let (dst, _) = out.0.as_chunks_mut::<16>();
    for (a, quad) in acc.iter().zip(dst.chunks_exact_mut(4)) {
        store512(
            &mut quad[0],
            _mm512_cvtepi8_epi32(_mm512_extracti32x4_epi32::<0>(*a)),
        );
        store512(
            &mut quad[1],
            _mm512_cvtepi8_epi32(_mm512_extracti32x4_epi32::<1>(*a)),
        );
        store512(
            &mut quad[2],
            _mm512_cvtepi8_epi32(_mm512_extracti32x4_epi32::<2>(*a)),
        );
        store512(
            &mut quad[3],
            _mm512_cvtepi8_epi32(_mm512_extracti32x4_epi32::<3>(*a)),
        );
    }
}

/// [`crate::math::sparse::mul_small`] (c s1 or c s2), AVX-512: one pass, the whole product in 8
/// registers of 32 lanes. Contract and result: those of the portable kernel. (Signing uses
/// [`mul_eta4_512`], about 1.5 times as fast; this one is kept for any i8 s.)
#[cfg_attr(
    not(any(test, mldsa_ct)),
    allow(dead_code, reason = "signing uses mul_eta4_512")
)]
#[target_feature(enable = "avx2,avx512f,avx512bw")]
pub(crate) fn mul_small_512(c: &SparseC, s: &[i8; N], scratch: &mut SparseScratch, out: &mut Poly) {
    let ext = &mut scratch.small;
    let zero = _mm512_setzero_si512();
    let (blocks, _) = ext.as_chunks_mut::<32>();
    for (k, chunk) in s.as_chunks::<32>().0.iter().enumerate() {
        let v = _mm512_cvtepi8_epi16(load256(chunk));
        store512(&mut blocks[k], v);
        store512(&mut blocks[N / 32 + k], _mm512_sub_epi16(zero, v));
        store512(&mut blocks[2 * N / 32 + k], v);
    }
    let mut acc = [zero; 8];
    for &off in c.offsets() {
        let start = off as usize;
        let (window, _) = ext[start..start + N].as_chunks::<32>();
        for (a, x) in acc.iter_mut().zip(window) {
            *a = _mm512_add_epi16(*a, load512(x));
        }
    }
    let (dst, _) = out.0.as_chunks_mut::<16>();
    for (a, pair) in acc.iter().zip(dst.chunks_exact_mut(2)) {
        store512(
            &mut pair[0],
            _mm512_cvtepi16_epi32(_mm512_castsi512_si256(*a)),
        );
        store512(
            &mut pair[1],
            _mm512_cvtepi16_epi32(_mm512_extracti64x4_epi64::<1>(*a)),
        );
    }
}

/// [`crate::math::sparse::mul_eta4`] (c s1 or c s2 for eta = 4), AVX-512: the terms of c in runs of
/// at most [`EIGHT_BIT_RUN`], each summed in 8-bit lanes (exact) over 4 registers of 64 lanes
/// and then added into 16-bit sums: half the additions of [`mul_small_512`]'s 16-bit lanes.
/// Contract and result: those of the portable kernel.
#[target_feature(enable = "avx2,avx512f,avx512bw")]
pub(crate) fn mul_eta4_512(c: &SparseC, s: &[i8; N], scratch: &mut SparseScratch, out: &mut Poly) {
    debug_assert!(s.iter().all(|x| x.unsigned_abs() <= 4), "Bounds: |s| <= 4");
    let ext = &mut scratch.tiny;
    extend_tiny_512(s, ext);
    let mut sums = [_mm512_setzero_si512(); 8];
    for run in c.offsets().chunks(EIGHT_BIT_RUN) {
        let acc = window_sums_8_512(run, ext);
        for (a, pair) in acc.iter().zip(sums.chunks_exact_mut(2)) {
            let lo = _mm512_cvtepi8_epi16(_mm512_castsi512_si256(*a));
            let hi = _mm512_cvtepi8_epi16(_mm512_extracti64x4_epi64::<1>(*a));
            pair[0] = _mm512_add_epi16(pair[0], lo);
            pair[1] = _mm512_add_epi16(pair[1], hi);
        }
    }
    let (dst, _) = out.0.as_chunks_mut::<16>();
    for (a, pair) in sums.iter().zip(dst.chunks_exact_mut(2)) {
        store512(
            &mut pair[0],
            _mm512_cvtepi16_epi32(_mm512_castsi512_si256(*a)),
        );
        store512(
            &mut pair[1],
            _mm512_cvtepi16_epi32(_mm512_extracti64x4_epi64::<1>(*a)),
        );
    }
}

/// [`crate::math::sparse::mul_t0`] (c t0), AVX-512: the terms of c in runs of at most [`T0_RUN`],
/// each summed in 16-bit lanes (exact) over 8 registers of 32 lanes and then added into 32-bit
/// sums (16 registers): half the loads of summing in 32-bit lanes. Contract and result: those
/// of the portable kernel.
#[target_feature(enable = "avx2,avx512f,avx512bw")]
pub(crate) fn mul_t0_512(c: &SparseC, t: &Poly, scratch: &mut SparseScratch, out: &mut Poly) {
    debug_assert!(
        t.0.iter().all(|x| x.unsigned_abs() <= 1 << 12),
        "Bounds: |t0| <= 2^12"
    );
    let ext = &mut scratch.small;
    let zero = _mm512_setzero_si512();
    let (blocks, _) = ext.as_chunks_mut::<32>();
    for (k, pair) in t.0.as_chunks::<16>().0.chunks_exact(2).enumerate() {
        // Exact: |t| <= 2^12 fits 16 bits.
        let lo = _mm512_cvtepi32_epi16(load512(&pair[0]));
        let hi = _mm512_cvtepi32_epi16(load512(&pair[1]));
        let v = _mm512_inserti64x4::<1>(_mm512_castsi256_si512(lo), hi);
        store512(&mut blocks[k], v);
        store512(&mut blocks[N / 32 + k], _mm512_sub_epi16(zero, v));
        store512(&mut blocks[2 * N / 32 + k], v);
    }
    let mut sums = [zero; 16];
    for run in c.offsets().chunks(T0_RUN) {
        let mut acc = [zero; 8];
        for &off in run {
            let start = off as usize;
            let (window, _) = ext[start..start + N].as_chunks::<32>();
            for (a, x) in acc.iter_mut().zip(window) {
                *a = _mm512_add_epi16(*a, load512(x));
            }
        }
        for (a, pair) in acc.iter().zip(sums.chunks_exact_mut(2)) {
            let lo = _mm512_cvtepi16_epi32(_mm512_castsi512_si256(*a));
            let hi = _mm512_cvtepi16_epi32(_mm512_extracti64x4_epi64::<1>(*a));
            pair[0] = _mm512_add_epi32(pair[0], lo);
            pair[1] = _mm512_add_epi32(pair[1], hi);
        }
    }
    let (dst, _) = out.0.as_chunks_mut::<16>();
    for (a, d) in sums.iter().zip(dst.iter_mut()) {
        store512(d, *a);
    }
}
