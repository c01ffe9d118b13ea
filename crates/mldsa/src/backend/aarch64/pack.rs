//! BitUnpack (FIPS 204 Algorithm 19) of the narrow fields of skDecode (s1, s2: 3 or 4 bits; t0:
//! 13 bits) on NEON, as `crate::encoding::pack::bit_unpack`: eight coefficients (BITS bytes) at
//! a time, each lane gathering the four bytes its field starts in (`tbl`), shifting its field
//! down (`ushl` by a negative count) and masking it; then b - x and the range verdict as the
//! portable code computes them, so the results are the same integers.
//!
//! Constant time: straight-line vector code; the byte offsets and shifts depend only on the
//! field width and the coefficient index, and the verdict is gathered with `umaxv`.

use super::field::{quads_mut, store};
use crate::math::poly::{N, Poly};
use core::arch::aarch64::*;

/// For lanes `first..first + 4` of a group of eight BITS-bit fields: the byte indices of the
/// four bytes each field starts in (little-endian within the lane).
const fn gather<const BITS: usize>(first: usize) -> [u8; 16] {
    let mut idx = [0u8; 16];
    let mut j = 0;
    while j < 4 {
        let at = ((first + j) * BITS / 8) as u8;
        let mut b = 0;
        while b < 4 {
            idx[4 * j + b] = at + b as u8;
            b += 1;
        }
        j += 1;
    }
    idx
}

/// The matching right shifts, as the negative left shifts `ushl` takes.
const fn shifts<const BITS: usize>(first: usize) -> [i32; 4] {
    let mut s = [0i32; 4];
    let mut j = 0;
    while j < 4 {
        s[j] = -((((first + j) * BITS) % 8) as i32);
        j += 1;
    }
    s
}

/// `bit_unpack(v, b, BITS, max, w)` for BITS <= 13: fields of eight lanes fit in the 16 bytes
/// loaded (the last field's four bytes end at byte 7 * BITS / 8 + 3 <= 14).
#[target_feature(enable = "neon")]
fn unpack<const BITS: usize>(v: &[u8], b: i32, max: u32, w: &mut Poly) -> u32 {
    let sh = [const { shifts::<BITS>(0) }, const { shifts::<BITS>(4) }];
    let mask = vdupq_n_u32((1 << BITS) - 1);
    let bv = vdupq_n_s32(b);
    let mut most = vdupq_n_u32(0);
    each_group::<BITS>(v, w, sh, mask, |out, x| {
        most = vmaxq_u32(most, x);
        store(out, vsubq_s32(bv, vreinterpretq_s32_u32(x)));
    });
    // The portable verdict ORs (max - x) >> 31 over every x: for max < 2^31 (its Bounds) that
    // is 1 exactly when the largest x exceeds max, and for max >= 2^31 + 2^13 (u32::MAX, the
    // callers that check nothing) it is 1 either way, as here.
    max.wrapping_sub(vmaxvq_u32(most)) >> 31
}

/// The N fields of `v` (BITS <= 13 bits each, `v` at least N * BITS / 8 bytes), eight at a
/// time: each group's two vectors of four fields ([`field`] with the shifts `sh` and `mask`)
/// go to `put` with the group's two quarters of `w`. The groups whose 16 bytes lie inside v
/// first, then the rest from the last 16 bytes of v with the indices moved up by the
/// difference (public: it depends on the group's index only).
#[inline]
#[target_feature(enable = "neon")]
fn each_group<const BITS: usize>(
    v: &[u8],
    w: &mut Poly,
    sh: [[i32; 4]; 2],
    mask: uint32x4_t,
    mut put: impl FnMut(&mut [i32; 4], uint32x4_t),
) {
    const { assert!(BITS <= 13 && N * BITS / 8 >= 16) };
    let len = const { N * BITS / 8 };
    let v = &v[..len];
    let idx = [const { gather::<BITS>(0) }, const { gather::<BITS>(4) }];
    // SAFETY: the arrays are 16 bytes / four i32, readable; `ld1` needs only element alignment.
    let (idx, sh) = unsafe {
        (
            [vld1q_u8(idx[0].as_ptr()), vld1q_u8(idx[1].as_ptr())],
            [vld1q_s32(sh[0].as_ptr()), vld1q_s32(sh[1].as_ptr())],
        )
    };
    let (quads, _) = quads_mut(&mut w.0).as_chunks_mut::<2>();
    let whole = const { (N * BITS / 8 - 16) / BITS + 1 };
    let (head, tail) = quads.split_at_mut(whole);
    for (k, out) in head.iter_mut().enumerate() {
        let chunk: &[u8; 16] = v[k * BITS..k * BITS + 16].try_into().expect("16 bytes");
        // SAFETY: `chunk` is 16 readable, initialised bytes.
        let bytes = unsafe { vld1q_u8(chunk.as_ptr()) };
        for h in 0..2 {
            put(&mut out[h], field(bytes, idx[h], sh[h], mask));
        }
    }
    let last: &[u8; 16] = v[len - 16..].try_into().expect("16 bytes");
    // SAFETY: `last` is 16 readable, initialised bytes.
    let bytes = unsafe { vld1q_u8(last.as_ptr()) };
    for (k, out) in tail.iter_mut().enumerate() {
        let delta = vdupq_n_u8(((whole + k) * BITS - (len - 16)) as u8);
        for h in 0..2 {
            put(
                &mut out[h],
                field(bytes, vaddq_u8(idx[h], delta), sh[h], mask),
            );
        }
    }
}

/// Four fields: the gathered lanes shifted (down, or up for [`t1_unpack_shifted`]) and masked.
#[inline]
#[target_feature(enable = "neon")]
fn field(bytes: uint8x16_t, idx: uint8x16_t, sh: int32x4_t, mask: uint32x4_t) -> uint32x4_t {
    let x = vreinterpretq_u32_u8(vqtbl1q_u8(bytes, idx));
    vandq_u32(vshlq_u32(x, sh), mask)
}

/// [`crate::encoding::pack::bit_unpack`] for `bits` <= 13 (s1, s2, t0 in skDecode).
#[target_feature(enable = "neon")]
pub(super) fn bit_unpack_narrow(v: &[u8], b: i32, bits: usize, max: u32, w: &mut Poly) -> u32 {
    match bits {
        3 => unpack::<3>(v, b, max, w),
        4 => unpack::<4>(v, b, max, w),
        6 => unpack::<6>(v, b, max, w),
        10 => unpack::<10>(v, b, max, w),
        13 => unpack::<13>(v, b, max, w),
        _ => crate::encoding::pack::bit_unpack(v, b, bits, max, w),
    }
}

/// t1 * 2^d from pkDecode's 10-bit fields (FIPS 204 Algorithm 18, SimpleBitUnpack, and the
/// scaling of Alg. 8 step 10), as `crate::encoding::pack::simple_bit_unpack_shifted(v, 10, d,
/// w)`: the gathers of [`each_group`], but each field shifted up to bit d (`ushl` by d minus its
/// offset, which drops the bits above it) and masked there, so no pass shifts it afterwards.
///
/// Bounds: `v.len() >= 320` (the first 320 bytes are read); out in [0, q).
#[target_feature(enable = "neon")]
pub(super) fn t1_unpack_shifted(v: &[u8], w: &mut Poly) {
    const BITS: usize = 10;
    const D: i32 = crate::params::D as i32;
    // d - offset for `ushl` (the offsets are 0, 2, 4, 6 < d: left shifts).
    let sh = [const { shifts::<BITS>(0) }, const { shifts::<BITS>(4) }].map(|s| s.map(|s| s + D));
    let mask = vdupq_n_u32(((1 << BITS) - 1) << D);
    each_group::<BITS>(v, w, sh, mask, |out, x| {
        store(out, vreinterpretq_s32_u32(x))
    });
}

/// SimpleBitPack of 64 six-bit values (w1Encode for gamma2 = (q-1)/88, FIPS 204 Algorithm
/// 16), given as the four vectors of their positions 4i, 4i + 1, 4i + 2, 4i + 3: three bytes
/// per four values, stored interleaved (`st3`). Bounds: values below 64.
#[inline]
#[target_feature(enable = "neon")]
pub(super) fn pack_six([a, b, c, d]: [uint8x16_t; 4], out: &mut [u8; 48]) {
    let bytes = uint8x16x3_t(
        vsliq_n_u8::<6>(a, b),
        vsliq_n_u8::<4>(vshrq_n_u8::<2>(b), c),
        vsliq_n_u8::<2>(vshrq_n_u8::<4>(c), d),
    );
    // SAFETY: `out` is 48 writable bytes.
    unsafe { vst3q_u8(out.as_mut_ptr(), bytes) };
}

/// BitUnpack(v, gamma1 - 1, gamma1) (y in ExpandMask, z in sigDecode), as
/// `crate::encoding::pack::bit_unpack_z`: 18- or 20-bit fields four at a time (BITS / 2 bytes;
/// the last field's four bytes end at byte 3 * BITS / 8 + 3 <= 10 of the 16 loaded; a gather
/// index past the 16 bytes gives a zero byte, above the field, masked off).
#[target_feature(enable = "neon")]
fn unpack_wide<const BITS: usize>(v: &[u8], b: i32, w: &mut Poly) {
    const { assert!(BITS == 18 || BITS == 20) };
    let len = const { N * BITS / 8 };
    let step = const { BITS / 2 };
    let v = &v[..len];
    let (idx, sh) = (const { gather::<BITS>(0) }, const { shifts::<BITS>(0) });
    // SAFETY: the arrays are 16 bytes / four i32, readable; `ld1` needs only element alignment.
    let (idx, sh) = unsafe { (vld1q_u8(idx.as_ptr()), vld1q_s32(sh.as_ptr())) };
    let mask = vdupq_n_u32((1 << BITS) - 1);
    let bv = vdupq_n_s32(b);
    let whole = const { (N * BITS / 8 - 16) / (BITS / 2) + 1 };
    let (head, tail) = quads_mut(&mut w.0).split_at_mut(whole);
    for (k, out) in head.iter_mut().enumerate() {
        let chunk: &[u8; 16] = v[k * step..k * step + 16].try_into().expect("16 bytes");
        // SAFETY: `chunk` is 16 readable, initialised bytes.
        let bytes = unsafe { vld1q_u8(chunk.as_ptr()) };
        let x = field(bytes, idx, sh, mask);
        store(out, vsubq_s32(bv, vreinterpretq_s32_u32(x)));
    }
    let last: &[u8; 16] = v[len - 16..].try_into().expect("16 bytes");
    // SAFETY: `last` is 16 readable, initialised bytes.
    let bytes = unsafe { vld1q_u8(last.as_ptr()) };
    for (k, out) in tail.iter_mut().enumerate() {
        let delta = vdupq_n_u8(((whole + k) * step - (len - 16)) as u8);
        let x = field(bytes, vaddq_u8(idx, delta), sh, mask);
        store(out, vsubq_s32(bv, vreinterpretq_s32_u32(x)));
    }
}

/// [`crate::encoding::pack::bit_unpack_z`] for the three parameter sets' widths.
#[target_feature(enable = "neon")]
pub(super) fn bit_unpack_z<P: crate::params::Parameters>(v: &[u8], w: &mut Poly) {
    match P::Z_BITS {
        18 => unpack_wide::<18>(v, P::GAMMA1, w),
        20 => unpack_wide::<20>(v, P::GAMMA1, w),
        _ => crate::encoding::pack::bit_unpack_z::<P>(v, w),
    }
}

/// Sixteen values in [0, 256) (four quads) as bytes, in order.
#[inline]
#[target_feature(enable = "neon")]
fn narrow(q: [int32x4_t; 4]) -> uint8x16_t {
    let [a, b, c, d] = q;
    let (a, b) = (vreinterpretq_u32_s32(a), vreinterpretq_u32_s32(b));
    let (c, d) = (vreinterpretq_u32_s32(c), vreinterpretq_u32_s32(d));
    let lo = vmovn_high_u32(vmovn_u32(a), b);
    let hi = vmovn_high_u32(vmovn_u32(c), d);
    vmovn_high_u16(vmovn_u16(lo), hi)
}

/// FIPS 204 Algorithm 28, w1Encode, as `crate::encoding::encode::w1_encode`: 64 coefficients
/// at a time, split by position in their group of four (`ld4`), narrowed to bytes, and packed:
/// 6 bits (ML-DSA-44: four fields, three bytes, `st3`) or 4 bits (two fields a byte, `st2`).
///
/// Bounds: w1 in [0, 2^W1_BITS); `out.len() == K * 32 * W1_BITS`.
#[target_feature(enable = "neon")]
pub(super) fn w1_encode<P: crate::params::Parameters>(w1: &[Poly], out: &mut [u8]) {
    let bits = P::W1_BITS;
    if bits != 4 && bits != 6 {
        return crate::encoding::encode::w1_encode::<P>(w1, out);
    }
    let len = 32 * bits;
    for (w, out) in w1.iter().zip(out.chunks_exact_mut(len)) {
        for (c, out) in
            w.0.as_chunks::<64>()
                .0
                .iter()
                .zip(out.chunks_exact_mut(len / 4))
        {
            // SAFETY: each 16-value chunk of `c` is 16 readable i32; `ld4` needs i32 alignment.
            let q: [int32x4x4_t; 4] =
                core::array::from_fn(|j| unsafe { vld4q_s32(c.as_chunks::<16>().0[j].as_ptr()) });
            let a = narrow(q.map(|x| x.0));
            let b = narrow(q.map(|x| x.1));
            let c = narrow(q.map(|x| x.2));
            let d = narrow(q.map(|x| x.3));
            if bits == 6 {
                pack_six([a, b, c, d], out.try_into().expect("48 bytes"));
            } else {
                let out: &mut [u8; 32] = out.try_into().expect("32 bytes");
                let bytes = uint8x16x2_t(vsliq_n_u8::<4>(a, b), vsliq_n_u8::<4>(c, d));
                // SAFETY: `out` is 32 writable bytes.
                unsafe { vst2q_u8(out.as_mut_ptr(), bytes) };
            }
        }
    }
}
