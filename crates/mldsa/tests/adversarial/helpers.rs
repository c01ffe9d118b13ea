//! Shared by the checks: deterministic RNGs (and one that always fails), bit-level access to
//! the signature and expanded-key layouts, and the expected `Malformed` errors.

use std::convert::Infallible;

use mldsa::rand_core::{TryCryptoRng, TryRng};
use mldsa::{Error, Input, Malformed, ParameterSet, SEED_LEN, Signature, SigningKey};

/// xorshift64*: a tiny reproducible generator for the random-input tests.
pub(crate) struct XorShift(u64);

impl XorShift {
    pub(crate) fn new(seed: u64) -> Self {
        XorShift(seed | 1)
    }

    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform-ish in [0, n) (n > 0; the modulo bias is irrelevant here).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    pub(crate) fn fill(&mut self, out: &mut [u8]) {
        for chunk in out.chunks_mut(8) {
            let v = self.next_u64().to_le_bytes();
            chunk.copy_from_slice(&v[..chunk.len()]);
        }
    }

    pub(crate) fn bytes(&mut self, len: usize) -> Vec<u8> {
        let mut v = vec![0u8; len];
        self.fill(&mut v);
        v
    }
}

/// The same generator as a (non-cryptographic!) `TryCryptoRng`, for the RNG-taking APIs.
pub(crate) struct TestRng(XorShift);

impl TestRng {
    pub(crate) fn new(seed: u64) -> Self {
        TestRng(XorShift::new(seed))
    }
}

impl TryRng for TestRng {
    type Error = Infallible;

    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        Ok(self.0.next_u64() as u32)
    }

    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        Ok(self.0.next_u64())
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        self.0.fill(dst);
        Ok(())
    }
}

impl TryCryptoRng for TestRng {}

/// A generator that always fails.
pub(crate) struct FailingRng;

impl TryRng for FailingRng {
    type Error = std::io::Error;

    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        Err(std::io::Error::other("no entropy"))
    }

    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        Err(std::io::Error::other("no entropy"))
    }

    fn try_fill_bytes(&mut self, _dst: &mut [u8]) -> Result<(), Self::Error> {
        Err(std::io::Error::other("no entropy"))
    }
}

impl TryCryptoRng for FailingRng {}

pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Reads `width` bits at bit offset `bit` (little-endian bit order, as FIPS 204 packs).
pub(crate) fn read_bits(buf: &[u8], bit: usize, width: usize) -> u32 {
    (0..width).fold(0, |acc, i| {
        let b = bit + i;
        acc | ((u32::from(buf[b / 8]) >> (b % 8)) & 1) << i
    })
}

/// Writes `value` into `width` bits at bit offset `bit`.
pub(crate) fn write_bits(buf: &mut [u8], bit: usize, width: usize, value: u32) {
    assert!(width == 32 || value < 1 << width);
    for i in 0..width {
        let b = bit + i;
        let mask = 1u8 << (b % 8);
        if (value >> i) & 1 == 1 {
            buf[b / 8] |= mask;
        } else {
            buf[b / 8] &= !mask;
        }
    }
}

/// Bit offset of z[poly][coef] in a signature.
pub(crate) fn z_bit<P: ParameterSet>(poly: usize, coef: usize) -> usize {
    8 * P::C_TILDE_LEN + (poly * 256 + coef) * P::Z_BITS
}

pub(crate) fn get_z<P: ParameterSet>(sig: &[u8], poly: usize, coef: usize) -> i32 {
    P::GAMMA1 - read_bits(sig, z_bit::<P>(poly, coef), P::Z_BITS) as i32
}

pub(crate) fn set_z<P: ParameterSet>(sig: &mut [u8], poly: usize, coef: usize, z: i32) {
    write_bits(
        sig,
        z_bit::<P>(poly, coef),
        P::Z_BITS,
        (P::GAMMA1 - z) as u32,
    );
}

/// Byte offset of the hint section (omega indices, then k cut points).
pub(crate) fn hint_offset<P: ParameterSet>() -> usize {
    P::SIG_LEN - P::OMEGA - P::K
}

/// The hint indices per polynomial of a canonically encoded signature.
pub(crate) fn parse_hints<P: ParameterSet>(sig: &[u8]) -> Vec<Vec<u8>> {
    let y = &sig[hint_offset::<P>()..];
    let mut start = 0;
    (0..P::K)
        .map(|i| {
            let cut = usize::from(y[P::OMEGA + i]);
            let v = y[start..cut].to_vec();
            start = cut;
            v
        })
        .collect()
}

/// HintBitPack (FIPS 204 Algorithm 20) of per-polynomial index lists.
pub(crate) fn encode_hints<P: ParameterSet>(hints: &[Vec<u8>]) -> Vec<u8> {
    assert_eq!(hints.len(), P::K);
    let mut y = vec![0u8; P::OMEGA + P::K];
    let mut index = 0;
    for (i, h) in hints.iter().enumerate() {
        for &j in h {
            y[index] = j;
            index += 1;
        }
        y[P::OMEGA + i] = index as u8;
    }
    y
}

pub(crate) fn with_hint_bytes<P: ParameterSet>(sig: &[u8], y: &[u8]) -> Vec<u8> {
    let mut out = sig.to_vec();
    out[hint_offset::<P>()..].copy_from_slice(y);
    out
}

/// A random signature that passes strict decoding: random c-tilde, z uniform in the allowed
/// range, and a random canonical hint vector.
pub(crate) fn random_decodable_signature<P: ParameterSet>(rng: &mut XorShift) -> Vec<u8> {
    let mut sig = rng.bytes(P::SIG_LEN);
    let bound = (P::GAMMA1 - P::BETA) as usize;
    for poly in 0..P::L {
        for coef in 0..256 {
            let z = rng.below(2 * bound - 1) as i32 - (bound as i32 - 1);
            set_z::<P>(&mut sig, poly, coef, z);
        }
    }
    let mut budget = rng.below(P::OMEGA + 1);
    let hints: Vec<Vec<u8>> = (0..P::K)
        .map(|_| {
            let n = rng.below(budget + 1).min(256);
            budget -= n;
            let mut idx: Vec<u8> = (0..n).map(|_| rng.below(256) as u8).collect();
            idx.sort_unstable();
            idx.dedup();
            idx
        })
        .collect();
    with_hint_bytes::<P>(&sig, &encode_hints::<P>(&hints))
}

/// Byte offsets in the expanded key.
pub(crate) fn s1_offset() -> usize {
    128
}

pub(crate) fn s2_offset<P: ParameterSet>() -> usize {
    128 + P::L * 32 * P::ETA_BITS
}

pub(crate) fn t0_offset<P: ParameterSet>() -> usize {
    128 + (P::L + P::K) * 32 * P::ETA_BITS
}

/// A deterministic signature of a fixed key whose hints allow every non-canonical edit below:
/// some polynomial has at least two hints, fewer than omega hints in all, and some polynomial
/// other than the last has a hint.
pub(crate) fn signature_with_rich_hints<P: ParameterSet>() -> (SigningKey<P>, Vec<u8>, Signature<P>)
{
    let sk = SigningKey::<P>::from_seed(&[0x42; SEED_LEN]);
    for i in 0..1000u32 {
        let msg = format!("hint test message {i}").into_bytes();
        let sig = sk.sign_deterministic(&msg, b"").unwrap();
        let hints = parse_hints::<P>(sig.as_bytes());
        let total: usize = hints.iter().map(Vec::len).sum();
        if hints.iter().any(|h| h.len() >= 2)
            && total < P::OMEGA
            && hints[..P::K - 1].iter().any(|h| !h.is_empty())
        {
            return (sk, msg, sig);
        }
    }
    panic!("no signature with suitable hints found");
}

pub(crate) fn malformed_sig(what: Malformed) -> Error {
    Error::Malformed {
        input: Input::Signature,
        what,
    }
}

pub(crate) fn malformed_sk(what: Malformed) -> Error {
    Error::Malformed {
        input: Input::SigningKey,
        what,
    }
}
