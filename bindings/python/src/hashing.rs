//! Message representatives: mu (FIPS 204 Algorithm 7 line 6, or external mu) and HashML-DSA's
//! pre-hash, computed from whole messages or streamed chunk by chunk. Every signature and
//! verification here goes through mu, so the streaming, external-mu and one-shot paths are one.

use mldsa::{MuBuilder, PreHash, PreHashed, PreHasher};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::error::IntoPy;
use crate::input::{Message, bytes_arg};

/// Messages at least this long (in place) are hashed with the GIL released.
const DETACH_AT: usize = 4096;

/// Feeds `msg` to `sink` (see `input` for why so): long `bytes` in one piece with the GIL
/// released; other long buffers piece by piece, each piece copied out with the GIL held and
/// hashed with it released; short messages with the GIL held (releasing it would cost more
/// than the hash).
pub fn absorb(
    py: Python<'_>,
    msg: &Message<'_>,
    mut sink: impl FnMut(&[u8]) + Send,
) -> PyResult<()> {
    if msg.len() < DETACH_AT {
        return msg.for_each_chunk(sink);
    }
    match msg.in_place() {
        Some(m) => {
            py.detach(|| sink(m));
            Ok(())
        }
        None => msg.for_each_chunk(|piece| py.detach(|| sink(piece))),
    }
}

/// Absorbs `msg` into `b` and squeezes mu.
pub fn finish_mu(py: Python<'_>, mut b: MuBuilder, msg: &Message<'_>) -> PyResult<[u8; 64]> {
    absorb(py, msg, |c| b.update(c))?;
    Ok(b.finalize())
}

/// mu of a pure ML-DSA message with context (FIPS 204 Algorithm 2's M').
pub fn pure_mu(py: Python<'_>, tr: &[u8; 64], ctx: &[u8], msg: &Message<'_>) -> PyResult<[u8; 64]> {
    finish_mu(py, MuBuilder::pure(tr, ctx).py_err()?, msg)
}

/// mu of a caller-formatted M' (the internal interface).
pub fn internal_mu(py: Python<'_>, tr: &[u8; 64], m_prime: &Message<'_>) -> PyResult<[u8; 64]> {
    finish_mu(py, MuBuilder::internal(tr), m_prime)
}

pub fn parse_prehash(name: &str) -> PyResult<PreHash> {
    name.parse::<PreHash>()
        .map_err(|e| PyValueError::new_err(format!("prehash {name:?}: {e}")))
}

/// HashML-DSA's PH(M): the message hashed here, or (`is_digest`) a digest the caller made.
pub fn prehashed(
    py: Python<'_>,
    alg: PreHash,
    data: &Bound<'_, PyAny>,
    is_digest: bool,
) -> PyResult<PreHashed> {
    if is_digest {
        let digest = bytes_arg(data, "digest")?;
        if digest.len() != alg.digest_len() {
            return Err(PyValueError::new_err(format!(
                "digest must be {} bytes for {alg}, got {}",
                alg.digest_len(),
                digest.len()
            )));
        }
        return PreHashed::from_digest(alg, &digest).py_err();
    }
    let msg = Message::extract(data, "data")?;
    let mut h = PreHasher::new(alg);
    absorb(py, &msg, |c| h.update(c))?;
    Ok(h.finalize())
}

/// Streaming mu: `MuHasher(tr, context)` for pure ML-DSA, `MuHasher(tr, None)` for a raw M'.
#[pyclass(module = "mldsa_rs._native")]
pub struct MuHasher {
    state: Option<MuBuilder>,
}

/// A streaming HashML-DSA pre-hash (`PreHasher("SHA2-512")`).
#[pyclass(name = "PreHasher", module = "mldsa_rs._native")]
pub struct PyPreHasher {
    state: Option<PreHasher>,
}

fn finished() -> PyErr {
    PyRuntimeError::new_err("this hasher was already finalized")
}

#[pymethods]
impl MuHasher {
    #[new]
    #[pyo3(signature = (tr, context=None))]
    fn new(tr: &Bound<'_, PyAny>, context: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let tr = crate::input::array_arg::<64>(tr, "tr")?;
        let b = match context {
            Some(ctx) => MuBuilder::pure(&tr, &crate::input::context_arg(ctx)?).py_err()?,
            None => MuBuilder::internal(&tr),
        };
        Ok(MuHasher { state: Some(b) })
    }

    fn update(&mut self, py: Python<'_>, chunk: &Bound<'_, PyAny>) -> PyResult<()> {
        let msg = Message::extract(chunk, "data")?;
        let b = self.state.as_mut().ok_or_else(finished)?;
        absorb(py, &msg, |c| b.update(c))
    }

    fn finalize<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let b = self.state.take().ok_or_else(finished)?;
        Ok(PyBytes::new(py, &b.finalize()))
    }
}

#[pymethods]
impl PyPreHasher {
    #[new]
    fn new(name: &str) -> PyResult<Self> {
        Ok(PyPreHasher {
            state: Some(PreHasher::new(parse_prehash(name)?)),
        })
    }

    fn update(&mut self, py: Python<'_>, chunk: &Bound<'_, PyAny>) -> PyResult<()> {
        let msg = Message::extract(chunk, "data")?;
        let h = self.state.as_mut().ok_or_else(finished)?;
        absorb(py, &msg, |c| h.update(c))
    }

    /// The digest (its length is the hash's: 28 to 64 bytes).
    fn finalize<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let h = self.state.take().ok_or_else(finished)?;
        Ok(PyBytes::new(py, h.finalize().digest()))
    }
}
