//! Bit packing of polynomials and hints (FIPS 204 Algorithms 9-13 and 16-21).
//!
//! The spec describes packing as a chain IntegerToBits -> BitsToBytes over a bit string; here the
//! chain is fused into a little-endian bit accumulator, which produces the same bytes without
//! materialising the bits. Widths and lengths come from the parameter set and are public; the
//! coefficients may be secret (s1, s2, t0), and are only shifted and masked.

use crate::error::Malformed;
use crate::params::Parameters;
use crate::poly::{N, Poly};

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
fn pack_bits(values: impl Iterator<Item = u32>, bits: usize, out: &mut [u8]) {
    debug_assert_eq!(out.len(), N * bits / 8);
    let mut acc = 0u64;
    let mut filled = 0;
    let mut k = 0;
    for v in values {
        debug_assert!(bits == 32 || v < 1 << bits, "Bounds: packed value too wide");
        acc |= (v as u64) << filled;
        filled += bits;
        while filled >= 8 {
            out[k] = acc as u8;
            acc >>= 8;
            filled -= 8;
            k += 1;
        }
    }
}

/// Reads 256 values of `bits` bits each, little-endian, passing each to `sink(i, v)`.
///
/// FIPS 204 Algorithm 10, BitsToInteger.
/// FIPS 204 Algorithm 13, BytesToBits.
#[inline(always)]
fn unpack_bits(bytes: &[u8], bits: usize, mut sink: impl FnMut(usize, u32)) {
    debug_assert_eq!(bytes.len(), N * bits / 8);
    let mask = (1u64 << bits) - 1;
    let mut acc = 0u64;
    let mut filled = 0;
    let mut bytes = bytes.iter();
    for i in 0..N {
        while filled < bits {
            acc |= (*bytes.next().unwrap_or(&0) as u64) << filled;
            filled += 8;
        }
        sink(i, (acc & mask) as u32);
        acc >>= bits;
        filled -= bits;
    }
}

/// FIPS 204 Algorithm 16, SimpleBitPack: coefficients in [0, 2^bits) to 32 * bits bytes.
pub(crate) fn simple_bit_pack(w: &Poly, bits: usize, out: &mut [u8]) {
    pack_bits(w.0.iter().map(|&c| c as u32), bits, out);
}

/// FIPS 204 Algorithm 17, BitPack: coefficients in [-a, b] stored as b - w_i in `bits` bits.
pub(crate) fn bit_pack(w: &Poly, b: i32, bits: usize, out: &mut [u8]) {
    pack_bits(w.0.iter().map(|&c| b.wrapping_sub(c) as u32), bits, out);
}

/// FIPS 204 Algorithm 18, SimpleBitUnpack: 32 * bits bytes to coefficients in [0, 2^bits).
pub(crate) fn simple_bit_unpack(v: &[u8], bits: usize, w: &mut Poly) {
    unpack_bits(v, bits, |i, x| w.0[i] = x as i32);
}

/// FIPS 204 Algorithm 19, BitUnpack: coefficients b - x for each `bits`-bit x.
///
/// Returns 1 if some x exceeded `max` (so b - x fell below -a), else 0, looking at all of them.
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
/// Bounds: at most omega 1s in h (the signer checked it).
/// Constant time: h is public once the signature is accepted; the branches are on h only.
pub(crate) fn hint_bit_pack<P: Parameters>(h: &[Poly], y: &mut [u8]) {
    debug_assert_eq!(y.len(), P::OMEGA + P::K);
    y.fill(0);
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

    #[test]
    fn hint_round_trip_and_strictness() {
        type P = MlDsa44;
        let mut h = [Poly::ZERO; 4];
        h[0].0[3] = 1;
        h[0].0[200] = 1;
        h[2].0[255] = 1;
        let mut y = [0u8; 84];
        hint_bit_pack::<P>(&h, &mut y);
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
