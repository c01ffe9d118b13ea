//! The ML-DSA key classes of the extension module. Everything signs and verifies through mu
//! (see `hashing`), with the GIL released for the lattice work.

use mldsa::pkix::{AnySigningKey, AnyVerifyingKey, KeyForm};
use mldsa::{Signature, SigningKey as CoreSk, VerifyingKey as CoreVk};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};
use zeroize::Zeroizing;

use crate::error::IntoPy;
use crate::hashing::{internal_mu, parse_prehash, prehashed, pure_mu};
use crate::input::{ByteArg, Message, array_arg, bytes_arg, context_arg};
use crate::level::{HasVk, Sk, Vk, by_level, each_sk, each_vk};

/// 32 bytes of hedging randomness: the caller's (`rnd`, e.g. from a DRBG, or zeros for
/// deterministic signing) or the operating system's.
pub fn rnd_arg(rnd: Option<&Bound<'_, PyAny>>) -> PyResult<Zeroizing<[u8; 32]>> {
    match rnd {
        Some(r) => array_arg::<32>(r, "rnd"),
        None => {
            let mut out = Zeroizing::new([0u8; 32]);
            getrandom::fill(out.as_mut()).map_err(|_| crate::error::to_py(mldsa::Error::Rng))?;
            Ok(out)
        }
    }
}

fn key_form(form: &str) -> PyResult<KeyForm> {
    match form {
        "seed" => Ok(KeyForm::Seed),
        "expanded" | "expandedKey" => Ok(KeyForm::Expanded),
        "both" => Ok(KeyForm::Both),
        other => Err(PyValueError::new_err(format!(
            "form must be 'seed', 'expanded' or 'both', got {other:?}"
        ))),
    }
}

fn form_name(form: KeyForm) -> &'static str {
    match form {
        KeyForm::Seed => "seed",
        KeyForm::Expanded => "expanded",
        KeyForm::Both => "both",
    }
}

/// A PEM document (str, or ASCII bytes starting with "-----") or else DER bytes.
enum Doc<'a> {
    Pem(String),
    Der(ByteArg<'a>),
}

fn doc_arg<'a>(data: &'a Bound<'_, PyAny>) -> PyResult<Doc<'a>> {
    if let Ok(s) = data.cast::<PyString>() {
        return Ok(Doc::Pem(s.extract::<String>()?));
    }
    let bytes = bytes_arg(data, "data")?;
    if bytes.trim_ascii_start().starts_with(b"-----") {
        let text = std::str::from_utf8(&bytes)
            .map_err(|_| crate::error::InvalidKey::new_err("PEM document is not valid UTF-8"))?;
        return Ok(Doc::Pem(text.to_owned()));
    }
    Ok(Doc::Der(bytes))
}

/// An ML-DSA signing key (private). Its secrets are wiped when it is collected.
#[pyclass(frozen, module = "mldsa_rs._native")]
pub struct SigningKey {
    inner: Sk,
}

/// An ML-DSA verifying key (public), plain or prepared.
#[pyclass(frozen, module = "mldsa_rs._native")]
pub struct VerifyingKey {
    inner: Vk,
}

#[pymethods]
impl SigningKey {
    /// ML-DSA.KeyGen_internal from the 32-byte seed xi.
    #[staticmethod]
    fn from_seed(py: Python<'_>, level: u16, seed: &Bound<'_, PyAny>) -> PyResult<Self> {
        let seed = array_arg::<32>(seed, "seed")?;
        let inner = by_level!(level, P => Sk::from(py.detach(|| CoreSk::<P>::from_seed(&seed))));
        Ok(SigningKey { inner })
    }

    /// ML-DSA.KeyGen with the operating system's randomness.
    #[staticmethod]
    fn generate(py: Python<'_>, level: u16) -> PyResult<Self> {
        let seed = rnd_arg(None)?;
        let inner = by_level!(level, P => Sk::from(py.detach(|| CoreSk::<P>::from_seed(&seed))));
        Ok(SigningKey { inner })
    }

    /// The FIPS 204 expanded encoding. `check` (the default) also recomputes tr and t0 from
    /// rho, s1 and s2 and rejects a key KeyGen could not have made (about one KeyGen's cost);
    /// without it only the ranges of s1 and s2 are checked.
    #[staticmethod]
    #[pyo3(signature = (level, sk, check=true))]
    fn from_expanded(
        py: Python<'_>,
        level: u16,
        sk: &Bound<'_, PyAny>,
        check: bool,
    ) -> PyResult<Self> {
        let sk = bytes_arg(sk, "signing key")?;
        let inner = by_level!(level, P => Sk::from(py.detach(|| if check {
            CoreSk::<P>::from_expanded(&sk)
        } else {
            CoreSk::<P>::from_expanded_unverified(&sk)
        }).py_err()?));
        Ok(SigningKey { inner })
    }

    /// Reads PKCS#8 (PEM or DER, any of RFC 9881's three forms, encrypted when `password` is
    /// given); returns the key and the form it was stored in.
    #[staticmethod]
    #[pyo3(signature = (data, password=None))]
    fn from_pkcs8(
        py: Python<'_>,
        data: &Bound<'_, PyAny>,
        password: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<(Self, &'static str)> {
        let doc = doc_arg(data)?;
        let password = password.map(|p| bytes_arg(p, "password")).transpose()?;
        let (key, form) = py
            .detach(|| match (&doc, &password) {
                (Doc::Pem(p), None) => AnySigningKey::from_pkcs8_pem(p),
                (Doc::Der(d), None) => AnySigningKey::from_pkcs8_der(d),
                (Doc::Pem(p), Some(pw)) => AnySigningKey::from_pkcs8_encrypted_pem(p, &pw[..]),
                (Doc::Der(d), Some(pw)) => AnySigningKey::from_pkcs8_encrypted_der(d, &pw[..]),
            })
            .py_err()?;
        Ok((SigningKey { inner: key.into() }, form_name(form)))
    }

    #[getter]
    fn level(&self) -> u16 {
        self.inner.level()
    }

    /// The seed xi, or None for a key imported from the expanded form only.
    fn seed<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyBytes>> {
        each_sk!(&self.inner, k, P => k.seed().map(|s| PyBytes::new(py, s)))
    }

    /// The FIPS 204 expanded encoding (skEncode).
    fn expanded<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        each_sk!(&self.inner, k, P => PyBytes::new(py, k.to_expanded_bytes().as_ref()))
    }

    fn public_key(&self) -> VerifyingKey {
        VerifyingKey {
            inner: self.inner.verifying_key(),
        }
    }

    /// The same key with the public matrix A-hat kept, for many signatures.
    fn prepared(&self, py: Python<'_>) -> SigningKey {
        let mut inner = self.inner.clone();
        py.detach(|| each_sk!(&mut inner, k, P => k.prepare()));
        SigningKey { inner }
    }

    /// ML-DSA.Sign (Algorithm 2) of `msg` under `context`; `rnd` None means fresh OS
    /// randomness (hedged), 32 zero bytes mean deterministic.
    #[pyo3(signature = (msg, context, rnd=None))]
    fn sign<'py>(
        &self,
        py: Python<'py>,
        msg: &Bound<'py, PyAny>,
        context: &Bound<'py, PyAny>,
        rnd: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let ctx = context_arg(context)?;
        let msg = Message::extract(msg, "data")?;
        let mu = pure_mu(py, &self.inner.tr(), &ctx, &msg)?;
        self.sign_mu_inner(py, &mu, rnd)
    }

    /// HashML-DSA.Sign (Algorithm 4) with the named pre-hash ("SHA2-512", "SHAKE-128", ...);
    /// `data` is the message, or with `is_digest` its digest.
    #[pyo3(signature = (prehash, data, context, rnd=None, is_digest=false))]
    fn sign_prehash<'py>(
        &self,
        py: Python<'py>,
        prehash: &str,
        data: &Bound<'py, PyAny>,
        context: &Bound<'py, PyAny>,
        rnd: Option<&Bound<'py, PyAny>>,
        is_digest: bool,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let ctx = context_arg(context)?;
        let ph = prehashed(py, parse_prehash(prehash)?, data, is_digest)?;
        let mu = mldsa::MuBuilder::prehashed(&self.inner.tr(), &ctx, &ph).py_err()?;
        self.sign_mu_inner(py, &mu, rnd)
    }

    /// Signs an external mu (64 bytes).
    #[pyo3(signature = (mu, rnd=None))]
    fn sign_mu<'py>(
        &self,
        py: Python<'py>,
        mu: &Bound<'py, PyAny>,
        rnd: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let mu = array_arg::<64>(mu, "mu")?;
        self.sign_mu_inner(py, &mu, rnd)
    }

    /// ML-DSA.Sign_internal (Algorithm 7) on a caller-formatted M'; `rnd` None means fresh OS
    /// randomness, as in `sign`.
    #[pyo3(signature = (m_prime, rnd=None))]
    fn sign_internal<'py>(
        &self,
        py: Python<'py>,
        m_prime: &Bound<'py, PyAny>,
        rnd: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let m = Message::extract(m_prime, "message")?;
        let mu = internal_mu(py, &self.inner.tr(), &m)?;
        self.sign_mu_inner(py, &mu, rnd)
    }

    /// PKCS#8 DER in `form`, encrypted (PBES2, scrypt, AES-256-CBC) when `password` is given.
    #[pyo3(signature = (form="seed", password=None))]
    fn to_pkcs8_der<'py>(
        &self,
        py: Python<'py>,
        form: &str,
        password: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let form = key_form(form)?;
        let password = password.map(|p| bytes_arg(p, "password")).transpose()?;
        let der = py
            .detach(|| {
                each_sk!(&self.inner, k, P => match &password {
                    None => k.to_pkcs8_der(form).map(|d| d.to_vec()),
                    Some(pw) => k.to_pkcs8_encrypted_der(form, &pw[..]),
                })
            })
            .py_err()?;
        let der = Zeroizing::new(der);
        Ok(PyBytes::new(py, &der))
    }

    /// PKCS#8 PEM (`PRIVATE KEY`, or `ENCRYPTED PRIVATE KEY` with a password).
    #[pyo3(signature = (form="seed", password=None))]
    fn to_pkcs8_pem(
        &self,
        py: Python<'_>,
        form: &str,
        password: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<String> {
        let form = key_form(form)?;
        let password = password.map(|p| bytes_arg(p, "password")).transpose()?;
        py.detach(|| {
            each_sk!(&self.inner, k, P => match &password {
                None => k.to_pkcs8_pem(form).map(|d| d.to_string()),
                Some(pw) => k.to_pkcs8_encrypted_pem(form, &pw[..]),
            })
        })
        .py_err()
    }
}

impl SigningKey {
    fn sign_mu_inner<'py>(
        &self,
        py: Python<'py>,
        mu: &[u8; 64],
        rnd: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let rnd = rnd_arg(rnd)?;
        // The signature goes from the core's array straight into the bytes object.
        each_sk!(&self.inner, k, P => {
            let sig = py.detach(|| k.sign_mu(mu, &rnd)).py_err()?;
            Ok(PyBytes::new(py, sig.as_bytes()))
        })
    }
}

/// Verifies `sig` over mu with the GIL released; a malformed signature is just "no".
fn verify_mu_inner(py: Python<'_>, vk: &Vk, mu: &[u8; 64], sig: &[u8]) -> bool {
    py.detach(|| {
        each_vk!(vk, k, P => Signature::<P>::from_bytes(sig).is_ok_and(|s| k.verify_mu(mu, &s).is_ok()))
    })
}

#[pymethods]
impl VerifyingKey {
    /// The FIPS 204 public key encoding (pkDecode).
    #[staticmethod]
    fn from_bytes(level: u16, pk: &Bound<'_, PyAny>) -> PyResult<Self> {
        let pk = bytes_arg(pk, "public key")?;
        let inner = by_level!(level, P => Vk::from(CoreVk::<P>::from_bytes(&pk).py_err()?));
        Ok(VerifyingKey { inner })
    }

    /// Reads a SubjectPublicKeyInfo, PEM (`PUBLIC KEY`) or DER.
    #[staticmethod]
    fn from_spki(data: &Bound<'_, PyAny>) -> PyResult<Self> {
        let key = match doc_arg(data)? {
            Doc::Pem(p) => AnyVerifyingKey::from_public_key_pem(&p),
            Doc::Der(d) => AnyVerifyingKey::from_public_key_der(&d),
        }
        .py_err()?;
        Ok(VerifyingKey { inner: key.into() })
    }

    #[getter]
    fn level(&self) -> u16 {
        self.inner.level()
    }

    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.inner.bytes())
    }

    /// tr = H(pk, 64), the key's contribution to mu.
    fn tr<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.inner.tr())
    }

    fn to_spki_der<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        each_vk!(&self.inner, k, P => PyBytes::new(py, &k.vk().to_public_key_der()))
    }

    fn to_spki_pem(&self) -> String {
        each_vk!(&self.inner, k, P => k.vk().to_public_key_pem())
    }

    /// The same key with A-hat expanded once, for many verifications.
    fn prepared(&self, py: Python<'_>) -> VerifyingKey {
        VerifyingKey {
            inner: py.detach(|| self.inner.prepared()),
        }
    }

    fn is_prepared(&self) -> bool {
        matches!(self.inner, Vk::P44(_) | Vk::P65(_) | Vk::P87(_))
    }

    /// mu for `msg` under `context` (external mu).
    fn compute_mu<'py>(
        &self,
        py: Python<'py>,
        msg: &Bound<'py, PyAny>,
        context: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let ctx = context_arg(context)?;
        let msg = Message::extract(msg, "data")?;
        Ok(PyBytes::new(
            py,
            &pure_mu(py, &self.inner.tr(), &ctx, &msg)?,
        ))
    }

    /// ML-DSA.Verify (Algorithm 3): True or False. Bad lengths of `context` raise ValueError.
    fn verify(
        &self,
        py: Python<'_>,
        msg: &Bound<'_, PyAny>,
        context: &Bound<'_, PyAny>,
        sig: &Bound<'_, PyAny>,
    ) -> PyResult<bool> {
        let ctx = context_arg(context)?;
        let sig = bytes_arg(sig, "signature")?;
        let msg = Message::extract(msg, "data")?;
        let mu = pure_mu(py, &self.inner.tr(), &ctx, &msg)?;
        Ok(verify_mu_inner(py, &self.inner, &mu, &sig))
    }

    /// HashML-DSA.Verify (Algorithm 5) with the named pre-hash.
    #[pyo3(signature = (prehash, data, context, sig, is_digest=false))]
    fn verify_prehash(
        &self,
        py: Python<'_>,
        prehash: &str,
        data: &Bound<'_, PyAny>,
        context: &Bound<'_, PyAny>,
        sig: &Bound<'_, PyAny>,
        is_digest: bool,
    ) -> PyResult<bool> {
        let ctx = context_arg(context)?;
        let sig = bytes_arg(sig, "signature")?;
        let ph = prehashed(py, parse_prehash(prehash)?, data, is_digest)?;
        let mu = mldsa::MuBuilder::prehashed(&self.inner.tr(), &ctx, &ph).py_err()?;
        Ok(verify_mu_inner(py, &self.inner, &mu, &sig))
    }

    fn verify_mu(
        &self,
        py: Python<'_>,
        mu: &Bound<'_, PyAny>,
        sig: &Bound<'_, PyAny>,
    ) -> PyResult<bool> {
        let mu = array_arg::<64>(mu, "mu")?;
        let sig = bytes_arg(sig, "signature")?;
        Ok(verify_mu_inner(py, &self.inner, &mu, &sig))
    }

    /// ML-DSA.Verify_internal (Algorithm 8) on a caller-formatted M'.
    fn verify_internal(
        &self,
        py: Python<'_>,
        m_prime: &Bound<'_, PyAny>,
        sig: &Bound<'_, PyAny>,
    ) -> PyResult<bool> {
        let sig = bytes_arg(sig, "signature")?;
        let m = Message::extract(m_prime, "message")?;
        let mu = internal_mu(py, &self.inner.tr(), &m)?;
        Ok(verify_mu_inner(py, &self.inner, &mu, &sig))
    }
}
