//! Sign then verify through every front door: hedged, deterministic, HashML-DSA, external mu,
//! internal interface, streaming and `std::io::Write`.

use std::io::{self, Write};

use mldsa::{Error, MuBuilder, PreHash, PreHashed, SEED_LEN, SigningKey};
use proptest::prelude::*;

use crate::helpers::*;

/// Hedged pure ML-DSA: sign then verify; another message, context or key is rejected.
pub(crate) fn prop_sign_verify_hedged<P: Set>(
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
pub(crate) fn prop_sign_verify_deterministic<P: Set>(
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
pub(crate) fn prop_hedged_randomness<P: Set>(
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
pub(crate) fn prop_prehashed<P: Set>(
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
pub(crate) fn prop_external_mu<P: Set>(
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
pub(crate) fn prop_internal<P: Set>(
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
pub(crate) fn prop_streaming<P: Set>(
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
