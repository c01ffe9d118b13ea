//! F-10: a failing random number generator is an error, never a key or a signature.
//!
//! [`FailingRng`] implements `rand_core::TryCryptoRng` (rand_core 0.10) and hands out a fixed
//! number of bytes before it fails, either refusing a request it cannot serve in full, or
//! (`Partial`) writing what it has left into the buffer and then failing, the nastier case,
//! where a careless caller would use a half-random buffer. Every API that draws randomness is
//! driven with budgets of 0 bytes (fails at once), 1 byte, and one byte short of what it needs:
//! each must return `Err(Error::Rng)` (or the `signature` crate's error) and stop asking the
//! generator after the first failure. With exactly the bytes it needs it must succeed, with the
//! same result as the deterministic entry point given those bytes, which proves the failing runs
//! failed because of the generator and not for some other reason.

use core::fmt;

use mldsa::rand_core::{TryCryptoRng, TryRng, utils};
use mldsa::{
    Error, MlDsa44, MlDsa65, MlDsa87, ParameterSet, PreHash, PreHashed, SEED_LEN, SigningKey,
};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// A request larger than what is left fails without touching the buffer.
    Refuse,
    /// A request larger than what is left gets the remaining bytes, then fails.
    Partial,
}

/// The generator's failure.
#[derive(Debug)]
struct RngDown;

impl fmt::Display for RngDown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("entropy source failed")
    }
}

impl core::error::Error for RngDown {}

/// Yields `budget` bytes (1, 2, 3, ...), then fails every request.
struct FailingRng {
    budget: usize,
    given: usize,
    mode: Mode,
    /// Requests that failed.
    failures: usize,
    /// Requests made after the first failure.
    asked_after_failure: usize,
}

impl FailingRng {
    fn new(budget: usize, mode: Mode) -> Self {
        FailingRng {
            budget,
            given: 0,
            mode,
            failures: 0,
            asked_after_failure: 0,
        }
    }

    fn next_byte(&mut self) -> u8 {
        self.given += 1;
        self.given as u8
    }
}

impl TryRng for FailingRng {
    type Error = RngDown;

    fn try_next_u32(&mut self) -> Result<u32, RngDown> {
        utils::next_word_via_fill(self)
    }

    fn try_next_u64(&mut self) -> Result<u64, RngDown> {
        utils::next_word_via_fill(self)
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), RngDown> {
        if self.failures > 0 {
            self.asked_after_failure += 1;
        }
        let left = self.budget - self.given;
        if dst.len() <= left {
            for d in dst {
                *d = self.next_byte();
            }
            return Ok(());
        }
        if self.mode == Mode::Partial {
            for d in &mut dst[..left] {
                *d = self.next_byte();
            }
        }
        self.failures += 1;
        Err(RngDown)
    }
}

impl TryCryptoRng for FailingRng {}

/// The bytes a `FailingRng` hands out first: 1, 2, 3, ...
fn stream<const N: usize>() -> [u8; N] {
    core::array::from_fn(|i| (i + 1) as u8)
}

const MODES: [Mode; 2] = [Mode::Refuse, Mode::Partial];

/// Runs `op` with generators that run dry before `need` bytes; each run must fail with an
/// RNG error (checked by `is_rng_error`) after asking exactly once more than it could get.
fn assert_fails_short_of<T, E: fmt::Debug>(
    what: &str,
    need: usize,
    mut op: impl FnMut(&mut FailingRng) -> Result<T, E>,
    is_rng_error: impl Fn(&E) -> bool,
) {
    let mut budgets = vec![0, 1, need / 2, need - 1];
    budgets.dedup();
    for mode in MODES {
        for &budget in &budgets {
            let mut rng = FailingRng::new(budget, mode);
            match op(&mut rng) {
                Ok(_) => panic!(
                    "{what}: produced output although the RNG failed ({budget} bytes, {mode:?})"
                ),
                Err(e) => assert!(
                    is_rng_error(&e),
                    "{what}: wrong error {e:?} for a failing RNG ({budget} bytes, {mode:?})"
                ),
            }
            assert_eq!(
                rng.failures, 1,
                "{what}: RNG failure not seen ({budget} bytes, {mode:?})"
            );
            assert_eq!(
                rng.asked_after_failure, 0,
                "{what}: kept asking the RNG after it failed ({budget} bytes, {mode:?})"
            );
        }
    }
}

fn is_rng(e: &Error) -> bool {
    *e == Error::Rng
}

fn is_signature_error(e: &mldsa::signature::Error) -> bool {
    // The `signature` crate's error is opaque; with `alloc` (a default feature) it carries
    // our error as its source.
    let source = core::error::Error::source(e).and_then(|s| s.downcast_ref::<Error>());
    source == Some(&Error::Rng)
}

/// A generator with exactly `need` bytes, for the successful control runs.
fn enough(need: usize) -> FailingRng {
    FailingRng::new(need, Mode::Refuse)
}

fn key_generation<P: ParameterSet>() {
    assert_fails_short_of(
        "generate_with_rng",
        SEED_LEN,
        SigningKey::<P>::generate_with_rng,
        is_rng,
    );
    let mut rng = enough(SEED_LEN);
    let sk = SigningKey::<P>::generate_with_rng(&mut rng).expect("enough randomness");
    let expected = SigningKey::<P>::from_seed(&stream::<32>());
    assert_eq!(
        sk.seed(),
        expected.seed(),
        "seed is not the generator's output"
    );
    assert_eq!(sk.verifying_key(), expected.verifying_key());
}

fn signing<P: ParameterSet>() {
    let sk = SigningKey::<P>::from_seed(&[3; 32]);
    let vk = *sk.verifying_key();
    let (msg, ctx) = (&b"message"[..], &b"ctx"[..]);
    let mu = vk.compute_mu(msg, ctx).expect("mu");
    let rnd = stream::<32>();
    let expected = sk.sign_mu(&mu, &rnd).expect("sign_mu");
    let ph = PreHashed::hash(PreHash::Sha2_256, msg);

    assert_fails_short_of(
        "sign_with_rng",
        32,
        |r| sk.sign_with_rng(r, msg, ctx),
        is_rng,
    );
    let sig = sk.sign_with_rng(&mut enough(32), msg, ctx).expect("enough");
    assert_eq!(sig, expected);
    vk.verify(msg, ctx, &sig)
        .expect("control signature verifies");

    assert_fails_short_of(
        "sign_mu_with_rng",
        32,
        |r| sk.sign_mu_with_rng(r, &mu),
        is_rng,
    );
    assert_eq!(
        sk.sign_mu_with_rng(&mut enough(32), &mu).expect("enough"),
        expected
    );

    assert_fails_short_of(
        "sign_prehashed_with_rng",
        32,
        |r| sk.sign_prehashed_with_rng(r, &ph, ctx),
        is_rng,
    );
    let sig = sk
        .sign_prehashed_with_rng(&mut enough(32), &ph, ctx)
        .expect("enough");
    vk.verify_prehashed(&ph, ctx, &sig)
        .expect("control verifies");

    assert_fails_short_of(
        "MessageSigner::sign_with_rng",
        32,
        |r| {
            let mut s = sk.message_signer(ctx).expect("ctx");
            s.update(&msg[..3]).update(&msg[3..]);
            s.sign_with_rng(r)
        },
        is_rng,
    );
    let mut s = sk.message_signer(ctx).expect("ctx");
    s.update(msg);
    assert_eq!(s.sign_with_rng(&mut enough(32)).expect("enough"), expected);

    // The `signature` crate's traits (empty context).
    let mu_empty = vk.compute_mu(msg, b"").expect("mu");
    let expected_empty = sk.sign_mu(&mu_empty, &rnd).expect("sign_mu");
    assert_fails_short_of(
        "RandomizedSigner::try_sign_with_rng",
        32,
        |r| mldsa::signature::RandomizedSigner::try_sign_with_rng(&sk, r, msg),
        is_signature_error,
    );
    let sig = mldsa::signature::RandomizedSigner::try_sign_with_rng(&sk, &mut enough(32), msg)
        .expect("enough");
    assert_eq!(sig, expected_empty);
    assert_fails_short_of(
        "RandomizedMultipartSigner::try_multipart_sign_with_rng",
        32,
        |r| {
            mldsa::signature::RandomizedMultipartSigner::try_multipart_sign_with_rng(
                &sk,
                r,
                &[&msg[..2], &msg[2..]],
            )
        },
        is_signature_error,
    );

    // A failed attempt leaves the key usable.
    let again = sk
        .sign_with_rng(&mut enough(32), msg, ctx)
        .expect("after failures");
    assert_eq!(again, expected);
}

#[test]
fn failing_rng_keygen_is_an_error_ml_dsa_44() {
    key_generation::<MlDsa44>();
}

#[test]
fn failing_rng_keygen_is_an_error_ml_dsa_65() {
    key_generation::<MlDsa65>();
}

#[test]
fn failing_rng_keygen_is_an_error_ml_dsa_87() {
    key_generation::<MlDsa87>();
}

#[test]
fn failing_rng_signing_is_an_error_ml_dsa_44() {
    signing::<MlDsa44>();
}

#[test]
fn failing_rng_signing_is_an_error_ml_dsa_65() {
    signing::<MlDsa65>();
}

#[test]
fn failing_rng_signing_is_an_error_ml_dsa_87() {
    signing::<MlDsa87>();
}

#[test]
fn the_test_generator_fails_as_designed() {
    let mut rng = FailingRng::new(5, Mode::Partial);
    let mut buf = [0u8; 8];
    assert!(rng.try_fill_bytes(&mut buf[..3]).is_ok());
    assert_eq!(buf[..3], [1, 2, 3]);
    assert!(rng.try_fill_bytes(&mut buf).is_err());
    assert_eq!(buf[..2], [4, 5], "partial mode writes what is left");
    assert_eq!((rng.failures, rng.asked_after_failure), (1, 0));
    assert!(rng.try_next_u32().is_err());
    assert_eq!(rng.asked_after_failure, 1);

    let mut rng = FailingRng::new(0, Mode::Refuse);
    let mut buf = [9u8; 4];
    assert!(rng.try_fill_bytes(&mut buf).is_err());
    assert_eq!(buf, [9; 4], "refuse mode leaves the buffer alone");
    assert!(
        rng.try_fill_bytes(&mut []).is_ok(),
        "an empty request always succeeds"
    );
}

/// Dilithium round 3 (the `legacy` module): key generation (32-byte seed) and randomized
/// signing (64-byte rho'').
#[test]
fn failing_rng_legacy_dilithium_is_an_error() {
    use mldsa::legacy::{Dilithium2, Dilithium3, Dilithium5, DilithiumParameterSet, SigningKey};

    fn run<P: DilithiumParameterSet>() {
        assert_fails_short_of(
            "legacy generate_with_rng",
            32,
            SigningKey::<P>::generate_with_rng,
            is_rng,
        );
        let sk = SigningKey::<P>::generate_with_rng(&mut enough(32)).expect("enough");
        assert_eq!(sk.seed(), Some(&stream::<32>()));
        let msg = b"legacy";
        assert_fails_short_of(
            "legacy sign_randomized_with_rng",
            64,
            |r| sk.sign_randomized_with_rng(r, msg),
            is_rng,
        );
        assert_fails_short_of(
            "LegacyMessageSigner::sign_randomized_with_rng",
            64,
            |r| {
                let mut s = sk.message_signer();
                s.update(msg);
                s.sign_randomized_with_rng(r)
            },
            is_rng,
        );
        let sig = sk
            .sign_randomized_with_rng(&mut enough(64), msg)
            .expect("enough");
        sk.verifying_key()
            .verify(msg, &sig)
            .expect("control verifies");
    }
    run::<Dilithium2>();
    run::<Dilithium3>();
    run::<Dilithium5>();
    run::<mldsa::legacy::Dilithium2Aes>();
    run::<mldsa::legacy::Dilithium3Aes>();
    run::<mldsa::legacy::Dilithium5Aes>();
}

/// `AnySigningKey::sign_with_rng` (pkix).
#[cfg(feature = "pkcs8")]
#[test]
fn failing_rng_any_signing_key_is_an_error() {
    use mldsa::pkix::AnySigningKey;
    for any in [
        AnySigningKey::from(SigningKey::<MlDsa44>::from_seed(&[1; 32])),
        AnySigningKey::from(SigningKey::<MlDsa65>::from_seed(&[1; 32])),
        AnySigningKey::from(SigningKey::<MlDsa87>::from_seed(&[1; 32])),
    ] {
        assert_fails_short_of(
            "AnySigningKey::sign_with_rng",
            32,
            |r| any.sign_with_rng(r, b"m", b""),
            is_rng,
        );
        let sig = any
            .sign_with_rng(&mut enough(32), b"m", b"")
            .expect("enough");
        any.verifying_key()
            .verify(b"m", b"", &sig)
            .expect("control verifies");
    }
}

/// Password-encrypted PKCS#8: the salt (16 bytes) and IV (16 bytes) come from the generator;
/// running dry at any point must give an error, never a document.
#[cfg(feature = "pkcs8-encryption")]
#[test]
fn failing_rng_encrypted_pkcs8_is_an_error() {
    use mldsa::pkix::KeyForm;
    let sk = SigningKey::<MlDsa44>::from_seed(&[2; 32]);
    for budget in [0, 1, 15, 16, 17, 31] {
        for mode in MODES {
            let mut rng = FailingRng::new(budget, mode);
            let der = sk.to_pkcs8_encrypted_der_with_rng(KeyForm::Seed, "pw", &mut rng);
            assert!(
                der.is_err(),
                "encrypted DER with a failing RNG ({budget}, {mode:?})"
            );
            assert_eq!(der.unwrap_err(), Error::Rng);
            assert_eq!((rng.failures, rng.asked_after_failure), (1, 0));
            let mut rng = FailingRng::new(budget, mode);
            let pem = sk.to_pkcs8_encrypted_pem_with_rng(KeyForm::Seed, "pw", &mut rng);
            assert_eq!(pem.unwrap_err(), Error::Rng);
        }
    }
    let der = sk
        .to_pkcs8_encrypted_der_with_rng(KeyForm::Seed, "pw", &mut enough(32))
        .expect("enough");
    let back = SigningKey::<MlDsa44>::from_pkcs8_encrypted_der(&der, "pw").expect("decrypt");
    assert_eq!(back.verifying_key(), sk.verifying_key());
}
