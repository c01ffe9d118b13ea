//! Password-encrypted PKCS#8 (RFC 5958 EncryptedPrivateKeyInfo with PKCS#5 v2.1 PBES2), via the
//! `pkcs8` crate's `encryption` feature. Feature `pkcs8-encryption`.
//!
//! Reads PBES2 with PBKDF2 (HMAC-SHA-1/224/256/384/512; SHA-1 for Bouncy Castle's and OpenSSL
//! 1.x's defaults) or scrypt, and AES-128/192/256-CBC or
//! AES-GCM: what `openssl genpkey -aes256` (PBKDF2-HMAC-SHA256, AES-256-CBC) and
//! `openssl pkcs8 -topk8 -scrypt` write. Writes PBES2 with scrypt (log2 N = 14, r = 8, p = 1,
//! 16-byte salt, OpenSSL 3's defaults, which it can read back) and AES-256-CBC.

use super::{AnySigningKey, ENCRYPTED_PRIVATE_KEY_LABEL, KeyForm, pem};
use crate::error::Error;
use crate::error::pkix::{DerProblem, Field, Oid, PemLabel, PkixError};
use crate::keys::rng;
use crate::keys::signing_key::SigningKey;
use crate::params::ParameterSet;
use alloc::string::String;
use alloc::vec::Vec;
use pkcs8::der::{Decode, Encode, Tag, Tagged, asn1::AnyRef};
use pkcs8::pkcs5::{self, pbes2, scrypt};
use pkcs8::{EncryptedPrivateKeyInfoRef, der::asn1::OctetStringRef};
use rand_core::TryCryptoRng;
use zeroize::Zeroizing;

/// scrypt's cost: OpenSSL 3's default (2^14 x 8 x 128 bytes = 16 MiB), which is also within the
/// 32 MiB OpenSSL allows by default when reading.
const SCRYPT_LOG_N: u8 = 14;
const SCRYPT_R: u32 = 8;
const SCRYPT_P: u32 = 1;
const SALT_LEN: usize = 16;

/// Limits on the key-derivation work an untrusted document can ask for (the parameters are the
/// attacker's to choose): far above what OpenSSL, pyca/cryptography and this module write
/// (PBKDF2 2048 to 600,000 iterations; scrypt 16 MiB), far below a denial of service.
const MAX_PBKDF2_ITERATIONS: u32 = 10_000_000;
/// scrypt's memory is 128 r N bytes.
const MAX_SCRYPT_MEMORY: u64 = 64 << 20;
const MAX_SCRYPT_PARALLELISM: u16 = 16;
const AES_BLOCK: usize = 16;

fn map_pkcs5(e: pkcs5::Error) -> PkixError {
    match e {
        pkcs5::Error::UnsupportedAlgorithm { oid }
        | pkcs5::Error::AlgorithmParametersInvalid { oid } => PkixError::UnsupportedEncryption {
            found: Oid::from_der_contents(oid.as_bytes()),
        },
        pkcs5::Error::EncryptFailed | pkcs5::Error::Rng => PkixError::Encryption,
        // DecryptFailed, and PBES1 (which the `pkcs5` crate can parse but not decrypt).
        _ => PkixError::Decryption,
    }
}

/// Decrypts an EncryptedPrivateKeyInfo into the inner OneAsymmetricKey DER.
fn decrypt(der: &[u8], password: &[u8]) -> Result<Zeroizing<Vec<u8>>, PkixError> {
    let info = EncryptedPrivateKeyInfoRef::from_der(der).map_err(|_| PkixError::Der {
        at: Field::EncryptedPrivateKeyInfo,
        problem: DerProblem::Value,
    })?;
    if let pkcs5::EncryptionScheme::Pbes2(params) = &info.encryption_algorithm {
        let affordable = match &params.kdf {
            pbes2::Kdf::Pbkdf2(p) => p.iteration_count <= MAX_PBKDF2_ITERATIONS,
            pbes2::Kdf::Scrypt(p) => {
                let memory = p
                    .cost_parameter
                    .saturating_mul(128 * u64::from(p.block_size));
                memory <= MAX_SCRYPT_MEMORY && p.parallelization <= MAX_SCRYPT_PARALLELISM
            }
            // A KDF added to `pkcs5` later: refuse it rather than run it unbounded.
            _ => false,
        };
        if !affordable {
            return Err(PkixError::EncryptionTooExpensive);
        }
    }
    let plain = Zeroizing::new(
        info.encryption_algorithm
            .decrypt(password, info.encrypted_data.as_bytes())
            .map_err(map_pkcs5)?,
    );
    // A wrong password still passes the CBC padding check about once in 256 tries, and the
    // "plaintext" is then random bytes: anything that is not one whole DER SEQUENCE is a failed
    // decryption, not malformed DER for the user to go looking for.
    match AnyRef::from_der(&plain) {
        Ok(any) if any.tag() == Tag::Sequence => Ok(plain),
        _ => Err(PkixError::Decryption),
    }
}

/// Encrypts a OneAsymmetricKey DER with a password: scrypt + AES-256-CBC, salt and IV from
/// `rng`.
fn encrypt<R: TryCryptoRng + ?Sized>(
    plain: &[u8],
    password: &[u8],
    rng: &mut R,
) -> Result<Vec<u8>, Error> {
    let mut salt = [0u8; SALT_LEN];
    let mut iv = [0u8; AES_BLOCK];
    rng::fill(rng, &mut salt)?;
    rng::fill(rng, &mut iv)?;
    let cost =
        scrypt::Params::new(SCRYPT_LOG_N, SCRYPT_R, SCRYPT_P).map_err(|_| PkixError::Encryption)?;
    let params =
        pbes2::Parameters::generate_scrypt_aes256cbc(cost, &salt, iv).map_err(map_pkcs5)?;
    let ciphertext = params.encrypt(password, plain).map_err(map_pkcs5)?;
    let info = EncryptedPrivateKeyInfoRef {
        encryption_algorithm: params.into(),
        encrypted_data: OctetStringRef::new(&ciphertext).map_err(|_| PkixError::Encryption)?,
    };
    Ok(info.to_der().map_err(|_| PkixError::Encryption)?)
}

impl<P: ParameterSet> SigningKey<P> {
    /// Reads a DER EncryptedPrivateKeyInfo (PBES2) holding a key of set `P`: decrypts it with
    /// `password`, then reads it as [`SigningKey::from_pkcs8_der`] does.
    pub fn from_pkcs8_encrypted_der(der: &[u8], password: impl AsRef<[u8]>) -> Result<Self, Error> {
        let plain = decrypt(der, password.as_ref())?;
        Self::from_pkcs8_der(&plain)
    }

    /// Reads a PEM `ENCRYPTED PRIVATE KEY` document (see
    /// [`SigningKey::from_pkcs8_encrypted_der`]).
    pub fn from_pkcs8_encrypted_pem(pem: &str, password: impl AsRef<[u8]>) -> Result<Self, Error> {
        let der = pem::decode(pem, PemLabel::EncryptedPrivateKey)?;
        Self::from_pkcs8_encrypted_der(&der, password)
    }

    /// The key as a DER EncryptedPrivateKeyInfo: [`SigningKey::to_pkcs8_der`] in `form`,
    /// encrypted with PBES2 (scrypt, AES-256-CBC) under `password`, salt and IV from `rng`.
    pub fn to_pkcs8_encrypted_der_with_rng<R: TryCryptoRng + ?Sized>(
        &self,
        form: KeyForm,
        password: impl AsRef<[u8]>,
        rng: &mut R,
    ) -> Result<Vec<u8>, Error> {
        let plain = self.to_pkcs8_der(form)?;
        encrypt(&plain, password.as_ref(), rng)
    }

    /// [`SigningKey::to_pkcs8_encrypted_der_with_rng`] as a PEM `ENCRYPTED PRIVATE KEY`
    /// document.
    pub fn to_pkcs8_encrypted_pem_with_rng<R: TryCryptoRng + ?Sized>(
        &self,
        form: KeyForm,
        password: impl AsRef<[u8]>,
        rng: &mut R,
    ) -> Result<String, Error> {
        let der = self.to_pkcs8_encrypted_der_with_rng(form, password, rng)?;
        Ok(pem::encode(ENCRYPTED_PRIVATE_KEY_LABEL, &der)?)
    }

    /// [`SigningKey::to_pkcs8_encrypted_der_with_rng`] with the operating system's randomness.
    #[cfg(feature = "getrandom")]
    pub fn to_pkcs8_encrypted_der(
        &self,
        form: KeyForm,
        password: impl AsRef<[u8]>,
    ) -> Result<Vec<u8>, Error> {
        self.to_pkcs8_encrypted_der_with_rng(form, password, &mut rng::OsRng)
    }

    /// [`SigningKey::to_pkcs8_encrypted_pem_with_rng`] with the operating system's randomness.
    #[cfg(feature = "getrandom")]
    pub fn to_pkcs8_encrypted_pem(
        &self,
        form: KeyForm,
        password: impl AsRef<[u8]>,
    ) -> Result<String, Error> {
        self.to_pkcs8_encrypted_pem_with_rng(form, password, &mut rng::OsRng)
    }
}

impl AnySigningKey {
    /// Reads a DER EncryptedPrivateKeyInfo holding an ML-DSA key of any set.
    pub fn from_pkcs8_encrypted_der(
        der: &[u8],
        password: impl AsRef<[u8]>,
    ) -> Result<(Self, KeyForm), Error> {
        let plain = decrypt(der, password.as_ref())?;
        Self::from_pkcs8_der(&plain)
    }

    /// Reads a PEM `ENCRYPTED PRIVATE KEY` document holding an ML-DSA key of any set.
    pub fn from_pkcs8_encrypted_pem(
        pem: &str,
        password: impl AsRef<[u8]>,
    ) -> Result<(Self, KeyForm), Error> {
        let der = pem::decode(pem, PemLabel::EncryptedPrivateKey)?;
        Self::from_pkcs8_encrypted_der(&der, password)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A wrong password whose CBC padding happens to be valid yields random bytes, not a key:
    /// it is reported as a failed decryption (as every other wrong password is), not as
    /// malformed DER.
    #[test]
    fn every_wrong_password_is_a_decryption_error() {
        let plain = [0x30, 0x03, 0x02, 0x01, 0x00]; // SEQUENCE { INTEGER 0 }
        // One PBKDF2 iteration, so that thousands of wrong passwords take milliseconds.
        let params =
            pbes2::Parameters::generate_pbkdf2_sha256_aes256cbc(1, &[7; 16], [9; 16]).unwrap();
        let ciphertext = params.encrypt(b"right", &plain).unwrap();
        let info = EncryptedPrivateKeyInfoRef {
            encryption_algorithm: params.clone().into(),
            encrypted_data: OctetStringRef::new(&ciphertext).unwrap(),
        };
        let der = info.to_der().unwrap();
        assert_eq!(decrypt(&der, b"right").unwrap().as_slice(), plain);
        let mut valid_padding = 0;
        for i in 0..4000u32 {
            let wrong = i.to_le_bytes();
            if params.decrypt(wrong, &ciphertext).is_ok() {
                valid_padding += 1;
            }
            assert_eq!(
                decrypt(&der, &wrong).unwrap_err(),
                PkixError::Decryption,
                "{i}"
            );
        }
        // About 4000/256 of them get past the padding check: the case this test is about.
        assert!(valid_padding > 0, "no wrong password had valid padding");
    }
}
