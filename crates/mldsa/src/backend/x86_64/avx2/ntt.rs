//! AVX2 NTT, inverse NTT and pointwise arithmetic in T_q.
//!
//! Layout: the portable one (coefficient or evaluation i at index i, NTT values in FIPS 204's
//! bit-reversed order), so either backend can consume the other's NTT-domain values. A
//! polynomial is 32 vectors of 8 lanes; vector r holds indices 8r..8r+7.
//!
//! The arithmetic is the portable code's, eight lanes at a time: the same signed Montgomery
//! multiplication (FIPS 204 Algorithm 49) with the same twiddles (zeta^BitRev8(m) * 2^32 mod q,
//! centred), and, like the portable code, no reduction between layers: the bounds below show
//! that nothing overflows 32 bits.
//!
//! Butterflies with len >= 8 pair whole vectors and use one broadcast twiddle. For len 4, 2 and
//! 1 the partners sit in the same vector, so each block of 8 vectors (64 coefficients) is
//! transposed as an 8x8 matrix: afterwards vector i holds position i of each 8-coefficient
//! group, the partners are again whole vectors, and each lane (group) gets its own twiddle from
//! a per-lane table. A second transpose restores the layout.
//!
//! Montgomery multiplication, vectorised: `_mm256_mul_epi32` multiplies the even lanes into
//! 64-bit products; the odd lanes are moved down and done the same way. With the twiddle z
//! comes z * q^-1 mod 2^32, precomputed, so the Montgomery quotient t = a * z * q^-1 mod 2^32
//! costs one multiplication instead of two. The high halves of a * z - t * q are the results
//! (the low halves cancel exactly, so a 32-bit subtraction of the high halves is exact).
//!
//! Constant time: straight-line vector code; loop bounds and table indices depend only on
//! positions and lengths, never on coefficient values.

// Every `unsafe` block here must say why it is sound.
#![deny(clippy::undocumented_unsafe_blocks)]

use crate::math::ntt::pow_mod;
use crate::math::poly::{N, NttPoly, Poly};
use crate::params::Q;
use core::arch::x86_64::{
    __m256i, _mm256_add_epi32, _mm256_add_epi64, _mm256_blend_epi32, _mm256_load_si256,
    _mm256_loadu_si256, _mm256_mul_epi32, _mm256_permute2x128_si256, _mm256_set1_epi32,
    _mm256_setzero_si256, _mm256_shuffle_epi32, _mm256_storeu_si256, _mm256_sub_epi32,
    _mm256_unpackhi_epi32, _mm256_unpackhi_epi64, _mm256_unpacklo_epi32, _mm256_unpacklo_epi64,
};
use zeroize::Zeroize;

/// Vectors (of 8 coefficients) per polynomial.
const VECS: usize = N / 8;

// ---------------------------------------------------------------------------------------------
// Constants and twiddle tables, computed at compile time from zeta = 1753 (FIPS 204 section 7.5).
// ---------------------------------------------------------------------------------------------

/// zeta = 1753, a primitive 512th root of unity mod q.
const ZETA: u64 = 1753;

/// q^-1 mod 2^32, by Newton's iteration x <- x (2 - q x), which doubles the number of correct
/// low bits each step; x = q is already right to 3 bits (q^2 = 1 mod 8 for odd q).
pub(in crate::backend::x86_64) const QINV: i32 = {
    let q = Q as u32;
    let mut x = q;
    let mut i = 0;
    while i < 4 {
        x = x.wrapping_mul(2u32.wrapping_sub(q.wrapping_mul(x)));
        i += 1;
    }
    x as i32
};
const _: () = assert!((Q as u32).wrapping_mul(QINV as u32) == 1);

/// x mod q centred into (-q/2, q/2].
const fn centre(x: i64) -> i32 {
    let r = x.rem_euclid(Q as i64);
    if r > (Q as i64) / 2 {
        (r - Q as i64) as i32
    } else {
        r as i32
    }
}

/// Montgomery form x * 2^32 mod q, centred.
const fn to_mont(x: u64) -> i32 {
    centre((((x % Q as u64) << 32) % Q as u64) as i64)
}

/// x * y * 2^-32 mod q, centred (Montgomery product of two constants).
const fn mont_const(x: i32, y: i32) -> i32 {
    // 2^-32 mod q = (2^32 mod q)^(q-2), applied with exact 64-bit arithmetic on residues.
    let r_inv = pow_mod(pow_mod(2, 32), Q as u64 - 2);
    let xy = (x as i64).rem_euclid(Q as i64) as u64 * (y as i64).rem_euclid(Q as i64) as u64;
    centre(((xy % Q as u64) * r_inv % Q as u64) as i64)
}

/// z * q^-1 mod 2^32: the precomputed half of a Montgomery multiplication by z.
pub(in crate::backend::x86_64) const fn times_qinv(z: i32) -> i32 {
    z.wrapping_mul(QINV)
}

/// ZETAS[m] = zeta^BitRev8(m) * 2^32 mod q, centred: the portable twiddles (FIPS 204
/// Appendix B in Montgomery form). |ZETAS[m]| <= (q-1)/2.
pub(in crate::backend::x86_64) const ZETAS: [i32; N] = {
    let mut t = [0i32; N];
    let mut m = 0;
    while m < N {
        t[m] = to_mont(pow_mod(ZETA, (m as u8).reverse_bits() as u64));
        m += 1;
    }
    t
};

/// ZETAS_QINV[m] = ZETAS[m] * q^-1 mod 2^32.
static ZETAS_QINV: [i32; N] = {
    let mut t = [0i32; N];
    let mut m = 0;
    while m < N {
        t[m] = times_qinv(ZETAS[m]);
        m += 1;
    }
    t
};

/// 2^64 / 256 mod q, centred: one Montgomery multiplication by it applies 256^-1 (the end of
/// Algorithm 42) and 2^32 (undoing multiply_ntt's 2^-32), as in the portable code.
pub(in crate::backend::x86_64) const INV_NTT_SCALE: i32 =
    to_mont(to_mont(pow_mod(256, Q as u64 - 2)).rem_euclid(Q) as u64);

/// The last inverse layer's twiddle with the final scaling folded in:
/// mont(SCALED_ZETA_1, d) = mont(INV_NTT_SCALE, mont(ZETAS[1], d)) mod q.
pub(in crate::backend::x86_64) const SCALED_ZETA_1: i32 = mont_const(INV_NTT_SCALE, ZETAS[1]);

/// Eight twiddles, one per lane, in the forms the vector Montgomery multiplication wants:
/// `z` (its even lanes feed the even products), `z_odd` (lane 2i holds z[2i+1], for the odd
/// products) and the same two for z * q^-1 mod 2^32.
#[derive(Clone, Copy)]
#[repr(C, align(32))]
struct LaneTwiddles {
    z: [i32; 8],
    z_odd: [i32; 8],
    zq: [i32; 8],
    zq_odd: [i32; 8],
}

impl LaneTwiddles {
    const ZERO: Self = Self {
        z: [0; 8],
        z_odd: [0; 8],
        zq: [0; 8],
        zq_odd: [0; 8],
    };

    /// Lane k gets ZETAS[first + k * stride].
    const fn new(first: usize, stride: usize, descending: bool) -> Self {
        let mut t = Self::ZERO;
        let mut k = 0;
        while k < 8 {
            let m = if descending {
                first - k * stride
            } else {
                first + k * stride
            };
            t.z[k] = ZETAS[m];
            t.zq[k] = times_qinv(ZETAS[m]);
            k += 1;
        }
        let mut k = 0;
        while k < 8 {
            t.z_odd[k] = t.z[k | 1];
            t.zq_odd[k] = t.zq[k | 1];
            k += 1;
        }
        t
    }
}

/// Per-lane twiddles of the forward layers len = 4, 2, 1, per 64-coefficient block b. In the
/// transposed block, lane k is the 8-coefficient group g = 8b + k (coefficients 8g..8g+7); the
/// portable loop gives the butterfly starting at coefficient s the twiddle index
/// m = 256 / len / 2 + s / (2 len), hence:
/// `[0]` len 4: m = 32 + g; `[1]`, `[2]` len 2, first and second half of the group:
/// m = 64 + 2g + h; `[3 + s]` len 1, pair s of the group: m = 128 + 4g + s.
static FWD_LANES: [[LaneTwiddles; 7]; VECS / 8] = {
    let mut t = [[LaneTwiddles::ZERO; 7]; VECS / 8];
    let mut b = 0;
    while b < VECS / 8 {
        let g = 8 * b;
        t[b][0] = LaneTwiddles::new(32 + g, 1, false);
        t[b][1] = LaneTwiddles::new(64 + 2 * g, 2, false);
        t[b][2] = LaneTwiddles::new(64 + 2 * g + 1, 2, false);
        let mut s = 0;
        while s < 4 {
            t[b][3 + s] = LaneTwiddles::new(128 + 4 * g + s, 4, false);
            s += 1;
        }
        b += 1;
    }
    t
};

/// Per-lane twiddles of the inverse layers len = 1, 2, 4, per block b (lane k is group
/// g = 8b + k). The portable inverse counts m down from 256, so the butterfly starting at
/// coefficient s uses m = 256 / len - 1 - s / (2 len):
/// `[s]` len 1, pair s: m = 255 - 4g - s; `[4]`, `[5]` len 2, half h: m = 127 - 2g - h;
/// `[6]` len 4: m = 63 - g.
static INV_LANES: [[LaneTwiddles; 7]; VECS / 8] = {
    let mut t = [[LaneTwiddles::ZERO; 7]; VECS / 8];
    let mut b = 0;
    while b < VECS / 8 {
        let g = 8 * b;
        let mut s = 0;
        while s < 4 {
            t[b][s] = LaneTwiddles::new(255 - 4 * g - s, 4, true);
            s += 1;
        }
        t[b][4] = LaneTwiddles::new(127 - 2 * g, 2, true);
        t[b][5] = LaneTwiddles::new(127 - 2 * g - 1, 2, true);
        t[b][6] = LaneTwiddles::new(63 - g, 1, true);
        b += 1;
    }
    t
};

// ---------------------------------------------------------------------------------------------
// Vector helpers. All are safe: the intrinsics they use need only AVX2, which every caller has
// (each is itself an AVX2 `target_feature` function).
// ---------------------------------------------------------------------------------------------

/// A twiddle vector as [`mont_mul`] consumes it (see [`LaneTwiddles`] for the four parts).
#[derive(Clone, Copy)]
struct Twiddle {
    z: __m256i,
    z_odd: __m256i,
    zq: __m256i,
    zq_odd: __m256i,
}

/// The same twiddle ZETAS[m] in every lane.
#[inline]
#[target_feature(enable = "avx2")]
fn broadcast(m: usize) -> Twiddle {
    let z = _mm256_set1_epi32(ZETAS[m]);
    let zq = _mm256_set1_epi32(ZETAS_QINV[m]);
    Twiddle {
        z,
        z_odd: z,
        zq,
        zq_odd: zq,
    }
}

/// A twiddle given by its value (for the constants of the last inverse layer).
#[inline]
#[target_feature(enable = "avx2")]
fn broadcast_value(z: i32) -> Twiddle {
    let zv = _mm256_set1_epi32(z);
    let zq = _mm256_set1_epi32(times_qinv(z));
    Twiddle {
        z: zv,
        z_odd: zv,
        zq,
        zq_odd: zq,
    }
}

/// Loads a per-lane twiddle table entry.
#[inline]
#[target_feature(enable = "avx2")]
fn lanes(t: &LaneTwiddles) -> Twiddle {
    // SAFETY: each field is an [i32; 8] (32 readable bytes) inside a `repr(C, align(32))`
    // struct whose fields are all 32 bytes long, so every field is 32-byte aligned, as the
    // aligned load requires.
    unsafe {
        Twiddle {
            z: _mm256_load_si256(t.z.as_ptr().cast()),
            z_odd: _mm256_load_si256(t.z_odd.as_ptr().cast()),
            zq: _mm256_load_si256(t.zq.as_ptr().cast()),
            zq_odd: _mm256_load_si256(t.zq_odd.as_ptr().cast()),
        }
    }
}

/// Vector i (coefficients 8i..8i+7) of a polynomial.
#[inline]
#[target_feature(enable = "avx2")]
fn load(p: &[i32; N], i: usize) -> __m256i {
    let chunk: &[i32; 8] = &p.as_chunks::<8>().0[i];
    // SAFETY: `chunk` is a valid reference to 8 i32 (32 bytes); the load is unaligned.
    unsafe { _mm256_loadu_si256(chunk.as_ptr().cast()) }
}

/// Writes vector i (coefficients 8i..8i+7) of a polynomial.
#[inline]
#[target_feature(enable = "avx2")]
fn store(p: &mut [i32; N], i: usize, v: __m256i) {
    let chunk: &mut [i32; 8] = &mut p.as_chunks_mut::<8>().0[i];
    // SAFETY: `chunk` is a valid, exclusive reference to 8 i32 (32 bytes); the store is
    // unaligned.
    unsafe { _mm256_storeu_si256(chunk.as_mut_ptr().cast(), v) }
}

/// Moves the odd lanes to the even ones (lane 2i gets lane 2i+1, which is also copied to
/// 2i+1), where `_mm256_mul_epi32` reads its operands.
#[inline]
#[target_feature(enable = "avx2")]
fn odd_down(a: __m256i) -> __m256i {
    _mm256_shuffle_epi32::<0b11_11_01_01>(a)
}

/// Recombines two vectors of 64-bit lanes whose high halves hold the results for the even
/// lanes (`even`) and for the odd lanes (`odd`) into one vector of 32-bit results.
#[inline]
#[target_feature(enable = "avx2")]
fn join_high_halves(even: __m256i, odd: __m256i) -> __m256i {
    _mm256_blend_epi32::<0b1010_1010>(odd_down(even), odd)
}

/// Montgomery multiplication a * z * 2^-32 mod q, lane by lane (FIPS 204 Algorithm 49 on the
/// 64-bit product).
///
/// Bounds: |a * z| <= 2^31 q; result r with |r| <= |a z| / 2^32 + q/2 < q, and exactly the
/// portable `mont_mul(z, a)` (same quotient t, same arithmetic).
#[inline]
#[target_feature(enable = "avx2")]
fn mont_mul(a: __m256i, tw: Twiddle) -> __m256i {
    let q = _mm256_set1_epi32(Q);
    let a_odd = odd_down(a);
    let prod_even = _mm256_mul_epi32(a, tw.z);
    let prod_odd = _mm256_mul_epi32(a_odd, tw.z_odd);
    // t = a * z * q^-1 mod 2^32 sits in the low half; mul_epi32 reads it as signed, as the
    // portable reduction does.
    let tq_even = _mm256_mul_epi32(_mm256_mul_epi32(a, tw.zq), q);
    let tq_odd = _mm256_mul_epi32(_mm256_mul_epi32(a_odd, tw.zq_odd), q);
    // a z - t q = 0 mod 2^32: the low halves are equal, so the high halves' difference is
    // exactly (a z - t q) / 2^32.
    join_high_halves(
        _mm256_sub_epi32(prod_even, tq_even),
        _mm256_sub_epi32(prod_odd, tq_odd),
    )
}

/// Montgomery reduction of 64-bit sums: `even` and `odd` hold the sums for the even and the odd
/// lanes; returns sum * 2^-32 mod q per lane.
///
/// Bounds: |sum| <= 2^31 q; result r with |r| <= |sum| / 2^32 + q/2 < q.
#[inline]
#[target_feature(enable = "avx2")]
fn montgomery_reduce(even: __m256i, odd: __m256i) -> __m256i {
    let q = _mm256_set1_epi32(Q);
    let qinv = _mm256_set1_epi32(QINV);
    let tq_even = _mm256_mul_epi32(_mm256_mul_epi32(even, qinv), q);
    let tq_odd = _mm256_mul_epi32(_mm256_mul_epi32(odd, qinv), q);
    join_high_halves(
        _mm256_sub_epi32(even, tq_even),
        _mm256_sub_epi32(odd, tq_odd),
    )
}

/// Cooley-Tukey butterfly (Algorithm 41, lines 10-12): (a, b) <- (a + z b, a - z b).
#[inline]
#[target_feature(enable = "avx2")]
fn ct(r: &mut [__m256i], i: usize, j: usize, tw: Twiddle) {
    let t = mont_mul(r[j], tw);
    r[j] = _mm256_sub_epi32(r[i], t);
    r[i] = _mm256_add_epi32(r[i], t);
}

/// Gentleman-Sande butterfly (Algorithm 42, lines 10-12): (a, b) <- (a + b, -z (a - b)),
/// computed as z (b - a) so the table holds ZETAS as they are.
#[inline]
#[target_feature(enable = "avx2")]
fn gs(r: &mut [__m256i], i: usize, j: usize, tw: Twiddle) {
    let a = r[i];
    let b = r[j];
    r[i] = _mm256_add_epi32(a, b);
    r[j] = mont_mul(_mm256_sub_epi32(b, a), tw);
}

// The butterfly patterns of one 8-vector block, written out with constant indices so that the
// block stays in registers (loops here were left rolled, over a stack copy).

/// Butterflies between vectors 4 apart: (0, 4), (1, 5), (2, 6), (3, 7), one twiddle.
#[inline]
#[target_feature(enable = "avx2")]
fn ct_4_apart(x: &mut [__m256i; 8], tw: Twiddle) {
    ct(x, 0, 4, tw);
    ct(x, 1, 5, tw);
    ct(x, 2, 6, tw);
    ct(x, 3, 7, tw);
}

/// Butterflies between vectors 2 apart: (0, 2), (1, 3) with tw[0]; (4, 6), (5, 7) with tw[1].
#[inline]
#[target_feature(enable = "avx2")]
fn ct_2_apart(x: &mut [__m256i; 8], tw: [Twiddle; 2]) {
    ct(x, 0, 2, tw[0]);
    ct(x, 1, 3, tw[0]);
    ct(x, 4, 6, tw[1]);
    ct(x, 5, 7, tw[1]);
}

/// Butterflies between neighbouring vectors: (2i, 2i + 1) with tw[i].
#[inline]
#[target_feature(enable = "avx2")]
fn ct_1_apart(x: &mut [__m256i; 8], tw: [Twiddle; 4]) {
    ct(x, 0, 1, tw[0]);
    ct(x, 2, 3, tw[1]);
    ct(x, 4, 5, tw[2]);
    ct(x, 6, 7, tw[3]);
}

/// As [`ct_4_apart`], with Gentleman-Sande butterflies.
#[inline]
#[target_feature(enable = "avx2")]
fn gs_4_apart(x: &mut [__m256i; 8], tw: Twiddle) {
    gs(x, 0, 4, tw);
    gs(x, 1, 5, tw);
    gs(x, 2, 6, tw);
    gs(x, 3, 7, tw);
}

/// As [`ct_2_apart`], with Gentleman-Sande butterflies.
#[inline]
#[target_feature(enable = "avx2")]
fn gs_2_apart(x: &mut [__m256i; 8], tw: [Twiddle; 2]) {
    gs(x, 0, 2, tw[0]);
    gs(x, 1, 3, tw[0]);
    gs(x, 4, 6, tw[1]);
    gs(x, 5, 7, tw[1]);
}

/// As [`ct_1_apart`], with Gentleman-Sande butterflies.
#[inline]
#[target_feature(enable = "avx2")]
fn gs_1_apart(x: &mut [__m256i; 8], tw: [Twiddle; 4]) {
    gs(x, 0, 1, tw[0]);
    gs(x, 2, 3, tw[1]);
    gs(x, 4, 5, tw[2]);
    gs(x, 6, 7, tw[3]);
}

/// Block b (vectors 8b..8b+7, coefficients 64b..64b+63) of a polynomial.
#[inline]
#[target_feature(enable = "avx2")]
fn load_block(p: &[i32; N], b: usize) -> [__m256i; 8] {
    [
        load(p, 8 * b),
        load(p, 8 * b + 1),
        load(p, 8 * b + 2),
        load(p, 8 * b + 3),
        load(p, 8 * b + 4),
        load(p, 8 * b + 5),
        load(p, 8 * b + 6),
        load(p, 8 * b + 7),
    ]
}

/// Writes block b of a polynomial.
#[inline]
#[target_feature(enable = "avx2")]
fn store_block(p: &mut [i32; N], b: usize, x: [__m256i; 8]) {
    store(p, 8 * b, x[0]);
    store(p, 8 * b + 1, x[1]);
    store(p, 8 * b + 2, x[2]);
    store(p, 8 * b + 3, x[3]);
    store(p, 8 * b + 4, x[4]);
    store(p, 8 * b + 5, x[5]);
    store(p, 8 * b + 6, x[6]);
    store(p, 8 * b + 7, x[7]);
}

/// Transposes the 8x8 matrix of i32 whose rows are `r`. With r[k] = coefficients 8k..8k+7 of a
/// block, afterwards r[i] lane k = coefficient 8k + i; a second call undoes it.
#[inline]
#[target_feature(enable = "avx2")]
fn transpose(r: &mut [__m256i; 8]) {
    // Interleave 32-bit lanes of row pairs: per 128-bit half, (r0[0] r1[0] r0[1] r1[1]) etc.
    let t0 = _mm256_unpacklo_epi32(r[0], r[1]);
    let t1 = _mm256_unpackhi_epi32(r[0], r[1]);
    let t2 = _mm256_unpacklo_epi32(r[2], r[3]);
    let t3 = _mm256_unpackhi_epi32(r[2], r[3]);
    let t4 = _mm256_unpacklo_epi32(r[4], r[5]);
    let t5 = _mm256_unpackhi_epi32(r[4], r[5]);
    let t6 = _mm256_unpacklo_epi32(r[6], r[7]);
    let t7 = _mm256_unpackhi_epi32(r[6], r[7]);
    // Interleave 64-bit lanes: per 128-bit half, one column of four rows (columns c and c + 4).
    let s0 = _mm256_unpacklo_epi64(t0, t2);
    let s1 = _mm256_unpackhi_epi64(t0, t2);
    let s2 = _mm256_unpacklo_epi64(t1, t3);
    let s3 = _mm256_unpackhi_epi64(t1, t3);
    let s4 = _mm256_unpacklo_epi64(t4, t6);
    let s5 = _mm256_unpackhi_epi64(t4, t6);
    let s6 = _mm256_unpacklo_epi64(t5, t7);
    let s7 = _mm256_unpackhi_epi64(t5, t7);
    // Join rows 0-3 and 4-7 of each column: low halves give columns 0-3, high halves 4-7.
    r[0] = _mm256_permute2x128_si256::<0x20>(s0, s4);
    r[1] = _mm256_permute2x128_si256::<0x20>(s1, s5);
    r[2] = _mm256_permute2x128_si256::<0x20>(s2, s6);
    r[3] = _mm256_permute2x128_si256::<0x20>(s3, s7);
    r[4] = _mm256_permute2x128_si256::<0x31>(s0, s4);
    r[5] = _mm256_permute2x128_si256::<0x31>(s1, s5);
    r[6] = _mm256_permute2x128_si256::<0x31>(s2, s6);
    r[7] = _mm256_permute2x128_si256::<0x31>(s3, s7);
}

// ---------------------------------------------------------------------------------------------
// Kernels.
// ---------------------------------------------------------------------------------------------

/// FIPS 204, Algorithm 41 (NTT), AVX2.
///
/// Contract: input |c| < q; output congruent mod q, evaluation by evaluation, to
/// [`crate::math::ntt::ntt`], in the same (bit-reversed) order, with |c| < 6q (the portable bound
/// is 9q).
///
/// Bounds: no reduction between layers. A butterfly adds |z b| / 2^32 + q/2 to the bound, and
/// with |z| <= (q-1)/2 and |b| < 9q that is below 0.51 q, so after 8 layers |c| < q + 8 * 0.51 q
/// < 5.1 q; the Montgomery precondition |z b| <= 4.5 q^2 <= 2^31 q holds throughout.
#[target_feature(enable = "avx2")]
pub(crate) fn ntt(w: &Poly, out: &mut NttPoly) {
    tick!(Ntt, 1);
    debug_assert!(
        w.0.iter().all(|c| c.unsigned_abs() < Q as u32),
        "Bounds: NTT input"
    );
    let out = &mut out.0;

    // Layers len = 128 and 64 (16 and 8 vectors apart): the 4 vectors r, r+8, r+16, r+24 form a
    // closed 2-layer sub-transform, so each group is loaded once for both layers.
    let (z1, z2, z3) = (broadcast(1), broadcast(2), broadcast(3));
    for r in 0..VECS / 4 {
        let mut x = [
            load(&w.0, r),
            load(&w.0, r + 8),
            load(&w.0, r + 16),
            load(&w.0, r + 24),
        ];
        ct(&mut x, 0, 2, z1);
        ct(&mut x, 1, 3, z1);
        ct(&mut x, 0, 1, z2);
        ct(&mut x, 2, 3, z3);
        for (k, v) in x.into_iter().enumerate() {
            store(out, r + 8 * k, v);
        }
    }

    // Layers len = 32 .. 1 stay inside a 64-coefficient block of 8 vectors.
    for (b, t) in FWD_LANES.iter().enumerate() {
        let mut x = load_block(out, b);
        // len 32, 16, 8 (4, 2, 1 vectors apart): m = 4 + b, 8 + 2b + h, 16 + 4b + g.
        ct_4_apart(&mut x, broadcast(4 + b));
        ct_2_apart(&mut x, [broadcast(8 + 2 * b), broadcast(9 + 2 * b)]);
        ct_1_apart(&mut x, core::array::from_fn(|g| broadcast(16 + 4 * b + g)));
        // len 4, 2, 1: inside 8-coefficient groups, so transpose (lane k = group 8b + k) and
        // the same patterns apply with per-lane twiddles.
        transpose(&mut x);
        ct_4_apart(&mut x, lanes(&t[0]));
        ct_2_apart(&mut x, [lanes(&t[1]), lanes(&t[2])]);
        ct_1_apart(&mut x, core::array::from_fn(|s| lanes(&t[3 + s])));
        transpose(&mut x);
        store_block(out, b, x);
    }
}

/// FIPS 204, Algorithm 42 (NTT^-1), times 2^32, AVX2.
///
/// Contract: input |c| < q in the portable (bit-reversed) order; output congruent mod q,
/// coefficient by coefficient, to [`crate::math::ntt::ntt_inverse`] (FIPS 204's NTT^-1 times 2^32,
/// so that it undoes [`multiply_ntt`]'s 2^-32), with |c| < q (in fact < 0.75 q).
///
/// Bounds: no reduction between layers. After layer L the sums are below 2^L (q-1) and the
/// Montgomery products below q, so the last layer's sum is at most 256 (q-1) < 2^31; the
/// Montgomery precondition |d z| <= 256 q * q/2 <= 2^31 q holds. The final scaling by
/// 2^64/256 is folded into the last layer (twiddles INV_NTT_SCALE and
/// SCALED_ZETA_1, both centred), whose outputs are below 128 q^2 / 2^32 + q/2 < 0.75 q.
#[target_feature(enable = "avx2")]
pub(crate) fn ntt_inverse(w_hat: &NttPoly, out: &mut Poly) {
    tick!(NttInverse, 1);
    debug_assert!(
        w_hat.0.iter().all(|c| c.unsigned_abs() < Q as u32),
        "Bounds: NTT^-1 input"
    );
    let out = &mut out.0;

    // Layers len = 1 .. 32 stay inside a 64-coefficient block of 8 vectors.
    for (b, t) in INV_LANES.iter().enumerate() {
        let mut x = load_block(&w_hat.0, b);
        // len 1, 2, 4: inside 8-coefficient groups, so transpose (lane k = group 8b + k) and
        // pair whole vectors with per-lane twiddles.
        transpose(&mut x);
        gs_1_apart(&mut x, core::array::from_fn(|s| lanes(&t[s])));
        gs_2_apart(&mut x, [lanes(&t[4]), lanes(&t[5])]);
        gs_4_apart(&mut x, lanes(&t[6]));
        transpose(&mut x);
        // len 8, 16, 32 (1, 2, 4 vectors apart): m = 31 - 4b - g, 15 - 2b - h, 7 - b.
        gs_1_apart(&mut x, core::array::from_fn(|g| broadcast(31 - 4 * b - g)));
        gs_2_apart(&mut x, [broadcast(15 - 2 * b), broadcast(14 - 2 * b)]);
        gs_4_apart(&mut x, broadcast(7 - b));
        store_block(out, b, x);
    }

    // Layers len = 64 (m = 3, 2) and 128 (m = 1) on the vectors r, r+8, r+16, r+24, with the
    // final multiplication by 2^64/256 folded into the last layer: the sum a + b is scaled by
    // INV_NTT_SCALE and the difference by SCALED_ZETA_1 = ZETAS[1] * INV_NTT_SCALE * 2^-32.
    let (z3, z2) = (broadcast(3), broadcast(2));
    let scale = broadcast_value(INV_NTT_SCALE);
    let scaled_z1 = broadcast_value(SCALED_ZETA_1);
    for r in 0..VECS / 4 {
        let mut x = [
            load(out, r),
            load(out, r + 8),
            load(out, r + 16),
            load(out, r + 24),
        ];
        gs(&mut x, 0, 1, z3);
        gs(&mut x, 2, 3, z2);
        for i in 0..2 {
            let (a, b) = (x[i], x[i + 2]);
            x[i] = mont_mul(_mm256_add_epi32(a, b), scale);
            x[i + 2] = mont_mul(_mm256_sub_epi32(b, a), scaled_z1);
        }
        for (k, v) in x.into_iter().enumerate() {
            store(out, r + 8 * k, v);
        }
    }
}

/// FIPS 204, Algorithm 45 (MultiplyNTT), times 2^-32, AVX2.
///
/// Contract: |a_i * b_i| <= 2^31 q for every i (NTT outputs, |c| < 9q, qualify); out_i =
/// a_i * b_i * 2^-32 mod q with |out_i| < q, exactly as [`crate::math::ntt::multiply_ntt`].
#[target_feature(enable = "avx2")]
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
        let even = _mm256_mul_epi32(x, y);
        let odd = _mm256_mul_epi32(odd_down(x), odd_down(y));
        store(&mut out.0, i, montgomery_reduce(even, odd));
    }
}

/// One row of a matrix-vector product whose matrix arrives an entry at a time (FIPS 204
/// Algorithms 45 and 44, MultiplyNTT then AddNTT, times 2^-32): the terms' products summed in 64
/// bits and Montgomery-reduced once, when the row is complete, as [`matrix_vector_ntt`] does for
/// a matrix held whole (one reduction per row instead of one per term).
///
/// Layout: for vector i (coefficients 8i..8i+7), the sums of its even lanes' products at
/// 8i..8i+4 and of its odd lanes' at 8i+4..8i+8. The sums of a secret product are secret:
/// whoever holds one wipes it ([`Zeroize`]).
#[repr(C, align(32))]
pub(crate) struct RowSums([i64; N]);

impl RowSums {
    /// No terms yet.
    pub(crate) const ZERO: Self = Self([0; N]);

    /// The row's sums become a o b if `first` (the row's first term), else a o b is added.
    ///
    /// Contract: A-hat entries `a` in [0, q), |b| < 9q, so |a_i b_i| < 9q^2; at most 7 terms
    /// per row before [`RowSums::reduce_into`], so |sum| < 63 q^2 (no overflow in 64 bits).
    #[target_feature(enable = "avx2")]
    pub(crate) fn add_product(&mut self, a: &NttPoly, b: &NttPoly, first: bool) {
        tick!(Pointwise, 1);
        debug_assert!(
            a.0.iter().all(|c| (0..Q).contains(c))
                && b.0.iter().all(|c| c.unsigned_abs() < 9 * Q as u32),
            "Bounds: add_product input"
        );
        for i in 0..VECS {
            let x = load(&a.0, i);
            let y = load(&b.0, i);
            let mut even = _mm256_mul_epi32(x, y);
            let mut odd = _mm256_mul_epi32(odd_down(x), odd_down(y));
            if !first {
                even = _mm256_add_epi64(even, load_sums(&self.0, 2 * i));
                odd = _mm256_add_epi64(odd, load_sums(&self.0, 2 * i + 1));
            }
            store_sums(&mut self.0, 2 * i, even);
            store_sums(&mut self.0, 2 * i + 1, odd);
        }
    }

    /// out = the row's sums * 2^-32 mod q, |out_i| < q.
    ///
    /// Bounds: |sum| < 63 q^2 <= 2^31 q ([`RowSums::add_product`]'s contract), so the reduction
    /// is exact and its result is below 63 q^2 / 2^32 + q/2 < 0.63 q.
    #[target_feature(enable = "avx2")]
    pub(crate) fn reduce_into(&self, out: &mut NttPoly) {
        for i in 0..VECS {
            let even = load_sums(&self.0, 2 * i);
            let odd = load_sums(&self.0, 2 * i + 1);
            store(&mut out.0, i, montgomery_reduce(even, odd));
        }
    }
}

impl Zeroize for RowSums {
    fn zeroize(&mut self) {
        self.0.zeroize();
    }
}

/// Reads the i-th group of four 64-bit sums.
#[inline]
#[target_feature(enable = "avx2")]
fn load_sums(p: &[i64; N], i: usize) -> __m256i {
    let chunk: &[i64; 4] = &p.as_chunks::<4>().0[i];
    // SAFETY: `chunk` is a valid reference to 4 i64 (32 bytes); the load is unaligned.
    unsafe { _mm256_loadu_si256(chunk.as_ptr().cast()) }
}

/// Writes the i-th group of four 64-bit sums.
#[inline]
#[target_feature(enable = "avx2")]
fn store_sums(p: &mut [i64; N], i: usize, v: __m256i) {
    let chunk: &mut [i64; 4] = &mut p.as_chunks_mut::<4>().0[i];
    // SAFETY: `chunk` is a valid, exclusive reference to 4 i64 (32 bytes); the store is
    // unaligned.
    unsafe { _mm256_storeu_si256(chunk.as_mut_ptr().cast(), v) }
}

/// FIPS 204, Algorithm 48 (MatrixVectorNTT), with Algorithms 44 and 46 (AddNTT,
/// AddVectorNTT) fused, times 2^-32, AVX2.
///
/// Contract: out_i = sum_j a_ij o v_j * 2^-32 mod q, for the rows and terms that
/// [`crate::math::ntt::matrix_vector_ntt`] pairs up (zip semantics); A-hat entries in [0, q), |v_j|
/// < 9q, at most 7 terms per row. Output congruent mod q to the portable result, with |c| < q.
///
/// Bounds: each lane's products are summed in 64 bits (even and odd lanes separately) and
/// Montgomery-reduced once; |sum| <= 7 (q-1)(9q-1) < 63 q^2 <= 2^31 q, so the reduction is
/// exact and its result is below 63 q^2 / 2^32 + q/2 < 0.63 q (under the portable 6283009).
#[target_feature(enable = "avx2")]
pub(crate) fn matrix_vector_ntt<Row: AsRef<[NttPoly]>>(
    a_hat: &[Row],
    v: &[NttPoly],
    out: &mut [NttPoly],
) {
    tick!(Pointwise, terms(a_hat, v, out.len()));
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
            let mut even = _mm256_setzero_si256();
            let mut odd = _mm256_setzero_si256();
            for (a_ij, v_j) in row.iter().zip(v.iter()) {
                let x = load(&a_ij.0, i);
                let y = load(&v_j.0, i);
                even = _mm256_add_epi64(even, _mm256_mul_epi32(x, y));
                odd = _mm256_add_epi64(odd, _mm256_mul_epi32(odd_down(x), odd_down(y)));
            }
            store(&mut w_i.0, i, montgomery_reduce(even, odd));
        }
    }
}

#[cfg(test)]
pub(in crate::backend::x86_64) mod tests {
    //! Shared with the AVX-512 kernels' tests (the sibling folder's `ntt.rs`): the LCG, the
    //! congruence check and the adversarial patterns.
    use super::*;
    use proptest::prelude::*;

    /// `true` if the CPU has AVX2; otherwise prints why the calling test does nothing.
    fn have_avx2() -> bool {
        let yes = std::is_x86_feature_detected!("avx2");
        if !yes {
            std::println!("skipped: this CPU has no AVX2");
        }
        yes
    }

    pub(in crate::backend::x86_64) fn modq(x: i32) -> i64 {
        (x as i64).rem_euclid(Q as i64)
    }

    /// Asserts x = y mod q, entry by entry, and |x_i| < bound.
    pub(in crate::backend::x86_64) fn assert_congruent(
        x: &[i32; N],
        y: &[i32; N],
        bound: i32,
        what: &str,
    ) {
        for i in 0..N {
            assert!(
                x[i].unsigned_abs() < bound as u32,
                "{what}: |c[{i}]| = {} out of bound",
                x[i]
            );
            assert_eq!(modq(x[i]), modq(y[i]), "{what}: index {i} differs mod q");
        }
    }

    /// A simple LCG, for reproducible pseudo-random coefficients.
    pub(in crate::backend::x86_64) struct Lcg(pub(in crate::backend::x86_64) u64);

    impl Lcg {
        pub(in crate::backend::x86_64) fn next(&mut self) -> u32 {
            self.0 = self
                .0
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (self.0 >> 32) as u32
        }

        /// 256 coefficients in [lo, hi].
        pub(in crate::backend::x86_64) fn coeffs(&mut self, lo: i32, hi: i32) -> [i32; N] {
            let span = (hi as i64 - lo as i64 + 1) as u64;
            core::array::from_fn(|_| (lo as i64 + (self.next() as u64 % span) as i64) as i32)
        }
    }

    /// Random rounds per kernel: fewer under Miri (M-1, `scripts/miri.sh`), which is there to
    /// check the kernels' memory accesses and would take hours over 200.
    const ROUNDS: usize = if cfg!(miri) { 3 } else { 200 };

    /// Coefficient patterns at and around the bounds +-bound (exclusive), plus zero, and
    /// random signs of the extreme values.
    pub(in crate::backend::x86_64) fn adversarial(bound: i32) -> std::vec::Vec<[i32; N]> {
        let m = bound - 1;
        let mut v = std::vec![
            [0; N],
            [m; N],
            [-m; N],
            core::array::from_fn(|i| if i % 2 == 0 { m } else { -m }),
            core::array::from_fn(|i| if i % 2 == 0 { -m } else { m }),
            core::array::from_fn(|i| if i < N / 2 { m } else { -m }),
            core::array::from_fn(|i| if (i / 8) % 2 == 0 { m } else { -m }),
            core::array::from_fn(|i| if (i / 16) % 2 == 0 { m } else { -m }),
            core::array::from_fn(|i| if (i / 4) % 2 == 0 { -m } else { m }),
            core::array::from_fn(|i| if i == 0 { m } else { 0 }),
            core::array::from_fn(|i| if i == N - 1 { -m } else { 0 }),
        ];
        // Random signs of the extreme values.
        let mut rng = Lcg(99);
        for _ in 0..64 {
            v.push(core::array::from_fn(|_| {
                if rng.next() & 1 == 0 { m } else { -m }
            }));
        }
        v
    }

    fn avx2_ntt(p: &Poly) -> NttPoly {
        let mut out = NttPoly::ZERO;
        // SAFETY: called only after `have_avx2` found AVX2 on this CPU.
        unsafe { ntt(p, &mut out) };
        out
    }

    fn avx2_ntt_inverse(p: &NttPoly) -> Poly {
        let mut out = Poly::ZERO;
        // SAFETY: called only after `have_avx2` found AVX2 on this CPU.
        unsafe { ntt_inverse(p, &mut out) };
        out
    }

    fn avx2_multiply(a: &NttPoly, b: &NttPoly) -> NttPoly {
        let mut out = NttPoly::ZERO;
        // SAFETY: called only after `have_avx2` found AVX2 on this CPU.
        unsafe { multiply_ntt(a, b, &mut out) };
        out
    }

    fn avx2_matrix_vector(a: &[std::vec::Vec<NttPoly>], v: &[NttPoly]) -> std::vec::Vec<NttPoly> {
        let mut out = std::vec![NttPoly::ZERO; a.len()];
        // SAFETY: called only after `have_avx2` found AVX2 on this CPU.
        unsafe { matrix_vector_ntt(a, v, &mut out) };
        out
    }

    fn check_ntt(p: [i32; N]) {
        let p = Poly(p);
        let mut expect = NttPoly::ZERO;
        crate::math::ntt::ntt(&p, &mut expect);
        assert_congruent(&avx2_ntt(&p).0, &expect.0, 6 * Q, "ntt");
    }

    fn check_ntt_inverse(p: [i32; N]) {
        let p = NttPoly(p);
        let mut expect = Poly::ZERO;
        crate::math::ntt::ntt_inverse(&p, &mut expect);
        assert_congruent(&avx2_ntt_inverse(&p).0, &expect.0, Q, "ntt_inverse");
    }

    fn check_multiply(a: [i32; N], b: [i32; N]) {
        let (a, b) = (NttPoly(a), NttPoly(b));
        let mut expect = NttPoly::ZERO;
        crate::math::ntt::multiply_ntt(&a, &b, &mut expect);
        assert_congruent(&avx2_multiply(&a, &b).0, &expect.0, Q, "multiply_ntt");
    }

    fn check_matrix_vector(a: &[std::vec::Vec<NttPoly>], v: &[NttPoly]) {
        let mut expect = std::vec![NttPoly::ZERO; a.len()];
        crate::math::ntt::matrix_vector_ntt(a, v, &mut expect);
        let got = avx2_matrix_vector(a, v);
        for (g, e) in got.iter().zip(expect.iter()) {
            assert_congruent(&g.0, &e.0, Q, "matrix_vector_ntt");
        }
    }

    #[test]
    fn twiddle_tables_match_the_portable_definition() {
        assert_eq!(ZETAS[0], to_mont(1));
        assert_eq!(ZETAS[1], to_mont(pow_mod(ZETA, 128)));
        assert!(ZETAS.iter().all(|z| z.unsigned_abs() <= (Q as u32 - 1) / 2));
        // The folded final constant really is the product of the two it replaces.
        let d = 123_456_789;
        let two_step =
            crate::math::field::mont_mul(INV_NTT_SCALE, crate::math::field::mont_mul(ZETAS[1], d));
        assert_eq!(
            modq(crate::math::field::mont_mul(SCALED_ZETA_1, d)),
            modq(two_step)
        );
    }

    #[test]
    fn ntt_matches_portable_on_random_inputs() {
        if !have_avx2() {
            return;
        }
        let mut rng = Lcg(1);
        for _ in 0..ROUNDS {
            check_ntt(rng.coeffs(-(Q - 1), Q - 1));
        }
    }

    #[test]
    fn ntt_matches_portable_at_the_bounds() {
        if !have_avx2() {
            return;
        }
        for p in adversarial(Q) {
            check_ntt(p);
        }
    }

    #[test]
    fn ntt_inverse_matches_portable_on_random_inputs() {
        if !have_avx2() {
            return;
        }
        let mut rng = Lcg(2);
        for _ in 0..ROUNDS {
            check_ntt_inverse(rng.coeffs(-(Q - 1), Q - 1));
        }
    }

    #[test]
    fn ntt_inverse_matches_portable_at_the_bounds() {
        if !have_avx2() {
            return;
        }
        for p in adversarial(Q) {
            check_ntt_inverse(p);
        }
    }

    #[test]
    fn multiply_ntt_matches_portable_on_random_inputs() {
        if !have_avx2() {
            return;
        }
        let mut rng = Lcg(3);
        for _ in 0..ROUNDS {
            check_multiply(
                rng.coeffs(-(9 * Q - 1), 9 * Q - 1),
                rng.coeffs(-(9 * Q - 1), 9 * Q - 1),
            );
        }
    }

    #[test]
    fn multiply_ntt_matches_portable_at_the_bounds() {
        if !have_avx2() {
            return;
        }
        // |a b| <= 2^31 q admits +-(9q-1) on both sides.
        for a in adversarial(9 * Q) {
            for b in adversarial(9 * Q) {
                check_multiply(a, b);
            }
        }
        // And the extreme the contract allows: |a b| just at 2^31 q.
        let big = [i32::MAX; N];
        let edge = [(((1i64 << 31) * Q as i64) / i32::MAX as i64) as i32; N];
        check_multiply(big, edge);
        check_multiply(edge.map(|c| -c), big);
    }

    #[test]
    fn matrix_vector_matches_portable_on_random_inputs() {
        if !have_avx2() {
            return;
        }
        let mut rng = Lcg(4);
        for (k, l) in [(4, 4), (6, 5), (8, 7), (1, 1), (3, 0)] {
            let a: std::vec::Vec<std::vec::Vec<NttPoly>> = (0..k)
                .map(|_| (0..l).map(|_| NttPoly(rng.coeffs(0, Q - 1))).collect())
                .collect();
            let v: std::vec::Vec<NttPoly> = (0..l)
                .map(|_| NttPoly(rng.coeffs(-(9 * Q - 1), 9 * Q - 1)))
                .collect();
            check_matrix_vector(&a, &v);
        }
    }

    #[test]
    fn matrix_vector_matches_portable_at_the_bounds() {
        if !have_avx2() {
            return;
        }
        // ML-DSA-87's shape; 2 x 2 under Miri (M-1), for time.
        let (k, l) = if cfg!(miri) { (2, 2) } else { (8, 7) };
        for a_entry in [Q - 1, 0] {
            let a = std::vec![std::vec![NttPoly([a_entry; N]); l]; k];
            for v_pattern in adversarial(9 * Q) {
                check_matrix_vector(&a, &std::vec![NttPoly(v_pattern); l]);
            }
        }
        // Mixed signs across the terms of a row.
        let a = std::vec![std::vec![NttPoly([Q - 1; N]); l]; k];
        let v: std::vec::Vec<NttPoly> = (0..l)
            .map(|j| NttPoly([if j % 2 == 0 { 9 * Q - 1 } else { -(9 * Q - 1) }; N]))
            .collect();
        check_matrix_vector(&a, &v);
    }

    #[test]
    fn round_trip_matches_portable() {
        if !have_avx2() {
            return;
        }
        let mut rng = Lcg(5);
        let mut cases: std::vec::Vec<([i32; N], [i32; N])> = (0..ROUNDS.min(50))
            .map(|_| (rng.coeffs(-(Q - 1), Q - 1), rng.coeffs(-(Q - 1), Q - 1)))
            .collect();
        for a in adversarial(Q) {
            cases.push((a, [Q - 1; N]));
            cases.push((a, [-(Q - 1); N]));
        }
        for (a, b) in cases {
            let (a, b) = (Poly(a), Poly(b));
            let prod = avx2_multiply(&avx2_ntt(&a), &avx2_ntt(&b));
            let got = avx2_ntt_inverse(&prod);

            let (mut a_hat, mut b_hat, mut p_prod) = (NttPoly::ZERO, NttPoly::ZERO, NttPoly::ZERO);
            crate::math::ntt::ntt(&a, &mut a_hat);
            crate::math::ntt::ntt(&b, &mut b_hat);
            crate::math::ntt::multiply_ntt(&a_hat, &b_hat, &mut p_prod);
            let mut expect = Poly::ZERO;
            crate::math::ntt::ntt_inverse(&p_prod, &mut expect);
            assert_congruent(&got.0, &expect.0, Q, "round trip");

            // NTT-domain values cross backends: each backend inverts the other's product.
            let mut cross = Poly::ZERO;
            crate::math::ntt::ntt_inverse(&prod, &mut cross);
            assert_congruent(&cross.0, &expect.0, Q, "AVX2 product, portable inverse");
            assert_congruent(
                &avx2_ntt_inverse(&p_prod).0,
                &expect.0,
                Q,
                "portable product, AVX2 inverse",
            );
        }
    }

    // Not under Miri (M-1): 256 cases each would take hours there, and the random-input tests
    // above already run the same kernels under it.
    proptest! {
        #[test]
        #[cfg_attr(miri, ignore)]
        fn ntt_and_inverse_match_portable(
            p in proptest::collection::vec(-(Q - 1)..Q, N),
        ) {
            if have_avx2() {
                let p: [i32; N] = p.try_into().unwrap();
                check_ntt(p);
                check_ntt_inverse(p);
            }
        }

        #[test]
        #[cfg_attr(miri, ignore)]
        fn multiply_matches_portable(
            a in proptest::collection::vec(-(9 * Q - 1)..9 * Q, N),
            b in proptest::collection::vec(-(9 * Q - 1)..9 * Q, N),
        ) {
            if have_avx2() {
                check_multiply(a.try_into().unwrap(), b.try_into().unwrap());
            }
        }
    }
}
