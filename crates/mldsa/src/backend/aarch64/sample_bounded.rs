//! RejBoundedPoly's nibble loop (FIPS 204 Algorithm 31, steps 4-17; ExpandS, Algorithm 33) in
//! NEON, sixteen nibbles (eight bytes) at a time.
//!
//! Constant time: the squeezed bytes, their nibbles and the coefficients made from them are
//! secret. What steers a branch, a table index or the count is only the accept mask of each
//! group of sixteen nibbles, which FIPS 204 lets become public (which samples were rejected) and
//! which is declassified as such, as the scalar loop ([`crate::hash::sample::coeff_from_half_byte`]) does one nibble
//! at a time. In the vector steps the values go from the vector registers to memory without
//! passing through a general-purpose register, and no buffer of them is made (so there is none
//! to wipe); the squeezed bytes are the caller's, wiped there.

use crate::hash::sample::rej_bounded_bytes;
use crate::math::poly::N;
use crate::params::Parameters;
use crate::support::declassify::public;
use core::arch::aarch64::*;

/// For each mask m of 8 bits: the byte indices that move the bytes of half `h` of a 16-byte
/// register (0 for bytes 0..8, 1 for bytes 8..16) whose bit is set in m to the front, in order
/// (`TBL` gives 0 for the unused index 0xFF, so the lanes past the count are 0).
const fn compress8(h: usize) -> [[u8; 8]; 256] {
    let mut table = [[0xFF; 8]; 256];
    let mut m = 0;
    while m < 256 {
        let mut at = 0;
        let mut lane = 0;
        while lane < 8 {
            if m >> lane & 1 == 1 {
                table[m][at] = (8 * h + lane) as u8;
                at += 1;
            }
            lane += 1;
        }
        m += 1;
    }
    table
}

/// [`compress8`] for each half.
const COMPRESS_LO: [[u8; 8]; 256] = compress8(0);
const COMPRESS_HI: [[u8; 8]; 256] = compress8(1);

/// A number of accepted lanes of a half, 0 to 8 (an enum, so that the compiler knows the bound
/// and drops the second store's slice check).
#[derive(Clone, Copy)]
#[repr(u8)]
enum Count {
    C0,
    C1,
    C2,
    C3,
    C4,
    C5,
    C6,
    C7,
    C8,
}

/// The number of set bits of each 8-bit mask (a load instead of a population count, which base
/// AArch64 does only in the vector unit).
const COUNT8: [Count; 256] = {
    const ALL: [Count; 9] = {
        use Count::*;
        [C0, C1, C2, C3, C4, C5, C6, C7, C8]
    };
    let mut table = [Count::C0; 256];
    let mut m = 0;
    while m < 256 {
        table[m] = ALL[(m as u32).count_ones() as usize];
        m += 1;
    }
    table
};

/// Bit k of byte lane k within each 8-byte half, to fold a byte mask into two 8-bit numbers.
const LANE_BITS: [u8; 16] = [1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128];

/// RejBoundedPoly's inner loop (FIPS 204 Algorithm 31, steps 4-17) over `buf`: appends the
/// accepted nibbles' values (CoeffFromHalfByte), low nibble first, to `out` from position
/// `ctr`, stopping at N exactly where the portable loop stops; returns the new count.
///
/// Sixteen nibbles (eight bytes, read with exact-length loads) a step: spread into sixteen byte
/// lanes, low nibble then high nibble of each byte, compared with the limit (15 for eta = 2, 9
/// for eta = 4), mapped to eta - (b mod (2 eta + 1)) without a branch or a lookup, and each
/// half's accepted values packed to the front with [`compress8`], widened to 32 bits and
/// stored (a full store may write up to 8 values past the new count, always below N; later ones
/// overwrite them; near N only the values that fit are stored). Bytes after the last whole
/// group go a nibble at a time through the portable loop ([`rej_bounded_bytes`]).
pub(crate) fn rej_eta<P: Parameters>(out: &mut [i32; N], ctr: usize, buf: &[u8]) -> usize {
    // SAFETY: NEON (Advanced SIMD) is part of every AArch64 CPU.
    unsafe { rej_eta_neon::<P>(out, ctr, buf) }
}

/// Stores the first `dst.len()` (at most 8) of the values `lo` (the first four) and `hi` at
/// `dst`, from the vector registers.
#[inline]
#[target_feature(enable = "neon")]
fn put_first(dst: &mut [i32], lo: int32x4_t, hi: int32x4_t) {
    debug_assert!(dst.len() <= 8);
    let (mut v, mut rest) = (lo, dst);
    if rest.len() >= 4 {
        let (head, tail) = rest.split_at_mut(4);
        // SAFETY: `head` is 4 writable i32s; `vst1q_s32` needs only their alignment.
        unsafe { vst1q_s32(head.as_mut_ptr(), v) };
        (v, rest) = (hi, tail);
    }
    if rest.len() >= 2 {
        let (head, tail) = rest.split_at_mut(2);
        // SAFETY: `head` is 2 writable i32s; `vst1_s32` needs only their alignment.
        unsafe { vst1_s32(head.as_mut_ptr(), vget_low_s32(v)) };
        (v, rest) = (vextq_s32::<2>(v, v), tail);
    }
    if let Some(last) = rest.first_mut() {
        // SAFETY: `last` is one writable i32; the lane store needs only its alignment.
        unsafe { vst1q_lane_s32::<0>(last, v) };
    }
}

/// The eight candidate values (bytes) of half `h` of a group, packed to the front by their
/// public 8-bit accept mask `m` with [`compress8`] and widened to i32: the first four, the last
/// four, and how many were accepted.
#[inline]
#[target_feature(enable = "neon")]
fn pack<const H: usize>(values: uint8x16_t, m: usize) -> (int32x4_t, int32x4_t, usize) {
    let table = if H == 0 { &COMPRESS_LO } else { &COMPRESS_HI };
    // SAFETY: `table[m]` (m < 256) is 8 readable bytes; `vld1_u8` needs no alignment.
    let order = unsafe { vld1_u8(table[m & 0xFF].as_ptr()) };
    let packed = vmovl_s8(vreinterpret_s8_u8(vqtbl1_u8(values, order)));
    let (lo, hi) = (vmovl_s16(vget_low_s16(packed)), vmovl_high_s16(packed));
    (lo, hi, COUNT8[m & 0xFF] as usize)
}

/// Stores eight packed values at `out[ctr..ctr + 8]`.
#[inline]
#[target_feature(enable = "neon")]
fn put8(out: &mut [i32; N], ctr: usize, lo: int32x4_t, hi: int32x4_t) {
    let dst: &mut [i32; 8] = (&mut out[ctr..ctr + 8]).try_into().expect("eight lanes");
    // SAFETY: `dst` is 8 writable i32s, 4 from 0 and 4 from 4; `vst1q_s32` needs only their
    // alignment.
    unsafe {
        vst1q_s32(dst.as_mut_ptr(), lo);
        vst1q_s32(dst[4..].as_mut_ptr(), hi);
    }
}

/// The per-group constants: the limit (15 for eta = 2, 9 for eta = 4) and the lane bits.
#[derive(Clone, Copy)]
struct Consts {
    limit: uint8x16_t,
    bits: uint8x16_t,
}

/// Sixteen nibbles (eight bytes): their candidate values eta - (b mod (2 eta + 1)) in byte
/// lanes, in nibble order (byte i's low nibble, then its high nibble), and the accept masks of
/// the two halves (bit k: nibble k of the half is accepted), declassified.
#[inline]
#[target_feature(enable = "neon")]
fn group<P: Parameters>(bytes: &[u8], k: Consts) -> (uint8x16_t, [usize; 2]) {
    let bytes: &[u8; 8] = bytes.try_into().expect("8 bytes");
    // SAFETY: `bytes` is 8 readable bytes, what `vld1_u8` reads; no alignment needed.
    let raw = unsafe { vld1_u8(bytes.as_ptr()) };
    // Lane 2i holds byte i's low nibble, lane 2i + 1 its high nibble.
    let (lo, hi) = (vand_u8(raw, vdup_n_u8(0x0F)), vshr_n_u8::<4>(raw));
    let b = vcombine_u8(vzip1_u8(lo, hi), vzip2_u8(lo, hi));
    let accept = vandq_u8(vcltq_u8(b, k.limit), k.bits);
    let masks = [
        vaddv_u8(vget_low_u8(accept)) as usize,
        vaddv_u8(vget_high_u8(accept)) as usize,
    ];
    // Constant time: which nibbles ExpandS rejects may become public (FIPS 204; the same
    // decision `coeff_from_half_byte` declassifies one nibble at a time).
    let masks = public(masks);
    // eta - (b mod 5) for eta = 2: floor(b / 5) = floor(b * 13 / 64) for 0 <= b < 16 (and
    // b * 13 < 256 fits a byte lane), so b mod 5 = b - 5 floor(b * 13 / 64). For eta = 4, whose
    // accepted nibbles are below 9 = 2 eta + 1, eta - b. Wrapping bytes: as i8 the accepted
    // values are in [-eta, eta].
    let reduced = if P::ETA == 2 {
        let q5 = vshrq_n_u8::<6>(vmulq_u8(b, vdupq_n_u8(13)));
        vmlsq_u8(b, q5, vdupq_n_u8(5))
    } else {
        b
    };
    let values = vsubq_u8(vdupq_n_u8(P::ETA as u8), reduced);
    (values, masks)
}

/// Not inlined into the samplers' lane loops, so that its constants stay in registers (and it
/// shows up on its own in a profile).
#[inline(never)]
#[target_feature(enable = "neon")]
fn rej_eta_neon<P: Parameters>(out: &mut [i32; N], mut ctr: usize, buf: &[u8]) -> usize {
    debug_assert!(ctr <= N);
    let k = Consts {
        limit: vdupq_n_u8(match P::ETA {
            2 => 15,
            4 => 9,
            _ => unreachable!("FIPS 204 uses eta = 2 or 4 only"),
        }),
        // SAFETY: `LANE_BITS` is 16 readable bytes, what `vld1q_u8` reads.
        bits: unsafe { vld1q_u8(LANE_BITS.as_ptr()) },
    };
    let mut groups = buf.chunks_exact(8);
    // Both halves' eight lanes surely fit below N.
    while ctr + 16 <= N {
        let Some(bytes) = groups.next() else { break };
        let (values, [m0, m1]) = group::<P>(bytes, k);
        let (lo, hi, n) = pack::<0>(values, m0);
        put8(out, ctr, lo, hi);
        ctr += n;
        let (lo, hi, n) = pack::<1>(values, m1);
        put8(out, ctr, lo, hi);
        ctr += n;
    }
    // Near N: all eight lanes where they fit, else only the accepted ones that do.
    while ctr < N {
        let Some(bytes) = groups.next() else { break };
        let (values, masks) = group::<P>(bytes, k);
        for (h, m) in masks.into_iter().enumerate() {
            let (lo, hi, n) = if h == 0 {
                pack::<0>(values, m)
            } else {
                pack::<1>(values, m)
            };
            if ctr + 8 <= N {
                put8(out, ctr, lo, hi);
                ctr += n;
            } else {
                let end = (ctr + n).min(N);
                put_first(&mut out[ctr..end], lo, hi);
                ctr = end;
            }
        }
    }
    rej_bounded_bytes::<P>(out, ctr, groups.remainder())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hash::sample::coeff_from_half_byte;
    use crate::math::splitmix::SplitMix64;
    use crate::params::{MlDsa44, MlDsa65};

    /// The loop as FIPS 204 writes it, one nibble at a time.
    fn rej_eta_scalar(eta: i32, out: &mut [i32; N], mut ctr: usize, buf: &[u8]) -> usize {
        'bytes: for &z in buf {
            for nibble in [z & 0x0F, z >> 4] {
                if ctr == N {
                    break 'bytes;
                }
                if let Some(c) = coeff_from_half_byte(eta, nibble) {
                    out[ctr] = c;
                    ctr += 1;
                }
            }
        }
        ctr
    }

    /// Random streams, streams heavy with rejected nibbles (0xF for eta = 2, 9..15 for eta =
    /// 4), every start count near the end, and lengths that stop mid-group.
    fn equals_the_scalar_loop<P: Parameters>() {
        let mut rng = SplitMix64(0x0072_656a_5f65_7461 ^ P::ETA as u64);
        for trial in 0..600 {
            let mut buf = [0u8; 272];
            rng.fill(&mut buf);
            match trial % 3 {
                // Each nibble rejected with probability about 3/4.
                1 => {
                    for b in buf.iter_mut() {
                        let r = rng.next_u64();
                        let reject = |bits: u64, n: u8| {
                            if bits & 3 != 0 {
                                if P::ETA == 2 { 0xF } else { 9 + (n % 7) }
                            } else {
                                n
                            }
                        };
                        *b = reject(r >> 8, *b & 0xF) | reject(r >> 10, *b >> 4) << 4;
                    }
                }
                // Every nibble rejected but for a few.
                2 => {
                    let fill = if P::ETA == 2 { 0xFF } else { 0x9C };
                    for (k, b) in buf.iter_mut().enumerate() {
                        if (k * 7 + trial) % 23 != 0 {
                            *b = fill;
                        }
                    }
                }
                _ => {}
            }
            let len = [272, 136, 8, 15, 7, 1, 0, 271, 16, 24][trial % 10];
            let start = [0, 0, 100, 240, 248, 250, 255, 256, 1][trial % 9];
            let (mut a, mut b) = ([7i32; N], [7i32; N]);
            let got = rej_eta::<P>(&mut a, start, &buf[..len]);
            let expect = rej_eta_scalar(P::ETA, &mut b, start, &buf[..len]);
            assert_eq!(got, expect, "eta {}, trial {trial}", P::ETA);
            assert_eq!(a[..got], b[..expect], "eta {}, trial {trial}", P::ETA);
            assert!(
                a[..start].iter().all(|&c| c == 7),
                "trial {trial}: below the start"
            );
        }
    }

    #[test]
    fn neon_rejection_equals_the_scalar_loop() {
        equals_the_scalar_loop::<MlDsa44>();
        equals_the_scalar_loop::<MlDsa65>();
    }

    /// Every byte value at every position of a group, from every start near the end.
    #[test]
    fn every_byte_value_in_every_lane() {
        for eta_set in 0..2 {
            for v in 0..=255u8 {
                for lane in 0..8 {
                    for start in [0, 247, 250, 255] {
                        let mut buf = [0x37u8; 16];
                        buf[lane] = v;
                        buf[8 + (lane + 3) % 8] = v;
                        let (mut a, mut b) = ([7i32; N], [7i32; N]);
                        let (got, expect) = if eta_set == 0 {
                            (
                                rej_eta::<MlDsa44>(&mut a, start, &buf),
                                rej_eta_scalar(2, &mut b, start, &buf),
                            )
                        } else {
                            (
                                rej_eta::<MlDsa65>(&mut a, start, &buf),
                                rej_eta_scalar(4, &mut b, start, &buf),
                            )
                        };
                        assert_eq!(got, expect, "byte {v:#x}, lane {lane}, start {start}");
                        assert_eq!(a[..got], b[..expect], "byte {v:#x}, lane {lane}");
                        assert!(a[..start].iter().all(|&c| c == 7), "below the start");
                    }
                }
            }
        }
    }
}
