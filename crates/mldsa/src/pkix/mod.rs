//! Standard key containers for ML-DSA keys (RFC 9881): SubjectPublicKeyInfo for public keys,
//! PKCS#8 / OneAsymmetricKey (RFC 5958) for private keys, as DER or PEM (RFC 7468).
//!
//! Enabled by the `pkcs8` feature (`pkcs8-encryption` adds password-encrypted PKCS#8).
//!
//! ```
//! use mldsa::{MlDsa65, SigningKey, VerifyingKey};
//! use mldsa::pkix::{AnySigningKey, KeyForm};
//!
//! # fn main() -> Result<(), mldsa::Error> {
//! let sk = SigningKey::<MlDsa65>::from_seed(&[42; 32]);
//!
//! // Private keys: the 32-byte seed form by default (RFC 9881's recommendation).
//! let pem = sk.to_pkcs8_pem(KeyForm::Seed)?;
//! assert!(pem.starts_with("-----BEGIN PRIVATE KEY-----\n"));
//! let sk2 = SigningKey::<MlDsa65>::from_pkcs8_pem(&pem)?;
//! assert_eq!(sk2.verifying_key(), sk.verifying_key());
//!
//! // Public keys: SubjectPublicKeyInfo.
//! let spki = sk.verifying_key().to_public_key_der();
//! let vk = VerifyingKey::<MlDsa65>::from_public_key_der(&spki)?;
//!
//! // When the parameter set is not known in advance:
//! let (any, form) = AnySigningKey::from_pkcs8_pem(&pem)?;
//! assert_eq!((any.algorithm(), form), ("ML-DSA-65", KeyForm::Seed));
//! assert_eq!(any.verifying_key().as_bytes(), vk.as_bytes());
//! # Ok(())
//! # }
//! ```
//!
//! # What is accepted
//!
//! Reading is strict: DER only (definite, minimal lengths; minimal INTEGERs); the OID must be
//! id-ml-dsa-44, -65 or -87 (2.16.840.1.101.3.4.3.17, .18, .19) with the parameters absent,
//! and, for the typed readers, the one of the key type asked for; keys must have their exact
//! FIPS 204 lengths; no byte may follow any structure. A OneAsymmetricKey must be v1 (0)
//! without a publicKey or v2 (1) with one, and that publicKey must equal the public key the
//! private key determines. Attributes \[0\] are allowed and ignored. The private key may be
//! any of RFC 9881's three forms (see [`KeyForm`]):
//!
//! - `seed` is expanded with ML-DSA.KeyGen_internal;
//! - `expandedKey` goes through [`SigningKey::from_expanded`]: s1 and s2 in range, tr and t0
//!   equal to the values recomputed from rho, s1 and s2;
//! - `both` must have an expandedKey equal, byte for byte, to the one its seed generates
//!   (compared in constant time).
//!
//! Every rejection is an [`Error::Pkix`] naming the element and the rule
//! (see [`PkixError`]), or the [`Error::Malformed`] of the expanded key
//! check; no error carries secret bytes.
//!
//! PEM is read laxly where RFC 7468 asks parsers to be: any one line width (64 or 76 columns,
//! or one long line), CRLF or LF line endings, text before the BEGIN line, surrounding
//! whitespace. It is written strictly: 64 columns, LF.
//!
//! Secrets: private-key documents are returned in [`Zeroizing`] buffers allocated once at their
//! final size, decoded PEM is zeroised after parsing, and seeds are read in place.

mod asn1;
#[cfg(feature = "pkcs8-encryption")]
mod encrypted;
mod pem;
mod traits;

pub use crate::error::pkix::{DerProblem, Field, Oid, PemLabel, PemProblem, PkixError};
/// The `pkcs8` crate (with its `der`, `spki` and PEM re-exports) at the version this module's
/// trait implementations use.
pub use pkcs8;

use crate::error::Error;
use crate::keys::sig::Signature;
use crate::keys::signing_key::SigningKey;
use crate::keys::verifying_key::VerifyingKey;
use crate::params::{MlDsa44, MlDsa65, MlDsa87, ParameterSet, SEED_LEN};
use alloc::string::String;
use alloc::vec::Vec;
use asn1::{Pkcs8View, PrivateKeyOut, PrivateKeyView};
use core::fmt;
use pkcs8::der::asn1::ObjectIdentifier;
use subtle::ConstantTimeEq;
use zeroize::Zeroizing;

/// PEM label of a SubjectPublicKeyInfo (RFC 7468 section 13).
pub const PUBLIC_KEY_LABEL: &str = "PUBLIC KEY";
/// PEM label of a OneAsymmetricKey / PKCS#8 PrivateKeyInfo (RFC 7468 section 10).
pub const PRIVATE_KEY_LABEL: &str = "PRIVATE KEY";
/// PEM label of an EncryptedPrivateKeyInfo (RFC 7468 section 11).
pub const ENCRYPTED_PRIVATE_KEY_LABEL: &str = "ENCRYPTED PRIVATE KEY";

/// Which of RFC 9881's three private key forms a PKCS#8 document holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum KeyForm {
    /// `seed [0] OCTET STRING (SIZE (32))`: the 32-byte seed xi only. Smallest, and the form
    /// RFC 9881 recommends; the default.
    #[default]
    Seed,
    /// `expandedKey OCTET STRING`: the FIPS 204 expanded private key (2560, 4032 or 4896
    /// bytes). For keys that have no seed, or peers that cannot run KeyGen.
    Expanded,
    /// `both SEQUENCE { seed, expandedKey }`: both, checked for consistency when read.
    Both,
}

impl KeyForm {
    /// The form's name in RFC 9881's ASN.1: `"seed"`, `"expandedKey"` or `"both"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            KeyForm::Seed => "seed",
            KeyForm::Expanded => "expandedKey",
            KeyForm::Both => "both",
        }
    }
}

impl fmt::Display for KeyForm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

const OID_ML_DSA_44: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.16.840.1.101.3.4.3.17");
const OID_ML_DSA_65: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.16.840.1.101.3.4.3.18");
const OID_ML_DSA_87: ObjectIdentifier = ObjectIdentifier::new_unwrap("2.16.840.1.101.3.4.3.19");

pub use crate::params::Algorithm;

impl Algorithm {
    /// The three sets, smallest first.
    pub const ALL: [Algorithm; 3] = [Algorithm::MlDsa44, Algorithm::MlDsa65, Algorithm::MlDsa87];

    /// The FIPS 204 name, e.g. `"ML-DSA-65"`.
    pub const fn name(self) -> &'static str {
        match self {
            Algorithm::MlDsa44 => MlDsa44::NAME,
            Algorithm::MlDsa65 => MlDsa65::NAME,
            Algorithm::MlDsa87 => MlDsa87::NAME,
        }
    }

    /// The OID in dotted form, e.g. `"2.16.840.1.101.3.4.3.18"`.
    pub const fn oid_str(self) -> &'static str {
        match self {
            Algorithm::MlDsa44 => "2.16.840.1.101.3.4.3.17",
            Algorithm::MlDsa65 => "2.16.840.1.101.3.4.3.18",
            Algorithm::MlDsa87 => "2.16.840.1.101.3.4.3.19",
        }
    }

    /// Public key length in bytes.
    pub const fn public_key_len(self) -> usize {
        match self {
            Algorithm::MlDsa44 => MlDsa44::PK_LEN,
            Algorithm::MlDsa65 => MlDsa65::PK_LEN,
            Algorithm::MlDsa87 => MlDsa87::PK_LEN,
        }
    }

    /// Expanded private key length in bytes.
    pub const fn expanded_key_len(self) -> usize {
        match self {
            Algorithm::MlDsa44 => MlDsa44::SK_LEN,
            Algorithm::MlDsa65 => MlDsa65::SK_LEN,
            Algorithm::MlDsa87 => MlDsa87::SK_LEN,
        }
    }

    /// Signature length in bytes.
    pub const fn signature_len(self) -> usize {
        match self {
            Algorithm::MlDsa44 => MlDsa44::SIG_LEN,
            Algorithm::MlDsa65 => MlDsa65::SIG_LEN,
            Algorithm::MlDsa87 => MlDsa87::SIG_LEN,
        }
    }

    /// The set named `name` (`"ML-DSA-65"`; ASCII case is ignored).
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|a| a.name().eq_ignore_ascii_case(name))
    }

    /// The set of the type `P`.
    pub const fn of<P: ParameterSet>() -> Self {
        // `ParameterSet` is sealed and implemented by the three ML-DSA sets only, which differ
        // in k (FIPS 204 Table 1).
        match P::K {
            4 => Algorithm::MlDsa44,
            6 => Algorithm::MlDsa65,
            _ => Algorithm::MlDsa87,
        }
    }

    pub(crate) const fn oid(self) -> ObjectIdentifier {
        match self {
            Algorithm::MlDsa44 => OID_ML_DSA_44,
            Algorithm::MlDsa65 => OID_ML_DSA_65,
            Algorithm::MlDsa87 => OID_ML_DSA_87,
        }
    }

    pub(crate) fn from_oid_contents(contents: &[u8]) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|a| a.oid().as_bytes() == contents)
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The label of a PEM document (`"PUBLIC KEY"`, `"PRIVATE KEY"`, `"ENCRYPTED PRIVATE KEY"`,
/// or any other), from its BEGIN and END lines only: the body is not decoded. `None` if the
/// text is not one well-formed PEM document.
pub fn pem_label(pem: &str) -> Option<&str> {
    pem::label(pem).ok()
}

/// Which kind of document a DER blob is, from its outer shape only (the key is not parsed):
/// [`PemLabel::PublicKey`] for a SubjectPublicKeyInfo, [`PemLabel::PrivateKey`] for a
/// OneAsymmetricKey, [`PemLabel::EncryptedPrivateKey`] for an EncryptedPrivateKeyInfo; `None`
/// if it is none of these.
pub fn der_kind(der: &[u8]) -> Option<PemLabel> {
    asn1::sniff(der)
}

/// The algorithm of a SubjectPublicKeyInfo or OneAsymmetricKey without building the key
/// (cheap: no key generation or consistency check); errors as the full readers would give for
/// the outer structure.
pub fn der_algorithm(der: &[u8]) -> Result<Algorithm, Error> {
    match asn1::sniff(der) {
        Some(PemLabel::PublicKey) => Ok(asn1::parse_spki(der, None)?.algorithm),
        Some(PemLabel::EncryptedPrivateKey) => Err(PkixError::Encrypted.into()),
        _ => Ok(asn1::parse_pkcs8(der, None)?.algorithm),
    }
}

// ---------------------------------------------------------------------------------------------
// Typed keys
// ---------------------------------------------------------------------------------------------

impl<P: ParameterSet> VerifyingKey<P> {
    /// The key as a DER SubjectPublicKeyInfo (RFC 9881 section 4).
    pub fn to_public_key_der(&self) -> Vec<u8> {
        asn1::encode_spki(Algorithm::of::<P>(), self.as_bytes())
    }

    /// The key as a PEM `PUBLIC KEY` document (64-column lines, LF endings).
    pub fn to_public_key_pem(&self) -> String {
        // Cannot fail: the label is a valid constant and the document a few KiB.
        pem::encode(PUBLIC_KEY_LABEL, &self.to_public_key_der())
            .expect("PEM-encoding a SubjectPublicKeyInfo cannot fail")
    }

    /// Reads a DER SubjectPublicKeyInfo holding a key of set `P`.
    pub fn from_public_key_der(der: &[u8]) -> Result<Self, Error> {
        let spki = asn1::parse_spki(der, Some(Algorithm::of::<P>()))?;
        Self::from_bytes(spki.public_key)
    }

    /// Reads a PEM `PUBLIC KEY` document holding a key of set `P`.
    pub fn from_public_key_pem(pem: &str) -> Result<Self, Error> {
        let der = pem::decode(pem, PemLabel::PublicKey)?;
        Self::from_public_key_der(&der)
    }
}

impl<P: ParameterSet> SigningKey<P> {
    /// The expanded encoding in a heap buffer that is wiped on drop (no stack copy left).
    fn expanded_on_heap(&self) -> Result<Zeroizing<Vec<u8>>, Error> {
        let mut out = Zeroizing::new(alloc::vec![0u8; P::SK_LEN]);
        self.write_expanded_bytes(&mut out)?;
        Ok(out)
    }

    /// The key as a DER PKCS#8 v1 OneAsymmetricKey holding the private key in `form`
    /// ([`KeyForm::Seed`] is RFC 9881's recommendation). `Seed` and `Both` need the seed:
    /// [`PkixError::NoSeed`] for keys imported from the expanded form.
    pub fn to_pkcs8_der(&self, form: KeyForm) -> Result<Zeroizing<Vec<u8>>, Error> {
        let alg = Algorithm::of::<P>();
        let seed = || self.seed().ok_or(Error::Pkix(PkixError::NoSeed));
        Ok(match form {
            KeyForm::Seed => asn1::encode_pkcs8(alg, &PrivateKeyOut::Seed(seed()?)),
            KeyForm::Expanded => {
                let expanded = self.expanded_on_heap()?;
                asn1::encode_pkcs8(alg, &PrivateKeyOut::Expanded(expanded.as_ref()))
            }
            KeyForm::Both => {
                let seed = seed()?;
                let expanded = self.expanded_on_heap()?;
                asn1::encode_pkcs8(
                    alg,
                    &PrivateKeyOut::Both {
                        seed,
                        expanded: expanded.as_ref(),
                    },
                )
            }
        })
    }

    /// The key as a PEM `PRIVATE KEY` document (see [`SigningKey::to_pkcs8_der`]).
    pub fn to_pkcs8_pem(&self, form: KeyForm) -> Result<Zeroizing<String>, Error> {
        let der = self.to_pkcs8_der(form)?;
        Ok(Zeroizing::new(pem::encode(PRIVATE_KEY_LABEL, &der)?))
    }

    /// Reads a DER PKCS#8 (v1, or v2 with a matching publicKey) holding a key of set `P` in
    /// any of the three forms.
    pub fn from_pkcs8_der(der: &[u8]) -> Result<Self, Error> {
        Self::from_pkcs8_der_with_form(der).map(|(sk, _)| sk)
    }

    /// [`SigningKey::from_pkcs8_der`], also saying which form the document held.
    pub fn from_pkcs8_der_with_form(der: &[u8]) -> Result<(Self, KeyForm), Error> {
        let view = asn1::parse_pkcs8(der, Some(Algorithm::of::<P>()))?;
        signing_key_from_view(&view)
    }

    /// Reads a PEM `PRIVATE KEY` document (see [`SigningKey::from_pkcs8_der`]).
    pub fn from_pkcs8_pem(pem: &str) -> Result<Self, Error> {
        let der = pem::decode(pem, PemLabel::PrivateKey)?;
        Self::from_pkcs8_der(&der)
    }
}

/// Builds the key a parsed OneAsymmetricKey describes, running RFC 9881's checks.
fn signing_key_from_view<P: ParameterSet>(
    view: &Pkcs8View<'_>,
) -> Result<(SigningKey<P>, KeyForm), Error> {
    let (sk, form) = match view.private_key {
        PrivateKeyView::Seed(seed) => (SigningKey::<P>::from_seed(seed), KeyForm::Seed),
        PrivateKeyView::Expanded(expanded) => {
            (SigningKey::<P>::from_expanded(expanded)?, KeyForm::Expanded)
        }
        PrivateKeyView::Both { seed, expanded } => {
            let sk = SigningKey::<P>::from_seed(seed);
            let ours = sk.expanded_on_heap()?;
            // Lengths are equal (checked by the parser); compare without branching on secrets.
            if !bool::from(ours[..].ct_eq(expanded)) {
                return Err(PkixError::SeedExpandedMismatch.into());
            }
            (sk, KeyForm::Both)
        }
    };
    if let Some(public_key) = view.public_key {
        let ours = sk.verifying_key().as_bytes();
        if public_key.len() != ours.len() {
            return Err(PkixError::Length {
                at: Field::PublicKey,
                expected: ours.len(),
                got: public_key.len(),
            }
            .into());
        }
        if public_key != ours {
            return Err(PkixError::PublicKeyMismatch.into());
        }
    }
    Ok((sk, form))
}

// ---------------------------------------------------------------------------------------------
// Parameter-set-agnostic keys
// ---------------------------------------------------------------------------------------------

/// A signing key of any ML-DSA parameter set, for tools that learn the set from the document.
///
/// The variants hold the keys by value (their sizes differ by parameter set, as the keys do);
/// box the whole value if stack size matters.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub enum AnySigningKey {
    /// An ML-DSA-44 key.
    MlDsa44(SigningKey<MlDsa44>),
    /// An ML-DSA-65 key.
    MlDsa65(SigningKey<MlDsa65>),
    /// An ML-DSA-87 key.
    MlDsa87(SigningKey<MlDsa87>),
}

/// A verifying key of any ML-DSA parameter set, for tools that learn the set from the document.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnyVerifyingKey {
    /// An ML-DSA-44 key.
    MlDsa44(VerifyingKey<MlDsa44>),
    /// An ML-DSA-65 key.
    MlDsa65(VerifyingKey<MlDsa65>),
    /// An ML-DSA-87 key.
    MlDsa87(VerifyingKey<MlDsa87>),
}

/// Runs `$body` with `$k` bound to the typed key inside any variant of `$any`.
macro_rules! with_key {
    ($ty:ident, $any:expr, $k:ident => $body:expr) => {
        match $any {
            $ty::MlDsa44($k) => $body,
            $ty::MlDsa65($k) => $body,
            $ty::MlDsa87($k) => $body,
        }
    };
}

impl AnySigningKey {
    /// Reads a DER PKCS#8 holding an ML-DSA key of any set, in any form; returns the form too.
    pub fn from_pkcs8_der(der: &[u8]) -> Result<(Self, KeyForm), Error> {
        let view = asn1::parse_pkcs8(der, None)?;
        Ok(match view.algorithm {
            Algorithm::MlDsa44 => {
                let (sk, form) = signing_key_from_view::<MlDsa44>(&view)?;
                (AnySigningKey::MlDsa44(sk), form)
            }
            Algorithm::MlDsa65 => {
                let (sk, form) = signing_key_from_view::<MlDsa65>(&view)?;
                (AnySigningKey::MlDsa65(sk), form)
            }
            Algorithm::MlDsa87 => {
                let (sk, form) = signing_key_from_view::<MlDsa87>(&view)?;
                (AnySigningKey::MlDsa87(sk), form)
            }
        })
    }

    /// Reads a PEM `PRIVATE KEY` document (see [`AnySigningKey::from_pkcs8_der`]).
    pub fn from_pkcs8_pem(pem: &str) -> Result<(Self, KeyForm), Error> {
        let der = pem::decode(pem, PemLabel::PrivateKey)?;
        Self::from_pkcs8_der(&der)
    }

    /// The key's FIPS 204 parameter set name, e.g. `"ML-DSA-65"`.
    pub fn algorithm(&self) -> &'static str {
        self.parameter_set().name()
    }

    /// The key's parameter set.
    pub fn parameter_set(&self) -> Algorithm {
        match self {
            AnySigningKey::MlDsa44(_) => Algorithm::MlDsa44,
            AnySigningKey::MlDsa65(_) => Algorithm::MlDsa65,
            AnySigningKey::MlDsa87(_) => Algorithm::MlDsa87,
        }
    }

    /// The matching verifying key.
    pub fn verifying_key(&self) -> AnyVerifyingKey {
        match self {
            AnySigningKey::MlDsa44(k) => AnyVerifyingKey::MlDsa44(*k.verifying_key()),
            AnySigningKey::MlDsa65(k) => AnyVerifyingKey::MlDsa65(*k.verifying_key()),
            AnySigningKey::MlDsa87(k) => AnyVerifyingKey::MlDsa87(*k.verifying_key()),
        }
    }

    /// The seed xi, if the key has one.
    pub fn seed(&self) -> Option<&[u8; SEED_LEN]> {
        with_key!(AnySigningKey, self, k => k.seed())
    }

    /// See [`SigningKey::to_pkcs8_der`].
    pub fn to_pkcs8_der(&self, form: KeyForm) -> Result<Zeroizing<Vec<u8>>, Error> {
        with_key!(AnySigningKey, self, k => k.to_pkcs8_der(form))
    }

    /// See [`SigningKey::to_pkcs8_pem`].
    pub fn to_pkcs8_pem(&self, form: KeyForm) -> Result<Zeroizing<String>, Error> {
        with_key!(AnySigningKey, self, k => k.to_pkcs8_pem(form))
    }

    /// Hedged ML-DSA.Sign of `msg` with context `ctx` and randomness from `rng`; the encoded
    /// signature.
    pub fn sign_with_rng<R: rand_core::TryCryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        msg: &[u8],
        ctx: &[u8],
    ) -> Result<Vec<u8>, Error> {
        with_key!(AnySigningKey, self, k => Ok(k.sign_with_rng(rng, msg, ctx)?.as_bytes().to_vec()))
    }

    /// Hedged ML-DSA.Sign with randomness from the operating system; the encoded signature.
    #[cfg(feature = "getrandom")]
    pub fn sign(&self, msg: &[u8], ctx: &[u8]) -> Result<Vec<u8>, Error> {
        with_key!(AnySigningKey, self, k => Ok(k.sign(msg, ctx)?.as_bytes().to_vec()))
    }

    /// Deterministic ML-DSA.Sign; the encoded signature.
    pub fn sign_deterministic(&self, msg: &[u8], ctx: &[u8]) -> Result<Vec<u8>, Error> {
        with_key!(AnySigningKey, self, k => Ok(k.sign_deterministic(msg, ctx)?.as_bytes().to_vec()))
    }
}

impl AnyVerifyingKey {
    /// Reads a DER SubjectPublicKeyInfo holding an ML-DSA key of any set.
    pub fn from_public_key_der(der: &[u8]) -> Result<Self, Error> {
        let spki = asn1::parse_spki(der, None)?;
        Self::from_bytes(spki.algorithm, spki.public_key)
    }

    /// Reads a PEM `PUBLIC KEY` document holding an ML-DSA key of any set.
    pub fn from_public_key_pem(pem: &str) -> Result<Self, Error> {
        let der = pem::decode(pem, PemLabel::PublicKey)?;
        Self::from_public_key_der(&der)
    }

    /// Decodes a raw FIPS 204 public key of set `algorithm`.
    pub fn from_bytes(algorithm: Algorithm, bytes: &[u8]) -> Result<Self, Error> {
        Ok(match algorithm {
            Algorithm::MlDsa44 => AnyVerifyingKey::MlDsa44(VerifyingKey::from_bytes(bytes)?),
            Algorithm::MlDsa65 => AnyVerifyingKey::MlDsa65(VerifyingKey::from_bytes(bytes)?),
            Algorithm::MlDsa87 => AnyVerifyingKey::MlDsa87(VerifyingKey::from_bytes(bytes)?),
        })
    }

    /// The key's FIPS 204 parameter set name, e.g. `"ML-DSA-65"`.
    pub fn algorithm(&self) -> &'static str {
        self.parameter_set().name()
    }

    /// The key's parameter set.
    pub fn parameter_set(&self) -> Algorithm {
        match self {
            AnyVerifyingKey::MlDsa44(_) => Algorithm::MlDsa44,
            AnyVerifyingKey::MlDsa65(_) => Algorithm::MlDsa65,
            AnyVerifyingKey::MlDsa87(_) => Algorithm::MlDsa87,
        }
    }

    /// The FIPS 204 encoding of the key.
    pub fn as_bytes(&self) -> &[u8] {
        with_key!(AnyVerifyingKey, self, k => k.as_bytes())
    }

    /// See [`VerifyingKey::to_public_key_der`].
    pub fn to_public_key_der(&self) -> Vec<u8> {
        with_key!(AnyVerifyingKey, self, k => k.to_public_key_der())
    }

    /// See [`VerifyingKey::to_public_key_pem`].
    pub fn to_public_key_pem(&self) -> String {
        with_key!(AnyVerifyingKey, self, k => k.to_public_key_pem())
    }

    /// ML-DSA.Verify of an encoded signature `sig` on `msg` with context `ctx`.
    pub fn verify(&self, msg: &[u8], ctx: &[u8], sig: &[u8]) -> Result<(), Error> {
        with_key!(AnyVerifyingKey, self, k => k.verify(msg, ctx, &Signature::from_bytes(sig)?))
    }
}

macro_rules! any_from {
    ($($p:ident),*) => {$(
        impl From<SigningKey<$p>> for AnySigningKey {
            fn from(k: SigningKey<$p>) -> Self {
                AnySigningKey::$p(k)
            }
        }
        impl From<VerifyingKey<$p>> for AnyVerifyingKey {
            fn from(k: VerifyingKey<$p>) -> Self {
                AnyVerifyingKey::$p(k)
            }
        }
    )*};
}
any_from!(MlDsa44, MlDsa65, MlDsa87);
