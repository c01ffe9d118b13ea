//! Bit packing of polynomials and hints (FIPS 204 Algorithms 9-13 and 16-21).
//!
//! The spec describes packing as a chain IntegerToBits -> BitsToBytes over a bit string; here the
//! chain is fused into a little-endian bit accumulator, which produces the same bytes without
//! materialising the bits. Widths and lengths come from the parameter set and are public; the
//! coefficients may be secret (s1, s2, t0), and are only shifted and masked.

use crate::encoding::kernels::PackKernels;
use crate::error::Malformed;
use crate::math::poly::{N, Poly};
use crate::params::Parameters;

/// FIPS 204 Algorithm 11, IntegerToBytes, for the 2-byte counters of ExpandS and ExpandMask.
#[inline(always)]
pub(crate) const fn integer_to_bytes_2(x: u16) -> [u8; 2] {
    x.to_le_bytes()
}

/// Writes 256 values of `bits` bits each (each already in [0, 2^bits)), little-endian.
///
/// FIPS 204 Algorithm 9, IntegerToBits.
/// FIPS 204 Algorithm 12, BitsToBytes.
#[inline(always)]
fn pack_bits(value: impl Fn(usize) -> u32, bits: usize, out: &mut [u8]) {
    debug_assert_eq!(out.len(), N * bits / 8);
    match bits {
        3 => pack_group::<3>(value, out),
        4 => pack_group::<4>(value, out),
        6 => pack_group::<6>(value, out),
        10 => pack_group::<10>(value, out),
        13 => pack_group::<13>(value, out),
        18 => pack_group::<18>(value, out),
        20 => pack_group::<20>(value, out),
        _ => unreachable!("FIPS 204 packs 3, 4, 6, 10, 13, 18 or 20 bits"),
    }
}

/// Values per group: a group of GROUP values fills exactly GROUP * BITS / 8 whole bytes and fits
/// a u128 (8 values of up to 16 bits, or 4 of 18 or 20).
const fn group(bits: usize) -> usize {
    if 8 * bits <= 128 { 8 } else { 4 }
}

/// [`pack_bits`] for a fixed width: whole groups through a u128, so the compiler unrolls it.
/// Constant time: shifts and ors only; every index is a compile-time function of the position.
#[inline(always)]
fn pack_group<const BITS: usize>(value: impl Fn(usize) -> u32, out: &mut [u8]) {
    // A slice of constant length: the bounds checks below fold away, and no division by the
    // group size is left for the compiler to emit (it did at opt-level z; see ct-check.sh).
    let out = &mut out[..const { N * BITS / 8 }];
    let g = const { group(BITS) };
    let bytes = const { group(BITS) * BITS / 8 };
    for k in 0..const { N / group(BITS) } {
        let mut acc = 0u128;
        for j in 0..g {
            let v = value(k * g + j);
            debug_assert!(v < 1 << BITS, "Bounds: packed value too wide");
            acc |= (v as u128) << (j * BITS);
        }
        out[k * bytes..(k + 1) * bytes].copy_from_slice(&acc.to_le_bytes()[..bytes]);
    }
}

/// Reads 256 values of `bits` bits each, little-endian, passing each to `sink(i, v)`.
///
/// FIPS 204 Algorithm 10, BitsToInteger.
/// FIPS 204 Algorithm 13, BytesToBits.
#[inline(always)]
fn unpack_bits(bytes: &[u8], bits: usize, sink: impl FnMut(usize, u32)) {
    debug_assert_eq!(bytes.len(), N * bits / 8);
    match bits {
        3 => unpack_group::<3>(bytes, sink),
        4 => unpack_group::<4>(bytes, sink),
        6 => unpack_group::<6>(bytes, sink),
        10 => unpack_group::<10>(bytes, sink),
        13 => unpack_group::<13>(bytes, sink),
        18 => unpack_group::<18>(bytes, sink),
        20 => unpack_group::<20>(bytes, sink),
        _ => unreachable!("FIPS 204 packs 3, 4, 6, 10, 13, 18 or 20 bits"),
    }
}

/// [`unpack_bits`] for a fixed width, a group at a time (see [`pack_group`]).
#[inline(always)]
fn unpack_group<const BITS: usize>(bytes: &[u8], mut sink: impl FnMut(usize, u32)) {
    // Constant length, as in `pack_group`.
    let bytes = &bytes[..const { N * BITS / 8 }];
    let g = const { group(BITS) };
    let len = const { group(BITS) * BITS / 8 };
    let mask = (1u128 << BITS) - 1;
    for k in 0..const { N / group(BITS) } {
        let mut buf = [0u8; 16];
        buf[..len].copy_from_slice(&bytes[k * len..(k + 1) * len]);
        let acc = u128::from_le_bytes(buf);
        for j in 0..g {
            sink(k * g + j, ((acc >> (j * BITS)) & mask) as u32);
        }
    }
}

/// FIPS 204 Algorithm 16, SimpleBitPack: coefficients in [0, 2^bits) to 32 * bits bytes.
pub(crate) fn simple_bit_pack(w: &Poly, bits: usize, out: &mut [u8]) {
    pack_bits(|i| w.0[i] as u32, bits, out);
}

/// FIPS 204 Algorithm 17, BitPack: coefficients in [-a, b] stored as b - w_i in `bits` bits.
pub(crate) fn bit_pack(w: &Poly, b: i32, bits: usize, out: &mut [u8]) {
    pack_bits(|i| b.wrapping_sub(w.0[i]) as u32, bits, out);
}

#[cfg_attr(
    not(any(test, feature = "profile")),
    allow(
        dead_code,
        reason = "verification unpacks t1 with simple_bit_unpack_shifted"
    )
)]
/// FIPS 204 Algorithm 18, SimpleBitUnpack: 32 * bits bytes to coefficients in [0, 2^bits).
pub(crate) fn simple_bit_unpack(v: &[u8], bits: usize, w: &mut Poly) {
    unpack_bits(v, bits, |i, x| w.0[i] = x as i32);
}

/// [`simple_bit_unpack`] with each coefficient times 2^`shift` (t1 * 2^d from pkDecode's
/// bytes, unpacked and shifted in one pass). Bounds: 2^(bits + shift) <= 2^31.
pub(crate) fn simple_bit_unpack_shifted(v: &[u8], bits: usize, shift: u32, w: &mut Poly) {
    unpack_bits(v, bits, |i, x| w.0[i] = (x << shift) as i32);
}

/// FIPS 204 Algorithm 19, BitUnpack: coefficients b - x for each `bits`-bit x.
///
/// Returns 1 if some x exceeded `max` (so b - x fell below -a), else 0, looking at all of them.
/// Bounds: the verdict holds for `max` < 2^31; callers that check nothing (t0, z) pass
/// `u32::MAX` and ignore it.
/// Constant time: the check is arithmetic; callers decide what a non-zero answer means.
pub(crate) fn bit_unpack(v: &[u8], b: i32, bits: usize, max: u32, w: &mut Poly) -> u32 {
    let mut bad = 0u32;
    unpack_bits(v, bits, |i, x| {
        bad |= max.wrapping_sub(x) >> 31;
        w.0[i] = b.wrapping_sub(x as i32);
    });
    bad
}

/// BitUnpack(v, gamma1 - 1, gamma1): the mask y of ExpandMask and the response z.
pub(crate) fn bit_unpack_z<P: Parameters>(v: &[u8], w: &mut Poly) {
    // Every Z_BITS-bit value is in range: 2 gamma1 - 1 = 2^Z_BITS - 1.
    bit_unpack(v, P::GAMMA1, P::Z_BITS, u32::MAX, w);
}

/// FIPS 204 Algorithm 20, HintBitPack: omega + k bytes (indices of the 1s, then cut points).
///
/// Bounds: at most omega 1s in h, each coefficient 0 or 1 (the signer checked it).
/// Constant time: h is public once the signature is accepted.
pub(crate) fn hint_bit_pack<P: Parameters, B: PackKernels>(b: B, h: &[Poly], y: &mut [u8]) {
    debug_assert_eq!(y.len(), P::OMEGA + P::K);
    let (indices, cuts) = y.split_at_mut(P::OMEGA);
    // The index slots past the last hint stay zero (the encoding is unique).
    indices.fill(0);
    let mut index = 0usize;
    for (h_i, cut) in h.iter().zip(cuts.iter_mut()) {
        // The 1s as the bits of four words, then one step per 1 (a loop over the coefficients
        // with a branch per coefficient mispredicted about once per hint, and one writing
        // every position to the next free slot made a chain of dependent stores).
        for (word, mut ones) in b.hint_words(h_i).into_iter().enumerate() {
            while ones != 0 {
                // More than omega 1s would break the bound above; they are not written.
                if let Some(slot) = indices.get_mut(index) {
                    *slot = (64 * word) as u8 + ones.trailing_zeros() as u8;
                }
                index += 1;
                ones &= ones - 1;
            }
        }
        *cut = index as u8;
    }
}

/// The coefficients of a hint polynomial (each 0 or 1) as the bits of four words: bit j of
/// word w is coefficient 64 w + j.
pub(crate) fn hint_words(h: &Poly) -> [u64; 4] {
    core::array::from_fn(|w| {
        h.0[64 * w..64 * w + 64]
            .iter()
            .enumerate()
            .fold(0u64, |m, (j, &bit)| m | (u64::from(bit as u32 & 1) << j))
    })
}

/// FIPS 204 Algorithm 21, HintBitUnpack, strict: rejects every non-canonical encoding.
///
/// Cut points must be monotone and at most omega, indices strictly increasing within each
/// polynomial, and the unused index slots zero; so each hint vector has exactly one encoding.
pub(crate) fn hint_bit_unpack<P: Parameters>(y: &[u8], h: &mut [Poly]) -> Result<(), Malformed> {
    debug_assert_eq!(y.len(), P::OMEGA + P::K);
    let mut index = 0usize;
    for (i, h_i) in h.iter_mut().enumerate() {
        *h_i = Poly::ZERO;
        let cut = y[P::OMEGA + i] as usize;
        if cut < index {
            return Err(Malformed::HintCountDecreasing);
        }
        if cut > P::OMEGA {
            return Err(Malformed::HintCountAboveOmega);
        }
        let first = index;
        while index < cut {
            if index > first && y[index - 1] >= y[index] {
                return Err(Malformed::HintIndicesNotIncreasing);
            }
            h_i.0[y[index] as usize] = 1;
            index += 1;
        }
    }
    if y[index..P::OMEGA].iter().any(|&b| b != 0) {
        return Err(Malformed::HintPaddingNonZero);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::{MlDsa44, MlDsa65};

    #[test]
    fn bit_pack_round_trips_every_width() {
        for bits in [3usize, 4, 6, 10, 13, 18, 20] {
            let mut p = Poly::ZERO;
            for (i, c) in p.0.iter_mut().enumerate() {
                *c = ((i * 2_654_435_761) % (1 << bits)) as i32;
            }
            p.0[0] = (1 << bits) - 1;
            let mut out = vec![0u8; 32 * bits];
            simple_bit_pack(&p, bits, &mut out);
            let mut back = Poly::ZERO;
            simple_bit_unpack(&out, bits, &mut back);
            assert_eq!(p, back, "bits = {bits}");
        }
    }

    #[test]
    fn bit_pack_is_little_endian() {
        // SimpleBitPack with 10 bits: 0x3FF, 0, 1 sets bits 0-9 and bit 20 -> ff 03 10 00 ...
        let mut p = Poly::ZERO;
        p.0[0] = 0x3FF;
        p.0[2] = 1;
        let mut out = [0u8; 320];
        simple_bit_pack(&p, 10, &mut out);
        assert_eq!(&out[..4], &[0xFF, 0x03, 0x10, 0x00]);
    }

    #[test]
    fn bit_unpack_flags_out_of_range() {
        // eta = 2: 3-bit values above 4 are out of range.
        let mut p = Poly::ZERO;
        let mut bytes = [0u8; 96];
        assert_eq!(bit_unpack(&bytes, 2, 3, 4, &mut p), 0);
        bytes[0] = 0b0000_0100; // x = 4 -> coefficient -2: fine
        assert_eq!(bit_unpack(&bytes, 2, 3, 4, &mut p), 0);
        assert_eq!(p.0[0], -2);
        bytes[0] = 0b0000_0101; // x = 5 -> -3: out of range
        assert_eq!(bit_unpack(&bytes, 2, 3, 4, &mut p), 1);
    }

    /// HintBitPack as FIPS 204 Algorithm 20 writes it.
    fn hint_bit_pack_literal<P: Parameters>(h: &[Poly]) -> Vec<u8> {
        let mut y = vec![0u8; P::OMEGA + P::K];
        let mut index = 0;
        for (i, h_i) in h.iter().enumerate() {
            for (j, &bit) in h_i.0.iter().enumerate() {
                if bit != 0 {
                    y[index] = j as u8;
                    index += 1;
                }
            }
            y[P::OMEGA + i] = index as u8;
        }
        y
    }

    /// The branch-free HintBitPack equals the pseudocode for no hints, exactly omega, hints at
    /// both ends of a polynomial, and random ones.
    #[test]
    fn hint_bit_pack_is_the_pseudocode() {
        fn check<P: Parameters>() {
            let mut rng = crate::math::splitmix::SplitMix64(P::OMEGA as u64);
            for round in 0..if cfg!(miri) { 3 } else { 200 } {
                let mut h = vec![Poly::ZERO; P::K];
                let count = match round {
                    0 => 0,
                    1 | 2 => P::OMEGA,
                    _ => rng.range(0, P::OMEGA as i32) as usize,
                };
                let mut placed = 0;
                while placed < count {
                    let (i, j) = match (round, placed) {
                        (2, 0) => (0, 0),
                        (2, 1) => (P::K - 1, 255),
                        _ => (
                            rng.range(0, P::K as i32 - 1) as usize,
                            rng.range(0, 255) as usize,
                        ),
                    };
                    if h[i].0[j] == 0 {
                        h[i].0[j] = 1;
                        placed += 1;
                    }
                }
                let expect = hint_bit_pack_literal::<P>(&h);
                let mut y = vec![0xAAu8; P::OMEGA + P::K];
                hint_bit_pack::<P, _>(crate::backend::Portable, &h, &mut y);
                assert_eq!(y, expect, "{} portable, round {round}", P::NAME);
                #[cfg(target_arch = "x86_64")]
                if let Some(avx2) = crate::backend::x86_64::Avx2::detect() {
                    let mut y = vec![0xAAu8; P::OMEGA + P::K];
                    hint_bit_pack::<P, _>(avx2, &h, &mut y);
                    assert_eq!(y, expect, "{} avx2, round {round}", P::NAME);
                }
            }
        }
        check::<crate::params::MlDsa44>();
        check::<crate::params::MlDsa65>();
        check::<crate::params::MlDsa87>();
    }

    #[test]
    fn hint_round_trip_and_strictness() {
        type P = MlDsa44;
        let mut h = [Poly::ZERO; 4];
        h[0].0[3] = 1;
        h[0].0[200] = 1;
        h[2].0[255] = 1;
        let mut y = [0u8; 84];
        hint_bit_pack::<P, _>(crate::backend::Portable, &h, &mut y);
        let mut back = [Poly::ZERO; 4];
        hint_bit_unpack::<P>(&y, &mut back).unwrap();
        assert_eq!(h, back);

        let mut bad = y;
        bad[1] = 3; // repeated index
        assert_eq!(
            hint_bit_unpack::<P>(&bad, &mut back),
            Err(Malformed::HintIndicesNotIncreasing)
        );
        let mut bad = y;
        bad[80] = 3; // cut point beyond the next one
        assert_eq!(
            hint_bit_unpack::<P>(&bad, &mut back),
            Err(Malformed::HintCountDecreasing)
        );
        let mut bad = y;
        bad[83] = 81; // above omega
        assert_eq!(
            hint_bit_unpack::<P>(&bad, &mut back),
            Err(Malformed::HintCountAboveOmega)
        );
        let mut bad = y;
        bad[79] = 1; // padding
        assert_eq!(
            hint_bit_unpack::<P>(&bad, &mut back),
            Err(Malformed::HintPaddingNonZero)
        );
    }

    #[test]
    fn hint_boundaries_are_accepted() {
        // omega hints in total is valid; all of them in the last polynomial too.
        type P = MlDsa65;
        let mut y = [0u8; 55 + 6];
        for (i, b) in y[..55].iter_mut().enumerate() {
            *b = i as u8;
        }
        y[55 + 5] = 55;
        for c in &mut y[55..60] {
            *c = 0;
        }
        let mut h = [Poly::ZERO; 6];
        hint_bit_unpack::<P>(&y, &mut h).unwrap();
        assert_eq!(h[5].0.iter().sum::<i32>(), 55);
    }
}
