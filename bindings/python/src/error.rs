//! The Python exceptions and how the core's errors map onto them.
//!
//! `InvalidKey` subclasses `ValueError` (so code written for dilithium-py, which raises
//! `ValueError`, keeps working); `InvalidSignature` is a plain `Exception`, as in
//! pyca/cryptography. Lengths are `ValueError`s naming the field, expected and given length.

use mldsa::Error;
use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyOSError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;

create_exception!(
    mldsa_rs,
    InvalidSignature,
    PyException,
    "The signature does not verify under this key, message and context."
);
create_exception!(
    mldsa_rs,
    InvalidKey,
    PyValueError,
    "A key, or a key container (PEM, DER, PKCS#8, SPKI), is malformed or inconsistent."
);

/// Maps a core error to the Python exception that says what went wrong.
pub fn to_py(e: Error) -> PyErr {
    match e {
        Error::Length { .. } | Error::ContextTooLong { .. } => PyValueError::new_err(e.to_string()),
        Error::InvalidSignature => InvalidSignature::new_err(e.to_string()),
        Error::Rng => PyOSError::new_err(e.to_string()),
        Error::SigningAttemptsExhausted { .. } | Error::FaultDetected => {
            PyRuntimeError::new_err(e.to_string())
        }
        // Malformed keys and signatures, PEM / DER / PKCS#8 problems (wrong passphrase included:
        // the decrypted bytes do not parse).
        _ => InvalidKey::new_err(e.to_string()),
    }
}

pub trait IntoPy<T> {
    fn py_err(self) -> PyResult<T>;
}

impl<T> IntoPy<T> for Result<T, Error> {
    fn py_err(self) -> PyResult<T> {
        self.map_err(to_py)
    }
}
