//! Verifying straight from public key bytes, the way dilithium-py's API verifies
//! (`ML_DSA_65.verify(pk, m, sig)` passes the key bytes every time), with the key each ML-DSA
//! parameter set last verified with kept prepared between calls.
//!
//! A prepared verifying key keeps A-hat and NTT(t1 * 2^d), which a verification otherwise
//! rebuilds (ExpandA alone is most of it): with it, a verification costs about a third. All of
//! it is public (made from the public key), so keeping it keeps no secret. A key is prepared the
//! second time in a row it is seen, so a program that verifies one signature per key pays
//! nothing extra, and one that verifies many under one key pays the preparation once. A call
//! with another key verifies from that key's bytes and becomes the one remembered; a prepared
//! key is used only for the exact bytes it was made from. At most one prepared key per set
//! stays alive for the life of the process: about 23, 39 or 67 KiB (A-hat, NTT(t1 * 2^d), the key).

use mldsa::{
    Error, MlDsa44, MlDsa65, MlDsa87, MuBuilder, ParameterSet, PreparedVerifyingKey, Signature,
    VerifyingKey as CoreVk,
};
use pyo3::prelude::*;
use std::sync::{Arc, Mutex, PoisonError};

use crate::error::IntoPy;
use crate::hashing::{internal_mu, parse_prehash, prehashed, pure_mu};
use crate::input::{Message, bytes_arg, context_arg};
use crate::level::by_level;

/// The last key a set verified with: its bytes, and its prepared form once it came twice.
pub struct Kept<P: ParameterSet> {
    pk: Vec<u8>,
    prepared: Option<Arc<PreparedVerifyingKey<P>>>,
}

/// A parameter set with a slot for its last verifying key (one static per set: statics cannot
/// be generic).
pub trait KeptVerifier: ParameterSet {
    fn slot() -> &'static Mutex<Option<Kept<Self>>>;
}

macro_rules! kept_verifier {
    ($($set:ty),*) => {$(
        impl KeptVerifier for $set {
            fn slot() -> &'static Mutex<Option<Kept<Self>>> {
                static SLOT: Mutex<Option<Kept<$set>>> = Mutex::new(None);
                &SLOT
            }
        }
    )*};
}

kept_verifier!(MlDsa44, MlDsa65, MlDsa87);

/// A verifying key for one call: the kept prepared one, or one decoded from the bytes.
enum Verifier<P: ParameterSet> {
    Prepared(Arc<PreparedVerifyingKey<P>>),
    Plain(CoreVk<P>),
}

impl<P: ParameterSet> Verifier<P> {
    fn tr(&self) -> &[u8; 64] {
        match self {
            Verifier::Prepared(k) => k.verifying_key().tr(),
            Verifier::Plain(k) => k.tr(),
        }
    }

    fn verify_mu(&self, mu: &[u8; 64], sig: &Signature<P>) -> bool {
        match self {
            Verifier::Prepared(k) => k.verify_mu(mu, sig).is_ok(),
            Verifier::Plain(k) => k.verify_mu(mu, sig).is_ok(),
        }
    }
}

/// The verifier for `pk` (of the set's length): the kept prepared key if it was made from these
/// bytes; else, if these bytes were the last ones seen, a newly prepared key, which is kept;
/// else the key decoded from the bytes, which are remembered. The lock is held only to look or
/// to store, never while decoding or preparing.
fn verifier_for<P: KeptVerifier>(pk: &[u8]) -> Result<Verifier<P>, Error> {
    // A poisoned lock only means a thread panicked while holding it; the slot is still either
    // empty or whole, so it is safe to go on using it.
    let seen_before = {
        let slot = P::slot().lock().unwrap_or_else(PoisonError::into_inner);
        match slot.as_ref().filter(|k| k.pk == pk) {
            Some(Kept {
                prepared: Some(p), ..
            }) => return Ok(Verifier::Prepared(Arc::clone(p))),
            Some(_) => true,
            None => false,
        }
    };
    let vk = CoreVk::<P>::from_bytes(pk)?;
    if !seen_before {
        *P::slot().lock().unwrap_or_else(PoisonError::into_inner) = Some(Kept {
            pk: pk.to_vec(),
            prepared: None,
        });
        return Ok(Verifier::Plain(vk));
    }
    let prepared = Arc::new(vk.prepare());
    let mut slot = P::slot().lock().unwrap_or_else(PoisonError::into_inner);
    // Another thread may have moved on to another key meanwhile: keep the newest either way.
    *slot = Some(Kept {
        pk: pk.to_vec(),
        prepared: Some(Arc::clone(&prepared)),
    });
    Ok(Verifier::Prepared(prepared))
}

/// ML-DSA verification of `sig` on `data` under the public key bytes `pk` of set `level`, mu
/// formed as [`crate::expanded::sign_expanded`] forms it: with `prehash`, HashML-DSA under
/// `context`; with a `context` alone, pure ML-DSA; with neither, `data` is a caller-formatted
/// M' (Verify_internal). A public key of the wrong length raises ValueError (as
/// `VerifyingKey.from_bytes` does); a signature of the wrong length does not verify.
#[pyfunction]
#[pyo3(signature = (level, pk, data, sig, context=None, prehash=None))]
pub fn verify_bytes(
    py: Python<'_>,
    level: u16,
    pk: &Bound<'_, PyAny>,
    data: &Bound<'_, PyAny>,
    sig: &Bound<'_, PyAny>,
    context: Option<&Bound<'_, PyAny>>,
    prehash: Option<&str>,
) -> PyResult<bool> {
    let pk = bytes_arg(pk, "public key")?;
    let sig = bytes_arg(sig, "signature")?;
    by_level!(level, P => {
        let ctx = context.map(context_arg).transpose()?;
        let verifier = py.detach(|| verifier_for::<P>(&pk)).py_err()?;
        let tr = verifier.tr();
        let mu = if let Some(name) = prehash {
            let ctx = ctx.as_deref().unwrap_or(&[]);
            let ph = prehashed(py, parse_prehash(name)?, data, false)?;
            MuBuilder::prehashed(tr, ctx, &ph).py_err()?
        } else {
            let msg = Message::extract(data, "data")?;
            match &ctx {
                Some(ctx) => pure_mu(py, tr, ctx, &msg)?,
                None => internal_mu(py, tr, &msg)?,
            }
        };
        Ok(py.detach(|| {
            Signature::<P>::from_bytes(&sig).is_ok_and(|s| verifier.verify_mu(&mu, &s))
        }))
    })
}

/// Forgets every kept verifying key (for tests that measure or count preparations).
#[pyfunction]
pub fn forget_verifying_keys() {
    fn clear<P: KeptVerifier>() {
        *P::slot().lock().unwrap_or_else(PoisonError::into_inner) = None;
    }
    clear::<MlDsa44>();
    clear::<MlDsa65>();
    clear::<MlDsa87>();
}

/// Whether set `level` keeps a prepared verifying key made from `pk` (for tests).
#[pyfunction]
pub fn verifying_key_is_prepared(level: u16, pk: &Bound<'_, PyAny>) -> PyResult<bool> {
    let pk = bytes_arg(pk, "public key")?;
    fn kept<P: KeptVerifier>(pk: &[u8]) -> bool {
        P::slot()
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .as_ref()
            .is_some_and(|k| k.pk == pk && k.prepared.is_some())
    }
    by_level!(level, P => Ok(kept::<P>(&pk)))
}
