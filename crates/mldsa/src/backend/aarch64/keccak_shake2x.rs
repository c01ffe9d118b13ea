//! Two SHAKE sponges (FIPS 202 section 6.2) in lockstep on one two-way state ([`Keccak2x`]):
//! only what ML-DSA's samplers need, two seeds of the same (public) length shorter than a
//! block absorbed once, then whole rate blocks squeezed; and, for signing's mask lanes
//! (`mask_lanes.rs`), each sponge filled, padded and read on its own between permutations.
//!
//! Constant time: positions and loop bounds depend only on the public lengths. The state is
//! zeroised on drop (in ExpandS and ExpandMask it holds rho' and rho'' and their outputs).

use super::keccak::Keccak2x;
use super::keccak2x::Lanes2;
use zeroize::Zeroize;

/// Two SHAKE sponges with a rate of `RATE` bytes, permuted by the [`Keccak2x`] given at
/// construction. Squeezing starts each block with a permutation, as
/// [`crate::hash::keccak::Sponge::squeeze_block`] does after the padding.
pub(crate) struct Shake2<const RATE: usize> {
    /// Absorbed and padded, not yet permuted for the next block.
    state: Lanes2,
    keccak: Keccak2x,
}

/// SHAKE128 twice over (rate 168 bytes).
pub(crate) type Shake128x2 = Shake2<168>;
/// SHAKE256 twice over (rate 136 bytes).
pub(crate) type Shake256x2 = Shake2<136>;

impl<const RATE: usize> Drop for Shake2<RATE> {
    fn drop(&mut self) {
        self.wipe();
    }
}

impl<const RATE: usize> Shake2<RATE> {
    /// 64-bit lanes per block.
    const LANES: usize = {
        assert!(RATE.is_multiple_of(8) && RATE < 200);
        RATE >> 3
    };

    /// Two sponges that have absorbed `inputs[0]` and `inputs[1]` (shorter than a block, of
    /// the same length) and the SHAKE padding, built in place: the state, which may hold secret
    /// seeds, lives only in the value the caller holds and drops.
    pub(crate) fn new(keccak: Keccak2x, inputs: [&[u8]; 2]) -> Self {
        let len = inputs[0].len();
        assert!(
            len < RATE && inputs[1].len() == len,
            "equal lengths, one block"
        );
        let mut sponge = Self::empty(keccak);
        for (i, m) in inputs.iter().enumerate() {
            sponge.xor_lane(i, 0, m);
            sponge.pad_lane(i, len);
        }
        sponge
    }

    /// Two empty sponges (the all-zero state), for the lane-by-lane methods below to fill.
    pub(crate) fn empty(keccak: Keccak2x) -> Self {
        Self {
            state: [[0; 2]; 25],
            keccak,
        }
    }

    /// Empties sponge `i` (a new sponge), leaving the other as it is.
    #[inline]
    pub(crate) fn clear_lane(&mut self, i: usize) {
        for lane in &mut self.state {
            lane[i] = 0;
        }
    }

    /// XORs `bytes` into sponge `i`'s block from byte `offset` on (a multiple of 8, with
    /// `offset + bytes.len()` at most `RATE`; public lengths).
    #[inline]
    pub(crate) fn xor_lane(&mut self, i: usize, offset: usize, bytes: &[u8]) {
        debug_assert!(offset.is_multiple_of(8) && offset + bytes.len() <= RATE);
        let lanes = &mut self.state[offset >> 3..];
        let mut words = bytes.chunks_exact(8);
        for (lane, w) in lanes.iter_mut().zip(&mut words) {
            lane[i] ^= u64::from_le_bytes(w.try_into().expect("8 bytes"));
        }
        // The last, partial word.
        let rest = words.remainder();
        if !rest.is_empty() {
            let mut last = 0u64;
            for (k, &b) in rest.iter().enumerate() {
                last |= u64::from(b) << (8 * k);
            }
            lanes[bytes.len() >> 3][i] ^= last;
        }
    }

    /// Pads sponge `i`'s block after a message whose last `len` bytes (< `RATE`) are in it:
    /// the suffix 1111 and pad10*1's first bit (0x1F) at byte `len`, and pad10*1's last bit at
    /// the end of the block (FIPS 202 sections 5.1, 6.2).
    #[inline]
    pub(crate) fn pad_lane(&mut self, i: usize, len: usize) {
        self.pad_lane_at_rate(i, len, Self::LANES * 8);
    }

    /// [`Self::pad_lane`] for a sponge of another SHAKE rate, `rate` bytes (a multiple of 8,
    /// at most `RATE`), run in lane `i` of this state: tr = H(pk)'s SHAKE256 beside ExpandA's
    /// SHAKE128 (`sample::expand_a_times_and_tr`). Lanes are independent states; only the
    /// padding and the blocks the caller XORs in and reads depend on the rate.
    #[inline]
    pub(crate) fn pad_lane_at_rate(&mut self, i: usize, len: usize, rate: usize) {
        debug_assert!(rate & 7 == 0 && rate <= RATE && len < rate);
        self.state[len >> 3][i] ^= 0x1Fu64 << (8 * (len & 7));
        self.state[(rate >> 3) - 1][i] ^= 0x80u64 << 56;
    }

    /// Runs the permutation on both states once.
    #[inline]
    pub(crate) fn permute(&mut self) {
        self.keccak.permute(&mut self.state);
    }

    /// The first `out.len()` bytes (at most `RATE`) of sponge `i`'s rate part.
    #[inline]
    pub(crate) fn read_lane(&self, i: usize, out: &mut [u8]) {
        debug_assert!(out.len() <= RATE);
        for (w, lane) in out.chunks_mut(8).zip(&self.state) {
            w.copy_from_slice(&lane[i].to_le_bytes()[..w.len()]);
        }
    }

    /// Zeroes both states (they may hold secret seeds and output).
    pub(crate) fn wipe(&mut self) {
        self.state.zeroize();
    }

    /// Squeezes the next `out[i].len() / RATE` whole blocks of output stream i into `out[i]`.
    ///
    /// The two lengths must be equal multiples of `RATE` (public values; panics otherwise).
    pub(crate) fn squeeze_blocks(&mut self, out: [&mut [u8]; 2]) {
        let [out0, out1] = out;
        assert!(
            out0.len() == out1.len() && out0.len().is_multiple_of(RATE),
            "equal whole blocks"
        );
        let blocks = out0.chunks_exact_mut(RATE).zip(out1.chunks_exact_mut(RATE));
        for (b0, b1) in blocks {
            self.permute();
            self.read_lane(0, b0);
            self.read_lane(1, b1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hash::keccak::{Shake128, Shake256};

    /// Both lanes give the scalar sponge's stream (itself checked against FIPS 202 and
    /// RustCrypto's `sha3`) for inputs of every length below a block, on each permutation.
    #[test]
    fn two_lanes_equal_the_scalar_sponges() {
        let mut builds = vec![Keccak2x::neon()];
        if super::super::keccak::has_sha3() {
            builds.push(Keccak2x::detect());
        }
        let input: Vec<u8> = (0..200u32).map(|i| (i * 37 + 11) as u8).collect();
        for keccak in builds {
            for len in 0..136 {
                let (a, b) = (&input[..len], &input[50..50 + len]);
                let mut two = Shake256x2::new(keccak, [a, b]);
                let (mut o0, mut o1) = ([0u8; 3 * 136], [0u8; 3 * 136]);
                two.squeeze_blocks([&mut o0[..136], &mut o1[..136]]);
                two.squeeze_blocks([&mut o0[136..], &mut o1[136..]]);
                for (m, o) in [(a, &o0), (b, &o1)] {
                    let mut h = Shake256::new();
                    h.absorb(m);
                    h.finalize();
                    let mut expect = [0u8; 3 * 136];
                    h.squeeze(&mut expect);
                    assert_eq!(&expect, o, "SHAKE256, {len} bytes, {keccak:?}");
                }
            }
            for len in [0, 7, 8, 34, 66, 167] {
                let (a, b) = (&input[..len], &input[1..1 + len]);
                let mut two = Shake128x2::new(keccak, [a, b]);
                let (mut o0, mut o1) = ([0u8; 2 * 168], [0u8; 2 * 168]);
                two.squeeze_blocks([&mut o0, &mut o1]);
                for (m, o) in [(a, &o0), (b, &o1)] {
                    let mut h = Shake128::new();
                    h.absorb(m);
                    h.finalize();
                    let mut expect = [0u8; 2 * 168];
                    h.squeeze(&mut expect);
                    assert_eq!(&expect, o, "SHAKE128, {len} bytes, {keccak:?}");
                }
            }
        }
    }
}
