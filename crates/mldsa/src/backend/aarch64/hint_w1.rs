//! UseHint and w1Encode in one pass (FIPS 204 Algorithms 40 and 28: verification's steps 11
//! and 12 up to the hash), w1 never stored: sixteen coefficients brought to bytes at once and
//! hinted in one vector, then each 64 packed from their bytes.
//!
//! UseHint needs only k = ceil(r / gamma2) of each r in [0, q): Decompose's r1 (before its
//! wrap) is floor((r + gamma2 - 1) / 2 gamma2) = floor(k / 2), and its r0 = r - 2 gamma2 r1 is
//! positive exactly when k is odd (k = 2j + 1 puts r in (2j gamma2, (2j + 1) gamma2], so r0 in
//! (0, gamma2]; k = 2j puts r0 in (-gamma2, 0]). The wrap (r1 = m = (q-1) / 2 gamma2, then 0
//! and r0 - 1) happens only at k = 2m, even, where r0 was not positive either: so UseHint is
//! (floor(k / 2) + h (k odd ? 1 : -1)) mod m, for k in [0, 2m].
//!
//! -k in one multiply: `sqdmulh(r, -M)` with M = floor(2^47 / gamma2) is floor(-r M / 2^31)
//! (no saturation: |2 r M| < 2^55), and its high half floor(-r M / 2^47) = -ceil(r M / 2^47).
//! That ceiling is k: r M / 2^47 falls short of r / gamma2 by less than 2^-24 (r < 2^23),
//! which moves no ceiling (a non-integer r / gamma2 lies at least 1 / gamma2 > 2^-24 above its
//! floor). -k in [-2m, 0] is the high half's low byte (byte 2 of the lane), gathered by `tbl`.
//!
//! Then per byte: for m = 16 (gamma2 = (q-1)/32) a table of 64: (-k mod 32) + 32 h indexes
//! it (k = 0 and k = 32 = 2m give the same UseHint, both r1 = 0 mod m with r0 <= 0); for
//! m = 44 (gamma2 = (q-1)/88) floor(k / 2) + 1 + h (k odd ? 1 : -1), in [0, m + 1], indexes a
//! table of (i - 1) mod m. Both tables are UseHint's values, so the bytes are the portable
//! function's; `tests.rs` checks every r in [0, q) with both hints.
//!
//! Constant time: straight-line vector code; the table lookups (`tbl`) take the same time for
//! every index.

use super::pack::pack_six;
use crate::math::field::Q;
use crate::math::poly::Poly;
use crate::math::rounding::use_hint;
use core::arch::aarch64::*;

/// m = (q-1) / 2 gamma2, the number of values of r1.
const fn m_of(gamma2: i32) -> i32 {
    (Q - 1) / (2 * gamma2)
}

/// floor(2^47 / gamma2) (module docs), below 2^31.
const fn mul_of(gamma2: i32) -> i32 {
    let m = (1u64 << 47) / gamma2 as u64;
    assert!(m < 1 << 31);
    m as i32
}

/// m = 16: UseHint at index (-k mod 32) + 32 h, from r = k gamma2 (whose ceil(r / gamma2) is k).
const fn table_by_k<const GAMMA2: i32>() -> [u8; 64] {
    let mut t = [0u8; 64];
    let mut i = 0;
    while i < 64 {
        let k = (32 - (i as i32 & 31)) & 31;
        t[i] = use_hint::<GAMMA2>(i as i32 >> 5, k * GAMMA2) as u8;
        i += 1;
    }
    t
}

/// m = 44: (i - 1) mod m at index i in [0, m + 1] (the rest unused).
const fn table_mod_m<const GAMMA2: i32>() -> [u8; 48] {
    let m = m_of(GAMMA2);
    assert!(m + 2 <= 48);
    let mut t = [0u8; 48];
    let mut i = 0;
    while i < m + 2 {
        t[i as usize] = ((i + m - 1) % m) as u8;
        i += 1;
    }
    t
}

/// For `tbl` over sixteen 32-bit lanes (64 bytes): byte `at` of each lane, in order.
const fn byte_of_each_lane(at: u8) -> [u8; 16] {
    let mut idx = [0u8; 16];
    let mut i = 0;
    while i < 16 {
        idx[i] = 4 * i as u8 + at;
        i += 1;
    }
    idx
}

/// FIPS 204 Algorithm 40, UseHint, then Algorithm 28, w1Encode, as
/// [`crate::math::rounding::use_hint_vec`] followed by `crate::encoding::encode::w1_encode`
/// (module docs): sixteen coefficients of r and of h to bytes in order, by one `tbl` each
/// (-k is byte 2 of a lane, h byte 0), hinted, and each 64 packed.
///
/// Bounds: h in {0, 1}, r in [0, q); `out.len() == r.len() * 32 * W1_BITS`.
#[target_feature(enable = "neon")]
pub(super) fn use_hint_w1_encode<const GAMMA2: i32>(h: &[Poly], r: &[Poly], out: &mut [u8]) {
    tick!(UseHint, r.len());
    tick!(W1Encode, r.len());
    let m = const { m_of(GAMMA2) };
    let bits = if m == 16 { 4 } else { 6 };
    let len = 32 * bits;
    let minus_mul = vdupq_n_s32(-const { mul_of(GAMMA2) });
    let (one, two) = (vdupq_n_s8(1), vdupq_n_s8(2));
    let (lo, hi) = (
        const { byte_of_each_lane(0) },
        const { byte_of_each_lane(2) },
    );
    let by_k = const { table_by_k::<GAMMA2>() };
    let mod_m = const { table_mod_m::<GAMMA2>() };
    // SAFETY: the tables are 16, 64 and 48 readable bytes; `ld1` needs only byte alignment.
    let (lo, hi, by_k, mod_m) = unsafe {
        (
            vld1q_u8(lo.as_ptr()),
            vld1q_u8(hi.as_ptr()),
            vld1q_u8_x4(by_k.as_ptr()),
            vld1q_u8_x3(mod_m.as_ptr()),
        )
    };
    for ((h, r), out) in h.iter().zip(r).zip(out.chunks_exact_mut(len)) {
        let blocks = h.0.as_chunks::<64>().0.iter().zip(r.0.as_chunks::<64>().0);
        for ((h, r), out) in blocks.zip(out.chunks_exact_mut(len / 4)) {
            let mut w = [vdupq_n_u8(0); 4];
            let sixteens = h.as_chunks::<16>().0.iter().zip(r.as_chunks::<16>().0);
            for (w, (h, r)) in w.iter_mut().zip(sixteens) {
                // SAFETY: `h` and `r` are 16 readable i32 (64 bytes); `ld1` needs only the
                // element alignment.
                let (h, r) = unsafe {
                    (
                        vld1q_u8_x4(h.as_ptr().cast::<u8>()),
                        vld1q_s32_x4(r.as_ptr()),
                    )
                };
                let y = uint8x16x4_t(
                    vreinterpretq_u8_s32(vqdmulhq_s32(r.0, minus_mul)),
                    vreinterpretq_u8_s32(vqdmulhq_s32(r.1, minus_mul)),
                    vreinterpretq_u8_s32(vqdmulhq_s32(r.2, minus_mul)),
                    vreinterpretq_u8_s32(vqdmulhq_s32(r.3, minus_mul)),
                );
                let minus_k = vqtbl4q_u8(y, hi);
                let h = vqtbl4q_u8(h, lo);
                *w = if m == 16 {
                    // (-k mod 32) + 32 h.
                    vqtbl4q_u8(by_k, vsliq_n_u8::<5>(minus_k, h))
                } else {
                    // floor(k / 2) + 1 = (2 - (-k)) >> 1, then +1 where k is odd and -1 where
                    // it is even, where h = 1: minus h times -1 (all ones) or 1.
                    let (minus_k, h) = (vreinterpretq_s8_u8(minus_k), vreinterpretq_s8_u8(h));
                    let r1_plus_1 = vhsubq_s8(two, minus_k);
                    let odd = vreinterpretq_s8_u8(vtstq_s8(minus_k, one));
                    let at = vmlsq_s8(r1_plus_1, h, vorrq_s8(odd, one));
                    vqtbl3q_u8(mod_m, vreinterpretq_u8_s8(at))
                };
            }
            // w1Encode of the 64 bytes: the even and odd ones (`uzp`).
            let [w0, w1, w2, w3] = w;
            let (even, odd) = (
                [vuzp1q_u8(w0, w1), vuzp1q_u8(w2, w3)],
                [vuzp2q_u8(w0, w1), vuzp2q_u8(w2, w3)],
            );
            if bits == 6 {
                // Four fields in three bytes: by position in the group of four.
                let a = vuzp1q_u8(even[0], even[1]);
                let c = vuzp2q_u8(even[0], even[1]);
                let b = vuzp1q_u8(odd[0], odd[1]);
                let d = vuzp2q_u8(odd[0], odd[1]);
                pack_six([a, b, c, d], out.try_into().expect("48 bytes"));
            } else {
                // Two fields a byte, the even one low.
                let out: &mut [u8; 32] = out.try_into().expect("32 bytes");
                let bytes = uint8x16x2_t(
                    vsliq_n_u8::<4>(even[0], odd[0]),
                    vsliq_n_u8::<4>(even[1], odd[1]),
                );
                // SAFETY: `out` is 32 writable bytes.
                unsafe { vst1q_u8_x2(out.as_mut_ptr(), bytes) };
            }
        }
    }
}
