//! CRYSTALS-Dilithium round 3 (v3.1), the pre-standard family, as dilithium-py's
//! `Dilithium2/3/5` and the `legacy` key classes use it. Levels are 2, 3 and 5.

use mldsa::legacy::{self, Dilithium2, Dilithium3, Dilithium5, Signature};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::error::IntoPy;
use crate::input::{Message, array_arg, bytes_arg};

#[derive(Clone)]
// Held by value inside a heap-allocated Python object, one key each: the size spread
// between sets costs at most a couple of KiB per object.
#[allow(clippy::large_enum_variant)]
enum LSk {
    D2(legacy::SigningKey<Dilithium2>),
    D3(legacy::SigningKey<Dilithium3>),
    D5(legacy::SigningKey<Dilithium5>),
}

// Held by value inside a heap-allocated Python object, one key each: the size spread
// between sets costs at most a couple of KiB per object.
#[allow(clippy::large_enum_variant)]
enum LVk {
    D2(legacy::VerifyingKey<Dilithium2>),
    D3(legacy::VerifyingKey<Dilithium3>),
    D5(legacy::VerifyingKey<Dilithium5>),
}

macro_rules! by_legacy_level {
    ($level:expr, $P:ident, $V:ident => $body:expr) => {
        match $level {
            2 => {
                type $P = Dilithium2;
                $V::D2($body)
            }
            3 => {
                type $P = Dilithium3;
                $V::D3($body)
            }
            5 => {
                type $P = Dilithium5;
                $V::D5($body)
            }
            other => {
                return Err(PyValueError::new_err(format!(
                    "level must be 2, 3 or 5, got {other}"
                )));
            }
        }
    };
}

macro_rules! each_legacy {
    ($v:expr, $E:ident, $k:ident => $body:expr) => {
        match $v {
            $E::D2($k) => $body,
            $E::D3($k) => $body,
            $E::D5($k) => $body,
        }
    };
}

/// A Dilithium round-3 signing key; secrets wiped when collected.
#[pyclass(frozen, module = "mldsa_rs._native")]
pub struct LegacySigningKey {
    inner: LSk,
}

/// A Dilithium round-3 verifying key.
#[pyclass(frozen, module = "mldsa_rs._native")]
pub struct LegacyVerifyingKey {
    inner: LVk,
}

#[pymethods]
impl LegacySigningKey {
    /// Key generation from the 32-byte seed zeta (the reference implementation's `seedbuf`).
    #[staticmethod]
    fn from_seed(py: Python<'_>, level: u8, seed: &Bound<'_, PyAny>) -> PyResult<Self> {
        let seed = array_arg::<32>(seed, "seed")?;
        let inner = by_legacy_level!(level, P, LSk => py.detach(|| legacy::SigningKey::<P>::from_seed(&seed)));
        Ok(LegacySigningKey { inner })
    }

    /// The round-3 secret key encoding; `check` also recomputes the public part.
    #[staticmethod]
    #[pyo3(signature = (level, sk, check=true))]
    fn from_bytes(py: Python<'_>, level: u8, sk: &Bound<'_, PyAny>, check: bool) -> PyResult<Self> {
        Self::import(py, level, &bytes_arg(sk, "signing key")?, check)
    }

    #[getter]
    fn level(&self) -> u8 {
        match self.inner {
            LSk::D2(_) => 2,
            LSk::D3(_) => 3,
            LSk::D5(_) => 5,
        }
    }

    fn seed<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyBytes>> {
        each_legacy!(&self.inner, LSk, k => k.seed().map(|s| PyBytes::new(py, s)))
    }

    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        each_legacy!(&self.inner, LSk, k => PyBytes::new(py, k.to_bytes().as_ref()))
    }

    fn public_key(&self) -> LegacyVerifyingKey {
        let inner = match &self.inner {
            LSk::D2(k) => LVk::D2(*k.verifying_key()),
            LSk::D3(k) => LVk::D3(*k.verifying_key()),
            LSk::D5(k) => LVk::D5(*k.verifying_key()),
        };
        LegacyVerifyingKey { inner }
    }

    /// Signs `msg`: deterministic (the round-3 default), or randomized with OS randomness.
    #[pyo3(signature = (msg, randomized=false))]
    fn sign<'py>(
        &self,
        py: Python<'py>,
        msg: &Bound<'py, PyAny>,
        randomized: bool,
    ) -> PyResult<Bound<'py, PyBytes>> {
        self.sign_message(py, &Message::extract(msg, "data")?, randomized)
    }
}

impl LegacySigningKey {
    fn import(py: Python<'_>, level: u8, sk: &[u8], check: bool) -> PyResult<Self> {
        let inner = by_legacy_level!(level, P, LSk => py.detach(|| if check {
            legacy::SigningKey::<P>::from_bytes(sk)
        } else {
            legacy::SigningKey::<P>::from_bytes_unverified(sk)
        }).py_err()?);
        Ok(LegacySigningKey { inner })
    }

    fn sign_message<'py>(
        &self,
        py: Python<'py>,
        msg: &Message<'py>,
        randomized: bool,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let sig = each_legacy!(&self.inner, LSk, k => {
            let mut signer = k.message_signer();
            msg.for_each_chunk(|c| {
                signer.update(c);
            })?;
            py.detach(|| {
                if randomized {
                    signer.sign_randomized_with_rng(&mut getrandom::SysRng)
                } else {
                    signer.sign_deterministic()
                }
                .map(|s| s.as_bytes().to_vec())
            })
            .py_err()?
        });
        Ok(PyBytes::new(py, &sig))
    }
}

#[pymethods]
impl LegacyVerifyingKey {
    #[staticmethod]
    fn from_bytes(level: u8, pk: &Bound<'_, PyAny>) -> PyResult<Self> {
        let pk = bytes_arg(pk, "public key")?;
        let inner =
            by_legacy_level!(level, P, LVk => legacy::VerifyingKey::<P>::from_bytes(&pk).py_err()?);
        Ok(LegacyVerifyingKey { inner })
    }

    #[getter]
    fn level(&self) -> u8 {
        match self.inner {
            LVk::D2(_) => 2,
            LVk::D3(_) => 3,
            LVk::D5(_) => 5,
        }
    }

    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        each_legacy!(&self.inner, LVk, k => PyBytes::new(py, k.as_bytes()))
    }

    /// True or False; a malformed signature is False.
    fn verify(
        &self,
        py: Python<'_>,
        msg: &Bound<'_, PyAny>,
        sig: &Bound<'_, PyAny>,
    ) -> PyResult<bool> {
        let sig = bytes_arg(sig, "signature")?;
        let msg = Message::extract(msg, "data")?;
        each_legacy!(&self.inner, LVk, k => {
            let mut verifier = k.message_verifier();
            msg.for_each_chunk(|c| {
                verifier.update(c);
            })?;
            Ok(py.detach(|| {
                Signature::from_bytes(&sig).is_ok_and(|s| verifier.verify(&s).is_ok())
            }))
        })
    }
}

/// dilithium-py's `Dilithium*.sign(sk, m)`: deterministic signing with the encoded secret key
/// passed on every call. A `bytes` message is signed straight from the key bytes (decoded for
/// signing only: no public key derived, about one key generation saved), with the GIL
/// released; any other buffer goes through a key object and the message's pieces (see
/// `input`), as `LegacySigningKey.sign` does.
#[pyfunction]
pub fn legacy_sign_bytes<'py>(
    py: Python<'py>,
    level: u8,
    sk: &Bound<'py, PyAny>,
    msg: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyBytes>> {
    let sk = bytes_arg(sk, "signing key")?;
    let msg = Message::extract(msg, "data")?;
    let Some(m) = msg.in_place() else {
        return LegacySigningKey::import(py, level, &sk, false)?.sign_message(py, &msg, false);
    };
    macro_rules! one_shot {
        ($P:ty) => {{
            let sig = py
                .detach(|| legacy::SigningKey::<$P>::sign_deterministic_with_bytes(&sk, m))
                .py_err()?;
            Ok(PyBytes::new(py, sig.as_bytes()))
        }};
    }
    match level {
        2 => one_shot!(Dilithium2),
        3 => one_shot!(Dilithium3),
        5 => one_shot!(Dilithium5),
        other => Err(PyValueError::new_err(format!(
            "level must be 2, 3 or 5, got {other}"
        ))),
    }
}
