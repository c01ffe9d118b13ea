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

/// RejNTTPoly's loop over `buf[..len]`: appends the accepted 23-bit candidates
/// (CoeffFromThreeBytes) to `out` from position `ctr`, stopping at N exactly where the
/// portable loop stops; returns the new count.
///
/// Four candidates at a time while four more values surely fit and 16 bytes can be loaded
/// (`buf` has a few bytes of slack past `len`): 12 bytes spread into four 32-bit lanes, masked
/// to 23 bits, compared with q, and the accepted ones packed to the front with [`COMPRESS4`]
/// and stored (the store may write up to 3 values past the new count, always below N; later
/// ones overwrite them). The last candidates, or the last coefficients, go one at a time.
pub(crate) fn rej_uniform(out: &mut [i32; N], ctr: usize, buf: &[u8], len: usize) -> usize {
    // SAFETY: NEON (Advanced SIMD) is part of every AArch64 CPU.
    unsafe { rej_uniform_neon(out, ctr, buf, len) }
}

#[target_feature(enable = "neon")]
fn rej_uniform_neon(out: &mut [i32; N], mut ctr: usize, buf: &[u8], len: usize) -> usize {
    debug_assert!(len <= buf.len() && ctr <= N);
    // SAFETY: each is a 16-byte array, what `vld1q` reads.
    let (spread, bits) = unsafe { (vld1q_u8(SPREAD.as_ptr()), vld1q_u32(LANE_BITS.as_ptr())) };
    let low23 = vdupq_n_u32(0x7F_FFFF);
    let q = vdupq_n_u32(Q as u32);
    let mut pos = 0;
    while ctr + 4 <= N && pos + 12 <= len && pos + 16 <= buf.len() {
        let bytes = &buf[pos..pos + 16];
        // SAFETY: `bytes` is 16 readable bytes; `vld1q_u8` needs no alignment.
        let raw = unsafe { vld1q_u8(bytes.as_ptr()) };
        let z = vandq_u32(vreinterpretq_u32_u8(vqtbl1q_u8(raw, spread)), low23);
        let accept = vcltq_u32(z, q);
        let mask = vaddvq_u32(vandq_u32(accept, bits)) as usize;
        // SAFETY: `COMPRESS4[mask]` (mask < 16) is 16 readable bytes.
        let order = unsafe { vld1q_u8(COMPRESS4[mask & 15].as_ptr()) };
        let packed = vreinterpretq_s32_u8(vqtbl1q_u8(vreinterpretq_u8_u32(z), order));
        let dst = &mut out[ctr..ctr + 4];
        // SAFETY: `dst` is 4 writable i32s; `vst1q_s32` needs only their alignment.
        unsafe { vst1q_s32(dst.as_mut_ptr(), packed) };
        ctr += mask.count_ones() as usize;
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
