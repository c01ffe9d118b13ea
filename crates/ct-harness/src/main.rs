//! Runs the real key generation and signing code with the secrets marked undefined for
//! valgrind memcheck: any branch or memory address that depends on a secret is reported.
//!
//! Build and run (see `scripts/ct-check.sh`):
//!
//! ```text
//! RUSTFLAGS="--cfg mldsa_ct" cargo build --profile ct -p ct-harness
//! valgrind -q --error-exitcode=1 target/ct/ct-harness
//! ```
//!
//! Secrets come from the OS RNG so the compiler cannot fold them. Outputs are declassified
//! before they are compared, because comparing and printing branch on their bytes.

#[cfg(not(mldsa_ct))]
fn main() {
    eprintln!(
        "ct-harness must be built with RUSTFLAGS=\"--cfg mldsa_ct\" (see scripts/ct-check.sh)"
    );
    std::process::exit(2);
}

#[cfg(mldsa_ct)]
fn main() {
    use mldsa::ct::{classify, declassify};
    use mldsa::legacy::{
        self, Dilithium2, Dilithium2Aes, Dilithium3, Dilithium3Aes, Dilithium5, Dilithium5Aes,
        DilithiumParameterSet,
    };
    use mldsa::{MlDsa44, MlDsa65, MlDsa87, ParameterSet, SigningKey};

    fn random<const N: usize>() -> [u8; N] {
        let mut out = [0u8; N];
        getrandom::fill(&mut out).expect("OS RNG");
        out
    }

    /// The OS generator, with every byte it hands out marked secret: randomised front doors
    /// (hedged `sign_with_rng`, legacy randomized signing) run with secret randomness.
    struct SecretRng;

    impl mldsa::rand_core::TryRng for SecretRng {
        type Error = core::convert::Infallible;
        fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
            mldsa::rand_core::utils::next_word_via_fill(self)
        }
        fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
            mldsa::rand_core::utils::next_word_via_fill(self)
        }
        fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
            getrandom::fill(dst).expect("OS RNG");
            classify(dst);
            Ok(())
        }
    }
    impl mldsa::rand_core::TryCryptoRng for SecretRng {}

    fn mldsa_ops<P: ParameterSet>() {
        // KeyGen with a secret seed.
        let mut seed = random::<32>();
        classify(&mut seed);
        let sk = SigningKey::<P>::from_seed(&seed);
        // Signing with every secret part of the key marked, hedged (secret rnd) and deterministic,
        // pure, HashML-DSA and external mu.
        let mut sk = sk.clone();
        sk.ct_classify_secrets();
        let msg = random::<64>();
        let mut rnd = random::<32>();
        classify(&mut rnd);
        let mu = sk.verifying_key().compute_mu(&msg, b"ctx").unwrap();
        let mut hedged = sk.sign_mu(&mu, &rnd).unwrap();
        let mut deterministic = sk.sign_deterministic(&msg, b"ctx").unwrap();
        let ph = mldsa::PreHashed::hash(mldsa::PreHash::Sha2_512, &msg);
        let mut prehashed = sk.sign_prehashed_deterministic(&ph, b"").unwrap();
        // A prepared key (A-hat kept) signs the same way.
        let mut prepared = sk.clone().prepared().sign_mu(&mu, &rnd).unwrap();
        declassify(&mut prepared);
        declassify(&mut hedged);
        assert!(prepared == hedged);
        declassify(&mut deterministic);
        declassify(&mut prehashed);
        // The hedged front door draws rnd from a generator whose output is secret.
        let mut from_rng = sk.sign_with_rng(&mut SecretRng, &msg, b"ctx").unwrap();
        declassify(&mut from_rng);
        let vk = sk.verifying_key();
        assert!(vk.verify(&msg, b"ctx", &from_rng).is_ok());
        assert!(vk.verify_mu(&mu, &hedged).is_ok());
        assert!(vk.verify(&msg, b"ctx", &deterministic).is_ok());
        assert!(vk.verify_prehashed(&ph, b"", &prehashed).is_ok());

        // Expanded-key export and strict import (range and consistency checks) of secret bytes.
        let mut expanded = sk.to_expanded_bytes();
        classify(&mut expanded.as_mut()[32..64]); // K
        classify(&mut expanded.as_mut()[128..]); // s1, s2, t0
        let imported = SigningKey::<P>::from_expanded(expanded.as_ref()).unwrap();
        let mut again = imported.sign_deterministic(&msg, b"ctx").unwrap();
        declassify(&mut again);
        assert!(again == deterministic);
        // The unchecked import, and one-shot signing from the expanded bytes (hedged, secret
        // rnd), decode the same secret bytes another way.
        let unverified = SigningKey::<P>::from_expanded_unverified(expanded.as_ref()).unwrap();
        let mut again = unverified.sign_deterministic(&msg, b"ctx").unwrap();
        declassify(&mut again);
        assert!(again == deterministic);
        let mut one_shot =
            SigningKey::<P>::sign_with_expanded(expanded.as_ref(), &msg, b"ctx", &rnd).unwrap();
        declassify(&mut one_shot);
        assert!(vk.verify(&msg, b"ctx", &one_shot).is_ok());
        // The same from an external mu (how the Python drop-in signs with key bytes).
        let mut one_shot_mu =
            SigningKey::<P>::sign_mu_with_expanded(expanded.as_ref(), &mu, &rnd).unwrap();
        declassify(&mut one_shot_mu);
        assert!(vk.verify_mu(&mu, &one_shot_mu).is_ok());
        // Streaming: the message arrives in pieces.
        let mut signer = sk.message_signer(b"ctx").unwrap();
        signer.update(&msg[..10]).update(&msg[10..]);
        let mut streamed = signer.sign_deterministic().unwrap();
        declassify(&mut streamed);
        assert!(streamed == deterministic);

        // PKCS#8 seed form round trip; the DER structure is public, the seed (last 32 bytes) not.
        let mut der = sk.to_pkcs8_der(mldsa::pkix::KeyForm::Seed).unwrap();
        let n = der.len();
        classify(&mut der.as_mut_slice()[n - 32..]);
        let _ = SigningKey::<P>::from_pkcs8_der(&der).unwrap();
        println!(
            "{}: keygen, sign (hedged from mu and from an RNG, deterministic, pre-hash, streamed, one-shot from expanded bytes), import (checked, unchecked): done",
            P::NAME
        );
    }

    fn legacy_ops<P: DilithiumParameterSet>() {
        let mut seed = random::<32>();
        classify(&mut seed);
        let sk = legacy::SigningKey::<P>::from_seed(&seed);
        let msg = random::<64>();
        let mut sig = sk.sign_deterministic(&msg).unwrap();
        declassify(&mut sig);
        assert!(sk.verifying_key().verify(&msg, &sig).is_ok());
        // Secret-key decoding (range-checked) of secret bytes, then signing with the result.
        let mut bytes = sk.to_bytes();
        classify(&mut bytes.as_mut()[32..64]); // K
        classify(&mut bytes.as_mut()[96..]); // s1, s2, t0 (after rho, K and the 32-byte tr)
        let decoded = legacy::SigningKey::<P>::from_bytes(bytes.as_ref()).unwrap();
        let mut again = decoded.sign_deterministic(&msg).unwrap();
        declassify(&mut again);
        assert!(again == sig);
        // One-shot signing from the secret bytes (how the Python drop-in signs).
        let mut one_shot =
            legacy::SigningKey::<P>::sign_deterministic_with_bytes(bytes.as_ref(), &msg).unwrap();
        declassify(&mut one_shot);
        assert!(one_shot == sig);
        // Randomized signing (v3.1): rho' comes from a generator whose output is secret.
        let mut randomized = decoded
            .sign_randomized_with_rng(&mut SecretRng, &msg)
            .unwrap();
        declassify(&mut randomized);
        assert!(sk.verifying_key().verify(&msg, &randomized).is_ok());
        println!(
            "{}: keygen, sign (deterministic, randomized, one-shot from bytes), secret-key decode: done",
            P::NAME
        );
    }

    println!("backend: {:?}", mldsa::backend::active_backend());
    // Which AES the AES sets run on here (valgrind's CPU may lack AES-NI); ct-check.sh reads it.
    let aes = if aes::hardware_accelerated() {
        "AES-NI"
    } else {
        "software"
    };
    println!("aes: {aes}");
    mldsa_ops::<MlDsa44>();
    mldsa_ops::<MlDsa65>();
    mldsa_ops::<MlDsa87>();
    legacy_ops::<Dilithium2>();
    legacy_ops::<Dilithium3>();
    legacy_ops::<Dilithium5>();
    // The AES sets (v3.1 section 5.3): ExpandS and ExpandMask key AES-256-CTR with secrets
    // (rho', rho''). The `aes` crate runs AES-NI where the CPU (and valgrind's) has it;
    // `scripts/ct-check.sh` also builds this harness with `--cfg aes_backend="soft"` so that the
    // crate's software fallback runs here too.
    legacy_ops::<Dilithium2Aes>();
    legacy_ops::<Dilithium3Aes>();
    legacy_ops::<Dilithium5Aes>();
}
