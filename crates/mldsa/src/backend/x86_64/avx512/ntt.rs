//! AVX-512 (F) NTT and inverse NTT, for the AVX2 backend on CPUs that also have AVX-512.
//!
//! Layout and results: those of the AVX2 kernels in [`crate::backend::x86_64::avx2::ntt`] (and so
//! of the portable code): coefficient or evaluation i at index i, NTT values in FIPS 204's
//! bit-reversed order. The arithmetic is the AVX2 kernels' butterfly for butterfly: the same signed
//! Montgomery multiplication with the same twiddles (the AVX2 file's tables, shared), no reduction
//! between layers, the inverse's final scaling folded into its last layer. So [`ntt`] returns
//! exactly what [`crate::backend::x86_64::avx2::ntt::ntt`] (and [`crate::math::ntt::ntt`]) return,
//! and [`ntt_inverse`] exactly what [`crate::backend::x86_64::avx2::ntt::ntt_inverse`] returns; the
//! bounds are theirs.
//!
//! A polynomial is 16 registers of 16 lanes; register i holds indices 16i..16i+15, and the whole
//! polynomial stays in registers (32 zmm) for all 8 layers. Butterflies with len >= 16 pair whole
//! registers, with a broadcast twiddle. For len 8, 4, 2, 1 the partners sit in the same
//! register, so the two registers of each 32-coefficient block are reshuffled before each layer
//! (one two-register shuffle, 2 instructions) so that the partners are in different registers,
//! with a per-lane twiddle vector; a last two-register permutation restores the layout.
//!
//! The reshuffles are tracked as *layouts*: which bit of the coefficient's offset in its
//! 32-coefficient block each bit of its position (bit 4: which register of the pair, bits 3..0:
//! the lane) holds. The layouts, the per-lane twiddle tables and the restoring permutations are
//! all derived at compile time from the shuffles' effect on the bits, and a test checks the
//! shuffles against the layouts on index data.
//!
//! Constant time: straight-line vector code; loop bounds and table indices depend only on
//! positions and lengths, never on coefficient values.
//!
//! Speed (Sapphire Rapids under KVM, `tests::timing`): NTT 131-141 ns against the AVX2 kernel's
//! 226-247 ns, NTT^-1 145-155 ns against 229-250 ns, MultiplyNTT 28-30 ns against 35-37 ns, an
//! 8 x 7 matrix-vector product about 5 % faster. But scalar code right after one of these
//! kernels runs about 7 % slower than right after the AVX2 one (the CPU's frequency licence
//! for 512-bit multiplications), so whole operations gain only where the NTTs dominate.

// Every `unsafe` block here must say why it is sound.
#![deny(clippy::undocumented_unsafe_blocks)]

use crate::backend::x86_64::avx2::ntt::{INV_NTT_SCALE, QINV, SCALED_ZETA_1, ZETAS, times_qinv};
use crate::math::poly::{N, NttPoly, Poly};
use crate::params::Q;
use core::arch::x86_64::{
    __m512i, _mm512_add_epi32, _mm512_add_epi64, _mm512_and_si512, _mm512_load_si512,
    _mm512_loadu_si512, _mm512_mask_blend_epi32, _mm512_mask_shuffle_epi32, _mm512_mul_epi32,
    _mm512_mullo_epi32, _mm512_permutex2var_epi32, _mm512_set1_epi32, _mm512_shuffle_i64x2,
    _mm512_srai_epi32, _mm512_srli_epi64, _mm512_storeu_si512, _mm512_sub_epi32,
    _mm512_unpackhi_epi64, _mm512_unpacklo_epi64,
};

/// Registers (of 16 coefficients) per polynomial.
const VECS: usize = N / 16;

/// Register pairs (32-coefficient blocks) per polynomial.
const PAIRS: usize = VECS / 2;

// ---------------------------------------------------------------------------------------------
// Layouts of a register pair, and the shuffles that change them.
// ---------------------------------------------------------------------------------------------

/// A layout of a 32-coefficient block in a register pair: `layout[j]` is the bit of the
/// coefficient's offset (0..32) that position bit j holds, where a position is
/// 16 * register + lane (bit 4: the register, bits 3..0: the lane).
type Layout = [u8; 5];

/// Coefficient 16 r + l in lane l of register r.
const NATURAL: Layout = [0, 1, 2, 3, 4];

/// After [`swap_halves`]: new register bit = old lane bit 3, new lane bit 3 = old register bit.
const fn after_swap_halves(l: Layout) -> Layout {
    [l[0], l[1], l[2], l[4], l[3]]
}

/// After [`rotate_quarters`]: new register bit = old lane bit 2, new lane bit 3 = old register
/// bit, new lane bit 2 = old lane bit 3.
const fn after_rotate_quarters(l: Layout) -> Layout {
    [l[0], l[1], l[3], l[4], l[2]]
}

/// After [`swap_qwords`]: new register bit = old lane bit 1 and the reverse.
const fn after_swap_qwords(l: Layout) -> Layout {
    [l[0], l[4], l[2], l[3], l[1]]
}

/// After [`swap_dwords`]: new register bit = old lane bit 0 and the reverse.
const fn after_swap_dwords(l: Layout) -> Layout {
    [l[4], l[1], l[2], l[3], l[0]]
}

/// Forward layers len 8, 4, 2, 1 (coefficient bits 3, 2, 1, 0, each then in the register bit):
/// the layouts after the shuffle that precedes each.
const FWD_LAYOUTS: [Layout; 4] = {
    let a = after_swap_halves(NATURAL);
    let b = after_rotate_quarters(a);
    let c = after_swap_qwords(b);
    let d = after_swap_dwords(c);
    [a, b, c, d]
};

/// Inverse layers len 1, 2, 4, 8 (coefficient bits 0, 1, 2, 3): the layouts after the shuffle
/// that precedes each.
const INV_LAYOUTS: [Layout; 4] = {
    let a = after_swap_dwords(NATURAL);
    let b = after_swap_qwords(a);
    let c = after_rotate_quarters(b);
    let d = after_rotate_quarters(c);
    [a, b, c, d]
};

// Each layer's partners differ in exactly the coefficient bit of its len, which must sit in the
// register bit (partners in different registers, same lane).
const _: () = {
    let mut t = 0;
    while t < 4 {
        assert!(FWD_LAYOUTS[t][4] as usize == 3 - t);
        assert!(INV_LAYOUTS[t][4] as usize == t);
        t += 1;
    }
};

/// The offset (0..32) of the coefficient at position `pos` (0..32) under `layout`.
const fn offset_at(layout: &Layout, pos: usize) -> usize {
    let mut c = 0;
    let mut j = 0;
    while j < 5 {
        c |= ((pos >> j) & 1) << layout[j];
        j += 1;
    }
    c
}

/// The index vectors of the two `_mm512_permutex2var_epi32` that take a register pair from
/// `layout` back to [`NATURAL`]: output register r, lane l gets the coefficient with offset
/// 16 r + l, from position `idx[r][l]` (0..16: first register, 16..32: second).
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Restore([[i32; 16]; 2]);

const fn restore_from(layout: Layout) -> Restore {
    let mut idx = [[0i32; 16]; 2];
    let mut pos = 0;
    while pos < 32 {
        let c = offset_at(&layout, pos);
        idx[c / 16][c % 16] = pos as i32;
        pos += 1;
    }
    Restore(idx)
}

static FWD_RESTORE: Restore = restore_from(FWD_LAYOUTS[3]);
static INV_RESTORE: Restore = restore_from(INV_LAYOUTS[3]);

// ---------------------------------------------------------------------------------------------
// Twiddles.
// ---------------------------------------------------------------------------------------------

/// Sixteen twiddles, one per lane, in the forms the vector Montgomery multiplication wants:
/// `z`, `z_odd` (lane 2i holds z[2i+1]) and `zq` = z * q^-1 mod 2^32 (all sixteen lanes, for
/// `vpmulld`).
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct LaneTwiddles {
    z: [i32; 16],
    z_odd: [i32; 16],
    zq: [i32; 16],
}

impl LaneTwiddles {
    const ZERO: Self = Self {
        z: [0; 16],
        z_odd: [0; 16],
        zq: [0; 16],
    };

    /// Lane l gets ZETAS[m[l]].
    const fn new(m: [usize; 16]) -> Self {
        let mut t = Self::ZERO;
        let mut l = 0;
        while l < 16 {
            t.z[l] = ZETAS[m[l]];
            t.zq[l] = times_qinv(ZETAS[m[l]]);
            l += 1;
        }
        let mut l = 0;
        while l < 16 {
            t.z_odd[l] = t.z[l | 1];
            l += 1;
        }
        t
    }
}

/// Per-lane twiddles of the forward layers len 8, 4, 2, 1 (k = 3, 2, 1, 0), per pair p. Lane l
/// of the first register holds the butterfly's top coefficient s = 32 p + offset; the portable
/// loop gives it the twiddle index m = 128 / len + s / (2 len).
static FWD_LANES: [[LaneTwiddles; 4]; PAIRS] = {
    let mut t = [[LaneTwiddles::ZERO; 4]; PAIRS];
    let mut p = 0;
    while p < PAIRS {
        let mut layer = 0;
        while layer < 4 {
            let k = 3 - layer;
            let mut m = [0usize; 16];
            let mut l = 0;
            while l < 16 {
                let s = 32 * p + offset_at(&FWD_LAYOUTS[layer], l);
                m[l] = (128 >> k) + (s >> (k + 1));
                l += 1;
            }
            t[p][layer] = LaneTwiddles::new(m);
            layer += 1;
        }
        p += 1;
    }
    t
};

/// Per-lane twiddles of the inverse layers len 1, 2, 4, 8 (k = 0, 1, 2, 3), per pair p. The
/// portable inverse counts m down from 256: m = 256 / len - 1 - s / (2 len).
static INV_LANES: [[LaneTwiddles; 4]; PAIRS] = {
    let mut t = [[LaneTwiddles::ZERO; 4]; PAIRS];
    let mut p = 0;
    while p < PAIRS {
        let mut k = 0;
        while k < 4 {
            let mut m = [0usize; 16];
            let mut l = 0;
            while l < 16 {
                let s = 32 * p + offset_at(&INV_LAYOUTS[k], l);
                m[l] = (256 >> k) - 1 - (s >> (k + 1));
                l += 1;
            }
            t[p][k] = LaneTwiddles::new(m);
            k += 1;
        }
        p += 1;
    }
    t
};

// ---------------------------------------------------------------------------------------------
// Vector helpers. All are safe: the intrinsics they use need only AVX-512F, which every caller
// has (each is itself an AVX-512F `target_feature` function).
// ---------------------------------------------------------------------------------------------

/// A twiddle vector as [`mont_mul`] consumes it.
#[derive(Clone, Copy)]
struct Twiddle {
    z: __m512i,
    z_odd: __m512i,
    zq: __m512i,
}

/// The broadcast twiddles: entry m < 16 is (ZETAS[m], ZETAS[m] * q^-1 mod 2^32), the twiddles
/// of the register-level layers; entries [`SCALE`] and [`SCALED_Z1`] are the inverse's last-layer
/// constants (INV_NTT_SCALE and SCALED_ZETA_1), in the same form.
///
/// The kernels read this table through `core::hint::black_box`: with the twiddles known at
/// compile time, LLVM rewrites the quotient's `vpmuldq` pair into `vpmuludq` plus two shifts
/// (known-bits reasoning on the splat constants), 4 extra instructions per multiplication.
static BROADCAST: [[i32; 2]; 18] = {
    let mut t = [[0i32; 2]; 18];
    let mut m = 0;
    while m < 16 {
        t[m] = [ZETAS[m], times_qinv(ZETAS[m])];
        m += 1;
    }
    t[SCALE] = [INV_NTT_SCALE, times_qinv(INV_NTT_SCALE)];
    t[SCALED_Z1] = [SCALED_ZETA_1, times_qinv(SCALED_ZETA_1)];
    t
};
const SCALE: usize = 16;
const SCALED_Z1: usize = 17;

/// Entry m of [`BROADCAST`] in every lane.
#[inline]
#[target_feature(enable = "avx2,avx512f")]
fn broadcast(table: &[[i32; 2]; 18], m: usize) -> Twiddle {
    let z = _mm512_set1_epi32(table[m][0]);
    let zq = _mm512_set1_epi32(table[m][1]);
    Twiddle { z, z_odd: z, zq }
}

/// Loads a per-lane twiddle table entry.
#[inline]
#[target_feature(enable = "avx2,avx512f")]
fn lanes(t: &LaneTwiddles) -> Twiddle {
    // SAFETY: each field is an [i32; 16] (64 readable bytes) inside a `repr(C, align(64))`
    // struct whose fields are all 64 bytes long, so every field is 64-byte aligned, as the
    // aligned load requires.
    unsafe {
        Twiddle {
            z: _mm512_load_si512(t.z.as_ptr().cast()),
            z_odd: _mm512_load_si512(t.z_odd.as_ptr().cast()),
            zq: _mm512_load_si512(t.zq.as_ptr().cast()),
        }
    }
}

/// Register i (coefficients 16i..16i+15) of a polynomial.
#[inline]
#[target_feature(enable = "avx2,avx512f")]
fn load(p: &[i32; N], i: usize) -> __m512i {
    let chunk: &[i32; 16] = &p.as_chunks::<16>().0[i];
    // SAFETY: `chunk` is a valid reference to 16 i32 (64 bytes); the load is unaligned.
    unsafe { _mm512_loadu_si512(chunk.as_ptr().cast()) }
}

/// Writes register i (coefficients 16i..16i+15) of a polynomial.
#[inline]
#[target_feature(enable = "avx2,avx512f")]
fn store(p: &mut [i32; N], i: usize, v: __m512i) {
    let chunk: &mut [i32; 16] = &mut p.as_chunks_mut::<16>().0[i];
    // SAFETY: `chunk` is a valid, exclusive reference to 16 i32 (64 bytes); the store is
    // unaligned.
    unsafe { _mm512_storeu_si512(chunk.as_mut_ptr().cast(), v) }
}

/// Montgomery multiplication a * z * 2^-32 mod q, lane by lane: the AVX2 file's `mont_mul` on
/// 16 lanes (same quotient, same arithmetic, so exactly the portable `mont_mul(z, a)`), but
/// with the quotient t made by one `vpmulld` on all sixteen lanes (only its low 32 bits are
/// wanted) where the AVX2 kernel takes two `vpmuldq`: five multiplications, not six. (On the
/// Zen 4 `vpmulld` costs what `vpmuldq` does: NTT 173 -> 169 ns, NTT^-1 186 -> 181 ns. On
/// Intel's AVX-512 cores it is two of `vpmuldq`'s uops, so no fewer there; not yet measured.)
///
/// Bounds: |a * z| <= 2^31 q; result r with |r| <= |a z| / 2^32 + q/2 < q.
#[inline]
#[target_feature(enable = "avx2,avx512f")]
fn mont_mul(a: __m512i, tw: Twiddle) -> __m512i {
    let q = _mm512_set1_epi32(Q);
    // The odd lanes moved down to the even ones, where `_mm512_mul_epi32` reads its operands.
    let a_odd = _mm512_srli_epi64::<32>(a);
    let prod_even = _mm512_mul_epi32(a, tw.z);
    let prod_odd = _mm512_mul_epi32(a_odd, tw.z_odd);
    // t = a * z * q^-1 mod 2^32 in each lane; mul_epi32 reads it (the even lanes, then the
    // odd ones moved down) as signed, as the portable reduction does.
    let t = _mm512_mullo_epi32(a, tw.zq);
    let tq_even = _mm512_mul_epi32(t, q);
    let tq_odd = _mm512_mul_epi32(_mm512_srli_epi64::<32>(t), q);
    // a z - t q = 0 mod 2^32: the low halves are equal, so the high halves' difference is
    // exactly (a z - t q) / 2^32. The even results go down to the even lanes; the odd ones are
    // already in the odd lanes.
    let even = _mm512_srli_epi64::<32>(_mm512_sub_epi32(prod_even, tq_even));
    let odd = _mm512_sub_epi32(prod_odd, tq_odd);
    _mm512_mask_blend_epi32(0xAAAA, even, odd)
}

/// Cooley-Tukey butterfly (Algorithm 41, lines 10-12): (a, b) <- (a + z b, a - z b).
#[inline]
#[target_feature(enable = "avx2,avx512f")]
fn ct(a: &mut __m512i, b: &mut __m512i, tw: Twiddle) {
    let t = mont_mul(*b, tw);
    *b = _mm512_sub_epi32(*a, t);
    *a = _mm512_add_epi32(*a, t);
}

/// Gentleman-Sande butterfly (Algorithm 42, lines 10-12): (a, b) <- (a + b, -z (a - b)),
/// computed as z (b - a), as the AVX2 kernel does.
#[inline]
#[target_feature(enable = "avx2,avx512f")]
fn gs(a: &mut __m512i, b: &mut __m512i, tw: Twiddle) {
    let (x, y) = (*a, *b);
    *a = _mm512_add_epi32(x, y);
    *b = mont_mul(_mm512_sub_epi32(y, x), tw);
}

/// [`ct`] on registers i and j of `r`.
#[inline]
#[target_feature(enable = "avx2,avx512f")]
fn ct_regs(r: &mut [__m512i; VECS], i: usize, j: usize, tw: Twiddle) {
    let (mut a, mut b) = (r[i], r[j]);
    ct(&mut a, &mut b, tw);
    (r[i], r[j]) = (a, b);
}

/// [`gs`] on registers i and j of `r`.
#[inline]
#[target_feature(enable = "avx2,avx512f")]
fn gs_regs(r: &mut [__m512i; VECS], i: usize, j: usize, tw: Twiddle) {
    let (mut a, mut b) = (r[i], r[j]);
    gs(&mut a, &mut b, tw);
    (r[i], r[j]) = (a, b);
}

// The two-register shuffles. Each exchanges the register bit of a position with one lane bit
// (see the `after_*` functions for the exact effect on a layout).

/// 256-bit halves: (a.lo, b.lo), (a.hi, b.hi).
#[inline]
#[target_feature(enable = "avx2,avx512f")]
fn swap_halves(a: __m512i, b: __m512i) -> (__m512i, __m512i) {
    (
        _mm512_shuffle_i64x2::<0b01_00_01_00>(a, b),
        _mm512_shuffle_i64x2::<0b11_10_11_10>(a, b),
    )
}

/// 128-bit quarters: (a.0, a.2, b.0, b.2), (a.1, a.3, b.1, b.3).
#[inline]
#[target_feature(enable = "avx2,avx512f")]
fn rotate_quarters(a: __m512i, b: __m512i) -> (__m512i, __m512i) {
    (
        _mm512_shuffle_i64x2::<0b10_00_10_00>(a, b),
        _mm512_shuffle_i64x2::<0b11_01_11_01>(a, b),
    )
}

/// 64-bit lanes: the even ones of a and b interleaved, then the odd ones.
#[inline]
#[target_feature(enable = "avx2,avx512f")]
fn swap_qwords(a: __m512i, b: __m512i) -> (__m512i, __m512i) {
    (_mm512_unpacklo_epi64(a, b), _mm512_unpackhi_epi64(a, b))
}

/// 32-bit lanes: (a0, b0, a2, b2, ...), (a1, b1, a3, b3, ...).
#[inline]
#[target_feature(enable = "avx2,avx512f")]
fn swap_dwords(a: __m512i, b: __m512i) -> (__m512i, __m512i) {
    (
        // Odd lanes of a replaced by the even lanes of b below them.
        _mm512_mask_shuffle_epi32::<0b10_10_00_00>(a, 0xAAAA, b),
        // Even lanes of b replaced by the odd lanes of a above them.
        _mm512_mask_shuffle_epi32::<0b11_11_01_01>(b, 0x5555, a),
    )
}

/// The permutation of a register pair given by `idx` (see [`Restore`]).
#[inline]
#[target_feature(enable = "avx2,avx512f")]
fn permute(a: __m512i, b: __m512i, idx: &Restore) -> (__m512i, __m512i) {
    // SAFETY: `Restore` is `repr(C, align(64))` and holds two [i32; 16] rows of 64 bytes, so
    // each row is 64 readable, 64-byte aligned bytes, as the aligned load requires.
    let (i0, i1) = unsafe {
        (
            _mm512_load_si512(idx.0[0].as_ptr().cast()),
            _mm512_load_si512(idx.0[1].as_ptr().cast()),
        )
    };
    (
        _mm512_permutex2var_epi32(a, i0, b),
        _mm512_permutex2var_epi32(a, i1, b),
    )
}

/// Runs `$body` once for each listed value of `$i`, written out (a loop here stays rolled, over
/// a stack copy of the registers, with its index arithmetic done at run time). The values are
/// literals, so every register index and table index in the body is a constant.
macro_rules! unroll {
    ($i:ident in [$($v:literal),*] $body:block) => {
        $({
            let $i: usize = $v;
            $body
        })*
    };
}

/// All register indices 0..16.
macro_rules! each_reg {
    ($i:ident $body:block) => {
        unroll!($i in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] $body)
    };
}

/// All pair indices 0..8.
macro_rules! each_pair {
    ($p:ident $body:block) => {
        unroll!($p in [0, 1, 2, 3, 4, 5, 6, 7] $body)
    };
}

// ---------------------------------------------------------------------------------------------
// Kernels.
// ---------------------------------------------------------------------------------------------

/// FIPS 204, Algorithm 41 (NTT), AVX-512.
///
/// Contract: that of [`crate::backend::x86_64::avx2::ntt::ntt`]: input |c| < q; output congruent
/// mod q, evaluation by evaluation, to [`crate::math::ntt::ntt`], in the same (bit-reversed) order,
/// with |c| < 6q. (It is in fact equal to the AVX2 and portable outputs: same butterflies, same
/// arithmetic.)
///
/// Bounds: as the AVX2 kernel's (no reduction between layers; |c| < 5.1 q after 8 layers).
#[target_feature(enable = "avx2,avx512f")]
pub(crate) fn ntt(w: &Poly, out: &mut NttPoly) {
    tick!(Ntt, 1);
    debug_assert!(
        w.0.iter().all(|c| c.unsigned_abs() < Q as u32),
        "Bounds: NTT input"
    );
    let table = core::hint::black_box(&BROADCAST);
    let mut r = [_mm512_set1_epi32(0); VECS];
    each_reg!(i {
        r[i] = load(&w.0, i);
    });

    // Layers len = 128, 64, 32, 16: registers d = 8, 4, 2, 1 apart; the butterfly on register i
    // (coefficients from 16 i) has m = 128 / len + 16 i / (2 len) = 8 / d + i / (2 d).
    unroll!(d in [8, 4, 2, 1] {
        each_reg!(i {
            if i & d == 0 {
                ct_regs(&mut r, i, i + d, broadcast(table, 8 / d + i / (2 * d)));
            }
        });
    });

    // Layers len = 8, 4, 2, 1 inside each 32-coefficient block (register pair).
    each_pair!(p {
        let t = &FWD_LANES[p];
        let (a, b) = swap_halves(r[2 * p], r[2 * p + 1]);
        let (mut a, mut b) = (a, b);
        ct(&mut a, &mut b, lanes(&t[0]));
        (a, b) = rotate_quarters(a, b);
        ct(&mut a, &mut b, lanes(&t[1]));
        (a, b) = swap_qwords(a, b);
        ct(&mut a, &mut b, lanes(&t[2]));
        (a, b) = swap_dwords(a, b);
        ct(&mut a, &mut b, lanes(&t[3]));
        (a, b) = permute(a, b, &FWD_RESTORE);
        store(&mut out.0, 2 * p, a);
        store(&mut out.0, 2 * p + 1, b);
    });
}

/// FIPS 204, Algorithm 42 (NTT^-1), times 2^32, AVX-512.
///
/// Contract: that of [`crate::backend::x86_64::avx2::ntt::ntt_inverse`]: input |c| < q in the
/// portable (bit-reversed) order; output congruent mod q, coefficient by coefficient, to
/// [`crate::math::ntt::ntt_inverse`], with |c| < q (in fact < 0.75 q). (It is in fact equal to the
/// AVX2 kernel's output: same butterflies, same arithmetic, same folded final scaling.)
///
/// Bounds: as the AVX2 kernel's.
#[target_feature(enable = "avx2,avx512f")]
pub(crate) fn ntt_inverse(w_hat: &NttPoly, out: &mut Poly) {
    inverse::<false>(w_hat, out)
}

/// [`ntt_inverse`] with q added to the negative outputs in its last pass (the AVX2 file's
/// `caddq`, without a second pass over the polynomial): the same values in [0, q).
///
/// Contract: `ntt_inverse` then `caddq`, whose output it equals; the same input bounds.
#[target_feature(enable = "avx2,avx512f")]
pub(crate) fn ntt_inverse_nonneg(w_hat: &NttPoly, out: &mut Poly) {
    inverse::<true>(w_hat, out)
}

/// The two: `NONNEG` adds q to the negative outputs.
#[inline]
#[target_feature(enable = "avx2,avx512f")]
fn inverse<const NONNEG: bool>(w_hat: &NttPoly, out: &mut Poly) {
    tick!(NttInverse, 1);
    debug_assert!(
        w_hat.0.iter().all(|c| c.unsigned_abs() < Q as u32),
        "Bounds: NTT^-1 input"
    );
    let table = core::hint::black_box(&BROADCAST);
    let mut r = [_mm512_set1_epi32(0); VECS];

    // Layers len = 1, 2, 4, 8 inside each 32-coefficient block (register pair).
    each_pair!(p {
        let t = &INV_LANES[p];
        let (a, b) = swap_dwords(load(&w_hat.0, 2 * p), load(&w_hat.0, 2 * p + 1));
        let (mut a, mut b) = (a, b);
        gs(&mut a, &mut b, lanes(&t[0]));
        (a, b) = swap_qwords(a, b);
        gs(&mut a, &mut b, lanes(&t[1]));
        (a, b) = rotate_quarters(a, b);
        gs(&mut a, &mut b, lanes(&t[2]));
        (a, b) = rotate_quarters(a, b);
        gs(&mut a, &mut b, lanes(&t[3]));
        (r[2 * p], r[2 * p + 1]) = permute(a, b, &INV_RESTORE);
    });

    // Layers len = 16, 32, 64: registers d = 1, 2, 4 apart; the butterfly on register i has
    // m = 256 / len - 1 - 16 i / (2 len) = 16 / d - 1 - i / (2 d).
    unroll!(d in [1, 2, 4] {
        each_reg!(i {
            if i & d == 0 {
                gs_regs(&mut r, i, i + d, broadcast(table, 16 / d - 1 - i / (2 * d)));
            }
        });
    });

    // Layer len = 128 (m = 1), with the final multiplication by 2^64/256 folded in: the sum is
    // scaled by INV_NTT_SCALE and the difference by SCALED_ZETA_1 (see the AVX2 kernel).
    let scale = broadcast(table, SCALE);
    let scaled_z1 = broadcast(table, SCALED_Z1);
    let q = _mm512_set1_epi32(Q);
    let finish = |x: __m512i| {
        if NONNEG {
            // x + q where x < 0: the sign mask and q.
            _mm512_add_epi32(x, _mm512_and_si512(_mm512_srai_epi32::<31>(x), q))
        } else {
            x
        }
    };
    unroll!(i in [0, 1, 2, 3, 4, 5, 6, 7] {
        let (a, b) = (r[i], r[i + 8]);
        store(&mut out.0, i, finish(mont_mul(_mm512_add_epi32(a, b), scale)));
        store(&mut out.0, i + 8, finish(mont_mul(_mm512_sub_epi32(b, a), scaled_z1)));
    });
}

/// Montgomery reduction of 64-bit values: `even` and `odd` hold them for the even and the odd
/// lanes; returns value * 2^-32 mod q per lane. `qinv` is QINV in every lane (built by the
/// caller from a `black_box`ed value, for the reason given at [`BROADCAST`]).
///
/// Bounds: |value| <= 2^31 q; result r with |r| <= |value| / 2^32 + q/2 < q.
#[inline]
#[target_feature(enable = "avx2,avx512f")]
fn montgomery_reduce(even: __m512i, odd: __m512i, qinv: __m512i) -> __m512i {
    let q = _mm512_set1_epi32(Q);
    let tq_even = _mm512_mul_epi32(_mm512_mul_epi32(even, qinv), q);
    let tq_odd = _mm512_mul_epi32(_mm512_mul_epi32(odd, qinv), q);
    let even = _mm512_srli_epi64::<32>(_mm512_sub_epi32(even, tq_even));
    _mm512_mask_blend_epi32(0xAAAA, even, _mm512_sub_epi32(odd, tq_odd))
}

/// QINV in every lane, from a value the compiler cannot see through (see [`BROADCAST`]).
#[inline]
#[target_feature(enable = "avx2,avx512f")]
fn qinv_vector() -> __m512i {
    _mm512_set1_epi32(core::hint::black_box(QINV))
}

/// FIPS 204, Algorithm 45 (MultiplyNTT), times 2^-32, AVX-512.
///
/// Contract: that of [`crate::backend::x86_64::avx2::ntt::multiply_ntt`]: |a_i * b_i| <= 2^31 q for
/// every i; out_i = a_i * b_i * 2^-32 mod q with |out_i| < q (the same values as the AVX2 and
/// portable kernels).
#[target_feature(enable = "avx2,avx512f")]
pub(crate) fn multiply_ntt(a: &NttPoly, b: &NttPoly, out: &mut NttPoly) {
    tick!(Pointwise, 1);
    debug_assert!(
        a.0.iter()
            .zip(b.0.iter())
            .all(|(&x, &y)| (x as i64 * y as i64).unsigned_abs() <= (1u64 << 31) * Q as u64),
        "Bounds: multiply_ntt input"
    );
    let qinv = qinv_vector();
    for i in 0..VECS {
        let x = load(&a.0, i);
        let y = load(&b.0, i);
        let even = _mm512_mul_epi32(x, y);
        let odd = _mm512_mul_epi32(_mm512_srli_epi64::<32>(x), _mm512_srli_epi64::<32>(y));
        store(&mut out.0, i, montgomery_reduce(even, odd, qinv));
    }
}

/// FIPS 204, Algorithm 48 (MatrixVectorNTT), with Algorithms 44 and 46 (AddNTT,
/// AddVectorNTT) fused, times 2^-32, AVX-512.
///
/// Contract: that of [`crate::backend::x86_64::avx2::ntt::matrix_vector_ntt`] (A-hat entries in [0,
/// q), |v_j| < 9q, at most 7 terms per row; output congruent mod q to the portable result, |c| <
/// q), with the same values as the AVX2 kernel: each lane's products are summed in 64 bits and
/// reduced once.
#[target_feature(enable = "avx2,avx512f")]
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
    let qinv = qinv_vector();
    for (w_i, row) in out.iter_mut().zip(a_hat.iter()) {
        let row = row.as_ref();
        for i in 0..VECS {
            let mut even = _mm512_set1_epi32(0);
            let mut odd = _mm512_set1_epi32(0);
            for (a_ij, v_j) in row.iter().zip(v.iter()) {
                let x = load(&a_ij.0, i);
                let y = load(&v_j.0, i);
                even = _mm512_add_epi64(even, _mm512_mul_epi32(x, y));
                odd = _mm512_add_epi64(
                    odd,
                    _mm512_mul_epi32(_mm512_srli_epi64::<32>(x), _mm512_srli_epi64::<32>(y)),
                );
            }
            store(&mut w_i.0, i, montgomery_reduce(even, odd, qinv));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::x86_64::Avx2;
    use crate::backend::x86_64::avx2::ntt::tests::{Lcg, adversarial, assert_congruent};

    /// `true` if the CPU has AVX2 and AVX-512 F and VL; otherwise prints why the calling test
    /// does nothing.
    fn have_avx512() -> bool {
        let yes = Avx2::detect().map(|a| a.detect_avx512()) == Some(true);
        if !yes {
            std::println!("skipped: this CPU has no AVX-512 (F, VL)");
        }
        yes
    }

    /// Random rounds per kernel: fewer under Miri (which has no AVX-512 anyway).
    const ROUNDS: usize = if cfg!(miri) { 3 } else { 3000 };

    fn ntt512(p: &Poly) -> NttPoly {
        let mut out = NttPoly::ZERO;
        // SAFETY: called only after `have_avx512` found AVX2 and AVX-512F on this CPU.
        unsafe { ntt(p, &mut out) };
        out
    }

    fn ntt512_inverse(p: &NttPoly) -> Poly {
        let mut out = Poly::ZERO;
        // SAFETY: called only after `have_avx512` found AVX2 and AVX-512F on this CPU.
        unsafe { ntt_inverse(p, &mut out) };
        out
    }

    fn avx2_ntt(p: &Poly) -> NttPoly {
        let mut out = NttPoly::ZERO;
        // SAFETY: called only after `have_avx512` found AVX2 on this CPU.
        unsafe { crate::backend::x86_64::avx2::ntt::ntt(p, &mut out) };
        out
    }

    fn avx2_ntt_inverse(p: &NttPoly) -> Poly {
        let mut out = Poly::ZERO;
        // SAFETY: called only after `have_avx512` found AVX2 on this CPU.
        unsafe { crate::backend::x86_64::avx2::ntt::ntt_inverse(p, &mut out) };
        out
    }

    fn check_ntt(p: [i32; N]) {
        let p = Poly(p);
        let mut expect = NttPoly::ZERO;
        crate::math::ntt::ntt(&p, &mut expect);
        let got = ntt512(&p);
        assert_congruent(&got.0, &expect.0, 6 * Q, "ntt");
        assert_eq!(got.0, avx2_ntt(&p).0, "ntt: AVX-512 and AVX2 differ");
    }

    fn check_ntt_inverse(p: [i32; N]) {
        let p = NttPoly(p);
        let mut expect = Poly::ZERO;
        crate::math::ntt::ntt_inverse(&p, &mut expect);
        let got = ntt512_inverse(&p);
        assert_congruent(&got.0, &expect.0, Q, "ntt_inverse");
        assert_eq!(
            got.0,
            avx2_ntt_inverse(&p).0,
            "ntt_inverse: AVX-512 and AVX2 differ"
        );
        let mut nonneg = Poly::ZERO;
        // SAFETY: called only after `have_avx512` found AVX2 and AVX-512F on this CPU.
        unsafe { ntt_inverse_nonneg(&p, &mut nonneg) };
        assert_eq!(
            nonneg.0,
            got.0.map(crate::math::field::caddq),
            "ntt_inverse_nonneg: not ntt_inverse then caddq"
        );
    }

    fn multiply512(a: &NttPoly, b: &NttPoly) -> NttPoly {
        let mut out = NttPoly::ZERO;
        // SAFETY: called only after `have_avx512` found AVX2 and AVX-512F on this CPU.
        unsafe { multiply_ntt(a, b, &mut out) };
        out
    }

    fn check_multiply(a: [i32; N], b: [i32; N]) {
        let (a, b) = (NttPoly(a), NttPoly(b));
        let mut expect = NttPoly::ZERO;
        crate::math::ntt::multiply_ntt(&a, &b, &mut expect);
        let got = multiply512(&a, &b);
        assert_congruent(&got.0, &expect.0, Q, "multiply_ntt");
        let mut avx2 = NttPoly::ZERO;
        // SAFETY: called only after `have_avx512` found AVX2 on this CPU.
        unsafe { crate::backend::x86_64::avx2::ntt::multiply_ntt(&a, &b, &mut avx2) };
        assert_eq!(got.0, avx2.0, "multiply_ntt: AVX-512 and AVX2 differ");
    }

    fn check_matrix_vector(a: &[std::vec::Vec<NttPoly>], v: &[NttPoly]) {
        let mut expect = std::vec![NttPoly::ZERO; a.len()];
        crate::math::ntt::matrix_vector_ntt(a, v, &mut expect);
        let mut got = std::vec![NttPoly::ZERO; a.len()];
        // SAFETY: called only after `have_avx512` found AVX2 and AVX-512F on this CPU.
        unsafe { matrix_vector_ntt(a, v, &mut got) };
        let mut avx2 = std::vec![NttPoly::ZERO; a.len()];
        // SAFETY: called only after `have_avx512` found AVX2 on this CPU.
        unsafe { crate::backend::x86_64::avx2::ntt::matrix_vector_ntt(a, v, &mut avx2) };
        for ((g, e), x) in got.iter().zip(expect.iter()).zip(avx2.iter()) {
            assert_congruent(&g.0, &e.0, Q, "matrix_vector_ntt");
            assert_eq!(g.0, x.0, "matrix_vector_ntt: AVX-512 and AVX2 differ");
        }
    }

    #[test]
    fn multiply_ntt_matches_portable_and_avx2() {
        if !have_avx512() {
            return;
        }
        let mut rng = Lcg(15);
        for _ in 0..ROUNDS {
            check_multiply(
                rng.coeffs(-(9 * Q - 1), 9 * Q - 1),
                rng.coeffs(-(9 * Q - 1), 9 * Q - 1),
            );
        }
        // |a b| <= 2^31 q admits +-(9q-1) on both sides.
        for a in adversarial(9 * Q).into_iter().take(12) {
            for b in adversarial(9 * Q).into_iter().take(12) {
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
    fn matrix_vector_matches_portable_and_avx2() {
        if !have_avx512() {
            return;
        }
        let mut rng = Lcg(16);
        for _ in 0..if cfg!(miri) { 1 } else { 20 } {
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
        // At the bounds: ML-DSA-87's shape, extreme entries, extreme and mixed-sign vectors.
        let (k, l) = (8, 7);
        for a_entry in [Q - 1, 0] {
            let a = std::vec![std::vec![NttPoly([a_entry; N]); l]; k];
            for v_pattern in adversarial(9 * Q).into_iter().take(12) {
                check_matrix_vector(&a, &std::vec![NttPoly(v_pattern); l]);
            }
        }
        let a = std::vec![std::vec![NttPoly([Q - 1; N]); l]; k];
        let v: std::vec::Vec<NttPoly> = (0..l)
            .map(|j| NttPoly([if j % 2 == 0 { 9 * Q - 1 } else { -(9 * Q - 1) }; N]))
            .collect();
        check_matrix_vector(&a, &v);
    }

    /// Runs the shuffles on index data (lane value = its offset) and compares with the layouts
    /// the twiddle tables and restoring permutations were derived from.
    #[test]
    fn shuffles_match_their_layouts() {
        if !have_avx512() {
            return;
        }
        type Step = fn(__m512i, __m512i) -> (__m512i, __m512i);
        fn run(a: [i32; 16], b: [i32; 16], f: Step) -> ([i32; 16], [i32; 16]) {
            let (mut x, mut y) = ([0i32; 16], [0i32; 16]);
            // SAFETY: `have_avx512` found AVX2 and AVX-512F; the pointers are to 16 valid i32
            // each (unaligned loads and stores).
            unsafe {
                let (a, b) = f(
                    _mm512_loadu_si512(a.as_ptr().cast()),
                    _mm512_loadu_si512(b.as_ptr().cast()),
                );
                _mm512_storeu_si512(x.as_mut_ptr().cast(), a);
                _mm512_storeu_si512(y.as_mut_ptr().cast(), b);
            }
            (x, y)
        }
        fn check(a: &[i32; 16], b: &[i32; 16], layout: &Layout) {
            for l in 0..16 {
                assert_eq!(a[l] as usize, offset_at(layout, l), "lane {l}");
                assert_eq!(b[l] as usize, offset_at(layout, 16 + l), "lane {l}");
            }
        }
        // The shuffles, as plain functions; `run` calls them only after `have_avx512` found
        // AVX2 and AVX-512F.
        fn halves(a: __m512i, b: __m512i) -> (__m512i, __m512i) {
            // SAFETY: reached only through `run`, after `have_avx512` returned true.
            unsafe { swap_halves(a, b) }
        }
        fn quarters(a: __m512i, b: __m512i) -> (__m512i, __m512i) {
            // SAFETY: reached only through `run`, after `have_avx512` returned true.
            unsafe { rotate_quarters(a, b) }
        }
        fn qwords(a: __m512i, b: __m512i) -> (__m512i, __m512i) {
            // SAFETY: reached only through `run`, after `have_avx512` returned true.
            unsafe { swap_qwords(a, b) }
        }
        fn dwords(a: __m512i, b: __m512i) -> (__m512i, __m512i) {
            // SAFETY: reached only through `run`, after `have_avx512` returned true.
            unsafe { swap_dwords(a, b) }
        }
        let steps_fwd: [Step; 4] = [halves, quarters, qwords, dwords];
        let steps_inv: [Step; 4] = [dwords, qwords, quarters, quarters];
        for (steps, layouts, restore) in [
            (steps_fwd, FWD_LAYOUTS, &FWD_RESTORE),
            (steps_inv, INV_LAYOUTS, &INV_RESTORE),
        ] {
            let mut a: [i32; 16] = core::array::from_fn(|l| l as i32);
            let mut b: [i32; 16] = core::array::from_fn(|l| 16 + l as i32);
            for (f, layout) in steps.iter().zip(layouts.iter()) {
                (a, b) = run(a, b, *f);
                check(&a, &b, layout);
            }
            let mut x = [0i32; 16];
            let mut y = [0i32; 16];
            // SAFETY: as above (AVX-512F present; 16 valid i32 behind each pointer).
            unsafe {
                let (p, q) = permute(
                    _mm512_loadu_si512(a.as_ptr().cast()),
                    _mm512_loadu_si512(b.as_ptr().cast()),
                    restore,
                );
                _mm512_storeu_si512(x.as_mut_ptr().cast(), p);
                _mm512_storeu_si512(y.as_mut_ptr().cast(), q);
            }
            check(&x, &y, &NATURAL);
        }
    }

    #[test]
    fn ntt_matches_portable_and_avx2_on_random_inputs() {
        if !have_avx512() {
            return;
        }
        let mut rng = Lcg(11);
        for _ in 0..ROUNDS {
            check_ntt(rng.coeffs(-(Q - 1), Q - 1));
        }
    }

    #[test]
    fn ntt_matches_portable_and_avx2_at_the_bounds() {
        if !have_avx512() {
            return;
        }
        for p in adversarial(Q) {
            check_ntt(p);
        }
    }

    #[test]
    fn ntt_inverse_matches_portable_and_avx2_on_random_inputs() {
        if !have_avx512() {
            return;
        }
        let mut rng = Lcg(12);
        for _ in 0..ROUNDS {
            check_ntt_inverse(rng.coeffs(-(Q - 1), Q - 1));
        }
    }

    #[test]
    fn ntt_inverse_matches_portable_and_avx2_at_the_bounds() {
        if !have_avx512() {
            return;
        }
        for p in adversarial(Q) {
            check_ntt_inverse(p);
        }
    }

    #[test]
    fn round_trip_matches_portable() {
        if !have_avx512() {
            return;
        }
        let mut rng = Lcg(13);
        let mut cases: std::vec::Vec<([i32; N], [i32; N])> = (0..ROUNDS.min(500))
            .map(|_| (rng.coeffs(-(Q - 1), Q - 1), rng.coeffs(-(Q - 1), Q - 1)))
            .collect();
        for a in adversarial(Q) {
            cases.push((a, [Q - 1; N]));
            cases.push((a, [-(Q - 1); N]));
        }
        for (a, b) in cases {
            let (a, b) = (Poly(a), Poly(b));
            let (a_hat, b_hat) = (ntt512(&a), ntt512(&b));
            let mut prod = NttPoly::ZERO;
            crate::math::ntt::multiply_ntt(&a_hat, &b_hat, &mut prod);
            let got = ntt512_inverse(&prod);

            let (mut pa, mut pb, mut p_prod) = (NttPoly::ZERO, NttPoly::ZERO, NttPoly::ZERO);
            crate::math::ntt::ntt(&a, &mut pa);
            crate::math::ntt::ntt(&b, &mut pb);
            crate::math::ntt::multiply_ntt(&pa, &pb, &mut p_prod);
            let mut expect = Poly::ZERO;
            crate::math::ntt::ntt_inverse(&p_prod, &mut expect);
            assert_congruent(&got.0, &expect.0, Q, "round trip");
            // And the plain round trip: multiplying by 1 leaves NTT(a) * 2^-32, which the
            // inverse's 2^32 cancels.
            let one = NttPoly([1; N]);
            let mut a_plain = NttPoly::ZERO;
            crate::math::ntt::multiply_ntt(&a_hat, &one, &mut a_plain);
            assert_congruent(&ntt512_inverse(&a_plain).0, &a.0, Q, "NTT^-1(NTT(a)) = a");
        }
    }

    /// ns per call of the AVX2 and AVX-512 kernels (median of many batches), release builds:
    /// `cargo test --release -p mldsa --lib avx512::ntt::tests::timing -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn timing() {
        if !have_avx512() {
            return;
        }
        use std::time::Instant;
        fn median_ns(mut f: impl FnMut()) -> f64 {
            const BATCH: usize = 1000;
            let mut v: std::vec::Vec<f64> = (0..301)
                .map(|_| {
                    let t = Instant::now();
                    for _ in 0..BATCH {
                        f();
                    }
                    t.elapsed().as_nanos() as f64 / BATCH as f64
                })
                .collect();
            v.sort_by(f64::total_cmp);
            v[v.len() / 2]
        }
        let mut rng = Lcg(14);
        let p = Poly(rng.coeffs(-(Q - 1), Q - 1));
        let h = NttPoly(rng.coeffs(-(Q - 1), Q - 1));
        let mut o = NttPoly::ZERO;
        let mut w = Poly::ZERO;
        let ntt2 = median_ns(|| {
            o = avx2_ntt(core::hint::black_box(&p));
            core::hint::black_box(&o);
        });
        let ntt5 = median_ns(|| {
            o = ntt512(core::hint::black_box(&p));
            core::hint::black_box(&o);
        });
        let inv2 = median_ns(|| {
            w = avx2_ntt_inverse(core::hint::black_box(&h));
            core::hint::black_box(&w);
        });
        let inv5 = median_ns(|| {
            w = ntt512_inverse(core::hint::black_box(&h));
            core::hint::black_box(&w);
        });
        let x = NttPoly(rng.coeffs(-(9 * Q - 1), 9 * Q - 1));
        let y = NttPoly(rng.coeffs(-(9 * Q - 1), 9 * Q - 1));
        // SAFETY: `have_avx512` found AVX2 on this CPU.
        let mul2 = median_ns(|| unsafe {
            crate::backend::x86_64::avx2::ntt::multiply_ntt(core::hint::black_box(&x), &y, &mut o);
            core::hint::black_box(&o);
        });
        // SAFETY: `have_avx512` found AVX2 and AVX-512F on this CPU.
        let mul5 = median_ns(|| unsafe {
            multiply_ntt(core::hint::black_box(&x), &y, &mut o);
            core::hint::black_box(&o);
        });
        // ML-DSA-87's A-hat o v: 8 rows of 7 terms.
        let a: std::vec::Vec<std::vec::Vec<NttPoly>> = (0..8)
            .map(|_| (0..7).map(|_| NttPoly(rng.coeffs(0, Q - 1))).collect())
            .collect();
        let v: std::vec::Vec<NttPoly> = (0..7)
            .map(|_| NttPoly(rng.coeffs(-(9 * Q - 1), 9 * Q - 1)))
            .collect();
        let mut mv = std::vec![NttPoly::ZERO; 8];
        // SAFETY: `have_avx512` found AVX2 on this CPU.
        let mat2 = median_ns(|| unsafe {
            crate::backend::x86_64::avx2::ntt::matrix_vector_ntt(
                core::hint::black_box(&a),
                &v,
                &mut mv,
            );
            core::hint::black_box(&mv);
        });
        // SAFETY: `have_avx512` found AVX2 and AVX-512F on this CPU.
        let mat5 = median_ns(|| unsafe {
            matrix_vector_ntt(core::hint::black_box(&a), &v, &mut mv);
            core::hint::black_box(&mv);
        });
        // Scalar code right after an AVX-512 kernel vs right after an AVX2 one: the CPU may
        // lower its clock while 512-bit multiplications are in use (a frequency licence), which
        // slows everything else; this shows by how much.
        let mut after = [0f64; 2];
        for (use512, t_after) in [false, true].into_iter().zip(after.iter_mut()) {
            let mut v: std::vec::Vec<f64> = (0..3000)
                .map(|_| {
                    o = if use512 {
                        ntt512(core::hint::black_box(&p))
                    } else {
                        avx2_ntt(core::hint::black_box(&p))
                    };
                    core::hint::black_box(&o);
                    let t = Instant::now();
                    for _ in 0..5 {
                        crate::math::ntt::ntt(core::hint::black_box(&p), &mut o);
                        core::hint::black_box(&o);
                    }
                    t.elapsed().as_nanos() as f64 / 5.0
                })
                .collect();
            v.sort_by(f64::total_cmp);
            *t_after = v[v.len() / 2];
        }
        std::println!(
            "portable ntt right after an AVX2 call {:.1} ns, after an AVX-512 call {:.1} ns",
            after[0],
            after[1]
        );
        std::println!("ntt:               AVX2 {ntt2:.1} ns, AVX-512 {ntt5:.1} ns");
        std::println!("ntt_inverse:       AVX2 {inv2:.1} ns, AVX-512 {inv5:.1} ns");
        std::println!("multiply_ntt:      AVX2 {mul2:.1} ns, AVX-512 {mul5:.1} ns");
        std::println!("matrix_vector 8x7: AVX2 {mat2:.1} ns, AVX-512 {mat5:.1} ns");
    }
}
