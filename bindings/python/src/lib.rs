//! `mldsa_rs._native`: the one extension module under the `mldsa_rs` Python package. A thin
//! layer over the `mldsa` crate: argument conversion, errors, and the GIL released around the
//! lattice work. The Python modules beside it (the pyca-style API and the dilithium-py drop-in)
//! are written over these classes.

#![forbid(unsafe_code)]

mod drbg;
mod error;
mod expanded;
mod hashing;
mod input;
mod kept_verifier;
mod keys;
mod legacy;
mod level;
mod matrix_cache;

use pyo3::prelude::*;

/// The module declares that it does not need the GIL, so a free-threaded interpreter (3.13t
/// and later, which builds a version-specific wheel: abi3 cannot target it) keeps the GIL off.
/// That is sound because the key classes are `frozen` with `Sync` state; messages are read in
/// place only when they are immutable `bytes`, other buffers through CPython's own copies
/// (`input`); and the mutable classes (the streaming hashers, the DRBG) take `&mut self`, which
/// PyO3 guards with a per-object borrow flag: concurrent use of one object raises, never races.
#[pymodule(gil_used = false)]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("InvalidSignature", py.get_type::<error::InvalidSignature>())?;
    m.add("InvalidKey", py.get_type::<error::InvalidKey>())?;
    m.add_class::<keys::SigningKey>()?;
    m.add_class::<keys::VerifyingKey>()?;
    m.add_class::<legacy::LegacySigningKey>()?;
    m.add_class::<legacy::LegacyVerifyingKey>()?;
    m.add_class::<hashing::MuHasher>()?;
    m.add_class::<hashing::PyPreHasher>()?;
    m.add_class::<drbg::AesCtrDrbg>()?;
    m.add_function(wrap_pyfunction!(expanded::sign_expanded, m)?)?;
    m.add_function(wrap_pyfunction!(legacy::legacy_sign_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(kept_verifier::verify_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(kept_verifier::forget_verifying_keys, m)?)?;
    m.add_function(wrap_pyfunction!(
        kept_verifier::verifying_key_is_prepared,
        m
    )?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
