//! The `spki` and `pkcs8` crates' traits, for generic code (certificate builders, key loaders).
//!
//! The inherent methods of the same names take precedence in method-call syntax; reach the
//! trait versions with e.g. `<SigningKey<MlDsa65> as pkcs8::DecodePrivateKey>::from_pkcs8_der`.
//! Prefer the inherent methods: with the traits, the outer structures are parsed by the `spki`
//! and `pkcs8` crates (which, unlike this module, skip unknown fields after a v2 publicKey), the
//! encrypted readers are theirs (without this module's limits on key-derivation work), and
//! their error types are coarser than [`PkixError`]. The ML-DSA part (OID, absent parameters,
//! the private key CHOICE, lengths, consistency of `both`, `expandedKey` and publicKey) runs the
//! same checks as the inherent readers.
//!
//! [`EncodePrivateKey`] has no way to choose a form: it writes the seed form when the key has a
//! seed, else the expanded form (the only lossless choices).

use super::asn1;
use super::{Algorithm, KeyForm};
use crate::error::pkix::{Field, PkixError};
use crate::keys::signing_key::SigningKey;
use crate::keys::verifying_key::VerifyingKey;
use crate::params::ParameterSet;
use pkcs8::der::asn1::AnyRef;
use pkcs8::spki::{
    self, AlgorithmIdentifierRef, AssociatedAlgorithmIdentifier, Document, EncodePublicKey,
    SignatureAlgorithmIdentifier, SubjectPublicKeyInfoRef,
};
use pkcs8::{EncodePrivateKey, KeyError, PrivateKeyInfoRef, SecretDocument};

/// RFC 9881's AlgorithmIdentifier for set `P`: the OID, parameters absent.
const fn algorithm_identifier<P: ParameterSet>() -> AlgorithmIdentifierRef<'static> {
    AlgorithmIdentifierRef {
        oid: Algorithm::of::<P>().oid(),
        parameters: None,
    }
}

impl<P: ParameterSet> AssociatedAlgorithmIdentifier for VerifyingKey<P> {
    type Params = AnyRef<'static>;
    const ALGORITHM_IDENTIFIER: AlgorithmIdentifierRef<'static> = algorithm_identifier::<P>();
}

impl<P: ParameterSet> AssociatedAlgorithmIdentifier for SigningKey<P> {
    type Params = AnyRef<'static>;
    const ALGORITHM_IDENTIFIER: AlgorithmIdentifierRef<'static> = algorithm_identifier::<P>();
}

/// RFC 9881 section 2: signatures use the same identifier as the keys, parameters absent.
impl<P: ParameterSet> SignatureAlgorithmIdentifier for VerifyingKey<P> {
    type Params = AnyRef<'static>;
    const SIGNATURE_ALGORITHM_IDENTIFIER: AlgorithmIdentifierRef<'static> =
        algorithm_identifier::<P>();
}

/// RFC 9881 section 2: signatures use the same identifier as the keys, parameters absent.
impl<P: ParameterSet> SignatureAlgorithmIdentifier for SigningKey<P> {
    type Params = AnyRef<'static>;
    const SIGNATURE_ALGORITHM_IDENTIFIER: AlgorithmIdentifierRef<'static> =
        algorithm_identifier::<P>();
}

impl<P: ParameterSet> EncodePublicKey for VerifyingKey<P> {
    fn to_public_key_der(&self) -> spki::Result<Document> {
        Ok(Document::try_from(VerifyingKey::to_public_key_der(self))?)
    }
}

/// Checks an AlgorithmIdentifier the `spki`/`pkcs8` crates parsed.
fn check_algorithm<P: ParameterSet>(alg: &AlgorithmIdentifierRef<'_>) -> Result<(), spki::Error> {
    if alg.oid != Algorithm::of::<P>().oid() {
        return Err(spki::Error::OidUnknown { oid: alg.oid });
    }
    if alg.parameters.is_some() {
        return Err(spki::Error::KeyMalformed);
    }
    Ok(())
}

/// Also gives `spki::DecodePublicKey` (`from_public_key_der`, `from_public_key_pem`).
impl<P: ParameterSet> TryFrom<SubjectPublicKeyInfoRef<'_>> for VerifyingKey<P> {
    type Error = spki::Error;

    fn try_from(spki: SubjectPublicKeyInfoRef<'_>) -> Result<Self, spki::Error> {
        check_algorithm::<P>(&spki.algorithm)?;
        let bytes = spki
            .subject_public_key
            .as_bytes()
            .ok_or(spki::Error::KeyMalformed)?;
        VerifyingKey::from_bytes(bytes).map_err(|_| spki::Error::KeyMalformed)
    }
}

fn key_error(e: crate::Error) -> pkcs8::Error {
    use crate::Error as E;
    let kind = match e {
        E::Pkix(PkixError::Length { expected, got, .. }) | E::Length { expected, got, .. } => {
            if got < expected {
                KeyError::TooShort
            } else {
                KeyError::TooLong
            }
        }
        _ => KeyError::Invalid,
    };
    pkcs8::Error::KeyMalformed(kind)
}

impl<P: ParameterSet> EncodePrivateKey for SigningKey<P> {
    fn to_pkcs8_der(&self) -> pkcs8::Result<SecretDocument> {
        let form = if self.seed().is_some() {
            KeyForm::Seed
        } else {
            KeyForm::Expanded
        };
        let der = SigningKey::to_pkcs8_der(self, form).map_err(key_error)?;
        Ok(SecretDocument::try_from(&der[..])?)
    }
}

/// Also gives `pkcs8::DecodePrivateKey` (`from_pkcs8_der`, `from_pkcs8_pem`, and with the
/// `pkcs8-encryption` feature `from_pkcs8_encrypted_der`).
impl<P: ParameterSet> TryFrom<PrivateKeyInfoRef<'_>> for SigningKey<P> {
    type Error = pkcs8::Error;

    fn try_from(info: PrivateKeyInfoRef<'_>) -> Result<Self, pkcs8::Error> {
        check_algorithm::<P>(&info.algorithm).map_err(pkcs8::Error::PublicKey)?;
        let view = asn1::Pkcs8View {
            algorithm: Algorithm::of::<P>(),
            private_key: asn1::parse_private_key(info.private_key.as_bytes(), Algorithm::of::<P>())
                .map_err(|e| key_error(e.into()))?,
            public_key: match info.public_key {
                Some(bits) => Some(
                    bits.as_bytes().ok_or(key_error(
                        PkixError::Der {
                            at: Field::PublicKey,
                            problem: super::DerProblem::Value,
                        }
                        .into(),
                    ))?,
                ),
                None => None,
            },
        };
        super::signing_key_from_view::<P>(&view)
            .map(|(sk, _)| sk)
            .map_err(key_error)
    }
}
