//! ExpandS and ExpandMask on the two-way Keccak ([`super::keccak2x`]): their polynomials'
//! SHAKE256 streams are independent, so they are squeezed two at a time.
//!
//! Polynomials are taken in the portable order (s1 then s2; y by index), each pair from the
//! same seeds and the same streams, read the same way, so the results are those of
//! [`crate::hash::sample::expand_s`] and [`crate::hash::sample::expand_mask_polys`]. An odd
//! polynomial left at the end runs the scalar sampler (a two-way permutation doing half its
//! work costs more than a scalar one). Only the SHAKE sets come here: the backend sends the
//! Dilithium v3.1 AES sets to the portable code.
//!
//! Constant time: the streams are secret. RejBoundedPoly branches only on each nibble's
//! accept decision, declassified in [`crate::hash::sample::coeff_from_half_byte`] as in the portable loop; ExpandMask
//! reads a fixed length. Seeds and squeezed bytes are zeroised here, the sponge state on drop.

use super::keccak2x::Shake256x2;
use crate::hash::keccak::SHAKE256_RATE as RATE;
use crate::hash::sample::{rej_bounded_bytes, write_seed_66};
use crate::math::poly::{N, Poly};
use crate::params::Parameters;
use zeroize::Zeroize;

/// Blocks squeezed up front by RejBoundedPoly: 272 bytes, 544 nibbles, of which about 510 are
/// accepted for eta = 2 and 306 for eta = 4; one block would often fall short.
const ETA_FIRST_BLOCKS: usize = 2;

/// Blocks of SHAKE256 output per mask polynomial: 32 * Z_BITS bytes, 576 or 640, fit in five.
const MASK_BLOCKS: usize = 5;
const _: () = assert!(MASK_BLOCKS * RATE >= 32 * 20);

/// RejBoundedPoly(seeds\[0\]) and RejBoundedPoly(seeds\[1\]) on one two-way sponge. More
/// blocks are squeezed while a lane lacks coefficients, which depends only on declassified
/// accept decisions.
fn rej_bounded_poly_x2<P: Parameters>(seeds: &[[u8; 66]; 2], outs: [&mut Poly; 2]) {
    let mut h = Shake256x2::new();
    h.absorb_once([&seeds[0], &seeds[1]]);
    let mut buf = [[0u8; ETA_FIRST_BLOCKS * RATE]; 2];
    let mut ctr = [0usize; 2];
    let mut len = ETA_FIRST_BLOCKS * RATE;
    let [out0, out1] = outs;
    while ctr[0] < N || ctr[1] < N {
        let [b0, b1] = &mut buf;
        h.squeeze_blocks([&mut b0[..len], &mut b1[..len]]);
        ctr[0] = rej_bounded_bytes::<P>(&mut out0.0, ctr[0], &b0[..len]);
        ctr[1] = rej_bounded_bytes::<P>(&mut out1.0, ctr[1], &b1[..len]);
        len = RATE;
    }
    buf.zeroize();
}

/// FIPS 204, Algorithm 33 (ExpandS), two polynomials at a time.
///
/// Contract: as [`crate::hash::sample::expand_s`] (SHAKE sets), whose output it equals.
pub(super) fn expand_s<P: Parameters>(rho_prime: &[u8; 64], s1: &mut P::VecL, s2: &mut P::VecK) {
    tick!(ExpandS, 1);
    // rho' || IntegerToBytes(r, 2): r < l for s1, l <= r < l + k for s2 (Alg. 33 steps 2, 5).
    let mut polys = s1.as_mut().iter_mut().chain(s2.as_mut().iter_mut());
    let mut seeds = [[0u8; 66]; 2];
    let mut r = 0u16;
    while let Some(p0) = polys.next() {
        write_seed_66(&mut seeds[0], rho_prime, r);
        match polys.next() {
            Some(p1) => {
                write_seed_66(&mut seeds[1], rho_prime, r + 1);
                rej_bounded_poly_x2::<P>(&seeds, [p0, p1]);
            }
            None => crate::hash::sample::rej_bounded_poly::<P>(&seeds[0], p0),
        }
        r += 2;
    }
    seeds.zeroize();
}

/// ExpandMask's polynomials `first`, `first + 1`, ... (FIPS 204 Algorithm 34), two at a time:
/// BitUnpack(H(rho'' || IntegerToBytes(first + r, 2), 32 * Z_BITS), gamma1 - 1, gamma1).
///
/// Contract: as [`crate::hash::sample::expand_mask_polys`] (SHAKE sets), whose output it
/// equals.
pub(super) fn expand_mask_polys<'a, P: Parameters>(
    rho_pp: &[u8; 64],
    first: u16,
    mut polys: impl Iterator<Item = &'a mut Poly>,
) {
    let mut seeds = [[0u8; 66]; 2];
    let mut buf = [[0u8; MASK_BLOCKS * RATE]; 2];
    let mut r = first;
    while let Some(p0) = polys.next() {
        let Some(p1) = polys.next() else {
            crate::hash::sample::expand_mask_polys::<P>(rho_pp, r, core::iter::once(p0));
            break;
        };
        tick!(ExpandMask, 2);
        write_seed_66(&mut seeds[0], rho_pp, r);
        // Below 2^16: `first` + the count - 1 is (the portable function's bound).
        write_seed_66(&mut seeds[1], rho_pp, r + 1);
        let mut h = Shake256x2::new();
        h.absorb_once([&seeds[0], &seeds[1]]);
        let [b0, b1] = &mut buf;
        h.squeeze_blocks([&mut b0[..], &mut b1[..]]);
        super::pack::bit_unpack_z::<P>(&b0[..32 * P::Z_BITS], p0);
        super::pack::bit_unpack_z::<P>(&b1[..32 * P::Z_BITS], p1);
        // Wraps only after the last polynomial at the very top of the counter.
        r = r.wrapping_add(2);
    }
    seeds.zeroize();
    buf.zeroize();
}
