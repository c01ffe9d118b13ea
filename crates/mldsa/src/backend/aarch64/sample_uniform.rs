//! RejNTTPoly's rejection loop (FIPS 204 Algorithm 30, steps 4-12) in NEON, sixteen candidates
//! at a time.
//!
//! Per sixteen candidates (48 bytes): `LD3` de-interleaves bytes 0, 1 and 2 of the candidates
//! into three registers, the top byte loses its bit 7, and four three-register `TBL`s gather
//! candidates 4k..4k + 4 into the 32-bit lanes of register k. A candidate is rejected with
//! probability 1 - q / 2^23 (about 1/1,000), so all sixteen are accepted about 98.4% of the
//! time: the maximum of the sixteen (three `UMAX`, one `UMAXV`) is compared with q and, when it
//! is below, the four registers are stored as they are. Otherwise each register's accepted
//! lanes are packed to the front with [`COMPRESS4`] and stored one after the other.
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

/// For register k of a sixteen-candidate step: the byte indices into the three `LD3` registers
/// (bytes 0 of the candidates at 0..16, bytes 1 at 16..32, bytes 2 at 32..48) that put
/// candidate 4k + j, zero-extended, in 32-bit lane j (`TBL` gives 0 for the index 0xFF).
const GATHER: [[u8; 16]; 4] = {
    let mut table = [[0xFF; 16]; 4];
    let mut k = 0;
    while k < 4 {
        let mut j = 0;
        while j < 4 {
            let mut b = 0;
            while b < 3 {
                table[k][4 * j + b] = (16 * b + 4 * k + j) as u8;
                b += 1;
            }
            j += 1;
        }
        k += 1;
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
/// Sixteen candidates at a time (see the module comment) while sixteen more values surely fit
/// and 48 more bytes are in `buf[..len]`, then four at a time while four more values fit and
/// the 16-byte loads stay in `buf` (which has a few bytes of slack past `len`): 12 bytes spread
/// into four 32-bit lanes, masked to 23 bits, compared with q, and packed. A packed store may
/// write up to 3 values past the new count, always below N; later ones overwrite them. The
/// last candidates, or the last coefficients, go one at a time.
pub(crate) fn rej_uniform(out: &mut [i32; N], ctr: usize, buf: &[u8], len: usize) -> usize {
    // SAFETY: NEON (Advanced SIMD) is part of every AArch64 CPU.
    unsafe { rej_uniform_neon(out, ctr, buf, len) }
}

/// Packs the lanes of `z` (four 23-bit candidates) below q to the front and stores them at
/// `out[ctr..ctr + 4]`; returns how many there are.
#[inline]
#[target_feature(enable = "neon")]
fn pack4(out: &mut [i32; N], ctr: usize, z: uint32x4_t) -> usize {
    let accept = vcltq_u32(z, vdupq_n_u32(Q as u32));
    // SAFETY: `LANE_BITS` is 16 readable bytes, what `vld1q_u32` reads.
    let bits = unsafe { vld1q_u32(LANE_BITS.as_ptr()) };
    let mask = vaddvq_u32(vandq_u32(accept, bits)) as usize & 15;
    // SAFETY: `COMPRESS4[mask]` (mask < 16) is 16 readable bytes.
    let order = unsafe { vld1q_u8(COMPRESS4[mask].as_ptr()) };
    let packed = vqtbl1q_u8(vreinterpretq_u8_u32(z), order);
    let dst: &mut [i32; 4] = (&mut out[ctr..ctr + 4]).try_into().expect("four lanes");
    // SAFETY: `dst` is 4 writable i32s; `vst1q_u8` needs no alignment.
    unsafe { vst1q_u8(dst.as_mut_ptr().cast::<u8>(), packed) };
    COUNT4[mask] as usize
}

/// Not inlined into the samplers' lane loops, so that its constants stay in registers.
#[inline(never)]
#[target_feature(enable = "neon")]
fn rej_uniform_neon(out: &mut [i32; N], mut ctr: usize, buf: &[u8], len: usize) -> usize {
    debug_assert!(len <= buf.len() && ctr <= N);
    let len = len.min(buf.len());
    // SAFETY: 64 bytes, what `vld1q_u8_x4` reads; no alignment needed.
    let gather = unsafe { vld1q_u8_x4(GATHER.as_ptr().cast::<u8>()) };
    let gather = [gather.0, gather.1, gather.2, gather.3];
    let steps = buf[..len].as_chunks::<48>().0;
    let mut rest = steps.iter();
    while ctr + 16 <= N {
        let Some(bytes) = rest.next() else { break };
        // SAFETY: `bytes` is 48 readable bytes, what `vld3q_u8` reads; no alignment needed.
        let uint8x16x3_t(b0, b1, b2) = unsafe { vld3q_u8(bytes.as_ptr()) };
        let table = uint8x16x3_t(b0, b1, vandq_u8(b2, vdupq_n_u8(0x7F)));
        let z = gather.map(|g| vreinterpretq_u32_u8(vqtbl3q_u8(table, g)));
        let top = vmaxq_u32(vmaxq_u32(z[0], z[1]), vmaxq_u32(z[2], z[3]));
        if vmaxvq_u32(top) < Q as u32 {
            let dst: &mut [i32; 16] = (&mut out[ctr..ctr + 16]).try_into().expect("16 lanes");
            let all = uint32x4x4_t(z[0], z[1], z[2], z[3]);
            // SAFETY: `dst` is 16 writable i32s, what `vst1q_u32_x4` writes; no alignment
            // needed.
            unsafe { vst1q_u32_x4(dst.as_mut_ptr().cast::<u32>(), all) };
            ctr += 16;
        } else {
            for z in z {
                ctr += pack4(out, ctr, z);
            }
        }
    }
    let mut pos = 48 * (steps.len() - rest.len());
    // SAFETY: a 16-byte array, what `vld1q_u8` reads.
    let spread = unsafe { vld1q_u8(SPREAD.as_ptr()) };
    while ctr + 4 <= N && pos + 12 <= len && pos + 16 <= buf.len() {
        let bytes: &[u8; 16] = buf[pos..pos + 16].try_into().expect("16 bytes");
        // SAFETY: `bytes` is 16 readable bytes; `vld1q_u8` needs no alignment.
        let raw = unsafe { vld1q_u8(bytes.as_ptr()) };
        let z = vandq_u32(
            vreinterpretq_u32_u8(vqtbl1q_u8(raw, spread)),
            vdupq_n_u32(0x7F_FFFF),
        );
        ctr += pack4(out, ctr, z);
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
