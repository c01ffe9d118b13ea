//! RFC 9881 key containers (`mldsa::pkix`): round trips, byte-exact known answers against an
//! independent implementation (pyca/cryptography's bundled OpenSSL) and RFC 9881's examples,
//! every rejection rule, lax PEM reading, and no panics on random or mutated documents.
//!
//! Test data: `tests/pkix/` (see its README.md for how each file was made).
//!
//! Run with `cargo test -p mldsa --features pkcs8 --test pkix` (add `pkcs8-encryption` for the
//! encrypted-PKCS#8 tests).

#![cfg(feature = "pkcs8")]

use std::path::PathBuf;

use mldsa::pkix::{
    Algorithm, AnySigningKey, AnyVerifyingKey, DerProblem, Field, KeyForm, PemLabel, PemProblem,
    PkixError, der_algorithm, der_kind, pem_label,
};
use mldsa::{
    Error, Input, Malformed, MlDsa44, MlDsa65, MlDsa87, ParameterSet, SigningKey, VerifyingKey,
};

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

fn data_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/pkix")
        .join(name)
}

fn data(name: &str) -> Vec<u8> {
    std::fs::read(data_path(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn text(name: &str) -> String {
    String::from_utf8(data(name)).unwrap()
}

/// RFC 9881's example seed 00 01 .. 1f.
fn seed_rfc() -> [u8; 32] {
    core::array::from_fn(|i| i as u8)
}

/// The second seed of the peer data: ff fe .. e0.
fn seed_ff() -> [u8; 32] {
    core::array::from_fn(|i| 0xff - i as u8)
}

fn pkix(e: Error) -> PkixError {
    match e {
        Error::Pkix(p) => p,
        other => panic!("expected a PKIX error, got {other:?}"),
    }
}

/// A DER element with a definite, minimal length.
fn tlv(tag: u8, contents: &[u8]) -> Vec<u8> {
    let mut out = vec![tag];
    let n = contents.len();
    if n < 0x80 {
        out.push(n as u8);
    } else if n < 0x100 {
        out.extend_from_slice(&[0x81, n as u8]);
    } else {
        out.extend_from_slice(&[0x82, (n >> 8) as u8, n as u8]);
    }
    out.extend_from_slice(contents);
    out
}

fn cat(parts: &[&[u8]]) -> Vec<u8> {
    parts.concat()
}

const OID_PREFIX: [u8; 8] = [0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03];

fn oid_of(alg: Algorithm) -> Vec<u8> {
    let last = match alg {
        Algorithm::MlDsa44 => 0x11,
        Algorithm::MlDsa65 => 0x12,
        Algorithm::MlDsa87 => 0x13,
    };
    tlv(0x06, &cat(&[&OID_PREFIX, &[last]]))
}

fn alg_id(alg: Algorithm) -> Vec<u8> {
    tlv(0x30, &oid_of(alg))
}

/// A OneAsymmetricKey from its parts (contents of each element given whole).
fn one_asymmetric_key(version: &[u8], alg_id: &[u8], inner: &[u8], rest: &[u8]) -> Vec<u8> {
    tlv(
        0x30,
        &cat(&[&tlv(0x02, version), alg_id, &tlv(0x04, inner), rest]),
    )
}

fn seed_inner(seed: &[u8]) -> Vec<u8> {
    tlv(0x80, seed)
}

fn both_inner(seed: &[u8], expanded: &[u8]) -> Vec<u8> {
    tlv(0x30, &cat(&[&tlv(0x04, seed), &tlv(0x04, expanded)]))
}

fn public_key_field(pk: &[u8]) -> Vec<u8> {
    tlv(0x81, &cat(&[&[0], pk]))
}

fn spki(alg_id: &[u8], pk: &[u8]) -> Vec<u8> {
    tlv(0x30, &cat(&[alg_id, &tlv(0x03, &cat(&[&[0], pk]))]))
}

/// xorshift64*: reproducible randomness for the no-panic tests.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Base64 (RFC 4648, padded), written out here to stay independent of the library's codec.
fn base64_encode(bytes: &[u8]) -> String {
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(B64[(n >> (18 - 6 * i)) as usize & 63] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

fn base64_decode(text: &str) -> Vec<u8> {
    let vals: Vec<u32> = text
        .bytes()
        .filter(|&c| c != b'=')
        .map(|c| B64.iter().position(|&x| x == c).expect("base64") as u32)
        .collect();
    let mut out = Vec::new();
    for chunk in vals.chunks(4) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0, |acc, (i, v)| acc | v << (18 - 6 * i));
        out.extend_from_slice(&n.to_be_bytes()[1..chunk.len()]);
    }
    out
}

fn pem_wrap(label: &str, der: &[u8], width: usize, eol: &str) -> String {
    let b64 = base64_encode(der);
    let mut out = format!("-----BEGIN {label}-----{eol}");
    for chunk in b64.as_bytes().chunks(width) {
        out.push_str(std::str::from_utf8(chunk).unwrap());
        out.push_str(eol);
    }
    out.push_str(&format!("-----END {label}-----{eol}"));
    out
}

// ---------------------------------------------------------------------------------------------
// Round trips, every set and every form, DER and PEM
// ---------------------------------------------------------------------------------------------

fn round_trips<P: ParameterSet>() {
    let alg = Algorithm::of::<P>();
    for seed in [seed_rfc(), seed_ff(), [0x5a; 32]] {
        let sk = SigningKey::<P>::from_seed(&seed);
        let vk = *sk.verifying_key();
        for form in [KeyForm::Seed, KeyForm::Expanded, KeyForm::Both] {
            let der = sk.to_pkcs8_der(form).unwrap();
            let (back, got_form) = SigningKey::<P>::from_pkcs8_der_with_form(&der).unwrap();
            assert_eq!(got_form, form);
            assert_eq!(back.verifying_key(), &vk);
            assert_eq!(
                back.to_expanded_bytes().as_ref(),
                sk.to_expanded_bytes().as_ref()
            );
            let expect_seed = if form == KeyForm::Expanded {
                None
            } else {
                Some(&seed)
            };
            assert_eq!(back.seed(), expect_seed);
            // Writing again gives the same bytes.
            assert_eq!(back.to_pkcs8_der(form).unwrap().as_slice(), der.as_slice());

            let pem = sk.to_pkcs8_pem(form).unwrap();
            assert!(pem.starts_with("-----BEGIN PRIVATE KEY-----\n"));
            assert!(pem.ends_with("-----END PRIVATE KEY-----\n"));
            let body: Vec<&str> = pem.lines().filter(|l| !l.starts_with("-----")).collect();
            let (last, full) = body.split_last().unwrap();
            assert!(full.iter().all(|l| l.len() == 64), "64-column lines");
            assert!(!last.is_empty() && last.len() <= 64);
            let back = SigningKey::<P>::from_pkcs8_pem(&pem).unwrap();
            assert_eq!(back.verifying_key(), &vk);

            let (any, any_form) = AnySigningKey::from_pkcs8_der(&der).unwrap();
            assert_eq!((any.algorithm(), any_form), (P::NAME, form));
            assert_eq!(any.parameter_set(), alg);
            assert_eq!(any.verifying_key().as_bytes(), vk.as_bytes());
            assert_eq!(any.to_pkcs8_der(form).unwrap().as_slice(), der.as_slice());
            let (any, _) = AnySigningKey::from_pkcs8_pem(&pem).unwrap();
            assert_eq!(any.to_pkcs8_pem(form).unwrap().as_str(), pem.as_str());

            assert_eq!(pem_label(&pem), Some("PRIVATE KEY"));
            assert_eq!(der_kind(&der), Some(PemLabel::PrivateKey));
            assert_eq!(der_algorithm(&der).unwrap(), alg);
        }

        let der = vk.to_public_key_der();
        assert_eq!(VerifyingKey::<P>::from_public_key_der(&der).unwrap(), vk);
        let pem = vk.to_public_key_pem();
        assert!(pem.starts_with("-----BEGIN PUBLIC KEY-----\n"));
        assert!(pem.lines().all(|l| l.len() <= 64));
        assert_eq!(VerifyingKey::<P>::from_public_key_pem(&pem).unwrap(), vk);
        let any = AnyVerifyingKey::from_public_key_der(&der).unwrap();
        assert_eq!((any.algorithm(), any.as_bytes()), (P::NAME, vk.as_bytes()));
        assert_eq!(any.to_public_key_pem(), pem);
        assert_eq!(AnyVerifyingKey::from_public_key_pem(&pem).unwrap(), any);
        assert_eq!(pem_label(&pem), Some("PUBLIC KEY"));
        assert_eq!(der_kind(&der), Some(PemLabel::PublicKey));
        assert_eq!(der_algorithm(&der).unwrap(), alg);

        // Keys travel and still sign and verify.
        let (any_sk, _) =
            AnySigningKey::from_pkcs8_der(&sk.to_pkcs8_der(KeyForm::Seed).unwrap()).unwrap();
        let sig = any_sk.sign_deterministic(b"msg", b"ctx").unwrap();
        any.verify(b"msg", b"ctx", &sig).unwrap();
        assert_eq!(
            any.verify(b"msg", b"other", &sig),
            Err(Error::InvalidSignature)
        );
    }
}

#[test]
fn round_trips_ml_dsa_44() {
    round_trips::<MlDsa44>();
}

#[test]
fn round_trips_ml_dsa_65() {
    round_trips::<MlDsa65>();
}

#[test]
fn round_trips_ml_dsa_87() {
    round_trips::<MlDsa87>();
}

fn expanded_only_keys<P: ParameterSet>() {
    let sk = SigningKey::<P>::from_seed(&seed_ff());
    let imported = SigningKey::<P>::from_expanded(sk.to_expanded_bytes().as_ref()).unwrap();
    assert_eq!(imported.seed(), None);
    for form in [KeyForm::Seed, KeyForm::Both] {
        assert_eq!(
            pkix(imported.to_pkcs8_der(form).unwrap_err()),
            PkixError::NoSeed
        );
        assert_eq!(
            pkix(imported.to_pkcs8_pem(form).unwrap_err()),
            PkixError::NoSeed
        );
    }
    assert_eq!(
        imported.to_pkcs8_der(KeyForm::Expanded).unwrap().as_slice(),
        sk.to_pkcs8_der(KeyForm::Expanded).unwrap().as_slice()
    );
}

#[test]
fn keys_without_seed_write_only_the_expanded_form() {
    expanded_only_keys::<MlDsa44>();
    expanded_only_keys::<MlDsa65>();
    expanded_only_keys::<MlDsa87>();
}

#[test]
fn key_form_and_algorithm_names() {
    assert_eq!(KeyForm::default(), KeyForm::Seed);
    assert_eq!(KeyForm::Expanded.to_string(), "expandedKey");
    assert_eq!(Algorithm::from_name("ml-dsa-87"), Some(Algorithm::MlDsa87));
    assert_eq!(Algorithm::from_name("ML-DSA-66"), None);
    assert_eq!(Algorithm::MlDsa65.oid_str(), "2.16.840.1.101.3.4.3.18");
    assert_eq!(Algorithm::of::<MlDsa44>(), Algorithm::MlDsa44);
    assert_eq!(Algorithm::of::<MlDsa65>(), Algorithm::MlDsa65);
    assert_eq!(Algorithm::of::<MlDsa87>(), Algorithm::MlDsa87);
    for alg in Algorithm::ALL {
        let d: Vec<u8> = oid_of(alg);
        assert_eq!(d[2..], {
            let mut v = OID_PREFIX.to_vec();
            v.push(*d.last().unwrap());
            v
        });
    }
}

// ---------------------------------------------------------------------------------------------
// Known answers: pyca/cryptography (bundled OpenSSL) and RFC 9881
// ---------------------------------------------------------------------------------------------

fn peer_known_answers<P: ParameterSet>() {
    let n = &P::NAME[7..]; // "44"
    for (tag, seed) in [("rfc", seed_rfc()), ("ff", seed_ff())] {
        let base = format!("mldsa{n}-{tag}");
        let sk = SigningKey::<P>::from_seed(&seed);
        let vk = sk.verifying_key();

        // Ours, byte for byte, equals the peer's.
        assert_eq!(
            sk.to_pkcs8_der(KeyForm::Seed).unwrap().as_slice(),
            data(&format!("{base}.priv.der"))
        );
        assert_eq!(
            sk.to_pkcs8_pem(KeyForm::Seed).unwrap().as_str(),
            text(&format!("{base}.priv.pem"))
        );
        assert_eq!(vk.to_public_key_der(), data(&format!("{base}.pub.der")));
        assert_eq!(vk.to_public_key_pem(), text(&format!("{base}.pub.pem")));

        // The peer's, read by us, is the same key.
        let theirs = SigningKey::<P>::from_pkcs8_der(&data(&format!("{base}.priv.der"))).unwrap();
        assert_eq!(theirs.seed(), Some(&seed));
        assert_eq!(theirs.verifying_key(), vk);
        let theirs = SigningKey::<P>::from_pkcs8_pem(&text(&format!("{base}.priv.pem"))).unwrap();
        assert_eq!(theirs.verifying_key(), vk);
        let theirs =
            VerifyingKey::<P>::from_public_key_der(&data(&format!("{base}.pub.der"))).unwrap();
        assert_eq!(&theirs, vk);
        let theirs =
            VerifyingKey::<P>::from_public_key_pem(&text(&format!("{base}.pub.pem"))).unwrap();
        assert_eq!(&theirs, vk);
        let (any, form) =
            AnySigningKey::from_pkcs8_pem(&text(&format!("{base}.priv.pem"))).unwrap();
        assert_eq!((any.algorithm(), form), (P::NAME, KeyForm::Seed));
    }
}

#[test]
fn peer_known_answers_ml_dsa_44() {
    peer_known_answers::<MlDsa44>();
}

#[test]
fn peer_known_answers_ml_dsa_65() {
    peer_known_answers::<MlDsa65>();
}

#[test]
fn peer_known_answers_ml_dsa_87() {
    peer_known_answers::<MlDsa87>();
}

#[test]
fn rfc9881_examples() {
    let sk = SigningKey::<MlDsa44>::from_seed(&seed_rfc());
    // The seed-form example, as printed in RFC 9881.
    assert_eq!(
        sk.to_pkcs8_pem(KeyForm::Seed).unwrap().as_str(),
        "-----BEGIN PRIVATE KEY-----\n\
         MDQCAQAwCwYJYIZIAWUDBAMRBCKAIAABAgMEBQYHCAkKCwwNDg8QERITFBUWFxgZ\n\
         GhscHR4f\n\
         -----END PRIVATE KEY-----\n"
    );
    let both = text("rfc9881/ML-DSA-44-both.priv");
    let expanded = text("rfc9881/ML-DSA-44-expanded.priv");
    assert_eq!(sk.to_pkcs8_pem(KeyForm::Both).unwrap().as_str(), both);
    assert_eq!(
        sk.to_pkcs8_pem(KeyForm::Expanded).unwrap().as_str(),
        expanded
    );
    let (k, form) = SigningKey::<MlDsa44>::from_pkcs8_der_with_form(&pem_der(&both)).unwrap();
    assert_eq!((k.seed(), form), (Some(&seed_rfc()), KeyForm::Both));
    let (k, form) = AnySigningKey::from_pkcs8_pem(&expanded).unwrap();
    assert_eq!((k.seed(), form), (None, KeyForm::Expanded));
    assert_eq!(k.verifying_key().as_bytes(), sk.verifying_key().as_bytes());
    // The same public key as the peer's for this seed.
    assert_eq!(
        sk.verifying_key().to_public_key_der(),
        data("mldsa44-rfc.pub.der")
    );

    // RFC 9881's inconsistent examples: (1) `both` whose expandedKey is not its seed's;
    // (2) `expandedKey` whose tr does not match; (3) `expandedKey` whose t0 does not match.
    let bad1 = text("rfc9881/bad-ML-DSA-44-1.priv");
    assert_eq!(
        pkix(SigningKey::<MlDsa44>::from_pkcs8_pem(&bad1).unwrap_err()),
        PkixError::SeedExpandedMismatch
    );
    assert_eq!(
        pkix(AnySigningKey::from_pkcs8_pem(&bad1).unwrap_err()),
        PkixError::SeedExpandedMismatch
    );
    let malformed = |what| Error::Malformed {
        input: Input::SigningKey,
        what,
    };
    assert_eq!(
        SigningKey::<MlDsa44>::from_pkcs8_pem(&text("rfc9881/bad-ML-DSA-44-2.priv")).unwrap_err(),
        malformed(Malformed::TrMismatch)
    );
    assert_eq!(
        AnySigningKey::from_pkcs8_pem(&text("rfc9881/bad-ML-DSA-44-3.priv")).unwrap_err(),
        malformed(Malformed::T0Mismatch)
    );
}

/// Decodes PEM with an independent Base64 decoder.
fn pem_der(pem: &str) -> Vec<u8> {
    let body: String = pem.lines().filter(|l| !l.starts_with("-----")).collect();
    base64_decode(&body)
}

// ---------------------------------------------------------------------------------------------
// Rejections
// ---------------------------------------------------------------------------------------------

#[test]
fn wrong_or_unknown_algorithm() {
    let sk65 = SigningKey::<MlDsa65>::from_seed(&seed_rfc());
    for form in [KeyForm::Seed, KeyForm::Expanded, KeyForm::Both] {
        let der = sk65.to_pkcs8_der(form).unwrap();
        let want = PkixError::WrongAlgorithm {
            expected: Algorithm::MlDsa44,
            found: Algorithm::MlDsa65,
        };
        assert_eq!(
            pkix(SigningKey::<MlDsa44>::from_pkcs8_der(&der).unwrap_err()),
            want
        );
        let want = PkixError::WrongAlgorithm {
            expected: Algorithm::MlDsa87,
            found: Algorithm::MlDsa65,
        };
        assert_eq!(
            pkix(SigningKey::<MlDsa87>::from_pkcs8_der(&der).unwrap_err()),
            want
        );
    }
    let spki65 = sk65.verifying_key().to_public_key_der();
    let e = VerifyingKey::<MlDsa44>::from_public_key_der(&spki65).unwrap_err();
    assert_eq!(
        pkix(e),
        PkixError::WrongAlgorithm {
            expected: Algorithm::MlDsa44,
            found: Algorithm::MlDsa65
        }
    );
    assert_eq!(
        e.to_string(),
        "expected an ML-DSA-44 key, found an ML-DSA-65 key"
    );

    // An ML-DSA-65 OID on a document whose key has ML-DSA-44's lengths: caught by length.
    let sk44 = SigningKey::<MlDsa44>::from_seed(&seed_rfc());
    let relabelled = spki(&alg_id(Algorithm::MlDsa65), sk44.verifying_key().as_bytes());
    assert_eq!(
        pkix(AnyVerifyingKey::from_public_key_der(&relabelled).unwrap_err()),
        PkixError::Length {
            at: Field::SubjectPublicKey,
            expected: 1952,
            got: 1312
        }
    );
    let relabelled = one_asymmetric_key(
        &[0],
        &alg_id(Algorithm::MlDsa65),
        &tlv(0x04, sk44.to_expanded_bytes().as_ref()),
        &[],
    );
    assert_eq!(
        pkix(AnySigningKey::from_pkcs8_der(&relabelled).unwrap_err()),
        PkixError::Length {
            at: Field::ExpandedKey,
            expected: 4032,
            got: 2560
        }
    );

    // Another OID under the same arc (id-slh-dsa-sha2-128s = .20), and Ed25519.
    let other = tlv(0x30, &tlv(0x06, &cat(&[&OID_PREFIX, &[0x14]])));
    let doc = one_asymmetric_key(&[0], &other, &seed_inner(&seed_rfc()), &[]);
    let e = pkix(AnySigningKey::from_pkcs8_der(&doc).unwrap_err());
    let PkixError::UnknownAlgorithm { found } = e else {
        panic!("{e:?}")
    };
    assert_eq!(found.to_string(), "2.16.840.1.101.3.4.3.20");
    assert_eq!(
        Error::Pkix(e).to_string(),
        "algorithm 2.16.840.1.101.3.4.3.20 is not ML-DSA (RFC 9881)"
    );

    let ed25519 = spki(&tlv(0x30, &tlv(0x06, &[0x2b, 0x65, 0x70])), &[7; 32]);
    let e = pkix(VerifyingKey::<MlDsa65>::from_public_key_der(&ed25519).unwrap_err());
    let PkixError::UnknownAlgorithm { found } = e else {
        panic!("{e:?}")
    };
    assert_eq!(found.to_string(), "1.3.101.112");
    assert_eq!(
        pkix(AnyVerifyingKey::from_public_key_der(&ed25519).unwrap_err()),
        e
    );

    // rsaEncryption with NULL parameters: the OID is reported, not the parameters.
    let rsa = spki(
        &tlv(
            0x30,
            &cat(&[
                &tlv(
                    0x06,
                    &[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x01],
                ),
                &[0x05, 0x00],
            ]),
        ),
        &[0x30, 0x00],
    );
    assert!(matches!(
        pkix(AnyVerifyingKey::from_public_key_der(&rsa).unwrap_err()),
        PkixError::UnknownAlgorithm { .. }
    ));

    // A malformed OID (non-minimal arc).
    let bad_oid = spki(&tlv(0x30, &tlv(0x06, &[0x80, 0x01])), &[0; 1312]);
    assert_eq!(
        pkix(AnyVerifyingKey::from_public_key_der(&bad_oid).unwrap_err()),
        PkixError::Der {
            at: Field::Algorithm,
            problem: DerProblem::Value
        }
    );
}

#[test]
fn parameters_must_be_absent() {
    let sk = SigningKey::<MlDsa44>::from_seed(&seed_rfc());
    for params in [
        &[0x05, 0x00][..],
        &[0x30, 0x00],
        &[0x04, 0x01, 0x00],
        &[0xff],
    ] {
        let with_params = tlv(0x30, &cat(&[&oid_of(Algorithm::MlDsa44), params]));
        let doc = one_asymmetric_key(&[0], &with_params, &seed_inner(&seed_rfc()), &[]);
        assert_eq!(
            pkix(SigningKey::<MlDsa44>::from_pkcs8_der(&doc).unwrap_err()),
            PkixError::ParametersPresent
        );
        assert_eq!(
            pkix(AnySigningKey::from_pkcs8_der(&doc).unwrap_err()),
            PkixError::ParametersPresent
        );
        let doc = spki(&with_params, sk.verifying_key().as_bytes());
        assert_eq!(
            pkix(VerifyingKey::<MlDsa44>::from_public_key_der(&doc).unwrap_err()),
            PkixError::ParametersPresent
        );
        assert_eq!(
            pkix(AnyVerifyingKey::from_public_key_der(&doc).unwrap_err()),
            PkixError::ParametersPresent
        );
    }
}

#[test]
fn hand_built_documents_match_ours() {
    // The test's own DER builder agrees with the library, so the negative cases below differ
    // from valid documents only where they say.
    let sk = SigningKey::<MlDsa87>::from_seed(&seed_ff());
    let a = alg_id(Algorithm::MlDsa87);
    let e = sk.to_expanded_bytes();
    assert_eq!(
        one_asymmetric_key(&[0], &a, &seed_inner(&seed_ff()), &[]),
        *sk.to_pkcs8_der(KeyForm::Seed).unwrap()
    );
    assert_eq!(
        one_asymmetric_key(&[0], &a, &tlv(0x04, e.as_ref()), &[]),
        *sk.to_pkcs8_der(KeyForm::Expanded).unwrap()
    );
    assert_eq!(
        one_asymmetric_key(&[0], &a, &both_inner(&seed_ff(), e.as_ref()), &[]),
        *sk.to_pkcs8_der(KeyForm::Both).unwrap()
    );
    assert_eq!(
        spki(&a, sk.verifying_key().as_bytes()),
        sk.verifying_key().to_public_key_der()
    );
}

#[test]
fn versions_and_the_public_key_field() {
    let sk = SigningKey::<MlDsa65>::from_seed(&seed_rfc());
    let pk = sk.verifying_key().as_bytes();
    let a = alg_id(Algorithm::MlDsa65);
    let e = sk.to_expanded_bytes();
    for inner in [
        seed_inner(&seed_rfc()),
        tlv(0x04, e.as_ref()),
        both_inner(&seed_rfc(), e.as_ref()),
    ] {
        // v2 with the matching public key: accepted.
        let v2 = one_asymmetric_key(&[1], &a, &inner, &public_key_field(pk));
        assert_eq!(
            SigningKey::<MlDsa65>::from_pkcs8_der(&v2)
                .unwrap()
                .verifying_key()
                .as_bytes(),
            pk
        );
        assert!(AnySigningKey::from_pkcs8_der(&v2).is_ok());

        // v2 with another key's public key.
        let other = SigningKey::<MlDsa65>::from_seed(&seed_ff());
        let doc = one_asymmetric_key(
            &[1],
            &a,
            &inner,
            &public_key_field(other.verifying_key().as_bytes()),
        );
        assert_eq!(
            pkix(SigningKey::<MlDsa65>::from_pkcs8_der(&doc).unwrap_err()),
            PkixError::PublicKeyMismatch
        );
        assert_eq!(
            pkix(AnySigningKey::from_pkcs8_der(&doc).unwrap_err()),
            PkixError::PublicKeyMismatch
        );
        // ... with one flipped bit,
        let mut flipped = pk.to_vec();
        flipped[1000] ^= 1;
        let doc = one_asymmetric_key(&[1], &a, &inner, &public_key_field(&flipped));
        assert_eq!(
            pkix(SigningKey::<MlDsa65>::from_pkcs8_der(&doc).unwrap_err()),
            PkixError::PublicKeyMismatch
        );
        // ... of the wrong length,
        let doc = one_asymmetric_key(&[1], &a, &inner, &public_key_field(&pk[..1951]));
        assert_eq!(
            pkix(SigningKey::<MlDsa65>::from_pkcs8_der(&doc).unwrap_err()),
            PkixError::Length {
                at: Field::PublicKey,
                expected: 1952,
                got: 1951
            }
        );
        // ... or with unused bits.
        let doc = one_asymmetric_key(&[1], &a, &inner, &tlv(0x81, &cat(&[&[3], pk])));
        assert_eq!(
            pkix(SigningKey::<MlDsa65>::from_pkcs8_der(&doc).unwrap_err()),
            PkixError::Der {
                at: Field::PublicKey,
                problem: DerProblem::Value
            }
        );

        // v1 with a public key, v2 without.
        let doc = one_asymmetric_key(&[0], &a, &inner, &public_key_field(pk));
        assert_eq!(
            pkix(SigningKey::<MlDsa65>::from_pkcs8_der(&doc).unwrap_err()),
            PkixError::VersionMismatch {
                version: 0,
                public_key_present: true
            }
        );
        let doc = one_asymmetric_key(&[1], &a, &inner, &[]);
        assert_eq!(
            pkix(SigningKey::<MlDsa65>::from_pkcs8_der(&doc).unwrap_err()),
            PkixError::VersionMismatch {
                version: 1,
                public_key_present: false
            }
        );

        // Versions other than 0 and 1, and non-minimal INTEGERs.
        for (version, want) in [
            (&[2][..], PkixError::UnsupportedVersion { found: 2 }),
            (&[0xff], PkixError::UnsupportedVersion { found: -1 }),
            (&[0x01, 0x00], PkixError::UnsupportedVersion { found: 256 }),
            (
                &[0x00, 0x00],
                PkixError::Der {
                    at: Field::Version,
                    problem: DerProblem::Value,
                },
            ),
            (
                &[0x00, 0x01],
                PkixError::Der {
                    at: Field::Version,
                    problem: DerProblem::Value,
                },
            ),
            (
                &[],
                PkixError::Der {
                    at: Field::Version,
                    problem: DerProblem::Value,
                },
            ),
        ] {
            let doc = one_asymmetric_key(version, &a, &inner, &[]);
            assert_eq!(
                pkix(SigningKey::<MlDsa65>::from_pkcs8_der(&doc).unwrap_err()),
                want,
                "{version:?}"
            );
        }

        // Attributes [0] are allowed (and ignored), before the public key too.
        let attrs = tlv(
            0xa0,
            &tlv(
                0x30,
                &cat(&[&tlv(0x06, &[0x2a, 0x03]), &tlv(0x31, &tlv(0x0c, b"x"))]),
            ),
        );
        let doc = one_asymmetric_key(&[0], &a, &inner, &attrs);
        assert!(SigningKey::<MlDsa65>::from_pkcs8_der(&doc).is_ok());
        let doc = one_asymmetric_key(&[1], &a, &inner, &cat(&[&attrs, &public_key_field(pk)]));
        assert!(SigningKey::<MlDsa65>::from_pkcs8_der(&doc).is_ok());
        // ... but must be well-formed, and come before the public key.
        let doc = one_asymmetric_key(&[0], &a, &inner, &tlv(0xa0, &[0x04, 0x00]));
        assert_eq!(
            pkix(SigningKey::<MlDsa65>::from_pkcs8_der(&doc).unwrap_err()),
            PkixError::Der {
                at: Field::Attributes,
                problem: DerProblem::UnexpectedTag { found: 0x04 }
            }
        );
        let doc = one_asymmetric_key(&[1], &a, &inner, &cat(&[&public_key_field(pk), &attrs]));
        assert_eq!(
            pkix(SigningKey::<MlDsa65>::from_pkcs8_der(&doc).unwrap_err()),
            PkixError::TrailingData {
                after: Field::PublicKey
            }
        );
        // Nothing may follow the public key (RFC 5958 defines no later field).
        let doc = one_asymmetric_key(
            &[1],
            &a,
            &inner,
            &cat(&[&public_key_field(pk), &tlv(0x82, &[0])]),
        );
        assert_eq!(
            pkix(SigningKey::<MlDsa65>::from_pkcs8_der(&doc).unwrap_err()),
            PkixError::TrailingData {
                after: Field::PublicKey
            }
        );
        let doc = one_asymmetric_key(&[0], &a, &inner, &[0x05, 0x00]);
        assert_eq!(
            pkix(SigningKey::<MlDsa65>::from_pkcs8_der(&doc).unwrap_err()),
            PkixError::TrailingData {
                after: Field::PrivateKey
            }
        );
    }
}

#[test]
fn inconsistent_both() {
    let sk = SigningKey::<MlDsa87>::from_seed(&seed_rfc());
    let a = alg_id(Algorithm::MlDsa87);
    let e = sk.to_expanded_bytes();
    let mut rng = XorShift(0x1234_5678_9abc_def1);
    for _ in 0..20 {
        let mut bad = e.as_ref().to_vec();
        let k = rng.below(bad.len());
        bad[k] ^= 1 << rng.below(8);
        let doc = one_asymmetric_key(&[0], &a, &both_inner(&seed_rfc(), &bad), &[]);
        assert_eq!(
            pkix(SigningKey::<MlDsa87>::from_pkcs8_der(&doc).unwrap_err()),
            PkixError::SeedExpandedMismatch
        );
    }
    // Another key's (valid) expanded key with this seed.
    let other = SigningKey::<MlDsa87>::from_seed(&seed_ff());
    let doc = one_asymmetric_key(
        &[0],
        &a,
        &both_inner(&seed_rfc(), other.to_expanded_bytes().as_ref()),
        &[],
    );
    let err = SigningKey::<MlDsa87>::from_pkcs8_der(&doc).unwrap_err();
    assert_eq!(pkix(err), PkixError::SeedExpandedMismatch);
    assert_eq!(
        err.to_string(),
        "the expanded key does not match the one its seed generates"
    );
}

#[test]
fn invalid_expanded_keys() {
    let sk = SigningKey::<MlDsa44>::from_seed(&seed_rfc());
    let a = alg_id(Algorithm::MlDsa44);
    let mut e = sk.to_expanded_bytes().as_ref().to_vec();
    e[128] = 0xff; // s1's first coefficients out of [-eta, eta]
    let doc = one_asymmetric_key(&[0], &a, &tlv(0x04, &e), &[]);
    assert_eq!(
        SigningKey::<MlDsa44>::from_pkcs8_der(&doc).unwrap_err(),
        Error::Malformed {
            input: Input::SigningKey,
            what: Malformed::S1OutOfRange
        }
    );
}

#[test]
fn wrong_lengths() {
    let sk = SigningKey::<MlDsa65>::from_seed(&seed_rfc());
    let a = alg_id(Algorithm::MlDsa65);
    let e = sk.to_expanded_bytes();
    let e = e.as_ref();
    let s = seed_rfc();
    let cases: Vec<(Vec<u8>, PkixError)> = vec![
        (
            seed_inner(&s[..31]),
            PkixError::Length {
                at: Field::Seed,
                expected: 32,
                got: 31,
            },
        ),
        (
            seed_inner(&[s.as_slice(), &[0]].concat()),
            PkixError::Length {
                at: Field::Seed,
                expected: 32,
                got: 33,
            },
        ),
        (
            seed_inner(&[]),
            PkixError::Length {
                at: Field::Seed,
                expected: 32,
                got: 0,
            },
        ),
        (
            tlv(0x04, &e[..4031]),
            PkixError::Length {
                at: Field::ExpandedKey,
                expected: 4032,
                got: 4031,
            },
        ),
        (
            tlv(0x04, &[e, &[0]].concat()),
            PkixError::Length {
                at: Field::ExpandedKey,
                expected: 4032,
                got: 4033,
            },
        ),
        // A bare 32-byte OCTET STRING (an early draft's seed encoding) is an expandedKey of the
        // wrong length.
        (
            tlv(0x04, &s),
            PkixError::Length {
                at: Field::ExpandedKey,
                expected: 4032,
                got: 32,
            },
        ),
        (
            both_inner(&s[..16], e),
            PkixError::Length {
                at: Field::Seed,
                expected: 32,
                got: 16,
            },
        ),
        (
            both_inner(&s, &e[1..]),
            PkixError::Length {
                at: Field::ExpandedKey,
                expected: 4032,
                got: 4031,
            },
        ),
    ];
    for (inner, want) in cases {
        let doc = one_asymmetric_key(&[0], &a, &inner, &[]);
        assert_eq!(
            pkix(SigningKey::<MlDsa65>::from_pkcs8_der(&doc).unwrap_err()),
            want
        );
        assert_eq!(pkix(AnySigningKey::from_pkcs8_der(&doc).unwrap_err()), want);
    }
    let pk = sk.verifying_key().as_bytes();
    for (doc, got) in [
        (spki(&a, &pk[1..]), 1951),
        (spki(&a, &[pk, &[0]].concat()), 1953),
        (spki(&a, &[]), 0),
    ] {
        let want = PkixError::Length {
            at: Field::SubjectPublicKey,
            expected: 1952,
            got,
        };
        assert_eq!(
            pkix(VerifyingKey::<MlDsa65>::from_public_key_der(&doc).unwrap_err()),
            want
        );
        assert_eq!(
            pkix(AnyVerifyingKey::from_public_key_der(&doc).unwrap_err()),
            want
        );
    }
    let err = VerifyingKey::<MlDsa65>::from_public_key_der(&spki(&a, &pk[1..])).unwrap_err();
    assert_eq!(
        err.to_string(),
        "subjectPublicKey must be 1952 bytes, got 1951"
    );
}

/// Every parameter set: an expandedKey (alone or beside the seed) and a subjectPublicKey at
/// lengths 0, L - 1 and L + 1 give `PkixError::Length` naming the field and both lengths, through
/// the typed and the algorithm-agnostic decoders; the seed at 0, 31 and 33 likewise.
fn wrong_lengths_for<P: ParameterSet>(alg: Algorithm) {
    let sk = SigningKey::<P>::from_seed(&seed_ff());
    let a = alg_id(alg);
    let e = sk.to_expanded_bytes();
    let e = e.as_ref();
    let s = seed_ff();
    let long_e = [e, &[0]].concat();
    let long_s = [s.as_slice(), &[0]].concat();
    let expanded = |got| PkixError::Length {
        at: Field::ExpandedKey,
        expected: P::SK_LEN,
        got,
    };
    let seed = |got| PkixError::Length {
        at: Field::Seed,
        expected: 32,
        got,
    };
    let cases = [
        (tlv(0x04, &[]), expanded(0)),
        (tlv(0x04, &e[1..]), expanded(P::SK_LEN - 1)),
        (tlv(0x04, &long_e), expanded(P::SK_LEN + 1)),
        (both_inner(&s, &[]), expanded(0)),
        (both_inner(&s, &e[..P::SK_LEN - 1]), expanded(P::SK_LEN - 1)),
        (both_inner(&s, &long_e), expanded(P::SK_LEN + 1)),
        (seed_inner(&[]), seed(0)),
        (seed_inner(&s[..31]), seed(31)),
        (seed_inner(&long_s), seed(33)),
        (both_inner(&[], e), seed(0)),
        (both_inner(&long_s, e), seed(33)),
    ];
    for (inner, want) in cases {
        let doc = one_asymmetric_key(&[0], &a, &inner, &[]);
        assert_eq!(
            pkix(SigningKey::<P>::from_pkcs8_der(&doc).unwrap_err()),
            want,
            "{alg:?}"
        );
        assert_eq!(
            pkix(AnySigningKey::from_pkcs8_der(&doc).unwrap_err()),
            want,
            "{alg:?}"
        );
    }
    let pk = sk.verifying_key().as_bytes();
    for (doc, got) in [
        (spki(&a, &[]), 0),
        (spki(&a, &pk[1..]), P::PK_LEN - 1),
        (spki(&a, &[pk, &[0]].concat()), P::PK_LEN + 1),
    ] {
        let want = PkixError::Length {
            at: Field::SubjectPublicKey,
            expected: P::PK_LEN,
            got,
        };
        assert_eq!(
            pkix(VerifyingKey::<P>::from_public_key_der(&doc).unwrap_err()),
            want,
            "{alg:?}"
        );
        assert_eq!(
            pkix(AnyVerifyingKey::from_public_key_der(&doc).unwrap_err()),
            want,
            "{alg:?}"
        );
    }
    // The right lengths decode, in each form.
    for inner in [seed_inner(&s), tlv(0x04, e), both_inner(&s, e)] {
        let doc = one_asymmetric_key(&[0], &a, &inner, &[]);
        let back = SigningKey::<P>::from_pkcs8_der(&doc).unwrap();
        assert_eq!(back.verifying_key().as_bytes(), pk, "{alg:?}");
    }
    let vk = VerifyingKey::<P>::from_public_key_der(&spki(&a, pk)).unwrap();
    assert_eq!(vk.as_bytes(), pk);
}

#[test]
fn wrong_lengths_every_set() {
    wrong_lengths_for::<MlDsa44>(Algorithm::MlDsa44);
    wrong_lengths_for::<MlDsa65>(Algorithm::MlDsa65);
    wrong_lengths_for::<MlDsa87>(Algorithm::MlDsa87);
}

#[test]
fn seed_encodings_other_than_the_rfc_one() {
    let a = alg_id(Algorithm::MlDsa44);
    let s = seed_rfc();
    for (inner, want) in [
        // Constructed [0] (BER, not DER).
        (
            tlv(0xa0, &tlv(0x04, &s)),
            PkixError::UnknownPrivateKeyForm { tag: 0xa0 },
        ),
        // [1], [2], an INTEGER, a BIT STRING.
        (
            tlv(0x81, &s),
            PkixError::UnknownPrivateKeyForm { tag: 0x81 },
        ),
        (
            tlv(0x82, &s),
            PkixError::UnknownPrivateKeyForm { tag: 0x82 },
        ),
        (
            tlv(0x02, &s),
            PkixError::UnknownPrivateKeyForm { tag: 0x02 },
        ),
        (
            tlv(0x03, &s),
            PkixError::UnknownPrivateKeyForm { tag: 0x03 },
        ),
        // The raw seed with no CHOICE around it (00 01 .. reads as tag 0x00).
        (
            s.to_vec(),
            PkixError::Der {
                at: Field::PrivateKey,
                problem: DerProblem::UnexpectedTag { found: 0 },
            },
        ),
        (
            seed_ff().to_vec(),
            PkixError::Der {
                at: Field::PrivateKey,
                problem: DerProblem::UnexpectedTag { found: 0xff },
            },
        ),
        // An empty privateKey.
        (
            vec![],
            PkixError::Der {
                at: Field::PrivateKey,
                problem: DerProblem::Truncated,
            },
        ),
        // Trailing bytes inside the privateKey OCTET STRING.
        (
            cat(&[&seed_inner(&s), &[0]]),
            PkixError::TrailingData {
                after: Field::PrivateKey,
            },
        ),
        // Non-minimal length octets (81 20 for 32).
        (
            cat(&[&[0x80, 0x81, 0x20], &s]),
            PkixError::Der {
                at: Field::PrivateKey,
                problem: DerProblem::Length,
            },
        ),
        // Indefinite length.
        (
            cat(&[&[0x80, 0x80], &s, &[0, 0]]),
            PkixError::Der {
                at: Field::PrivateKey,
                problem: DerProblem::Length,
            },
        ),
    ] {
        let doc = one_asymmetric_key(&[0], &a, &inner, &[]);
        assert_eq!(
            pkix(SigningKey::<MlDsa44>::from_pkcs8_der(&doc).unwrap_err()),
            want,
            "{:02x?}",
            &inner[..2.min(inner.len())]
        );
    }
    // `both` with a tagged seed or extra elements.
    let sk = SigningKey::<MlDsa44>::from_seed(&s);
    let e = sk.to_expanded_bytes();
    let tagged = tlv(0x30, &cat(&[&tlv(0x80, &s), &tlv(0x04, e.as_ref())]));
    let doc = one_asymmetric_key(&[0], &a, &tagged, &[]);
    assert_eq!(
        pkix(SigningKey::<MlDsa44>::from_pkcs8_der(&doc).unwrap_err()),
        PkixError::Der {
            at: Field::Seed,
            problem: DerProblem::UnexpectedTag { found: 0x80 }
        }
    );
    let extra = tlv(
        0x30,
        &cat(&[&tlv(0x04, &s), &tlv(0x04, e.as_ref()), &[0x05, 0x00]]),
    );
    let doc = one_asymmetric_key(&[0], &a, &extra, &[]);
    assert_eq!(
        pkix(SigningKey::<MlDsa44>::from_pkcs8_der(&doc).unwrap_err()),
        PkixError::TrailingData {
            after: Field::ExpandedKey
        }
    );
    let swapped = tlv(0x30, &cat(&[&tlv(0x04, e.as_ref()), &tlv(0x04, &s)]));
    let doc = one_asymmetric_key(&[0], &a, &swapped, &[]);
    assert_eq!(
        pkix(SigningKey::<MlDsa44>::from_pkcs8_der(&doc).unwrap_err()),
        PkixError::Length {
            at: Field::Seed,
            expected: 32,
            got: 2560
        }
    );
}

#[test]
fn truncated_and_trailing() {
    let sk = SigningKey::<MlDsa44>::from_seed(&seed_rfc());
    let docs = [
        sk.to_pkcs8_der(KeyForm::Seed).unwrap().to_vec(),
        sk.to_pkcs8_der(KeyForm::Both).unwrap().to_vec(),
        sk.verifying_key().to_public_key_der(),
    ];
    for doc in &docs {
        let is_pub = doc.len() > 1000 && doc[4] == 0x30;
        let read = |d: &[u8]| -> Result<(), Error> {
            if is_pub {
                VerifyingKey::<MlDsa44>::from_public_key_der(d).map(|_| ())
            } else {
                SigningKey::<MlDsa44>::from_pkcs8_der(d).map(|_| ())
            }
        };
        // Every proper prefix is rejected.
        for n in 0..doc.len() {
            let e = read(&doc[..n]).unwrap_err();
            assert!(
                matches!(
                    pkix(e),
                    PkixError::Der {
                        problem: DerProblem::Truncated,
                        ..
                    }
                ),
                "prefix {n}: {e:?}"
            );
        }
        // Anything appended is rejected.
        for extra in [&[0u8][..], &[0, 0], &[0x30, 0x00], &doc[..]] {
            let e = read(&cat(&[doc, extra])).unwrap_err();
            assert_eq!(
                pkix(e),
                PkixError::TrailingData {
                    after: Field::Document
                }
            );
        }
        // The outer length one too long, one too short.
        let mut longer = doc.clone();
        longer[3] += 1;
        assert!(read(&longer).is_err());
        let mut shorter = doc.clone();
        shorter[3] -= 1;
        assert!(read(&shorter).is_err());
    }
    // Data after the BIT STRING inside a SubjectPublicKeyInfo.
    let a = alg_id(Algorithm::MlDsa44);
    let pk = sk.verifying_key().as_bytes();
    let doc = tlv(
        0x30,
        &cat(&[&a, &tlv(0x03, &cat(&[&[0], pk])), &[0x05, 0x00]]),
    );
    assert_eq!(
        pkix(VerifyingKey::<MlDsa44>::from_public_key_der(&doc).unwrap_err()),
        PkixError::TrailingData {
            after: Field::SubjectPublicKey
        }
    );
    // BIT STRING with unused bits, or empty.
    let doc = tlv(0x30, &cat(&[&a, &tlv(0x03, &cat(&[&[1], pk]))]));
    assert_eq!(
        pkix(VerifyingKey::<MlDsa44>::from_public_key_der(&doc).unwrap_err()),
        PkixError::Der {
            at: Field::SubjectPublicKey,
            problem: DerProblem::Value
        }
    );
    let doc = tlv(0x30, &cat(&[&a, &tlv(0x03, &[])]));
    assert_eq!(
        pkix(VerifyingKey::<MlDsa44>::from_public_key_der(&doc).unwrap_err()),
        PkixError::Der {
            at: Field::SubjectPublicKey,
            problem: DerProblem::Value
        }
    );
    // OCTET STRING where the BIT STRING belongs.
    let doc = tlv(0x30, &cat(&[&a, &tlv(0x04, pk)]));
    assert_eq!(
        pkix(VerifyingKey::<MlDsa44>::from_public_key_der(&doc).unwrap_err()),
        PkixError::Der {
            at: Field::SubjectPublicKey,
            problem: DerProblem::UnexpectedTag { found: 0x04 }
        }
    );
    // A private key where a public key is expected and vice versa.
    let e = VerifyingKey::<MlDsa44>::from_public_key_der(&docs[0]).unwrap_err();
    assert_eq!(
        pkix(e),
        PkixError::Der {
            at: Field::AlgorithmIdentifier,
            problem: DerProblem::UnexpectedTag { found: 0x02 }
        }
    );
    let e = SigningKey::<MlDsa44>::from_pkcs8_der(&docs[2]).unwrap_err();
    assert_eq!(
        pkix(e),
        PkixError::Der {
            at: Field::Version,
            problem: DerProblem::UnexpectedTag { found: 0x30 }
        }
    );
    // Not a SEQUENCE at all; empty input.
    assert_eq!(
        pkix(SigningKey::<MlDsa44>::from_pkcs8_der(b"\x04\x00").unwrap_err()),
        PkixError::Der {
            at: Field::OneAsymmetricKey,
            problem: DerProblem::UnexpectedTag { found: 0x04 }
        }
    );
    assert_eq!(
        pkix(AnyVerifyingKey::from_public_key_der(b"").unwrap_err()),
        PkixError::Der {
            at: Field::SubjectPublicKeyInfo,
            problem: DerProblem::Truncated
        }
    );
}

// ---------------------------------------------------------------------------------------------
// PEM
// ---------------------------------------------------------------------------------------------

#[test]
fn pem_reading_is_lax_where_rfc7468_allows() {
    let sk = SigningKey::<MlDsa65>::from_seed(&seed_ff());
    let vk = *sk.verifying_key();
    let spki_der = vk.to_public_key_der();
    let both_der = sk.to_pkcs8_der(KeyForm::Both).unwrap();
    for width in [64, 76, 4, 48, 100, 10_000] {
        for eol in ["\n", "\r\n"] {
            let pem = pem_wrap("PUBLIC KEY", &spki_der, width, eol);
            assert_eq!(
                VerifyingKey::<MlDsa65>::from_public_key_pem(&pem).unwrap(),
                vk,
                "width {width}"
            );
            assert_eq!(pem_label(&pem), Some("PUBLIC KEY"));
            let pem = pem_wrap("PRIVATE KEY", &both_der, width, eol);
            let (k, form) = AnySigningKey::from_pkcs8_pem(&pem).unwrap();
            assert_eq!(
                (k.verifying_key().as_bytes(), form),
                (vk.as_bytes(), KeyForm::Both)
            );
        }
    }
    // Explanatory text before, whitespace around, no final newline.
    let pem = vk.to_public_key_pem();
    let decorated = format!("Subject: test key\nIssuer: nobody\n{pem}\n\n  ");
    assert_eq!(
        VerifyingKey::<MlDsa65>::from_public_key_pem(&decorated).unwrap(),
        vk
    );
    assert_eq!(
        VerifyingKey::<MlDsa65>::from_public_key_pem(pem.trim_end()).unwrap(),
        vk
    );
    assert_eq!(
        VerifyingKey::<MlDsa65>::from_public_key_pem(&format!("\r\n  {pem}")).unwrap(),
        vk
    );
}

#[test]
fn pem_rejections() {
    let sk = SigningKey::<MlDsa44>::from_seed(&seed_rfc());
    let sk_pem: String = sk.to_pkcs8_pem(KeyForm::Seed).unwrap().to_string();
    let vk_pem = sk.verifying_key().to_public_key_pem();

    // Wrong labels.
    assert_eq!(
        pkix(SigningKey::<MlDsa44>::from_pkcs8_pem(&vk_pem).unwrap_err()),
        PkixError::PemLabel {
            expected: PemLabel::PrivateKey,
            found: PemLabel::PublicKey
        }
    );
    assert_eq!(
        pkix(AnyVerifyingKey::from_public_key_pem(&sk_pem).unwrap_err()),
        PkixError::PemLabel {
            expected: PemLabel::PublicKey,
            found: PemLabel::PrivateKey
        }
    );
    let der = sk.to_pkcs8_der(KeyForm::Seed).unwrap();
    for label in [
        "RSA PRIVATE KEY",
        "ML-DSA-44 PRIVATE KEY",
        "CERTIFICATE",
        "private key",
    ] {
        let pem = pem_wrap(label, &der, 64, "\n");
        let e = pkix(SigningKey::<MlDsa44>::from_pkcs8_pem(&pem).unwrap_err());
        assert_eq!(
            e,
            PkixError::PemLabel {
                expected: PemLabel::PrivateKey,
                found: PemLabel::Other
            },
            "{label}"
        );
        assert_eq!(pem_label(&pem), Some(label));
    }
    let enc = pem_wrap("ENCRYPTED PRIVATE KEY", &der, 64, "\n");
    assert_eq!(
        pkix(SigningKey::<MlDsa44>::from_pkcs8_pem(&enc).unwrap_err()),
        PkixError::Encrypted
    );
    assert_eq!(
        pkix(AnySigningKey::from_pkcs8_pem(&enc).unwrap_err()),
        PkixError::Encrypted
    );

    // Malformed PEM.
    let body_start = sk_pem.find('\n').unwrap() + 1;
    let cases: Vec<(String, PemProblem)> = vec![
        (String::new(), PemProblem::BeginLine),
        ("not pem at all".into(), PemProblem::BeginLine),
        (
            sk_pem.replace("-----END PRIVATE KEY-----\n", ""),
            PemProblem::EndLine,
        ),
        (
            sk_pem.replace("-----END PRIVATE KEY-----", "-----END PUBLIC KEY-----"),
            PemProblem::EndLine,
        ),
        (
            format!(
                "{}Proc-Type: 4,ENCRYPTED\n\n{}",
                &sk_pem[..body_start],
                &sk_pem[body_start..]
            ),
            PemProblem::Headers,
        ),
        (sk_pem.replacen("MDQC", "MD*C", 1), PemProblem::Base64),
        (sk_pem.replacen("MDQC", "MDQ", 1), PemProblem::Base64),
    ];
    for (pem, want) in cases {
        let e = pkix(SigningKey::<MlDsa44>::from_pkcs8_pem(&pem).unwrap_err());
        assert_eq!(e, PkixError::Pem(want), "{pem:?}");
    }
    // Text after the END line (`openssl pkey -text` output) or before BEGIN is not part of the
    // document (RFC 7468 section 2): the key inside is read.
    let expected = SigningKey::<MlDsa44>::from_pkcs8_pem(&sk_pem)
        .unwrap()
        .to_expanded_bytes();
    for wrapped in [
        format!("{sk_pem}ML-DSA-44 Private-Key:\nseed:\n    00:01:02\n"),
        format!("subject=CN=test\n{sk_pem}trailing text\n"),
    ] {
        let k = SigningKey::<MlDsa44>::from_pkcs8_pem(&wrapped).unwrap();
        assert_eq!(k.to_expanded_bytes().as_ref(), expected.as_ref());
    }
    // Lines of different widths: 64 then 128, or 128 then 64.
    let lines: Vec<&str> = vk_pem.lines().collect();
    let joined_second = [
        &lines[..2],
        &[&format!("{}{}", lines[2], lines[3])],
        &lines[4..],
    ]
    .concat()
    .join("\n");
    let joined_first = [
        &lines[..1],
        &[&format!("{}{}", lines[1], lines[2])],
        &lines[3..],
    ]
    .concat()
    .join("\n");
    for pem in [joined_second, joined_first] {
        assert_eq!(
            pkix(AnyVerifyingKey::from_public_key_pem(&pem).unwrap_err()),
            PkixError::Pem(PemProblem::Base64)
        );
    }
    assert_eq!(pem_label("-----BEGIN PUBLIC KEY-----\n"), None);
    assert_eq!(
        pem_label(&vk_pem.replace("END PUBLIC", "END PRIVATE")),
        None
    );
    // Valid PEM, valid label, but the DER inside is not a key.
    let pem = pem_wrap("PRIVATE KEY", b"\x30\x00", 64, "\n");
    assert_eq!(
        pkix(SigningKey::<MlDsa44>::from_pkcs8_pem(&pem).unwrap_err()),
        PkixError::Der {
            at: Field::Version,
            problem: DerProblem::Truncated
        }
    );
}

#[test]
fn document_kinds() {
    let sk = SigningKey::<MlDsa87>::from_seed(&seed_rfc());
    assert_eq!(
        der_kind(&sk.to_pkcs8_der(KeyForm::Expanded).unwrap()),
        Some(PemLabel::PrivateKey)
    );
    // The test's Base64 agrees with the library's PEM.
    let vk_pem = sk.verifying_key().to_public_key_pem();
    assert_eq!(
        pem_wrap(
            "PUBLIC KEY",
            &sk.verifying_key().to_public_key_der(),
            64,
            "\n"
        ),
        vk_pem
    );
    assert_eq!(pem_der(&vk_pem), sk.verifying_key().to_public_key_der());
    assert_eq!(
        der_kind(&sk.verifying_key().to_public_key_der()),
        Some(PemLabel::PublicKey)
    );
    assert_eq!(
        der_algorithm(&sk.to_pkcs8_der(KeyForm::Both).unwrap()),
        Ok(Algorithm::MlDsa87)
    );
    assert_eq!(der_kind(b""), None);
    assert_eq!(der_kind(b"\x30\x00"), None);
    assert_eq!(
        der_kind(&data("mldsa65-rfc.priv.enc.der")),
        Some(PemLabel::EncryptedPrivateKey)
    );
    assert_eq!(
        pem_label(&text("mldsa65-rfc.priv.enc.pem")),
        Some("ENCRYPTED PRIVATE KEY")
    );
    assert_eq!(
        pkix(der_algorithm(&data("mldsa65-rfc.priv.enc.der")).unwrap_err()),
        PkixError::Encrypted
    );
}

// ---------------------------------------------------------------------------------------------
// Errors carry no secrets
// ---------------------------------------------------------------------------------------------

#[test]
fn errors_are_copy_and_carry_no_key_bytes() {
    fn assert_copy<T: Copy>() {}
    assert_copy::<Error>();
    assert_copy::<PkixError>();
    // A seed of distinctive bytes in documents that fail late: no error shows them.
    let seed = [0xa7u8; 32];
    let sk = SigningKey::<MlDsa44>::from_seed(&seed);
    let a = alg_id(Algorithm::MlDsa44);
    let other = SigningKey::<MlDsa44>::from_seed(&seed_rfc());
    let e = sk.to_expanded_bytes();
    let docs = [
        one_asymmetric_key(
            &[0],
            &a,
            &both_inner(&seed, other.to_expanded_bytes().as_ref()),
            &[],
        ),
        one_asymmetric_key(
            &[1],
            &a,
            &seed_inner(&seed),
            &public_key_field(other.verifying_key().as_bytes()),
        ),
        one_asymmetric_key(&[0], &a, &cat(&[&seed_inner(&seed), &[0xa7]]), &[]),
        one_asymmetric_key(&[0], &a, &tlv(0x04, &e.as_ref()[..2559]), &[]),
    ];
    for doc in docs {
        let err = SigningKey::<MlDsa44>::from_pkcs8_der(&doc).unwrap_err();
        let shown = format!("{err} {err:?}").to_lowercase();
        assert!(
            !shown.contains("a7a7") && !shown.contains("167, 167"),
            "{shown}"
        );
    }
    assert!(format!("{sk:?}").find("a7a7").is_none());
}

// ---------------------------------------------------------------------------------------------
// No panics on random or mutated input
// ---------------------------------------------------------------------------------------------

fn read_everything(bytes: &[u8]) {
    let _ = SigningKey::<MlDsa44>::from_pkcs8_der(bytes);
    let _ = SigningKey::<MlDsa65>::from_pkcs8_der(bytes);
    let _ = SigningKey::<MlDsa87>::from_pkcs8_der(bytes);
    let _ = AnySigningKey::from_pkcs8_der(bytes);
    let _ = VerifyingKey::<MlDsa44>::from_public_key_der(bytes);
    let _ = VerifyingKey::<MlDsa65>::from_public_key_der(bytes);
    let _ = VerifyingKey::<MlDsa87>::from_public_key_der(bytes);
    let _ = AnyVerifyingKey::from_public_key_der(bytes);
    let _ = der_kind(bytes);
    let _ = der_algorithm(bytes);
    if let Ok(s) = std::str::from_utf8(bytes) {
        let _ = pem_label(s);
        let _ = AnySigningKey::from_pkcs8_pem(s);
        let _ = AnyVerifyingKey::from_public_key_pem(s);
    }
}

#[test]
fn no_panics_on_random_or_mutated_documents() {
    let mut rng = XorShift(0x9e37_79b9_7f4a_7c15);
    let sk44 = SigningKey::<MlDsa44>::from_seed(&seed_rfc());
    let sk87 = SigningKey::<MlDsa87>::from_seed(&seed_ff());
    let mut seeds: Vec<Vec<u8>> = vec![
        sk44.verifying_key().to_public_key_der(),
        sk87.verifying_key().to_public_key_der(),
        data("mldsa65-ff.pub.der"),
        data("mldsa65-rfc.priv.enc.der"),
    ];
    for form in [KeyForm::Seed, KeyForm::Expanded, KeyForm::Both] {
        seeds.push(sk44.to_pkcs8_der(form).unwrap().to_vec());
        seeds.push(sk87.to_pkcs8_der(form).unwrap().to_vec());
    }
    seeds.push(one_asymmetric_key(
        &[1],
        &alg_id(Algorithm::MlDsa44),
        &seed_inner(&seed_rfc()),
        &public_key_field(sk44.verifying_key().as_bytes()),
    ));

    let mut accepted = 0;
    // Mutations of valid documents: byte flips, byte overwrites near the front (where the
    // structure is), cuts, insertions, and splices of two documents.
    for i in 0..3000 {
        let mut doc = seeds[i % seeds.len()].clone();
        match rng.below(6) {
            0 => {
                let k = rng.below(doc.len());
                doc[k] ^= 1 << rng.below(8);
            }
            1 => {
                let k = rng.below(doc.len().min(48));
                doc[k] = rng.next() as u8;
            }
            2 => doc.truncate(rng.below(doc.len())),
            3 => {
                let k = rng.below(doc.len() + 1);
                doc.insert(k, rng.next() as u8);
            }
            4 => {
                let other = &seeds[rng.below(seeds.len())];
                let k = rng.below(doc.len().min(other.len()));
                doc.truncate(k);
                doc.extend_from_slice(&other[k..]);
            }
            _ => {
                for _ in 0..1 + rng.below(4) {
                    let k = rng.below(doc.len().min(64));
                    doc[k] = [0x00, 0x30, 0x04, 0x80, 0x81, 0x82, 0xa0, 0xff][rng.below(8)];
                }
            }
        }
        read_everything(&doc);
        if AnySigningKey::from_pkcs8_der(&doc).is_ok()
            || AnyVerifyingKey::from_public_key_der(&doc).is_ok()
        {
            accepted += 1;
        }
    }
    // Random blobs: short ones, and ones that start like a DER SEQUENCE.
    for _ in 0..3000 {
        let len = rng.below(80);
        let mut blob: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        if !blob.is_empty() && rng.below(2) == 0 {
            blob[0] = 0x30;
        }
        read_everything(&blob);
    }
    // Random text with PEM boundaries.
    for _ in 0..500 {
        let body: String = (0..rng.below(200))
            .map(|_| {
                let alphabet = b"ABCDEFabcdef0123456789+/=\n\r -:";
                alphabet[rng.below(alphabet.len())] as char
            })
            .collect();
        let label = ["PRIVATE KEY", "PUBLIC KEY", "X"][rng.below(3)];
        read_everything(
            format!("-----BEGIN {label}-----\n{body}\n-----END {label}-----\n").as_bytes(),
        );
    }
    // Mutating the seed bytes of a seed-form document gives another valid key; most other
    // mutations must be rejected.
    assert!(
        accepted < 1500,
        "{accepted} of 3000 mutated documents accepted"
    );
}

// ---------------------------------------------------------------------------------------------
// The spki / pkcs8 traits
// ---------------------------------------------------------------------------------------------

#[test]
fn spki_and_pkcs8_traits() {
    use mldsa::pkix::pkcs8::spki::{
        AssociatedAlgorithmIdentifier, DecodePublicKey, EncodePublicKey,
        SignatureAlgorithmIdentifier,
    };
    use mldsa::pkix::pkcs8::{DecodePrivateKey, EncodePrivateKey};

    let sk = SigningKey::<MlDsa65>::from_seed(&seed_rfc());
    let vk = *sk.verifying_key();
    assert_eq!(
        <VerifyingKey<MlDsa65> as AssociatedAlgorithmIdentifier>::ALGORITHM_IDENTIFIER
            .oid
            .to_string(),
        "2.16.840.1.101.3.4.3.18"
    );
    assert!(
        <SigningKey<MlDsa87> as SignatureAlgorithmIdentifier>::SIGNATURE_ALGORITHM_IDENTIFIER
            .parameters
            .is_none()
    );

    let doc = EncodePublicKey::to_public_key_der(&vk).unwrap();
    assert_eq!(doc.as_bytes(), data("mldsa65-rfc.pub.der"));
    let back =
        <VerifyingKey<MlDsa65> as DecodePublicKey>::from_public_key_der(doc.as_bytes()).unwrap();
    assert_eq!(back, vk);
    assert!(
        <VerifyingKey<MlDsa44> as DecodePublicKey>::from_public_key_der(doc.as_bytes()).is_err()
    );

    let doc = EncodePrivateKey::to_pkcs8_der(&sk).unwrap();
    assert_eq!(doc.as_bytes(), data("mldsa65-rfc.priv.der"));
    let back = <SigningKey<MlDsa65> as DecodePrivateKey>::from_pkcs8_der(doc.as_bytes()).unwrap();
    assert_eq!(back.seed(), Some(&seed_rfc()));
    let back =
        <SigningKey<MlDsa65> as DecodePrivateKey>::from_pkcs8_pem(&text("mldsa65-rfc.priv.pem"))
            .unwrap();
    assert_eq!(back.verifying_key(), &vk);
    assert!(<SigningKey<MlDsa87> as DecodePrivateKey>::from_pkcs8_der(doc.as_bytes()).is_err());

    // Through the traits too, the RFC's inconsistent keys are refused, and a key without a seed
    // is written in the expanded form.
    assert!(
        <SigningKey<MlDsa44> as DecodePrivateKey>::from_pkcs8_pem(&text(
            "rfc9881/bad-ML-DSA-44-1.priv"
        ))
        .is_err()
    );
    assert!(
        <SigningKey<MlDsa44> as DecodePrivateKey>::from_pkcs8_pem(&text(
            "rfc9881/bad-ML-DSA-44-3.priv"
        ))
        .is_err()
    );
    let no_seed = SigningKey::<MlDsa65>::from_expanded(sk.to_expanded_bytes().as_ref()).unwrap();
    let doc = EncodePrivateKey::to_pkcs8_der(&no_seed).unwrap();
    assert_eq!(
        doc.as_bytes(),
        sk.to_pkcs8_der(KeyForm::Expanded).unwrap().as_slice()
    );
}

// ---------------------------------------------------------------------------------------------
// Encrypted PKCS#8
// ---------------------------------------------------------------------------------------------

#[cfg(feature = "pkcs8-encryption")]
mod encrypted {
    use super::*;

    const PASSWORD: &[u8] = b"correct horse battery staple";

    /// PBKDF2 with the HMAC-SHA1 PRF (Bouncy Castle's and OpenSSL 1.x's default) is read.
    #[test]
    fn reads_pbkdf2_hmac_sha1_from_openssl() {
        let pem = String::from_utf8(data("mldsa44-openssl-pbkdf2-sha1.priv.enc.pem")).unwrap();
        let public = String::from_utf8(data("mldsa44-openssl-pbkdf2-sha1.pub.pem")).unwrap();
        let sk = SigningKey::<MlDsa44>::from_pkcs8_encrypted_pem(&pem, b"pw").unwrap();
        let vk = VerifyingKey::<MlDsa44>::from_public_key_pem(&public).unwrap();
        assert_eq!(sk.verifying_key().as_bytes(), vk.as_bytes());
        assert!(SigningKey::<MlDsa44>::from_pkcs8_encrypted_pem(&pem, b"wrong").is_err());
    }

    /// A counter "RNG", for reproducible salts and IVs.
    struct Counter(u8);

    impl mldsa::rand_core::TryRng for Counter {
        type Error = core::convert::Infallible;
        fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
            Ok(u32::from(self.next()))
        }
        fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
            Ok(u64::from(self.next()))
        }
        fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
            dst.iter_mut().for_each(|b| *b = self.next());
            Ok(())
        }
    }

    impl mldsa::rand_core::TryCryptoRng for Counter {}

    impl Counter {
        fn next(&mut self) -> u8 {
            self.0 = self.0.wrapping_add(1);
            self.0
        }
    }

    #[test]
    fn reads_the_peers_pbkdf2_aes256cbc_keys() {
        let sk = SigningKey::<MlDsa65>::from_seed(&seed_rfc());
        let k = SigningKey::<MlDsa65>::from_pkcs8_encrypted_pem(
            &text("mldsa65-rfc.priv.enc.pem"),
            PASSWORD,
        )
        .unwrap();
        assert_eq!(k.seed(), Some(&seed_rfc()));
        let k = SigningKey::<MlDsa65>::from_pkcs8_encrypted_der(
            &data("mldsa65-rfc.priv.enc.der"),
            PASSWORD,
        )
        .unwrap();
        assert_eq!(k.verifying_key(), sk.verifying_key());
        let (any, form) =
            AnySigningKey::from_pkcs8_encrypted_pem(&text("mldsa65-rfc.priv.enc.pem"), PASSWORD)
                .unwrap();
        assert_eq!((any.algorithm(), form), ("ML-DSA-65", KeyForm::Seed));

        // Wrong password, wrong set, unencrypted reader.
        let e = SigningKey::<MlDsa65>::from_pkcs8_encrypted_der(
            &data("mldsa65-rfc.priv.enc.der"),
            b"wrong",
        )
        .unwrap_err();
        assert_eq!(pkix(e), PkixError::Decryption);
        let e = SigningKey::<MlDsa44>::from_pkcs8_encrypted_der(
            &data("mldsa65-rfc.priv.enc.der"),
            PASSWORD,
        )
        .unwrap_err();
        assert_eq!(
            pkix(e),
            PkixError::WrongAlgorithm {
                expected: Algorithm::MlDsa44,
                found: Algorithm::MlDsa65
            }
        );
        let e =
            SigningKey::<MlDsa65>::from_pkcs8_pem(&text("mldsa65-rfc.priv.enc.pem")).unwrap_err();
        assert_eq!(pkix(e), PkixError::Encrypted);
        // An unencrypted document given to the encrypted reader.
        let e = SigningKey::<MlDsa65>::from_pkcs8_encrypted_pem(
            &text("mldsa65-rfc.priv.pem"),
            PASSWORD,
        )
        .unwrap_err();
        assert_eq!(
            pkix(e),
            PkixError::PemLabel {
                expected: PemLabel::EncryptedPrivateKey,
                found: PemLabel::PrivateKey
            }
        );
        let e = SigningKey::<MlDsa65>::from_pkcs8_encrypted_der(
            &data("mldsa65-rfc.priv.der"),
            PASSWORD,
        )
        .unwrap_err();
        assert!(matches!(
            pkix(e),
            PkixError::Der {
                at: Field::EncryptedPrivateKeyInfo,
                ..
            }
        ));
    }

    #[test]
    fn round_trips_with_scrypt() {
        let sk = SigningKey::<MlDsa87>::from_seed(&seed_ff());
        for form in [KeyForm::Seed, KeyForm::Both] {
            let pem = sk
                .to_pkcs8_encrypted_pem_with_rng(form, PASSWORD, &mut Counter(0))
                .unwrap();
            assert!(pem.starts_with("-----BEGIN ENCRYPTED PRIVATE KEY-----\n"));
            let (k, got) = AnySigningKey::from_pkcs8_encrypted_pem(&pem, PASSWORD).unwrap();
            assert_eq!(
                (k.verifying_key().as_bytes(), got),
                (sk.verifying_key().as_bytes(), form)
            );
            assert_eq!(
                pkix(SigningKey::<MlDsa87>::from_pkcs8_encrypted_pem(&pem, b"").unwrap_err()),
                PkixError::Decryption
            );
            // The same salt and IV give the same document.
            assert_eq!(
                sk.to_pkcs8_encrypted_pem_with_rng(form, PASSWORD, &mut Counter(0))
                    .unwrap(),
                pem
            );
        }
        let der = sk
            .to_pkcs8_encrypted_der(KeyForm::Expanded, "pässword")
            .unwrap();
        assert_eq!(der_kind(&der), Some(PemLabel::EncryptedPrivateKey));
        let k = SigningKey::<MlDsa87>::from_pkcs8_encrypted_der(&der, "pässword").unwrap();
        assert_eq!(k.seed(), None);
        assert_eq!(k.verifying_key(), sk.verifying_key());
    }

    #[test]
    fn refuses_unaffordable_key_derivation() {
        use mldsa::pkix::pkcs8::EncryptedPrivateKeyInfoRef;
        use mldsa::pkix::pkcs8::der::Encode;
        use mldsa::pkix::pkcs8::der::asn1::OctetStringRef;
        use mldsa::pkix::pkcs8::pkcs5::{pbes2, scrypt};

        let wrap = |params: pbes2::Parameters| {
            EncryptedPrivateKeyInfoRef {
                encryption_algorithm: params.into(),
                encrypted_data: OctetStringRef::new(&[0u8; 64]).unwrap(),
            }
            .to_der()
            .unwrap()
        };
        let salt = [1u8; 16];
        let iv = [2u8; 16];
        let pbkdf2 = |iterations: u32| {
            let mut params =
                pbes2::Parameters::generate_pbkdf2_sha256_aes256cbc(1000, &salt, iv).unwrap();
            let pbes2::Kdf::Pbkdf2(kdf) = &mut params.kdf else {
                unreachable!()
            };
            kdf.iteration_count = iterations;
            wrap(params)
        };
        let expensive = [
            pbkdf2(u32::MAX),
            pbkdf2(10_000_001),
            wrap(
                pbes2::Parameters::generate_scrypt_aes256cbc(
                    scrypt::Params::new(30, 8, 1).unwrap(),
                    &salt,
                    iv,
                )
                .unwrap(),
            ),
            wrap(
                pbes2::Parameters::generate_scrypt_aes256cbc(
                    scrypt::Params::new(17, 8, 1).unwrap(),
                    &salt,
                    iv,
                )
                .unwrap(),
            ),
            wrap(
                pbes2::Parameters::generate_scrypt_aes256cbc(
                    scrypt::Params::new(10, 8, 64).unwrap(),
                    &salt,
                    iv,
                )
                .unwrap(),
            ),
        ];
        for der in expensive {
            let e = AnySigningKey::from_pkcs8_encrypted_der(&der, PASSWORD).unwrap_err();
            assert_eq!(pkix(e), PkixError::EncryptionTooExpensive);
        }
        // Within the limits, the work is done (and the garbage ciphertext refused).
        let cheap = wrap(
            pbes2::Parameters::generate_scrypt_aes256cbc(
                scrypt::Params::new(16, 8, 1).unwrap(),
                &salt,
                iv,
            )
            .unwrap(),
        );
        assert_eq!(
            pkix(AnySigningKey::from_pkcs8_encrypted_der(&cheap, PASSWORD).unwrap_err()),
            PkixError::Decryption
        );
    }

    #[test]
    fn no_panics_on_mutated_encrypted_documents() {
        let base = data("mldsa65-rfc.priv.enc.der");
        let mut rng = XorShift(42);
        for _ in 0..300 {
            let mut doc = base.clone();
            let k = rng.below(doc.len());
            doc[k] ^= 1 << rng.below(8);
            if rng.below(3) == 0 {
                doc.truncate(rng.below(doc.len()));
            }
            let _ = AnySigningKey::from_pkcs8_encrypted_der(&doc, PASSWORD);
        }
    }
}
