//! ExpandA on the two-way Keccak ([`super::keccak2x`]): the matrix entries' SHAKE128 streams
//! are independent, so they are squeezed two at a time.
//!
//! Entries are taken in the portable order (A-hat row by row), each pair from the same seeds,
//! the same streams, read the same way (RejNTTPoly, FIPS 204 Algorithm 30), so the results are
//! those of [`crate::hash::sample::expand_a`] for every rho. An odd entry left at the end runs
//! the scalar sampler: a two-way permutation doing half its work costs more than a scalar one.
//! The Dilithium v3.1 AES sets, whose streams are AES-256-CTR, keep the portable code.
//!
//! Constant time: A-hat is derived from rho, which is public, so the rejection branches and
//! the stream lengths may depend on it.

use super::keccak2x::Shake128x2;
use crate::hash::keccak::SHAKE128_RATE as RATE;
use crate::hash::sample::coeff_from_three_bytes;
use crate::math::field::Q;
use crate::math::poly::{N, NttPoly};
use crate::params::{Parameters, PolyVec, SamplerXof};
use core::arch::wasm32::*;

/// Blocks squeezed up front for each entry: 840 bytes, 280 candidates of which about 279.7 are
/// accepted (each is with probability q / 2^23); 256 are needed, so four blocks are never
/// enough and a sixth is almost never squeezed.
const FIRST_BLOCKS: usize = 5;

/// RejNTTPoly's inner loop (FIPS 204 Algorithm 30, steps 4-12) over `buf`, eight candidates
/// at a time: appends the accepted candidates to `out` from position `ctr`, stopping at N;
/// returns the new count. The same coefficients, in the same order, as [`rej_uniform_scalar`].
///
/// Each 12 bytes are spread into four 32-bit lanes (a byte shuffle of a 16-byte load), their
/// top bits cleared and compared with q. When all eight of two such vectors are accepted (all
/// but about 1.7% of the time) they are stored at once; otherwise those eight run the scalar
/// step. Runs while eight more coefficients fit and 28 bytes can be loaded; the scalar loop
/// does the rest. In V8, 1.6x the scalar loop's speed (`rej_uniform_timing`; 2.1x with the test
/// profile's overflow checks on, which change the vector loop's code, not the scalar's).
pub(super) fn rej_uniform(out: &mut [i32; N], mut ctr: usize, buf: &[u8]) -> usize {
    let spread = i8x16(0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1);
    let (mask, q) = (i32x4_splat(0x7F_FFFF), i32x4_splat(Q));
    let mut pos = 0;
    while ctr + 8 <= N && pos + 28 <= buf.len() {
        let z0 = v128_and(i8x16_swizzle(load16(&buf[pos..]), spread), mask);
        let z1 = v128_and(i8x16_swizzle(load16(&buf[pos + 12..]), spread), mask);
        if i32x4_bitmask(v128_and(i32x4_lt(z0, q), i32x4_lt(z1, q))) == 0xF {
            let o: &mut [i32; 8] = (&mut out[ctr..ctr + 8]).try_into().unwrap();
            store4(z0, &mut o[..4]);
            store4(z1, &mut o[4..]);
            ctr += 8;
        } else {
            ctr = rej_uniform_scalar(out, ctr, &buf[pos..pos + 24]);
        }
        pos += 24;
    }
    rej_uniform_scalar(out, ctr, &buf[pos..])
}

/// The first 16 bytes of `b` as a vector.
#[inline(always)]
fn load16(b: &[u8]) -> v128 {
    let lo = u64::from_le_bytes(b[..8].try_into().unwrap());
    let hi = u64::from_le_bytes(b[8..16].try_into().unwrap());
    u64x2(lo, hi)
}

/// The four lanes of `z` into `o[..4]`.
#[inline(always)]
fn store4(z: v128, o: &mut [i32]) {
    o[0] = i32x4_extract_lane::<0>(z);
    o[1] = i32x4_extract_lane::<1>(z);
    o[2] = i32x4_extract_lane::<2>(z);
    o[3] = i32x4_extract_lane::<3>(z);
}

/// RejNTTPoly's inner loop, one candidate at a time (the portable loop).
pub(super) fn rej_uniform_scalar(out: &mut [i32; N], mut ctr: usize, buf: &[u8]) -> usize {
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

/// RejNTTPoly(seeds\[0\]) and RejNTTPoly(seeds\[1\]) on one two-way sponge.
fn rej_ntt_poly_x2(seeds: [&[u8; 34]; 2], outs: [&mut NttPoly; 2]) {
    let mut g = Shake128x2::new();
    g.absorb_once([seeds[0], seeds[1]]);
    let mut buf = [[0u8; FIRST_BLOCKS * RATE]; 2];
    let mut ctr = [0usize; 2];
    let mut len = FIRST_BLOCKS * RATE;
    let [out0, out1] = outs;
    while ctr[0] < N || ctr[1] < N {
        let [b0, b1] = &mut buf;
        g.squeeze_blocks([&mut b0[..len], &mut b1[..len]]);
        ctr[0] = rej_uniform(&mut out0.0, ctr[0], &b0[..len]);
        ctr[1] = rej_uniform(&mut out1.0, ctr[1], &b1[..len]);
        len = RATE;
    }
}

/// ExpandA's seed of entry (r, s): rho || IntegerToBytes(s, 1) || IntegerToBytes(r, 1) (FIPS
/// 204 Alg. 32 step 5), from its tag 256 r + s.
fn seed_a(rho: &[u8; 32], tag: usize) -> [u8; 34] {
    let mut seed = [0u8; 34];
    seed[..32].copy_from_slice(rho);
    seed[32] = tag as u8;
    seed[33] = (tag >> 8) as u8;
    seed
}

/// Makes the entries `entries` gives (tag 256 r + s, output), two at a time, in order.
fn expand_entries<'a>(rho: &[u8; 32], mut entries: impl Iterator<Item = (usize, &'a mut NttPoly)>) {
    while let Some((tag0, out0)) = entries.next() {
        let seed0 = seed_a(rho, tag0);
        match entries.next() {
            Some((tag1, out1)) => rej_ntt_poly_x2([&seed0, &seed_a(rho, tag1)], [out0, out1]),
            None => crate::hash::sample::rej_ntt_poly(&seed0, out0),
        }
    }
}

/// FIPS 204, Algorithm 32 (ExpandA), two entries at a time.
///
/// Contract: as [`crate::hash::sample::expand_a`], whose output it equals for every rho.
pub(super) fn expand_a<P: Parameters>(rho: &[u8; 32], a_hat: &mut P::MatrixA) {
    if P::XOF != SamplerXof::Shake {
        return crate::hash::sample::expand_a::<P>(rho, a_hat);
    }
    tick!(ExpandA, 1);
    // Tags 256 r + s (no division to recover r and s from a running count).
    let entries = a_hat.as_mut().iter_mut().enumerate().flat_map(|(r, row)| {
        let entries = row.as_mut().iter_mut().enumerate();
        entries.map(move |(s, entry)| ((r << 8) | s, entry))
    });
    expand_entries(rho, entries);
}

/// FIPS 204, Algorithms 32 and 48 (ExpandA, MatrixVectorNTT) fused, two entries at a time:
/// each row of A-hat is made (a pair may straddle two rows) and multiplied by `v` with
/// `product`, the backend's row kernel, as soon as it is complete.
///
/// Contract: as [`crate::backend::Backend::expand_a_times`], with the very output of the
/// portable row-by-row loop over the same kernel.
pub(super) fn expand_a_times<P: Parameters>(
    rho: &[u8; 32],
    v: &[NttPoly],
    out: &mut [NttPoly],
    product: impl Fn(&P::NttVecL, &[NttPoly], &mut NttPoly),
) {
    tick!(ExpandATimes, 1);
    let mut row = P::NttVecL::zeroed();
    let mut pair = [NttPoly::ZERO; 2];
    let mut tags = (0..P::K).flat_map(|r| (0..P::L).map(move |s| (r << 8) | s));
    loop {
        let batch: [Option<usize>; 2] = [tags.next(), tags.next()];
        let n = batch.iter().flatten().count();
        if n == 0 {
            break;
        }
        let entries = batch.iter().flatten().copied().zip(pair.iter_mut());
        expand_entries(rho, entries);
        for (&tag, entry) in batch.iter().flatten().zip(&pair) {
            let (r, s) = (tag >> 8, tag & 0xFF);
            row.as_mut()[s] = *entry;
            if s == P::L - 1 {
                product(&row, v, &mut out[r]);
            }
        }
    }
}
