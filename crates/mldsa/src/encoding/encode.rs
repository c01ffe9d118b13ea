//! Encodings of keys, signatures and w1 (FIPS 204 Algorithms 22-28), with strict decoding.

use crate::encoding::kernels::PackKernels;
use crate::encoding::pack::{
    bit_pack, hint_bit_pack, hint_bit_unpack, simple_bit_pack, simple_bit_unpack,
};
use crate::error::Malformed;
use crate::params::{D, Parameters, TR_LEN};
use crate::support::declassify::public;

use crate::math::poly::Poly;
use zeroize::Zeroize;

/// Bits per packed t1 coefficient: bitlen(q - 1) - d.
const T1_BITS: usize = 10;

/// Bytes of pk per polynomial of t1: SimpleBitPack of 256 10-bit coefficients.
pub(crate) const T1_ROW_BYTES: usize = 32 * T1_BITS;
/// t0 lies in [-(2^(d-1) - 1), 2^(d-1)], packed as 2^(d-1) - t0 in d bits.
const T0_B: i32 = 1 << (D - 1);

/// Bytes of one packed polynomial of `bits`-bit coefficients.
const fn poly_bytes(bits: usize) -> usize {
    32 * bits
}

// The two helpers below walk polynomials and their `len`-byte pieces with index arithmetic
// rather than `chunks_exact`, whose chunk count is a division: a hardware `div` at opt-level z.
// It would only divide public lengths, but the constant-time scan admits no `div` here at all.

/// Packs each polynomial into its piece of `bytes` with `f`.
fn pack_each(polys: &[Poly], bytes: &mut [u8], len: usize, mut f: impl FnMut(&Poly, &mut [u8])) {
    for (i, p) in polys.iter().enumerate() {
        f(p, &mut bytes[i * len..(i + 1) * len]);
    }
}

/// Unpacks each polynomial from its piece of `bytes` with `f`.
fn unpack_each(bytes: &[u8], polys: &mut [Poly], len: usize, mut f: impl FnMut(&[u8], &mut Poly)) {
    for (i, p) in polys.iter_mut().enumerate() {
        f(&bytes[i * len..(i + 1) * len], p);
    }
}

/// FIPS 204 Algorithm 22, pkEncode: rho || SimpleBitPack(t1[i], 2^10 - 1) for each i.
pub(crate) fn pk_encode(rho: &[u8; 32], t1: &[Poly], pk: &mut [u8]) {
    tick!(PkEncode, 1);
    pk[..32].copy_from_slice(rho);
    pack_each(t1, &mut pk[32..], poly_bytes(T1_BITS), |t1_i, chunk| {
        simple_bit_pack(t1_i, T1_BITS, chunk)
    });
}

/// pkEncode's part for row i of t1 (FIPS 204 Algorithm 22, step 2, one iteration): key
/// generation writes pk row by row as t1 is made. `out` is [`T1_ROW_BYTES`] bytes.
pub(crate) fn pk_encode_row(t1_i: &Poly, out: &mut [u8]) {
    simple_bit_pack(t1_i, T1_BITS, out);
}

#[cfg_attr(
    not(any(test, feature = "profile")),
    allow(dead_code, reason = "verification uses pk_decode_each_shifted")
)]
/// FIPS 204 Algorithm 23, pkDecode. Every encoding of the right length is valid.
///
/// The reference; verification decodes t1 with [`pk_decode_each_shifted`].
pub(crate) fn pk_decode(pk: &[u8], rho: &mut [u8; 32], t1: &mut [Poly]) {
    tick!(PkDecode, 1);
    rho.copy_from_slice(&pk[..32]);
    unpack_each(&pk[32..], t1, poly_bytes(T1_BITS), |chunk, t1_i| {
        simple_bit_unpack(chunk, T1_BITS, t1_i)
    });
}

/// [`pk_decode`] a polynomial at a time, for verification: writes rho and hands each t1_i,
/// times 2^d (the scaling of Alg. 8 step 10, made in the unpacking pass by `b`'s kernel), to
/// `put` with its index, in one buffer (no vector of t1 on the stack).
pub(crate) fn pk_decode_each_shifted<P: Parameters, B: PackKernels>(
    b: B,
    pk: &[u8],
    rho: &mut [u8; 32],
    mut put: impl FnMut(usize, &Poly),
) {
    tick!(PkDecode, 1);
    debug_assert_eq!(pk.len(), P::PK_LEN);
    rho.copy_from_slice(&pk[..32]);
    let len = poly_bytes(T1_BITS);
    let t1_bytes = &pk[32..];
    let mut t1 = Poly::ZERO;
    for i in 0..P::K {
        b.t1_unpack_shifted(&t1_bytes[i * len..(i + 1) * len], &mut t1);
        put(i, &t1);
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
    tick!(SkEncode, 1);
    let (head, rest) = sk.split_at_mut(64 + P::TR_BYTES);
    head[..32].copy_from_slice(parts.rho);
    head[32..64].copy_from_slice(parts.k);
    head[64..].copy_from_slice(parts.tr);
    let eta_len = poly_bytes(P::ETA_BITS);
    let (s1_bytes, rest) = rest.split_at_mut(P::L * eta_len);
    let (s2_bytes, t0_bytes) = rest.split_at_mut(P::K * eta_len);
    let pack_s = |s_i: &Poly, chunk: &mut [u8]| bit_pack(s_i, P::ETA, P::ETA_BITS, chunk);
    pack_each(parts.s1, s1_bytes, eta_len, pack_s);
    pack_each(parts.s2, s2_bytes, eta_len, pack_s);
    pack_each(parts.t0, t0_bytes, poly_bytes(D as usize), |t0_i, chunk| {
        bit_pack(t0_i, T0_B, D as usize, chunk)
    });
}

/// The vector of the secret key a polynomial belongs to (FIPS 204 Algorithm 25's outputs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SkVector {
    S1,
    S2,
    T0,
}

/// [`sk_decode`] a polynomial at a time, strict: s1 and s2 must lie in [-eta, eta] (every d-bit
/// t0 field is in range by construction). Writes rho, K and tr, and hands each polynomial of s1,
/// s2 and t0 to `put` (with its vector and index) as it is unpacked, in one buffer that is
/// wiped afterwards, so the caller keeps only the form it needs (one-shot signing transforms
/// each into the NTT domain straight away).
///
/// Constant time: the ranges are checked over every coefficient; only the verdict on a malformed
/// key is revealed.
pub(crate) fn sk_decode_each<P: Parameters, B: PackKernels>(
    b: B,
    sk: &[u8],
    rho: &mut [u8; 32],
    k: &mut [u8; 32],
    tr: &mut [u8; TR_LEN],
    mut put: impl FnMut(SkVector, usize, &Poly),
) -> Result<(), Malformed> {
    tick!(SkDecode, 1);
    rho.copy_from_slice(&sk[..32]);
    k.copy_from_slice(&sk[32..64]);
    // tr is 64 bytes in FIPS 204 and 32 in Dilithium v3.1; the rest of `tr` stays zero.
    tr[..P::TR_BYTES].copy_from_slice(&sk[64..64 + P::TR_BYTES]);
    let eta_len = poly_bytes(P::ETA_BITS);
    let t0_len = poly_bytes(D as usize);
    let (s1_bytes, rest) = sk[64 + P::TR_BYTES..].split_at(P::L * eta_len);
    let (s2_bytes, t0_bytes) = rest.split_at(P::K * eta_len);
    let max = 2 * P::ETA as u32;
    let mut p = Poly::ZERO;
    let mut bad_s1 = 0;
    for i in 0..P::L {
        bad_s1 |= b.bit_unpack_narrow(
            &s1_bytes[i * eta_len..(i + 1) * eta_len],
            P::ETA,
            P::ETA_BITS,
            max,
            &mut p,
        );
        put(SkVector::S1, i, &p);
    }
    let mut bad_s2 = 0;
    for i in 0..P::K {
        bad_s2 |= b.bit_unpack_narrow(
            &s2_bytes[i * eta_len..(i + 1) * eta_len],
            P::ETA,
            P::ETA_BITS,
            max,
            &mut p,
        );
        put(SkVector::S2, i, &p);
    }
    for i in 0..P::K {
        b.bit_unpack_narrow(
            &t0_bytes[i * t0_len..(i + 1) * t0_len],
            T0_B,
            D as usize,
            u32::MAX,
            &mut p,
        );
        put(SkVector::T0, i, &p);
    }
    p.zeroize();
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

#[allow(
    clippy::too_many_arguments,
    reason = "the backend and the six fields of the encoding, each written in place"
)]
/// FIPS 204 Algorithm 25, skDecode, strict (see [`sk_decode_each`]), into coefficient-form
/// vectors.
pub(crate) fn sk_decode<P: Parameters, B: PackKernels>(
    b: B,
    sk: &[u8],
    rho: &mut [u8; 32],
    k: &mut [u8; 32],
    tr: &mut [u8; TR_LEN],
    s1: &mut [Poly],
    s2: &mut [Poly],
    t0: &mut [Poly],
) -> Result<(), Malformed> {
    sk_decode_each::<P, B>(b, sk, rho, k, tr, |vector, i, p| match vector {
        SkVector::S1 => s1[i] = *p,
        SkVector::S2 => s2[i] = *p,
        SkVector::T0 => t0[i] = *p,
    })
}

/// FIPS 204 Algorithm 26, sigEncode: c-tilde || BitPack(z[i], gamma1 - 1, gamma1) || HintBitPack(h).
pub(crate) fn sig_encode<P: Parameters, B: PackKernels>(
    b: B,
    c_tilde: &[u8],
    z: &[Poly],
    h: &[Poly],
    sig: &mut [u8],
) {
    tick!(SigEncode, 1);
    let (ct, rest) = sig.split_at_mut(P::C_TILDE_LEN);
    ct.copy_from_slice(c_tilde);
    let z_len = poly_bytes(P::Z_BITS);
    let (z_bytes, h_bytes) = rest.split_at_mut(P::L * z_len);
    pack_each(z, z_bytes, z_len, |z_i, chunk| {
        b.bit_pack_z::<P>(z_i, chunk)
    });
    hint_bit_pack::<P, B>(b, h, h_bytes);
}

/// FIPS 204 Algorithm 27, sigDecode, strict: canonical hints (see `hint_bit_unpack`) and, as
/// verification would require anyway, ||z||_inf < gamma1 - beta.
///
/// z is handed to `each(i, z_i)` a polynomial at a time, from one buffer: verification needs
/// only NTT(z) and `Signature::from_bytes` only the checks, so neither holds (and zeroes) all
/// of z. The hints are decoded into `h` first, so a malformed hint is reported before a z out
/// of range, as when z was decoded whole; `each` sees every z_i before the range error.
pub(crate) fn sig_decode<P: Parameters, B: PackKernels>(
    b: B,
    sig: &[u8],
    c_tilde: &mut [u8],
    h: &mut [Poly],
    mut each: impl FnMut(usize, &Poly),
) -> Result<(), Malformed> {
    tick!(SigDecode, 1);
    let (ct, rest) = sig.split_at(P::C_TILDE_LEN);
    c_tilde.copy_from_slice(ct);
    let z_len = poly_bytes(P::Z_BITS);
    let (z_bytes, h_bytes) = rest.split_at(P::L * z_len);
    hint_bit_unpack::<P>(h_bytes, h)?;
    let (mut z_i, mut exceeds) = (Poly::ZERO, 0);
    for i in 0..P::L {
        b.bit_unpack_z::<P>(&z_bytes[i * z_len..(i + 1) * z_len], &mut z_i);
        exceeds |= b.vec_exceeds(core::slice::from_ref(&z_i), P::GAMMA1 - P::BETA);
        each(i, &z_i);
    }
    if exceeds != 0 {
        return Err(Malformed::ZOutOfRange);
    }
    Ok(())
}

/// FIPS 204 Algorithm 28, w1Encode: SimpleBitPack(w1[i], (q-1)/(2 gamma2) - 1) for each i.
pub(crate) fn w1_encode<P: Parameters>(w1: &[Poly], out: &mut [u8]) {
    tick!(W1Encode, w1.len());
    let len = poly_bytes(P::W1_BITS);
    pack_each(w1, out, len, |w1_i, chunk| {
        simple_bit_pack(w1_i, P::W1_BITS, chunk)
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::{MlDsa44, MlDsa87, PolyVec};

    /// The provided (portable) kernels.
    #[derive(Clone, Copy)]
    struct Reference;
    impl PackKernels for Reference {}

    fn check_pk_decode_each_shifted<P: Parameters>() {
        let pk: std::vec::Vec<u8> = (0..P::PK_LEN).map(|i| (i * 181 + i / 7) as u8).collect();
        let (mut rho, mut rho2) = ([0u8; 32], [0u8; 32]);
        let mut t1 = P::VecK::zeroed();
        pk_decode(&pk, &mut rho, t1.as_mut());
        let mut seen = 0;
        pk_decode_each_shifted::<P, _>(Reference, &pk, &mut rho2, |i, t1_i| {
            assert_eq!(i, seen);
            seen += 1;
            assert!(t1_i.0 == t1.as_ref()[i].0.map(|c| c << D), "t1 * 2^d");
        });
        assert_eq!((seen, rho), (P::K, rho2));
    }

    #[test]
    fn pk_decode_each_shifted_is_pk_decode_times_2_to_the_d() {
        check_pk_decode_each_shifted::<MlDsa44>();
        check_pk_decode_each_shifted::<MlDsa87>();
    }
}
