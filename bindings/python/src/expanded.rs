//! Signing straight from FIPS 204 expanded key bytes, the way dilithium-py's API signs: it
//! passes the key bytes on every call (`ML_DSA_65.sign(sk, m)`), so each call must decode them.
//!
//! Decoding for signing only is skDecode and the strict ranges of s1 and s2 (tr and t0 are used
//! as given, as FIPS 204 Sign does; no NTT of the key is needed); importing a key object instead
//! (`from_expanded_unverified`) also derives the public key, ExpandA and a matrix product, which
//! cost about one key generation per call for nothing the signature needs. ExpandA itself comes
//! from the matrix kept for the key last used ([`crate::matrix_cache`]: A-hat is public); the
//! secret key is never cached behind the caller's back. The key API's `prepared()` keys keep
//! everything.

use mldsa::{Error, Input, MuBuilder, SigningKey as CoreSk};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::error::IntoPy;
use crate::hashing::{internal_mu, parse_prehash, prehashed, pure_mu};
use crate::input::{Message, array_arg, bytes_arg, context_arg};
use crate::keys::rnd_arg;
use crate::level::by_level;
use crate::matrix_cache::matrix_for;

/// Where tr = H(pk) sits in the expanded encoding: after rho (32 bytes) and K (32 bytes).
const TR_AT: usize = 64;

/// An ML-DSA signature by the expanded key `sk` of set `level`. mu is formed from `data` as
/// FIPS 204 says for the mode: with `external_mu`, `data` is mu itself; with `prehash`,
/// HashML-DSA under `context`; with a `context` alone, pure ML-DSA; with neither, `data` is a
/// caller-formatted M' (Sign_internal). `rnd` None draws fresh OS randomness.
#[pyfunction]
#[pyo3(signature = (level, sk, data, rnd=None, context=None, prehash=None, external_mu=false))]
#[allow(clippy::too_many_arguments)] // the Python signature: keyword arguments with defaults
pub fn sign_expanded<'py>(
    py: Python<'py>,
    level: u16,
    sk: &Bound<'py, PyAny>,
    data: &Bound<'py, PyAny>,
    rnd: Option<&Bound<'py, PyAny>>,
    context: Option<&Bound<'py, PyAny>>,
    prehash: Option<&str>,
    external_mu: bool,
) -> PyResult<Bound<'py, PyBytes>> {
    let sk = bytes_arg(sk, "signing key")?;
    by_level!(level, P => {
        if sk.len() != P::SK_LEN {
            return Err(crate::error::to_py(Error::Length {
                input: Input::SigningKey,
                expected: P::SK_LEN,
                got: sk.len(),
            }));
        }
        let mut tr = [0u8; 64];
        tr.copy_from_slice(&sk[TR_AT..TR_AT + 64]);
        let ctx = context.map(context_arg).transpose()?;
        let mu = if external_mu {
            *array_arg::<64>(data, "mu")?
        } else if let Some(name) = prehash {
            let ctx = ctx.as_deref().unwrap_or(&[]);
            let ph = prehashed(py, parse_prehash(name)?, data, false)?;
            MuBuilder::prehashed(&tr, ctx, &ph).py_err()?
        } else {
            let msg = Message::extract(data, "data")?;
            match &ctx {
                Some(ctx) => pure_mu(py, &tr, ctx, &msg)?,
                None => internal_mu(py, &tr, &msg)?,
            }
        };
        let rnd = rnd_arg(rnd)?;
        let mut rho = [0u8; 32];
        rho.copy_from_slice(&sk[..32]);
        let sig = py
            .detach(|| {
                let matrix = matrix_for::<P>(&rho);
                CoreSk::<P>::sign_mu_with_expanded_matrix(&sk, &mu, &rnd, &matrix)
            })
            .py_err()?;
        Ok(PyBytes::new(py, sig.as_bytes()))
    })
}
