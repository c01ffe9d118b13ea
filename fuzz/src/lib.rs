//! Shared code for the `mldsa` fuzz targets (FZ-1).
//!
//! - [`Set`] / [`Spec`]: the three ML-DSA parameter sets with the numbers of FIPS 204 Tables 1
//!   and 2, written out here rather than read from the library, so the reference code below does
//!   not inherit a library mistake.
//! - Spec-literal reference codecs (BitPack/BitUnpack, HintBitPack/HintBitUnpack, sigDecode with
//!   the library's documented extra check ||z||_inf < gamma1 - beta, the s1/s2 range check of
//!   skDecode). Slow and obvious on purpose: the targets compare the library against them.
//! - The byte layouts of the structured inputs ([`VerifyInput`], [`SignInput`], [`HintInput`]),
//!   with encoders that `examples/gen_corpus.rs` uses to write the seed corpus.
//!
//! Every target picks the parameter set from its first input byte ([`Set::from_byte`]).

use shake::Shake256;
use shake::digest::{ExtendableOutput, Update, XofReader};

/// An ML-DSA parameter set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Set {
    /// ML-DSA-44.
    MlDsa44,
    /// ML-DSA-65.
    MlDsa65,
    /// ML-DSA-87.
    MlDsa87,
}

/// The parameters of a set that the reference codecs need (FIPS 204 Tables 1 and 2).
#[derive(Clone, Copy, Debug)]
pub struct Spec {
    pub k: usize,
    pub l: usize,
    pub eta: u32,
    pub beta: u32,
    pub gamma1: u32,
    pub omega: usize,
    /// lambda / 4: length of c-tilde in bytes.
    pub c_tilde_len: usize,
    pub pk_len: usize,
    pub sk_len: usize,
    pub sig_len: usize,
}

impl Set {
    /// All three sets, in the order of [`Set::from_byte`].
    pub const ALL: [Set; 3] = [Set::MlDsa44, Set::MlDsa65, Set::MlDsa87];

    /// The set chosen by a fuzz input's first byte (`b % 3`).
    pub fn from_byte(b: u8) -> Set {
        Set::ALL[usize::from(b % 3)]
    }

    /// The canonical first byte selecting this set.
    pub fn to_byte(self) -> u8 {
        match self {
            Set::MlDsa44 => 0,
            Set::MlDsa65 => 1,
            Set::MlDsa87 => 2,
        }
    }

    /// A short name for file names and messages.
    pub fn name(self) -> &'static str {
        match self {
            Set::MlDsa44 => "44",
            Set::MlDsa65 => "65",
            Set::MlDsa87 => "87",
        }
    }

    /// FIPS 204 Table 1 (k, l, eta, beta, gamma1, omega, lambda) and Table 2 (sizes).
    pub const fn spec(self) -> Spec {
        match self {
            Set::MlDsa44 => Spec {
                k: 4,
                l: 4,
                eta: 2,
                beta: 78,
                gamma1: 1 << 17,
                omega: 80,
                c_tilde_len: 32,
                pk_len: 1312,
                sk_len: 2560,
                sig_len: 2420,
            },
            Set::MlDsa65 => Spec {
                k: 6,
                l: 5,
                eta: 4,
                beta: 196,
                gamma1: 1 << 19,
                omega: 55,
                c_tilde_len: 48,
                pk_len: 1952,
                sk_len: 4032,
                sig_len: 3309,
            },
            Set::MlDsa87 => Spec {
                k: 8,
                l: 7,
                eta: 2,
                beta: 120,
                gamma1: 1 << 19,
                omega: 75,
                c_tilde_len: 64,
                pk_len: 2592,
                sk_len: 4896,
                sig_len: 4627,
            },
        }
    }
}

/// Calls `$f::<P>(args...)` with `P` the library type of `$set`.
#[macro_export]
macro_rules! with_set {
    ($set:expr, $f:ident($($arg:expr),* $(,)?)) => {
        match $set {
            $crate::Set::MlDsa44 => $f::<mldsa::MlDsa44>($($arg),*),
            $crate::Set::MlDsa65 => $f::<mldsa::MlDsa65>($($arg),*),
            $crate::Set::MlDsa87 => $f::<mldsa::MlDsa87>($($arg),*),
        }
    };
}

/// bitlen(x): the number of bits in the binary representation of x (FIPS 204 section 2.3).
pub fn bitlen(x: u32) -> usize {
    (32 - x.leading_zeros()) as usize
}

/// FIPS 204 Algorithm 17, BitPack: coefficients in [-a, b], each stored as b - w in
/// bitlen(a + b) bits, little-endian bit order.
pub fn bit_pack(w: &[i32], a: u32, b: u32) -> Vec<u8> {
    let c = bitlen(a + b);
    let mut bits = Vec::with_capacity(w.len() * c);
    for &wi in w {
        let v = i64::from(b) - i64::from(wi);
        assert!(
            (0..=i64::from(a) + i64::from(b)).contains(&v),
            "bit_pack: {wi} outside [-{a}, {b}]"
        );
        for j in 0..c {
            bits.push(((v >> j) & 1) as u8);
        }
    }
    bits_to_bytes(&bits)
}

/// FIPS 204 Algorithm 19, BitUnpack: the inverse of [`bit_pack`] (it does not range-check; with
/// a + b + 1 not a power of two, out-of-range values come back as they are).
pub fn bit_unpack(v: &[u8], n: usize, a: u32, b: u32) -> Vec<i32> {
    let c = bitlen(a + b);
    assert_eq!(v.len() * 8, n * c, "bit_unpack: wrong input length");
    let bits = bytes_to_bits(v);
    (0..n)
        .map(|i| {
            let mut x: i64 = 0;
            for j in 0..c {
                x += i64::from(bits[i * c + j]) << j;
            }
            (i64::from(b) - x) as i32
        })
        .collect()
}

/// FIPS 204 Algorithm 12, BitsToBytes.
pub fn bits_to_bytes(y: &[u8]) -> Vec<u8> {
    let mut z = vec![0u8; y.len().div_ceil(8)];
    for (i, &bit) in y.iter().enumerate() {
        z[i / 8] += bit << (i % 8);
    }
    z
}

/// FIPS 204 Algorithm 13, BytesToBits.
pub fn bytes_to_bits(z: &[u8]) -> Vec<u8> {
    let mut y = Vec::with_capacity(z.len() * 8);
    for &byte in z {
        for j in 0..8 {
            y.push((byte >> j) & 1);
        }
    }
    y
}

/// A hint vector: for each of the k polynomials, which of its 256 coefficients are 1.
pub type Hints = Vec<[bool; 256]>;

/// FIPS 204 Algorithm 20, HintBitPack. `h` must have at most omega ones in total.
pub fn hint_bit_pack(h: &Hints, omega: usize) -> Vec<u8> {
    let k = h.len();
    let mut y = vec![0u8; omega + k];
    let mut index = 0usize;
    for (i, hi) in h.iter().enumerate() {
        for (j, &bit) in hi.iter().enumerate() {
            if bit {
                y[index] = j as u8;
                index += 1;
            }
        }
        y[omega + i] = index as u8;
    }
    y
}

/// FIPS 204 Algorithm 21, HintBitUnpack, line by line; `None` is the spec's "bottom".
pub fn hint_bit_unpack(y: &[u8], k: usize, omega: usize) -> Option<Hints> {
    assert_eq!(y.len(), omega + k, "hint_bit_unpack: wrong input length");
    let mut h = vec![[false; 256]; k];
    let mut index = 0usize;
    for (i, hi) in h.iter_mut().enumerate() {
        let cut = usize::from(y[omega + i]);
        if cut < index || cut > omega {
            return None;
        }
        let first = index;
        while index < cut {
            if index > first && y[index - 1] >= y[index] {
                return None;
            }
            hi[usize::from(y[index])] = true;
            index += 1;
        }
    }
    if y[index..omega].iter().any(|&b| b != 0) {
        return None;
    }
    Some(h)
}

/// A decoded signature: c-tilde, z (l polynomials) and h.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefSig {
    pub c_tilde: Vec<u8>,
    pub z: Vec<Vec<i32>>,
    pub h: Hints,
}

/// The library's documented acceptance rule for signature bytes: FIPS 204 Algorithm 27
/// (sigDecode, returning bottom on a malformed hint encoding) on input of exactly `sig_len`
/// bytes, plus the verifier's norm check ||z||_inf < gamma1 - beta moved into decoding.
pub fn sig_decode(spec: &Spec, bytes: &[u8]) -> Option<RefSig> {
    if bytes.len() != spec.sig_len {
        return None;
    }
    let z_len = 32 * bitlen(2 * spec.gamma1 - 1);
    let (c_tilde, rest) = bytes.split_at(spec.c_tilde_len);
    let (z_bytes, h_bytes) = rest.split_at(spec.l * z_len);
    let z: Vec<Vec<i32>> = z_bytes
        .chunks(z_len)
        .map(|chunk| bit_unpack(chunk, 256, spec.gamma1 - 1, spec.gamma1))
        .collect();
    let h = hint_bit_unpack(h_bytes, spec.k, spec.omega)?;
    let bound = i64::from(spec.gamma1 - spec.beta);
    if z.iter().flatten().any(|&c| i64::from(c).abs() >= bound) {
        return None;
    }
    Some(RefSig {
        c_tilde: c_tilde.to_vec(),
        z,
        h,
    })
}

/// FIPS 204 Algorithm 26, sigEncode.
pub fn sig_encode(spec: &Spec, sig: &RefSig) -> Vec<u8> {
    let mut out = sig.c_tilde.clone();
    for zi in &sig.z {
        out.extend(bit_pack(zi, spec.gamma1 - 1, spec.gamma1));
    }
    out.extend(hint_bit_pack(&sig.h, spec.omega));
    out
}

/// The "z edits" mode of `sig_decode` (first byte >= 3): starting from a valid signature, each
/// 3-byte record `[u16 position] [i8 offset]` sets one coefficient of z to
/// +-(gamma1 - beta) + offset (sign from the position's top bit, position mod 256 l), clamped
/// to the encodable range [-gamma1 + 1, gamma1], and the result is encoded with the reference
/// sigEncode. Random byte mutations almost never land a packed 18- or 20-bit field exactly on
/// the norm bound; this mode puts the boundary (bug class 6, Wycheproof's BoundaryCondition)
/// within one mutation.
pub fn apply_z_edits(spec: &Spec, base: &[u8], edits: &[u8]) -> Vec<u8> {
    let mut sig = sig_decode(spec, base).expect("z edits need a valid base signature");
    let bound = i64::from(spec.gamma1 - spec.beta);
    let (lo, hi) = (1 - i64::from(spec.gamma1), i64::from(spec.gamma1));
    for e in edits.chunks_exact(3) {
        let pos = u16::from_le_bytes([e[0], e[1]]);
        let i = usize::from(pos & 0x7fff) % (spec.l * 256);
        let sign = if pos & 0x8000 != 0 { -1 } else { 1 };
        let v = (sign * bound + i64::from(e[2] as i8)).clamp(lo, hi);
        sig.z[i / 256][i % 256] = v as i32;
    }
    sig_encode(spec, &sig)
}

/// Where the hint block (omega + k bytes) starts in an encoded signature.
pub fn hint_offset(spec: &Spec) -> usize {
    spec.sig_len - spec.omega - spec.k
}

/// The s1/s2 part of skDecode (FIPS 204 Algorithm 25): `true` iff every coefficient of s1 and
/// s2 lies in [-eta, eta]. Assumes `sk.len() == sk_len`.
pub fn sk_ranges_ok(spec: &Spec, sk: &[u8]) -> bool {
    let eta_len = 32 * bitlen(2 * spec.eta);
    let s = &sk[128..128 + (spec.l + spec.k) * eta_len];
    s.chunks(eta_len)
        .flat_map(|chunk| bit_unpack(chunk, 256, spec.eta, spec.eta))
        .all(|c| i64::from(c).abs() <= i64::from(spec.eta))
}

/// SHAKE256 of the concatenation of `parts`, `n` bytes (from the `shake` crate, not the library).
pub fn shake256(parts: &[&[u8]], n: usize) -> Vec<u8> {
    let mut h = Shake256::default();
    for p in parts {
        h.update(p);
    }
    let mut out = vec![0u8; n];
    h.finalize_xof().read(&mut out);
    out
}

/// Reads a fuzz input front to back; running out of bytes yields short or empty pieces, never a
/// panic.
pub struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Reader(data)
    }

    pub fn u8(&mut self) -> u8 {
        self.take(1).first().copied().unwrap_or(0)
    }

    pub fn u16(&mut self) -> u16 {
        let b = self.take(2);
        let mut le = [0u8; 2];
        le[..b.len()].copy_from_slice(b);
        u16::from_le_bytes(le)
    }

    /// Up to `n` bytes (fewer if the input ends).
    pub fn take(&mut self, n: usize) -> &'a [u8] {
        let (a, b) = self.0.split_at(n.min(self.0.len()));
        self.0 = b;
        a
    }

    /// Exactly `N` bytes, zero-padded if the input ends.
    pub fn array<const N: usize>(&mut self) -> [u8; N] {
        let mut out = [0u8; N];
        let b = self.take(N);
        out[..b.len()].copy_from_slice(b);
        out
    }

    /// A piece preceded by its u16 little-endian length.
    pub fn chunk(&mut self) -> &'a [u8] {
        let n = usize::from(self.u16());
        self.take(n)
    }

    pub fn rest(&mut self) -> &'a [u8] {
        self.take(self.0.len())
    }
}

fn push_chunk(out: &mut Vec<u8>, piece: &[u8]) {
    let n = u16::try_from(piece.len()).expect("piece longer than 65535 bytes");
    out.extend_from_slice(&n.to_le_bytes());
    out.extend_from_slice(piece);
}

/// `verify` input: `[set] [u16 len, pk] [u16 len, sig] [u16 len, ctx] [msg ...]`; the lengths
/// are free, so wrong-length keys and signatures and contexts over 255 bytes are all reachable.
#[derive(Debug)]
pub struct VerifyInput<'a> {
    pub set: Set,
    pub pk: &'a [u8],
    pub sig: &'a [u8],
    pub ctx: &'a [u8],
    pub msg: &'a [u8],
}

impl<'a> VerifyInput<'a> {
    pub fn parse(data: &'a [u8]) -> Self {
        let mut r = Reader::new(data);
        let set = Set::from_byte(r.u8());
        VerifyInput {
            set,
            pk: r.chunk(),
            sig: r.chunk(),
            ctx: r.chunk(),
            msg: r.rest(),
        }
    }

    pub fn encode(&self) -> Vec<u8> {
        let mut out = vec![self.set.to_byte()];
        push_chunk(&mut out, self.pk);
        push_chunk(&mut out, self.sig);
        push_chunk(&mut out, self.ctx);
        out.extend_from_slice(self.msg);
        out
    }
}

/// `sign_roundtrip` input: `[set] [seed: 32] [rnd: 32] [u16 flip] [u16 len, ctx] [msg ...]`.
/// `flip` picks the signature bit that is flipped for the negative check.
#[derive(Debug)]
pub struct SignInput<'a> {
    pub set: Set,
    pub seed: [u8; 32],
    pub rnd: [u8; 32],
    pub flip: u16,
    pub ctx: &'a [u8],
    pub msg: &'a [u8],
}

impl<'a> SignInput<'a> {
    pub fn parse(data: &'a [u8]) -> Self {
        let mut r = Reader::new(data);
        SignInput {
            set: Set::from_byte(r.u8()),
            seed: r.array(),
            rnd: r.array(),
            flip: r.u16(),
            ctx: r.chunk(),
            msg: r.rest(),
        }
    }

    pub fn encode(&self) -> Vec<u8> {
        let mut out = vec![self.set.to_byte()];
        out.extend_from_slice(&self.seed);
        out.extend_from_slice(&self.rnd);
        out.extend_from_slice(&self.flip.to_le_bytes());
        push_chunk(&mut out, self.ctx);
        out.extend_from_slice(self.msg);
        out
    }
}

/// `hint_roundtrip` input: `[set] [mode] [body ...]`. By `mode % 4`:
///
/// - 0, "raw": the first omega + k bytes of the body (zero-padded) are the hint block.
/// - 1 and 3, "structured": the body is a list of (polynomial, coefficient) byte pairs, the
///   positions of the ones of a hint vector (polynomial taken mod k), which the reference
///   HintBitPack encodes when there are at most omega distinct ones.
/// - 2, "counts": near-canonical blocks with adversarial counts. The body gives the k count
///   bytes (any value, also above omega or decreasing) and then the omega index bytes; each
///   polynomial's index run (as far as it lies below omega) is sorted and, unless bit 3 of mode
///   is set, made strictly increasing where it can be; the bytes after the last run are zeroed
///   unless bit 2 of mode is set. Random bytes almost never form long increasing runs, so
///   without this mode the count checks are hard to reach.
#[derive(Debug)]
pub struct HintInput<'a> {
    pub set: Set,
    pub mode: u8,
    pub body: &'a [u8],
}

impl<'a> HintInput<'a> {
    pub fn parse(data: &'a [u8]) -> Self {
        let mut r = Reader::new(data);
        HintInput {
            set: Set::from_byte(r.u8()),
            mode: r.u8(),
            body: r.rest(),
        }
    }

    pub fn encode(&self) -> Vec<u8> {
        let mut out = vec![self.set.to_byte(), self.mode];
        out.extend_from_slice(self.body);
        out
    }

    /// The hint block this input describes, or `None` for a structured input with more than
    /// omega ones (which has no encoding).
    pub fn hint_block(&self, spec: &Spec) -> Option<Vec<u8>> {
        let (k, omega) = (spec.k, spec.omega);
        match self.mode % 4 {
            0 => {
                let mut block = vec![0u8; omega + k];
                let n = self.body.len().min(block.len());
                block[..n].copy_from_slice(&self.body[..n]);
                Some(block)
            }
            2 => Some(self.counts_block(k, omega)),
            _ => {
                let mut h = vec![[false; 256]; k];
                for pair in self.body.chunks_exact(2) {
                    h[usize::from(pair[0]) % k][usize::from(pair[1])] = true;
                }
                let ones = h.iter().flatten().filter(|&&b| b).count();
                (ones <= omega).then(|| hint_bit_pack(&h, omega))
            }
        }
    }

    /// Mode 2: counts from the input, index runs sorted (see the type's documentation).
    fn counts_block(&self, k: usize, omega: usize) -> Vec<u8> {
        let mut block = vec![0u8; omega + k];
        let mut r = Reader::new(self.body);
        let counts = r.take(k);
        block[omega..omega + counts.len()].copy_from_slice(counts);
        let idx = r.take(omega);
        block[..idx.len()].copy_from_slice(idx);
        let mut start = 0usize;
        for i in 0..k {
            let end = usize::from(block[omega + i]).min(omega);
            if end > start {
                let run = &mut block[start..end];
                run.sort_unstable();
                if self.mode & 8 == 0 {
                    for j in 1..run.len() {
                        if run[j] <= run[j - 1] {
                            run[j] = run[j - 1].saturating_add(1);
                        }
                    }
                }
                start = end;
            }
        }
        if self.mode & 4 == 0 {
            block[start..omega].fill(0);
        }
        block
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hint_codec_round_trips_and_rejects_the_known_bad_encodings() {
        let spec = Set::MlDsa44.spec();
        let mut h = vec![[false; 256]; spec.k];
        h[0][3] = true;
        h[0][200] = true;
        h[2][0] = true;
        let y = hint_bit_pack(&h, spec.omega);
        assert_eq!(hint_bit_unpack(&y, spec.k, spec.omega), Some(h));
        // Repeated index (the RustCrypto CVE-2026-24850 class).
        let mut bad = y.clone();
        bad[1] = bad[0];
        assert_eq!(hint_bit_unpack(&bad, spec.k, spec.omega), None);
        // Non-zero padding.
        let mut bad = y.clone();
        bad[spec.omega - 1] = 1;
        assert_eq!(hint_bit_unpack(&bad, spec.k, spec.omega), None);
        // Count above omega.
        let mut bad = y;
        bad[spec.omega + spec.k - 1] = spec.omega as u8 + 1;
        assert_eq!(hint_bit_unpack(&bad, spec.k, spec.omega), None);
    }

    #[test]
    fn spec_sizes_add_up() {
        for set in Set::ALL {
            let s = set.spec();
            let z = 32 * bitlen(2 * s.gamma1 - 1);
            assert_eq!(s.sig_len, s.c_tilde_len + s.l * z + s.omega + s.k);
            let eta = 32 * bitlen(2 * s.eta);
            assert_eq!(s.sk_len, 128 + (s.l + s.k) * eta + s.k * 32 * 13);
            assert_eq!(s.pk_len, 32 + s.k * 32 * 10);
        }
    }
}
