//! SubjectPublicKeyInfo and PKCS#8 (plain and encrypted), DER or PEM, for the C API. Encoders
//! return the document; the boundary copies it into a buffer `mldsa_free` wipes.

use mldsa_core::pkix::KeyForm;
use mldsa_core::{ParameterSet, SEED_LEN, SigningKey, VerifyingKey};
use zeroize::Zeroizing;

use crate::ops::put;
use crate::status::{Outcome, Status};

/// `MLDSA_FORMAT_*`: DER or PEM.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Format {
    Der,
    Pem,
}

impl Format {
    pub(crate) fn from_c(v: i32) -> Result<Self, Status> {
        match v {
            0 => Ok(Format::Der),
            1 => Ok(Format::Pem),
            _ => Err(Status::Unsupported),
        }
    }
}

/// `MLDSA_PKCS8_*`: RFC 9881's private key forms.
pub(crate) fn key_form(v: i32) -> Result<KeyForm, Status> {
    match v {
        0 => Ok(KeyForm::Seed),
        1 => Ok(KeyForm::Expanded),
        2 => Ok(KeyForm::Both),
        _ => Err(Status::Unsupported),
    }
}

/// PEM input must be text.
fn text(doc: &[u8]) -> Result<&str, Status> {
    core::str::from_utf8(doc).map_err(|_| Status::Encoding)
}

/// A document returned to C (wiped when freed, as every buffer we hand out).
pub(crate) type Document = Zeroizing<Vec<u8>>;

pub(crate) fn pk_to_spki<P: ParameterSet>(pk: &[u8], format: Format) -> Result<Document, Status> {
    let key = VerifyingKey::<P>::from_bytes(pk)?;
    Ok(Zeroizing::new(match format {
        Format::Der => key.to_public_key_der(),
        Format::Pem => key.to_public_key_pem().into_bytes(),
    }))
}

pub(crate) fn pk_from_spki<P: ParameterSet>(pk: &mut [u8], doc: &[u8], format: Format) -> Outcome {
    let key = match format {
        Format::Der => VerifyingKey::<P>::from_public_key_der(doc)?,
        Format::Pem => VerifyingKey::<P>::from_public_key_pem(text(doc)?)?,
    };
    put(pk, key.as_bytes())
}

/// The key to encode: from a seed (any form) or from expanded bytes (expanded form only).
pub(crate) enum KeySource<'a> {
    Seed(&'a [u8; SEED_LEN]),
    Expanded(&'a [u8]),
}

fn key_of<P: ParameterSet>(src: KeySource<'_>) -> Result<SigningKey<P>, Status> {
    match src {
        KeySource::Seed(seed) => Ok(SigningKey::<P>::from_seed(seed)),
        KeySource::Expanded(sk) => Ok(SigningKey::<P>::from_expanded(sk)?),
    }
}

/// PKCS#8, encrypted under `passphrase` (PBES2, scrypt, AES-256-CBC) when one is given.
pub(crate) fn to_pkcs8<P: ParameterSet>(
    src: KeySource<'_>,
    form: KeyForm,
    passphrase: Option<&[u8]>,
    format: Format,
) -> Result<Document, Status> {
    let key = key_of::<P>(src)?;
    Ok(match (passphrase, format) {
        (None, Format::Der) => key.to_pkcs8_der(form)?,
        (None, Format::Pem) => Zeroizing::new(key.to_pkcs8_pem(form)?.as_bytes().to_vec()),
        (Some(p), Format::Der) => Zeroizing::new(key.to_pkcs8_encrypted_der(form, p)?),
        (Some(p), Format::Pem) => Zeroizing::new(key.to_pkcs8_encrypted_pem(form, p)?.into_bytes()),
    })
}

/// Reads PKCS#8 (decrypting with `passphrase` when given): writes the expanded key, and the
/// seed when the document holds one (returns whether it did).
pub(crate) fn from_pkcs8<P: ParameterSet>(
    sk: &mut [u8],
    seed: Option<&mut [u8]>,
    doc: &[u8],
    passphrase: Option<&[u8]>,
    format: Format,
) -> Result<bool, Status> {
    let key = match (passphrase, format) {
        (None, Format::Der) => SigningKey::<P>::from_pkcs8_der(doc)?,
        (None, Format::Pem) => SigningKey::<P>::from_pkcs8_pem(text(doc)?)?,
        (Some(p), Format::Der) => SigningKey::<P>::from_pkcs8_encrypted_der(doc, p)?,
        (Some(p), Format::Pem) => SigningKey::<P>::from_pkcs8_encrypted_pem(text(doc)?, p)?,
    };
    key.write_expanded_bytes(sk)?;
    match (key.seed(), seed) {
        (Some(s), Some(out)) => put(out, s).map(|()| true),
        (None, Some(out)) => {
            out.fill(0);
            Ok(false)
        }
        (s, None) => Ok(s.is_some()),
    }
}
