//! CRYSTALS-Dilithium round 3 (v3.1) for the C API: `dilithium{2,3,5}_*` and the round-3
//! reference drop-in. Generic over the set, like the ML-DSA layer.

use mldsa_core::SEED_LEN;
use mldsa_core::legacy::{DilithiumParameterSet, Signature, SigningKey, VerifyingKey};
use zeroize::Zeroizing;

use crate::ops::{os_random, put};
use crate::status::{Outcome, Status};

/// KeyGen from zeta (given, or from the OS): writes pk and sk.
pub(crate) fn keypair<P: DilithiumParameterSet>(
    pk: &mut [u8],
    sk: &mut [u8],
    seed: Option<&[u8; SEED_LEN]>,
) -> Outcome {
    let seed = match seed {
        Some(s) => Zeroizing::new(*s),
        None => os_random()?,
    };
    let key = SigningKey::<P>::from_seed(&seed);
    put(pk, key.verifying_key().as_bytes())?;
    key.write_bytes(sk)?;
    Ok(())
}

/// Strict import of a secret key (ranges, and tr and t0 consistent).
pub(crate) fn sk_check<P: DilithiumParameterSet>(sk: &[u8]) -> Outcome {
    SigningKey::<P>::from_bytes(sk)
        .map(drop)
        .map_err(Status::from)
}

/// Signs `msg` with the secret key `sk` (used as given, like the reference): deterministic, or
/// randomized with OS randomness.
pub(crate) fn sign<P: DilithiumParameterSet>(
    sig: &mut [u8],
    msg: &[u8],
    sk: &[u8],
    randomized: bool,
) -> Outcome {
    let key = SigningKey::<P>::from_bytes_unverified(sk)?;
    let s = if randomized {
        key.sign_randomized(msg)?
    } else {
        key.sign_deterministic(msg)?
    };
    put(sig, s.as_bytes())
}

pub(crate) fn verify<P: DilithiumParameterSet>(sig: &[u8], msg: &[u8], pk: &[u8]) -> Outcome {
    let key = VerifyingKey::<P>::from_bytes(pk)?;
    key.verify(msg, &Signature::<P>::from_bytes(sig)?)?;
    Ok(())
}
