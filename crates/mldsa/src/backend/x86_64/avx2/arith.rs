//! AVX2 rounding (Power2Round, Decompose, MakeHint, UseHint), norm checks and packing.
//!
//! Eight coefficients per `__m256i`, one per 32-bit lane, in the portable layout. Every kernel
//! computes exactly what its portable counterpart computes, lane by lane, for every input in the
//! portable function's domain (the `Bounds:` line there); the tests at the bottom check that
//! exhaustively wherever the domain is Z_q.
//!
//! Decompose divides by 2 gamma2 without a division: 2 gamma2 = 2^s * d with d odd, so
//! floor(x / 2 gamma2) = floor(floor(x / 2^s) / d), and floor(x / 2^s) fits 16 bits. The
//! division by d is then one unsigned 16-bit high multiply by M = ceil(2^(16+k) / d) and a shift
//! by k; [`DecomposeConsts::new`] derives M and k from gamma2 and proves at compile time that the
//! quotient is exact for every x that occurs (the Granlund-Montgomery bound).
//!
//! Constant time: straight-line vector arithmetic. No branch, loop bound or memory index depends
//! on a coefficient; masks stand in for the spec's "if"s; the norm checks visit every
//! coefficient and reveal only their final yes/no; nothing divides. Shuffle controls and shift
//! counts are constants of the parameter set.
#![deny(clippy::undocumented_unsafe_blocks)]

use core::arch::x86_64::*;

use crate::math::poly::{N, Poly, SmallPoly};
use crate::math::sparse::SparseScratch;
use crate::params::{D, Parameters, Q, bitlen};

// ---------------------------------------------------------------------------------------------
// Loads, stores and small vector helpers.

/// The polynomial as 32 groups of 8 coefficients (one `__m256i` each).
#[inline(always)]
fn lanes(p: &Poly) -> &[[i32; 8]] {
    p.0.as_chunks::<8>().0
}

/// The polynomial as 32 groups of 8 coefficients, writable.
#[inline(always)]
fn lanes_mut(p: &mut Poly) -> &mut [[i32; 8]] {
    p.0.as_chunks_mut::<8>().0
}

/// Loads 8 coefficients.
#[inline]
#[target_feature(enable = "avx2")]
fn load(c: &[i32; 8]) -> __m256i {
    // SAFETY: `c` is 32 readable bytes, and `loadu` accepts any alignment.
    unsafe { _mm256_loadu_si256(c.as_ptr().cast()) }
}

/// Stores 8 coefficients.
#[inline]
#[target_feature(enable = "avx2")]
fn store(c: &mut [i32; 8], v: __m256i) {
    // SAFETY: `c` is 32 writable bytes, and `storeu` accepts any alignment.
    unsafe { _mm256_storeu_si256(c.as_mut_ptr().cast(), v) }
}

/// Loads 16 bytes.
#[inline]
#[target_feature(enable = "avx2")]
fn load16(b: &[u8]) -> __m128i {
    let b: &[u8; 16] = b.try_into().expect("16 bytes");
    // SAFETY: `b` is 16 readable bytes, and `loadu` accepts any alignment.
    unsafe { _mm_loadu_si128(b.as_ptr().cast()) }
}

/// Stores the 16 bytes of `v`.
#[inline]
#[target_feature(enable = "avx2")]
fn store16(out: &mut [u8], v: __m128i) {
    let out: &mut [u8; 16] = out.try_into().expect("16 bytes");
    // SAFETY: `out` is 16 writable bytes, and `storeu` accepts any alignment.
    unsafe { _mm_storeu_si128(out.as_mut_ptr().cast(), v) }
}

/// Stores the 32 bytes of `v`.
#[inline]
#[target_feature(enable = "avx2")]
fn store32(out: &mut [u8], v: __m256i) {
    let out: &mut [u8; 32] = out.try_into().expect("32 bytes");
    // SAFETY: `out` is 32 writable bytes, and `storeu` accepts any alignment.
    unsafe { _mm256_storeu_si256(out.as_mut_ptr().cast(), v) }
}

/// Stores the low 24 bytes of `v`.
#[inline]
#[target_feature(enable = "avx2")]
fn store24(out: &mut [u8], v: __m256i) {
    let out: &mut [u8; 24] = out.try_into().expect("24 bytes");
    let lo = _mm256_castsi256_si128(v);
    let hi = _mm256_extracti128_si256(v, 1);
    // SAFETY: `out` is 24 writable bytes: 16 are written at offset 0 and 8 at offset 16, both
    // with unaligned stores.
    unsafe {
        _mm_storeu_si128(out.as_mut_ptr().cast(), lo);
        _mm_storel_epi64(out.as_mut_ptr().add(16).cast(), hi);
    }
}

/// Logical right shift of each 32-bit lane by `n` (a constant of the parameter set, which the
/// compiler turns into an immediate shift once the call is inlined).
#[inline]
#[target_feature(enable = "avx2")]
fn shr(a: __m256i, n: i32) -> __m256i {
    _mm256_srl_epi32(a, _mm_cvtsi32_si128(n))
}

/// Left shift of each 32-bit lane by `n` (see [`shr`]).
#[inline]
#[target_feature(enable = "avx2")]
fn shl(a: __m256i, n: i32) -> __m256i {
    _mm256_sll_epi32(a, _mm_cvtsi32_si128(n))
}

/// 1 if the sign bit of some lane of `v` is set, else 0 (without a branch).
#[inline]
#[target_feature(enable = "avx2")]
fn any_sign(v: __m256i) -> u32 {
    // The 8 sign bits; a non-zero byte has the top bit of its negation set.
    let bits = _mm256_movemask_ps(_mm256_castsi256_ps(v)) as u32;
    bits.wrapping_neg() >> 31
}

/// The sum of the 8 lanes.
#[inline]
#[target_feature(enable = "avx2")]
fn sum_lanes(v: __m256i) -> u32 {
    let s = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    let s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0b01_00_11_10));
    let s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0b10_11_00_01));
    _mm_cvtsi128_si32(s) as u32
}

/// True if every coefficient c of `v` has lo <= c < hi. (For `debug_assert!`; it visits every
/// coefficient, so that it compiles to vector code.)
fn all_in(v: &[Poly], lo: i32, hi: i32) -> bool {
    v.iter()
        .all(|p| p.0.iter().fold(true, |ok, &c| ok & (lo <= c) & (c < hi)))
}

// ---------------------------------------------------------------------------------------------
// Decompose.

/// The constants of the division-free Decompose for one gamma2.
#[derive(Clone, Copy)]
struct DecomposeConsts {
    /// s, with 2 gamma2 = 2^s * d.
    shift: i32,
    /// d, the odd part of 2 gamma2.
    odd: i32,
    /// M = ceil(2^(16+k) / d), below 2^16.
    mul: i32,
    /// k.
    post: i32,
    /// m = (q - 1) / (2 gamma2): the r1 that wraps around to 0 (Alg. 36 step 3).
    m: i32,
}

impl DecomposeConsts {
    /// The constants for `gamma2`, with compile-time proofs that they are exact on [0, q).
    const fn new(gamma2: i32) -> Self {
        let two_gamma2 = 2 * gamma2;
        assert!((Q - 1) % two_gamma2 == 0, "2 gamma2 divides q - 1");
        let shift = two_gamma2.trailing_zeros() as i32;
        let odd = two_gamma2 >> shift;
        assert!(odd > 1);
        // 2^k < d (d is odd and not 1), so M = ceil(2^(16+k) / d) < 2^16.
        let post = bitlen(odd as u32) as i32 - 1;
        let n = 16 + post;
        let mul = ((1i64 << n) + odd as i64 - 1) / odd as i64;
        assert!(mul < 1 << 16, "M fits an unsigned 16-bit lane");
        // x = r + gamma2 - 1 for r in [0, q); x / 2^s must fit 16 bits.
        let x_max = ((Q - 1 + gamma2 - 1) >> shift) as i64;
        assert!(x_max < 1 << 16, "floor(x / 2^s) fits a 16-bit lane");
        // Granlund-Montgomery: with e = M d - 2^n, floor(x M / 2^n) = floor(x / d) whenever
        // x e < 2^n, because then x M / 2^n exceeds x / d by less than 1 / d.
        let err = mul * odd as i64 - (1i64 << n);
        assert!(x_max * err < 1i64 << n, "the quotient is exact for every x");
        let m = (Q - 1) / two_gamma2;
        // r1 <= m, and r1 * d is computed as a 16-bit product.
        assert!(m * odd < 1 << 15, "r1 * d fits a 16-bit lane");
        Self {
            shift,
            odd,
            mul: mul as i32,
            post,
            m,
        }
    }
}

/// FIPS 204, Algorithm 36 (Decompose) on 8 lanes, AVX2: (r1, r0) as
/// [`crate::math::rounding::decompose`] computes them.
///
/// Bounds: r in [0, q). Output r1 in [0, m), r0 in [-gamma2, gamma2].
#[inline]
#[target_feature(enable = "avx2")]
fn decompose<P: Parameters>(r: __m256i) -> (__m256i, __m256i) {
    let c = const { DecomposeConsts::new(P::GAMMA2) };
    // r0 = r mod+- 2 gamma2 is in (-gamma2, gamma2], so r1 = floor((r + gamma2 - 1) / 2 gamma2)
    // = floor(floor(x / 2^s) / d). The quotient x' = floor(x / 2^s) sits in the low 16 bits of
    // each lane (the high 16 are 0), so the 16-bit high multiply gives floor(x' M / 2^16) there
    // and 0 above it.
    let x = shr(
        _mm256_add_epi32(r, _mm256_set1_epi32(P::GAMMA2 - 1)),
        c.shift,
    );
    let r1 = shr(_mm256_mulhi_epu16(x, _mm256_set1_epi32(c.mul)), c.post);
    // r0 = r - r1 * 2 gamma2 = r - ((r1 * d) << s); r1 * d fits 16 bits.
    let r1_times_2gamma2 = shl(_mm256_mullo_epi16(r1, _mm256_set1_epi32(c.odd)), c.shift);
    let r0 = _mm256_sub_epi32(r, r1_times_2gamma2);
    // Alg. 36 step 3: if r - r0 = q - 1 (r1 = m), then r1 = 0 and r0 = r0 - 1.
    let wrap = _mm256_cmpeq_epi32(r1, _mm256_set1_epi32(c.m));
    (_mm256_andnot_si256(wrap, r1), _mm256_add_epi32(r0, wrap))
}

/// Power2Round on 8 lanes: (r1, r0) as [`crate::math::rounding::power2_round`].
#[inline]
#[target_feature(enable = "avx2")]
fn power2_round(r: __m256i) -> (__m256i, __m256i) {
    const D_BITS: i32 = D as i32;
    let r1 = _mm256_srai_epi32(
        _mm256_add_epi32(r, _mm256_set1_epi32((1 << (D - 1)) - 1)),
        D_BITS,
    );
    (r1, _mm256_sub_epi32(r, _mm256_slli_epi32(r1, D_BITS)))
}

/// (bound - 1) - |a| in each lane: negative exactly when |a| >= bound (as [`Poly::exceeds`]).
#[inline]
#[target_feature(enable = "avx2")]
fn bound_minus_abs(bound_minus_1: __m256i, a: __m256i) -> __m256i {
    _mm256_sub_epi32(bound_minus_1, _mm256_abs_epi32(a))
}

// ---------------------------------------------------------------------------------------------
// Rounding kernels.

/// FIPS 204, Algorithm 35 (Power2Round) on vectors, AVX2.
///
/// Contract: as [`crate::math::rounding::power2_round_vec`]. Bounds: t in [0, q); t1 and t0 get
/// r1 = (r + 2^(d-1) - 1) >> d and r0 = r - r1 2^d, in (-2^(d-1), 2^(d-1)].
#[target_feature(enable = "avx2")]
pub(crate) fn power2_round_vec(t: &[Poly], t1: &mut [Poly], t0: &mut [Poly]) {
    tick!(Power2Round, t.len());
    debug_assert!(all_in(t, 0, Q), "Bounds: t in [0, q)");
    for ((t, t1), t0) in t.iter().zip(t1.iter_mut()).zip(t0.iter_mut()) {
        for ((t, t1), t0) in lanes(t).iter().zip(lanes_mut(t1)).zip(lanes_mut(t0)) {
            let (r1, r0) = power2_round(load(t));
            store(t1, r1);
            store(t0, r0);
        }
    }
}

/// FIPS 204, Algorithm 37 (HighBits) on vectors, AVX2.
///
/// Contract: as [`crate::math::rounding::high_bits_vec`]. Bounds: w in [0, q); w1 in
/// [0, (q-1)/(2 gamma2)).
#[target_feature(enable = "avx2")]
pub(crate) fn high_bits_vec<P: Parameters>(w: &[Poly], w1: &mut [Poly]) {
    tick!(HighBits, w.len());
    debug_assert!(all_in(w, 0, Q), "Bounds: w in [0, q)");
    for (w, w1) in w.iter().zip(w1.iter_mut()) {
        for (w, w1) in lanes(w).iter().zip(lanes_mut(w1)) {
            store(w1, decompose::<P>(load(w)).0);
        }
    }
}

/// FIPS 204, Algorithm 38 (LowBits) on vectors with the infinity-norm check, AVX2: 1 if
/// ||LowBits(r)||_inf >= bound, else 0.
///
/// Contract: as [`crate::math::rounding::low_bits_exceed`]. Bounds: r in [0, q), bound > 0.
/// Constant time: every coefficient is visited; only the combined answer depends on r.
#[target_feature(enable = "avx2")]
pub(crate) fn low_bits_exceed<P: Parameters>(r: &[Poly], bound: i32) -> u32 {
    tick!(LowBitsCheck, r.len());
    debug_assert!(all_in(r, 0, Q), "Bounds: r in [0, q)");
    debug_assert!(bound > 0, "Bounds: bound > 0");
    let bound_minus_1 = _mm256_set1_epi32(bound.wrapping_sub(1));
    let mut any = _mm256_setzero_si256();
    for r in r {
        for r in lanes(r) {
            let r0 = decompose::<P>(load(r)).1;
            any = _mm256_or_si256(any, bound_minus_abs(bound_minus_1, r0));
        }
    }
    any_sign(any)
}

/// FIPS 204, Algorithm 39 (MakeHint) on vectors, AVX2: h = [HighBits(r) != HighBits(r + z)],
/// returning the number of 1s in h.
///
/// Contract: as [`crate::math::rounding::make_hint_vec`]. Bounds: r and r + z in [0, q) (`r_plus_z`
/// is passed instead of z); h in {0, 1}.
/// Constant time: the count is a lane-wise sum; the caller decides what to reveal of it.
#[target_feature(enable = "avx2")]
pub(crate) fn make_hint_vec<P: Parameters>(r_plus_z: &[Poly], r: &[Poly], h: &mut [Poly]) -> u32 {
    tick!(MakeHint, r.len());
    debug_assert!(all_in(r_plus_z, 0, Q), "Bounds: r + z in [0, q)");
    debug_assert!(all_in(r, 0, Q), "Bounds: r in [0, q)");
    let one = _mm256_set1_epi32(1);
    let mut count = _mm256_setzero_si256();
    for ((rz, r), h) in r_plus_z.iter().zip(r.iter()).zip(h.iter_mut()) {
        for ((rz, r), h) in lanes(rz).iter().zip(lanes(r)).zip(lanes_mut(h)) {
            let v1 = decompose::<P>(load(rz)).0;
            let r1 = decompose::<P>(load(r)).0;
            let hint = _mm256_andnot_si256(_mm256_cmpeq_epi32(v1, r1), one);
            store(h, hint);
            count = _mm256_add_epi32(count, hint);
        }
    }
    sum_lanes(count)
}

/// FIPS 204, Algorithm 40 (UseHint) on vectors, AVX2.
///
/// Contract: as [`crate::math::rounding::use_hint_vec`]. Bounds: h in {0, 1}, r in [0, q); w1 in
/// [0, (q-1)/(2 gamma2)).
#[target_feature(enable = "avx2")]
pub(crate) fn use_hint_vec<P: Parameters>(h: &[Poly], r: &[Poly], w1: &mut [Poly]) {
    tick!(UseHint, r.len());
    debug_assert!(all_in(h, 0, 2), "Bounds: h in {{0, 1}}");
    debug_assert!(all_in(r, 0, Q), "Bounds: r in [0, q)");
    let m = _mm256_set1_epi32(const { DecomposeConsts::new(P::GAMMA2).m });
    let one = _mm256_set1_epi32(1);
    for ((h, r), w1) in h.iter().zip(r.iter()).zip(w1.iter_mut()) {
        for ((h, r), w1) in lanes(h).iter().zip(lanes(r)).zip(lanes_mut(w1)) {
            let (r1, r0) = decompose::<P>(load(r));
            let h = load(h);
            // Step h when r0 > 0, -h when r0 <= 0 (the boundary r0 = 0 steps down):
            // (h ^ mask) - mask negates h where the mask is all ones.
            let not_positive = _mm256_cmpgt_epi32(one, r0);
            let step = _mm256_sub_epi32(_mm256_xor_si256(h, not_positive), not_positive);
            let moved = _mm256_add_epi32(r1, step);
            // (r1 +- 1) mod m: -1 becomes m - 1 and m becomes 0.
            let moved = _mm256_add_epi32(moved, _mm256_and_si256(_mm256_srai_epi32(moved, 31), m));
            let moved = _mm256_andnot_si256(_mm256_cmpeq_epi32(moved, m), moved);
            store(w1, moved);
        }
    }
}

/// The infinity-norm check ||v||_inf >= bound on vectors, AVX2: 1 if some coefficient has
/// |c| >= bound, else 0.
///
/// Contract: as [`crate::math::poly::vec_exceeds`]. Bounds: |c| < 2^31, bound > 0.
/// Constant time: abs, subtract and or-accumulate over every coefficient, no early exit; only
/// the answer depends on v.
#[target_feature(enable = "avx2")]
pub(crate) fn vec_exceeds(v: &[Poly], bound: i32) -> u32 {
    tick!(NormCheck, v.len());
    debug_assert!(
        v.iter()
            .all(|p| p.0.iter().fold(true, |ok, &c| ok & (c != i32::MIN))),
        "Bounds: |c| < 2^31"
    );
    debug_assert!(bound > 0, "Bounds: bound > 0");
    let bound_minus_1 = _mm256_set1_epi32(bound.wrapping_sub(1));
    let mut any = _mm256_setzero_si256();
    for p in v {
        for c in lanes(p) {
            any = _mm256_or_si256(any, bound_minus_abs(bound_minus_1, load(c)));
        }
    }
    any_sign(any)
}

// ---------------------------------------------------------------------------------------------
// w1Encode.

/// Packs 64 coefficients in [0, 16) (8 vectors) into 32 bytes, two per byte, low nibble first.
#[inline]
#[target_feature(enable = "avx2")]
fn pack_4bit(c: &[[i32; 8]; 8], out: &mut [u8]) {
    // Dword order after the two packs (L/H: coefficients 0-3 / 4-7 of a vector): v0L v1L v2L
    // v3L | v0H v1H v2H v3H. This index list puts each vector's halves back together.
    let order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    let mut bytes = [_mm256_setzero_si256(); 2];
    for (half, b) in c.as_chunks::<4>().0.iter().zip(bytes.iter_mut()) {
        let ab = _mm256_packus_epi32(load(&half[0]), load(&half[1]));
        let cd = _mm256_packus_epi32(load(&half[2]), load(&half[3]));
        // 32 coefficients, one per byte, in order.
        let in_order = _mm256_permutevar8x32_epi32(_mm256_packus_epi16(ab, cd), order);
        // Each pair of bytes (x0, x1) to the 16-bit x0 + 16 x1.
        *b = _mm256_maddubs_epi16(in_order, _mm256_set1_epi16(0x1001));
    }
    // 16-bit values to bytes; the pack interleaves the two inputs by 8-byte quarters.
    let packed = _mm256_packus_epi16(bytes[0], bytes[1]);
    store32(out, _mm256_permute4x64_epi64(packed, 0b11_01_10_00));
}

/// Packs 32 coefficients in [0, 64) (4 vectors) into 24 bytes, 6 bits each, little-endian.
#[inline]
#[target_feature(enable = "avx2")]
fn pack_6bit(c: &[[i32; 8]; 4], out: &mut [u8]) {
    // Pairs of coefficients to 12-bit values x0 + 64 x1 (16-bit multiply-add).
    let pair = _mm256_set1_epi32((64 << 16) | 1);
    let p01 = _mm256_madd_epi16(_mm256_packus_epi32(load(&c[0]), load(&c[1])), pair);
    let p23 = _mm256_madd_epi16(_mm256_packus_epi32(load(&c[2]), load(&c[3])), pair);
    // Pairs of 12-bit values to 24-bit values y0 + 4096 y1: four coefficients per dword, in the
    // dword order v0L v1L v2L v3L | v0H v1H v2H v3H.
    let quad = _mm256_set1_epi32((4096 << 16) | 1);
    let q = _mm256_madd_epi16(_mm256_packus_epi32(p01, p23), quad);
    let q = _mm256_permutevar8x32_epi32(q, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
    // The 3 low bytes of each dword, packed at the bottom of each 128-bit lane (12 bytes each),
    // then the two lanes' 12 bytes made contiguous.
    let squeeze = _mm256_setr_epi8(
        0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1, //
        0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -1, -1, -1, -1,
    );
    let q = _mm256_shuffle_epi8(q, squeeze);
    let q = _mm256_permutevar8x32_epi32(q, _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 3, 7));
    store24(out, q);
}

/// FIPS 204, Algorithm 28 (w1Encode) on vectors, AVX2: SimpleBitPack of each w1[i] with
/// 4-bit (gamma2 = (q-1)/32) or 6-bit (gamma2 = (q-1)/88) fields.
///
/// Contract: as [`crate::encoding::encode::w1_encode`]. Bounds: w1 in [0, 2^W1_BITS);
/// `out.len() == w1.len() * 32 * W1_BITS`.
/// Constant time: no branch on the coefficients (the output becomes public, the input is not yet).
#[target_feature(enable = "avx2")]
pub(crate) fn w1_encode<P: Parameters>(w1: &[Poly], out: &mut [u8]) {
    tick!(W1Encode, w1.len());
    let len = 32 * P::W1_BITS;
    debug_assert_eq!(out.len(), w1.len() * len, "Bounds: w1Encode length");
    debug_assert!(all_in(w1, 0, 1 << P::W1_BITS), "Bounds: w1 in [0, 2^bits)");
    for (i, p) in w1.iter().enumerate() {
        let out = &mut out[i * len..(i + 1) * len];
        let groups = lanes(p);
        match P::W1_BITS {
            4 => {
                for (j, c) in groups.as_chunks::<8>().0.iter().enumerate() {
                    pack_4bit(c, &mut out[32 * j..32 * j + 32]);
                }
            }
            6 => {
                for (j, c) in groups.as_chunks::<4>().0.iter().enumerate() {
                    pack_6bit(c, &mut out[24 * j..24 * j + 24]);
                }
            }
            _ => unreachable!("FIPS 204 packs w1 in 4 or 6 bits"),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// HintBitPack's words.

/// A hint polynomial's 1s as the bits of four words (bit j of word w: coefficient 64 w + j),
/// AVX2: bit 0 of each lane moved to the sign bit and gathered 8 at a time by a movemask.
///
/// Contract: [`crate::encoding::pack::hint_words`], whose words it returns for h in {0, 1}.
/// Constant time: no branch or index depends on h.
#[target_feature(enable = "avx2")]
pub(crate) fn hint_words(h: &Poly) -> [u64; 4] {
    debug_assert!(
        all_in(core::slice::from_ref(h), 0, 2),
        "Bounds: h in {{0, 1}}"
    );
    // One byte per group of 8 coefficients, then the bytes as little-endian words. (Or-ing
    // each group's bits into its word directly gave HintBitPack wrong words for coefficients
    // 232-239 when built with `-C target-cpu=native` on this AVX-512 machine, Rust 1.95,
    // though the same function called alone gave the right ones: not understood, so not
    // written that way.)
    let mut bytes = [0u8; N / 8];
    for (byte, c) in bytes.iter_mut().zip(lanes(h)) {
        let signs = _mm256_castsi256_ps(_mm256_slli_epi32::<31>(load(c)));
        *byte = _mm256_movemask_ps(signs) as u8;
    }
    core::array::from_fn(|w| {
        u64::from_le_bytes(bytes[8 * w..8 * w + 8].try_into().expect("8 bytes"))
    })
}

// ---------------------------------------------------------------------------------------------
// BitPack of z.

/// 8 fields x_i of `bits` bits (10, 18 or 20), packed little-endian: `bits` bytes, the first
/// bits / 2 (fields 0-3) in the low 16-byte half of the result and the next bits / 2 (fields
/// 4-7) in the high one (each half's other bytes are zero).
#[inline]
#[target_feature(enable = "avx2")]
fn pack8(x: __m256i, bits: i64) -> __m256i {
    // Per 64-bit lane, the field pair u = x_2i | x_2i+1 << bits (2 bits <= 40 bits).
    let lo = _mm256_and_si256(x, _mm256_set1_epi64x(0xFFFF_FFFF));
    let u = _mm256_or_si256(
        lo,
        _mm256_sllv_epi64(_mm256_srli_epi64::<32>(x), _mm256_set1_epi64x(bits)),
    );
    // Per 128-bit half, its two pairs as one value 4 bits wide (bits / 2 bytes): u0 | u1 << 2
    // bits, whose low 64 bits are u0 | (u1 << 2 bits mod 2^64) and high 64 bits
    // u1 >> (64 - 2 bits).
    let up = _mm256_sllv_epi64(u, _mm256_set_epi64x(2 * bits, 0, 2 * bits, 0));
    let low = _mm256_or_si256(u, _mm256_shuffle_epi32::<0b01_00_11_10>(up));
    let high = _mm256_srlv_epi64(u, _mm256_set_epi64x(64 - 2 * bits, 64, 64 - 2 * bits, 64));
    _mm256_blend_epi32::<0b1100_1100>(low, high)
}

/// [`pack8`] of the fields x_i = gamma1 - z_i (18 or 20 bits).
#[inline]
#[target_feature(enable = "avx2")]
fn pack_z8(z: __m256i, gamma1: i32, bits: i64) -> __m256i {
    pack8(_mm256_sub_epi32(_mm256_set1_epi32(gamma1), z), bits)
}

/// Writes the 32 groups of 8 fields of `bits` bits (10, 18 or 20) that `pack` makes of `p`'s
/// coefficients ([`pack8`]'s layout) to `out`, 32 * `bits` bytes: each half of a group (bits /
/// 2 bytes) stored as 16 bytes at its place, the later stores covering the zero bytes the
/// earlier ones wrote past it; a group whose stores would end past `out` (the last one, or the
/// last two for 10 bits) goes through a buffer.
#[inline]
#[target_feature(enable = "avx2")]
fn store_groups(p: &Poly, bits: usize, out: &mut [u8], pack: impl Fn(__m256i) -> __m256i) {
    let out = &mut out[..32 * bits];
    let half = bits / 2;
    for (g, c) in lanes(p).iter().enumerate() {
        let v = pack(load(c));
        let (low, high) = (_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
        let at = bits * g;
        if at + half + 16 <= out.len() {
            store16(&mut out[at..at + 16], low);
            store16(&mut out[at + half..at + half + 16], high);
        } else {
            let mut last = [0u8; 32];
            store16(&mut last[..16], low);
            store16(&mut last[half..half + 16], high);
            out[at..at + bits].copy_from_slice(&last[..bits]);
        }
    }
}

/// FIPS 204, Algorithm 16 (SimpleBitPack) of a row of t1 with 10-bit fields (pkEncode, Alg. 22
/// step 2), AVX2: groups of 8 fields ([`pack8`]), 10 bytes each, stored as BitPack of z is
/// ([`store_groups`]). About a quarter of the scalar packing's instructions, which showed as
/// 2-3 % of key generation.
///
/// Contract: as [`crate::encoding::pack::simple_bit_pack`] with 10 bits, whose bytes it
/// writes. Bounds: t1 in [0, 2^10); `out.len() == 320`. Constant time: fixed shifts and
/// shuffles (t1 is public).
#[target_feature(enable = "avx2")]
pub(crate) fn t1_pack(t1: &Poly, out: &mut [u8]) {
    debug_assert!(
        all_in(core::slice::from_ref(t1), 0, 1 << 10),
        "Bounds: t1 in [0, 2^10)"
    );
    store_groups(t1, 10, out, |x| pack8(x, 10));
}

/// FIPS 204, Algorithm 17 (BitPack) of z with a = gamma1 - 1, b = gamma1, AVX2: fields
/// gamma1 - z_i of 18 bits (gamma1 = 2^17) or 20 bits (gamma1 = 2^19), stored by
/// [`store_groups`].
///
/// Contract: as [`crate::encoding::pack::bit_pack`] with b = gamma1 and bits = Z_BITS, whose bytes it
/// writes. Bounds: z in (-gamma1, gamma1]; `out.len() == 32 * Z_BITS`.
/// Constant time: fixed shifts and shuffles (z is public when signing packs it, but this does
/// not rely on that).
#[target_feature(enable = "avx2")]
pub(crate) fn bit_pack_z<P: Parameters>(z: &Poly, out: &mut [u8]) {
    const {
        assert!(
            1 << (P::Z_BITS - 1) == P::GAMMA1 && (P::Z_BITS == 18 || P::Z_BITS == 20),
            "Z_BITS = 1 + log2(gamma1), 18 or 20"
        )
    };
    debug_assert!(
        all_in(core::slice::from_ref(z), -P::GAMMA1 + 1, P::GAMMA1 + 1),
        "Bounds: z in (-gamma1, gamma1]"
    );
    let bits = P::Z_BITS;
    store_groups(z, bits, out, |v| pack_z8(v, P::GAMMA1, bits as i64));
}

// ---------------------------------------------------------------------------------------------
// BitUnpack of z (and of the mask y).

/// Shuffle and shift constants for unpacking 8 fields of `bits` bits (18 or 20).
struct UnpackZConsts {
    /// Bytes per half group of 4 fields (bits / 2).
    half: usize,
    /// Per 32-bit lane j: the byte shuffle (bytes b_j, b_j + 1, b_j + 2, zero) with
    /// b_j = floor(bits j / 8).
    ctrl: [i32; 4],
    /// The same, for a window that starts `tail` bytes earlier (the last half group).
    ctrl_tail: [i32; 4],
    /// Per lane j: the bit offset bits j mod 8 of field j in its 3 bytes.
    shift: [i32; 4],
}

impl UnpackZConsts {
    const fn new(bits: usize) -> Self {
        assert!(bits == 18 || bits == 20, "z fields are 18 or 20 bits");
        let half = bits / 2;
        // The last half group starts at 32 bits - half; its 16-byte window is moved back to end
        // with the data.
        let tail = half + 16 - bits;
        let mut ctrl = [0; 4];
        let mut ctrl_tail = [0; 4];
        let mut shift = [0; 4];
        let mut j = 0;
        while j < 4 {
            let b = bits * j / 8;
            let s = bits * j % 8;
            assert!(s + bits <= 24, "a field lies within 3 bytes");
            assert!(b + 2 + tail < 16, "the moved window still holds the field");
            ctrl[j] = Self::three_bytes(b);
            ctrl_tail[j] = Self::three_bytes(b + tail);
            shift[j] = s as i32;
            j += 1;
        }
        // The windows stay inside the 32 * bits bytes: every group's lower one, and the upper
        // one of every group but the last.
        assert!(31 * bits + 16 <= 32 * bits && 30 * bits + half + 16 <= 32 * bits);
        Self {
            half,
            ctrl,
            ctrl_tail,
            shift,
        }
    }

    /// The shuffle control of one 32-bit lane: bytes b, b + 1, b + 2, then a zero byte.
    const fn three_bytes(b: usize) -> i32 {
        (b | (b + 1) << 8 | (b + 2) << 16 | 0x80 << 24) as u32 as i32
    }
}

/// 8 fields from two 16-byte windows (fields 0-3 from `lo`, 4-7 from `hi`), as gamma1 - field.
#[inline]
#[target_feature(enable = "avx2")]
fn unpack_z8(lo: __m128i, hi: __m128i, ctrl: __m256i, shift: __m256i, gamma1: i32) -> __m256i {
    let mask = (gamma1 << 1) - 1;
    let x = _mm256_shuffle_epi8(_mm256_set_m128i(hi, lo), ctrl);
    let x = _mm256_and_si256(_mm256_srlv_epi32(x, shift), _mm256_set1_epi32(mask));
    _mm256_sub_epi32(_mm256_set1_epi32(gamma1), x)
}

/// FIPS 204, Algorithm 19 (BitUnpack) of z or y with a = gamma1 - 1, b = gamma1, AVX2:
/// w_i = gamma1 - (field i), fields of 18 bits (gamma1 = 2^17) or 20 bits (gamma1 = 2^19).
///
/// Contract: as [`crate::encoding::pack::bit_unpack_z`]. Bounds: `v.len() == 32 * Z_BITS` (any bytes);
/// w in (-gamma1, gamma1].
/// Constant time: fixed shuffles and shifts; v may be secret (y).
#[target_feature(enable = "avx2")]
pub(crate) fn bit_unpack_z<P: Parameters>(v: &[u8], w: &mut Poly) {
    const {
        assert!(
            1 << (P::Z_BITS - 1) == P::GAMMA1,
            "Z_BITS = 1 + log2(gamma1)"
        )
    };
    let c = const { UnpackZConsts::new(P::Z_BITS) };
    let bits = P::Z_BITS;
    let len = 32 * bits;
    debug_assert_eq!(v.len(), len, "Bounds: BitUnpack length");
    let v = &v[..len];
    let ctrl = _mm256_setr_epi32(
        c.ctrl[0], c.ctrl[1], c.ctrl[2], c.ctrl[3], c.ctrl[0], c.ctrl[1], c.ctrl[2], c.ctrl[3],
    );
    let shift = _mm256_setr_epi32(
        c.shift[0], c.shift[1], c.shift[2], c.shift[3], c.shift[0], c.shift[1], c.shift[2],
        c.shift[3],
    );
    let out = lanes_mut(w);
    // A group of 8 fields is `bits` bytes. Its two 16-byte windows stay inside v for all
    // groups but the last, whose upper window ends with v instead.
    for (g, out) in out[..N / 8 - 1].iter_mut().enumerate() {
        let off = g * bits;
        let lo = load16(&v[off..off + 16]);
        let hi = load16(&v[off + c.half..off + c.half + 16]);
        store(out, unpack_z8(lo, hi, ctrl, shift, P::GAMMA1));
    }
    let ctrl_last = _mm256_setr_epi32(
        c.ctrl[0],
        c.ctrl[1],
        c.ctrl[2],
        c.ctrl[3],
        c.ctrl_tail[0],
        c.ctrl_tail[1],
        c.ctrl_tail[2],
        c.ctrl_tail[3],
    );
    let off = (N / 8 - 1) * bits;
    let lo = load16(&v[off..off + 16]);
    let hi = load16(&v[len - 16..]);
    store(
        &mut out[N / 8 - 1],
        unpack_z8(lo, hi, ctrl_last, shift, P::GAMMA1),
    );
}

// ---------------------------------------------------------------------------------------------
// Reductions for the signing loop.

/// `crate::math::field::freeze` on 8 lanes: reduce32, then add q to negative lanes.
#[inline]
#[target_feature(enable = "avx2")]
fn freeze(a: __m256i) -> __m256i {
    // t = (a + 2^22) >> 23; a - t q with t q = (t << 23) - (t << 13) + t, wrapping as the
    // portable i32 arithmetic does.
    let t = _mm256_srai_epi32(_mm256_add_epi32(a, _mm256_set1_epi32(1 << 22)), 23);
    let tq = _mm256_add_epi32(
        _mm256_sub_epi32(_mm256_slli_epi32(t, 23), _mm256_slli_epi32(t, 13)),
        t,
    );
    let a = _mm256_sub_epi32(a, tq);
    _mm256_add_epi32(
        a,
        _mm256_and_si256(_mm256_srai_epi32(a, 31), _mm256_set1_epi32(Q)),
    )
}

// q = 2^23 - 2^13 + 1, as `freeze` multiplies by it.
const _: () = assert!(Q == (1 << 23) - (1 << 13) + 1);

/// Zeroes `slots` 32-byte registers' worth of memory from `base` with volatile stores, then a
/// compiler fence: zeroisation the compiler may not remove or merge away. Shared by [`wipe`]
/// and the samplers' secret lanes.
///
/// # Safety
///
/// `base` must be 32-byte aligned and valid for writes of `slots * 32` bytes.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn zero_registers(base: *mut __m256i, slots: usize) {
    debug_assert!(base.is_aligned(), "zero_registers: not 32-byte aligned");
    for i in 0..slots {
        // SAFETY: i < slots, so `base.add(i)` is an aligned, writable 32-byte slot (the
        // caller's contract); `__m256i` has no invalid bit patterns.
        unsafe { core::ptr::write_volatile(base.add(i), _mm256_setzero_si256()) };
    }
    core::sync::atomic::compiler_fence(core::sync::atomic::Ordering::SeqCst);
}

/// Zeroes a polynomial's coefficients with N / 8 aligned 32-byte volatile stores (zeroisation;
/// see `backend::wipe`).
///
/// Contract: `coeffs` is the coefficient array of a `Poly` or `NttPoly`, which are
/// `#[repr(C, align(32))]`, so it starts on a 32-byte boundary.
#[target_feature(enable = "avx2")]
pub(crate) fn wipe(coeffs: &mut [i32; N]) {
    // SAFETY: the array is N * 4 = (N / 8) * 32 bytes, writable through `coeffs`, and 32-byte
    // aligned because it belongs to a `repr(align(32))` Poly or NttPoly (debug-asserted inside).
    unsafe { zero_registers(coeffs.as_mut_ptr().cast(), N / 8) }
}

/// Zeroes a [`SmallPoly`] (s1 or s2 as bytes) with N / 32 aligned 32-byte volatile stores.
#[target_feature(enable = "avx2")]
pub(crate) fn wipe_small(p: &mut SmallPoly) {
    const { assert!(size_of::<SmallPoly>() == N && align_of::<SmallPoly>().is_multiple_of(32)) };
    // SAFETY: a SmallPoly is N = (N / 32) * 32 bytes (asserted above), writable through `p`,
    // and 32-byte aligned (`repr(C, align(32))`, asserted above); any bytes are valid i8.
    unsafe { zero_registers((p as *mut SmallPoly).cast(), N / 32) }
}

/// Zeroes the sparse products' working memory with aligned 32-byte volatile stores.
#[target_feature(enable = "avx2")]
pub(crate) fn wipe_sparse(s: &mut SparseScratch) {
    const {
        assert!(
            size_of::<SparseScratch>().is_multiple_of(32)
                && align_of::<SparseScratch>().is_multiple_of(32)
        )
    };
    // SAFETY: the struct is a whole number of 32-byte slots, 32-byte aligned (both asserted
    // above) and writable through `s`; its fields are integer arrays, valid as all zero.
    unsafe {
        zero_registers(
            (s as *mut SparseScratch).cast(),
            size_of::<SparseScratch>() / 32,
        )
    }
}

/// cs2_i := freeze(w_i - cs2_i), coefficient-wise (FIPS 204 Alg. 7 step 21, r = w - cs2 kept
/// in [0, q)), AVX2.
///
/// Contract: the portable composition `crate::math::field::freeze(w - cs2)`. Bounds: w in [0, q),
/// |cs2| <= (q-1)/2; result in [0, q).
#[target_feature(enable = "avx2")]
pub(crate) fn sub_freeze(w: &[Poly], cs2: &mut [Poly]) {
    debug_assert!(all_in(w, 0, Q), "Bounds: w in [0, q)");
    debug_assert!(
        all_in(cs2, -(Q - 1) / 2, (Q - 1) / 2 + 1),
        "Bounds: |cs2| < q/2"
    );
    for (w, cs2) in w.iter().zip(cs2.iter_mut()) {
        for (w, cs2) in lanes(w).iter().zip(lanes_mut(cs2)) {
            let r = freeze(_mm256_sub_epi32(load(w), load(cs2)));
            store(cs2, r);
        }
    }
}

/// Secret bytes, 32-byte aligned and a whole number of registers long, wiped on drop with
/// 32-byte volatile stores (the `zeroize` crate wipes a byte array one byte at a time: for the
/// challenge hash's 1.2 KiB message buffer that was most of its overhead per signing attempt).
#[repr(C, align(32))]
pub(crate) struct SecretBytes<const L: usize>(pub(crate) [u8; L]);

impl<const L: usize> SecretBytes<L> {
    const WHOLE: () = assert!(L.is_multiple_of(32));

    pub(crate) fn new() -> Self {
        let () = Self::WHOLE;
        Self([0; L])
    }
}

impl<const L: usize> Drop for SecretBytes<L> {
    fn drop(&mut self) {
        // SAFETY: `SecretBytes` is only made inside AVX2 kernels, which run only after
        // `Avx2::detect` found AVX2; the array is 32-byte aligned and L (a multiple of 32,
        // asserted in `new`) bytes long, all writable through `self`.
        unsafe { zero_registers(self.0.as_mut_ptr().cast(), L / 32) }
    }
}

/// Whole 32-byte registers of packed secret bytes with room for a 16-byte load past the end of
/// the largest narrow field block (13 bits: 416 bytes), wiped on drop.
type PaddedFields = SecretBytes<448>;

/// FIPS 204 Algorithm 19, BitUnpack, for fields of at most 13 bits (s1 and s2: 3 or 4 bits;
/// t0: 13), AVX2: w_i = b - x_i, and 1 if some x_i > `max` (else 0), looking at all of them.
///
/// Contract: [`crate::encoding::pack::bit_unpack`], whose coefficients it equals, and its verdict where
/// `max` < 2^31 (callers that check nothing pass `u32::MAX` and ignore it). A group of 8 fields is `bits`
/// bytes, at most 13, so one 16-byte window holds it; the 32 bits bytes are first copied into
/// a padded buffer (wiped after) so that the last groups' windows stay in bounds. Constant time:
/// no branch or index depends on the bytes; the range check is a vector compare.
#[target_feature(enable = "avx2")]
pub(crate) fn bit_unpack_narrow(v: &[u8], b: i32, bits: usize, max: u32, w: &mut Poly) -> u32 {
    assert!((1..=13).contains(&bits), "narrow fields: 1 to 13 bits");
    let len = 32 * bits;
    let mut padded = PaddedFields::new();
    padded.0[..len].copy_from_slice(&v[..len]);
    let (ctrl, shift) = field_spread(bits);
    let mask = _mm256_set1_epi32((1 << bits) - 1);
    let bv = _mm256_set1_epi32(b);
    // x > max as a signed compare: x < 2^13, and a max of 2^31 or more checks nothing.
    let maxv = _mm256_set1_epi32(max.min(i32::MAX as u32) as i32);
    let mut bad = _mm256_setzero_si256();
    for (g, out) in lanes_mut(w).iter_mut().enumerate() {
        let window = load16(&padded.0[g * bits..g * bits + 16]);
        let x = _mm256_shuffle_epi8(_mm256_set_m128i(window, window), ctrl);
        let x = _mm256_and_si256(_mm256_srlv_epi32(x, shift), mask);
        bad = _mm256_or_si256(bad, _mm256_cmpgt_epi32(x, maxv));
        store(out, _mm256_sub_epi32(bv, x));
    }
    (_mm256_movemask_epi8(bad) != 0) as u32
}

/// How a group of eight `bits`-bit fields (`bits` <= 13 bytes) spreads into eight 32-bit
/// lanes: per lane the `vpshufb` control that gathers the three bytes field j touches (field j
/// starts at bit `bits` j: byte o, bit offset `bits` j mod 8; with at most 13 bits and 7 of
/// offset it lies within bytes o..o + 2, o <= 11), and the right shift that aligns it.
#[target_feature(enable = "avx2")]
fn field_spread(bits: usize) -> (__m256i, __m256i) {
    let mut ctrl = [0i32; 8];
    let mut shift = [0i32; 8];
    for (j, (c, s)) in ctrl.iter_mut().zip(shift.iter_mut()).enumerate() {
        let o = (bits * j) >> 3;
        *c = (o | (o + 1) << 8 | (o + 2) << 16 | 0x80 << 24) as u32 as i32;
        *s = ((bits * j) & 7) as i32;
    }
    (load(&ctrl), load(&shift))
}

/// t1 * 2^d from one polynomial of pkDecode's t1 (SimpleBitUnpack, FIPS 204 Alg. 18, of
/// 10-bit fields, times 2^d as verification's Alg. 8 step 10 needs it), AVX2: eight fields (10
/// bytes) a step, through 16-byte windows of a padded copy (so the last windows stay in bounds).
///
/// Contract: [`crate::encoding::pack::simple_bit_unpack_shifted`] with 10 bits and d, whose
/// coefficients it equals; `v` is 320 bytes. Public data (a public key).
#[target_feature(enable = "avx2")]
pub(crate) fn t1_unpack_shifted(v: &[u8], w: &mut Poly) {
    const BITS: usize = 10;
    let mut padded = [0u8; 32 * BITS + 16];
    padded[..32 * BITS].copy_from_slice(&v[..32 * BITS]);
    let (ctrl, shift) = field_spread(BITS);
    let mask = _mm256_set1_epi32((1 << BITS) - 1);
    for (g, out) in lanes_mut(w).iter_mut().enumerate() {
        let window = load16(&padded[g * BITS..g * BITS + 16]);
        let x = _mm256_shuffle_epi8(_mm256_set_m128i(window, window), ctrl);
        let x = _mm256_and_si256(_mm256_srlv_epi32(x, shift), mask);
        store(out, _mm256_slli_epi32::<{ D as i32 }>(x));
    }
}

/// c := c + q where c < 0, for every coefficient (NTT^-1's output brought to [0, q)), AVX2.
///
/// Contract: the portable `Poly::caddq`. Bounds: (-q, q) in, [0, q) out.
#[target_feature(enable = "avx2")]
pub(crate) fn caddq(p: &mut Poly) {
    debug_assert!(
        all_in(core::slice::from_ref(p), -Q + 1, Q),
        "Bounds: |c| < q"
    );
    let q = _mm256_set1_epi32(Q);
    for c in lanes_mut(p) {
        let a = load(c);
        store(
            c,
            _mm256_add_epi32(a, _mm256_and_si256(_mm256_srai_epi32(a, 31), q)),
        );
    }
}

#[cfg(test)]
mod tests {
    //! Each kernel against its portable counterpart: exhaustively over Z_q where the domain is
    //! Z_q (both gamma2 values), at and around the edges elsewhere, and on random inputs.
    //! Every test returns early, with a note, on a CPU without AVX2.
    use super::*;
    use crate::math::field::freeze as freeze_scalar;
    use crate::math::poly::N;
    use crate::math::rounding::{GAMMA2_32, GAMMA2_88};
    use crate::math::splitmix::SplitMix64;
    use crate::params::{MlDsa44, MlDsa65, MlDsa87};

    /// Polynomials per batch when sweeping Z_q (several, so that the kernels' outer loops run).
    /// Under Miri (M-1, `scripts/miri.sh`) 2: the point there is the kernels' memory accesses,
    /// not the arithmetic, and a full sweep would take days.
    const BATCH: usize = if cfg!(miri) { 2 } else { 64 };

    /// Under Miri the Z_q sweeps cover only the first and the last `MIRI_END` values (both
    /// ends, where the rounding wraps around); natively, all of Z_q.
    const MIRI_END: i32 = 256;

    /// How many r `for_all_of_z_q` passes: q, or 2 `MIRI_END` under Miri.
    const SWEPT: usize = if cfg!(miri) {
        2 * MIRI_END as usize
    } else {
        Q as usize
    };

    /// Every i in 0..n natively; under Miri every `step`-th (keeps Miri runs short).
    fn miri_every(n: usize, step: usize) -> impl Iterator<Item = usize> {
        (0..n).step_by(if cfg!(miri) { step } else { 1 })
    }

    /// `native` natively, `miri` under Miri (iteration counts of the random rounds).
    const fn rounds(native: usize, miri: usize) -> usize {
        if cfg!(miri) { miri } else { native }
    }

    fn have_avx2() -> bool {
        let yes = std::is_x86_feature_detected!("avx2");
        if !yes {
            std::eprintln!("note: this CPU has no AVX2; AVX2 kernel test skipped");
        }
        yes
    }

    /// Calls `f` with batches of `BATCH` polynomials holding every r in [0, q) once, in order
    /// (the last batch padded with q - 1). Returns the number of distinct r passed: q
    /// (`SWEPT`; under Miri only [0, MIRI_END) and [q - MIRI_END, q)).
    fn for_all_of_z_q(mut f: impl FnMut(&[Poly])) -> usize {
        let mut batch = vec![Poly::ZERO; BATCH];
        let mut r = 0i32;
        let mut distinct = 0;
        while r < Q {
            for c in batch.iter_mut().flat_map(|p| p.0.iter_mut()) {
                distinct += usize::from(r < Q);
                *c = r.min(Q - 1);
                r += 1;
                if cfg!(miri) && r == MIRI_END {
                    r = Q - MIRI_END;
                }
            }
            f(&batch);
        }
        distinct
    }

    /// Panics at the first coefficient where `got` and `want` differ, naming it and the inputs.
    #[track_caller]
    fn assert_polys_eq(what: &str, got: &[Poly], want: &[Poly], inputs: &[&[Poly]]) {
        assert_eq!(got.len(), want.len());
        for (i, (g, w)) in got.iter().zip(want).enumerate() {
            for j in 0..N {
                if g.0[j] != w.0[j] {
                    let ins: Vec<i32> = inputs.iter().map(|v| v[i].0[j]).collect();
                    panic!(
                        "{what}: poly {i} coefficient {j}, inputs {ins:?}: AVX2 {} portable {}",
                        g.0[j], w.0[j]
                    );
                }
            }
        }
    }

    /// Decompose of every lane, through the kernels' own helper.
    #[target_feature(enable = "avx2")]
    fn decompose_polys<P: Parameters>(r: &[Poly], r1: &mut [Poly], r0: &mut [Poly]) {
        for ((r, r1), r0) in r.iter().zip(r1.iter_mut()).zip(r0.iter_mut()) {
            for ((r, r1), r0) in lanes(r).iter().zip(lanes_mut(r1)).zip(lanes_mut(r0)) {
                let (hi, lo) = decompose::<P>(load(r));
                store(r1, hi);
                store(r0, lo);
            }
        }
    }

    #[test]
    fn power2_round_vec_exhaustive() {
        if !have_avx2() {
            return;
        }
        let (mut t1, mut t0) = (vec![Poly::ZERO; BATCH], vec![Poly::ZERO; BATCH]);
        let (mut e1, mut e0) = (vec![Poly::ZERO; BATCH], vec![Poly::ZERO; BATCH]);
        let n = for_all_of_z_q(|t| {
            crate::math::rounding::power2_round_vec(t, &mut e1, &mut e0);
            // SAFETY: AVX2 was detected above.
            unsafe { power2_round_vec(t, &mut t1, &mut t0) };
            assert_polys_eq("Power2Round r1", &t1, &e1, &[t]);
            assert_polys_eq("Power2Round r0", &t0, &e0, &[t]);
        });
        assert_eq!(n, SWEPT);
    }

    /// Decompose (both halves, lane by lane) and HighBits on vectors for every r in Z_q.
    fn decompose_and_high_bits_exhaustive<P: Parameters, const GAMMA2: i32>() {
        assert_eq!(P::GAMMA2, GAMMA2);
        let (mut r1, mut r0) = (vec![Poly::ZERO; BATCH], vec![Poly::ZERO; BATCH]);
        let (mut w1, mut e1) = (vec![Poly::ZERO; BATCH], vec![Poly::ZERO; BATCH]);
        let n = for_all_of_z_q(|r| {
            // SAFETY: the callers checked for AVX2.
            unsafe { decompose_polys::<P>(r, &mut r1, &mut r0) };
            for ((r, r1), r0) in r.iter().zip(&r1).zip(&r0) {
                for j in 0..N {
                    let want = crate::math::rounding::decompose::<GAMMA2>(r.0[j]);
                    assert_eq!((r1.0[j], r0.0[j]), want, "Decompose r = {}", r.0[j]);
                }
            }
            crate::backend::Backend::high_bits_vec::<P>(crate::backend::Portable, r, &mut e1);
            // SAFETY: as above.
            unsafe { high_bits_vec::<P>(r, &mut w1) };
            assert_polys_eq("HighBits", &w1, &e1, &[r]);
        });
        assert_eq!(n, SWEPT);
    }

    #[test]
    fn decompose_and_high_bits_vec_exhaustive_gamma2_88() {
        if have_avx2() {
            decompose_and_high_bits_exhaustive::<MlDsa44, GAMMA2_88>();
        }
    }

    #[test]
    fn decompose_and_high_bits_vec_exhaustive_gamma2_32() {
        if have_avx2() {
            decompose_and_high_bits_exhaustive::<MlDsa65, GAMMA2_32>();
        }
    }

    /// LowBits through `low_bits_exceed`, for every r in Z_q.
    ///
    /// Per r: a polynomial that is r at one lane (moving with r) and 0 elsewhere (LowBits 0),
    /// checked at bound |LowBits(r)| (must be 1) and |LowBits(r)| + 1 (must be 0): together
    /// they pin |LowBits(r)| exactly. Per batch of 64 polynomials: the kernel against the
    /// portable `low_bits_exceed` at bounds around the batch's largest |LowBits| and at the
    /// signing bound gamma2 - beta.
    fn low_bits_exceed_exhaustive<P: Parameters, const GAMMA2: i32>() {
        assert_eq!(P::GAMMA2, GAMMA2);
        let mut single = [Poly::ZERO];
        let (mut checks, mut zeros) = (0usize, 0usize);
        let all: &mut dyn Iterator<Item = i32> = if cfg!(miri) {
            &mut (0..MIRI_END).chain(Q - MIRI_END..Q)
        } else {
            &mut (0..Q)
        };
        for r in all {
            let a = crate::math::rounding::low_bits::<GAMMA2>(r).abs();
            let j = r as usize % N;
            single[0].0[j] = r;
            for (bound, want) in [(a, 1), (a + 1, 0)] {
                if bound == 0 {
                    zeros += 1; // bound 0 is outside the domain (bound > 0)
                    continue;
                }
                // SAFETY: the callers checked for AVX2.
                let got = unsafe { low_bits_exceed::<P>(&single, bound) };
                assert_eq!(got, want, "LowBits r = {r}, bound {bound}");
                checks += 1;
            }
            single[0].0[j] = 0;
        }
        let n = for_all_of_z_q(|r| {
            let max = r
                .iter()
                .flat_map(|p| p.0.iter())
                .map(|&c| crate::math::rounding::low_bits::<GAMMA2>(c).abs())
                .max()
                .unwrap();
            for bound in [1, max, max + 1, GAMMA2 - P::BETA, GAMMA2, GAMMA2 + 1] {
                let want = crate::backend::Backend::low_bits_exceed::<P>(
                    crate::backend::Portable,
                    r,
                    bound,
                );
                // SAFETY: as above.
                let got = unsafe { low_bits_exceed::<P>(r, bound) };
                assert_eq!(got, want, "low_bits_exceed batch from r = {}", r[0].0[0]);
            }
        });
        assert_eq!(n, SWEPT);
        // LowBits(r) = 0 exactly for r = 2 gamma2 k, k < m (q - 1 wraps around to -1).
        if !cfg!(miri) {
            assert_eq!(zeros, ((Q - 1) / (2 * GAMMA2)) as usize);
        }
        assert_eq!(checks, 2 * SWEPT - zeros);
    }

    #[test]
    fn low_bits_exceed_exhaustive_gamma2_88() {
        if have_avx2() {
            low_bits_exceed_exhaustive::<MlDsa44, GAMMA2_88>();
        }
    }

    #[test]
    fn low_bits_exceed_exhaustive_gamma2_32() {
        if have_avx2() {
            low_bits_exceed_exhaustive::<MlDsa65, GAMMA2_32>();
        }
    }

    /// MakeHint for every r in Z_q, each with z in a list of edges (0, +-1, +-gamma2,
    /// +-(gamma2 + 1), +-2 gamma2, q - 1 - r) plus a z that walks the whole of (-q, q); r + z
    /// reduced into [0, q) as the signer does. The hint count must match too.
    fn make_hint_exhaustive<P: Parameters, const GAMMA2: i32>() {
        assert_eq!(P::GAMMA2, GAMMA2);
        let zs: [fn(i32) -> i32; 12] = [
            |_| 0,
            |_| 1,
            |_| -1,
            |_| GAMMA2,
            |_| -GAMMA2,
            |_| GAMMA2 + 1,
            |_| -GAMMA2 - 1,
            |_| 2 * GAMMA2,
            |_| -2 * GAMMA2,
            |r| Q - 1 - r,
            |r| -r,
            |r| ((r as i64 * 7919) % Q as i64) as i32 - r,
        ];
        let mut rz = vec![Poly::ZERO; BATCH];
        let (mut h, mut e) = (vec![Poly::ZERO; BATCH], vec![Poly::ZERO; BATCH]);
        let mut pairs = 0usize;
        let n = for_all_of_z_q(|r| {
            for z in zs {
                for (rz, r) in rz.iter_mut().zip(r) {
                    for j in 0..N {
                        rz.0[j] = (r.0[j] + z(r.0[j])).rem_euclid(Q);
                    }
                }
                let want = crate::backend::Backend::make_hint_vec::<P>(
                    crate::backend::Portable,
                    &rz,
                    r,
                    &mut e,
                );
                // SAFETY: the callers checked for AVX2.
                let got = unsafe { make_hint_vec::<P>(&rz, r, &mut h) };
                assert_polys_eq("MakeHint", &h, &e, &[&rz, r]);
                assert_eq!(got, want, "hint count");
                pairs += BATCH * N;
            }
        });
        assert_eq!(n, SWEPT);
        assert!(pairs >= zs.len() * SWEPT);
    }

    #[test]
    fn make_hint_vec_exhaustive_in_r_gamma2_88() {
        if have_avx2() {
            make_hint_exhaustive::<MlDsa44, GAMMA2_88>();
        }
    }

    #[test]
    fn make_hint_vec_exhaustive_in_r_gamma2_32() {
        if have_avx2() {
            make_hint_exhaustive::<MlDsa65, GAMMA2_32>();
        }
    }

    /// UseHint for every r in Z_q with h = 0 and with h = 1 (all of {0, 1} x Z_q), and once
    /// more with h mixed lane by lane.
    fn use_hint_exhaustive<P: Parameters>() {
        let (mut w1, mut e1) = (vec![Poly::ZERO; BATCH], vec![Poly::ZERO; BATCH]);
        let zeros = vec![Poly::ZERO; BATCH];
        let ones = vec![Poly([1; N]); BATCH];
        let mixed: Vec<Poly> = (0..BATCH)
            .map(|i| {
                Poly(core::array::from_fn(|j| {
                    ((i * 7 + j * 3 + j / 5) & 1) as i32
                }))
            })
            .collect();
        let n = for_all_of_z_q(|r| {
            for h in [&zeros, &ones, &mixed] {
                crate::backend::Backend::use_hint_vec::<P>(crate::backend::Portable, h, r, &mut e1);
                // SAFETY: the callers checked for AVX2.
                unsafe { use_hint_vec::<P>(h, r, &mut w1) };
                assert_polys_eq("UseHint", &w1, &e1, &[h, r]);
            }
        });
        assert_eq!(n, SWEPT);
    }

    #[test]
    fn use_hint_vec_exhaustive_gamma2_88() {
        if have_avx2() {
            use_hint_exhaustive::<MlDsa44>();
        }
    }

    #[test]
    fn use_hint_vec_exhaustive_gamma2_32() {
        if have_avx2() {
            use_hint_exhaustive::<MlDsa65>();
        }
    }

    /// `vec_exceeds` on ML-DSA-65's k = 6 shape: for bounds from 1 to 2^31 - 1 (including
    /// every gamma2 and gamma1 - beta), a probe value from {bound - 1, bound, bound + 1, their
    /// negatives, 0, +-1, i32::MIN + 1, i32::MAX} at every coefficient of every polynomial, over
    /// a background of random values with |c| < bound; then random vectors around the bound.
    #[test]
    fn vec_exceeds_at_the_bound_everywhere() {
        if !have_avx2() {
            return;
        }
        let mut rng = SplitMix64(1);
        let bounds = [
            1,
            2,
            GAMMA2_88,
            GAMMA2_32,
            GAMMA2_88 - MlDsa44::BETA,
            GAMMA2_32 - MlDsa65::BETA,
            MlDsa44::GAMMA1 - MlDsa44::BETA,
            MlDsa65::GAMMA1 - MlDsa65::BETA,
            MlDsa87::GAMMA1 - MlDsa87::BETA,
            Q,
            1 << 30,
            i32::MAX - 1,
            i32::MAX,
        ];
        let mut calls = 0usize;
        for bound in bounds {
            let mut v = [Poly::ZERO; 6];
            for c in v.iter_mut().flat_map(|p| p.0.iter_mut()) {
                *c = rng.range(-(bound - 1), bound - 1);
            }
            let probes = [
                bound - 1,
                bound,
                bound.saturating_add(1),
                -(bound - 1),
                -bound,
                -bound.saturating_add(1),
                0,
                1,
                -1,
                i32::MIN + 1,
                i32::MAX,
            ];
            // Under Miri (M-1) the probe goes only to coefficient 0 of polynomials 0 and 5: the
            // full sweep took over 20 minutes there.
            for probe in probes {
                for i in miri_every(v.len(), 5) {
                    for j in miri_every(N, N) {
                        let keep = v[i].0[j];
                        v[i].0[j] = probe;
                        let want = crate::math::poly::vec_exceeds(&v, bound);
                        // SAFETY: AVX2 was detected above.
                        let got = unsafe { vec_exceeds(&v, bound) };
                        assert_eq!(got, want, "bound {bound}, {probe} at poly {i} coeff {j}");
                        v[i].0[j] = keep;
                        calls += 1;
                    }
                }
            }
        }
        assert_eq!(
            calls,
            13 * 11 * miri_every(6, 5).count() * miri_every(N, N).count()
        );
        // Random vectors of 1 to 8 polynomials below the bound, with 0 to 2 outliers at or
        // beyond it (either sign) at random places.
        let mut seen = [0usize; 2];
        for round in 0..rounds(20_000, 60) {
            let bound = bounds[round % bounds.len()];
            let mut v = vec![Poly::ZERO; 1 + round % 8];
            for c in v.iter_mut().flat_map(|p| p.0.iter_mut()) {
                *c = rng.range(-(bound - 1), bound - 1);
            }
            for _ in 0..rng.range(0, 2) {
                let i = rng.range(0, v.len() as i32 - 1) as usize;
                let j = rng.range(0, N as i32 - 1) as usize;
                let x = rng.range(bound, bound.saturating_add(2));
                v[i].0[j] = if rng.next_u64() & 1 == 0 { x } else { -x };
            }
            let want = crate::math::poly::vec_exceeds(&v, bound);
            // SAFETY: as above.
            let got = unsafe { vec_exceeds(&v, bound) };
            assert_eq!(got, want, "random round {round}");
            seen[want as usize] += 1;
        }
        assert!(
            seen[0] > rounds(1000, 0) && seen[1] > rounds(1000, 0),
            "both answers exercised: {seen:?}"
        );
    }

    /// `w1_encode` for both widths (ML-DSA-44: 6 bits, k = 4; ML-DSA-65: 4 bits, k = 6;
    /// ML-DSA-87: 4 bits, k = 8): all 0, all 2^bits - 1, all m - 1 (the largest HighBits), the
    /// largest value alone at every position, and random vectors over [0, 2^bits) and [0, m).
    fn w1_encode_matches<P: Parameters>() {
        let k = P::K;
        let top = (1 << P::W1_BITS) - 1;
        let m = (Q - 1) / (2 * P::GAMMA2);
        let mut cases: Vec<Vec<Poly>> = vec![
            vec![Poly::ZERO; k],
            vec![Poly([top; N]); k],
            vec![Poly([m - 1; N]); k],
        ];
        for i in 0..k {
            for j in miri_every(N, 51) {
                let mut v = vec![Poly::ZERO; k];
                v[i].0[j] = top;
                cases.push(v);
            }
        }
        let mut rng = SplitMix64(P::K as u64);
        for round in 0..rounds(2000, 4) {
            let hi = if round % 2 == 0 { top } else { m - 1 };
            let mut v = vec![Poly::ZERO; k];
            for c in v.iter_mut().flat_map(|p| p.0.iter_mut()) {
                *c = rng.range(0, hi);
            }
            cases.push(v);
        }
        let mut got = vec![0u8; P::W1_LEN];
        let mut want = vec![0u8; P::W1_LEN];
        for (n, w1) in cases.iter().enumerate() {
            got.fill(0xa5);
            crate::encoding::encode::w1_encode::<P>(w1, &mut want);
            // SAFETY: the callers checked for AVX2.
            unsafe { w1_encode::<P>(w1, &mut got) };
            assert_eq!(got, want, "{}: case {n}", P::NAME);
        }
        assert_eq!(
            cases.len(),
            3 + k * miri_every(N, 51).count() + rounds(2000, 4)
        );
    }

    #[test]
    fn w1_encode_6_bit_ml_dsa_44() {
        if have_avx2() {
            w1_encode_matches::<MlDsa44>();
        }
    }

    #[test]
    fn w1_encode_4_bit_ml_dsa_65_and_87() {
        if have_avx2() {
            w1_encode_matches::<MlDsa65>();
            w1_encode_matches::<MlDsa87>();
        }
    }

    /// `bit_unpack_z` for both widths (ML-DSA-44: gamma1 = 2^17, 18-bit fields; ML-DSA-65:
    /// gamma1 = 2^19, 20-bit fields): all 0x00, all 0xff, 0x55 / 0xaa, every single bit set
    /// alone (every field at its extremes 0 and 2^bits - 1 sits next to each other one), and
    /// random bytes.
    /// BitPack z too: each case's z packed back (see inside).
    /// Packed bytes to unpack, `len` of them: constant bytes, one bit set in zeros and cleared
    /// in ones (every `step`-th bit), and `random` pseudorandom strings from `seed`.
    fn unpack_cases(len: usize, step: usize, seed: u64, random: usize) -> Vec<Vec<u8>> {
        let mut cases: Vec<Vec<u8>> = [0x00, 0xff, 0x55, 0xaa]
            .iter()
            .map(|&b| vec![b; len])
            .collect();
        for bit in miri_every(8 * len, step) {
            let mut v = vec![0u8; len];
            v[bit / 8] = 1 << (bit % 8);
            cases.push(v);
            let mut v = vec![0xffu8; len];
            v[bit / 8] ^= 1 << (bit % 8);
            cases.push(v);
        }
        let mut rng = SplitMix64(seed);
        for _ in 0..random {
            cases.push((0..len).map(|_| rng.next_u64() as u8).collect());
        }
        cases
    }

    fn bit_unpack_z_matches<P: Parameters>() {
        let len = 32 * P::Z_BITS;
        let cases = unpack_cases(len, 97, P::Z_BITS as u64, rounds(2000, 4));
        let (mut got, mut want) = (Poly::ZERO, Poly::ZERO);
        for (n, v) in cases.iter().enumerate() {
            got.0.fill(0x5a5a_5a5a);
            crate::encoding::pack::bit_unpack_z::<P>(v, &mut want);
            // SAFETY: the callers checked for AVX2.
            unsafe { bit_unpack_z::<P>(v, &mut got) };
            assert_polys_eq(
                &std::format!("{}: BitUnpack z, case {n}", P::NAME),
                &[got],
                &[want],
                &[],
            );
            // BitPack of that z: every bytes unpack to a z in (-gamma1, gamma1] that packs
            // back to them, with the portable BitPack and with this one (into a buffer full of
            // other bytes, so that every byte must be written).
            let mut portable = vec![0u8; len];
            crate::encoding::pack::bit_pack(&want, P::GAMMA1, P::Z_BITS, &mut portable);
            assert_eq!(&portable, v, "{}: portable BitPack z, case {n}", P::NAME);
            let mut packed = vec![0xa5u8; len];
            // SAFETY: the callers checked for AVX2.
            unsafe { bit_pack_z::<P>(&want, &mut packed) };
            assert_eq!(&packed, v, "{}: BitPack z, case {n}", P::NAME);
        }
        assert_eq!(
            cases.len(),
            4 + 2 * miri_every(8 * len, 97).count() + rounds(2000, 4)
        );
    }

    #[test]
    fn bit_unpack_z_18_bit_ml_dsa_44() {
        if have_avx2() {
            bit_unpack_z_matches::<MlDsa44>();
        }
    }

    #[test]
    fn bit_unpack_z_20_bit_ml_dsa_65() {
        if have_avx2() {
            bit_unpack_z_matches::<MlDsa65>();
        }
    }

    /// t1 * 2^d against the portable unpack: constant bytes, every single bit set in zeros and
    /// cleared in ones (each field at each of its bits, in every lane and group), random bytes.
    #[test]
    fn t1_unpack_shifted_matches() {
        if !have_avx2() {
            return;
        }
        let cases = unpack_cases(320, 7, 10, rounds(500, 4));
        let (mut got, mut want) = (Poly::ZERO, Poly::ZERO);
        for (n, v) in cases.iter().enumerate() {
            got.0.fill(0x5a5a_5a5a);
            crate::encoding::pack::simple_bit_unpack_shifted(v, 10, D, &mut want);
            // SAFETY: checked for AVX2 above.
            unsafe { t1_unpack_shifted(v, &mut got) };
            assert_polys_eq(&std::format!("t1 * 2^d, case {n}"), &[got], &[want], &[]);
        }
    }

    /// pkEncode's row packing against the bytes it must give back: every case of
    /// `t1_unpack_shifted_matches` (edge bytes, each bit set and cleared, random bytes)
    /// unpacked to t1 with the portable SimpleBitUnpack, then packed into a buffer full of other
    /// bytes (so every byte must be written).
    #[test]
    fn t1_pack_gives_back_the_bytes() {
        if !have_avx2() {
            return;
        }
        let mut t1 = Poly::ZERO;
        for (n, v) in unpack_cases(320, 7, 10, rounds(500, 4)).iter().enumerate() {
            crate::encoding::pack::simple_bit_unpack(v, 10, &mut t1);
            let mut packed = [0xa5u8; 320];
            // SAFETY: checked for AVX2 above.
            unsafe { t1_pack(&t1, &mut packed) };
            assert_eq!(&packed[..], &v[..], "t1 pack, case {n}");
        }
    }

    /// `sub_freeze` against `freeze(w - cs2)`: every pair of edge values (w in {0, 1, 2,
    /// (q-1)/2, (q+1)/2, q - 2, q - 1}, cs2 in {+-(q-1)/2, +-((q-1)/2 - 1), +-1, 0}) at every
    /// lane, then every difference w - cs2 the domain allows (all of [-(q-1)/2, 3(q-1)/2]),
    /// each from a pseudorandom pair (w, cs2) in the domain.
    #[test]
    fn sub_freeze_edges_and_every_difference() {
        if !have_avx2() {
            return;
        }
        let h = (Q - 1) / 2;
        let ws = [0, 1, 2, h, h + 1, Q - 2, Q - 1];
        let cs = [-h, -h + 1, -1, 0, 1, h - 1, h];
        let pairs: Vec<(i32, i32)> = ws
            .iter()
            .flat_map(|&w| cs.iter().map(move |&c| (w, c)))
            .collect();
        // Every pair at every lane: rotate the pair list through the 6 x 256 coefficients.
        for shift in 0..pairs.len() {
            let mut w = [Poly::ZERO; 6];
            let mut c = [Poly::ZERO; 6];
            for (n, (wp, cp)) in w
                .iter_mut()
                .flat_map(|p| p.0.iter_mut())
                .zip(c.iter_mut().flat_map(|p| p.0.iter_mut()))
                .enumerate()
            {
                (*wp, *cp) = pairs[(n + shift) % pairs.len()];
            }
            let want: Vec<Poly> = w
                .iter()
                .zip(&c)
                .map(|(w, c)| Poly(core::array::from_fn(|j| freeze_scalar(w.0[j] - c.0[j]))))
                .collect();
            let input = c;
            // SAFETY: AVX2 was detected above.
            unsafe { sub_freeze(&w, &mut c) };
            assert_polys_eq("sub_freeze edges", &c, &want, &[&w, &input]);
        }
        // Every difference a = w - cs2 in [-h, q - 1 + h].
        let mut rng = SplitMix64(21);
        let (lo, hi) = (-h, Q - 1 + h);
        let mut a = lo;
        let mut count = 0usize;
        while a <= hi {
            let mut w = vec![Poly::ZERO; BATCH];
            let mut c = vec![Poly::ZERO; BATCH];
            for (wp, cp) in w
                .iter_mut()
                .flat_map(|p| p.0.iter_mut())
                .zip(c.iter_mut().flat_map(|p| p.0.iter_mut()))
            {
                let d = a.min(hi);
                count += usize::from(a <= hi);
                a += 1;
                if cfg!(miri) && a == lo + MIRI_END {
                    a = hi + 1 - MIRI_END; // both ends only, as in `for_all_of_z_q`
                }
                // w in [max(0, d - h), min(q - 1, d + h)], so that cs2 = w - d is in [-h, h].
                *wp = rng.range((d - h).max(0), (d + h).min(Q - 1));
                *cp = *wp - d;
            }
            let want: Vec<Poly> = w
                .iter()
                .zip(&c)
                .map(|(w, c)| Poly(core::array::from_fn(|j| freeze_scalar(w.0[j] - c.0[j]))))
                .collect();
            let input = c.clone();
            // SAFETY: as above.
            unsafe { sub_freeze(&w, &mut c) };
            assert_polys_eq("sub_freeze", &c, &want, &[&w, &input]);
        }
        assert_eq!(
            count,
            if cfg!(miri) {
                SWEPT
            } else {
                (hi - lo + 1) as usize
            }
        );
    }

    /// The narrow BitUnpack against the portable one: s1 and s2 (3 and 4 bits, in range and
    /// out of it) and t0 (13 bits), on constant, single-bit and random bytes.
    #[test]
    fn bit_unpack_narrow_matches() {
        if !have_avx2() {
            return;
        }
        // (bits, b, max): eta = 2, eta = 4, t0 (no range check), and the whole 4-bit range.
        for (bits, b, max) in [(3, 2, 4), (4, 4, 8), (13, 1 << 12, u32::MAX), (4, 4, 15)] {
            let len = 32 * bits;
            let mut cases: Vec<Vec<u8>> = [0x00, 0xff, 0x55, 0xaa, 0x24]
                .iter()
                .map(|&x| vec![x; len])
                .collect();
            for bit in miri_every(8 * len, 13) {
                let mut v = vec![0u8; len];
                v[bit / 8] = 1 << (bit % 8);
                cases.push(v);
            }
            let mut rng = SplitMix64(bits as u64);
            for _ in 0..rounds(500, 4) {
                cases.push((0..len).map(|_| rng.next_u64() as u8).collect());
            }
            for v in cases {
                let (mut expect, mut got) = (Poly::ZERO, Poly::ZERO);
                let bad = crate::encoding::pack::bit_unpack(&v, b, bits, max, &mut expect);
                // SAFETY: AVX2 checked above.
                let got_bad = unsafe { bit_unpack_narrow(&v, b, bits, max, &mut got) };
                assert_eq!(got.0, expect.0, "{bits} bits: {v:02x?}");
                // The verdict means something for max < 2^31 only (t0 checks nothing).
                if max < 1 << 31 {
                    assert_eq!(got_bad, bad, "{bits} bits, max {max}: {v:02x?}");
                }
            }
        }
    }

    /// caddq on every value of (-q, q), 256 at a time, against the portable one.
    #[test]
    fn caddq_exhaustive() {
        if !have_avx2() {
            return;
        }
        let step = if cfg!(miri) { 1 << 16 } else { 1 };
        let mut c = -Q + 1;
        while c < Q {
            let mut p = Poly::ZERO;
            for (k, x) in p.0.iter_mut().enumerate() {
                *x = (c + (k as i32) * step).min(Q - 1);
            }
            let mut expect = p;
            expect.caddq();
            // SAFETY: AVX2 checked above.
            unsafe { caddq(&mut p) };
            assert_eq!(p.0, expect.0, "from {c}");
            c += 256 * step;
        }
    }
}
