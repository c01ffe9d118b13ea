//! The secrets, derived here independently of the library: rho', K and rho'' from the seed with
//! RustCrypto's `shake`, s1, s2 and t0 decoded from the exported expanded key, and the needles
//! built from them.

use shake::digest::{ExtendableOutput, Update, XofReader};
use zeroize::{Zeroize, Zeroizing};

use crate::needles::*;

/// A heap buffer of secrets that the harness holds, wiped before it is freed (zeroize's own
/// `Vec` support needs its `alloc` feature, which the library does not turn on).
pub(crate) struct Wiped<T: Zeroize>(pub(crate) Vec<T>);

impl<T: Zeroize> Drop for Wiped<T> {
    fn drop(&mut self) {
        self.0.iter_mut().for_each(Zeroize::zeroize);
    }
}

impl<T: Zeroize> std::ops::Deref for Wiped<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        &self.0
    }
}

pub(crate) fn shake256(parts: &[&[u8]], out: &mut [u8]) {
    let mut h = shake::Shake256::default();
    for p in parts {
        h.update(p);
    }
    h.finalize_xof().read(out);
}

/// FIPS 204 Algorithm 19, BitUnpack, for `b - x` packings (Algorithms 25 and 17): the
/// `bits`-bit fields of `v`, little-endian, each mapped to b - field.
pub(crate) fn bit_unpack(v: &[u8], bits: usize, b: i64) -> Wiped<[i64; 256]> {
    let mut polys = Wiped(Vec::with_capacity(v.len() / (32 * bits)));
    for chunk in v.chunks_exact(32 * bits) {
        let mut p = [0i64; 256];
        for (i, c) in p.iter_mut().enumerate() {
            let mut x = 0i64;
            for j in 0..bits {
                let bit = i * bits + j;
                x |= ((chunk[bit / 8] >> (bit % 8)) & 1) as i64 * (1 << j);
            }
            *c = b - x;
        }
        polys.0.push(p);
    }
    polys
}

/// The shape of a parameter set, as far as the secrets' layout goes.
#[derive(Clone, Copy)]
pub(crate) struct Shape {
    pub(crate) k: usize,
    pub(crate) l: usize,
    pub(crate) eta: i64,
    /// 64 for ML-DSA, 32 for Dilithium v3.1.
    pub(crate) tr_len: usize,
    /// Dilithium v3.1 expands H(xi), without (k, l).
    pub(crate) legacy: bool,
}

/// rho' (bytes 32..96) and K (96..128) of the seed expansion, computed here.
pub(crate) fn expand_seed(shape: Shape, xi: &[u8; 32]) -> Zeroizing<[u8; 128]> {
    let mut out = Zeroizing::new([0u8; 128]);
    if shape.legacy {
        shake256(&[xi], out.as_mut());
    } else {
        shake256(&[xi, &[shape.k as u8, shape.l as u8]], out.as_mut());
    }
    out
}

/// Every needle of the key with seed `xi` and expanded encoding `sk`, plus the rho'' values of
/// the signatures the operations make.
pub(crate) fn needles(shape: Shape, xi: &[u8; 32], sk: &[u8], rho_pps: &[[u8; 64]]) -> Needles {
    let seed = expand_seed(shape, xi);
    assert_eq!(
        &sk[..32],
        &seed[..32],
        "rho: the library's key is not H(xi)'s"
    );
    assert_eq!(
        &sk[32..64],
        &seed[96..],
        "K: the library's key is not H(xi)'s"
    );
    let mut b = NeedleBuilder::default();
    b.string(Secret::Seed, xi);
    b.string(Secret::RhoPrime, &seed[32..96]);
    b.string(Secret::K, &seed[96..]);
    for rho_pp in rho_pps {
        b.string(Secret::RhoPP, rho_pp);
    }
    let eta_bits = if shape.eta == 2 { 3 } else { 4 };
    let rest = &sk[64 + shape.tr_len..];
    let (s1_bytes, rest) = rest.split_at(shape.l * 32 * eta_bits);
    let (s2_bytes, t0_bytes) = rest.split_at(shape.k * 32 * eta_bits);
    assert_eq!(t0_bytes.len(), shape.k * 32 * 13, "sk length");
    b.packed(Secret::S1, s1_bytes);
    b.packed(Secret::S2, s2_bytes);
    b.packed(Secret::T0, t0_bytes);
    b.poly_vec(Secret::S1, &bit_unpack(s1_bytes, eta_bits, shape.eta));
    b.poly_vec(Secret::S2, &bit_unpack(s2_bytes, eta_bits, shape.eta));
    b.poly_vec(Secret::T0, &bit_unpack(t0_bytes, 13, 1 << 12));
    b.finish()
}
