//! Signing, verification and mu over streamed inputs, for any algorithm.

use crate::error::{CliError, Result};
use crate::files::{read_small, stream_into};
use crate::keys::{PublicKey, SecretKey};
use mldsa::legacy::{self, DilithiumParameterSet};
use mldsa::{MU_LEN, MuBuilder, ParameterSet, PreHash, PreHasher, SigningKey, VerifyingKey};

/// Where a signature's randomness comes from.
#[derive(Clone, Copy)]
pub enum Randomness {
    /// Fresh randomness from the OS (hedged; the default and the recommended mode).
    Hedged,
    /// None (rnd = 0^32; for Dilithium v3.1 its deterministic mode).
    Deterministic,
    /// Caller-supplied rnd (ML-DSA only; for tests and known-answer reproduction).
    Fixed([u8; 32]),
}

/// How the input is turned into the signed message representative.
pub struct MessageOptions {
    /// Context string (ML-DSA; at most 255 bytes).
    pub ctx: Vec<u8>,
    /// HashML-DSA with this pre-hash.
    pub prehash: Option<PreHash>,
    /// The input is mu itself (64 bytes, raw or hex).
    pub external_mu: bool,
}

impl MessageOptions {
    fn check_legacy(&self, alg: crate::alg::Alg) -> Result<()> {
        let unsupported = |what: &str| {
            Err(CliError::usage(format!(
                "{alg} (legacy Dilithium round 3) has no {what}; it signs the message as is"
            )))
        };
        if !self.ctx.is_empty() {
            return unsupported("context strings");
        }
        if self.prehash.is_some() {
            return unsupported("pre-hash mode");
        }
        if self.external_mu {
            return unsupported("external mu");
        }
        Ok(())
    }
}

fn lib_err(e: mldsa::Error) -> CliError {
    CliError::usage(e.to_string())
}

/// Reads an external mu: 64 raw bytes or 128 hex digits.
fn read_mu(path: &str) -> Result<[u8; MU_LEN]> {
    let bytes = read_small(path)?;
    let raw = if bytes.len() == MU_LEN {
        bytes
    } else {
        let text = std::str::from_utf8(&bytes).map(str::trim).unwrap_or("");
        hex::decode(text).unwrap_or_default()
    };
    raw.try_into().map_err(|_| {
        CliError::input(
            path,
            "external mu must be 64 bytes, raw or as 128 hex digits",
        )
    })
}

/// mu for ML-DSA: pure (with context), HashML-DSA, or given.
fn mldsa_mu<P: ParameterSet>(
    vk: &VerifyingKey<P>,
    input: &str,
    o: &MessageOptions,
) -> Result<[u8; MU_LEN]> {
    if o.external_mu {
        return read_mu(input);
    }
    if let Some(ph) = o.prehash {
        let mut h = PreHasher::new(ph);
        stream_into(input, &mut h)?;
        return MuBuilder::prehashed(vk.tr(), &o.ctx, &h.finalize()).map_err(lib_err);
    }
    let mut b = MuBuilder::pure(vk.tr(), &o.ctx).map_err(lib_err)?;
    stream_into(input, &mut b)?;
    Ok(b.finalize())
}

fn mldsa_sign<P: ParameterSet>(
    sk: &SigningKey<P>,
    input: &str,
    o: &MessageOptions,
    r: Randomness,
) -> Result<Vec<u8>> {
    let mu = mldsa_mu(sk.verifying_key(), input, o)?;
    let sig = match r {
        Randomness::Hedged => sk.sign_mu_with_rng(&mut getrandom::SysRng, &mu),
        Randomness::Deterministic => sk.sign_mu(&mu, &[0; 32]),
        Randomness::Fixed(rnd) => sk.sign_mu(&mu, &rnd),
    }
    .map_err(lib_err)?;
    // Verify-after-sign, always: one command signs once, so the extra third of a signature's
    // time is nothing, and a fault (failing hardware) must never write out a bad signature.
    if sk.verifying_key().verify_mu(&mu, &sig).is_err() {
        return Err(lib_err(mldsa::Error::FaultDetected));
    }
    Ok(sig.as_bytes().to_vec())
}

fn legacy_sign<P: DilithiumParameterSet>(
    sk: &legacy::SigningKey<P>,
    input: &str,
    r: Randomness,
) -> Result<Vec<u8>> {
    let mut s = sk.message_signer();
    stream_into(input, &mut s)?;
    let sig = match r {
        Randomness::Hedged => s.sign_randomized_with_rng(&mut getrandom::SysRng),
        Randomness::Deterministic => s.sign_deterministic(),
        Randomness::Fixed(_) => {
            return Err(CliError::usage(
                "--rnd is for ML-DSA; Dilithium v3.1 has no rnd input",
            ));
        }
    };
    Ok(sig.map_err(lib_err)?.as_bytes().to_vec())
}

/// Signs the input at `input` (a path or `-`).
pub fn sign(sk: &SecretKey, input: &str, o: &MessageOptions, r: Randomness) -> Result<Vec<u8>> {
    if sk.alg().is_legacy() {
        o.check_legacy(sk.alg())?;
    }
    match sk {
        SecretKey::MlDsa44(k) => mldsa_sign(k, input, o, r),
        SecretKey::MlDsa65(k) => mldsa_sign(k, input, o, r),
        SecretKey::MlDsa87(k) => mldsa_sign(k, input, o, r),
        SecretKey::Dilithium2(k) => legacy_sign(k, input, r),
        SecretKey::Dilithium3(k) => legacy_sign(k, input, r),
        SecretKey::Dilithium5(k) => legacy_sign(k, input, r),
        SecretKey::Dilithium2Aes(k) => legacy_sign(k, input, r),
        SecretKey::Dilithium3Aes(k) => legacy_sign(k, input, r),
        SecretKey::Dilithium5Aes(k) => legacy_sign(k, input, r),
    }
}

fn mldsa_verify<P: ParameterSet>(
    vk: &VerifyingKey<P>,
    input: &str,
    o: &MessageOptions,
    sig: &[u8],
) -> Result<bool> {
    let mu = mldsa_mu(vk, input, o)?;
    Ok(mldsa::Signature::<P>::from_bytes(sig).is_ok_and(|s| vk.verify_mu(&mu, &s).is_ok()))
}

fn legacy_verify<P: DilithiumParameterSet>(
    vk: &legacy::VerifyingKey<P>,
    input: &str,
    sig: &[u8],
) -> Result<bool> {
    let mut v = vk.message_verifier();
    stream_into(input, &mut v)?;
    Ok(legacy::Signature::<P>::from_bytes(sig).is_ok_and(|s| v.verify(&s).is_ok()))
}

/// Whether `sig` (already of the right length) is valid for the input under `pk`.
pub fn verify(pk: &PublicKey, input: &str, o: &MessageOptions, sig: &[u8]) -> Result<bool> {
    if pk.alg().is_legacy() {
        o.check_legacy(pk.alg())?;
    }
    match pk {
        PublicKey::MlDsa44(k) => mldsa_verify(k, input, o, sig),
        PublicKey::MlDsa65(k) => mldsa_verify(k, input, o, sig),
        PublicKey::MlDsa87(k) => mldsa_verify(k, input, o, sig),
        PublicKey::Dilithium2(k) => legacy_verify(k, input, sig),
        PublicKey::Dilithium3(k) => legacy_verify(k, input, sig),
        PublicKey::Dilithium5(k) => legacy_verify(k, input, sig),
        PublicKey::Dilithium2Aes(k) => legacy_verify(k, input, sig),
        PublicKey::Dilithium3Aes(k) => legacy_verify(k, input, sig),
        PublicKey::Dilithium5Aes(k) => legacy_verify(k, input, sig),
    }
}

/// mu of the input under `pk` (ML-DSA only).
pub fn mu(pk: &PublicKey, input: &str, o: &MessageOptions) -> Result<[u8; MU_LEN]> {
    match pk {
        PublicKey::MlDsa44(k) => mldsa_mu(k, input, o),
        PublicKey::MlDsa65(k) => mldsa_mu(k, input, o),
        PublicKey::MlDsa87(k) => mldsa_mu(k, input, o),
        _ => Err(CliError::usage(format!(
            "{} (legacy) has no external mu interface",
            pk.alg()
        ))),
    }
}
