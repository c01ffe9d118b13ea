//! The libraries under test, each behind the small [`Peer`] trait: one file per library.
//!
//! Every library works on the same key pair per parameter set (made by mldsa from a fixed seed and
//! exchanged in FIPS 204 encodings), signs pure ML-DSA with an empty context, and signs the same
//! messages. Deterministic signers therefore run exactly the same number of rejection-loop
//! iterations on each message, so their sign times are directly comparable sample by sample.
//!
//! The legacy CRYSTALS-Dilithium round 3 (v3.1) sets work the same way, with the v3.1 encodings
//! and no context (v3.1 has none), among the libraries of [`LEGACY_LIBS`].

mod aws_lc;
mod crystals_dilithium;
mod fips204;
mod libcrux;
mod liboqs;
mod ml_dsa;
pub mod mldsa;
pub mod mldsa_legacy;
mod mldsa_native;
mod pqcrypto;

/// The signature scheme a parameter set belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scheme {
    /// ML-DSA, FIPS 204.
    MlDsa,
    /// CRYSTALS-Dilithium round 3, specification v3.1 (February 2021): legacy, pre-FIPS 204.
    DilithiumR3,
}

impl Scheme {
    /// Short identifier, as in the JSON.
    pub fn id(self) -> &'static str {
        match self {
            Scheme::MlDsa => "ml-dsa",
            Scheme::DilithiumR3 => "dilithium-round3",
        }
    }
}

/// A parameter set: ML-DSA (FIPS 204), or legacy CRYSTALS-Dilithium round 3 (v3.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamSet {
    P44,
    P65,
    P87,
    /// Dilithium2 of round 3 (v3.1).
    D2,
    /// Dilithium3 of round 3 (v3.1).
    D3,
    /// Dilithium5 of round 3 (v3.1).
    D5,
    // Appended, so the sets above keep their numbers (which seed their keys and messages).
    /// Dilithium2-AES of round 3 (v3.1 section 5.3: AES-256-CTR behind the samplers).
    D2Aes,
    /// Dilithium3-AES of round 3 (v3.1).
    D3Aes,
    /// Dilithium5-AES of round 3 (v3.1).
    D5Aes,
}

impl ParamSet {
    /// The ML-DSA sets.
    pub const ALL: [ParamSet; 3] = [ParamSet::P44, ParamSet::P65, ParamSet::P87];
    /// The legacy Dilithium round 3 (v3.1) sets, each SHAKE set beside its AES twin.
    pub const LEGACY: [ParamSet; 6] = [
        ParamSet::D2,
        ParamSet::D2Aes,
        ParamSet::D3,
        ParamSet::D3Aes,
        ParamSet::D5,
        ParamSet::D5Aes,
    ];

    pub fn name(self) -> &'static str {
        match self {
            ParamSet::P44 => "ML-DSA-44",
            ParamSet::P65 => "ML-DSA-65",
            ParamSet::P87 => "ML-DSA-87",
            ParamSet::D2 => "Dilithium2",
            ParamSet::D3 => "Dilithium3",
            ParamSet::D5 => "Dilithium5",
            ParamSet::D2Aes => "Dilithium2-AES",
            ParamSet::D3Aes => "Dilithium3-AES",
            ParamSet::D5Aes => "Dilithium5-AES",
        }
    }

    pub fn scheme(self) -> Scheme {
        match self {
            ParamSet::P44 | ParamSet::P65 | ParamSet::P87 => Scheme::MlDsa,
            ParamSet::D2 | ParamSet::D3 | ParamSet::D5 => Scheme::DilithiumR3,
            ParamSet::D2Aes | ParamSet::D3Aes | ParamSet::D5Aes => Scheme::DilithiumR3,
        }
    }

    /// Whether this is one of the v3.1 AES sets, which only mldsa runs here (the peer
    /// libraries of [`LEGACY_LIBS`] are built with the SHAKE sets only).
    pub fn is_aes(self) -> bool {
        matches!(self, ParamSet::D2Aes | ParamSet::D3Aes | ParamSet::D5Aes)
    }

    pub fn is_legacy(self) -> bool {
        self.scheme() == Scheme::DilithiumR3
    }

    pub fn sig_len(self) -> usize {
        match self {
            ParamSet::P44 => 2420,
            ParamSet::P65 => 3309,
            ParamSet::P87 => 4627,
            ParamSet::D2 | ParamSet::D2Aes => 2420,
            ParamSet::D3 | ParamSet::D3Aes => 3293,
            ParamSet::D5 | ParamSet::D5Aes => 4595,
        }
    }
}

/// For the `load` of an ML-DSA-only library, which main.rs never calls with a legacy set.
pub fn not_mldsa(ps: ParamSet) -> ! {
    unreachable!("{} is not an ML-DSA parameter set", ps.name())
}

/// One key pair, shared by all libraries: in FIPS 204 encodings for the ML-DSA sets, in the
/// v3.1 encodings for the legacy Dilithium sets.
pub struct Keys {
    pub seed: [u8; 32],
    pub pk: Vec<u8>,
    /// The expanded secret key (FIPS 204 skEncode; v3.1 `pack_sk` for the legacy sets).
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

/// mldsa first: it is the reference the others are checked against and compared to. Then mldsa
/// again on its portable backend and on AVX2 without AVX-512 (columns of their own, not peers:
/// see [`is_peer`]; the AVX2 one only where the CPU has AVX-512).
pub const LIBS: &[Lib] = &[
    mldsa::LIB,
    mldsa::PORTABLE_LIB,
    mldsa::AVX2_LIB,
    libcrux::LIB,
    mldsa_native::LIB,
    aws_lc::LIB,
    pqcrypto::LIB,
    ml_dsa::LIB,
    fips204::LIB,
];

/// Whether the library of this name is a peer, i.e. not mldsa itself in one of its
/// configurations: "mldsa / fastest peer" is taken over the peers only.
pub fn is_peer(name: &str) -> bool {
    name != mldsa::LIB.name && name != mldsa::PORTABLE_LIB.name && name != mldsa::AVX2_LIB.name
}

/// Libraries left out, with the reason (empty while every peer builds here).
pub const EXCLUDED: &[(&str, &str)] = &[];

/// The legacy Dilithium round 3 (v3.1) rows: mldsa's `legacy` module first (the reference), then
/// the peers that implement v3.1 itself.
pub const LEGACY_LIBS: &[Lib] = &[mldsa_legacy::LIB, liboqs::LIB, crystals_dilithium::LIB];

/// Round-3 Dilithium crates left out of the legacy rows, with the reason.
pub const LEGACY_EXCLUDED: &[(&str, &str)] = &[
    (
        "pqcrypto-dilithium 0.5.0",
        "not v3.1: it is PQClean's later Dilithium (64-byte tr), whose secret keys are 2560 / \
         4032 / 4896 bytes where v3.1's are 2528 / 4000 / 4864, so it neither reads v3.1 keys \
         nor makes v3.1 signatures",
    ),
    (
        "pqc_dilithium 0.2.0",
        "v3.1 sizes, but the level is a crate feature (one of Dilithium2/3/5 per build) and a \
         secret key cannot be imported (Keypair::generate draws a random one), so it cannot \
         sign with the shared key",
    ),
];
