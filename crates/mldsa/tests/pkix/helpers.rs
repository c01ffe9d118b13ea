//! Shared by the pkix tests: the test data in `tests/pkix/`, hand-built DER (TLVs, OIDs,
//! OneAsymmetricKey, SubjectPublicKeyInfo), an independent Base64 and PEM wrapping.

use std::path::PathBuf;

use mldsa::Error;
use mldsa::pkix::{Algorithm, PkixError};

pub(crate) fn data_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/pkix")
        .join(name)
}

pub(crate) fn data(name: &str) -> Vec<u8> {
    std::fs::read(data_path(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

pub(crate) fn text(name: &str) -> String {
    String::from_utf8(data(name)).unwrap()
}

/// RFC 9881's example seed 00 01 .. 1f.
pub(crate) fn seed_rfc() -> [u8; 32] {
    core::array::from_fn(|i| i as u8)
}

/// The second seed of the peer data: ff fe .. e0.
pub(crate) fn seed_ff() -> [u8; 32] {
    core::array::from_fn(|i| 0xff - i as u8)
}

pub(crate) fn pkix(e: Error) -> PkixError {
    match e {
        Error::Pkix(p) => p,
        other => panic!("expected a PKIX error, got {other:?}"),
    }
}

/// A DER element with a definite, minimal length.
pub(crate) fn tlv(tag: u8, contents: &[u8]) -> Vec<u8> {
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

pub(crate) fn cat(parts: &[&[u8]]) -> Vec<u8> {
    parts.concat()
}

pub(crate) const OID_PREFIX: [u8; 8] = [0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03];

pub(crate) fn oid_of(alg: Algorithm) -> Vec<u8> {
    let last = match alg {
        Algorithm::MlDsa44 => 0x11,
        Algorithm::MlDsa65 => 0x12,
        Algorithm::MlDsa87 => 0x13,
    };
    tlv(0x06, &cat(&[&OID_PREFIX, &[last]]))
}

pub(crate) fn alg_id(alg: Algorithm) -> Vec<u8> {
    tlv(0x30, &oid_of(alg))
}

/// A OneAsymmetricKey from its parts (contents of each element given whole).
pub(crate) fn one_asymmetric_key(
    version: &[u8],
    alg_id: &[u8],
    inner: &[u8],
    rest: &[u8],
) -> Vec<u8> {
    tlv(
        0x30,
        &cat(&[&tlv(0x02, version), alg_id, &tlv(0x04, inner), rest]),
    )
}

pub(crate) fn seed_inner(seed: &[u8]) -> Vec<u8> {
    tlv(0x80, seed)
}

pub(crate) fn both_inner(seed: &[u8], expanded: &[u8]) -> Vec<u8> {
    tlv(0x30, &cat(&[&tlv(0x04, seed), &tlv(0x04, expanded)]))
}

pub(crate) fn public_key_field(pk: &[u8]) -> Vec<u8> {
    tlv(0x81, &cat(&[&[0], pk]))
}

pub(crate) fn spki(alg_id: &[u8], pk: &[u8]) -> Vec<u8> {
    tlv(0x30, &cat(&[alg_id, &tlv(0x03, &cat(&[&[0], pk]))]))
}

/// xorshift64*: reproducible randomness for the no-panic tests.
pub(crate) struct XorShift(pub(crate) u64);

impl XorShift {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

pub(crate) const B64: &[u8; 64] =
    b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Base64 (RFC 4648, padded), written out here to stay independent of the library's codec.
pub(crate) fn base64_encode(bytes: &[u8]) -> String {
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

pub(crate) fn base64_decode(text: &str) -> Vec<u8> {
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

pub(crate) fn pem_wrap(label: &str, der: &[u8], width: usize, eol: &str) -> String {
    let b64 = base64_encode(der);
    let mut out = format!("-----BEGIN {label}-----{eol}");
    for chunk in b64.as_bytes().chunks(width) {
        out.push_str(std::str::from_utf8(chunk).unwrap());
        out.push_str(eol);
    }
    out.push_str(&format!("-----END {label}-----{eol}"));
    out
}
/// Decodes PEM with an independent Base64 decoder.
pub(crate) fn pem_der(pem: &str) -> Vec<u8> {
    let body: String = pem.lines().filter(|l| !l.starts_with("-----")).collect();
    base64_decode(&body)
}
