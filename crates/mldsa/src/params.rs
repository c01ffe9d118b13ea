//! Parameter sets: FIPS 204 Table 1 (parameters) and Table 2 (sizes).
//!
//! Each parameter set is a zero-sized type implementing the sealed [`ParameterSet`] trait. The
//! trait carries the spec's constants as plain `const`s and, because stable Rust cannot write
//! `[Poly; P::K]`, concrete associated array types for the vectors and byte encodings whose
//! length depends on the set.

use crate::math::poly::{NttPoly, Poly, SmallPoly};
use zeroize::Zeroize;

pub use crate::math::field::Q;
pub use crate::math::rounding::D;
/// Length of tr = H(pk, 64) in bytes.
pub const TR_LEN: usize = 64;
/// Length of the signing seed xi, of rho, of K and of rnd in bytes.
pub const SEED_LEN: usize = 32;
/// Length of mu in bytes.
pub const MU_LEN: usize = 64;
/// Longest context string FIPS 204 allows (Alg. 2 step 1).
pub const MAX_CONTEXT_LEN: usize = 255;

/// FIPS 204 Appendix C, Table 3: Sign_internal may stop after no fewer than 814 attempts; a
/// correct implementation needs more with probability below 2^-256. We stop exactly there.
pub const MAX_SIGN_ATTEMPTS: u16 = 814;

mod sealed {
    pub trait Sealed {}
}

/// Which family of the algorithm a parameter set belongs to.
///
/// The legacy CRYSTALS-Dilithium round-3 (v3.1) sets are the same code as ML-DSA, differing in a
/// handful of constants and branches on this value, each citing the v3.1 specification.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    /// NIST FIPS 204 (August 2024).
    MlDsa,
    /// CRYSTALS-Dilithium as submitted to round 3 of the NIST process (specification v3.1,
    /// February 2021). Not wire-compatible with ML-DSA.
    DilithiumRound3,
}

/// The extendable output that ExpandA, ExpandS and ExpandMask draw from.
///
/// Every ML-DSA set and the Dilithium v3.1 SHAKE sets use SHAKE128 (ExpandA) and SHAKE256
/// (ExpandS, ExpandMask); the Dilithium v3.1 AES sets (v3.1 section 5.3) use AES-256 in counter
/// mode for all three. Nothing else differs between the two round-3 families.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SamplerXof {
    /// SHAKE128 and SHAKE256 (FIPS 204 Algorithms 32-34; Dilithium v3.1 section 5.1).
    Shake,
    /// AES-256-CTR keyed with the seed (Dilithium v3.1 section 5.3).
    Aes256Ctr,
}

/// A fixed-length byte array of a parameter set's encodings (public key, secret key, signature).
pub trait ByteArray:
    AsRef<[u8]> + AsMut<[u8]> + Clone + Copy + core::fmt::Debug + PartialEq + Eq + Zeroize + Send + Sync
{
    /// All zero bytes.
    fn zeroed() -> Self;
}

impl<const N: usize> ByteArray for [u8; N] {
    fn zeroed() -> Self {
        [0u8; N]
    }
}

pub use crate::support::zeroed::Zeroed;
#[cfg(feature = "alloc")]
pub(crate) use crate::support::zeroed::boxed_array;

/// A vector of `N` polynomials, in R_q or T_q (k or l entries, depending on the set).
pub trait PolyVec<T>: AsRef<[T]> + AsMut<[T]> + Clone + Zeroize + Send + Sync + Zeroed {
    /// The all-zero vector.
    fn zeroed() -> Self {
        Self::zero()
    }
}

impl<const N: usize> Zeroed for [Poly; N] {
    fn zero() -> Self {
        [Poly::ZERO; N]
    }
    #[cfg(feature = "alloc")]
    fn boxed_zeroed() -> alloc::boxed::Box<Self> {
        boxed_array(Poly::ZERO)
    }
}

impl<const N: usize> PolyVec<Poly> for [Poly; N] {}

impl<const N: usize> Zeroed for [SmallPoly; N] {
    fn zero() -> Self {
        [SmallPoly::ZERO; N]
    }
    #[cfg(feature = "alloc")]
    fn boxed_zeroed() -> alloc::boxed::Box<Self> {
        boxed_array(SmallPoly::ZERO)
    }
}

impl<const N: usize> PolyVec<SmallPoly> for [SmallPoly; N] {}

impl<const N: usize> Zeroed for [NttPoly; N] {
    fn zero() -> Self {
        [NttPoly::ZERO; N]
    }
    #[cfg(feature = "alloc")]
    fn boxed_zeroed() -> alloc::boxed::Box<Self> {
        boxed_array(NttPoly::ZERO)
    }
}

impl<const N: usize> PolyVec<NttPoly> for [NttPoly; N] {}

/// The k x l matrix A-hat of NTT-domain polynomials, stored row by row.
pub trait Matrix<Row>: AsRef<[Row]> + AsMut<[Row]> + Clone + Send + Sync + Zeroed {
    /// The all-zero matrix.
    fn zeroed() -> Self {
        Self::zero()
    }
}

impl<const L: usize, const K: usize> Zeroed for [[NttPoly; L]; K] {
    fn zero() -> Self {
        [[NttPoly::ZERO; L]; K]
    }
    #[cfg(feature = "alloc")]
    fn boxed_zeroed() -> alloc::boxed::Box<Self> {
        boxed_array([NttPoly::ZERO; L])
    }
}

impl<const L: usize, const K: usize> Matrix<[NttPoly; L]> for [[NttPoly; L]; K] {}

/// The constants of a parameter set (FIPS 204 Table 1 and Table 2), shared by ML-DSA and the
/// legacy Dilithium round-3 sets.
///
/// Sealed. Write bounds with [`ParameterSet`] (ML-DSA) or [`DilithiumParameterSet`] (legacy);
/// this trait carries the constants both have.
pub trait Parameters:
    sealed::Sealed + Copy + Clone + core::fmt::Debug + Default + Send + Sync + 'static
{
    /// The set's name, e.g. `"ML-DSA-65"` or `"Dilithium3"`.
    const NAME: &'static str;
    /// Algorithm family.
    const VARIANT: Variant;
    /// k, the number of rows of A.
    const K: usize;
    /// l, the number of columns of A.
    const L: usize;
    /// eta, the bound on the coefficients of s1 and s2.
    const ETA: i32;
    /// tau, the number of +-1 coefficients of the challenge c.
    const TAU: usize;
    /// beta = tau * eta.
    const BETA: i32;
    /// gamma1, the range of the mask y.
    const GAMMA1: i32;
    /// gamma2, the low-order rounding range.
    const GAMMA2: i32;
    /// omega, the maximum number of 1s in the hint h.
    const OMEGA: usize;
    /// lambda, the collision strength of c-tilde in bits.
    const LAMBDA: usize;
    /// The extendable output behind ExpandA, ExpandS and ExpandMask.
    const XOF: SamplerXof;

    /// Length of tr = H(pk) in bytes: 64 in FIPS 204; 32 in Dilithium v3.1 (section 5.2,
    /// tr = CRH(pk) with a 256-bit output).
    const TR_BYTES: usize = match Self::VARIANT {
        Variant::MlDsa => TR_LEN,
        Variant::DilithiumRound3 => 32,
    };
    /// Length of c-tilde in bytes: lambda / 4 in FIPS 204; 32 for every level in Dilithium v3.1
    /// (the challenge seed is a 256-bit hash).
    const C_TILDE_LEN: usize = match Self::VARIANT {
        Variant::MlDsa => Self::LAMBDA / 4,
        Variant::DilithiumRound3 => 32,
    };
    /// Bits per coefficient of the packed s1, s2: bitlen(2 eta).
    const ETA_BITS: usize = bitlen(2 * Self::ETA as u32);
    /// Bits per coefficient of the packed z: 1 + bitlen(gamma1 - 1).
    const Z_BITS: usize = 1 + bitlen(Self::GAMMA1 as u32 - 1);
    /// Bits per coefficient of w1Encode: bitlen((q - 1) / (2 gamma2) - 1).
    const W1_BITS: usize = bitlen(((Q - 1) / (2 * Self::GAMMA2) - 1) as u32);

    /// Public key length in bytes (FIPS 204 Table 2).
    const PK_LEN: usize = SEED_LEN + 32 * Self::K * 10;
    /// Expanded secret key length in bytes (FIPS 204 Table 2).
    const SK_LEN: usize = 2 * SEED_LEN
        + Self::TR_BYTES
        + 32 * ((Self::K + Self::L) * Self::ETA_BITS + Self::K * D as usize);
    /// Signature length in bytes (FIPS 204 Table 2).
    const SIG_LEN: usize = Self::C_TILDE_LEN + Self::L * 32 * Self::Z_BITS + Self::OMEGA + Self::K;
    /// Length of w1Encode(w1) in bytes.
    const W1_LEN: usize = Self::K * 32 * Self::W1_BITS;

    /// `[Poly; K]`.
    type VecK: PolyVec<Poly>;
    /// `[Poly; L]`.
    type VecL: PolyVec<Poly>;
    /// `[SmallPoly; K]` (s2).
    type SmallVecK: PolyVec<SmallPoly>;
    /// `[SmallPoly; L]` (s1).
    type SmallVecL: PolyVec<SmallPoly>;
    /// `[NttPoly; K]`.
    type NttVecK: PolyVec<NttPoly>;
    /// `[NttPoly; L]`.
    type NttVecL: PolyVec<NttPoly>;
    /// A-hat: `[[NttPoly; L]; K]`.
    type MatrixA: Matrix<Self::NttVecL>;
    /// Signing's working polynomials in one block, `[Poly; L + 3 K + 1]`: y, w, w1, r and one
    /// for products (`sign::SignScratch`).
    type SignPolys: PolyVec<Poly>;
    /// Signing's NTT-domain working polynomials in one block, `[NttPoly; L + 1]`: NTT(y) and
    /// one for products.
    type SignNttPolys: PolyVec<NttPoly>;
    /// `[u8; PK_LEN]`.
    type PkBytes: ByteArray;
    /// `[u8; SK_LEN]`.
    type SkBytes: ByteArray;
    /// `[u8; SIG_LEN]`.
    type SigBytes: ByteArray;
}

/// An ML-DSA parameter set (FIPS 204): [`MlDsa44`], [`MlDsa65`] or [`MlDsa87`].
///
/// The bound the ML-DSA key types take; all constants come from [`Parameters`].
pub trait ParameterSet: Parameters {}

/// Number of bits needed to write `x` (FIPS 204 section 2.3, bitlen).
pub const fn bitlen(x: u32) -> usize {
    (u32::BITS - x.leading_zeros()) as usize
}

macro_rules! parameter_set {
    (
        $(#[$doc:meta])* $name:ident, $str:literal, $variant:ident, $xof:ident, $marker:path,
        k: $k:literal, l: $l:literal, eta: $eta:literal, tau: $tau:literal,
        gamma1: $g1:expr, gamma2: $g2:expr, omega: $omega:literal, lambda: $lambda:literal,
        pk: $pk:literal, sk: $sk:literal, sig: $sig:literal
    ) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct $name;

        impl sealed::Sealed for $name {}

        // The sizes as inherent constants, so `MlDsa65::SIG_LEN` works without a trait import.
        impl $name {
            /// The set's name.
            pub const NAME: &'static str = $str;
            /// Public key length in bytes.
            pub const PK_LEN: usize = $pk;
            /// Secret key length in bytes (the expanded encoding).
            pub const SK_LEN: usize = $sk;
            /// Signature length in bytes.
            pub const SIG_LEN: usize = $sig;
        }

        impl $marker for $name {}

        impl Parameters for $name {
            const NAME: &'static str = $str;
            const VARIANT: Variant = Variant::$variant;
            const K: usize = $k;
            const L: usize = $l;
            const ETA: i32 = $eta;
            const TAU: usize = $tau;
            const BETA: i32 = $tau * $eta;
            const GAMMA1: i32 = $g1;
            const GAMMA2: i32 = $g2;
            const OMEGA: usize = $omega;
            const LAMBDA: usize = $lambda;
            const XOF: SamplerXof = SamplerXof::$xof;
            type VecK = [Poly; $k];
            type VecL = [Poly; $l];
            type SmallVecK = [SmallPoly; $k];
            type SmallVecL = [SmallPoly; $l];
            type NttVecK = [NttPoly; $k];
            type NttVecL = [NttPoly; $l];
            type MatrixA = [[NttPoly; $l]; $k];
            type SignPolys = [Poly; $l + 3 * $k + 1];
            type SignNttPolys = [NttPoly; $l + 1];
            type PkBytes = [u8; $pk];
            type SkBytes = [u8; $sk];
            type SigBytes = [u8; $sig];
        }

        // The sizes typed into the array types above must be the ones FIPS 204 Table 2 derives.
        const _: () = {
            assert!(<$name as Parameters>::PK_LEN == $pk);
            assert!(<$name as Parameters>::SK_LEN == $sk);
            assert!(<$name as Parameters>::SIG_LEN == $sig);
            // kappa never wraps its 16-bit encoding (FIPS 204 Alg. 34 step 3) within the bound,
            // nor do the mask polynomials signing makes past the last attempt's y (AVX2,
            // `backend/x86_64/avx2/mask_lanes.rs`, and NEON, `backend/aarch64/mask_lanes.rs`:
            // at most 9, so indices below that y's kappa + 2 l).
            assert!((MAX_SIGN_ATTEMPTS as usize + 2) * $l < 1 << 16);
        };
    };
}

parameter_set!(
    /// ML-DSA-44: NIST security category 2.
    MlDsa44, "ML-DSA-44", MlDsa, Shake, ParameterSet,
    k: 4, l: 4, eta: 2, tau: 39, gamma1: 1 << 17, gamma2: (Q - 1) / 88, omega: 80, lambda: 128,
    pk: 1312, sk: 2560, sig: 2420
);
parameter_set!(
    /// ML-DSA-65: NIST security category 3.
    MlDsa65, "ML-DSA-65", MlDsa, Shake, ParameterSet,
    k: 6, l: 5, eta: 4, tau: 49, gamma1: 1 << 19, gamma2: (Q - 1) / 32, omega: 55, lambda: 192,
    pk: 1952, sk: 4032, sig: 3309
);
parameter_set!(
    /// ML-DSA-87: NIST security category 5.
    MlDsa87, "ML-DSA-87", MlDsa, Shake, ParameterSet,
    k: 8, l: 7, eta: 2, tau: 60, gamma1: 1 << 19, gamma2: (Q - 1) / 32, omega: 75, lambda: 256,
    pk: 2592, sk: 4896, sig: 4627
);

/// Marker for the legacy CRYSTALS-Dilithium round-3 (v3.1) parameter sets: [`Dilithium2`],
/// [`Dilithium3`], [`Dilithium5`]. Used by `mldsa::legacy`.
pub trait DilithiumParameterSet: Parameters {}

// Dilithium v3.1 Table 2: the same k, l, eta, tau, gamma1, gamma2 and omega as the ML-DSA set of
// the same level; lambda does not exist there (c-tilde is always 32 bytes, see C_TILDE_LEN) and
// is set to the ML-DSA value only to keep the table uniform.
parameter_set!(
    /// Dilithium2 (round 3, v3.1): NIST security category 2. Legacy; use [`MlDsa44`].
    Dilithium2, "Dilithium2", DilithiumRound3, Shake, DilithiumParameterSet,
    k: 4, l: 4, eta: 2, tau: 39, gamma1: 1 << 17, gamma2: (Q - 1) / 88, omega: 80, lambda: 128,
    pk: 1312, sk: 2528, sig: 2420
);
parameter_set!(
    /// Dilithium3 (round 3, v3.1): NIST security category 3. Legacy; use [`MlDsa65`].
    Dilithium3, "Dilithium3", DilithiumRound3, Shake, DilithiumParameterSet,
    k: 6, l: 5, eta: 4, tau: 49, gamma1: 1 << 19, gamma2: (Q - 1) / 32, omega: 55, lambda: 192,
    pk: 1952, sk: 4000, sig: 3293
);
parameter_set!(
    /// Dilithium5 (round 3, v3.1): NIST security category 5. Legacy; use [`MlDsa87`].
    Dilithium5, "Dilithium5", DilithiumRound3, Shake, DilithiumParameterSet,
    k: 8, l: 7, eta: 2, tau: 60, gamma1: 1 << 19, gamma2: (Q - 1) / 32, omega: 75, lambda: 256,
    pk: 2592, sk: 4864, sig: 4595
);

// The AES variant of Dilithium v3.1 (section 5.3): the parameters and sizes of Dilithium2/3/5
// (Table 2), with AES-256-CTR instead of SHAKE behind ExpandA, ExpandS and ExpandMask. Its keys
// and signatures are not interchangeable with the SHAKE sets' ones.
parameter_set!(
    /// Dilithium2-AES (round 3, v3.1 section 5.3): Dilithium2 with AES-256-CTR sampling. Legacy.
    Dilithium2Aes, "Dilithium2-AES", DilithiumRound3, Aes256Ctr, DilithiumParameterSet,
    k: 4, l: 4, eta: 2, tau: 39, gamma1: 1 << 17, gamma2: (Q - 1) / 88, omega: 80, lambda: 128,
    pk: 1312, sk: 2528, sig: 2420
);
parameter_set!(
    /// Dilithium3-AES (round 3, v3.1 section 5.3): Dilithium3 with AES-256-CTR sampling. Legacy.
    Dilithium3Aes, "Dilithium3-AES", DilithiumRound3, Aes256Ctr, DilithiumParameterSet,
    k: 6, l: 5, eta: 4, tau: 49, gamma1: 1 << 19, gamma2: (Q - 1) / 32, omega: 55, lambda: 192,
    pk: 1952, sk: 4000, sig: 3293
);
parameter_set!(
    /// Dilithium5-AES (round 3, v3.1 section 5.3): Dilithium5 with AES-256-CTR sampling. Legacy.
    Dilithium5Aes, "Dilithium5-AES", DilithiumRound3, Aes256Ctr, DilithiumParameterSet,
    k: 8, l: 7, eta: 2, tau: 60, gamma1: 1 << 19, gamma2: (Q - 1) / 32, omega: 75, lambda: 256,
    pk: 2592, sk: 4864, sig: 4595
);

/// An ML-DSA parameter set, as named by an RFC 9881 algorithm identifier (`mldsa::pkix`). Defined
/// here, with the sets, so that the key-container errors (`error`) can name it; its methods
/// (names, OIDs, sizes) are in `pkix`.
#[cfg(feature = "pkcs8")]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// ML-DSA-44, id-ml-dsa-44 (2.16.840.1.101.3.4.3.17).
    MlDsa44,
    /// ML-DSA-65, id-ml-dsa-65 (2.16.840.1.101.3.4.3.18).
    MlDsa65,
    /// ML-DSA-87, id-ml-dsa-87 (2.16.840.1.101.3.4.3.19).
    MlDsa87,
}
