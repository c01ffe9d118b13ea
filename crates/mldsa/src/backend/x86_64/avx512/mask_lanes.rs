//! Signing's first masks on the eight-way permutation (AVX-512 F): the lanes' ring
//! ([`MaskLanes`], in [`crate::backend::x86_64::avx2::mask_lanes`]) filled with eight stream
//! polynomials at once.

use crate::backend::x86_64::avx2::mask_lanes::MaskLanes;
use crate::backend::x86_64::avx2::sample::MASK_BLOCKS;
use crate::backend::x86_64::avx512::keccak8x::{Keccak8x, Shake256x8};
use crate::hash::keccak::SHAKE256_RATE as RATE;
use crate::hash::sample::write_seed_66;
use zeroize::Zeroize;

impl MaskLanes {
    /// Fills the empty ring's first eight slots with stream polynomials `next` .. `next + 7`
    /// at once, on the eight-way permutation: the first attempt of a set with l > 4, where a
    /// four-way batch and then three lanes with lane 0 idle would take ten four-way
    /// permutations for seven polynomials; this takes five eight-way ones (about 7.2) for
    /// eight, and the ones the attempt does not take stay made for the next.
    #[target_feature(enable = "avx2,avx512f,avx512bw")]
    pub(in crate::backend::x86_64) fn fill_eight(
        &mut self,
        wide: Keccak8x,
        rho_pp: &[u8; 64],
        next: u16,
    ) {
        debug_assert!(self.made == 0 && !self.busy && self.head == 0);
        // rho'' || IntegerToBytes(kappa + r, 2) (Algorithm 34 step 3); the addition wraps
        // only in a test that starts at the top of the counter (see `start`).
        let mut seeds = [[0u8; 66]; 8];
        for (r, seed) in seeds.iter_mut().enumerate() {
            write_seed_66(seed, rho_pp, next.wrapping_add(r as u16));
        }
        let mut sponge = Shake256x8::new(wide);
        sponge.absorb_short(seeds.each_ref().map(|s| &s[..]));
        seeds.zeroize();
        let (eight, _) = self
            .slots
            .split_first_chunk_mut::<8>()
            .expect("the ring has more than eight slots");
        sponge.squeeze_blocks(
            eight
                .each_mut()
                .map(|slot| &mut slot.0[..MASK_BLOCKS * RATE]),
        );
        tick!(ExpandMask, 8);
        self.made = 8;
        // `sponge` is wiped when it drops.
    }
}
