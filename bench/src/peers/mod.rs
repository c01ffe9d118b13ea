//! The libraries under test, each behind the small [`Peer`] trait: one file per library.
//!
//! Every library works on the same key pair per parameter set (made by mldsa from a fixed seed and
//! exchanged in FIPS 204 encodings), signs pure ML-DSA with an empty context, and signs the same
//! messages. Deterministic signers therefore run exactly the same number of rejection-loop
//! iterations on each message, so their sign times are directly comparable sample by sample.

mod aws_lc;
mod fips204;
mod libcrux;
mod ml_dsa;
pub mod mldsa;
mod mldsa_native;
mod pqcrypto;

/// An ML-DSA parameter set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamSet {
    P44,
    P65,
    P87,
}

impl ParamSet {
    pub const ALL: [ParamSet; 3] = [ParamSet::P44, ParamSet::P65, ParamSet::P87];

    pub fn name(self) -> &'static str {
        match self {
            ParamSet::P44 => "ML-DSA-44",
            ParamSet::P65 => "ML-DSA-65",
            ParamSet::P87 => "ML-DSA-87",
        }
    }

    pub fn sig_len(self) -> usize {
        match self {
            ParamSet::P44 => 2420,
            ParamSet::P65 => 3309,
            ParamSet::P87 => 4627,
        }
    }
}

/// One key pair in FIPS 204 encodings, shared by all libraries.
pub struct Keys {
    pub seed: [u8; 32],
    pub pk: Vec<u8>,
    /// The expanded secret key (FIPS 204 skEncode).
    pub sk: Vec<u8>,
}

/// One library at one parameter set, holding the shared key pair in its own decoded form
/// ("warm"). Every method does one whole operation; signatures travel as bytes.
pub trait Peer {
    /// Key generation from a 32-byte seed (or from the library's own RNG where it takes none).
    fn keygen(&self, seed: &[u8; 32]);
    /// Signs `msg` (empty context) with the decoded key; writes the encoded signature to `sig`.
    fn sign(&self, msg: &[u8], sig: &mut [u8]);
    /// Signs from the encoded expanded secret key, decoding it first, as a C API is used.
    fn sign_cold(&self, sk: &[u8], msg: &[u8], sig: &mut [u8]);
    /// Verifies an encoded signature with the decoded public key.
    fn verify(&self, msg: &[u8], sig: &[u8]) -> bool;
    /// Verifies from the encoded public key, decoding it first.
    fn verify_cold(&self, pk: &[u8], msg: &[u8], sig: &[u8]) -> bool;
}

/// How a library generates keys and signs, as far as the benchmark is concerned.
pub struct Lib {
    pub name: &'static str,
    /// The crate, whose pinned version main.rs looks up in Cargo.toml.
    pub krate: &'static str,
    /// Key generation from the given 32-byte seed (else from the library's own RNG).
    pub seeded_keygen: bool,
    /// Deterministic signing (rnd = 0^32); else hedged, with fresh randomness per signature.
    pub deterministic: bool,
    /// What "warm" and "cold" mean for this library, and anything else worth knowing.
    pub note: &'static str,
    pub load: fn(ParamSet, &Keys) -> Box<dyn Peer>,
}

/// mldsa first: it is the reference the others are checked against and compared to.
pub const LIBS: &[Lib] = &[
    mldsa::LIB,
    libcrux::LIB,
    mldsa_native::LIB,
    aws_lc::LIB,
    pqcrypto::LIB,
    ml_dsa::LIB,
    fips204::LIB,
];

/// Libraries left out, with the reason (empty while every peer builds here).
pub const EXCLUDED: &[(&str, &str)] = &[];
