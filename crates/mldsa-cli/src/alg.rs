//! The signature algorithms the command knows, and their sizes.

use clap::ValueEnum;

/// A parameter set: the three ML-DSA ones, and the legacy Dilithium round-3 ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Alg {
    /// ML-DSA-44 (FIPS 204, NIST category 2).
    #[value(name = "ML-DSA-44", alias = "mldsa44", alias = "ml-dsa-44")]
    MlDsa44,
    /// ML-DSA-65 (FIPS 204, category 3).
    #[value(name = "ML-DSA-65", alias = "mldsa65", alias = "ml-dsa-65")]
    MlDsa65,
    /// ML-DSA-87 (FIPS 204, category 5).
    #[value(name = "ML-DSA-87", alias = "mldsa87", alias = "ml-dsa-87")]
    MlDsa87,
    /// Dilithium2, legacy CRYSTALS-Dilithium round 3 (v3.1). Not ML-DSA.
    #[value(name = "Dilithium2", alias = "dilithium2")]
    Dilithium2,
    /// Dilithium3, legacy round 3 (v3.1).
    #[value(name = "Dilithium3", alias = "dilithium3")]
    Dilithium3,
    /// Dilithium5, legacy round 3 (v3.1).
    #[value(name = "Dilithium5", alias = "dilithium5")]
    Dilithium5,
    /// Dilithium2-AES, legacy round 3 (v3.1 section 5.3: AES-256-CTR sampling).
    #[value(
        name = "Dilithium2-AES",
        alias = "dilithium2-aes",
        alias = "dilithium2aes"
    )]
    Dilithium2Aes,
    /// Dilithium3-AES, legacy round 3 (v3.1 section 5.3).
    #[value(
        name = "Dilithium3-AES",
        alias = "dilithium3-aes",
        alias = "dilithium3aes"
    )]
    Dilithium3Aes,
    /// Dilithium5-AES, legacy round 3 (v3.1 section 5.3).
    #[value(
        name = "Dilithium5-AES",
        alias = "dilithium5-aes",
        alias = "dilithium5aes"
    )]
    Dilithium5Aes,
}

/// Every algorithm, in display order.
pub const ALL: [Alg; 9] = [
    Alg::MlDsa44,
    Alg::MlDsa65,
    Alg::MlDsa87,
    Alg::Dilithium2,
    Alg::Dilithium3,
    Alg::Dilithium5,
    Alg::Dilithium2Aes,
    Alg::Dilithium3Aes,
    Alg::Dilithium5Aes,
];

impl Alg {
    /// The name, as printed and as accepted by `-a`.
    pub fn name(self) -> &'static str {
        match self {
            Alg::MlDsa44 => "ML-DSA-44",
            Alg::MlDsa65 => "ML-DSA-65",
            Alg::MlDsa87 => "ML-DSA-87",
            Alg::Dilithium2 => "Dilithium2",
            Alg::Dilithium3 => "Dilithium3",
            Alg::Dilithium5 => "Dilithium5",
            Alg::Dilithium2Aes => "Dilithium2-AES",
            Alg::Dilithium3Aes => "Dilithium3-AES",
            Alg::Dilithium5Aes => "Dilithium5-AES",
        }
    }

    /// Whether this is a legacy (pre-FIPS 204) parameter set.
    pub fn is_legacy(self) -> bool {
        matches!(self, Alg::Dilithium2 | Alg::Dilithium3 | Alg::Dilithium5) || self.is_aes()
    }

    /// Whether this is a Dilithium v3.1 AES set. Its keys have the lengths of the SHAKE set of
    /// the same level, so a raw key is never guessed to be one: `-a` must name it.
    pub fn is_aes(self) -> bool {
        matches!(
            self,
            Alg::Dilithium2Aes | Alg::Dilithium3Aes | Alg::Dilithium5Aes
        )
    }

    /// (public key, expanded secret key, signature) lengths in bytes.
    pub fn sizes(self) -> (usize, usize, usize) {
        match self {
            Alg::MlDsa44 => (1312, 2560, 2420),
            Alg::MlDsa65 => (1952, 4032, 3309),
            Alg::MlDsa87 => (2592, 4896, 4627),
            Alg::Dilithium2 | Alg::Dilithium2Aes => (1312, 2528, 2420),
            Alg::Dilithium3 | Alg::Dilithium3Aes => (1952, 4000, 3293),
            Alg::Dilithium5 | Alg::Dilithium5Aes => (2592, 4864, 4595),
        }
    }
}

impl std::fmt::Display for Alg {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_match_the_library() {
        use mldsa::legacy::{
            Dilithium2, Dilithium2Aes, Dilithium3, Dilithium3Aes, Dilithium5, Dilithium5Aes,
        };
        use mldsa::{MlDsa44, MlDsa65, MlDsa87};
        assert_eq!(
            Alg::MlDsa44.sizes(),
            (MlDsa44::PK_LEN, MlDsa44::SK_LEN, MlDsa44::SIG_LEN)
        );
        assert_eq!(
            Alg::MlDsa65.sizes(),
            (MlDsa65::PK_LEN, MlDsa65::SK_LEN, MlDsa65::SIG_LEN)
        );
        assert_eq!(
            Alg::MlDsa87.sizes(),
            (MlDsa87::PK_LEN, MlDsa87::SK_LEN, MlDsa87::SIG_LEN)
        );
        let d2 = (Dilithium2::PK_LEN, Dilithium2::SK_LEN, Dilithium2::SIG_LEN);
        assert_eq!(Alg::Dilithium2.sizes(), d2);
        let d3 = (Dilithium3::PK_LEN, Dilithium3::SK_LEN, Dilithium3::SIG_LEN);
        assert_eq!(Alg::Dilithium3.sizes(), d3);
        let d5 = (Dilithium5::PK_LEN, Dilithium5::SK_LEN, Dilithium5::SIG_LEN);
        assert_eq!(Alg::Dilithium5.sizes(), d5);
        let d2 = (
            Dilithium2Aes::PK_LEN,
            Dilithium2Aes::SK_LEN,
            Dilithium2Aes::SIG_LEN,
        );
        assert_eq!(Alg::Dilithium2Aes.sizes(), d2);
        let d3 = (
            Dilithium3Aes::PK_LEN,
            Dilithium3Aes::SK_LEN,
            Dilithium3Aes::SIG_LEN,
        );
        assert_eq!(Alg::Dilithium3Aes.sizes(), d3);
        let d5 = (
            Dilithium5Aes::PK_LEN,
            Dilithium5Aes::SK_LEN,
            Dilithium5Aes::SIG_LEN,
        );
        assert_eq!(Alg::Dilithium5Aes.sizes(), d5);
    }
}
