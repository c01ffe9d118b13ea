//! The AES-256 CTR DRBG of NIST SP 800-90A section 10.2.1 without a derivation function, as
//! NIST's PQC `rng.c` (`randombytes_init` / `randombytes`) and dilithium-py's
//! `AES256_CTR_DRBG` use it to make the KAT files: `set_drbg_seed(seed)` scripts written for
//! dilithium-py give the same bytes here. Not a secret-key generator for production (there
//! the operating system's randomness is used).

use aes::Aes256;
use aes::cipher::{Array, BlockCipherEncrypt, KeyInit};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use zeroize::{Zeroize, Zeroizing};

use crate::input::bytes_arg;

const SEED_LEN: usize = 48;
/// SP 800-90A's reseed interval for this DRBG (dilithium-py uses the same).
const RESEED_INTERVAL: u64 = 1 << 48;

/// The DRBG state (Key, V, reseed counter); wiped when collected.
#[pyclass(module = "mldsa_rs._native")]
pub struct AesCtrDrbg {
    key: [u8; 32],
    v: [u8; 16],
    reseed_ctr: u64,
}

impl Drop for AesCtrDrbg {
    fn drop(&mut self) {
        self.key.zeroize();
        self.v.zeroize();
    }
}

/// Pads an optional input of at most 48 bytes with zeros to 48.
fn padded(obj: Option<&Bound<'_, PyAny>>, field: &str) -> PyResult<Zeroizing<[u8; SEED_LEN]>> {
    let mut out = Zeroizing::new([0u8; SEED_LEN]);
    if let Some(obj) = obj {
        let b = bytes_arg(obj, field)?;
        if b.len() > SEED_LEN {
            return Err(PyValueError::new_err(format!(
                "{field} must be at most {SEED_LEN} bytes, got {}",
                b.len()
            )));
        }
        out[..b.len()].copy_from_slice(&b);
    }
    Ok(out)
}

impl AesCtrDrbg {
    fn increment_v(&mut self) {
        let v = u128::from_be_bytes(self.v).wrapping_add(1);
        self.v = v.to_be_bytes();
    }

    /// Fills `out` with successive AES_Key(++V) blocks.
    fn keystream(&mut self, out: &mut [u8]) {
        let cipher = Aes256::new(&Array::from(self.key));
        for chunk in out.chunks_mut(16) {
            self.increment_v();
            let mut block = Array::from(self.v);
            cipher.encrypt_block(&mut block);
            chunk.copy_from_slice(&block[..chunk.len()]);
            block.zeroize();
        }
    }

    /// CTR_DRBG_Update (SP 800-90A section 10.2.1.2).
    fn update(&mut self, provided: &[u8; SEED_LEN]) {
        let mut tmp = Zeroizing::new([0u8; SEED_LEN]);
        self.keystream(tmp.as_mut());
        for (t, p) in tmp.iter_mut().zip(provided) {
            *t ^= p;
        }
        self.key.copy_from_slice(&tmp[..32]);
        self.v.copy_from_slice(&tmp[32..]);
    }
}

#[pymethods]
impl AesCtrDrbg {
    /// Instantiates from a 48-byte entropy input (fresh OS randomness when None) and an
    /// optional personalization string of at most 48 bytes.
    #[new]
    #[pyo3(signature = (seed=None, personalization=None))]
    fn new(
        seed: Option<&Bound<'_, PyAny>>,
        personalization: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let mut entropy = Zeroizing::new([0u8; SEED_LEN]);
        match seed {
            Some(s) => {
                let b = bytes_arg(s, "seed")?;
                if b.len() != SEED_LEN {
                    return Err(PyValueError::new_err(format!(
                        "seed must be {SEED_LEN} bytes, got {}",
                        b.len()
                    )));
                }
                entropy.copy_from_slice(&b);
            }
            None => getrandom::fill(entropy.as_mut())
                .map_err(|_| crate::error::to_py(mldsa::Error::Rng))?,
        }
        let pers = padded(personalization, "personalization")?;
        for (e, p) in entropy.iter_mut().zip(pers.iter()) {
            *e ^= p;
        }
        let mut d = AesCtrDrbg {
            key: [0; 32],
            v: [0; 16],
            reseed_ctr: 1,
        };
        d.update(&entropy);
        Ok(d)
    }

    /// CTR_DRBG_Generate (section 10.2.1.5.1): `num_bytes` pseudorandom bytes, mixing in the
    /// optional additional input (at most 48 bytes).
    #[pyo3(signature = (num_bytes, additional=None))]
    fn random_bytes<'py>(
        &mut self,
        py: Python<'py>,
        num_bytes: usize,
        additional: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        if self.reseed_ctr >= RESEED_INTERVAL {
            return Err(PyRuntimeError::new_err("the DRBG is exhausted; reseed it"));
        }
        let add = padded(additional, "additional")?;
        if additional.is_some() {
            self.update(&add);
        }
        let mut out = Zeroizing::new(vec![0u8; num_bytes]);
        self.keystream(&mut out);
        self.update(&add);
        self.reseed_ctr += 1;
        Ok(PyBytes::new(py, &out))
    }
}
