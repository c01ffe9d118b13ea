//! Two SHAKE sponges (FIPS 202 section 6.2) in lockstep on one two-way state ([`Keccak2x`]):
//! only what ML-DSA's samplers need, two seeds of the same (public) length shorter than a
//! block absorbed once, then whole rate blocks squeezed.
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
        self.state.zeroize();
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
        let mut sponge = Self {
            state: [[0; 2]; 25],
            keccak,
        };
        for (i, m) in inputs.iter().enumerate() {
            let mut words = m.chunks_exact(8);
            for (lane, w) in sponge.state.iter_mut().zip(&mut words) {
                lane[i] ^= u64::from_le_bytes(w.try_into().expect("8 bytes"));
            }
            // The last, partial word, then the suffix 1111 and pad10*1's first bit (0x1F),
            // and pad10*1's last bit at the end of the block (FIPS 202 sections 5.1, 6.2).
            let rest = words.remainder();
            let mut last = 0x1Fu64 << (8 * rest.len());
            for (k, &b) in rest.iter().enumerate() {
                last |= u64::from(b) << (8 * k);
            }
            sponge.state[len >> 3][i] ^= last;
            sponge.state[Self::LANES - 1][i] ^= 0x80u64 << 56;
        }
        sponge
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
            self.keccak.permute(&mut self.state);
            let words = b0.chunks_exact_mut(8).zip(b1.chunks_exact_mut(8));
            for ((w0, w1), lane) in words.zip(&self.state) {
                w0.copy_from_slice(&lane[0].to_le_bytes());
                w1.copy_from_slice(&lane[1].to_le_bytes());
            }
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
