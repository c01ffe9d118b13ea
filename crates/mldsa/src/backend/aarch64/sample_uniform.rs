//! RejNTTPoly's rejection loop (FIPS 204 Algorithm 30, steps 4-12) in NEON, four candidates
//! at a time.
//!
//! Constant time: ExpandA's streams are public (derived from rho), so the branches, the table
//! index and the count may depend on them.

use crate::hash::sample::coeff_from_three_bytes;
use crate::math::poly::N;
use crate::params::Q;
use core::arch::aarch64::*;

/// For each mask m of 4 bits: the byte indices that move the 32-bit lanes whose bit is set in
/// m to the front, in order (`TBL` gives 0 for the unused index 0xFF).
const COMPRESS4: [[u8; 16]; 16] = {
    let mut table = [[0xFF; 16]; 16];
    let mut m = 0;
    while m < 16 {
        let mut at = 0;
        let mut lane = 0;
        while lane < 4 {
            if m >> lane & 1 == 1 {
                let mut k = 0;
                while k < 4 {
                    table[m][4 * at + k] = (4 * lane + k) as u8;
                    k += 1;
                }
                at += 1;
            }
            lane += 1;
        }
        m += 1;
    }
    table
};

/// Candidate k of a 12-byte group (bytes 3k..3k + 3) zero-extended into 32-bit lane k.
const SPREAD: [u8; 16] = [0, 1, 2, 0xFF, 3, 4, 5, 0xFF, 6, 7, 8, 0xFF, 9, 10, 11, 0xFF];

/// Bit k in lane k, to fold a lane mask into a 4-bit number.
const LANE_BITS: [u32; 4] = [1, 2, 4, 8];

/// The number of accepted lanes of each mask (a load instead of a population count, which
/// base AArch64 does only in the vector unit).
const COUNT4: [u8; 16] = {
    let mut table = [0u8; 16];
    let mut m = 0;
    while m < 16 {
        table[m] = (m as u32).count_ones() as u8;
        m += 1;
    }
    table
};

/// RejNTTPoly's loop over `buf[..len]`: appends the accepted 23-bit candidates
/// (CoeffFromThreeBytes) to `out` from position `ctr`, stopping at N exactly where the
/// portable loop stops; returns the new count.
///
/// Eight, then four candidates at a time while that many more values surely fit and the 16-byte
/// loads stay in `buf` (which has a few bytes of slack past `len`): per four, 12 bytes spread into four 32-bit lanes, masked
/// to 23 bits, compared with q, and the accepted ones packed to the front with [`COMPRESS4`]
/// and stored (the store may write up to 3 values past the new count, always below N; later
/// ones overwrite them). The last candidates, or the last coefficients, go one at a time.
pub(crate) fn rej_uniform(out: &mut [i32; N], ctr: usize, buf: &[u8], len: usize) -> usize {
    // SAFETY: NEON (Advanced SIMD) is part of every AArch64 CPU.
    unsafe { rej_uniform_neon(out, ctr, buf, len) }
}

/// Four candidates from 16 loaded bytes (the first 12 used): the accepted ones packed to the
/// front, and how many there are.
#[inline]
#[target_feature(enable = "neon")]
fn quad(raw: uint8x16_t, spread: uint8x16_t, bits: uint32x4_t) -> (int32x4_t, usize) {
    let z = vandq_u32(
        vreinterpretq_u32_u8(vqtbl1q_u8(raw, spread)),
        vdupq_n_u32(0x7F_FFFF),
    );
    let accept = vcltq_u32(z, vdupq_n_u32(Q as u32));
    let mask = vaddvq_u32(vandq_u32(accept, bits)) as usize & 15;
    // SAFETY: `COMPRESS4[mask]` (mask < 16) is 16 readable bytes.
    let order = unsafe { vld1q_u8(COMPRESS4[mask].as_ptr()) };
    let packed = vreinterpretq_s32_u8(vqtbl1q_u8(vreinterpretq_u8_u32(z), order));
    (packed, COUNT4[mask] as usize)
}

/// Stores four packed values at `out[ctr..ctr + 4]`.
#[inline]
#[target_feature(enable = "neon")]
fn put(out: &mut [i32; N], ctr: usize, packed: int32x4_t) {
    let dst: &mut [i32; 4] = (&mut out[ctr..ctr + 4]).try_into().expect("four lanes");
    // SAFETY: `dst` is 4 writable i32s; `vst1q_s32` needs only their alignment.
    unsafe { vst1q_s32(dst.as_mut_ptr(), packed) };
}

/// Not inlined into the samplers' lane loops, so that its constants stay in registers.
#[inline(never)]
#[target_feature(enable = "neon")]
fn rej_uniform_neon(out: &mut [i32; N], mut ctr: usize, buf: &[u8], len: usize) -> usize {
    debug_assert!(len <= buf.len() && ctr <= N);
    // SAFETY: each is a 16-byte array, what `vld1q` reads.
    let (spread, bits) = unsafe { (vld1q_u8(SPREAD.as_ptr()), vld1q_u32(LANE_BITS.as_ptr())) };
    let mut pos = 0;
    // Eight candidates a step while eight more values surely fit, then four.
    while ctr + 8 <= N && pos + 24 <= len && pos + 28 <= buf.len() {
        let bytes: &[u8; 28] = buf[pos..pos + 28].try_into().expect("28 bytes");
        // SAFETY: `bytes` is 28 readable bytes: 16 from 0 and 16 from 12; no alignment needed.
        let (r0, r1) = unsafe { (vld1q_u8(bytes.as_ptr()), vld1q_u8(bytes[12..].as_ptr())) };
        let (p0, n0) = quad(r0, spread, bits);
        let (p1, n1) = quad(r1, spread, bits);
        put(out, ctr, p0);
        ctr += n0;
        put(out, ctr, p1);
        ctr += n1;
        pos += 24;
    }
    while ctr + 4 <= N && pos + 12 <= len && pos + 16 <= buf.len() {
        let bytes: &[u8; 16] = buf[pos..pos + 16].try_into().expect("16 bytes");
        // SAFETY: `bytes` is 16 readable bytes; `vld1q_u8` needs no alignment.
        let (p, n) = quad(unsafe { vld1q_u8(bytes.as_ptr()) }, spread, bits);
        put(out, ctr, p);
        ctr += n;
        pos += 12;
    }
    while ctr < N && pos + 3 <= len {
        if let Some(c) = coeff_from_three_bytes(buf[pos], buf[pos + 1], buf[pos + 2]) {
            out[ctr] = c;
            ctr += 1;
        }
        pos += 3;
    }
    ctr
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::splitmix::SplitMix64;

    /// The loop as FIPS 204 writes it, one candidate at a time.
    fn rej_uniform_scalar(out: &mut [i32; N], mut ctr: usize, buf: &[u8]) -> usize {
        for b in buf.chunks_exact(3) {
            if ctr == N {
                break;
            }
            if let Some(c) = coeff_from_three_bytes(b[0], b[1], b[2]) {
                out[ctr] = c;
                ctr += 1;
            }
        }
        ctr
    }

    /// Random streams, streams with many rejections (top bits set: about half the candidates
    /// are >= q), every start count near the end, and lengths that stop mid-group.
    #[test]
    fn neon_rejection_equals_the_scalar_loop() {
        let mut rng = SplitMix64(0x0072_656a_5f75_6e69);
        for trial in 0..400 {
            let mut buf = [0u8; 844];
            for b in buf.iter_mut() {
                *b = rng.next_u64() as u8;
            }
            if trial % 2 == 1 {
                for k in (2..buf.len()).step_by(3) {
                    buf[k] |= 0x7F;
                }
            }
            let len = [840, 168, 12, 15, 3, 0, 839][trial % 7];
            let start = [0, 0, 100, 250, 252, 253, 255, 256][trial % 8];
            let (mut a, mut b) = ([7i32; N], [7i32; N]);
            let got = rej_uniform(&mut a, start, &buf, len);
            let expect = rej_uniform_scalar(&mut b, start, &buf[..len]);
            assert_eq!(got, expect, "trial {trial}");
            assert_eq!(a[..got], b[..expect], "trial {trial}");
        }
    }
}
