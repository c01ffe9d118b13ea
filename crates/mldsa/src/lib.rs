//! ML-DSA (NIST FIPS 204, the Module-Lattice-Based Digital Signature Standard), in Rust.
//!
//! # Goals, in order
//!
//! 1. **Correct**: byte for byte FIPS 204; every public NIST vector passes.
//! 2. **Secure**: constant time on secrets (no branch, table index or division depends on a
//!    secret); strict parsing of every untrusted input; no panic on any input; secrets zeroised.
//! 3. **Readable**: a reviewer can hold the code next to FIPS 204 and tick it off, algorithm by
//!    algorithm (see the spec map below).
//! 4. **Fast**, without giving up any of the above.
//!
//! When two goals collide the earlier wins, and the code says so.
//!
//! # Usage
//!
//! ```
//! use mldsa::{MlDsa65, SigningKey};
//!
//! # fn main() -> Result<(), mldsa::Error> {
//! let sk = SigningKey::<MlDsa65>::generate()?;         // ML-DSA.KeyGen, OS randomness
//! let sig = sk.sign(b"hello", b"my-protocol v1")?;     // hedged ML-DSA.Sign with a context
//! let vk = sk.verifying_key();
//! vk.verify(b"hello", b"my-protocol v1", &sig)?;       // ML-DSA.Verify
//!
//! // Keys and signatures travel as FIPS 204 bytes (or as the 32-byte seed).
//! let vk2 = mldsa::VerifyingKey::<MlDsa65>::from_bytes(vk.as_bytes())?;
//! let sig2 = mldsa::Signature::<MlDsa65>::from_bytes(sig.as_bytes())?;
//! assert!(vk2.verify(b"hello", b"wrong context", &sig2).is_err());
//! # Ok(())
//! # }
//! ```
//!
//! Other front doors, all sharing one signing and one verification routine:
//! HashML-DSA ([`SigningKey::sign_prehashed_with_rng`], [`PreHashed`]), deterministic signing
//! ([`SigningKey::sign_deterministic`]), streaming ([`SigningKey::message_signer`],
//! [`VerifyingKey::message_verifier`]), external mu ([`VerifyingKey::compute_mu`],
//! [`MuBuilder`], [`SigningKey::sign_mu`], [`VerifyingKey::verify_mu`]) and the internal
//! interface ([`SigningKey::sign_internal`], [`VerifyingKey::verify_internal`]). The
//! [`signature`] crate's traits are implemented for use in generic code.
//!
//! # Features
//!
//! - `std` (default): `std::io::Write` for the streaming types; implies `alloc` and `getrandom`.
//! - `alloc`: prepared keys ([`SigningKey::prepare`], [`VerifyingKey::prepare`]: the matrix
//!   A-hat kept on the heap for signing or verifying many messages with one key) and richer
//!   `signature::Error` values.
//! - `parallel`: batch signing and verification across all cores (the `batch` module, on
//!   rayon).
//! - `getrandom`: operating-system randomness ([`SigningKey::generate`], [`SigningKey::sign`],
//!   `signature::Signer`). Without it, pass a `rand_core::TryCryptoRng`.
//! - `pkcs8`: RFC 9881 key containers in `pkix` (SubjectPublicKeyInfo, PKCS#8; DER and PEM);
//!   implies `alloc`. `pkcs8-encryption` adds password-encrypted PKCS#8.
//!
//! # Backends
//!
//! The arithmetic, sampling and hashing kernels have a portable implementation and, on x86-64,
//! an AVX2 one (vectorised NTT, rounding and a 4-way Keccak). The fastest one the CPU supports
//! is chosen at run time, once; [`backend::force_portable`] (or `MLDSA_BACKEND=portable` in the
//! environment, with `std`) forces the portable one. Both give identical bytes.
//!
//! # Glossary: spec symbols in code
//!
//! | FIPS 204 | code | meaning |
//! | --- | --- | --- |
//! | xi | `xi`, `seed` | 32-byte key-generation seed |
//! | rho, rho', rho'' | `rho`, `rho_prime`, `rho_pp` | seeds of A, of (s1, s2), of the mask y |
//! | K | `k` | 32-byte signing secret |
//! | tr | `tr` | H(pk, 64) |
//! | mu | `mu` | message representative H(tr \|\| M', 64) |
//! | A-hat, s1-hat ... | `a_hat`, `s1_hat` ... | NTT-domain values (`NttPoly`) |
//! | c-tilde | `c_tilde` | commitment hash |
//! | kappa | `kappa` | mask counter |
//! | w1, t0, t1, z, h | same | as in the spec |
//!
//! # Spec map
//!
//! Every FIPS 204 algorithm, where it lives. Each implementing function's documentation starts
//! with `FIPS 204 Algorithm N, Name.`; a test checks that this table and those tags agree.
//!
//! | Alg. | Name | Implemented by |
//! | --- | --- | --- |
//! | 1 | ML-DSA.KeyGen | `SigningKey::generate_with_rng` |
//! | 2 | ML-DSA.Sign | `SigningKey::sign_with_rng` |
//! | 3 | ML-DSA.Verify | `VerifyingKey::verify` |
//! | 4 | HashML-DSA.Sign | `SigningKey::sign_prehashed_with_rng` |
//! | 5 | HashML-DSA.Verify | `VerifyingKey::verify_prehashed` |
//! | 6 | ML-DSA.KeyGen_internal | `keygen::keygen_internal` |
//! | 7 | ML-DSA.Sign_internal | `sign::sign_internal` |
//! | 8 | ML-DSA.Verify_internal | `verify::verify_internal` |
//! | 9 | IntegerToBits | `pack::pack_bits` (fused) |
//! | 10 | BitsToInteger | `pack::unpack_bits` (fused) |
//! | 11 | IntegerToBytes | `pack::integer_to_bytes_2` |
//! | 12 | BitsToBytes | `pack::pack_bits` (fused) |
//! | 13 | BytesToBits | `pack::unpack_bits` (fused) |
//! | 14 | CoeffFromThreeBytes | `sample::coeff_from_three_bytes` |
//! | 15 | CoeffFromHalfByte | `sample::coeff_from_half_byte` |
//! | 16 | SimpleBitPack | `pack::simple_bit_pack` |
//! | 17 | BitPack | `pack::bit_pack` |
//! | 18 | SimpleBitUnpack | `pack::simple_bit_unpack` |
//! | 19 | BitUnpack | `pack::bit_unpack` |
//! | 20 | HintBitPack | `pack::hint_bit_pack` |
//! | 21 | HintBitUnpack | `pack::hint_bit_unpack` |
//! | 22 | pkEncode | `encode::pk_encode` |
//! | 23 | pkDecode | `encode::pk_decode` |
//! | 24 | skEncode | `encode::sk_encode` |
//! | 25 | skDecode | `encode::sk_decode` |
//! | 26 | sigEncode | `encode::sig_encode` |
//! | 27 | sigDecode | `encode::sig_decode` |
//! | 28 | w1Encode | `encode::w1_encode` |
//! | 29 | SampleInBall | `sample::sample_in_ball` |
//! | 30 | RejNTTPoly | `sample::rej_ntt_poly` |
//! | 31 | RejBoundedPoly | `sample::rej_bounded_poly` |
//! | 32 | ExpandA | `sample::expand_a` |
//! | 33 | ExpandS | `sample::expand_s` |
//! | 34 | ExpandMask | `sample::expand_mask_polys` |
//! | 35 | Power2Round | `rounding::power2_round` |
//! | 36 | Decompose | `rounding::decompose` |
//! | 37 | HighBits | `rounding::high_bits` |
//! | 38 | LowBits | `rounding::low_bits` |
//! | 39 | MakeHint | `rounding::make_hint` |
//! | 40 | UseHint | `rounding::use_hint` |
//! | 41 | NTT | `ntt::ntt` |
//! | 42 | NTT^-1 | `ntt::ntt_inverse` |
//! | 43 | BitRev8 | `ntt::bit_rev8` |
//! | 44 | AddNTT | `ntt::matrix_vector_ntt` (fused) |
//! | 45 | MultiplyNTT | `ntt::multiply_ntt` |
//! | 46 | AddVectorNTT | `ntt::matrix_vector_ntt` (fused) |
//! | 47 | ScalarVectorNTT | `ntt::scalar_vector_ntt` (the reference in tests: signing multiplies by c sparsely, `sparse`) |
//! | 48 | MatrixVectorNTT | `ntt::matrix_vector_ntt` |
//! | 49 | MontgomeryReduce | `field::montgomery_reduce` |
//!
//! # Security notes
//!
//! See the repository's README for what is and is not claimed. In short: timing side channels
//! are addressed by construction (and, later, by tooling); power, EM and fault attacks are out of
//! scope beyond offering hedged signing by default.

#![cfg_attr(not(test), no_std)]
// docs.rs builds with all features and `--cfg docsrs`: mark feature-gated items with badges.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![deny(unsafe_code)]
#![warn(missing_docs)]

#[cfg(all(feature = "std", not(test)))]
extern crate std;

#[cfg(feature = "alloc")]
extern crate alloc;

/// `std::io::Write` for a type that absorbs bytes with `update` (streaming hashers and signers),
/// so `std::io::copy(&mut file, &mut signer)` streams a file through it.
macro_rules! write_via_update {
    ([$($generics:tt)*] $ty:ty) => {
        #[cfg(feature = "std")]
        impl<$($generics)*> std::io::Write for $ty {
            fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
                self.update(buf);
                Ok(buf.len())
            }

            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
    };
}

/// Counts calls of a kernel for the benchmark's profile (`profile.rs`); nothing without the
/// `profile` feature. `tick!(Kernel, n)`: n calls of `profile::Kernel::Kernel`.
#[cfg(feature = "profile")]
macro_rules! tick {
    ($kernel:ident, $n:expr) => {
        $crate::profile::tick($crate::profile::Kernel::$kernel, $n)
    };
}
#[cfg(not(feature = "profile"))]
macro_rules! tick {
    ($kernel:ident, $n:expr) => {};
}

// M-2, the unsafe budget: the crate denies `unsafe_code`, and every module but the two that
// need it (`backend`, for the AVX2 intrinsics in `backend/avx2/`, and `ct`, valgrind client
// requests) forbids it, so no inner `allow` can bring it back. `tests/unsafe_budget.rs` checks.
#[forbid(unsafe_code)]
mod aes_ctr;
pub mod backend;
#[cfg(feature = "parallel")]
#[forbid(unsafe_code)]
pub mod batch;
#[cfg(mldsa_ct)]
#[doc(hidden)]
pub mod ct;
#[cfg(mldsa_ct)]
#[doc(hidden)]
#[forbid(unsafe_code)]
pub mod ct_kernels;
#[doc(hidden)]
#[forbid(unsafe_code)]
pub mod declassify;
#[forbid(unsafe_code)]
mod encode;
#[forbid(unsafe_code)]
mod error;
#[forbid(unsafe_code)]
mod expanded;
#[forbid(unsafe_code)]
mod field;
#[forbid(unsafe_code)]
mod keccak;
#[forbid(unsafe_code)]
mod keygen;
#[forbid(unsafe_code)]
pub mod legacy;
#[forbid(unsafe_code)]
mod mask_stream;
#[forbid(unsafe_code)]
mod matrix;
#[forbid(unsafe_code)]
mod mu;
#[forbid(unsafe_code)]
mod ntt;
#[forbid(unsafe_code)]
mod pack;
#[forbid(unsafe_code)]
mod params;
#[cfg(feature = "pkcs8")]
#[forbid(unsafe_code)]
pub mod pkix;
#[forbid(unsafe_code)]
mod poly;
#[forbid(unsafe_code)]
mod prehash;
#[cfg(feature = "alloc")]
#[forbid(unsafe_code)]
mod prepared;
#[cfg(feature = "profile")]
#[doc(hidden)]
#[forbid(unsafe_code)]
pub mod profile;
#[forbid(unsafe_code)]
mod rng;
#[forbid(unsafe_code)]
mod rounding;
#[forbid(unsafe_code)]
mod sample;
#[forbid(unsafe_code)]
mod scratch;
#[forbid(unsafe_code)]
mod sig;
#[forbid(unsafe_code)]
mod sign;
#[forbid(unsafe_code)]
mod signing_key;
#[cfg(feature = "std")]
#[forbid(unsafe_code)]
mod spare;
#[forbid(unsafe_code)]
mod sparse;
#[cfg(any(test, feature = "profile"))]
#[forbid(unsafe_code)]
mod splitmix;
#[forbid(unsafe_code)]
mod stream;
#[forbid(unsafe_code)]
mod verify;
#[forbid(unsafe_code)]
mod verifying_key;

pub use crate::error::{Error, Input, Malformed};
pub use crate::matrix::PublicMatrix;
pub use crate::mu::MuBuilder;
pub use crate::params::{
    ByteArray, MAX_CONTEXT_LEN, MAX_SIGN_ATTEMPTS, MU_LEN, MlDsa44, MlDsa65, MlDsa87, ParameterSet,
    Parameters, SEED_LEN, SamplerXof, TR_LEN, Variant,
};
pub use crate::prehash::{PreHash, PreHashed, PreHasher, UnknownPreHash};
#[cfg(feature = "alloc")]
pub use crate::prepared::PreparedVerifyingKey;
pub use crate::sig::Signature;
pub use crate::signing_key::SigningKey;
pub use crate::stream::{MessageSigner, MessageVerifier};
pub use crate::verifying_key::VerifyingKey;
pub use rand_core;
pub use signature;

/// The README's usage example, compiled and run as a doctest so it cannot rot.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
struct ReadmeDoctests;
