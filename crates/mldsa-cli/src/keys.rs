//! Keys of any supported algorithm, in any supported file format.
//!
//! Formats: PEM and DER (RFC 9881 SubjectPublicKeyInfo and PKCS#8; ML-DSA only, since no OIDs
//! were ever standardised for Dilithium round 3) and raw FIPS 204 bytes (a private key is the
//! 32-byte seed or the expanded encoding, told apart by length; raw keys carry no algorithm, so
//! `-a` must name it unless the length is unambiguous).

use crate::alg::{ALL, Alg};
use crate::error::{CliError, Result};
use clap::ValueEnum;
use mldsa::legacy::{
    self, Dilithium2, Dilithium2Aes, Dilithium3, Dilithium3Aes, Dilithium5, Dilithium5Aes,
};
use mldsa::pkix::{AnySigningKey, AnyVerifyingKey, KeyForm};
use mldsa::{MlDsa44, MlDsa65, MlDsa87, SigningKey, VerifyingKey};
use zeroize::Zeroizing;

/// File format of a key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// PEM (RFC 7468): `PUBLIC KEY` / `PRIVATE KEY`. ML-DSA only.
    Pem,
    /// DER: SubjectPublicKeyInfo / PKCS#8 (RFC 9881). ML-DSA only.
    Der,
    /// Raw FIPS 204 bytes: the public key, or the 32-byte seed / expanded secret key.
    Raw,
}

/// What a private key file holds (the RFC 9881 CHOICE; raw files: seed or expanded).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Form {
    /// The 32-byte seed xi (recommended: the smallest, and it determines everything else).
    Seed,
    /// The FIPS 204 expanded secret key.
    Expanded,
    /// Both, as RFC 9881's `both` SEQUENCE (PEM/DER only).
    Both,
}

impl Form {
    fn pkix(self) -> KeyForm {
        match self {
            Form::Seed => KeyForm::Seed,
            Form::Expanded => KeyForm::Expanded,
            Form::Both => KeyForm::Both,
        }
    }

    fn from_pkix(form: KeyForm) -> Self {
        match form {
            KeyForm::Seed => Form::Seed,
            KeyForm::Expanded => Form::Expanded,
            KeyForm::Both => Form::Both,
        }
    }

    /// Lower-case name, as printed by `inspect`.
    pub fn name(self) -> &'static str {
        match self {
            Form::Seed => "seed",
            Form::Expanded => "expanded",
            Form::Both => "seed and expanded",
        }
    }
}

/// A private key of any algorithm.
pub enum SecretKey {
    MlDsa44(SigningKey<MlDsa44>),
    MlDsa65(SigningKey<MlDsa65>),
    MlDsa87(SigningKey<MlDsa87>),
    Dilithium2(legacy::SigningKey<Dilithium2>),
    Dilithium3(legacy::SigningKey<Dilithium3>),
    Dilithium5(legacy::SigningKey<Dilithium5>),
    Dilithium2Aes(legacy::SigningKey<Dilithium2Aes>),
    Dilithium3Aes(legacy::SigningKey<Dilithium3Aes>),
    Dilithium5Aes(legacy::SigningKey<Dilithium5Aes>),
}

/// A public key of any algorithm.
pub enum PublicKey {
    MlDsa44(VerifyingKey<MlDsa44>),
    MlDsa65(VerifyingKey<MlDsa65>),
    MlDsa87(VerifyingKey<MlDsa87>),
    Dilithium2(legacy::VerifyingKey<Dilithium2>),
    Dilithium3(legacy::VerifyingKey<Dilithium3>),
    Dilithium5(legacy::VerifyingKey<Dilithium5>),
    Dilithium2Aes(legacy::VerifyingKey<Dilithium2Aes>),
    Dilithium3Aes(legacy::VerifyingKey<Dilithium3Aes>),
    Dilithium5Aes(legacy::VerifyingKey<Dilithium5Aes>),
}

/// Runs `$body` with `$k` bound to the key inside any variant of a key enum.
macro_rules! each_key {
    ($e:expr, $ty:ident, $k:ident => $body:expr) => {
        match $e {
            $ty::MlDsa44($k) => $body,
            $ty::MlDsa65($k) => $body,
            $ty::MlDsa87($k) => $body,
            $ty::Dilithium2($k) => $body,
            $ty::Dilithium3($k) => $body,
            $ty::Dilithium5($k) => $body,
            $ty::Dilithium2Aes($k) => $body,
            $ty::Dilithium3Aes($k) => $body,
            $ty::Dilithium5Aes($k) => $body,
        }
    };
}

impl SecretKey {
    /// The key determined by a 32-byte seed.
    pub fn from_seed(alg: Alg, seed: &[u8; 32]) -> Self {
        match alg {
            Alg::MlDsa44 => SecretKey::MlDsa44(SigningKey::from_seed(seed)),
            Alg::MlDsa65 => SecretKey::MlDsa65(SigningKey::from_seed(seed)),
            Alg::MlDsa87 => SecretKey::MlDsa87(SigningKey::from_seed(seed)),
            Alg::Dilithium2 => SecretKey::Dilithium2(legacy::SigningKey::from_seed(seed)),
            Alg::Dilithium3 => SecretKey::Dilithium3(legacy::SigningKey::from_seed(seed)),
            Alg::Dilithium5 => SecretKey::Dilithium5(legacy::SigningKey::from_seed(seed)),
            Alg::Dilithium2Aes => SecretKey::Dilithium2Aes(legacy::SigningKey::from_seed(seed)),
            Alg::Dilithium3Aes => SecretKey::Dilithium3Aes(legacy::SigningKey::from_seed(seed)),
            Alg::Dilithium5Aes => SecretKey::Dilithium5Aes(legacy::SigningKey::from_seed(seed)),
        }
    }

    fn from_any(key: AnySigningKey) -> Self {
        match key {
            AnySigningKey::MlDsa44(k) => SecretKey::MlDsa44(k),
            AnySigningKey::MlDsa65(k) => SecretKey::MlDsa65(k),
            AnySigningKey::MlDsa87(k) => SecretKey::MlDsa87(k),
        }
    }

    /// The algorithm.
    pub fn alg(&self) -> Alg {
        match self {
            SecretKey::MlDsa44(_) => Alg::MlDsa44,
            SecretKey::MlDsa65(_) => Alg::MlDsa65,
            SecretKey::MlDsa87(_) => Alg::MlDsa87,
            SecretKey::Dilithium2(_) => Alg::Dilithium2,
            SecretKey::Dilithium3(_) => Alg::Dilithium3,
            SecretKey::Dilithium5(_) => Alg::Dilithium5,
            SecretKey::Dilithium2Aes(_) => Alg::Dilithium2Aes,
            SecretKey::Dilithium3Aes(_) => Alg::Dilithium3Aes,
            SecretKey::Dilithium5Aes(_) => Alg::Dilithium5Aes,
        }
    }

    /// The matching public key.
    pub fn public(&self) -> PublicKey {
        match self {
            SecretKey::MlDsa44(k) => PublicKey::MlDsa44(*k.verifying_key()),
            SecretKey::MlDsa65(k) => PublicKey::MlDsa65(*k.verifying_key()),
            SecretKey::MlDsa87(k) => PublicKey::MlDsa87(*k.verifying_key()),
            SecretKey::Dilithium2(k) => PublicKey::Dilithium2(*k.verifying_key()),
            SecretKey::Dilithium3(k) => PublicKey::Dilithium3(*k.verifying_key()),
            SecretKey::Dilithium5(k) => PublicKey::Dilithium5(*k.verifying_key()),
            SecretKey::Dilithium2Aes(k) => PublicKey::Dilithium2Aes(*k.verifying_key()),
            SecretKey::Dilithium3Aes(k) => PublicKey::Dilithium3Aes(*k.verifying_key()),
            SecretKey::Dilithium5Aes(k) => PublicKey::Dilithium5Aes(*k.verifying_key()),
        }
    }

    fn seed(&self) -> Option<[u8; 32]> {
        each_key!(self, SecretKey, k => k.seed().copied())
    }

    /// The expanded encoding, written straight into a heap buffer that is wiped on drop.
    fn expanded(&self) -> Zeroizing<Vec<u8>> {
        let mut out = Zeroizing::new(vec![0u8; self.alg().sizes().1]);
        // The buffer has the key's own length, so neither call can fail.
        let written = match self {
            SecretKey::MlDsa44(k) => k.write_expanded_bytes(&mut out),
            SecretKey::MlDsa65(k) => k.write_expanded_bytes(&mut out),
            SecretKey::MlDsa87(k) => k.write_expanded_bytes(&mut out),
            SecretKey::Dilithium2(k) => k.write_bytes(&mut out),
            SecretKey::Dilithium3(k) => k.write_bytes(&mut out),
            SecretKey::Dilithium5(k) => k.write_bytes(&mut out),
            SecretKey::Dilithium2Aes(k) => k.write_bytes(&mut out),
            SecretKey::Dilithium3Aes(k) => k.write_bytes(&mut out),
            SecretKey::Dilithium5Aes(k) => k.write_bytes(&mut out),
        };
        debug_assert!(written.is_ok());
        out
    }

    /// The key file contents in `format` and `form`, encrypted under `passphrase` if given.
    pub fn encode(
        &self,
        format: Format,
        form: Form,
        passphrase: Option<&[u8]>,
    ) -> Result<Zeroizing<Vec<u8>>> {
        if let Some(pass) = passphrase {
            return self.encode_encrypted(format, form, pass);
        }
        let need_seed = || {
            CliError::usage(
                "this key has no seed (it was imported in expanded form); use --key-form expanded",
            )
        };
        if format == Format::Raw {
            return match form {
                Form::Seed => Ok(Zeroizing::new(self.seed().ok_or_else(need_seed)?.to_vec())),
                Form::Expanded => Ok(self.expanded()),
                Form::Both => Err(CliError::usage(
                    "--key-form both needs PEM or DER: a raw file holds the seed or the expanded key",
                )),
            };
        }
        if form != Form::Expanded && self.seed().is_none() {
            return Err(need_seed());
        }
        let pkcs8 = |r: std::result::Result<Zeroizing<Vec<u8>>, mldsa::Error>| {
            r.map_err(|e| CliError::usage(format!("cannot encode the key: {e}")))
        };
        let pem = |r: std::result::Result<Zeroizing<String>, mldsa::Error>| {
            r.map(|s| Zeroizing::new(s.as_bytes().to_vec()))
                .map_err(|e| CliError::usage(format!("cannot encode the key: {e}")))
        };
        let f = form.pkix();
        match (self, format) {
            (SecretKey::MlDsa44(k), Format::Der) => pkcs8(k.to_pkcs8_der(f)),
            (SecretKey::MlDsa65(k), Format::Der) => pkcs8(k.to_pkcs8_der(f)),
            (SecretKey::MlDsa87(k), Format::Der) => pkcs8(k.to_pkcs8_der(f)),
            (SecretKey::MlDsa44(k), _) => pem(k.to_pkcs8_pem(f)),
            (SecretKey::MlDsa65(k), _) => pem(k.to_pkcs8_pem(f)),
            (SecretKey::MlDsa87(k), _) => pem(k.to_pkcs8_pem(f)),
            _ => Err(CliError::usage(format!(
                "{} keys have no standard PEM/DER encoding; use --format raw",
                self.alg()
            ))),
        }
    }

    fn encode_encrypted(
        &self,
        format: Format,
        form: Form,
        pass: &[u8],
    ) -> Result<Zeroizing<Vec<u8>>> {
        if self.seed().is_none() && form != Form::Expanded {
            return Err(CliError::usage(
                "this key has no seed; use --key-form expanded",
            ));
        }
        let f = form.pkix();
        let err = |e: mldsa::Error| CliError::usage(format!("cannot encrypt the key: {e}"));
        let out = match (self, format) {
            (SecretKey::MlDsa44(k), Format::Der) => {
                k.to_pkcs8_encrypted_der(f, pass).map_err(err)?
            }
            (SecretKey::MlDsa65(k), Format::Der) => {
                k.to_pkcs8_encrypted_der(f, pass).map_err(err)?
            }
            (SecretKey::MlDsa87(k), Format::Der) => {
                k.to_pkcs8_encrypted_der(f, pass).map_err(err)?
            }
            (SecretKey::MlDsa44(k), Format::Pem) => {
                k.to_pkcs8_encrypted_pem(f, pass).map_err(err)?.into_bytes()
            }
            (SecretKey::MlDsa65(k), Format::Pem) => {
                k.to_pkcs8_encrypted_pem(f, pass).map_err(err)?.into_bytes()
            }
            (SecretKey::MlDsa87(k), Format::Pem) => {
                k.to_pkcs8_encrypted_pem(f, pass).map_err(err)?.into_bytes()
            }
            _ => {
                return Err(CliError::usage(
                    "--encrypt needs an ML-DSA key in PEM or DER format",
                ));
            }
        };
        Ok(Zeroizing::new(out))
    }

    /// Reads a private key file in `format` (from `--in-format`), or detecting it (see
    /// [`read_detected`]). `alg` (from `-a`) is required for raw keys whose length fits several
    /// algorithms, and must agree with PEM/DER contents. Encrypted PKCS#8 files need
    /// `passphrase`.
    pub fn decode(
        path: &str,
        bytes: &[u8],
        alg: Option<Alg>,
        passphrase: Option<&[u8]>,
        format: Option<Format>,
    ) -> Result<(Self, Format, Form)> {
        let raw_fits = secret_raw_fits(bytes.len(), alg);
        read_detected(path, bytes, format, raw_fits, |f| {
            Self::decode_as(path, bytes, alg, passphrase, f)
        })
    }

    fn decode_as(
        path: &str,
        bytes: &[u8],
        alg: Option<Alg>,
        passphrase: Option<&[u8]>,
        format: Format,
    ) -> Result<(Self, Format, Form)> {
        let (key, form) = match format {
            Format::Pem => {
                let text = pem_text(path, bytes)?;
                match mldsa::pkix::pem_label(text) {
                    Some(mldsa::pkix::ENCRYPTED_PRIVATE_KEY_LABEL) => {
                        let pass = need_passphrase(path, passphrase)?;
                        AnySigningKey::from_pkcs8_encrypted_pem(text, pass)
                    }
                    Some(label) if label != "PRIVATE KEY" => {
                        return Err(CliError::input(
                            path,
                            format!("a PEM {label:?} is not a private key"),
                        ));
                    }
                    _ => AnySigningKey::from_pkcs8_pem(text),
                }
            }
            Format::Der => {
                if mldsa::pkix::der_kind(bytes) == Some(mldsa::pkix::PemLabel::EncryptedPrivateKey)
                {
                    let pass = need_passphrase(path, passphrase)?;
                    AnySigningKey::from_pkcs8_encrypted_der(bytes, pass)
                } else {
                    AnySigningKey::from_pkcs8_der(bytes)
                }
            }
            Format::Raw => return Self::decode_raw(path, bytes, alg),
        }
        .map_err(|e| CliError::input(path, e))?;
        let key = SecretKey::from_any(key);
        check_alg(path, "PKCS#8 key", key.alg(), alg)?;
        Ok((key, format, Form::from_pkix(form)))
    }

    fn decode_raw(path: &str, bytes: &[u8], alg: Option<Alg>) -> Result<(Self, Format, Form)> {
        if bytes.len() == 32 {
            let alg = alg.ok_or_else(|| {
                CliError::input(
                    path,
                    "a raw 32-byte seed does not say its algorithm; add -a",
                )
            })?;
            let seed: [u8; 32] = bytes.try_into().expect("length checked");
            return Ok((Self::from_seed(alg, &seed), Format::Raw, Form::Seed));
        }
        let alg = raw_alg(path, bytes.len(), alg, 1)?;
        Ok((expanded(path, alg, bytes)?, Format::Raw, Form::Expanded))
    }
}

/// Whether a file of `len` bytes has the size of a raw private key (of `alg`, or of any).
fn secret_raw_fits(len: usize, alg: Option<Alg>) -> bool {
    len == 32
        || ALL
            .into_iter()
            .any(|a| alg.is_none_or(|w| w == a) && a.sizes().1 == len)
}

/// Whether a file of `len` bytes has the size of a raw public key (of `alg`, or of any).
fn public_raw_fits(len: usize, alg: Option<Alg>) -> bool {
    ALL.into_iter()
        .any(|a| alg.is_none_or(|w| w == a) && a.sizes().0 == len)
}

fn pem_text<'a>(path: &str, bytes: &'a [u8]) -> Result<&'a str> {
    std::str::from_utf8(bytes).map_err(|_| CliError::input(path, "PEM file is not valid text"))
}

fn need_passphrase<'a>(path: &str, passphrase: Option<&'a [u8]>) -> Result<&'a [u8]> {
    passphrase.ok_or_else(|| {
        CliError::input(
            path,
            "the private key is encrypted; give --passphrase-file or --passphrase-env",
        )
    })
}

/// Reads a key file in the format given with `--in-format`, or else detects it so that no file
/// this tool writes is misread: a raw key is arbitrary bytes, and may begin with what looks like
/// a DER header (`30 82 05 1c` for a 1312-byte public key) or contain `-----BEGIN `. So when the
/// file has a raw key's size (`raw_fits`), a PEM or DER reading wins only if it parses completely
/// into a key of the expected kind (and algorithm); if the raw reading works as well, the file is
/// ambiguous and `--in-format` settles it.
fn read_detected<T>(
    path: &str,
    bytes: &[u8],
    given: Option<Format>,
    raw_fits: bool,
    read: impl Fn(Format) -> Result<T>,
) -> Result<T> {
    if let Some(format) = given {
        return read(format);
    }
    let looks = sniff(bytes);
    if looks == Format::Raw || !raw_fits {
        return read(looks);
    }
    match read(looks) {
        Err(_) => read(Format::Raw),
        Ok(key) if read(Format::Raw).is_err() => Ok(key),
        Ok(_) => Err(CliError::input(
            path,
            format!(
                "reads both as {} and as a raw key of {} bytes; add --in-format {} or --in-format \
                 raw",
                format_name(looks),
                bytes.len(),
                format_flag(looks)
            ),
        )),
    }
}

/// Display name of a format.
pub fn format_name(f: Format) -> &'static str {
    match f {
        Format::Pem => "PEM",
        Format::Der => "DER",
        Format::Raw => "raw",
    }
}

fn format_flag(f: Format) -> &'static str {
    match f {
        Format::Pem => "pem",
        Format::Der => "der",
        Format::Raw => "raw",
    }
}

fn expanded(path: &str, alg: Alg, bytes: &[u8]) -> Result<SecretKey> {
    let err = |e: mldsa::Error| CliError::input(path, e);
    Ok(match alg {
        Alg::MlDsa44 => SecretKey::MlDsa44(SigningKey::from_expanded(bytes).map_err(err)?),
        Alg::MlDsa65 => SecretKey::MlDsa65(SigningKey::from_expanded(bytes).map_err(err)?),
        Alg::MlDsa87 => SecretKey::MlDsa87(SigningKey::from_expanded(bytes).map_err(err)?),
        Alg::Dilithium2 => {
            SecretKey::Dilithium2(legacy::SigningKey::from_bytes(bytes).map_err(err)?)
        }
        Alg::Dilithium3 => {
            SecretKey::Dilithium3(legacy::SigningKey::from_bytes(bytes).map_err(err)?)
        }
        Alg::Dilithium5 => {
            SecretKey::Dilithium5(legacy::SigningKey::from_bytes(bytes).map_err(err)?)
        }
        Alg::Dilithium2Aes => {
            SecretKey::Dilithium2Aes(legacy::SigningKey::from_bytes(bytes).map_err(err)?)
        }
        Alg::Dilithium3Aes => {
            SecretKey::Dilithium3Aes(legacy::SigningKey::from_bytes(bytes).map_err(err)?)
        }
        Alg::Dilithium5Aes => {
            SecretKey::Dilithium5Aes(legacy::SigningKey::from_bytes(bytes).map_err(err)?)
        }
    })
}

/// "expected ..." for a raw key of the wrong length; `which` is 0 for public, 1 for private.
/// The algorithm of a raw key of `len` bytes (`which`: 0 public, 1 expanded private): the one
/// `-a` names, or the only one with that length. Raw keys do not name their algorithm, and
/// lengths are shared (ML-DSA-44, Dilithium2 and Dilithium2-AES public keys; a round-3 set's
/// and its AES twin's private keys), so a key that fits several never gets a verdict under a
/// scheme the user did not choose: it needs `-a`.
fn raw_alg(path: &str, len: usize, alg: Option<Alg>, which: usize) -> Result<Alg> {
    let size = |a: Alg| if which == 0 { a.sizes().0 } else { a.sizes().1 };
    let fits: Vec<Alg> = ALL
        .into_iter()
        .filter(|a| alg.is_none_or(|w| w == *a) && size(*a) == len)
        .collect();
    match fits.as_slice() {
        [a] => Ok(*a),
        [] => Err(CliError::input(path, raw_length_message(len, alg, which))),
        _ => {
            let names: Vec<String> = fits.iter().map(|a| format!("-a {a}")).collect();
            Err(CliError::input(
                path,
                format!("raw key of {len} bytes: add {}", names.join(" or ")),
            ))
        }
    }
}

fn raw_length_message(len: usize, alg: Option<Alg>, which: usize) -> String {
    let kind = if which == 0 { "public" } else { "private" };
    let size = |a: Alg| if which == 0 { a.sizes().0 } else { a.sizes().1 };
    match alg {
        Some(a) if which == 1 => format!(
            "{len} bytes is not a raw {a} {kind} key (expected 32 for a seed or {} expanded)",
            size(a)
        ),
        Some(a) => format!(
            "{len} bytes is not a raw {a} {kind} key (expected {})",
            size(a)
        ),
        None => {
            format!("{len} bytes is not a PEM, DER or raw {kind} key of any supported algorithm")
        }
    }
}

fn check_alg(path: &str, what: &str, found: Alg, wanted: Option<Alg>) -> Result<()> {
    match wanted {
        Some(w) if w != found => Err(CliError::input(
            path,
            format!("{what} is {found} but -a {w} was given"),
        )),
        _ => Ok(()),
    }
}

/// Guesses a key file's format from its first bytes (a guess only: see [`read_detected`]).
fn sniff(bytes: &[u8]) -> Format {
    // PEM may have explanatory text around its block (RFC 7468 section 2), but is text.
    let is_text = std::str::from_utf8(bytes).is_ok();
    if is_text && bytes.windows(11).any(|w| w == b"-----BEGIN ") {
        Format::Pem
    } else if bytes.first() == Some(&0x30) && der_length_matches(bytes) {
        Format::Der
    } else {
        Format::Raw
    }
}

/// Whether `bytes` is exactly one DER SEQUENCE (so that a raw key starting with 0x30 is not
/// mistaken for DER).
fn der_length_matches(bytes: &[u8]) -> bool {
    let Some(&first_len) = bytes.get(1) else {
        return false;
    };
    let (len, header) = if first_len < 0x80 {
        (first_len as usize, 2)
    } else {
        let n = (first_len & 0x7F) as usize;
        if n == 0 || n > 4 || bytes.len() < 2 + n {
            return false;
        }
        (
            bytes[2..2 + n]
                .iter()
                .fold(0usize, |acc, &b| acc << 8 | b as usize),
            2 + n,
        )
    };
    header + len == bytes.len()
}

impl PublicKey {
    /// The algorithm.
    pub fn alg(&self) -> Alg {
        match self {
            PublicKey::MlDsa44(_) => Alg::MlDsa44,
            PublicKey::MlDsa65(_) => Alg::MlDsa65,
            PublicKey::MlDsa87(_) => Alg::MlDsa87,
            PublicKey::Dilithium2(_) => Alg::Dilithium2,
            PublicKey::Dilithium3(_) => Alg::Dilithium3,
            PublicKey::Dilithium5(_) => Alg::Dilithium5,
            PublicKey::Dilithium2Aes(_) => Alg::Dilithium2Aes,
            PublicKey::Dilithium3Aes(_) => Alg::Dilithium3Aes,
            PublicKey::Dilithium5Aes(_) => Alg::Dilithium5Aes,
        }
    }

    /// The raw FIPS 204 encoding.
    pub fn as_bytes(&self) -> &[u8] {
        each_key!(self, PublicKey, k => k.as_bytes())
    }

    /// The key file contents in `format`.
    pub fn encode(&self, format: Format) -> Result<Vec<u8>> {
        match (self, format) {
            (_, Format::Raw) => Ok(self.as_bytes().to_vec()),
            (PublicKey::MlDsa44(k), Format::Der) => Ok(k.to_public_key_der()),
            (PublicKey::MlDsa65(k), Format::Der) => Ok(k.to_public_key_der()),
            (PublicKey::MlDsa87(k), Format::Der) => Ok(k.to_public_key_der()),
            (PublicKey::MlDsa44(k), Format::Pem) => Ok(k.to_public_key_pem().into_bytes()),
            (PublicKey::MlDsa65(k), Format::Pem) => Ok(k.to_public_key_pem().into_bytes()),
            (PublicKey::MlDsa87(k), Format::Pem) => Ok(k.to_public_key_pem().into_bytes()),
            _ => Err(CliError::usage(format!(
                "{} keys have no standard PEM/DER encoding; use --format raw",
                self.alg()
            ))),
        }
    }

    /// Reads a public key file in `format` (from `--in-format`), or detecting it (see
    /// [`read_detected`]); a private key file is accepted too (its public half is used), so
    /// `verify -p` works with either.
    pub fn decode(
        path: &str,
        bytes: &[u8],
        alg: Option<Alg>,
        passphrase: Option<&[u8]>,
        format: Option<Format>,
    ) -> Result<(Self, Format)> {
        let raw_fits = public_raw_fits(bytes.len(), alg) || secret_raw_fits(bytes.len(), alg);
        read_detected(path, bytes, format, raw_fits, |f| {
            Self::decode_as(path, bytes, alg, passphrase, f)
        })
    }

    fn decode_as(
        path: &str,
        bytes: &[u8],
        alg: Option<Alg>,
        passphrase: Option<&[u8]>,
        format: Format,
    ) -> Result<(Self, Format)> {
        let from_secret = || {
            SecretKey::decode_as(path, bytes, alg, passphrase, format)
                .map(|(sk, _, _)| (sk.public(), format))
        };
        match format {
            Format::Pem => {
                let text = pem_text(path, bytes)?;
                if mldsa::pkix::pem_label(text).is_some_and(|l| l.ends_with("PRIVATE KEY")) {
                    return from_secret();
                }
                if let Some(label) = mldsa::pkix::pem_label(text).filter(|l| *l != "PUBLIC KEY") {
                    return Err(CliError::input(
                        path,
                        format!("a PEM {label:?} is not a public or private key"),
                    ));
                }
                let key = AnyVerifyingKey::from_public_key_pem(text)
                    .map_err(|e| CliError::input(path, e))?;
                Ok((from_any(path, key, alg)?, format))
            }
            Format::Der => match AnyVerifyingKey::from_public_key_der(bytes) {
                Ok(key) => Ok((from_any(path, key, alg)?, format)),
                Err(spki_err) => match mldsa::pkix::der_kind(bytes) {
                    Some(mldsa::pkix::PemLabel::PublicKey) | None => {
                        Err(CliError::input(path, spki_err))
                    }
                    Some(_) => from_secret(),
                },
            },
            Format::Raw if !public_raw_fits(bytes.len(), alg) => from_secret().map_err(|e| {
                if secret_raw_fits(bytes.len(), alg) {
                    e
                } else {
                    CliError::input(path, raw_length_message(bytes.len(), alg, 0))
                }
            }),
            Format::Raw => Ok((Self::decode_raw(path, bytes, alg)?, format)),
        }
    }

    fn decode_raw(path: &str, bytes: &[u8], alg: Option<Alg>) -> Result<Self> {
        let alg = raw_alg(path, bytes.len(), alg, 0)?;
        let err = |e: mldsa::Error| CliError::input(path, e);
        Ok(match alg {
            Alg::MlDsa44 => PublicKey::MlDsa44(VerifyingKey::from_bytes(bytes).map_err(err)?),
            Alg::MlDsa65 => PublicKey::MlDsa65(VerifyingKey::from_bytes(bytes).map_err(err)?),
            Alg::MlDsa87 => PublicKey::MlDsa87(VerifyingKey::from_bytes(bytes).map_err(err)?),
            Alg::Dilithium2 => {
                PublicKey::Dilithium2(legacy::VerifyingKey::from_bytes(bytes).map_err(err)?)
            }
            Alg::Dilithium3 => {
                PublicKey::Dilithium3(legacy::VerifyingKey::from_bytes(bytes).map_err(err)?)
            }
            Alg::Dilithium5 => {
                PublicKey::Dilithium5(legacy::VerifyingKey::from_bytes(bytes).map_err(err)?)
            }
            Alg::Dilithium2Aes => {
                PublicKey::Dilithium2Aes(legacy::VerifyingKey::from_bytes(bytes).map_err(err)?)
            }
            Alg::Dilithium3Aes => {
                PublicKey::Dilithium3Aes(legacy::VerifyingKey::from_bytes(bytes).map_err(err)?)
            }
            Alg::Dilithium5Aes => {
                PublicKey::Dilithium5Aes(legacy::VerifyingKey::from_bytes(bytes).map_err(err)?)
            }
        })
    }

    /// SHA2-256 of the raw public key, in hex: a short name for the key.
    pub fn fingerprint(&self) -> String {
        let digest = mldsa::PreHashed::hash(mldsa::PreHash::Sha2_256, self.as_bytes());
        hex::encode(digest.digest())
    }
}

fn from_any(path: &str, key: AnyVerifyingKey, alg: Option<Alg>) -> Result<PublicKey> {
    let key = match key {
        AnyVerifyingKey::MlDsa44(k) => PublicKey::MlDsa44(k),
        AnyVerifyingKey::MlDsa65(k) => PublicKey::MlDsa65(k),
        AnyVerifyingKey::MlDsa87(k) => PublicKey::MlDsa87(k),
    };
    check_alg(path, "public key", key.alg(), alg)?;
    Ok(key)
}

/// A key file's contents: a private key or a public key.
pub enum KeyFile {
    Secret(SecretKey, Format, Form),
    Public(PublicKey, Format),
}

impl KeyFile {
    /// Reads a private or a public key file (for `convert` and `inspect`); when it is neither,
    /// the error is the private key reader's if the file looks like a private key, else the
    /// public key reader's.
    pub fn decode(
        path: &str,
        bytes: &[u8],
        alg: Option<Alg>,
        passphrase: Option<&[u8]>,
        format: Option<Format>,
    ) -> Result<Self> {
        let secret_err = match SecretKey::decode(path, bytes, alg, passphrase, format) {
            Ok((sk, f, form)) => return Ok(KeyFile::Secret(sk, f, form)),
            Err(e) => e,
        };
        match PublicKey::decode(path, bytes, alg, passphrase, format) {
            Ok((pk, f)) => Ok(KeyFile::Public(pk, f)),
            Err(_) if looks_private(bytes, alg, format) => Err(secret_err),
            Err(public_err) => Err(public_err),
        }
    }
}

/// Whether a file that reads as no key at all was meant as a private key (to pick the error).
fn looks_private(bytes: &[u8], alg: Option<Alg>, format: Option<Format>) -> bool {
    let format = match format {
        Some(f) => f,
        None if secret_raw_fits(bytes.len(), alg) => Format::Raw,
        None => sniff(bytes),
    };
    match format {
        Format::Pem => std::str::from_utf8(bytes)
            .ok()
            .and_then(mldsa::pkix::pem_label)
            .is_some_and(|l| l.ends_with("PRIVATE KEY")),
        Format::Der => matches!(
            mldsa::pkix::der_kind(bytes),
            Some(mldsa::pkix::PemLabel::PrivateKey | mldsa::pkix::PemLabel::EncryptedPrivateKey)
        ),
        Format::Raw => secret_raw_fits(bytes.len(), alg),
    }
}

/// The format of an encrypted PKCS#8 file (PEM or DER), or None if the file is not one. A file
/// with a raw key's size counts only when `--in-format` says PEM or DER.
pub fn encrypted_format(bytes: &[u8], alg: Option<Alg>, format: Option<Format>) -> Option<Format> {
    let raw_fits = public_raw_fits(bytes.len(), alg) || secret_raw_fits(bytes.len(), alg);
    let format = match format {
        Some(f) => f,
        None if raw_fits => return None,
        None => sniff(bytes),
    };
    let encrypted = match format {
        Format::Pem => {
            std::str::from_utf8(bytes)
                .ok()
                .and_then(mldsa::pkix::pem_label)
                == Some(mldsa::pkix::ENCRYPTED_PRIVATE_KEY_LABEL)
        }
        Format::Der => {
            mldsa::pkix::der_kind(bytes) == Some(mldsa::pkix::PemLabel::EncryptedPrivateKey)
        }
        Format::Raw => false,
    };
    encrypted.then_some(format)
}

/// Whether a file that reads as no key was still meant as one (so its key error is the one to
/// report): a key's raw size, a PEM block, or a DER structure.
pub fn looks_like_key(bytes: &[u8], alg: Option<Alg>, format: Option<Format>) -> bool {
    format.is_some()
        || public_raw_fits(bytes.len(), alg)
        || secret_raw_fits(bytes.len(), alg)
        || sniff(bytes) != Format::Raw
}
