//! What can be wrong with a key container, precisely enough to act on.
//!
//! Every type here is `Copy` and none carries secret data: tags, lengths, versions, OIDs and the
//! position in the document only, never a byte of a seed or key.

use crate::params::Algorithm;
use core::fmt;

/// A key-container error: which rule of RFC 9881, RFC 5958, RFC 5280 or RFC 7468 an input
/// breaks. Returned inside [`crate::Error::Pkix`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum PkixError {
    /// The DER is not well formed at `at`.
    Der {
        /// The element being read.
        at: Field,
        /// What is wrong with it.
        problem: DerProblem,
    },
    /// Bytes follow the end of `after` (the whole document, or an element whose contents must
    /// be used up exactly).
    TrailingData {
        /// The element the extra bytes follow or sit inside.
        after: Field,
    },
    /// The algorithm OID is not one of id-ml-dsa-44, -65, -87.
    UnknownAlgorithm {
        /// The OID found.
        found: Oid,
    },
    /// The document holds a key of another ML-DSA parameter set than the one asked for.
    WrongAlgorithm {
        /// The parameter set asked for.
        expected: Algorithm,
        /// The parameter set of the document.
        found: Algorithm,
    },
    /// The AlgorithmIdentifier has parameters; RFC 9881 requires them absent (not even NULL).
    ParametersPresent,
    /// A key or seed has the wrong length for its parameter set.
    Length {
        /// Which element.
        at: Field,
        /// The length RFC 9881 requires, in bytes.
        expected: usize,
        /// The length found, in bytes.
        got: usize,
    },
    /// The OneAsymmetricKey version is neither v1 (0) nor v2 (1).
    UnsupportedVersion {
        /// The version found.
        found: i64,
    },
    /// The version does not agree with the presence of the publicKey field (RFC 5958: v2 if and
    /// only if publicKey is present).
    VersionMismatch {
        /// The version found: 0 for v1, 1 for v2.
        version: u8,
        /// Whether a publicKey field is present.
        public_key_present: bool,
    },
    /// The publicKey field of a v2 document is not the public key the private key determines.
    PublicKeyMismatch,
    /// The `both` form's expandedKey is not the one its seed generates (RFC 9881's consistency
    /// check).
    SeedExpandedMismatch,
    /// The private key's CHOICE is none of `seed`, `expandedKey`, `both`.
    UnknownPrivateKeyForm {
        /// The first identifier octet found.
        tag: u8,
    },
    /// The `seed` or `both` form was asked for, but the key was imported from its expanded
    /// encoding and has no seed.
    NoSeed,
    /// The PEM text is not well formed (RFC 7468).
    Pem(PemProblem),
    /// The PEM label is not the one this kind of document needs.
    PemLabel {
        /// The label the reader needs.
        expected: PemLabel,
        /// The label found.
        found: PemLabel,
    },
    /// The private key is password-encrypted (EncryptedPrivateKeyInfo): read it with the
    /// `pkcs8-encryption` feature's `from_pkcs8_encrypted_*` functions.
    Encrypted,
    /// An EncryptedPrivateKeyInfo could not be decrypted: wrong password, or corrupted data.
    Decryption,
    /// An EncryptedPrivateKeyInfo uses an encryption scheme or parameters we do not support
    /// (PBES1, PBKDF2 with HMAC-SHA1, DES, ...): only PBES2 with PBKDF2-HMAC-SHA2 or scrypt and
    /// AES-CBC or AES-GCM is read.
    UnsupportedEncryption {
        /// The OID of the unsupported algorithm.
        found: Oid,
    },
    /// An EncryptedPrivateKeyInfo asks for more key-derivation work than we do for an
    /// untrusted document (more than 10,000,000 PBKDF2 iterations, or scrypt needing more than
    /// 64 MiB or parallelism above 16): refused before any work is done.
    EncryptionTooExpensive,
    /// Encrypting a private key failed (bad scheme parameters or no randomness).
    Encryption,
}

impl fmt::Display for PkixError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PkixError::Der { at, problem } => write!(f, "malformed DER in {at}: {problem}"),
            PkixError::TrailingData { after } => write!(f, "unexpected data after {after}"),
            PkixError::UnknownAlgorithm { found } => {
                write!(f, "algorithm {found} is not ML-DSA (RFC 9881)")
            }
            PkixError::WrongAlgorithm { expected, found } => {
                write!(f, "expected an {expected} key, found an {found} key")
            }
            PkixError::ParametersPresent => {
                f.write_str("AlgorithmIdentifier parameters must be absent for ML-DSA")
            }
            PkixError::Length { at, expected, got } => {
                write!(f, "{at} must be {expected} bytes, got {got}")
            }
            PkixError::UnsupportedVersion { found } => {
                write!(f, "unsupported PKCS#8 version {found} (expected 0 or 1)")
            }
            PkixError::VersionMismatch {
                version,
                public_key_present,
            } => {
                if *public_key_present {
                    write!(
                        f,
                        "PKCS#8 version {version} must not have a publicKey field"
                    )
                } else {
                    write!(f, "PKCS#8 version {version} requires a publicKey field")
                }
            }
            PkixError::PublicKeyMismatch => {
                f.write_str("the publicKey field does not match the private key")
            }
            PkixError::SeedExpandedMismatch => {
                f.write_str("the expanded key does not match the one its seed generates")
            }
            PkixError::UnknownPrivateKeyForm { tag } => write!(
                f,
                "private key is not seed [0], expandedKey or both (found tag 0x{tag:02x})"
            ),
            PkixError::NoSeed => {
                f.write_str("the key has no seed (it was imported from its expanded form)")
            }
            PkixError::Pem(p) => write!(f, "malformed PEM: {p}"),
            PkixError::PemLabel { expected, found } => {
                write!(f, "expected PEM label {expected}, found {found}")
            }
            PkixError::Encrypted => {
                f.write_str("the private key is encrypted; a password is needed to read it")
            }
            PkixError::Decryption => {
                f.write_str("could not decrypt the private key (wrong password or corrupted data)")
            }
            PkixError::UnsupportedEncryption { found } => {
                write!(f, "unsupported private key encryption algorithm {found}")
            }
            PkixError::EncryptionTooExpensive => f.write_str(
                "the private key's password-based key derivation parameters exceed the limits",
            ),
            PkixError::Encryption => f.write_str("could not encrypt the private key"),
        }
    }
}

impl core::error::Error for PkixError {}

impl From<PkixError> for crate::Error {
    fn from(e: PkixError) -> Self {
        crate::Error::Pkix(e)
    }
}

/// An element of a SubjectPublicKeyInfo or OneAsymmetricKey document, named as in the ASN.1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Field {
    /// The whole document (trailing data after it).
    Document,
    /// The outer SEQUENCE of a SubjectPublicKeyInfo.
    SubjectPublicKeyInfo,
    /// The outer SEQUENCE of a OneAsymmetricKey (PKCS#8 PrivateKeyInfo).
    OneAsymmetricKey,
    /// OneAsymmetricKey.version.
    Version,
    /// The AlgorithmIdentifier SEQUENCE.
    AlgorithmIdentifier,
    /// AlgorithmIdentifier.algorithm, the OID.
    Algorithm,
    /// subjectPublicKey, the BIT STRING of a SubjectPublicKeyInfo.
    SubjectPublicKey,
    /// OneAsymmetricKey.privateKey, the OCTET STRING around the ML-DSA private key.
    PrivateKey,
    /// The `seed` of an ML-DSA-PrivateKey (either form).
    Seed,
    /// The `expandedKey` of an ML-DSA-PrivateKey (either form).
    ExpandedKey,
    /// The `both` SEQUENCE of an ML-DSA-PrivateKey.
    Both,
    /// OneAsymmetricKey.attributes \[0\].
    Attributes,
    /// OneAsymmetricKey.publicKey \[1\].
    PublicKey,
    /// An EncryptedPrivateKeyInfo.
    EncryptedPrivateKeyInfo,
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Field::Document => "the document",
            Field::SubjectPublicKeyInfo => "SubjectPublicKeyInfo",
            Field::OneAsymmetricKey => "OneAsymmetricKey",
            Field::Version => "version",
            Field::AlgorithmIdentifier => "AlgorithmIdentifier",
            Field::Algorithm => "algorithm OID",
            Field::SubjectPublicKey => "subjectPublicKey",
            Field::PrivateKey => "privateKey",
            Field::Seed => "seed",
            Field::ExpandedKey => "expandedKey",
            Field::Both => "both",
            Field::Attributes => "attributes",
            Field::PublicKey => "publicKey",
            Field::EncryptedPrivateKeyInfo => "EncryptedPrivateKeyInfo",
        })
    }
}

/// What is wrong with a DER element.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DerProblem {
    /// The input ends before the element does (or before it starts).
    Truncated,
    /// The element has another tag than the one expected there.
    UnexpectedTag {
        /// The first identifier octet found.
        found: u8,
    },
    /// The length is not in DER form (indefinite, longer than needed, or too large).
    Length,
    /// The contents are not a valid DER value of the element's type (e.g. a non-minimal
    /// INTEGER, a BIT STRING with unused bits, a malformed OID).
    Value,
}

impl fmt::Display for DerProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DerProblem::Truncated => f.write_str("truncated"),
            DerProblem::UnexpectedTag { found } => write!(f, "unexpected tag 0x{found:02x}"),
            DerProblem::Length => f.write_str("length not in DER form"),
            DerProblem::Value => f.write_str("invalid value"),
        }
    }
}

/// What is wrong with PEM text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum PemProblem {
    /// No `-----BEGIN ...-----` line (or a NUL byte before it).
    BeginLine,
    /// No matching `-----END ...-----` line, or text after it.
    EndLine,
    /// The label is not valid RFC 7468 label syntax.
    Label,
    /// RFC 1421 headers (`Proc-Type:` ...) are not allowed in RFC 7468 PEM.
    Headers,
    /// The body is not valid Base64, or its lines are not of one width.
    Base64,
    /// Another RFC 7468 rule is broken (character encoding, length).
    Other,
}

impl fmt::Display for PemProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PemProblem::BeginLine => "no valid -----BEGIN line",
            PemProblem::EndLine => "no valid matching -----END line",
            PemProblem::Label => "invalid label",
            PemProblem::Headers => "headers are not allowed",
            PemProblem::Base64 => "invalid Base64 body",
            PemProblem::Other => "invalid encapsulated text",
        })
    }
}

/// A PEM label, as far as this module tells them apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum PemLabel {
    /// `PUBLIC KEY`: a SubjectPublicKeyInfo.
    PublicKey,
    /// `PRIVATE KEY`: a OneAsymmetricKey (PKCS#8).
    PrivateKey,
    /// `ENCRYPTED PRIVATE KEY`: an EncryptedPrivateKeyInfo.
    EncryptedPrivateKey,
    /// Any other label (see `mldsa::pkix::pem_label` for its text).
    Other,
}

impl PemLabel {
    /// The label text, or `None` for [`PemLabel::Other`].
    pub const fn as_str(self) -> Option<&'static str> {
        match self {
            PemLabel::PublicKey => Some("PUBLIC KEY"),
            PemLabel::PrivateKey => Some("PRIVATE KEY"),
            PemLabel::EncryptedPrivateKey => Some("ENCRYPTED PRIVATE KEY"),
            PemLabel::Other => None,
        }
    }

    /// Classifies a label's text.
    pub fn from_label(label: &str) -> Self {
        match label {
            "PUBLIC KEY" => PemLabel::PublicKey,
            "PRIVATE KEY" => PemLabel::PrivateKey,
            "ENCRYPTED PRIVATE KEY" => PemLabel::EncryptedPrivateKey,
            _ => PemLabel::Other,
        }
    }
}

impl fmt::Display for PemLabel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.as_str() {
            Some(s) => write!(f, "\"{s}\""),
            None => f.write_str("another label"),
        }
    }
}

/// An object identifier found in a document, kept by value so that errors stay `Copy`.
///
/// Holds the DER contents octets; OIDs longer than [`Oid::MAX_LEN`] bytes keep their first
/// [`Oid::MAX_LEN`] bytes and say so when displayed.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Oid {
    bytes: [u8; Oid::MAX_LEN],
    len: u8,
    truncated: bool,
}

impl Oid {
    /// How many contents octets are kept.
    pub const MAX_LEN: usize = 24;

    pub(crate) fn from_der_contents(contents: &[u8]) -> Self {
        let n = contents.len().min(Self::MAX_LEN);
        let mut bytes = [0u8; Self::MAX_LEN];
        bytes[..n].copy_from_slice(&contents[..n]);
        Oid {
            bytes,
            // n <= MAX_LEN = 24 fits in a u8.
            len: n as u8,
            truncated: contents.len() > Self::MAX_LEN,
        }
    }

    /// The DER contents octets of the OID (possibly cut, see [`Oid::is_truncated`]).
    pub fn as_der_contents(&self) -> &[u8] {
        &self.bytes[..usize::from(self.len)]
    }

    /// Whether the OID was longer than [`Oid::MAX_LEN`] bytes and has been cut.
    pub fn is_truncated(&self) -> bool {
        self.truncated
    }
}

impl fmt::Display for Oid {
    /// Dotted decimal (`1.3.101.112`) where the bytes are a valid OID, hex otherwise.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let bytes = self.as_der_contents();
        match (
            self.truncated,
            pkcs8::der::oid::ObjectIdentifierRef::from_bytes(bytes),
        ) {
            (false, Ok(oid)) => write!(f, "{oid}"),
            _ => {
                f.write_str("OID bytes ")?;
                for b in bytes {
                    write!(f, "{b:02x}")?;
                }
                if self.truncated {
                    f.write_str("..")?;
                }
                Ok(())
            }
        }
    }
}

impl fmt::Debug for Oid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Oid({self})")
    }
}
