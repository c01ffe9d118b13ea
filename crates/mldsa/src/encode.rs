//! Encodings of keys, signatures and w1 (FIPS 204 Algorithms 22-28), with strict decoding.

use crate::declassify::public;
use crate::error::Malformed;
use crate::pack::{
    bit_pack, bit_unpack, bit_unpack_z, hint_bit_pack, hint_bit_unpack, simple_bit_pack,
    simple_bit_unpack,
};
use crate::params::{D, Parameters, TR_LEN};

use crate::poly::{Poly, vec_exceeds};

/// Bits per packed t1 coefficient: bitlen(q - 1) - d.
const T1_BITS: usize = 10;
/// t0 lies in [-(2^(d-1) - 1), 2^(d-1)], packed as 2^(d-1) - t0 in d bits.
const T0_B: i32 = 1 << (D - 1);

/// Bytes of one packed polynomial of `bits`-bit coefficients.
const fn poly_bytes(bits: usize) -> usize {
    32 * bits
}

/// FIPS 204 Algorithm 22, pkEncode: rho || SimpleBitPack(t1[i], 2^10 - 1) for each i.
pub(crate) fn pk_encode(rho: &[u8; 32], t1: &[Poly], pk: &mut [u8]) {
    pk[..32].copy_from_slice(rho);
    for (t1_i, chunk) in t1
        .iter()
        .zip(pk[32..].chunks_exact_mut(poly_bytes(T1_BITS)))
    {
        simple_bit_pack(t1_i, T1_BITS, chunk);
    }
}

/// FIPS 204 Algorithm 23, pkDecode. Every encoding of the right length is valid.
pub(crate) fn pk_decode(pk: &[u8], rho: &mut [u8; 32], t1: &mut [Poly]) {
    rho.copy_from_slice(&pk[..32]);
    for (t1_i, chunk) in t1
        .iter_mut()
        .zip(pk[32..].chunks_exact(poly_bytes(T1_BITS)))
    {
        simple_bit_unpack(chunk, T1_BITS, t1_i);
    }
}

/// The parts of an expanded secret key (FIPS 204 Algorithm 24's inputs).
pub(crate) struct SkParts<'a> {
    pub rho: &'a [u8; 32],
    pub k: &'a [u8; 32],
    /// tr, `P::TR_BYTES` long.
    pub tr: &'a [u8],
    pub s1: &'a [Poly],
    pub s2: &'a [Poly],
    pub t0: &'a [Poly],
}

/// FIPS 204 Algorithm 24, skEncode: rho || K || tr || BitPack(s1) || BitPack(s2) || BitPack(t0).
pub(crate) fn sk_encode<P: Parameters>(parts: &SkParts<'_>, sk: &mut [u8]) {
    let (head, rest) = sk.split_at_mut(64 + P::TR_BYTES);
    head[..32].copy_from_slice(parts.rho);
    head[32..64].copy_from_slice(parts.k);
    head[64..].copy_from_slice(parts.tr);
    let eta_len = poly_bytes(P::ETA_BITS);
    let (s_bytes, t0_bytes) = rest.split_at_mut((P::L + P::K) * eta_len);
    let s = parts.s1.iter().chain(parts.s2.iter());
    for (s_i, chunk) in s.zip(s_bytes.chunks_exact_mut(eta_len)) {
        bit_pack(s_i, P::ETA, P::ETA_BITS, chunk);
    }
    for (t0_i, chunk) in parts
        .t0
        .iter()
        .zip(t0_bytes.chunks_exact_mut(poly_bytes(D as usize)))
    {
        bit_pack(t0_i, T0_B, D as usize, chunk);
    }
}

/// FIPS 204 Algorithm 25, skDecode, strict: s1 and s2 must lie in [-eta, eta]. (Every d-bit t0
/// field is in range by construction.)
///
/// Constant time: the range check is accumulated over all coefficients without branching; only
/// the verdict is revealed, as an error on a malformed key.
pub(crate) fn sk_decode<P: Parameters>(
    sk: &[u8],
    rho: &mut [u8; 32],
    k: &mut [u8; 32],
    tr: &mut [u8; TR_LEN],
    s1: &mut [Poly],
    s2: &mut [Poly],
    t0: &mut [Poly],
) -> Result<(), Malformed> {
    rho.copy_from_slice(&sk[..32]);
    k.copy_from_slice(&sk[32..64]);
    // tr is 64 bytes in FIPS 204 and 32 in Dilithium v3.1; the rest of `tr` stays zero.
    tr[..P::TR_BYTES].copy_from_slice(&sk[64..64 + P::TR_BYTES]);
    let eta_len = poly_bytes(P::ETA_BITS);
    let (s1_bytes, rest) = sk[64 + P::TR_BYTES..].split_at(P::L * eta_len);
    let (s2_bytes, t0_bytes) = rest.split_at(P::K * eta_len);
    let max = 2 * P::ETA as u32;
    let mut bad_s1 = 0;
    for (s_i, chunk) in s1.iter_mut().zip(s1_bytes.chunks_exact(eta_len)) {
        bad_s1 |= bit_unpack(chunk, P::ETA, P::ETA_BITS, max, s_i);
    }
    let mut bad_s2 = 0;
    for (s_i, chunk) in s2.iter_mut().zip(s2_bytes.chunks_exact(eta_len)) {
        bad_s2 |= bit_unpack(chunk, P::ETA, P::ETA_BITS, max, s_i);
    }
    let t0_len = poly_bytes(D as usize);
    for (t0_i, chunk) in t0.iter_mut().zip(t0_bytes.chunks_exact(t0_len)) {
        bit_unpack(chunk, T0_B, D as usize, u32::MAX, t0_i);
    }
    // Constant time: a key with out-of-range coefficients is rejected; that it was rejected is
    // the only thing revealed.
    if public(bad_s1) != 0 {
        return Err(Malformed::S1OutOfRange);
    }
    if public(bad_s2) != 0 {
        return Err(Malformed::S2OutOfRange);
    }
    Ok(())
}

/// FIPS 204 Algorithm 26, sigEncode: c-tilde || BitPack(z[i], gamma1 - 1, gamma1) || HintBitPack(h).
pub(crate) fn sig_encode<P: Parameters>(c_tilde: &[u8], z: &[Poly], h: &[Poly], sig: &mut [u8]) {
    let (ct, rest) = sig.split_at_mut(P::C_TILDE_LEN);
    ct.copy_from_slice(c_tilde);
    let z_len = poly_bytes(P::Z_BITS);
    let (z_bytes, h_bytes) = rest.split_at_mut(P::L * z_len);
    for (z_i, chunk) in z.iter().zip(z_bytes.chunks_exact_mut(z_len)) {
        bit_pack(z_i, P::GAMMA1, P::Z_BITS, chunk);
    }
    hint_bit_pack::<P>(h, h_bytes);
}

/// FIPS 204 Algorithm 27, sigDecode, strict: canonical hints (see `hint_bit_unpack`) and, as
/// verification would require anyway, ||z||_inf < gamma1 - beta.
pub(crate) fn sig_decode<P: Parameters>(
    sig: &[u8],
    c_tilde: &mut [u8],
    z: &mut [Poly],
    h: &mut [Poly],
) -> Result<(), Malformed> {
    let (ct, rest) = sig.split_at(P::C_TILDE_LEN);
    c_tilde.copy_from_slice(ct);
    let z_len = poly_bytes(P::Z_BITS);
    let (z_bytes, h_bytes) = rest.split_at(P::L * z_len);
    for (z_i, chunk) in z.iter_mut().zip(z_bytes.chunks_exact(z_len)) {
        bit_unpack_z::<P>(chunk, z_i);
    }
    hint_bit_unpack::<P>(h_bytes, h)?;
    if vec_exceeds(z, P::GAMMA1 - P::BETA) != 0 {
        return Err(Malformed::ZOutOfRange);
    }
    Ok(())
}

/// FIPS 204 Algorithm 28, w1Encode: SimpleBitPack(w1[i], (q-1)/(2 gamma2) - 1) for each i.
pub(crate) fn w1_encode<P: Parameters>(w1: &[Poly], out: &mut [u8]) {
    let len = poly_bytes(P::W1_BITS);
    for (w1_i, chunk) in w1.iter().zip(out.chunks_exact_mut(len)) {
        simple_bit_pack(w1_i, P::W1_BITS, chunk);
    }
}
