//! Adversarial inputs: hand-made non-canonical encodings, boundary values, random garbage, and
//! checks that errors are informative without leaking secrets.
//!
//! Byte layouts used here (FIPS 204 Algorithms 22-27):
//!
//! - signature = c-tilde (lambda/4 bytes) || z (l polynomials, `Z_BITS` bits per coefficient,
//!   each stored as gamma1 - z, little-endian bit order) || hints (omega index bytes, then k
//!   cut points);
//! - expanded key = rho (32) || K (32) || tr (64) || s1 (l polynomials, `ETA_BITS` bits, stored
//!   as eta - s) || s2 (k polynomials, same) || t0 (k polynomials, 13 bits, stored as
//!   2^12 - t0).
//!
//! Every generic check is instantiated per parameter set at the bottom of the file.

use std::convert::Infallible;
use std::fmt::Debug;
use std::panic::{AssertUnwindSafe, catch_unwind};

use mldsa::rand_core::{TryCryptoRng, TryRng};
use mldsa::signature::{
    Keypair, MultipartSigner, MultipartVerifier, RandomizedSigner, SignatureEncoding, Signer,
    Verifier,
};
use mldsa::{
    Error, Input, Malformed, MlDsa44, MlDsa65, MlDsa87, MuBuilder, ParameterSet, PreHash,
    PreHashed, SEED_LEN, Signature, SigningKey, VerifyingKey,
};

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/// xorshift64*: a tiny reproducible generator for the random-input tests.
struct XorShift(u64);

impl XorShift {
    fn new(seed: u64) -> Self {
        XorShift(seed | 1)
    }

    fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform-ish in [0, n) (n > 0; the modulo bias is irrelevant here).
    fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    fn fill(&mut self, out: &mut [u8]) {
        for chunk in out.chunks_mut(8) {
            let v = self.next_u64().to_le_bytes();
            chunk.copy_from_slice(&v[..chunk.len()]);
        }
    }

    fn bytes(&mut self, len: usize) -> Vec<u8> {
        let mut v = vec![0u8; len];
        self.fill(&mut v);
        v
    }
}

/// The same generator as a (non-cryptographic!) `TryCryptoRng`, for the RNG-taking APIs.
struct TestRng(XorShift);

impl TestRng {
    fn new(seed: u64) -> Self {
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
struct FailingRng;

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

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Reads `width` bits at bit offset `bit` (little-endian bit order, as FIPS 204 packs).
fn read_bits(buf: &[u8], bit: usize, width: usize) -> u32 {
    (0..width).fold(0, |acc, i| {
        let b = bit + i;
        acc | ((u32::from(buf[b / 8]) >> (b % 8)) & 1) << i
    })
}

/// Writes `value` into `width` bits at bit offset `bit`.
fn write_bits(buf: &mut [u8], bit: usize, width: usize, value: u32) {
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
fn z_bit<P: ParameterSet>(poly: usize, coef: usize) -> usize {
    8 * P::C_TILDE_LEN + (poly * 256 + coef) * P::Z_BITS
}

fn get_z<P: ParameterSet>(sig: &[u8], poly: usize, coef: usize) -> i32 {
    P::GAMMA1 - read_bits(sig, z_bit::<P>(poly, coef), P::Z_BITS) as i32
}

fn set_z<P: ParameterSet>(sig: &mut [u8], poly: usize, coef: usize, z: i32) {
    write_bits(
        sig,
        z_bit::<P>(poly, coef),
        P::Z_BITS,
        (P::GAMMA1 - z) as u32,
    );
}

/// Byte offset of the hint section (omega indices, then k cut points).
fn hint_offset<P: ParameterSet>() -> usize {
    P::SIG_LEN - P::OMEGA - P::K
}

/// The hint indices per polynomial of a canonically encoded signature.
fn parse_hints<P: ParameterSet>(sig: &[u8]) -> Vec<Vec<u8>> {
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
fn encode_hints<P: ParameterSet>(hints: &[Vec<u8>]) -> Vec<u8> {
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

fn with_hint_bytes<P: ParameterSet>(sig: &[u8], y: &[u8]) -> Vec<u8> {
    let mut out = sig.to_vec();
    out[hint_offset::<P>()..].copy_from_slice(y);
    out
}

/// A random signature that passes strict decoding: random c-tilde, z uniform in the allowed
/// range, and a random canonical hint vector.
fn random_decodable_signature<P: ParameterSet>(rng: &mut XorShift) -> Vec<u8> {
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
fn s1_offset() -> usize {
    128
}

fn s2_offset<P: ParameterSet>() -> usize {
    128 + P::L * 32 * P::ETA_BITS
}

fn t0_offset<P: ParameterSet>() -> usize {
    128 + (P::L + P::K) * 32 * P::ETA_BITS
}

/// A deterministic signature of a fixed key whose hints allow every non-canonical edit below:
/// some polynomial has at least two hints, fewer than omega hints in all, and some polynomial
/// other than the last has a hint.
fn signature_with_rich_hints<P: ParameterSet>() -> (SigningKey<P>, Vec<u8>, Signature<P>) {
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

fn malformed_sig(what: Malformed) -> Error {
    Error::Malformed {
        input: Input::Signature,
        what,
    }
}

fn malformed_sk(what: Malformed) -> Error {
    Error::Malformed {
        input: Input::SigningKey,
        what,
    }
}

// ---------------------------------------------------------------------------------------------
// Strict signature decoding: hints
// ---------------------------------------------------------------------------------------------

/// The test-side HintBitPack reproduces the library's hint bytes, so the edits below start from
/// a correct picture of the layout.
fn hint_layout_matches<P: ParameterSet>() {
    let sk = SigningKey::<P>::from_seed(&[1; SEED_LEN]);
    let mut total_hints = 0;
    for i in 0..20u8 {
        let sig = sk.sign_deterministic(&[i], b"layout").unwrap();
        let hints = parse_hints::<P>(sig.as_bytes());
        for h in &hints {
            assert!(h.windows(2).all(|w| w[0] < w[1]), "indices increase");
        }
        total_hints += hints.iter().map(Vec::len).sum::<usize>();
        let y = encode_hints::<P>(&hints);
        assert_eq!(&sig.as_bytes()[hint_offset::<P>()..], &y[..]);
    }
    assert!(total_hints > 0, "signatures carry hints");
}

fn non_canonical_hints_rejected<P: ParameterSet>() {
    let (sk, msg, sig) = signature_with_rich_hints::<P>();
    let vk = sk.verifying_key();
    assert_eq!(vk.verify(&msg, b"", &sig), Ok(()));
    let bytes = sig.as_bytes();
    let y: Vec<u8> = bytes[hint_offset::<P>()..].to_vec();
    let hints = parse_hints::<P>(bytes);
    let cut = |i: usize| usize::from(y[P::OMEGA + i]);
    let start = |i: usize| if i == 0 { 0 } else { cut(i - 1) };
    let total = cut(P::K - 1);
    let check = |edit: &dyn Fn(&mut Vec<u8>), what: Malformed, label: &str| {
        let mut bad = y.clone();
        edit(&mut bad);
        assert_ne!(bad, y, "{label}: the edit changed nothing");
        assert_eq!(
            Signature::<P>::from_bytes(&with_hint_bytes::<P>(bytes, &bad)),
            Err(malformed_sig(what)),
            "{}: {label}",
            P::NAME
        );
    };

    // Indices within one polynomial: repeated, decreasing, last one not above the previous.
    let p = hints.iter().position(|h| h.len() >= 2).unwrap();
    let (s, e) = (start(p), cut(p));
    check(
        &|b| b[s + 1] = b[s],
        Malformed::HintIndicesNotIncreasing,
        "repeated index",
    );
    check(
        &|b| b.swap(s, s + 1),
        Malformed::HintIndicesNotIncreasing,
        "decreasing indices",
    );
    check(
        &|b| b[e - 1] = b[e - 2],
        Malformed::HintIndicesNotIncreasing,
        "last index repeated",
    );
    check(
        &|b| b[e - 1] = 0,
        Malformed::HintIndicesNotIncreasing,
        "last index reset to 0",
    );

    // Cut points: decreasing.
    let q = (1..P::K).find(|&i| cut(i - 1) >= 1).unwrap();
    check(
        &|b| b[P::OMEGA + q] = (cut(q - 1) - 1) as u8,
        Malformed::HintCountDecreasing,
        "cut point one below the previous",
    );
    check(
        &|b| b[P::OMEGA + q] = 0,
        Malformed::HintCountDecreasing,
        "cut point reset to 0",
    );

    // Cut points above omega.
    for v in [P::OMEGA + 1, P::OMEGA + 2, 255] {
        check(
            &|b| b[P::OMEGA + P::K - 1] = v as u8,
            Malformed::HintCountAboveOmega,
            "last cut point above omega",
        );
        check(
            &|b| b[P::OMEGA..].fill(v as u8),
            Malformed::HintCountAboveOmega,
            "every cut point above omega",
        );
    }

    // Padding after the last used index.
    assert!(total < P::OMEGA);
    check(
        &|b| b[total] = 1,
        Malformed::HintPaddingNonZero,
        "first padding byte",
    );
    check(
        &|b| b[P::OMEGA - 1] = 0x80,
        Malformed::HintPaddingNonZero,
        "last padding byte",
    );
    check(
        &|b| b[total..P::OMEGA].fill(0xFF),
        Malformed::HintPaddingNonZero,
        "all padding bytes",
    );
}

/// Canonical hint encodings at the edges of what is allowed decode (and then fail to verify,
/// since they are not the signer's hints); the signer's own hints re-encoded verify.
fn canonical_hint_boundaries_accepted<P: ParameterSet>() {
    let (sk, msg, sig) = signature_with_rich_hints::<P>();
    let vk = sk.verifying_key();
    let bytes = sig.as_bytes();
    let hints = parse_hints::<P>(bytes);
    let omega = P::OMEGA as u8;

    let accepted = |h: &[Vec<u8>], label: &str| {
        let encoded = with_hint_bytes::<P>(bytes, &encode_hints::<P>(h));
        let decoded = Signature::<P>::from_bytes(&encoded)
            .unwrap_or_else(|e| panic!("{}: {label}: {e}", P::NAME));
        assert_eq!(decoded.as_bytes(), &encoded[..]);
        decoded
    };
    let rejected_by_verify = |h: &[Vec<u8>], label: &str| {
        let s = accepted(h, label);
        assert_eq!(
            vk.verify(&msg, b"", &s),
            Err(Error::InvalidSignature),
            "{}: {label}",
            P::NAME
        );
    };

    // The signer's own hints, re-encoded: the original signature.
    let same = accepted(&hints, "original hints");
    assert_eq!(same, sig);
    assert_eq!(vk.verify(&msg, b"", &same), Ok(()));

    let empty = vec![Vec::new(); P::K];
    rejected_by_verify(&empty, "no hints at all");

    let mut all_last = empty.clone();
    all_last[P::K - 1] = (0..omega).collect();
    rejected_by_verify(&all_last, "omega hints in the last polynomial");

    let mut all_first = empty.clone();
    all_first[0] = (256 - P::OMEGA..256).map(|j| j as u8).collect();
    rejected_by_verify(
        &all_first,
        "omega hints in the first polynomial, up to index 255",
    );

    // The same index in every polynomial (strictly increasing is per polynomial only).
    let same_index: Vec<Vec<u8>> = (0..P::K).map(|_| vec![0, 255]).collect();
    rejected_by_verify(&same_index, "indices 0 and 255 in every polynomial");

    // Exactly omega hints spread evenly, no padding left.
    let per = P::OMEGA / P::K;
    let mut spread: Vec<Vec<u8>> = (0..P::K)
        .map(|i| (0..per as u8).map(|j| j * 3 + i as u8).collect())
        .collect();
    spread[P::K - 1].extend((0..(P::OMEGA - per * P::K) as u8).map(|j| 200 + j));
    assert_eq!(spread.iter().map(Vec::len).sum::<usize>(), P::OMEGA);
    rejected_by_verify(&spread, "exactly omega hints spread over the polynomials");

    // The signer's hints rearranged canonically: polynomial p's hints moved into the next one.
    let p = hints[..P::K - 1]
        .iter()
        .position(|h| !h.is_empty())
        .unwrap();
    let mut moved = hints.clone();
    let taken = std::mem::take(&mut moved[p]);
    moved[p + 1].extend(taken);
    moved[p + 1].sort_unstable();
    moved[p + 1].dedup();
    rejected_by_verify(&moved, "hints of one polynomial moved to the next");
}

// ---------------------------------------------------------------------------------------------
// Strict signature decoding: the range of z
// ---------------------------------------------------------------------------------------------

fn z_range_is_strict<P: ParameterSet>() {
    let sk = SigningKey::<P>::from_seed(&[3; SEED_LEN]);
    let vk = sk.verifying_key();
    let msg = b"z range";
    let sig = sk.sign_deterministic(msg, b"").unwrap();
    let bytes = sig.as_bytes();
    let bound = P::GAMMA1 - P::BETA;

    // Our reading of the layout: every coefficient of a real signature is within the bound,
    // and writing back what we read changes nothing.
    let mut max = 0;
    let mut rewritten = bytes.to_vec();
    for poly in 0..P::L {
        for coef in 0..256 {
            let z = get_z::<P>(bytes, poly, coef);
            max = max.max(z.abs());
            set_z::<P>(&mut rewritten, poly, coef, z);
        }
    }
    assert!(max < bound, "{}: ||z|| = {max}", P::NAME);
    assert!(max > bound / 2, "{}: z looks unpacked wrongly", P::NAME);
    assert_eq!(rewritten, bytes);

    let positions = [(0, 0), (0, 1), (0, 255), (P::L / 2, 128), (P::L - 1, 255)];
    for (poly, coef) in positions {
        let original = get_z::<P>(bytes, poly, coef);
        for z in [
            bound,
            -bound,
            bound + 1,
            -bound - 1,
            P::GAMMA1,
            -(P::GAMMA1 - 1),
        ] {
            let mut bad = bytes.to_vec();
            set_z::<P>(&mut bad, poly, coef, z);
            assert_eq!(
                Signature::<P>::from_bytes(&bad),
                Err(malformed_sig(Malformed::ZOutOfRange)),
                "{}: z[{poly}][{coef}] = {z}",
                P::NAME
            );
        }
        for z in [bound - 1, -(bound - 1), 0, 1, -1] {
            let mut ok = bytes.to_vec();
            set_z::<P>(&mut ok, poly, coef, z);
            let s = Signature::<P>::from_bytes(&ok)
                .unwrap_or_else(|e| panic!("{}: z[{poly}][{coef}] = {z}: {e}", P::NAME));
            let expected = if z == original {
                Ok(())
            } else {
                Err(Error::InvalidSignature)
            };
            assert_eq!(vk.verify(msg, b"", &s), expected, "z = {z}");
        }
    }
}

/// F-8: z one below the bound in a *genuine* signature verifies (Wycheproof's
/// `BoundaryCondition`: z_max = gamma1 - beta - 1 valid), and the same signature with that
/// coefficient moved to the bound is rejected by decoding. Signs messages until some coefficient
/// of z lands exactly on +-(gamma1 - beta - 1): about one signature in 130 (ML-DSA-44) to 400
/// (ML-DSA-65/87) has one.
fn z_at_max_verifies<P: ParameterSet>() {
    let sk = SigningKey::<P>::from_seed(&[0x2A; SEED_LEN]);
    let vk = sk.verifying_key();
    let max = P::GAMMA1 - P::BETA - 1;
    for i in 0..20_000u32 {
        let msg = i.to_le_bytes();
        let sig = sk.sign_deterministic(&msg, b"z max").unwrap();
        let bytes = sig.as_bytes();
        let Some((poly, coef, z)) = (0..P::L)
            .flat_map(|p| (0..256).map(move |c| (p, c)))
            .map(|(p, c)| (p, c, get_z::<P>(bytes, p, c)))
            .find(|&(_, _, z)| z.abs() == max)
        else {
            continue;
        };
        // The accepted signature with a coefficient at gamma1 - beta - 1 decodes and verifies.
        assert_eq!(Signature::<P>::from_bytes(bytes).as_ref(), Ok(&sig));
        assert_eq!(vk.verify(&msg, b"z max", &sig), Ok(()), "{}", P::NAME);
        // One further out, on the same side, is the bound: rejected while decoding.
        let mut bad = bytes.to_vec();
        set_z::<P>(&mut bad, poly, coef, z + z.signum());
        assert_eq!(
            Signature::<P>::from_bytes(&bad),
            Err(malformed_sig(Malformed::ZOutOfRange)),
            "{}: z[{poly}][{coef}] = {}",
            P::NAME,
            z + z.signum()
        );
        return;
    }
    panic!("{}: no signature with ||z|| = gamma1 - beta - 1", P::NAME);
}

// ---------------------------------------------------------------------------------------------
// c-tilde
// ---------------------------------------------------------------------------------------------

fn every_c_tilde_byte_matters<P: ParameterSet>() {
    let sk = SigningKey::<P>::from_seed(&[4; SEED_LEN]);
    let vk = sk.verifying_key();
    let msg = b"c-tilde";
    let sig = sk.sign_deterministic(msg, b"ctx").unwrap();
    assert_eq!(sig.c_tilde().len(), P::LAMBDA / 4);
    for i in 0..P::C_TILDE_LEN {
        for x in [0x01u8, 0x80, 0xFF, 0x5A] {
            let mut bad = sig.as_bytes().to_vec();
            bad[i] ^= x;
            // Any c-tilde decodes; only verification can tell.
            let s = Signature::<P>::from_bytes(&bad).unwrap();
            assert_eq!(s.c_tilde()[i], sig.c_tilde()[i] ^ x);
            assert_eq!(
                vk.verify(msg, b"ctx", &s),
                Err(Error::InvalidSignature),
                "{}: c-tilde byte {i} ^ {x:#04x}",
                P::NAME
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Expanded signing keys
// ---------------------------------------------------------------------------------------------

fn expanded_key_strictness<P: ParameterSet>() {
    let sk = SigningKey::<P>::from_seed(&[5; SEED_LEN]);
    let vk = *sk.verifying_key();
    let good = sk.to_expanded_bytes().as_ref().to_vec();
    let eta = P::ETA as u32;
    let bits = P::ETA_BITS;
    assert_eq!(t0_offset::<P>() + P::K * 32 * 13, P::SK_LEN);

    // Our reading of the layout: every s1, s2 field of a real key is in [0, 2 eta].
    for i in 0..(P::L + P::K) * 256 {
        assert!(read_bits(&good, 8 * s1_offset() + i * bits, bits) <= 2 * eta);
    }

    let out_of_range: Vec<u32> = (2 * eta + 1..1 << bits).collect();
    assert_eq!(out_of_range.len(), if eta == 2 { 3 } else { 7 });
    let s1_fields = [0, 1, 255, P::L * 256 - 1];
    let s2_fields = [0, 77, P::K * 256 - 1];
    for (region, fields, what) in [
        (s1_offset(), &s1_fields[..], Malformed::S1OutOfRange),
        (s2_offset::<P>(), &s2_fields[..], Malformed::S2OutOfRange),
    ] {
        for &field in fields {
            for &v in &out_of_range {
                let mut bad = good.clone();
                write_bits(&mut bad, 8 * region + field * bits, bits, v);
                assert_eq!(
                    SigningKey::<P>::from_expanded(&bad).err(),
                    Some(malformed_sk(what)),
                    "{}: {what:?} field {field} = {v}",
                    P::NAME
                );
                assert_eq!(
                    SigningKey::<P>::from_expanded_unverified(&bad).err(),
                    Some(malformed_sk(what)),
                    "{}: unverified, {what:?} field {field} = {v}",
                    P::NAME
                );
            }
            // The extreme in-range values pass the range check (and then fail consistency,
            // unless the field already had that value).
            let original = read_bits(&good, 8 * region + field * bits, bits);
            for v in [0, 2 * eta] {
                let mut edge = good.clone();
                write_bits(&mut edge, 8 * region + field * bits, bits, v);
                let strict = SigningKey::<P>::from_expanded(&edge).err();
                if v == original {
                    assert_eq!(strict, None);
                } else {
                    assert!(
                        matches!(
                            strict,
                            Some(Error::Malformed {
                                input: Input::SigningKey,
                                what: Malformed::TrMismatch | Malformed::T0Mismatch
                            })
                        ),
                        "{}: {what:?} field {field} = {v}: {strict:?}",
                        P::NAME
                    );
                }
                let k = SigningKey::<P>::from_expanded_unverified(&edge).unwrap();
                assert_eq!(k.to_expanded_bytes().as_ref(), &edge[..]);
            }
        }
    }

    // Out of range in both s1 and s2: an S1 or S2 error, never anything else.
    let mut both = good.clone();
    write_bits(&mut both, 8 * s1_offset(), bits, (1 << bits) - 1);
    write_bits(&mut both, 8 * s2_offset::<P>(), bits, (1 << bits) - 1);
    let err = SigningKey::<P>::from_expanded(&both).err();
    assert!(
        err == Some(malformed_sk(Malformed::S1OutOfRange))
            || err == Some(malformed_sk(Malformed::S2OutOfRange)),
        "{err:?}"
    );

    let msg = b"inconsistent key";
    // tr: strict import refuses; unverified import signs exactly as FIPS 204 would with that
    // tr, which the real verifying key rejects (mu differs), but a mu built with the bogus tr
    // accepts.
    for pos in [64, 64 + 31, 127] {
        let mut bad = good.clone();
        bad[pos] ^= 0x01;
        assert_eq!(
            SigningKey::<P>::from_expanded(&bad).err(),
            Some(malformed_sk(Malformed::TrMismatch))
        );
        let k = SigningKey::<P>::from_expanded_unverified(&bad).unwrap();
        assert_eq!(k.verifying_key(), &vk);
        assert_eq!(k.to_expanded_bytes().as_ref(), &bad[..]);
        let s = k.sign_deterministic(msg, b"").unwrap();
        assert_eq!(vk.verify(msg, b"", &s), Err(Error::InvalidSignature));
        let bogus_tr: [u8; 64] = bad[64..128].try_into().unwrap();
        assert_eq!(k.tr(), &bogus_tr, "the tr the key signs with is its bytes'");
        assert_ne!(k.tr(), vk.tr());
        let mut b = MuBuilder::pure(&bogus_tr, b"").unwrap();
        b.update(msg);
        assert_eq!(vk.verify_mu(&b.finalize(), &s), Ok(()));
    }

    // rho: changes A, hence t1, hence tr.
    let mut bad = good.clone();
    bad[0] ^= 0x80;
    assert_eq!(
        SigningKey::<P>::from_expanded(&bad).err(),
        Some(malformed_sk(Malformed::TrMismatch))
    );

    // t0: strict import refuses; unverified import still signs. Whether the real verifying key
    // accepts depends on how far t0 is off: t0 only feeds the hint computation, and a t0 off by
    // a few units gives the right hints almost always (a one-unit change of t0[0][0] in
    // ML-DSA-65 gave 100 verifying signatures out of 100), so either outcome is allowed.
    for field in [0, 1, 256, P::K * 256 - 1] {
        for bit in [0, 6, 12] {
            let mut bad = good.clone();
            let at = 8 * t0_offset::<P>() + field * 13 + bit;
            bad[at / 8] ^= 1 << (at % 8);
            assert_eq!(
                SigningKey::<P>::from_expanded(&bad).err(),
                Some(malformed_sk(Malformed::T0Mismatch)),
                "{}: t0 field {field} bit {bit}",
                P::NAME
            );
            let k = SigningKey::<P>::from_expanded_unverified(&bad).unwrap();
            assert_eq!(k.verifying_key(), &vk);
            assert_eq!(k.to_expanded_bytes().as_ref(), &bad[..]);
            let s = k.sign_deterministic(msg, b"").unwrap();
            assert_eq!(Signature::<P>::from_bytes(s.as_bytes()), Ok(s));
            let r = vk.verify(msg, b"", &s);
            assert!(r == Ok(()) || r == Err(Error::InvalidSignature));
        }
    }

    // K is not checkable: any K makes a valid key, with the same verifying key and
    // different deterministic signatures that verify.
    let mut other_k = good.clone();
    other_k[32] ^= 0xFF;
    let k = SigningKey::<P>::from_expanded(&other_k).unwrap();
    assert_eq!(k.verifying_key(), &vk);
    let s = k.sign_deterministic(msg, b"").unwrap();
    assert_ne!(s, sk.sign_deterministic(msg, b"").unwrap());
    assert_eq!(vk.verify(msg, b"", &s), Ok(()));
}

// ---------------------------------------------------------------------------------------------
// Degenerate public keys
// ---------------------------------------------------------------------------------------------

fn degenerate_public_keys<P: ParameterSet>() {
    let mut rng = XorShift::new(0xD15EA5E ^ P::PK_LEN as u64);
    let real = SigningKey::<P>::from_seed(&[6; SEED_LEN]);
    let real_sig = real.sign_deterministic(b"msg", b"").unwrap();

    let mut zero_t1 = vec![0u8; P::PK_LEN];
    rng.fill(&mut zero_t1[..32]);
    let keys = [zero_t1, vec![0u8; P::PK_LEN], vec![0xFF; P::PK_LEN]];
    let mut verified = 0;
    for pk in &keys {
        let vk = VerifyingKey::<P>::from_bytes(pk).unwrap();
        assert_eq!(vk.as_bytes(), &pk[..]);
        assert_eq!(
            vk.verify(b"msg", b"", &real_sig),
            Err(Error::InvalidSignature)
        );
        for i in 0..100u32 {
            let bytes = random_decodable_signature::<P>(&mut rng);
            let sig = Signature::<P>::from_bytes(&bytes).unwrap();
            let msg = i.to_le_bytes();
            assert_eq!(vk.verify(&msg, b"", &sig), Err(Error::InvalidSignature));
            let mu = vk.compute_mu(&msg, b"").unwrap();
            assert_eq!(vk.verify_mu(&mu, &sig), Err(Error::InvalidSignature));
            assert_eq!(vk.verify_internal(&msg, &sig), Err(Error::InvalidSignature));
            let ph = PreHashed::hash(PreHash::Sha2_512, &msg);
            assert_eq!(
                vk.verify_prehashed(&ph, b"", &sig),
                Err(Error::InvalidSignature)
            );
            verified += 4;
        }
        // The all-zero signature (no hints, z = 0, c-tilde = 0) decodes and fails.
        let mut zero = vec![0u8; P::SIG_LEN];
        for poly in 0..P::L {
            for coef in 0..256 {
                set_z::<P>(&mut zero, poly, coef, 0);
            }
        }
        let sig = Signature::<P>::from_bytes(&zero).unwrap();
        assert_eq!(vk.verify(b"", b"", &sig), Err(Error::InvalidSignature));
    }
    assert_eq!(verified, 3 * 400);
}

/// F-8 / bug class 12 (Wycheproof `ZeroPublicKey`): a public key with t1 = 0 is valid and its
/// signatures verify. Such a key comes from s1 = 0 and s2 with every coefficient in [0, eta]:
/// then t = A s1 + s2 = s2 lies in [0, 2^12], so Power2Round gives t1 = 0 and t0 = s2. The
/// expanded key rho || K || tr || s1 || s2 || t0, with tr = H(rho || 0...0), is built by hand and
/// goes through the strict import, which recomputes t and tr and would refuse an inconsistent
/// key; its signatures must verify under pk = rho || 0...0. Two keys: s2 = 0 (t = 0) and s2
/// pseudorandom in [0, eta].
fn zero_t1_key_verifies<P: ParameterSet>() {
    let mut rng = XorShift::new(0x7E40 ^ P::SK_LEN as u64);
    for random_s2 in [false, true] {
        let mut pk = vec![0u8; P::PK_LEN];
        rng.fill(&mut pk[..32]);
        let vk = VerifyingKey::<P>::from_bytes(&pk).unwrap();
        let eta = P::ETA as u32;
        let mut sk = vec![0u8; P::SK_LEN];
        sk[..32].copy_from_slice(&pk[..32]); // rho
        rng.fill(&mut sk[32..64]); // K
        sk[64..128].copy_from_slice(vk.tr()); // tr = H(pk, 64)
        for i in 0..P::L * 256 {
            write_bits(&mut sk, 8 * s1_offset() + i * P::ETA_BITS, P::ETA_BITS, eta); // s1 = 0
        }
        for i in 0..P::K * 256 {
            let s2 = if random_s2 {
                rng.below(P::ETA as usize + 1) as u32
            } else {
                0
            };
            write_bits(
                &mut sk,
                8 * s2_offset::<P>() + i * P::ETA_BITS,
                P::ETA_BITS,
                eta - s2,
            );
            write_bits(&mut sk, 8 * t0_offset::<P>() + i * 13, 13, (1 << 12) - s2); // t0 = s2
        }
        let key = SigningKey::<P>::from_expanded(&sk)
            .unwrap_or_else(|e| panic!("{}: the t1 = 0 key is consistent: {e}", P::NAME));
        assert_eq!(key.verifying_key().as_bytes(), &pk[..]);
        assert_eq!(key.to_expanded_bytes().as_ref(), &sk[..]);
        for i in 0..5u8 {
            let msg = [i; 17];
            let sig = key.sign_deterministic(&msg, b"t1 = 0").unwrap();
            assert_eq!(vk.verify(&msg, b"t1 = 0", &sig), Ok(()), "{}", P::NAME);
            let hedged = key
                .sign_with_rng(&mut TestRng::new(u64::from(i)), &msg, b"")
                .unwrap();
            assert_eq!(vk.verify(&msg, b"", &hedged), Ok(()), "{}", P::NAME);
            let parsed = VerifyingKey::<P>::from_bytes(&pk).unwrap();
            assert_eq!(
                parsed.verify(&msg, b"", &sig),
                Err(Error::InvalidSignature),
                "{}: wrong context",
                P::NAME
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Random inputs never panic
// ---------------------------------------------------------------------------------------------

#[derive(Default, Debug)]
struct Tally {
    tried: usize,
    accepted: usize,
}

/// Runs `f`, turning a panic into a test failure that names the input.
fn no_panic<T>(what: &str, iteration: usize, input: &[u8], f: impl FnOnce() -> T) -> T {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|_| {
        panic!(
            "{what} panicked at iteration {iteration} on {} bytes: {}",
            input.len(),
            hex(&input[..input.len().min(256)])
        )
    })
}

/// A length for a decoder whose correct length is `len`: exact half the time, otherwise just
/// off or anywhere up to twice the length.
fn pick_len(rng: &mut XorShift, len: usize) -> usize {
    match rng.below(4) {
        0 | 1 => len,
        2 => (len + rng.below(9)).saturating_sub(4),
        _ => rng.below(2 * len + 1),
    }
}

/// One to four random byte changes of `base`.
fn mutate(rng: &mut XorShift, base: &[u8]) -> Vec<u8> {
    let mut out = base.to_vec();
    for _ in 0..1 + rng.below(4) {
        let i = rng.below(out.len());
        out[i] ^= (rng.below(255) + 1) as u8;
    }
    out
}

fn random_inputs_never_panic<P: ParameterSet>(iterations: usize, seed: u64) {
    let mut rng = XorShift::new(seed);
    let sk = SigningKey::<P>::from_seed(&[8; SEED_LEN]);
    let vk = *sk.verifying_key();
    let msg = b"fuzz";
    let sig = sk.sign_deterministic(msg, b"").unwrap();
    let expanded = sk.to_expanded_bytes().as_ref().to_vec();
    let (mut t_vk, mut t_sig, mut t_sk, mut t_sku, mut t_seed) = Default::default();
    let mut malformed_seen = std::collections::HashSet::new();
    let mut signed_with_random_keys = 0;

    for it in 0..iterations {
        match it % 5 {
            0 => {
                let t: &mut Tally = &mut t_vk;
                let len = pick_len(&mut rng, P::PK_LEN);
                let bytes = if len == P::PK_LEN && rng.below(2) == 0 {
                    mutate(&mut rng, vk.as_bytes())
                } else {
                    rng.bytes(len)
                };
                t.tried += 1;
                let r = no_panic("VerifyingKey::from_bytes", it, &bytes, || {
                    VerifyingKey::<P>::from_bytes(&bytes)
                });
                match r {
                    Ok(k) => {
                        t.accepted += 1;
                        assert_eq!(k.as_bytes(), &bytes[..]);
                        let v = no_panic("verify", it, &bytes, || k.verify(msg, b"", &sig));
                        if bytes == vk.as_bytes() {
                            assert_eq!(v, Ok(()));
                        } else {
                            assert_eq!(v, Err(Error::InvalidSignature));
                        }
                    }
                    Err(e) => assert_eq!(
                        e,
                        Error::Length {
                            input: Input::VerifyingKey,
                            expected: P::PK_LEN,
                            got: len
                        }
                    ),
                }
            }
            1 => {
                let t: &mut Tally = &mut t_sig;
                let len = pick_len(&mut rng, P::SIG_LEN);
                let bytes = if len == P::SIG_LEN {
                    match rng.below(5) {
                        0 => mutate(&mut rng, sig.as_bytes()),
                        1 => random_decodable_signature::<P>(&mut rng),
                        2 => {
                            // One z coefficient with |z| in [gamma1 - beta, gamma1].
                            let mut b = random_decodable_signature::<P>(&mut rng);
                            let z = P::GAMMA1 - rng.below(P::BETA as usize + 1) as i32;
                            let z = if rng.below(2) == 0 { z } else { 1 - z };
                            set_z::<P>(&mut b, rng.below(P::L), rng.below(256), z);
                            b
                        }
                        3 => {
                            // One byte of the hint section changed: any byte to any
                            // value, or a cut point to a value up to omega.
                            let mut b = random_decodable_signature::<P>(&mut rng);
                            if rng.below(2) == 0 {
                                let i = hint_offset::<P>() + rng.below(P::OMEGA + P::K);
                                b[i] = rng.below(256) as u8;
                            } else {
                                let i = hint_offset::<P>() + P::OMEGA + rng.below(P::K);
                                b[i] = rng.below(P::OMEGA + 1) as u8;
                            }
                            b
                        }
                        _ => rng.bytes(len),
                    }
                } else {
                    rng.bytes(len)
                };
                t.tried += 1;
                let r = no_panic("Signature::from_bytes", it, &bytes, || {
                    Signature::<P>::from_bytes(&bytes)
                });
                match r {
                    Ok(s) => {
                        t.accepted += 1;
                        assert_eq!(s.as_bytes(), &bytes[..]);
                        let v = no_panic("verify", it, &bytes, || vk.verify(msg, b"", &s));
                        if bytes == sig.as_bytes() {
                            assert_eq!(v, Ok(()));
                        } else {
                            assert_eq!(v, Err(Error::InvalidSignature));
                        }
                    }
                    Err(Error::Malformed {
                        input: Input::Signature,
                        what,
                    }) => {
                        assert_eq!(len, P::SIG_LEN);
                        malformed_seen.insert(what);
                    }
                    Err(e) => assert_eq!(
                        e,
                        Error::Length {
                            input: Input::Signature,
                            expected: P::SIG_LEN,
                            got: len
                        }
                    ),
                }
            }
            2 | 3 => {
                let strict = it % 5 == 2;
                let t: &mut Tally = if strict { &mut t_sk } else { &mut t_sku };
                let len = pick_len(&mut rng, P::SK_LEN);
                let bytes = if len == P::SK_LEN {
                    match rng.below(4) {
                        0 => mutate(&mut rng, &expanded),
                        1 => {
                            // Only K changed: a valid key.
                            let mut b = expanded.clone();
                            rng.fill(&mut b[32..64]);
                            b
                        }
                        2 => {
                            // In-range s1 and s2, everything else random.
                            let mut b = rng.bytes(len);
                            let eta2 = 2 * P::ETA as usize + 1;
                            for i in 0..(P::L + P::K) * 256 {
                                let v = rng.below(eta2) as u32;
                                write_bits(&mut b, 8 * 128 + i * P::ETA_BITS, P::ETA_BITS, v);
                            }
                            b
                        }
                        _ => rng.bytes(len),
                    }
                } else {
                    rng.bytes(len)
                };
                t.tried += 1;
                let r = no_panic("SigningKey::from_expanded", it, &bytes, || {
                    if strict {
                        SigningKey::<P>::from_expanded(&bytes)
                    } else {
                        SigningKey::<P>::from_expanded_unverified(&bytes)
                    }
                });
                match r {
                    Ok(k) => {
                        t.accepted += 1;
                        assert_eq!(k.seed(), None);
                        assert_eq!(k.to_expanded_bytes().as_ref(), &bytes[..]);
                        // Strictly imported keys are consistent: their signatures verify.
                        // Others must at least sign without panicking (now and then, to keep
                        // the test fast).
                        if strict || signed_with_random_keys < 100 {
                            let s = no_panic("sign", it, &bytes, || k.sign_deterministic(msg, b""));
                            let s = s.unwrap();
                            signed_with_random_keys += usize::from(!strict);
                            let v = k.verifying_key().verify(msg, b"", &s);
                            if strict {
                                assert_eq!(v, Ok(()));
                            }
                        }
                    }
                    Err(Error::Malformed {
                        input: Input::SigningKey,
                        what,
                    }) => {
                        assert_eq!(len, P::SK_LEN);
                        malformed_seen.insert(what);
                        if !strict {
                            assert!(
                                matches!(what, Malformed::S1OutOfRange | Malformed::S2OutOfRange),
                                "{what:?}"
                            );
                        }
                    }
                    Err(e) => assert_eq!(
                        e,
                        Error::Length {
                            input: Input::SigningKey,
                            expected: P::SK_LEN,
                            got: len
                        }
                    ),
                }
            }
            _ => {
                let t: &mut Tally = &mut t_seed;
                let len = pick_len(&mut rng, SEED_LEN);
                let bytes = rng.bytes(len);
                t.tried += 1;
                let r = no_panic("SigningKey::from_seed_slice", it, &bytes, || {
                    SigningKey::<P>::from_seed_slice(&bytes)
                });
                match r {
                    Ok(k) => {
                        t.accepted += 1;
                        assert_eq!(k.seed().map(|s| &s[..]), Some(&bytes[..]));
                    }
                    Err(e) => assert_eq!(
                        e,
                        Error::Length {
                            input: Input::Seed,
                            expected: SEED_LEN,
                            got: len
                        }
                    ),
                }
            }
        }
    }

    println!(
        "{}: {iterations} random inputs; accepted: verifying keys {}/{}, signatures {}/{}, \
         expanded keys (strict) {}/{}, expanded keys (unverified) {}/{}, seeds {}/{}; \
         signed with {signed_with_random_keys} random keys; malformed kinds seen: {:?}",
        P::NAME,
        t_vk.accepted,
        t_vk.tried,
        t_sig.accepted,
        t_sig.tried,
        t_sk.accepted,
        t_sk.tried,
        t_sku.accepted,
        t_sku.tried,
        t_seed.accepted,
        t_seed.tried,
        malformed_seen
    );
    let tried = t_vk.tried + t_sig.tried + t_sk.tried + t_sku.tried + t_seed.tried;
    assert_eq!(tried, iterations);
    // The generators reach the interesting paths: some of everything is accepted, and both
    // signature and key decoding reject for several reasons.
    for t in [&t_vk, &t_sig, &t_sk, &t_sku, &t_seed] {
        assert!(t.accepted > 0 && t.accepted < t.tried, "{t:?}");
    }
    assert_eq!(
        malformed_seen.len(),
        9,
        "every Malformed kind: {malformed_seen:?}"
    );
}

// ---------------------------------------------------------------------------------------------
// Errors and Debug output
// ---------------------------------------------------------------------------------------------

#[test]
fn error_messages_are_informative() {
    let e = VerifyingKey::<MlDsa44>::from_bytes(&[0; 100]).unwrap_err();
    let text = e.to_string();
    assert!(text.contains("verifying key"), "{text}");
    assert!(text.contains("1312"), "{text}");
    assert!(text.contains("100"), "{text}");

    let e = Signature::<MlDsa65>::from_bytes(&[0; 3310]).unwrap_err();
    let text = e.to_string();
    assert!(
        text.contains("signature") && text.contains("3309") && text.contains("3310"),
        "{text}"
    );

    let e = SigningKey::<MlDsa87>::from_expanded(&[]).unwrap_err();
    let text = e.to_string();
    assert!(
        text.contains("signing key") && text.contains("4896") && text.contains(" 0"),
        "{text}"
    );

    let e = SigningKey::<MlDsa44>::from_seed_slice(&[1; 31]).unwrap_err();
    let text = e.to_string();
    assert!(
        text.contains("seed") && text.contains("32") && text.contains("31"),
        "{text}"
    );

    let e = PreHashed::from_digest(PreHash::Sha2_384, &[0; 47]).unwrap_err();
    let text = e.to_string();
    assert!(
        text.contains("digest") && text.contains("48") && text.contains("47"),
        "{text}"
    );

    let sk = SigningKey::<MlDsa44>::from_seed(&[0; 32]);
    let e = sk.sign_deterministic(b"", &[0; 300]).unwrap_err();
    assert_eq!(e, Error::ContextTooLong { len: 300 });
    let text = e.to_string();
    assert!(text.contains("255") && text.contains("300"), "{text}");

    let e = malformed_sig(Malformed::ZOutOfRange);
    let text = e.to_string();
    assert!(
        text.contains("signature") && text.contains("z") && text.contains("gamma1"),
        "{text}"
    );
    let e = malformed_sk(Malformed::TrMismatch);
    assert!(e.to_string().contains("signing key") && e.to_string().contains("tr"));

    let all = [
        Malformed::S1OutOfRange,
        Malformed::S2OutOfRange,
        Malformed::TrMismatch,
        Malformed::T0Mismatch,
        Malformed::HintCountDecreasing,
        Malformed::HintCountAboveOmega,
        Malformed::HintIndicesNotIncreasing,
        Malformed::HintPaddingNonZero,
        Malformed::ZOutOfRange,
    ];
    let texts: std::collections::HashSet<String> = all.iter().map(|m| m.to_string()).collect();
    assert_eq!(
        texts.len(),
        all.len(),
        "every Malformed kind has its own message"
    );

    for e in [
        Error::InvalidSignature,
        Error::Rng,
        Error::SigningAttemptsExhausted { attempts: 814 },
    ] {
        assert!(!e.to_string().is_empty());
    }
    assert!(
        Error::SigningAttemptsExhausted { attempts: 814 }
            .to_string()
            .contains("814")
    );

    // Usable as a std error, and through signature::Error.
    let boxed: Box<dyn std::error::Error> = Box::new(Error::InvalidSignature);
    assert_eq!(boxed.to_string(), Error::InvalidSignature.to_string());
    let se: mldsa::signature::Error = Error::InvalidSignature.into();
    let source = std::error::Error::source(&se).expect("source kept (alloc feature)");
    assert_eq!(
        source.downcast_ref::<Error>(),
        Some(&Error::InvalidSignature)
    );
}

fn debug_output_has_no_secrets<P: ParameterSet>() {
    for seed_byte in [0x11u8, 0xA7, 0xFE] {
        let mut seed = [0u8; SEED_LEN];
        XorShift::new(u64::from(seed_byte)).fill(&mut seed);
        let sk = SigningKey::<P>::from_seed(&seed);
        let expanded = sk.to_expanded_bytes().as_ref().to_vec();
        let secrets = [
            hex(&seed),
            hex(&seed[..8]),
            hex(&expanded[32..64]), // K
            hex(&expanded[32..40]),
            hex(&expanded[128..144]), // start of s1
            hex(&expanded[t0_offset::<P>()..t0_offset::<P>() + 16]),
        ];
        let imported = SigningKey::<P>::from_expanded(&expanded).unwrap();
        let signer = sk.message_signer(b"ctx").unwrap();
        let outputs = [
            format!("{sk:?}"),
            format!("{sk:#?}"),
            format!("{imported:?}"),
            format!("{signer:?}"),
            format!("{:?}", sk.clone()),
        ];
        for out in &outputs {
            assert!(out.contains(P::NAME), "{out}");
            let lower = out.to_lowercase();
            for s in &secrets {
                assert!(
                    !lower.contains(s.as_str()),
                    "{}: Debug leaks {s}: {out}",
                    P::NAME
                );
            }
            // No long runs of hex beyond the 16 digits of the verifying key's tr prefix.
            let longest_hex_run = out
                .split(|c: char| !c.is_ascii_hexdigit())
                .map(str::len)
                .max()
                .unwrap_or(0);
            assert!(longest_hex_run <= 16, "{out}");
        }
        // The error for a malformed key names the problem, not the bytes.
        let mut bad = expanded.clone();
        bad[64] ^= 1;
        let e = SigningKey::<P>::from_expanded(&bad).unwrap_err();
        let text = format!("{e} {e:?}").to_lowercase();
        for s in &secrets {
            assert!(!text.contains(s.as_str()));
        }
    }
}

// ---------------------------------------------------------------------------------------------
// signature crate traits, RNG failure, zeroize, auto traits
// ---------------------------------------------------------------------------------------------

/// Signs and verifies through the `signature` traits only.
fn via_signature_traits<S, Sig>(signer: &S, msg: &[u8]) -> Sig
where
    S: Signer<Sig> + RandomizedSigner<Sig> + MultipartSigner<Sig> + Keypair,
    S::VerifyingKey: Verifier<Sig> + MultipartVerifier<Sig>,
    Sig: SignatureEncoding + Debug,
{
    let vk = signer.verifying_key();
    let sig = signer.try_sign(msg).unwrap();
    assert!(vk.verify(msg, &sig).is_ok());
    assert!(vk.verify(b"another message", &sig).is_err());
    let sig2 = signer.sign(msg);
    assert!(vk.verify(msg, &sig2).is_ok());
    assert_ne!(sig.to_vec(), sig2.to_vec(), "hedged by default");

    let sig3 = signer
        .try_sign_with_rng(&mut TestRng::new(11), msg)
        .unwrap();
    assert!(vk.verify(msg, &sig3).is_ok());
    let sig4 = signer.sign_with_rng(&mut TestRng::new(11), msg);
    assert_eq!(
        sig3.to_vec(),
        sig4.to_vec(),
        "same randomness, same signature"
    );

    // Multipart: any split of the same message.
    let (a, b) = msg.split_at(msg.len() / 2);
    let multi = signer.multipart_sign(&[a, b]);
    assert!(vk.verify(msg, &multi).is_ok());
    assert!(vk.multipart_verify(&[msg], &multi).is_ok());
    assert!(vk.multipart_verify(&[&msg[..1], &msg[1..]], &sig).is_ok());
    assert!(vk.multipart_verify(&[a, a], &sig).is_err() || a == b);

    // Encoding round trip.
    let bytes = sig.to_bytes();
    assert_eq!(sig.to_vec(), bytes.as_ref());
    assert_eq!(sig.encoded_len(), bytes.as_ref().len());
    let back = Sig::try_from(bytes.as_ref()).ok().expect("decodes");
    assert_eq!(back.to_vec(), sig.to_vec());
    assert!(Sig::try_from(&bytes.as_ref()[1..]).is_err());
    sig
}

fn signature_traits<P: ParameterSet>()
where
    Signature<P>: SignatureEncoding,
{
    let sk = SigningKey::<P>::from_seed(&[9; SEED_LEN]);
    let msg = b"generic signing through the signature crate";
    let sig = via_signature_traits::<_, Signature<P>>(&sk, msg);
    assert_eq!(SignatureEncoding::to_bytes(&sig).as_ref(), sig.as_bytes());
    assert_eq!(sig.encoded_len(), P::SIG_LEN);
    assert_eq!(Keypair::verifying_key(&sk), *sk.verifying_key());
    // The traits use pure ML-DSA with an empty context.
    assert_eq!(sk.verifying_key().verify(msg, b"", &sig), Ok(()));
    assert_eq!(
        sk.verifying_key().verify(msg, b"x", &sig),
        Err(Error::InvalidSignature)
    );
    let det = sk.sign_deterministic(msg, b"").unwrap();
    assert!(Verifier::verify(sk.verifying_key(), msg, &det).is_ok());

    // A failed verification carries the crate's error as its source.
    let err = Verifier::verify(sk.verifying_key(), b"nope", &sig).unwrap_err();
    let source = std::error::Error::source(&err).unwrap();
    assert_eq!(
        source.downcast_ref::<Error>(),
        Some(&Error::InvalidSignature)
    );
}

fn failing_rng_is_an_error<P: ParameterSet>() {
    assert_eq!(
        SigningKey::<P>::generate_with_rng(&mut FailingRng).err(),
        Some(Error::Rng)
    );
    let sk = SigningKey::<P>::generate_with_rng(&mut TestRng::new(5)).unwrap();
    let msg = b"m";
    assert_eq!(sk.sign_with_rng(&mut FailingRng, msg, b""), Err(Error::Rng));
    let mu = sk.verifying_key().compute_mu(msg, b"").unwrap();
    assert_eq!(sk.sign_mu_with_rng(&mut FailingRng, &mu), Err(Error::Rng));
    let ph = PreHashed::hash(PreHash::Sha3_256, msg);
    assert_eq!(
        sk.sign_prehashed_with_rng(&mut FailingRng, &ph, b""),
        Err(Error::Rng)
    );
    let mut signer = sk.message_signer(b"").unwrap();
    signer.update(msg);
    assert_eq!(signer.sign_with_rng(&mut FailingRng), Err(Error::Rng));
    let err = RandomizedSigner::try_sign_with_rng(&sk, &mut FailingRng, msg).unwrap_err();
    let source = std::error::Error::source(&err).unwrap();
    assert_eq!(source.downcast_ref::<Error>(), Some(&Error::Rng));
    // Context errors come before randomness is drawn or not: either way, an error.
    assert!(sk.sign_with_rng(&mut FailingRng, msg, &[0; 256]).is_err());
    // The OS generator works.
    let sig = sk.sign(msg, b"").unwrap();
    assert_eq!(sk.verifying_key().verify(msg, b"", &sig), Ok(()));
    let generated = SigningKey::<P>::generate().unwrap();
    assert!(generated.seed().is_some());
}

fn assert_zeroize_on_drop<T: zeroize::ZeroizeOnDrop>() {}
fn assert_send_sync<T: Send + Sync>() {}

#[test]
fn compile_time_trait_assertions() {
    assert_zeroize_on_drop::<SigningKey<MlDsa44>>();
    assert_zeroize_on_drop::<SigningKey<MlDsa65>>();
    assert_zeroize_on_drop::<SigningKey<MlDsa87>>();
    assert_send_sync::<SigningKey<MlDsa65>>();
    assert_send_sync::<VerifyingKey<MlDsa65>>();
    assert_send_sync::<Signature<MlDsa65>>();
    assert_send_sync::<Error>();
    assert_send_sync::<PreHashed>();
    assert_send_sync::<MuBuilder>();
}

// ---------------------------------------------------------------------------------------------
// Instantiation per parameter set
// ---------------------------------------------------------------------------------------------

/// Random-input iterations per parameter set.
const FUZZ_ITERATIONS: usize = 12_000;

macro_rules! instantiate {
    ($module:ident, $p:ty, $seed:literal) => {
        mod $module {
            use super::*;

            #[test]
            fn hint_layout() {
                hint_layout_matches::<$p>();
            }

            #[test]
            fn non_canonical_hints() {
                non_canonical_hints_rejected::<$p>();
            }

            #[test]
            fn canonical_hint_boundaries() {
                canonical_hint_boundaries_accepted::<$p>();
            }

            #[test]
            fn z_range() {
                z_range_is_strict::<$p>();
            }

            #[test]
            fn z_max_verifies() {
                z_at_max_verifies::<$p>();
            }

            #[test]
            fn zero_t1_key() {
                zero_t1_key_verifies::<$p>();
            }

            #[test]
            fn c_tilde_bytes() {
                every_c_tilde_byte_matters::<$p>();
            }

            #[test]
            fn expanded_key() {
                expanded_key_strictness::<$p>();
            }

            #[test]
            fn degenerate_keys() {
                degenerate_public_keys::<$p>();
            }

            #[test]
            fn random_inputs() {
                random_inputs_never_panic::<$p>(FUZZ_ITERATIONS, $seed);
            }

            #[test]
            fn debug_no_secrets() {
                debug_output_has_no_secrets::<$p>();
            }

            #[test]
            fn signature_crate_traits() {
                signature_traits::<$p>();
            }

            #[test]
            fn failing_rng() {
                failing_rng_is_an_error::<$p>();
            }
        }
    };
}

instantiate!(ml_dsa_44, MlDsa44, 0x4444_0001);
instantiate!(ml_dsa_65, MlDsa65, 0x6565_0002);
instantiate!(ml_dsa_87, MlDsa87, 0x8787_0003);
