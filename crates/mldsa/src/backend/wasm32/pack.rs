//! BitUnpack of the mask y and the response z (FIPS 204 Algorithm 19 with a = gamma1 - 1,
//! b = gamma1) on simd128, four coefficients per vector: in V8 1.8x the portable code's speed
//! (`pack_tests::bit_unpack_z_timing`, 108 against 199 ns per polynomial; 5.3x with the test
//! profile's overflow checks on, which slow the portable code's u128 shifts).
//!
//! Four Z_BITS-bit fields fill Z_BITS / 2 whole bytes (9 or 10), so every group of four starts
//! on a byte. Field i of a group starts at byte Z_BITS i / 8, bit s_i = Z_BITS i mod 8; a byte
//! shuffle (constant indices) puts its three bytes in lane i, a multiply by 2^(S - s_i) (S the
//! largest s_i) lines all four up, and one shift by S and a mask leave x_i; the coefficient is
//! gamma1 - x_i, as in `encoding::pack::bit_unpack`. Wrapping arithmetic on values below 2^30:
//! the very integers of the portable code.
//!
//! Constant time: y is secret; the shuffle indices and multipliers are constants, and every
//! byte is read the same way whatever its value.

use crate::math::poly::{N, Poly};
use crate::params::Parameters;
use core::arch::wasm32::*;
use zeroize::Zeroize;

/// The byte shuffle of a group of `BITS`-bit fields: lane i gets the three bytes from byte
/// BITS i / 8 (the fourth byte lane is zeroed by an out-of-range index).
const fn spread(bits: usize) -> [u8; 16] {
    let mut t = [0x80u8; 16];
    let mut i = 0;
    while i < 4 {
        let start = bits * i / 8;
        t[4 * i] = start as u8;
        t[4 * i + 1] = start as u8 + 1;
        t[4 * i + 2] = start as u8 + 2;
        i += 1;
    }
    t
}

/// The largest in-byte offset of a group's fields (BITS i mod 8 for i < 4).
const fn max_shift(bits: usize) -> u32 {
    let (mut m, mut i) = (0, 0);
    while i < 4 {
        let s = (bits * i % 8) as u32;
        if s > m {
            m = s;
        }
        i += 1;
    }
    m
}

/// The per-lane multipliers 2^(S - s_i).
const fn align(bits: usize) -> [i32; 4] {
    let mut t = [0i32; 4];
    let mut i = 0;
    while i < 4 {
        t[i] = 1 << (max_shift(bits) - (bits * i % 8) as u32);
        i += 1;
    }
    t
}

/// BitUnpack(v, gamma1 - 1, gamma1) into `w`.
///
/// Contract: as [`crate::encoding::pack::bit_unpack_z`], with the same integers.
#[inline(always)]
pub(super) fn bit_unpack_z<P: Parameters>(v: &[u8], w: &mut Poly) {
    match P::Z_BITS {
        18 => unpack::<18>(v, P::GAMMA1, w),
        20 => unpack::<20>(v, P::GAMMA1, w),
        _ => crate::encoding::pack::bit_unpack_z::<P>(v, w),
    }
}

/// Not inlined: one copy per width, not one per parameter set and call site (about 1 KiB of
/// .wasm gzipped), for one call per polynomial.
#[inline(never)]
fn unpack<const BITS: usize>(v: &[u8], gamma1: i32, w: &mut Poly) {
    let v = &v[..const { N * BITS / 8 }];
    let step = const { BITS / 2 };
    // Groups whose 16-byte load stays inside v; the rest load from a zero-padded copy.
    let direct = const { (N * BITS / 8 - 16) / (BITS / 2) + 1 };
    let t = const { spread(BITS) };
    let spread = u8x16(
        t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7], t[8], t[9], t[10], t[11], t[12], t[13],
        t[14], t[15],
    );
    let m = const { align(BITS) };
    let align = i32x4(m[0], m[1], m[2], m[3]);
    let mask = i32x4_splat((1 << BITS) - 1);
    let b = i32x4_splat(gamma1);
    let group = |bytes: &[u8; 16], out: &mut [i32]| {
        let lo = u64::from_le_bytes(bytes[..8].try_into().unwrap());
        let hi = u64::from_le_bytes(bytes[8..].try_into().unwrap());
        let x = i8x16_swizzle(u64x2(lo, hi), spread);
        let x = v128_and(
            u32x4_shr(i32x4_mul(x, align), const { max_shift(BITS) }),
            mask,
        );
        let c = i32x4_sub(b, x);
        out[0] = i32x4_extract_lane::<0>(c);
        out[1] = i32x4_extract_lane::<1>(c);
        out[2] = i32x4_extract_lane::<2>(c);
        out[3] = i32x4_extract_lane::<3>(c);
    };
    let (head, tail) = w.0.split_at_mut(4 * direct);
    for (k, out) in head.chunks_exact_mut(4).enumerate() {
        group(v[k * step..k * step + 16].try_into().unwrap(), out);
    }
    for (k, out) in (direct..).zip(tail.chunks_exact_mut(4)) {
        let mut pad = [0u8; 16];
        pad[..v.len() - k * step].copy_from_slice(&v[k * step..]);
        group(&pad, out);
        pad.zeroize();
    }
}
