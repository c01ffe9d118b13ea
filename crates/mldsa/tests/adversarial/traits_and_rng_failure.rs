//! The signature crate's traits, RNG failure as an error, and the compile-time zeroize and
//! auto-trait assertions.

use std::fmt::Debug;

use mldsa::signature::{
    Keypair, MultipartSigner, MultipartVerifier, RandomizedSigner, SignatureEncoding, Signer,
    Verifier,
};
use mldsa::{
    Error, MlDsa44, MlDsa65, MlDsa87, MuBuilder, ParameterSet, PreHash, PreHashed, SEED_LEN,
    Signature, SigningKey, VerifyingKey,
};

use crate::helpers::*;

/// Signs and verifies through the `signature` traits only.
pub(crate) fn via_signature_traits<S, Sig>(signer: &S, msg: &[u8]) -> Sig
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

pub(crate) fn signature_traits<P: ParameterSet>()
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

pub(crate) fn failing_rng_is_an_error<P: ParameterSet>() {
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

pub(crate) fn assert_zeroize_on_drop<T: zeroize::ZeroizeOnDrop>() {}
pub(crate) fn assert_send_sync<T: Send + Sync>() {}

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
