//! Shared helpers for the conformance tests (`acvp/`, `ref_kat.rs`).
//!
//! - [`vectors_dir`]: locates the read-only vector tree `../shared/vectors` next to the repository.
//! - [`hex_decode`] / [`hex_field`]: case-insensitive hex decoding with useful panic messages.
//! - [`NistDrbg`]: the AES-256-CTR DRBG from NIST's PQC `rng.c` (`randombytes_init` /
//!   `randombytes`), used by the `PQCsignKAT` harness.
//! - [`FixedRng`]: a `rand_core` RNG that hands out a fixed byte string once (used to inject a
//!   known `rnd` into the hedged signing API) and panics if asked for more.

#![allow(dead_code)] // each test binary uses a different subset

use std::path::PathBuf;

use aes::Aes256;
use aes::cipher::{Array, BlockCipherEncrypt, KeyInit};

/// `<repository root>/../shared/vectors`, i.e. `/work/shared/vectors` for `/work/main`.
///
/// Panics with an explanatory message when the folder is missing, so that a misconfigured
/// checkout fails loudly instead of "passing" with zero test cases.
pub fn vectors_dir() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/vectors");
    match dir.canonicalize() {
        Ok(d) if d.is_dir() => d,
        _ => panic!(
            "test vector directory not found: {} (expected the shared, read-only vector tree \
             `../shared/vectors` next to the repository root; the conformance tests cannot run \
             without it)",
            dir.display()
        ),
    }
}

/// Reads a file below [`vectors_dir`] to a string, panicking with the path on error.
pub fn read_vector_file(rel: &str) -> String {
    let path = vectors_dir().join(rel);
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read vector file {}: {e}", path.display()))
}

/// Case-insensitive hex decoding; "" decodes to an empty vector. Panics on malformed input.
pub fn hex_decode(s: &str) -> Vec<u8> {
    hex::decode(s.trim()).unwrap_or_else(|e| {
        let shown: String = s.chars().take(40).collect();
        panic!("malformed hex ({e}): {shown:?}...")
    })
}

/// Decodes hex into a fixed-size array, panicking (with `what` in the message) on a length
/// mismatch.
pub fn hex_array<const N: usize>(s: &str, what: &str) -> [u8; N] {
    let v = hex_decode(s);
    v.as_slice()
        .try_into()
        .unwrap_or_else(|_| panic!("{what}: expected {N} bytes, got {}", v.len()))
}

/// Short hex rendering of a byte slice for failure messages (first differing position, length).
pub fn describe_diff(got: &[u8], want: &[u8]) -> String {
    if got.len() != want.len() {
        return format!("length {} != expected {}", got.len(), want.len());
    }
    match got.iter().zip(want).position(|(a, b)| a != b) {
        None => "equal".to_string(),
        Some(i) => {
            let end = (i + 8).min(got.len());
            format!(
                "first difference at byte {i} of {}: got {}.. want {}..",
                got.len(),
                hex::encode(&got[i..end]),
                hex::encode(&want[i..end])
            )
        }
    }
}

// ---------------------------------------------------------------------------------------------
// NIST PQC AES-256-CTR DRBG (rng.c)
// ---------------------------------------------------------------------------------------------

/// The AES-256-CTR DRBG of NIST's PQC reference `rng.c` (no derivation function, no
/// personalization string, no reseeding), as used by every `PQCgenKAT_sign` harness.
pub struct NistDrbg {
    key: [u8; 32],
    v: [u8; 16],
}

impl NistDrbg {
    /// `randombytes_init(entropy_input, NULL, 256)`.
    pub fn new(entropy_input: &[u8; 48]) -> Self {
        let mut d = NistDrbg {
            key: [0; 32],
            v: [0; 16],
        };
        d.update(Some(entropy_input));
        d
    }

    fn increment_v(&mut self) {
        // 128-bit big-endian counter (rng.c increments bytes 15 down to 0 with carry).
        let x = u128::from_be_bytes(self.v).wrapping_add(1);
        self.v = x.to_be_bytes();
    }

    fn aes_block(&self, input: &[u8; 16]) -> [u8; 16] {
        let cipher = Aes256::new(&Array::from(self.key));
        let mut block = Array::from(*input);
        cipher.encrypt_block(&mut block);
        block.into()
    }

    /// `AES256_CTR_DRBG_Update(provided_data, Key, V)`.
    fn update(&mut self, provided_data: Option<&[u8; 48]>) {
        let mut temp = [0u8; 48];
        for i in 0..3 {
            self.increment_v();
            let out = self.aes_block(&self.v);
            temp[16 * i..16 * (i + 1)].copy_from_slice(&out);
        }
        if let Some(p) = provided_data {
            for (t, b) in temp.iter_mut().zip(p) {
                *t ^= b;
            }
        }
        self.key.copy_from_slice(&temp[..32]);
        self.v.copy_from_slice(&temp[32..]);
    }

    /// `randombytes(out, out.len())`.
    pub fn fill(&mut self, out: &mut [u8]) {
        for chunk in out.chunks_mut(16) {
            self.increment_v();
            let block = self.aes_block(&self.v);
            chunk.copy_from_slice(&block[..chunk.len()]);
        }
        self.update(None);
    }

    /// `randombytes` into a fresh vector of `n` bytes.
    pub fn bytes(&mut self, n: usize) -> Vec<u8> {
        let mut v = vec![0u8; n];
        self.fill(&mut v);
        v
    }

    /// `randombytes` into a fixed-size array.
    pub fn array<const N: usize>(&mut self) -> [u8; N] {
        let mut a = [0u8; N];
        self.fill(&mut a);
        a
    }
}

// ---------------------------------------------------------------------------------------------
// Fixed-output RNG
// ---------------------------------------------------------------------------------------------

/// An RNG that returns exactly the bytes it was given (normally a 32-byte ML-DSA `rnd`) and
/// panics if asked for more. It implements `TryCryptoRng` so it can be passed to
/// `sign_with_rng`; it is obviously not secure and exists only to reproduce known answers.
pub struct FixedRng {
    data: Vec<u8>,
    pos: usize,
}

impl FixedRng {
    pub fn new(data: &[u8]) -> Self {
        FixedRng {
            data: data.to_vec(),
            pos: 0,
        }
    }

    /// Bytes not yet handed out.
    pub fn remaining(&self) -> usize {
        self.data.len() - self.pos
    }

    fn take(&mut self, n: usize) -> &[u8] {
        assert!(
            n <= self.remaining(),
            "FixedRng: asked for {n} bytes but only {} of {} remain (the library drew more \
             randomness than the 32-byte rnd of FIPS 204)",
            self.remaining(),
            self.data.len()
        );
        let s = &self.data[self.pos..self.pos + n];
        self.pos += n;
        s
    }
}

impl rand_core::TryRng for FixedRng {
    type Error = core::convert::Infallible;

    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        Ok(u32::from_le_bytes(self.take(4).try_into().unwrap()))
    }

    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        Ok(u64::from_le_bytes(self.take(8).try_into().unwrap()))
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        let n = dst.len();
        dst.copy_from_slice(self.take(n));
        Ok(())
    }
}

impl rand_core::TryCryptoRng for FixedRng {}

// ---------------------------------------------------------------------------------------------
// Self-tests of the helpers (run as part of every test binary that includes this module)
// ---------------------------------------------------------------------------------------------

/// Checks the DRBG against the first two entries of the pq-crystals ML-DSA-44 KAT file, which
/// were produced by `randombytes_init(00..2F)` followed by `randombytes(seed, 48)` and
/// `randombytes(msg, mlen)` per entry.
pub fn drbg_self_test() {
    let mut entropy = [0u8; 48];
    for (i, b) in entropy.iter_mut().enumerate() {
        *b = i as u8;
    }
    let mut d = NistDrbg::new(&entropy);
    let seed0 = d.bytes(48);
    let msg0 = d.bytes(33);
    assert_eq!(
        hex::encode_upper(&seed0),
        "061550234D158C5EC95595FE04EF7A25767F2E24CC2BC479D09D86DC9ABCFDE7056A8C266F9EF97ED08541DBD2E1FFA1",
        "NIST DRBG self-test: first seed"
    );
    assert_eq!(
        hex::encode_upper(&msg0),
        "D81C4D8D734FCBFBEADE3D3F8A039FAA2A2C9957E835AD55B22E75BF57BB556AC8",
        "NIST DRBG self-test: first msg"
    );
}

/// One `key = value` entry of a `.kat` / `.rsp` file, in file order.
pub struct Entry {
    pub fields: Vec<(String, String)>,
}

impl Entry {
    pub fn get(&self, key: &str) -> Result<&str, String> {
        self.fields
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
            .ok_or_else(|| format!("missing field `{key}`"))
    }

    pub fn hex(&self, key: &str) -> Result<Vec<u8>, String> {
        Ok(hex_decode(self.get(key)?))
    }

    pub fn num(&self, key: &str) -> Result<usize, String> {
        self.get(key)?
            .trim()
            .parse()
            .map_err(|e| format!("field `{key}` is not a number: {e}"))
    }
}

/// Splits a file into blank-line separated entries of `key = value` lines. Lines starting with
/// `#` are ignored (the files here have none).
pub fn parse_entries(text: &str) -> Vec<Entry> {
    let mut out = Vec::new();
    let mut cur: Vec<(String, String)> = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() {
            if !cur.is_empty() {
                out.push(Entry {
                    fields: std::mem::take(&mut cur),
                });
            }
            continue;
        }
        if line.starts_with('#') {
            continue;
        }
        let (k, v) = line
            .split_once('=')
            .unwrap_or_else(|| panic!("malformed line: {line:.60}"));
        cur.push((k.trim().to_string(), v.trim().to_string()));
    }
    if !cur.is_empty() {
        out.push(Entry { fields: cur });
    }
    out
}
