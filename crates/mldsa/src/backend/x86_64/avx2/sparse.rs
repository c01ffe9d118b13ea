//! The sparse challenge products ([`crate::math::sparse`]) in AVX2 (their AVX-512 variants are
//! in the sibling folder).
//!
//! Each kernel writes the extended secret [s, -s, s] into the caller's scratch, then adds the
//! tau windows of it that c selects into accumulators that stay in registers: a whole s1 or s2
//! product in 16-bit lanes is 16 ymm (two passes of 8); a t0 product is summed in 16-bit lanes a
//! run of at most 7 terms at a time (4 ymm in each of four passes) and the runs added into
//! 32-bit sums (8 ymm a pass). The sums are exact,
//! so the results are those of the portable kernels, bit for bit.
//!
//! Constant time: the loops run over c's window offsets, which are public; the secret only
//! flows through loads, stores at fixed positions, additions, sign extensions and (t0's
//! conversion to 16 bits) packing.

// Every `unsafe` block here must say why it is sound.
#![deny(clippy::undocumented_unsafe_blocks)]
use crate::math::poly::{N, Poly};
use crate::math::sparse::{SparseC, SparseScratch, T0_RUN};
use core::arch::x86_64::{
    __m128i, __m256i, _mm_loadu_si128, _mm_srli_si128, _mm256_add_epi8, _mm256_add_epi16,
    _mm256_add_epi32, _mm256_castsi256_si128, _mm256_cvtepi8_epi16, _mm256_cvtepi8_epi32,
    _mm256_cvtepi16_epi32, _mm256_extracti128_si256, _mm256_loadu_si256, _mm256_packs_epi32,
    _mm256_permute4x64_epi64, _mm256_setzero_si256, _mm256_storeu_si256, _mm256_sub_epi8,
    _mm256_sub_epi16,
};

/// Loads 16 bytes (any element type, any alignment).
#[inline]
#[target_feature(enable = "avx2")]
fn load128<T: Copy, const K: usize>(chunk: &[T; K]) -> __m128i {
    const { assert!(size_of::<[T; K]>() == 16) };
    // SAFETY: `chunk` is 16 readable bytes (asserted above); `loadu` accepts any alignment.
    unsafe { _mm_loadu_si128(chunk.as_ptr().cast()) }
}

/// Loads 32 bytes (any element type, any alignment).
#[inline]
#[target_feature(enable = "avx2")]
pub(crate) fn load256<T: Copy, const K: usize>(chunk: &[T; K]) -> __m256i {
    const { assert!(size_of::<[T; K]>() == 32) };
    // SAFETY: `chunk` is 32 readable bytes (asserted above); `loadu` accepts any alignment.
    unsafe { _mm256_loadu_si256(chunk.as_ptr().cast()) }
}

/// Stores 32 bytes (any element type, any alignment).
#[inline]
#[target_feature(enable = "avx2")]
fn store256<T: Copy, const K: usize>(chunk: &mut [T; K], v: __m256i) {
    const { assert!(size_of::<[T; K]>() == 32) };
    // SAFETY: `chunk` is 32 writable bytes (asserted above); `storeu` accepts any alignment.
    unsafe { _mm256_storeu_si256(chunk.as_mut_ptr().cast(), v) }
}

/// [`crate::math::sparse::mul_tiny`] (c s1 or c s2 for eta = 2), AVX2: one pass, the whole product
/// in 8 registers of 32 lanes. Contract and result: those of the portable kernel.
#[target_feature(enable = "avx2")]
pub(crate) fn mul_tiny(c: &SparseC, s: &[i8; N], scratch: &mut SparseScratch, out: &mut Poly) {
    debug_assert!(
        crate::math::sparse::fits_8_bits(c, s),
        "Bounds: tau ||s|| <= 127"
    );
    let ext = &mut scratch.tiny;
    let zero = _mm256_setzero_si256();
    let (blocks, _) = ext.as_chunks_mut::<32>();
    for (k, chunk) in s.as_chunks::<32>().0.iter().enumerate() {
        let v = load256(chunk);
        store256(&mut blocks[k], v);
        store256(&mut blocks[N / 32 + k], _mm256_sub_epi8(zero, v));
        store256(&mut blocks[2 * N / 32 + k], v);
    }
    let mut acc = [zero; 8];
    for &off in c.offsets() {
        let start = off as usize;
        let (window, _) = ext[start..start + N].as_chunks::<32>();
        for (a, x) in acc.iter_mut().zip(window) {
            *a = _mm256_add_epi8(*a, load256(x));
        }
    }
    let (dst, _) = out.0.as_chunks_mut::<8>();
    for (a, quad) in acc.iter().zip(dst.chunks_exact_mut(4)) {
        let (lo, hi) = (
            _mm256_castsi256_si128(*a),
            _mm256_extracti128_si256::<1>(*a),
        );
        store256(&mut quad[0], _mm256_cvtepi8_epi32(lo));
        store256(&mut quad[1], _mm256_cvtepi8_epi32(_mm_srli_si128::<8>(lo)));
        store256(&mut quad[2], _mm256_cvtepi8_epi32(hi));
        store256(&mut quad[3], _mm256_cvtepi8_epi32(_mm_srli_si128::<8>(hi)));
    }
}

/// [`crate::math::sparse::mul_small`] (c s1 or c s2), AVX2: two passes of 128 coefficients in 8
/// registers of 16 lanes. Contract and result: those of the portable kernel.
#[target_feature(enable = "avx2")]
pub(crate) fn mul_small(c: &SparseC, s: &[i8; N], scratch: &mut SparseScratch, out: &mut Poly) {
    let ext = &mut scratch.small;
    let zero = _mm256_setzero_si256();
    let (blocks, _) = ext.as_chunks_mut::<16>();
    for (k, chunk) in s.as_chunks::<16>().0.iter().enumerate() {
        let v = _mm256_cvtepi8_epi16(load128(chunk));
        store256(&mut blocks[k], v);
        store256(&mut blocks[N / 16 + k], _mm256_sub_epi16(zero, v));
        store256(&mut blocks[2 * N / 16 + k], v);
    }
    let (dst, _) = out.0.as_chunks_mut::<8>();
    for (pass, dst) in dst.chunks_exact_mut(16).enumerate() {
        let mut acc = [zero; 8];
        for &off in c.offsets() {
            let start = off as usize + pass * 128;
            let (window, _) = ext[start..start + 128].as_chunks::<16>();
            for (a, x) in acc.iter_mut().zip(window) {
                *a = _mm256_add_epi16(*a, load256(x));
            }
        }
        for (a, pair) in acc.iter().zip(dst.chunks_exact_mut(2)) {
            store256(
                &mut pair[0],
                _mm256_cvtepi16_epi32(_mm256_castsi256_si128(*a)),
            );
            store256(
                &mut pair[1],
                _mm256_cvtepi16_epi32(_mm256_extracti128_si256::<1>(*a)),
            );
        }
    }
}

/// [`crate::math::sparse::mul_t0`] (c t0), AVX2: four passes of 64 coefficients, each summing the
/// terms of c in runs of at most [`T0_RUN`] in 16-bit lanes (4 registers, exact) and adding
/// the runs into 32-bit sums (8 registers). Contract and result: those of the portable kernel.
#[target_feature(enable = "avx2")]
pub(crate) fn mul_t0(c: &SparseC, t: &Poly, scratch: &mut SparseScratch, out: &mut Poly) {
    debug_assert!(
        t.0.iter().all(|x| x.unsigned_abs() <= 1 << 12),
        "Bounds: |t0| <= 2^12"
    );
    let ext = &mut scratch.small;
    let zero = _mm256_setzero_si256();
    let (blocks, _) = ext.as_chunks_mut::<16>();
    for (k, pair) in t.0.as_chunks::<8>().0.chunks_exact(2).enumerate() {
        // Exact: |t| <= 2^12 fits 16 bits. packs interleaves the 128-bit halves; the permute
        // puts the 16 coefficients back in order.
        let v = _mm256_permute4x64_epi64::<0b11_01_10_00>(_mm256_packs_epi32(
            load256(&pair[0]),
            load256(&pair[1]),
        ));
        store256(&mut blocks[k], v);
        store256(&mut blocks[N / 16 + k], _mm256_sub_epi16(zero, v));
        store256(&mut blocks[2 * N / 16 + k], v);
    }
    let (dst, _) = out.0.as_chunks_mut::<8>();
    for (pass, dst) in dst.chunks_exact_mut(8).enumerate() {
        let mut sums = [zero; 8];
        for run in c.offsets().chunks(T0_RUN) {
            let mut acc = [zero; 4];
            for &off in run {
                let start = off as usize + pass * 64;
                let (window, _) = ext[start..start + 64].as_chunks::<16>();
                for (a, x) in acc.iter_mut().zip(window) {
                    *a = _mm256_add_epi16(*a, load256(x));
                }
            }
            for (a, pair) in acc.iter().zip(sums.chunks_exact_mut(2)) {
                let lo = _mm256_cvtepi16_epi32(_mm256_castsi256_si128(*a));
                let hi = _mm256_cvtepi16_epi32(_mm256_extracti128_si256::<1>(*a));
                pair[0] = _mm256_add_epi32(pair[0], lo);
                pair[1] = _mm256_add_epi32(pair[1], hi);
            }
        }
        for (a, d) in sums.iter().zip(dst.iter_mut()) {
            store256(d, *a);
        }
    }
}
