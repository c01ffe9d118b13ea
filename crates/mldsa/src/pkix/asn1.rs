//! The DER of RFC 9881's three structures, read strictly and written byte-exact.
//!
//! ```text
//! SubjectPublicKeyInfo ::= SEQUENCE {                      -- RFC 5280
//!     algorithm         AlgorithmIdentifier,               -- id-ml-dsa-*, parameters ABSENT
//!     subjectPublicKey  BIT STRING }                       -- the FIPS 204 public key
//!
//! OneAsymmetricKey ::= SEQUENCE {                          -- RFC 5958
//!     version                   INTEGER { v1(0), v2(1) },
//!     privateKeyAlgorithm       AlgorithmIdentifier,
//!     privateKey                OCTET STRING,              -- an ML-DSA-xx-PrivateKey
//!     attributes            [0] IMPLICIT SET OF Attribute OPTIONAL,
//!     publicKey             [1] IMPLICIT BIT STRING OPTIONAL }  -- v2 only
//!
//! ML-DSA-44-PrivateKey ::= CHOICE {                        -- RFC 9881, IMPLICIT TAGS
//!     seed         [0] OCTET STRING (SIZE (32)),           -- 80 20 || seed
//!     expandedKey  OCTET STRING (SIZE (2560)),             -- 04 82 0a 00 || key
//!     both         SEQUENCE {                              -- 30 .. 04 20 || seed 04 82 ..
//!         seed         OCTET STRING (SIZE (32)),
//!         expandedKey  OCTET STRING (SIZE (2560)) } }      -- 4032 / 4896 for -65 / -87
//! ```
//!
//! Reading uses the `der` crate for identifier and length octets (it enforces DER's definite,
//! minimal lengths) and `const-oid` for OID syntax, and checks every tag, size and count here,
//! so each rejection names the element. Writing is done by hand: the shapes are fixed, so the
//! exact size is known up front, the buffer holding secret bytes is never reallocated (no stray
//! copies), and nothing can fail. Unit tests below check the output against `der`'s and
//! `spki`'s own encoders.

use super::Algorithm;
use crate::error::pkix::{DerProblem, Field, Oid, PkixError};
use crate::params::SEED_LEN;
use alloc::vec::Vec;
use pkcs8::der::{self, Decode, DecodeValue, Header, Reader, SliceReader};

// Identifier octets of the elements we read and write (all low tag numbers).
pub(crate) const TAG_INTEGER: u8 = 0x02;
pub(crate) const TAG_BIT_STRING: u8 = 0x03;
pub(crate) const TAG_OCTET_STRING: u8 = 0x04;
pub(crate) const TAG_OID: u8 = 0x06;
pub(crate) const TAG_SEQUENCE: u8 = 0x30;
/// `[0] IMPLICIT` primitive: the `seed` alternative of the private key CHOICE.
pub(crate) const TAG_SEED: u8 = 0x80;
/// `[0] IMPLICIT SET OF` (constructed): OneAsymmetricKey.attributes.
pub(crate) const TAG_ATTRIBUTES: u8 = 0xa0;
/// `[1] IMPLICIT BIT STRING` (primitive): OneAsymmetricKey.publicKey.
pub(crate) const TAG_PUBLIC_KEY: u8 = 0x81;

fn der_error(at: Field, problem: DerProblem) -> PkixError {
    PkixError::Der { at, problem }
}

/// Classifies a `der` error met while reading element `at`, whose first octet is `first`.
fn map_der(at: Field, first: u8, e: der::Error) -> PkixError {
    use der::ErrorKind as K;
    let problem = match e.kind() {
        K::Incomplete { .. } => DerProblem::Truncated,
        K::TagUnknown { .. } | K::TagNumberInvalid | K::TagUnexpected { .. } => {
            DerProblem::UnexpectedTag { found: first }
        }
        // `der` reports non-minimal length octets as `Length { tag }` from `Header::decode`.
        K::IndefiniteLength | K::Length { .. } | K::Overlength | K::Overflow => DerProblem::Length,
        _ => DerProblem::Value,
    };
    der_error(at, problem)
}

/// One element: its identifier octet, the `der` header, and its contents.
struct Tlv<'a> {
    tag: u8,
    header: Header,
    contents: &'a [u8],
}

/// Reads the next element, named `at` in errors.
fn read_tlv<'a>(r: &mut SliceReader<'a>, at: Field) -> Result<Tlv<'a>, PkixError> {
    let Some(first) = r.peek_byte() else {
        return Err(der_error(at, DerProblem::Truncated));
    };
    let header = Header::decode(r).map_err(|e| map_der(at, first, e))?;
    let contents = r
        .read_slice(header.length())
        .map_err(|e| map_der(at, first, e))?;
    Ok(Tlv {
        tag: first,
        header,
        contents,
    })
}

/// Reads the next element and checks that its identifier octet is `tag`.
fn expect_tlv<'a>(r: &mut SliceReader<'a>, at: Field, tag: u8) -> Result<Tlv<'a>, PkixError> {
    let tlv = read_tlv(r, at)?;
    if tlv.tag != tag {
        return Err(der_error(at, DerProblem::UnexpectedTag { found: tlv.tag }));
    }
    Ok(tlv)
}

fn reader(bytes: &[u8], at: Field) -> Result<SliceReader<'_>, PkixError> {
    SliceReader::new(bytes).map_err(|_| der_error(at, DerProblem::Length))
}

/// Reads exactly one element of tag `tag` spanning all of `bytes`.
fn single(bytes: &[u8], at: Field, tag: u8) -> Result<&[u8], PkixError> {
    let mut r = reader(bytes, at)?;
    let tlv = expect_tlv(&mut r, at, tag)?;
    if !r.is_finished() {
        return Err(PkixError::TrailingData {
            after: Field::Document,
        });
    }
    Ok(tlv.contents)
}

/// The contents of a BIT STRING that must hold whole bytes: the leading unused-bits octet must
/// be 0.
fn bit_string_bytes(contents: &[u8], at: Field) -> Result<&[u8], PkixError> {
    match contents.split_first() {
        Some((0, bytes)) => Ok(bytes),
        _ => Err(der_error(at, DerProblem::Value)),
    }
}

/// AlgorithmIdentifier: the OID must be an ML-DSA one (and `expected`'s, if given) and the
/// parameters absent.
fn read_algorithm(
    r: &mut SliceReader<'_>,
    expected: Option<Algorithm>,
) -> Result<Algorithm, PkixError> {
    let seq = expect_tlv(r, Field::AlgorithmIdentifier, TAG_SEQUENCE)?;
    let mut inner = reader(seq.contents, Field::AlgorithmIdentifier)?;
    let oid = expect_tlv(&mut inner, Field::Algorithm, TAG_OID)?;
    let Some(found) = Algorithm::from_oid_contents(oid.contents) else {
        return Err(
            match der::oid::ObjectIdentifierRef::from_bytes(oid.contents) {
                Ok(_) => PkixError::UnknownAlgorithm {
                    found: Oid::from_der_contents(oid.contents),
                },
                Err(_) => der_error(Field::Algorithm, DerProblem::Value),
            },
        );
    };
    if let Some(expected) = expected.filter(|&e| e != found) {
        return Err(PkixError::WrongAlgorithm { expected, found });
    }
    // Anything after the OID is a parameters field, which RFC 9881 says MUST be absent.
    if !inner.is_finished() {
        return Err(PkixError::ParametersPresent);
    }
    Ok(found)
}

/// A parsed SubjectPublicKeyInfo.
pub(crate) struct SpkiView<'a> {
    pub(crate) algorithm: Algorithm,
    /// The FIPS 204 public key, its length checked against `algorithm`.
    pub(crate) public_key: &'a [u8],
}

/// Parses a SubjectPublicKeyInfo (the whole of `der`).
pub(crate) fn parse_spki(
    der: &[u8],
    expected: Option<Algorithm>,
) -> Result<SpkiView<'_>, PkixError> {
    let contents = single(der, Field::SubjectPublicKeyInfo, TAG_SEQUENCE)?;
    let mut r = reader(contents, Field::SubjectPublicKeyInfo)?;
    let algorithm = read_algorithm(&mut r, expected)?;
    let bits = expect_tlv(&mut r, Field::SubjectPublicKey, TAG_BIT_STRING)?;
    let public_key = bit_string_bytes(bits.contents, Field::SubjectPublicKey)?;
    if !r.is_finished() {
        return Err(PkixError::TrailingData {
            after: Field::SubjectPublicKey,
        });
    }
    check_len(
        Field::SubjectPublicKey,
        public_key,
        algorithm.public_key_len(),
    )?;
    Ok(SpkiView {
        algorithm,
        public_key,
    })
}

fn check_len(at: Field, bytes: &[u8], expected: usize) -> Result<(), PkixError> {
    if bytes.len() == expected {
        Ok(())
    } else {
        Err(PkixError::Length {
            at,
            expected,
            got: bytes.len(),
        })
    }
}

/// The ML-DSA-PrivateKey CHOICE, borrowed from the document; lengths checked.
pub(crate) enum PrivateKeyView<'a> {
    Seed(&'a [u8; SEED_LEN]),
    Expanded(&'a [u8]),
    Both {
        seed: &'a [u8; SEED_LEN],
        expanded: &'a [u8],
    },
}

/// A parsed OneAsymmetricKey.
pub(crate) struct Pkcs8View<'a> {
    pub(crate) algorithm: Algorithm,
    pub(crate) private_key: PrivateKeyView<'a>,
    /// The v2 publicKey field's key bytes, if present (length not yet checked).
    pub(crate) public_key: Option<&'a [u8]>,
}

/// Parses a OneAsymmetricKey (the whole of `der`), down to the private key CHOICE.
pub(crate) fn parse_pkcs8(
    der: &[u8],
    expected: Option<Algorithm>,
) -> Result<Pkcs8View<'_>, PkixError> {
    let contents = single(der, Field::OneAsymmetricKey, TAG_SEQUENCE)?;
    let mut r = reader(contents, Field::OneAsymmetricKey)?;

    let version = expect_tlv(&mut r, Field::Version, TAG_INTEGER)?;
    // `der` checks the INTEGER is minimally encoded and fits.
    let mut vr = reader(version.contents, Field::Version)?;
    let version = i64::decode_value(&mut vr, version.header)
        .map_err(|_| der_error(Field::Version, DerProblem::Value))?;
    let version = match version {
        0 => 0u8,
        1 => 1u8,
        found => return Err(PkixError::UnsupportedVersion { found }),
    };

    let algorithm = read_algorithm(&mut r, expected)?;

    let private = expect_tlv(&mut r, Field::PrivateKey, TAG_OCTET_STRING)?;
    let mut last = Field::PrivateKey;

    // attributes [0]: allowed by RFC 5958 and ignored, but they must be well-formed DER.
    if r.peek_byte() == Some(TAG_ATTRIBUTES) {
        let attrs = read_tlv(&mut r, Field::Attributes)?;
        let mut ar = reader(attrs.contents, Field::Attributes)?;
        while !ar.is_finished() {
            expect_tlv(&mut ar, Field::Attributes, TAG_SEQUENCE)?;
        }
        last = Field::Attributes;
    }

    let mut public_key = None;
    if r.peek_byte() == Some(TAG_PUBLIC_KEY) {
        let pk = read_tlv(&mut r, Field::PublicKey)?;
        public_key = Some(bit_string_bytes(pk.contents, Field::PublicKey)?);
        last = Field::PublicKey;
    }
    if !r.is_finished() {
        return Err(PkixError::TrailingData { after: last });
    }
    if (version == 1) != public_key.is_some() {
        return Err(PkixError::VersionMismatch {
            version,
            public_key_present: public_key.is_some(),
        });
    }

    let private_key = parse_private_key(private.contents, algorithm)?;
    Ok(Pkcs8View {
        algorithm,
        private_key,
        public_key,
    })
}

fn seed_ref(bytes: &[u8]) -> Result<&[u8; SEED_LEN], PkixError> {
    bytes.try_into().map_err(|_| PkixError::Length {
        at: Field::Seed,
        expected: SEED_LEN,
        got: bytes.len(),
    })
}

/// Parses the contents of the privateKey OCTET STRING: an ML-DSA-xx-PrivateKey.
pub(crate) fn parse_private_key(
    bytes: &[u8],
    algorithm: Algorithm,
) -> Result<PrivateKeyView<'_>, PkixError> {
    let mut r = reader(bytes, Field::PrivateKey)?;
    let tlv = read_tlv(&mut r, Field::PrivateKey)?;
    let view = match tlv.tag {
        TAG_SEED => PrivateKeyView::Seed(seed_ref(tlv.contents)?),
        TAG_OCTET_STRING => {
            check_len(
                Field::ExpandedKey,
                tlv.contents,
                algorithm.expanded_key_len(),
            )?;
            PrivateKeyView::Expanded(tlv.contents)
        }
        TAG_SEQUENCE => {
            let mut br = reader(tlv.contents, Field::Both)?;
            let seed = expect_tlv(&mut br, Field::Seed, TAG_OCTET_STRING)?;
            let expanded = expect_tlv(&mut br, Field::ExpandedKey, TAG_OCTET_STRING)?;
            if !br.is_finished() {
                return Err(PkixError::TrailingData {
                    after: Field::ExpandedKey,
                });
            }
            let seed = seed_ref(seed.contents)?;
            check_len(
                Field::ExpandedKey,
                expanded.contents,
                algorithm.expanded_key_len(),
            )?;
            PrivateKeyView::Both {
                seed,
                expanded: expanded.contents,
            }
        }
        tag => return Err(PkixError::UnknownPrivateKeyForm { tag }),
    };
    if !r.is_finished() {
        return Err(PkixError::TrailingData {
            after: Field::PrivateKey,
        });
    }
    Ok(view)
}

/// What a DER blob looks like, from its outer shape only (no key is checked).
pub(crate) fn sniff(der: &[u8]) -> Option<super::PemLabel> {
    use super::PemLabel;
    let contents = single(der, Field::Document, TAG_SEQUENCE).ok()?;
    let mut r = reader(contents, Field::Document).ok()?;
    let first = read_tlv(&mut r, Field::Document).ok()?;
    let second = read_tlv(&mut r, Field::Document).ok()?;
    match (first.tag, second.tag) {
        // SubjectPublicKeyInfo: AlgorithmIdentifier, BIT STRING.
        (TAG_SEQUENCE, TAG_BIT_STRING) if r.is_finished() => Some(PemLabel::PublicKey),
        // EncryptedPrivateKeyInfo: AlgorithmIdentifier, OCTET STRING.
        (TAG_SEQUENCE, TAG_OCTET_STRING) if r.is_finished() => Some(PemLabel::EncryptedPrivateKey),
        // OneAsymmetricKey: version, AlgorithmIdentifier, OCTET STRING, ...
        (TAG_INTEGER, TAG_SEQUENCE) => {
            let third = read_tlv(&mut r, Field::Document).ok()?;
            (third.tag == TAG_OCTET_STRING).then_some(PemLabel::PrivateKey)
        }
        _ => None,
    }
}

// ---------------------------------------------------------------------------------------------
// Writing
// ---------------------------------------------------------------------------------------------

/// Length of the identifier and length octets of an element with `len` contents octets.
/// Our largest element (an ML-DSA-87 `both` key) is under 64 KiB, so at most 4 octets.
pub(crate) const fn header_len(len: usize) -> usize {
    if len < 0x80 {
        2
    } else if len < 0x100 {
        3
    } else {
        4
    }
}

/// Length of a whole element with `len` contents octets.
pub(crate) const fn tlv_len(len: usize) -> usize {
    header_len(len) + len
}

/// Appends identifier and DER length octets (`len` < 2^16, see [`header_len`]).
pub(crate) fn push_header(out: &mut Vec<u8>, tag: u8, len: usize) {
    out.push(tag);
    if len < 0x80 {
        out.push(len as u8);
    } else if len < 0x100 {
        out.extend_from_slice(&[0x81, len as u8]);
    } else {
        debug_assert!(len < 0x1_0000);
        out.extend_from_slice(&[0x82, (len >> 8) as u8, len as u8]);
    }
}

/// The AlgorithmIdentifier `SEQUENCE { OID }` of `alg` (parameters absent).
fn algorithm_identifier_len(alg: Algorithm) -> usize {
    tlv_len(tlv_len(alg.oid().as_bytes().len()))
}

fn push_algorithm_identifier(out: &mut Vec<u8>, alg: Algorithm) {
    let oid = alg.oid();
    let oid = oid.as_bytes();
    push_header(out, TAG_SEQUENCE, tlv_len(oid.len()));
    push_header(out, TAG_OID, oid.len());
    out.extend_from_slice(oid);
}

/// SubjectPublicKeyInfo of a FIPS 204 public key.
pub(crate) fn encode_spki(alg: Algorithm, public_key: &[u8]) -> Vec<u8> {
    let bits_len = 1 + public_key.len();
    let body = algorithm_identifier_len(alg) + tlv_len(bits_len);
    let mut out = Vec::with_capacity(tlv_len(body));
    push_header(&mut out, TAG_SEQUENCE, body);
    push_algorithm_identifier(&mut out, alg);
    push_header(&mut out, TAG_BIT_STRING, bits_len);
    out.push(0); // no unused bits
    out.extend_from_slice(public_key);
    debug_assert_eq!(out.len(), tlv_len(body));
    out
}

/// The private key CHOICE to write.
pub(crate) enum PrivateKeyOut<'a> {
    Seed(&'a [u8; SEED_LEN]),
    Expanded(&'a [u8]),
    Both {
        seed: &'a [u8; SEED_LEN],
        expanded: &'a [u8],
    },
}

impl PrivateKeyOut<'_> {
    fn len(&self) -> usize {
        match self {
            PrivateKeyOut::Seed(seed) => tlv_len(seed.len()),
            PrivateKeyOut::Expanded(expanded) => tlv_len(expanded.len()),
            PrivateKeyOut::Both { seed, expanded } => {
                tlv_len(tlv_len(seed.len()) + tlv_len(expanded.len()))
            }
        }
    }

    fn push(&self, out: &mut Vec<u8>) {
        match self {
            PrivateKeyOut::Seed(seed) => {
                push_header(out, TAG_SEED, seed.len());
                out.extend_from_slice(&seed[..]);
            }
            PrivateKeyOut::Expanded(expanded) => {
                push_header(out, TAG_OCTET_STRING, expanded.len());
                out.extend_from_slice(expanded);
            }
            PrivateKeyOut::Both { seed, expanded } => {
                push_header(
                    out,
                    TAG_SEQUENCE,
                    tlv_len(seed.len()) + tlv_len(expanded.len()),
                );
                push_header(out, TAG_OCTET_STRING, seed.len());
                out.extend_from_slice(&seed[..]);
                push_header(out, TAG_OCTET_STRING, expanded.len());
                out.extend_from_slice(expanded);
            }
        }
    }
}

/// A v1 OneAsymmetricKey (no attributes, no publicKey), into a buffer allocated once at its
/// final size and zeroised on drop.
pub(crate) fn encode_pkcs8(alg: Algorithm, key: &PrivateKeyOut<'_>) -> zeroize::Zeroizing<Vec<u8>> {
    let inner = key.len();
    let version_len = tlv_len(1);
    let body = version_len + algorithm_identifier_len(alg) + tlv_len(inner);
    let mut out = zeroize::Zeroizing::new(Vec::with_capacity(tlv_len(body)));
    push_header(&mut out, TAG_SEQUENCE, body);
    out.extend_from_slice(&[TAG_INTEGER, 1, 0]); // version v1
    push_algorithm_identifier(&mut out, alg);
    push_header(&mut out, TAG_OCTET_STRING, inner);
    key.push(&mut out);
    debug_assert_eq!(out.len(), tlv_len(body));
    debug_assert_eq!(out.capacity(), tlv_len(body));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use pkcs8::der::Encode;
    use pkcs8::der::asn1::{BitStringRef, OctetStringRef};
    use pkcs8::spki::{AlgorithmIdentifierRef, SubjectPublicKeyInfoRef};

    fn alg_id(alg: Algorithm) -> AlgorithmIdentifierRef<'static> {
        AlgorithmIdentifierRef {
            oid: alg.oid(),
            parameters: None,
        }
    }

    #[test]
    fn header_lengths() {
        for len in [0, 1, 0x7f, 0x80, 0xff, 0x100, 0x1312, 0xffff] {
            let mut v = Vec::new();
            push_header(&mut v, TAG_OCTET_STRING, len);
            assert_eq!(v.len(), header_len(len));
            let h = Header::from_der(&v).unwrap();
            assert_eq!(usize::try_from(h.length()).unwrap(), len);
        }
    }

    #[test]
    fn spki_matches_the_spki_crate() {
        for alg in Algorithm::ALL {
            let pk: Vec<u8> = (0..alg.public_key_len()).map(|i| i as u8).collect();
            let theirs = SubjectPublicKeyInfoRef {
                algorithm: alg_id(alg),
                subject_public_key: BitStringRef::from_bytes(&pk).unwrap(),
            }
            .to_der()
            .unwrap();
            assert_eq!(encode_spki(alg, &pk), theirs);
        }
    }

    #[test]
    fn pkcs8_matches_the_pkcs8_crate() {
        for alg in Algorithm::ALL {
            let seed = [7u8; SEED_LEN];
            let expanded: Vec<u8> = (0..alg.expanded_key_len()).map(|i| i as u8).collect();
            for (key, inner) in [
                (PrivateKeyOut::Seed(&seed), {
                    let mut v = vec![0x80, 0x20];
                    v.extend_from_slice(&seed);
                    v
                }),
                (
                    PrivateKeyOut::Expanded(&expanded),
                    OctetStringRef::new(&expanded).unwrap().to_der().unwrap(),
                ),
                (
                    PrivateKeyOut::Both {
                        seed: &seed,
                        expanded: &expanded,
                    },
                    {
                        let s = OctetStringRef::new(&seed).unwrap().to_der().unwrap();
                        let e = OctetStringRef::new(&expanded).unwrap().to_der().unwrap();
                        let mut body = s;
                        body.extend_from_slice(&e);
                        let mut v = Vec::new();
                        push_header(&mut v, TAG_SEQUENCE, body.len());
                        v.extend_from_slice(&body);
                        v
                    },
                ),
            ] {
                let theirs = pkcs8::PrivateKeyInfoRef::new(
                    alg_id(alg),
                    OctetStringRef::new(&inner).unwrap(),
                )
                .to_der()
                .unwrap();
                assert_eq!(&encode_pkcs8(alg, &key)[..], &theirs[..]);
                // And our reader takes what the pkcs8 crate writes.
                let view = parse_pkcs8(&theirs, Some(alg)).unwrap();
                assert!(view.public_key.is_none());
            }
        }
    }
}
