//! Errors carry no secrets, and random or mutated documents never panic a decoder.

use mldsa::pkix::{
    Algorithm, AnySigningKey, AnyVerifyingKey, KeyForm, PkixError, der_algorithm, der_kind,
    pem_label,
};
use mldsa::{Error, MlDsa44, MlDsa65, MlDsa87, SigningKey, VerifyingKey};

use crate::helpers::*;

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

pub(crate) fn read_everything(bytes: &[u8]) {
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
