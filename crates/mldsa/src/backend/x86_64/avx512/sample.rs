//! ExpandA's eight-way batches (AVX-512 F): RejNTTPoly on eight seeds at a time, on the
//! eight-way permutation ([`Keccak8x`], zmm registers), about 28 % cheaper per sponge than the
//! four-way one. Seeds, batches and the rejection loop are those of the AVX2 kernels in
//! [`crate::backend::x86_64::avx2::sample`], called, not copied; the driver that picks eight
//! or four per batch is [`crate::backend::x86_64::sample`].

use crate::backend::lanes::next_batch;
use crate::backend::x86_64::avx2::sample::{
    LOAD_SLACK, NTT_FIRST_BLOCKS, NttStream, rej_ntt_lanes, seed_a, seed_state_word,
};
use crate::backend::x86_64::avx512::keccak8x::{Keccak8x, Shake128x8};
use crate::backend::x86_64::pk_lane::{PkLane, a_rounds_with_pk, pk_rounds};
use crate::hash::keccak::SHAKE128_RATE as RATE128;
use crate::math::poly::NttPoly;
use crate::params::TR_LEN;

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

/// FIPS 204 Algorithms 32 and 30 (ExpandA, RejNTTPoly) with H(pk, 64) of Algorithm 8 step 6
/// in lane 0, eight-way: rounds of seven entries on lanes 1-7, as the four-way
/// [`crate::backend::x86_64::avx2::sample::a_rounds_with_pk_x4`], whose contract this has.
#[target_feature(enable = "avx2,avx512f")]
pub(in crate::backend::x86_64) fn a_rounds_with_pk_x8(
    wide: Keccak8x,
    rho: &[u8; 32],
    pk: &mut PkLane,
    tr: &mut [u8; TR_LEN],
    tags: &mut impl Iterator<Item = usize>,
    accumulate: impl FnMut(usize, &NttPoly),
) -> usize {
    a_rounds_with_pk!(
        Shake128x8,
        wide,
        restart_lanes_1_to_7,
        [a, b, c, d, e, f, h],
        7,
        rho,
        pk,
        tr,
        tags,
        accumulate
    )
}
