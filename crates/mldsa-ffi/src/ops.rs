//! The safe layer under the C ABI: every ML-DSA operation once, generic over the parameter set,
//! on checked slices. The boundary turns C pointers into these slices and maps the results.
//!
//! Every signing door reduces to Sign_internal on a mu (FIPS 204 Algorithm 7 from step 6), so
//! one [`Message`] enum says how mu is built and one function signs, one verifies.

use mldsa_core::{
    MU_LEN, MuBuilder, ParameterSet, PreHash, PreHashed, SEED_LEN, Signature, SigningKey,
    VerifyingKey,
};
use zeroize::Zeroizing;

use crate::status::{Outcome, Status};

/// What is signed or verified, i.e. how mu is formed.
#[derive(Clone, Copy)]
pub(crate) enum Message<'a> {
    /// ML-DSA.Sign / Verify (Algorithms 2, 3): M with a context.
    Pure { msg: &'a [u8], ctx: &'a [u8] },
    /// HashML-DSA (Algorithms 4, 5) on a message hashed here.
    PreHash {
        alg: PreHash,
        msg: &'a [u8],
        ctx: &'a [u8],
    },
    /// HashML-DSA on a digest the caller computed.
    Digest {
        alg: PreHash,
        digest: &'a [u8],
        ctx: &'a [u8],
    },
    /// The internal interface (Algorithms 7, 8) on M' = `pre` || `m`: `pre` empty for
    /// mldsa.h's `_sign_internal`, and whatever prefix the caller built for the pq-crystals
    /// reference's `_signature_internal` (0 || len(ctx) || ctx for pure ML-DSA, say).
    Internal { pre: &'a [u8], m: &'a [u8] },
    /// External mu.
    Mu(&'a [u8; MU_LEN]),
}

impl Message<'_> {
    /// mu = H(tr || M', 64) for this message under the key with hash `tr`.
    pub(crate) fn mu(self, tr: &[u8; 64]) -> Result<[u8; MU_LEN], Status> {
        Ok(match self {
            Message::Pure { msg, ctx } => {
                let mut b = MuBuilder::pure(tr, ctx)?;
                b.update(msg);
                b.finalize()
            }
            Message::PreHash { alg, msg, ctx } => {
                MuBuilder::prehashed(tr, ctx, &PreHashed::hash(alg, msg))?
            }
            Message::Digest { alg, digest, ctx } => {
                MuBuilder::prehashed(tr, ctx, &PreHashed::from_digest(alg, digest)?)?
            }
            Message::Internal { pre, m } => {
                let mut b = MuBuilder::internal(tr);
                b.update(pre);
                b.update(m);
                b.finalize()
            }
            Message::Mu(mu) => *mu,
        })
    }
}

/// The pre-hash with C id `id` (mldsa.h's `MLDSA_PH_*`: the order of FIPS 204 section 5.4's
/// list, as [`PreHash::ALL`]).
pub(crate) fn prehash(id: i32) -> Result<PreHash, Status> {
    usize::try_from(id)
        .ok()
        .and_then(|i| PreHash::ALL.get(i).copied())
        .ok_or(Status::Unsupported)
}

/// 32 bytes from the operating system.
pub(crate) fn os_random<const N: usize>() -> Result<Zeroizing<[u8; N]>, Status> {
    let mut out = Zeroizing::new([0u8; N]);
    getrandom::fill(out.as_mut()).map_err(|_| Status::Rng)?;
    Ok(out)
}

/// `rnd` as given, or fresh from the OS when absent (hedged signing).
pub(crate) fn rnd_or_os(rnd: Option<&[u8; 32]>) -> Result<Zeroizing<[u8; 32]>, Status> {
    match rnd {
        Some(r) => Ok(Zeroizing::new(*r)),
        None => os_random(),
    }
}

/// Copies `src` into `out`, which must be exactly as long.
pub(crate) fn put(out: &mut [u8], src: &[u8]) -> Outcome {
    if out.len() != src.len() {
        return Err(Status::Length);
    }
    out.copy_from_slice(src);
    Ok(())
}

/// KeyGen (Algorithm 1, or 6 with a given seed): writes pk and the expanded sk.
pub(crate) fn keypair<P: ParameterSet>(
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
    key.write_expanded_bytes(sk)?;
    Ok(())
}

/// The public key of a seed.
pub(crate) fn pk_from_seed<P: ParameterSet>(pk: &mut [u8], seed: &[u8; SEED_LEN]) -> Outcome {
    put(
        pk,
        SigningKey::<P>::from_seed(seed).verifying_key().as_bytes(),
    )
}

/// The public key of an expanded key, which is imported strictly.
pub(crate) fn pk_from_sk<P: ParameterSet>(pk: &mut [u8], sk: &[u8]) -> Outcome {
    put(
        pk,
        SigningKey::<P>::from_expanded(sk)?
            .verifying_key()
            .as_bytes(),
    )
}

/// Strict import of an expanded key: ranges, and tr and t0 consistent with rho, s1, s2.
pub(crate) fn sk_check<P: ParameterSet>(sk: &[u8]) -> Outcome {
    SigningKey::<P>::from_expanded(sk)
        .map(drop)
        .map_err(Status::from)
}

/// Signs `message` with the expanded key `sk` (used as given, like the reference: ranges
/// checked, tr and t0 trusted); `rnd` absent means hedged with OS randomness.
pub(crate) fn sign<P: ParameterSet>(
    sig: &mut [u8],
    message: Message<'_>,
    rnd: Option<&[u8; 32]>,
    sk: &[u8],
) -> Outcome {
    let rnd = rnd_or_os(rnd)?;
    let signature = match message {
        // The fast path the core offers for the commonest call: no key object, no public key.
        Message::Pure { msg, ctx } => SigningKey::<P>::sign_with_expanded(sk, msg, ctx, &rnd)?,
        _ => {
            let key = SigningKey::<P>::from_expanded_unverified(sk)?;
            key.sign_mu(&message.mu(key.verifying_key().tr())?, &rnd)?
        }
    };
    put(sig, signature.as_bytes())
}

/// Verifies `sig` on `message` under the encoded public key `pk`.
pub(crate) fn verify<P: ParameterSet>(sig: &[u8], message: Message<'_>, pk: &[u8]) -> Outcome {
    if let Message::Pure { msg, ctx } = message {
        // The core's one-shot path for the commonest call: no key object, the signature decoded
        // once, tr hashed alongside ExpandA.
        VerifyingKey::<P>::verify_with_bytes(pk, msg, ctx, sig)?;
        return Ok(());
    }
    let key = VerifyingKey::<P>::from_bytes(pk)?;
    let sig = Signature::<P>::from_bytes(sig)?;
    key.verify_mu(&message.mu(key.tr())?, &sig)?;
    Ok(())
}

/// External mu: mu of a pure message under the public key `pk`.
pub(crate) fn compute_mu<P: ParameterSet>(
    mu: &mut [u8],
    message: Message<'_>,
    pk: &[u8],
) -> Outcome {
    let key = VerifyingKey::<P>::from_bytes(pk)?;
    put(mu, &message.mu(key.tr())?)
}
