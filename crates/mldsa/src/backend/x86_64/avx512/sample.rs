//! ExpandA's eight-way batches (AVX-512 F): RejNTTPoly on eight seeds at a time, on the
//! eight-way permutation ([`Keccak8x`], zmm registers), about 28 % cheaper per sponge than the
//! four-way one. Seeds, batches and the rejection loop are those of the AVX2 kernels in
//! [`crate::backend::x86_64::avx2::sample`], called, not copied; the driver that picks eight
//! or four per batch is [`crate::backend::x86_64::sample`].

use crate::backend::lanes::next_batch;
use crate::backend::x86_64::avx2::sample::{NTT_FIRST_BLOCKS, NttStream, rej_ntt_lanes, seed_a};
use crate::backend::x86_64::avx512::keccak8x::{Keccak8x, Shake128x8};
use crate::math::poly::NttPoly;

/// RejNTTPoly eight seeds at a time, on the eight-way permutation (AVX-512 F; `Keccak8x`
/// proves it present): as the four-way batch in [`crate::backend::x86_64::avx2::sample`].
#[target_feature(enable = "avx2,avx512f")]
fn rej_ntt_poly_x8(
    keccak: Keccak8x,
    seeds: &[[u8; 34]; 8],
    outs: [Option<&mut NttPoly>; 8],
    buf: &mut [NttStream; 8],
) {
    let mut g = Shake128x8::new(keccak);
    g.absorb_short(seeds.each_ref().map(|s| &s[..]));
    rej_ntt_lanes(|out| g.squeeze_blocks(out), outs, NTT_FIRST_BLOCKS, buf);
}

/// One batch of ExpandA: the next eight of `entries` (tag 256 r + s, output), or fewer with
/// dummy lanes, on the eight-way permutation; returns how many were made.
#[target_feature(enable = "avx2,avx512f")]
pub(in crate::backend::x86_64) fn a_batch_x8<'a>(
    wide: Keccak8x,
    rho: &[u8; 32],
    entries: &mut impl Iterator<Item = (usize, &'a mut NttPoly)>,
    seeds: &mut [[u8; 34]; 8],
    buf: &mut [NttStream; 8],
) -> usize {
    let (n, outs) = next_batch(entries, seeds, |seed, tag| seed_a(seed, rho, tag));
    rej_ntt_poly_x8(wide, seeds, outs, buf);
    n
}
