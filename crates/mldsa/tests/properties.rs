//! Property tests of the public API, written once as generic functions and run for each of
//! ML-DSA-44, ML-DSA-65 and ML-DSA-87 (see `instantiate!` at the bottom).
//!
//! - encodings round trip (verifying key, signature, expanded signing key, seed);
//! - sign then verify through every front door (hedged, deterministic, HashML-DSA, external mu,
//!   internal interface, streaming, `std::io::Write`);
//! - single-bit flips of the signature (every bit, for fixed keys; random bits otherwise), the
//!   message, the context and the verifying key are rejected;
//! - wrong lengths give `Error::Length` with the right fields, long contexts `ContextTooLong`;
//! - a signature or key of one parameter set is never accepted by another.
//!
//! Case counts are kept small (signing is the expensive part) so that the whole file runs in
//! a few seconds in the optimised test profile.

use std::convert::Infallible;
use std::io::{self, Read, Write};

use mldsa::rand_core::{TryCryptoRng, TryRng};
use mldsa::{
    Error, Input, MAX_CONTEXT_LEN, MlDsa44, MlDsa65, MlDsa87, MuBuilder, ParameterSet, PreHash,
    PreHashed, PreHasher, SEED_LEN, Signature, SigningKey, VerifyingKey,
};
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::select;
use proptest::test_runner::TestCaseError;

type TestResult = Result<(), TestCaseError>;

/// `ParameterSet` plus `Send + Sync` for the multi-threaded test: neither `ParameterSet` nor
/// its byte array types promise them, so generic code cannot share a `VerifyingKey<P>` or a
/// `Signature<P>` across threads without these extra bounds.
trait Set: ParameterSet<PkBytes: Send + Sync, SigBytes: Send + Sync> + Send + Sync {}

impl<T> Set for T where T: ParameterSet<PkBytes: Send + Sync, SigBytes: Send + Sync> + Send + Sync {}

/// Cases for properties that sign (each case costs a key generation and a few signatures).
const SIGN_CASES: u32 = 32;
/// Cases for properties that only parse.
const PARSE_CASES: u32 = 256;

// ---------------------------------------------------------------------------------------------
// Test helpers
// ---------------------------------------------------------------------------------------------

/// A small deterministic generator (SplitMix64) posing as a `TryCryptoRng`, so hedged signing
/// is reproducible in tests. Not cryptographic, obviously.
#[derive(Clone, Debug)]
struct TestRng(u64);

impl TestRng {
    fn new(seed: u64) -> Self {
        TestRng(seed)
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

impl TryRng for TestRng {
    type Error = Infallible;

    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        Ok(self.next() as u32)
    }

    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        Ok(self.next())
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        for chunk in dst.chunks_mut(8) {
            let v = self.next().to_le_bytes();
            chunk.copy_from_slice(&v[..chunk.len()]);
        }
        Ok(())
    }
}

impl TryCryptoRng for TestRng {}

/// A generator that only ever returns zero bytes: hedged signing with it must equal
/// deterministic signing (rnd = 0^32).
struct ZeroRng;

impl TryRng for ZeroRng {
    type Error = Infallible;

    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        Ok(0)
    }

    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        Ok(0)
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        dst.fill(0);
        Ok(())
    }
}

impl TryCryptoRng for ZeroRng {}

/// Splits `msg` at the given cut points (reduced modulo `len + 1` and sorted), empty chunks
/// included.
fn chunks<'a>(msg: &'a [u8], cuts: &[usize]) -> Vec<&'a [u8]> {
    let mut points: Vec<usize> = cuts.iter().map(|c| c % (msg.len() + 1)).collect();
    points.sort_unstable();
    let mut out = Vec::with_capacity(points.len() + 1);
    let mut start = 0;
    for p in points {
        out.push(&msg[start..p]);
        start = p;
    }
    out.push(&msg[start..]);
    out
}

/// A reader that hands out at most `step` bytes per `read` call.
struct TrickleReader<'a> {
    data: &'a [u8],
    step: usize,
}

impl Read for TrickleReader<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.step.min(buf.len()).min(self.data.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

fn flip_bit(bytes: &[u8], bit: usize) -> Vec<u8> {
    let mut out = bytes.to_vec();
    out[bit / 8] ^= 1 << (bit % 8);
    out
}

/// A context that differs from `ctx` (another length or another last byte) and is still legal.
fn other_context(ctx: &[u8]) -> Vec<u8> {
    let mut other = ctx.to_vec();
    if other.len() < MAX_CONTEXT_LEN {
        other.push(0);
    } else {
        other.pop();
    }
    other
}

/// Checks that `bytes` (the signature with one bit flipped) is rejected: either strict
/// decoding fails (necessarily with `Malformed`, the length being right) or verification fails
/// with `InvalidSignature`.
fn flipped_signature_is_rejected<P: Set>(
    vk: &VerifyingKey<P>,
    msg: &[u8],
    ctx: &[u8],
    bytes: &[u8],
) -> Result<(), String> {
    match Signature::<P>::from_bytes(bytes) {
        Err(Error::Malformed {
            input: Input::Signature,
            ..
        }) => Ok(()),
        Err(e) => Err(format!("decoding failed with an unexpected error: {e:?}")),
        Ok(sig) => match vk.verify(msg, ctx, &sig) {
            Err(Error::InvalidSignature) => Ok(()),
            Err(e) => Err(format!("verify failed with an unexpected error: {e:?}")),
            Ok(()) => Err("a modified signature verifies".to_string()),
        },
    }
}

// ---------------------------------------------------------------------------------------------
// Properties (generic over the parameter set)
// ---------------------------------------------------------------------------------------------

/// Every encoding decodes back to the same value, and a key re-imported from its expanded
/// encoding behaves exactly like the original.
fn prop_encodings_round_trip<P: Set>(seed: [u8; SEED_LEN], msg: &[u8], ctx: &[u8]) -> TestResult {
    let sk = SigningKey::<P>::from_seed(&seed);
    prop_assert_eq!(sk.seed(), Some(&seed));
    let vk = sk.verifying_key();

    // Verifying key.
    prop_assert_eq!(vk.as_bytes().len(), P::PK_LEN);
    prop_assert_eq!(VerifyingKey::<P>::LEN, P::PK_LEN);
    let vk2 = VerifyingKey::<P>::from_bytes(vk.as_bytes())
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    prop_assert_eq!(&vk2, vk);
    prop_assert_eq!(vk2.tr(), vk.tr());
    let vk2_bytes = vk2.to_bytes();
    prop_assert_eq!(vk2_bytes.as_ref(), vk.as_bytes());
    prop_assert_eq!(VerifyingKey::<P>::try_from(vk.as_bytes()), Ok(*vk));

    // Seed as a slice.
    let sk_slice = SigningKey::<P>::from_seed_slice(&seed).unwrap();
    prop_assert_eq!(sk_slice.seed(), Some(&seed));
    prop_assert_eq!(sk_slice.verifying_key(), vk);

    // Expanded encoding, strict and unverified import.
    let expanded = sk.to_expanded_bytes();
    prop_assert_eq!(expanded.as_ref().len(), P::SK_LEN);
    prop_assert_eq!(SigningKey::<P>::EXPANDED_LEN, P::SK_LEN);
    prop_assert_eq!(&expanded.as_ref()[..32], &vk.as_bytes()[..32], "rho");
    prop_assert_eq!(&expanded.as_ref()[64..128], &vk.tr()[..], "tr");
    let sk2 = SigningKey::<P>::from_expanded(expanded.as_ref()).unwrap();
    let sk3 = SigningKey::<P>::from_expanded_unverified(expanded.as_ref()).unwrap();
    prop_assert_eq!(sk2.seed(), None);
    prop_assert_eq!(sk3.seed(), None);
    prop_assert_eq!(sk2.verifying_key(), vk);
    prop_assert_eq!(sk3.verifying_key(), vk);
    let (e2, e3) = (sk2.to_expanded_bytes(), sk3.to_expanded_bytes());
    prop_assert_eq!(e2.as_ref(), expanded.as_ref());
    prop_assert_eq!(e3.as_ref(), expanded.as_ref());

    // Same deterministic signatures from every form of the key.
    let sig = sk.sign_deterministic(msg, ctx).unwrap();
    prop_assert_eq!(sk2.sign_deterministic(msg, ctx).unwrap(), sig);
    prop_assert_eq!(sk3.sign_deterministic(msg, ctx).unwrap(), sig);
    prop_assert_eq!(sk.clone().sign_deterministic(msg, ctx).unwrap(), sig);

    // Signature.
    prop_assert_eq!(sig.as_bytes().len(), P::SIG_LEN);
    prop_assert_eq!(Signature::<P>::LEN, P::SIG_LEN);
    prop_assert_eq!(sig.c_tilde(), &sig.as_bytes()[..P::C_TILDE_LEN]);
    let sig_bytes = sig.to_bytes();
    prop_assert_eq!(sig_bytes.as_ref(), sig.as_bytes());
    let sig2 = Signature::<P>::from_bytes(sig.as_bytes()).unwrap();
    prop_assert_eq!(sig2, sig);
    prop_assert_eq!(sig2.as_bytes(), sig.as_bytes());
    prop_assert_eq!(Signature::<P>::try_from(sig.as_bytes()), Ok(sig));
    prop_assert_eq!(vk2.verify(msg, ctx, &sig2), Ok(()));
    Ok(())
}

/// Hedged pure ML-DSA: sign then verify; another message, context or key is rejected.
fn prop_sign_verify_hedged<P: Set>(
    seed: [u8; SEED_LEN],
    rng_seed: u64,
    msg: &[u8],
    ctx: &[u8],
) -> TestResult {
    let sk = SigningKey::<P>::from_seed(&seed);
    let vk = sk.verifying_key();
    let sig = sk
        .sign_with_rng(&mut TestRng::new(rng_seed), msg, ctx)
        .unwrap();
    prop_assert_eq!(vk.verify(msg, ctx, &sig), Ok(()));

    let mut other_msg = msg.to_vec();
    other_msg.push(0x80);
    prop_assert_eq!(
        vk.verify(&other_msg, ctx, &sig),
        Err(Error::InvalidSignature)
    );
    prop_assert_eq!(
        vk.verify(msg, &other_context(ctx), &sig),
        Err(Error::InvalidSignature)
    );
    let mut other_seed = seed;
    other_seed[0] ^= 1;
    let other_vk = *SigningKey::<P>::from_seed(&other_seed).verifying_key();
    prop_assert_eq!(
        other_vk.verify(msg, ctx, &sig),
        Err(Error::InvalidSignature)
    );
    Ok(())
}

/// Deterministic pure ML-DSA: reproducible, verifies, and equals hedged signing with rnd = 0.
fn prop_sign_verify_deterministic<P: Set>(
    seed: [u8; SEED_LEN],
    msg: &[u8],
    ctx: &[u8],
) -> TestResult {
    let sk = SigningKey::<P>::from_seed(&seed);
    let vk = sk.verifying_key();
    let sig = sk.sign_deterministic(msg, ctx).unwrap();
    prop_assert_eq!(sk.sign_deterministic(msg, ctx).unwrap(), sig);
    prop_assert_eq!(sk.sign_with_rng(&mut ZeroRng, msg, ctx).unwrap(), sig);
    prop_assert_eq!(vk.verify(msg, ctx, &sig), Ok(()));
    prop_assert_eq!(
        vk.verify(msg, &other_context(ctx), &sig),
        Err(Error::InvalidSignature)
    );
    Ok(())
}

/// Hedged signing: different randomness gives different signatures that both verify; the same
/// randomness gives the same signature.
fn prop_hedged_randomness<P: Set>(
    seed: [u8; SEED_LEN],
    r1: u64,
    r2: u64,
    msg: &[u8],
    ctx: &[u8],
) -> TestResult {
    prop_assume!(r1 != r2);
    let sk = SigningKey::<P>::from_seed(&seed);
    let vk = sk.verifying_key();
    let s1 = sk.sign_with_rng(&mut TestRng::new(r1), msg, ctx).unwrap();
    let s2 = sk.sign_with_rng(&mut TestRng::new(r2), msg, ctx).unwrap();
    let det = sk.sign_deterministic(msg, ctx).unwrap();
    prop_assert_ne!(s1, s2);
    prop_assert_ne!(s1.c_tilde(), s2.c_tilde());
    prop_assert_ne!(s1, det);
    prop_assert_ne!(s2, det);
    prop_assert_eq!(vk.verify(msg, ctx, &s1), Ok(()));
    prop_assert_eq!(vk.verify(msg, ctx, &s2), Ok(()));
    prop_assert_eq!(
        sk.sign_with_rng(&mut TestRng::new(r1), msg, ctx).unwrap(),
        s1
    );
    Ok(())
}

/// HashML-DSA with a random pre-hash: hedged and deterministic signatures verify; the
/// signature is bound to the hash function, the digest and the pre-hash mode.
fn prop_prehashed<P: Set>(
    seed: [u8; SEED_LEN],
    rng_seed: u64,
    ph: PreHash,
    other_ph: PreHash,
    msg: &[u8],
    ctx: &[u8],
) -> TestResult {
    let sk = SigningKey::<P>::from_seed(&seed);
    let vk = sk.verifying_key();
    let hashed = PreHashed::hash(ph, msg);
    prop_assert_eq!(hashed.algorithm(), ph);
    prop_assert_eq!(hashed.digest().len(), ph.digest_len());
    prop_assert_eq!(PreHashed::from_digest(ph, hashed.digest()), Ok(hashed));

    let sig = sk
        .sign_prehashed_with_rng(&mut TestRng::new(rng_seed), &hashed, ctx)
        .unwrap();
    prop_assert_eq!(vk.verify_prehashed(&hashed, ctx, &sig), Ok(()));
    let det = sk.sign_prehashed_deterministic(&hashed, ctx).unwrap();
    prop_assert_eq!(sk.sign_prehashed_deterministic(&hashed, ctx).unwrap(), det);
    prop_assert_eq!(vk.verify_prehashed(&hashed, ctx, &det), Ok(()));
    prop_assert_ne!(det, sig);

    // Domain separation: not a pure ML-DSA signature of the message (nor of the digest).
    prop_assert_eq!(vk.verify(msg, ctx, &det), Err(Error::InvalidSignature));
    prop_assert_eq!(
        vk.verify(hashed.digest(), ctx, &det),
        Err(Error::InvalidSignature)
    );
    prop_assert_ne!(&sk.sign_deterministic(msg, ctx).unwrap(), &det);
    // Bound to the context.
    prop_assert_eq!(
        vk.verify_prehashed(&hashed, &other_context(ctx), &det),
        Err(Error::InvalidSignature)
    );
    // Bound to the hash function (same digest bytes under another OID where lengths agree).
    if other_ph != ph {
        let rehashed = PreHashed::hash(other_ph, msg);
        prop_assert_eq!(
            vk.verify_prehashed(&rehashed, ctx, &det),
            Err(Error::InvalidSignature)
        );
        if other_ph.digest_len() == ph.digest_len() {
            let relabelled = PreHashed::from_digest(other_ph, hashed.digest()).unwrap();
            prop_assert_eq!(
                vk.verify_prehashed(&relabelled, ctx, &det),
                Err(Error::InvalidSignature)
            );
        }
    }
    // Bound to the digest.
    let mut digest = hashed.digest().to_vec();
    digest[0] ^= 1;
    let tampered = PreHashed::from_digest(ph, &digest).unwrap();
    prop_assert_eq!(
        vk.verify_prehashed(&tampered, ctx, &det),
        Err(Error::InvalidSignature)
    );
    Ok(())
}

/// External mu: `compute_mu` + `sign_mu` + `verify_mu` agree with the one-shot API.
fn prop_external_mu<P: Set>(
    seed: [u8; SEED_LEN],
    rnd: [u8; 32],
    msg: &[u8],
    ctx: &[u8],
) -> TestResult {
    let sk = SigningKey::<P>::from_seed(&seed);
    let vk = sk.verifying_key();
    let mu = vk.compute_mu(msg, ctx).unwrap();
    let sig = sk.sign_mu(&mu, &rnd).unwrap();
    prop_assert_eq!(vk.verify_mu(&mu, &sig), Ok(()));
    prop_assert_eq!(vk.verify(msg, ctx, &sig), Ok(()));
    prop_assert_eq!(
        sk.sign_mu(&mu, &[0; 32]).unwrap(),
        sk.sign_deterministic(msg, ctx).unwrap()
    );
    let mut rng = TestRng::new(u64::from_le_bytes(rnd[..8].try_into().unwrap()));
    let hedged = sk.sign_mu_with_rng(&mut rng, &mu).unwrap();
    prop_assert_eq!(vk.verify_mu(&mu, &hedged), Ok(()));
    let mut other_mu = mu;
    other_mu[63] ^= 0x80;
    prop_assert_eq!(vk.verify_mu(&other_mu, &sig), Err(Error::InvalidSignature));
    Ok(())
}

/// The internal interface: sign_internal/verify_internal round trip, and pure ML-DSA is
/// sign_internal on M' = 0 || |ctx| || ctx || M (FIPS 204 Alg. 2 step 10).
fn prop_internal<P: Set>(
    seed: [u8; SEED_LEN],
    rnd: [u8; 32],
    m_prime: &[u8],
    msg: &[u8],
    ctx: &[u8],
) -> TestResult {
    let sk = SigningKey::<P>::from_seed(&seed);
    let vk = sk.verifying_key();
    let sig = sk.sign_internal(m_prime, &rnd).unwrap();
    prop_assert_eq!(vk.verify_internal(m_prime, &sig), Ok(()));
    let mut other = m_prime.to_vec();
    other.push(1);
    prop_assert_eq!(
        vk.verify_internal(&other, &sig),
        Err(Error::InvalidSignature)
    );

    let mut formatted = vec![0u8, ctx.len() as u8];
    formatted.extend_from_slice(ctx);
    formatted.extend_from_slice(msg);
    let pure = sk.sign_deterministic(msg, ctx).unwrap();
    prop_assert_eq!(sk.sign_internal(&formatted, &[0; 32]).unwrap(), pure);
    prop_assert_eq!(vk.verify_internal(&formatted, &pure), Ok(()));

    let mut b = MuBuilder::internal(vk.tr());
    b.update(&formatted);
    prop_assert_eq!(b.finalize(), vk.compute_mu(msg, ctx).unwrap());
    Ok(())
}

/// Streaming signing, verification and mu computation, over random chunkings and through
/// `std::io::Write`, give exactly the one-shot results.
fn prop_streaming<P: Set>(
    seed: [u8; SEED_LEN],
    rng_seed: u64,
    msg: &[u8],
    ctx: &[u8],
    cuts: &[usize],
    step: usize,
) -> TestResult {
    let sk = SigningKey::<P>::from_seed(&seed);
    let vk = sk.verifying_key();
    let pieces = chunks(msg, cuts);
    prop_assert_eq!(pieces.concat(), msg);
    let expected = sk.sign_deterministic(msg, ctx).unwrap();

    let mut signer = sk.message_signer(ctx).unwrap();
    for p in &pieces {
        signer.update(p);
    }
    prop_assert_eq!(signer.sign_deterministic().unwrap(), expected);

    // Hedged: the same randomness gives the same signature as the one-shot call.
    let mut signer = sk.message_signer(ctx).unwrap();
    for p in &pieces {
        signer.update(p);
    }
    let hedged = signer.sign_with_rng(&mut TestRng::new(rng_seed)).unwrap();
    prop_assert_eq!(
        &hedged,
        &sk.sign_with_rng(&mut TestRng::new(rng_seed), msg, ctx)
            .unwrap()
    );

    let mut verifier = vk.message_verifier(ctx).unwrap();
    for p in &pieces {
        verifier.update(p);
    }
    prop_assert_eq!(verifier.verify(&expected), Ok(()));
    let mut verifier = vk.message_verifier(ctx).unwrap();
    for p in &pieces {
        verifier.update(p);
    }
    prop_assert_eq!(verifier.verify(&hedged), Ok(()));
    // A stream with one byte more is another message.
    let mut verifier = vk.message_verifier(ctx).unwrap();
    for p in &pieces {
        verifier.update(p);
    }
    verifier.update(&[0]);
    prop_assert_eq!(verifier.verify(&expected), Err(Error::InvalidSignature));

    let mut builder = MuBuilder::pure(vk.tr(), ctx).unwrap();
    for p in &pieces {
        builder.update(p);
    }
    let mu = vk.compute_mu(msg, ctx).unwrap();
    prop_assert_eq!(builder.finalize(), mu);

    // std::io::Write: copy from a reader that trickles `step` bytes at a time.
    let mut signer = sk.message_signer(ctx).unwrap();
    let copied = io::copy(&mut TrickleReader { data: msg, step }, &mut signer).unwrap();
    prop_assert_eq!(copied, msg.len() as u64);
    prop_assert_eq!(signer.sign_deterministic().unwrap(), expected);

    let mut verifier = vk.message_verifier(ctx).unwrap();
    for p in &pieces {
        verifier.write_all(p).unwrap();
    }
    verifier.flush().unwrap();
    prop_assert_eq!(verifier.verify(&expected), Ok(()));

    let mut builder = MuBuilder::pure(vk.tr(), ctx).unwrap();
    io::copy(&mut TrickleReader { data: msg, step }, &mut builder).unwrap();
    prop_assert_eq!(builder.finalize(), mu);
    Ok(())
}

/// Single-bit flips of the signature (random position), message, context and verifying key
/// are all rejected.
fn prop_bit_flips_rejected<P: Set>(
    seed: [u8; SEED_LEN],
    msg: &[u8],
    ctx: &[u8],
    bits: [usize; 4],
) -> TestResult {
    let sk = SigningKey::<P>::from_seed(&seed);
    let vk = sk.verifying_key();
    let sig = sk.sign_deterministic(msg, ctx).unwrap();
    prop_assert_eq!(vk.verify(msg, ctx, &sig), Ok(()));

    let sig_bit = bits[0] % (P::SIG_LEN * 8);
    flipped_signature_is_rejected(vk, msg, ctx, &flip_bit(sig.as_bytes(), sig_bit))
        .map_err(|e| TestCaseError::fail(format!("signature bit {sig_bit}: {e}")))?;

    if !msg.is_empty() {
        let m = flip_bit(msg, bits[1] % (msg.len() * 8));
        prop_assert_eq!(vk.verify(&m, ctx, &sig), Err(Error::InvalidSignature));
        prop_assert_ne!(
            vk.compute_mu(&m, ctx).unwrap(),
            vk.compute_mu(msg, ctx).unwrap()
        );
    }
    if !ctx.is_empty() {
        let c = flip_bit(ctx, bits[2] % (ctx.len() * 8));
        prop_assert_eq!(vk.verify(msg, &c, &sig), Err(Error::InvalidSignature));
    }
    let pk_bit = bits[3] % (P::PK_LEN * 8);
    let other_vk = VerifyingKey::<P>::from_bytes(&flip_bit(vk.as_bytes(), pk_bit)).unwrap();
    prop_assert_ne!(other_vk.tr(), vk.tr());
    prop_assert_eq!(
        other_vk.verify(msg, ctx, &sig),
        Err(Error::InvalidSignature),
        "public key bit {}",
        pk_bit
    );
    Ok(())
}

/// Every decoder rejects a wrong length with `Error::Length` naming the input, the expected and
/// the actual length; the right length never gives a `Length` error.
fn prop_lengths<P: Set>(len: usize, fill: u8) -> TestResult {
    let bytes = vec![fill; len];
    let length = |input, expected| Error::Length {
        input,
        expected,
        got: len,
    };

    let r = VerifyingKey::<P>::from_bytes(&bytes);
    if len == P::PK_LEN {
        prop_assert!(r.is_ok(), "every {}-byte string is a verifying key", len);
    } else {
        prop_assert_eq!(r, Err(length(Input::VerifyingKey, P::PK_LEN)));
        prop_assert_eq!(
            VerifyingKey::<P>::try_from(&bytes[..]),
            Err(length(Input::VerifyingKey, P::PK_LEN))
        );
    }

    let r = Signature::<P>::from_bytes(&bytes);
    if len == P::SIG_LEN {
        let length_error = matches!(r, Err(Error::Length { .. }));
        prop_assert!(!length_error);
    } else {
        prop_assert_eq!(r, Err(length(Input::Signature, P::SIG_LEN)));
        prop_assert_eq!(
            Signature::<P>::try_from(&bytes[..]),
            Err(length(Input::Signature, P::SIG_LEN))
        );
    }

    if len == P::SK_LEN {
        let length_error = matches!(
            SigningKey::<P>::from_expanded(&bytes),
            Err(Error::Length { .. })
        );
        prop_assert!(!length_error);
    } else {
        prop_assert_eq!(
            SigningKey::<P>::from_expanded(&bytes).err(),
            Some(length(Input::SigningKey, P::SK_LEN))
        );
        prop_assert_eq!(
            SigningKey::<P>::from_expanded_unverified(&bytes).err(),
            Some(length(Input::SigningKey, P::SK_LEN))
        );
    }

    let r = SigningKey::<P>::from_seed_slice(&bytes);
    if len == SEED_LEN {
        let sk = r.unwrap();
        prop_assert_eq!(sk.seed(), Some(&[fill; SEED_LEN]));
    } else {
        prop_assert_eq!(r.err(), Some(length(Input::Seed, SEED_LEN)));
    }

    // Export into a caller's buffer: only exactly SK_LEN bytes are written, and a wrong-length
    // buffer is left untouched.
    let sk = SigningKey::<P>::from_seed(&[fill; SEED_LEN]);
    let mut out = vec![fill; len];
    let r = sk.write_expanded_bytes(&mut out);
    if len == P::SK_LEN {
        prop_assert_eq!(r, Ok(()));
        let expected = sk.to_expanded_bytes();
        prop_assert_eq!(&out[..], expected.as_ref());
    } else {
        prop_assert_eq!(r, Err(length(Input::SigningKey, P::SK_LEN)));
        prop_assert!(out.iter().all(|&b| b == fill));
    }
    Ok(())
}

/// Digest lengths of `PreHashed::from_digest` (independent of the parameter set).
fn prop_digest_length(ph: PreHash, len: usize) -> TestResult {
    let bytes = vec![0xA5; len];
    let r = PreHashed::from_digest(ph, &bytes);
    if len == ph.digest_len() {
        let d = r.unwrap();
        prop_assert_eq!(d.digest(), &bytes[..]);
        prop_assert_eq!(d.algorithm(), ph);
    } else {
        prop_assert_eq!(
            r,
            Err(Error::Length {
                input: Input::Digest,
                expected: ph.digest_len(),
                got: len
            })
        );
    }
    Ok(())
}

/// A context longer than 255 bytes is refused, with its length, by every entry point that
/// takes one.
fn prop_context_too_long<P: Set>(seed: [u8; SEED_LEN], len: usize) -> TestResult {
    let sk = SigningKey::<P>::from_seed(&seed);
    let vk = sk.verifying_key();
    let ctx = vec![0x5A; len];
    let msg = b"message";
    let e = Error::ContextTooLong { len };
    let ph = PreHashed::hash(PreHash::Sha2_256, msg);
    let sig = sk.sign_deterministic(msg, &[]).unwrap();
    let ph_sig = sk.sign_prehashed_deterministic(&ph, &[]).unwrap();

    prop_assert_eq!(sk.sign_with_rng(&mut TestRng::new(1), msg, &ctx), Err(e));
    prop_assert_eq!(sk.sign_deterministic(msg, &ctx), Err(e));
    prop_assert_eq!(
        sk.sign_prehashed_with_rng(&mut TestRng::new(1), &ph, &ctx),
        Err(e)
    );
    prop_assert_eq!(sk.sign_prehashed_deterministic(&ph, &ctx), Err(e));
    prop_assert_eq!(sk.message_signer(&ctx).err(), Some(e));
    prop_assert_eq!(vk.verify(msg, &ctx, &sig), Err(e));
    prop_assert_eq!(vk.verify_prehashed(&ph, &ctx, &ph_sig), Err(e));
    prop_assert_eq!(vk.compute_mu(msg, &ctx).err(), Some(e));
    prop_assert_eq!(vk.message_verifier(&ctx).err(), Some(e));
    prop_assert_eq!(MuBuilder::pure(vk.tr(), &ctx).err(), Some(e));
    prop_assert_eq!(MuBuilder::prehashed(vk.tr(), &ctx, &ph).err(), Some(e));
    Ok(())
}

/// A signature, verifying key or expanded key of parameter set `P` is never accepted as one of
/// `Q`: the lengths differ, and the error says so. Resized to `Q`'s length, it still does not
/// verify under `Q`'s key for the same seed.
fn prop_cross_parameter_sets<P: Set, Q: Set>(seed: [u8; SEED_LEN], msg: &[u8]) -> TestResult {
    let sk = SigningKey::<P>::from_seed(&seed);
    let sig = sk.sign_deterministic(msg, &[]).unwrap();
    let vk = sk.verifying_key();
    let expanded = sk.to_expanded_bytes();

    prop_assert_eq!(
        Signature::<Q>::from_bytes(sig.as_bytes()),
        Err(Error::Length {
            input: Input::Signature,
            expected: Q::SIG_LEN,
            got: P::SIG_LEN
        })
    );
    prop_assert_eq!(
        VerifyingKey::<Q>::from_bytes(vk.as_bytes()),
        Err(Error::Length {
            input: Input::VerifyingKey,
            expected: Q::PK_LEN,
            got: P::PK_LEN
        })
    );
    prop_assert_eq!(
        SigningKey::<Q>::from_expanded(expanded.as_ref()).err(),
        Some(Error::Length {
            input: Input::SigningKey,
            expected: Q::SK_LEN,
            got: P::SK_LEN
        })
    );

    // The same seed makes unrelated keys in the two sets.
    let sk_q = SigningKey::<Q>::from_seed(&seed);
    let vk_q = sk_q.verifying_key();
    prop_assert_ne!(&vk_q.as_bytes()[32..], &vk.as_bytes()[32..]);

    // P's signature truncated or zero-padded to Q's length: rejected one way or the other.
    let mut resized = sig.as_bytes().to_vec();
    resized.resize(Q::SIG_LEN, 0);
    match Signature::<Q>::from_bytes(&resized) {
        Err(Error::Malformed {
            input: Input::Signature,
            ..
        }) => {}
        Err(e) => prop_assert!(false, "unexpected error {:?}", e),
        Ok(s) => prop_assert_eq!(vk_q.verify(msg, &[], &s), Err(Error::InvalidSignature)),
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Exhaustive bit flips for fixed keys (plain tests; every bit position of the signature)
// ---------------------------------------------------------------------------------------------

/// Flips every bit of a signature, for two fixed keys, and checks that each result is
/// rejected. Work is split across threads since this is ~20k-37k verifications per key.
fn every_signature_bit_flip_is_rejected<P: Set>() {
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    for (seed_byte, ctx) in [(0x00u8, &b""[..]), (0xC3, &b"bit-flip context"[..])] {
        let sk = SigningKey::<P>::from_seed(&[seed_byte; SEED_LEN]);
        let vk = sk.verifying_key();
        let msg = b"every bit of this signature matters";
        let sig = sk.sign_deterministic(msg, ctx).unwrap();
        assert_eq!(vk.verify(msg, ctx, &sig), Ok(()));
        let total_bits = P::SIG_LEN * 8;
        let per_thread = total_bits.div_ceil(threads);
        let (malformed, invalid) = std::thread::scope(|s| {
            let handles: Vec<_> = (0..threads)
                .map(|t| {
                    let bytes = sig.as_bytes();
                    s.spawn(move || {
                        let (mut malformed, mut invalid) = (0usize, 0usize);
                        let start = t * per_thread;
                        let end = total_bits.min(start + per_thread);
                        for bit in start..end {
                            let flipped = flip_bit(bytes, bit);
                            if Signature::<P>::from_bytes(&flipped).is_err() {
                                malformed += 1;
                            } else {
                                invalid += 1;
                            }
                            if let Err(e) = flipped_signature_is_rejected(vk, msg, ctx, &flipped) {
                                panic!("{}: signature bit {bit}: {e}", P::NAME);
                            }
                        }
                        (malformed, invalid)
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap())
                .fold((0, 0), |(a, b), (c, d)| (a + c, b + d))
        });
        assert_eq!(malformed + invalid, total_bits);
        // Flips of c-tilde and of most of z decode and fail verification; flips in the hint
        // section mostly fail decoding.
        assert!(invalid >= 8 * (P::C_TILDE_LEN + P::L * 32 * P::Z_BITS) / 2);
        assert!(malformed > 0);
        println!(
            "{} key {seed_byte:#04x}: {total_bits} flips, {malformed} rejected by decoding, \
             {invalid} by verification",
            P::NAME
        );
    }
}

#[test]
fn every_signature_bit_flip_is_rejected_44() {
    every_signature_bit_flip_is_rejected::<MlDsa44>();
}

#[test]
fn every_signature_bit_flip_is_rejected_65() {
    every_signature_bit_flip_is_rejected::<MlDsa65>();
}

#[test]
fn every_signature_bit_flip_is_rejected_87() {
    every_signature_bit_flip_is_rejected::<MlDsa87>();
}

// ---------------------------------------------------------------------------------------------
// Fixed boundary cases (plain tests)
// ---------------------------------------------------------------------------------------------

/// Lengths 0, L - 1, L + 1, 2L and L + 4096 for every decoder.
fn fixed_wrong_lengths<P: Set>() {
    for l in [P::PK_LEN, P::SIG_LEN, P::SK_LEN, SEED_LEN] {
        for len in [0, 1, l - 1, l, l + 1, 2 * l, l + 4096] {
            prop_lengths::<P>(len, 0x3C).unwrap();
            prop_lengths::<P>(len, 0xFF).unwrap();
        }
    }
}

/// A 255-byte context works everywhere; 256 does not.
fn context_boundary<P: Set>() {
    let sk = SigningKey::<P>::from_seed(&[7; SEED_LEN]);
    let vk = sk.verifying_key();
    let msg = b"context boundary";
    let ctx = [0xEE; MAX_CONTEXT_LEN];
    let sig = sk.sign_deterministic(msg, &ctx).unwrap();
    assert_eq!(vk.verify(msg, &ctx, &sig), Ok(()));
    let hedged = sk.sign_with_rng(&mut TestRng::new(9), msg, &ctx).unwrap();
    assert_eq!(vk.verify(msg, &ctx, &hedged), Ok(()));
    let mut signer = sk.message_signer(&ctx).unwrap();
    signer.update(msg);
    assert_eq!(signer.sign_deterministic().unwrap(), sig);
    let mut verifier = vk.message_verifier(&ctx).unwrap();
    verifier.update(msg);
    assert_eq!(verifier.verify(&sig), Ok(()));
    let mu = vk.compute_mu(msg, &ctx).unwrap();
    let mut b = MuBuilder::pure(vk.tr(), &ctx).unwrap();
    b.update(msg);
    assert_eq!(b.finalize(), mu);
    assert_eq!(vk.verify_mu(&mu, &sig), Ok(()));
    let ph = PreHashed::hash(PreHash::Shake256, msg);
    let ph_sig = sk.sign_prehashed_deterministic(&ph, &ctx).unwrap();
    assert_eq!(vk.verify_prehashed(&ph, &ctx, &ph_sig), Ok(()));
    let ph_hedged = sk
        .sign_prehashed_with_rng(&mut TestRng::new(3), &ph, &ctx)
        .unwrap();
    assert_eq!(vk.verify_prehashed(&ph, &ctx, &ph_hedged), Ok(()));
    assert!(MuBuilder::prehashed(vk.tr(), &ctx, &ph).is_ok());

    for len in [MAX_CONTEXT_LEN + 1, 4096, 1 << 16] {
        prop_context_too_long::<P>([7; SEED_LEN], len).unwrap();
    }
}

#[test]
fn digest_lengths_fixed() {
    for ph in PreHash::ALL {
        let n = ph.digest_len();
        for len in [0, 1, n - 1, n, n + 1, 64, 65, 2 * n, 1000] {
            prop_digest_length(ph, len).unwrap();
        }
    }
}

#[test]
fn prehasher_streaming_matches_one_shot() {
    let msg: Vec<u8> = (0..3000u32).map(|i| (i * 31 % 251) as u8).collect();
    for ph in PreHash::ALL {
        let one_shot = PreHashed::hash(ph, &msg);
        for step in [1, 7, 64, 135, 136, 137, 4096] {
            let mut h = PreHasher::new(ph);
            assert_eq!(h.algorithm(), ph);
            for c in msg.chunks(step) {
                h.update(c);
            }
            assert_eq!(h.finalize(), one_shot, "{ph} step {step}");
            let mut h = PreHasher::new(ph);
            io::copy(&mut TrickleReader { data: &msg, step }, &mut h).unwrap();
            assert_eq!(h.finalize(), one_shot, "{ph} io::copy step {step}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(PARSE_CASES))]

    #[test]
    fn digest_lengths_random(ph in select(PreHash::ALL.to_vec()), len in 0usize..200) {
        prop_digest_length(ph, len)?;
    }
}

// ---------------------------------------------------------------------------------------------
// Instantiation per parameter set
// ---------------------------------------------------------------------------------------------

fn msg_strategy() -> impl Strategy<Value = Vec<u8>> {
    vec(any::<u8>(), 0..2048)
}

fn ctx_strategy() -> impl Strategy<Value = Vec<u8>> {
    vec(any::<u8>(), 0..=MAX_CONTEXT_LEN)
}

fn prehash_strategy() -> impl Strategy<Value = PreHash> {
    select(PreHash::ALL.to_vec())
}

macro_rules! instantiate {
    ($module:ident, $p:ty, $other1:ty, $other2:ty) => {
        mod $module {
            use super::*;

            #[test]
            fn wrong_lengths_fixed() {
                fixed_wrong_lengths::<$p>();
            }

            #[test]
            fn context_length_boundary() {
                context_boundary::<$p>();
            }

            proptest! {
                #![proptest_config(ProptestConfig::with_cases(SIGN_CASES))]

                #[test]
                fn encodings_round_trip(
                    seed in any::<[u8; 32]>(), msg in msg_strategy(), ctx in ctx_strategy(),
                ) {
                    prop_encodings_round_trip::<$p>(seed, &msg, &ctx)?;
                }

                #[test]
                fn sign_verify_hedged(
                    seed in any::<[u8; 32]>(), r in any::<u64>(),
                    msg in msg_strategy(), ctx in ctx_strategy(),
                ) {
                    prop_sign_verify_hedged::<$p>(seed, r, &msg, &ctx)?;
                }

                #[test]
                fn sign_verify_deterministic(
                    seed in any::<[u8; 32]>(), msg in msg_strategy(), ctx in ctx_strategy(),
                ) {
                    prop_sign_verify_deterministic::<$p>(seed, &msg, &ctx)?;
                }

                #[test]
                fn hedged_randomness(
                    seed in any::<[u8; 32]>(), r1 in any::<u64>(), r2 in any::<u64>(),
                    msg in msg_strategy(), ctx in ctx_strategy(),
                ) {
                    prop_hedged_randomness::<$p>(seed, r1, r2, &msg, &ctx)?;
                }

                #[test]
                fn prehashed(
                    seed in any::<[u8; 32]>(), r in any::<u64>(),
                    ph in prehash_strategy(), other_ph in prehash_strategy(),
                    msg in msg_strategy(), ctx in ctx_strategy(),
                ) {
                    prop_prehashed::<$p>(seed, r, ph, other_ph, &msg, &ctx)?;
                }

                #[test]
                fn external_mu(
                    seed in any::<[u8; 32]>(), rnd in any::<[u8; 32]>(),
                    msg in msg_strategy(), ctx in ctx_strategy(),
                ) {
                    prop_external_mu::<$p>(seed, rnd, &msg, &ctx)?;
                }

                #[test]
                fn internal_interface(
                    seed in any::<[u8; 32]>(), rnd in any::<[u8; 32]>(),
                    m_prime in msg_strategy(), msg in msg_strategy(), ctx in ctx_strategy(),
                ) {
                    prop_internal::<$p>(seed, rnd, &m_prime, &msg, &ctx)?;
                }

                #[test]
                fn streaming(
                    seed in any::<[u8; 32]>(), r in any::<u64>(),
                    msg in msg_strategy(), ctx in ctx_strategy(),
                    cuts in vec(any::<usize>(), 0..12), step in 1usize..300,
                ) {
                    prop_streaming::<$p>(seed, r, &msg, &ctx, &cuts, step)?;
                }

                #[test]
                fn bit_flips_rejected(
                    seed in any::<[u8; 32]>(), msg in msg_strategy(), ctx in ctx_strategy(),
                    bits in any::<[usize; 4]>(),
                ) {
                    prop_bit_flips_rejected::<$p>(seed, &msg, &ctx, bits)?;
                }

                #[test]
                fn context_too_long(
                    seed in any::<[u8; 32]>(), len in (MAX_CONTEXT_LEN + 1)..2048,
                ) {
                    prop_context_too_long::<$p>(seed, len)?;
                }

                #[test]
                fn cross_parameter_sets(seed in any::<[u8; 32]>(), msg in msg_strategy()) {
                    prop_cross_parameter_sets::<$p, $other1>(seed, &msg)?;
                    prop_cross_parameter_sets::<$p, $other2>(seed, &msg)?;
                }
            }

            proptest! {
                #![proptest_config(ProptestConfig::with_cases(PARSE_CASES))]

                #[test]
                fn wrong_lengths_random(len in 0usize..(2 * <$p>::SK_LEN), fill in any::<u8>()) {
                    prop_lengths::<$p>(len, fill)?;
                }

                #[test]
                fn wrong_lengths_near_each_size(
                    which in 0usize..4, delta in -64isize..=64, fill in any::<u8>(),
                ) {
                    let base = [<$p>::PK_LEN, <$p>::SIG_LEN, <$p>::SK_LEN, SEED_LEN][which];
                    let len = base.saturating_add_signed(delta);
                    prop_lengths::<$p>(len, fill)?;
                }
            }
        }
    };
}

instantiate!(ml_dsa_44, MlDsa44, MlDsa65, MlDsa87);
instantiate!(ml_dsa_65, MlDsa65, MlDsa44, MlDsa87);
instantiate!(ml_dsa_87, MlDsa87, MlDsa44, MlDsa65);
