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
//! an AVX2 one (vectorised NTT, rounding and a 4-way Keccak) with AVX-512 variants, and on
//! wasm32 built with `simd128` a WebAssembly SIMD one (vectorised NTT, products, rounding). The
//! fastest one the CPU supports is chosen at run time, once (on wasm32, at build time);
//! [`backend::force_portable`] (or `MLDSA_BACKEND=portable` in the environment, with `std`)
//! forces the portable one. All give identical bytes.
//!
//! # Map of the floors
//!
//! The source is laid out in floors, one folder each, read bottom-up. A floor may import from
//! the floors below it and never from one above (unit-test modules aside);
//! `tests/floors.rs` reads this table and checks every `crate::` path in the source against it.
//! Where a lower floor needs something only a higher one can provide, the dependency is
//! inverted, and the module doc says how: a trait the lower floor defines and the backends
//! implement (`encoding::kernels::PackKernels`), a value passed in (the Keccak-f\[1600\] build a
//! sponge runs, `hash::keccak::Permutation`), or an impl placed on the higher floor (the
//! polynomials' `Zeroize`, in `backend/wipe.rs`).
//!
//! | floor | folder or file | holds | may import |
//! | --- | --- | --- | --- |
//! | 1 | `support` | constant-time hooks, declassification sites, scratch memory, profile counters | nothing of the crate |
//! | 2 | `math` | Z_q, R_q and T_q: field, polynomials, NTT (Alg. 41-49), rounding and hints (Alg. 35-40), sparse products | 1 |
//! | 3 | `params` | the parameter sets (FIPS 204 Tables 1-2) and their vector types | 1-2 |
//! | 4 | `error` | the error types | 1-3 |
//! | 5 | `encoding` | bit packing (Alg. 9-21), key and signature encodings (Alg. 22-28) | 1-4 |
//! | 6 | `hash` | Keccak and the SHAKE sponges, AES-256-CTR, the samplers (Alg. 14-15, 29-34) | 1-5 |
//! | 7 | `backend` | the kernel trait (its defaults are the portable reference), the dispatch, `x86_64/`, `wasm32/` | 1-6 |
//! | 8 | `algorithm` | KeyGen, Sign, Verify (Alg. 6-8, written once over the backend), mu and the pre-hashes, the expanded key | 1-7 |
//! | 9 | `keys` | `SigningKey`, `VerifyingKey`, `PreparedVerifyingKey`, `Signature`, `PublicMatrix` | 1-8 |
//! | 10 | `api` | front doors: streaming, batches, the round-3 Dilithium sets | 1-9 |
//! | 11 | `pkix` | RFC 9881 SPKI, PKCS#8 and PEM (feature `pkcs8`) | 1-10 |
//! | 12 | `diagnostics` | entry points for the constant-time harness and the profile | 1-11 |
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
//! | 6 | ML-DSA.KeyGen_internal | `algorithm::keygen::keygen_internal` |
//! | 7 | ML-DSA.Sign_internal | `algorithm::sign::sign_internal` |
//! | 8 | ML-DSA.Verify_internal | `algorithm::verify::verify_internal` |
//! | 9 | IntegerToBits | `encoding::pack::pack_bits` (fused) |
//! | 10 | BitsToInteger | `encoding::pack::unpack_bits` (fused) |
//! | 11 | IntegerToBytes | `encoding::pack::integer_to_bytes_2` |
//! | 12 | BitsToBytes | `encoding::pack::pack_bits` (fused) |
//! | 13 | BytesToBits | `encoding::pack::unpack_bits` (fused) |
//! | 14 | CoeffFromThreeBytes | `hash::sample::coeff_from_three_bytes` |
//! | 15 | CoeffFromHalfByte | `hash::sample::coeff_from_half_byte` |
//! | 16 | SimpleBitPack | `encoding::pack::simple_bit_pack` |
//! | 17 | BitPack | `encoding::pack::bit_pack` |
//! | 18 | SimpleBitUnpack | `encoding::pack::simple_bit_unpack` |
//! | 19 | BitUnpack | `encoding::pack::bit_unpack` |
//! | 20 | HintBitPack | `encoding::pack::hint_bit_pack` |
//! | 21 | HintBitUnpack | `encoding::pack::hint_bit_unpack` |
//! | 22 | pkEncode | `encoding::encode::pk_encode` |
//! | 23 | pkDecode | `encoding::encode::pk_decode` |
//! | 24 | skEncode | `encoding::encode::sk_encode` |
//! | 25 | skDecode | `encoding::encode::sk_decode` |
//! | 26 | sigEncode | `encoding::encode::sig_encode` |
//! | 27 | sigDecode | `encoding::encode::sig_decode` |
//! | 28 | w1Encode | `encoding::encode::w1_encode` |
//! | 29 | SampleInBall | `hash::sample::sample_in_ball` |
//! | 30 | RejNTTPoly | `hash::sample::rej_ntt_poly` |
//! | 31 | RejBoundedPoly | `hash::sample::rej_bounded_poly` |
//! | 32 | ExpandA | `hash::sample::expand_a` |
//! | 33 | ExpandS | `hash::sample::expand_s` |
//! | 34 | ExpandMask | `hash::sample::expand_mask_polys` |
//! | 35 | Power2Round | `math::rounding::power2_round` |
//! | 36 | Decompose | `math::rounding::decompose` |
//! | 37 | HighBits | `math::rounding::high_bits` |
//! | 38 | LowBits | `math::rounding::low_bits` |
//! | 39 | MakeHint | `math::rounding::make_hint` |
//! | 40 | UseHint | `math::rounding::use_hint` |
//! | 41 | NTT | `math::ntt::ntt` |
//! | 42 | NTT^-1 | `math::ntt::ntt_inverse` |
//! | 43 | BitRev8 | `math::ntt::bit_rev8` |
//! | 44 | AddNTT | `math::ntt::matrix_vector_ntt` (fused) |
//! | 45 | MultiplyNTT | `math::ntt::multiply_ntt` |
//! | 46 | AddVectorNTT | `math::ntt::matrix_vector_ntt` (fused) |
//! | 47 | ScalarVectorNTT | `math::ntt::scalar_vector_ntt` (the reference in tests: signing multiplies by c sparsely, `sparse`) |
//! | 48 | MatrixVectorNTT | `math::ntt::matrix_vector_ntt` |
//! | 49 | MontgomeryReduce | `math::field::montgomery_reduce` |
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
/// `tick!(Kernel, terms(a_hat, v, rows))` counts the pointwise products of A-hat o v.
#[cfg(feature = "profile")]
macro_rules! tick {
    ($kernel:ident, terms($a_hat:expr, $v:expr, $rows:expr)) => {
        tick!(
            $kernel,
            $crate::support::profile::matrix_terms($a_hat, $v, $rows)
        )
    };
    ($kernel:ident, $n:expr) => {
        $crate::support::profile::tick($crate::support::profile::Kernel::$kernel, $n)
    };
}
#[cfg(not(feature = "profile"))]
macro_rules! tick {
    ($kernel:ident, $($n:tt)*) => {};
}

// The floors, bottom-up (the crate docs' "Map of the floors" says what each holds and may
// import). M-2, the unsafe budget: the crate denies `unsafe_code`, and every floor but the two
// that need it (`backend`, for the SIMD intrinsics in `backend/x86_64/`, and `support`, whose
// `ct` module makes valgrind client requests) forbids it, so no inner `allow` can bring it
// back; `support` forbids it in each of its modules but `ct`. `tests/unsafe_budget.rs` checks.
#[forbid(unsafe_code)]
mod algorithm;
#[forbid(unsafe_code)]
mod api;
pub mod backend;
#[cfg(any(mldsa_ct, feature = "profile"))]
#[forbid(unsafe_code)]
mod diagnostics;
#[forbid(unsafe_code)]
mod encoding;
#[forbid(unsafe_code)]
mod error;
#[forbid(unsafe_code)]
mod hash;
#[forbid(unsafe_code)]
mod keys;
#[forbid(unsafe_code)]
mod math;
#[forbid(unsafe_code)]
mod params;
#[cfg(feature = "pkcs8")]
#[forbid(unsafe_code)]
pub mod pkix;
mod support;

// Modules public under their old names (harness and tooling entry points, the legacy and batch
// front doors): the same paths as before the floors.
#[cfg(feature = "parallel")]
pub use crate::api::batch;
pub use crate::api::legacy;
#[cfg(mldsa_ct)]
#[doc(hidden)]
pub use crate::diagnostics::ct_kernels;
#[cfg(mldsa_ct)]
#[doc(hidden)]
pub use crate::support::ct;
#[doc(hidden)]
pub use crate::support::declassify;
/// "Where the time goes": the kernels' call counters (`support`) and their costs measured in
/// isolation (`diagnostics`), for the benchmark's profile table. Only with the `profile`
/// feature, which only the benchmark turns on; not part of the API.
#[cfg(feature = "profile")]
#[doc(hidden)]
pub mod profile {
    pub use crate::diagnostics::profile::leaf_costs;
    pub use crate::support::profile::{Category, KERNELS, Kernel, counts, enable, reset};
}

pub use crate::algorithm::mu::MuBuilder;
pub use crate::algorithm::prehash::{PreHash, PreHashed, PreHasher, UnknownPreHash};
pub use crate::api::stream::{MessageSigner, MessageVerifier};
pub use crate::error::{Error, Input, Malformed};
pub use crate::keys::matrix::PublicMatrix;
#[cfg(feature = "alloc")]
pub use crate::keys::prepared::PreparedVerifyingKey;
pub use crate::keys::sig::Signature;
pub use crate::keys::signing_key::SigningKey;
pub use crate::keys::verifying_key::VerifyingKey;
pub use crate::params::{
    ByteArray, MAX_CONTEXT_LEN, MAX_SIGN_ATTEMPTS, MU_LEN, MlDsa44, MlDsa65, MlDsa87, ParameterSet,
    Parameters, SEED_LEN, SamplerXof, TR_LEN, Variant,
};
pub use rand_core;
pub use signature;

/// The README's usage example, compiled and run as a doctest so it cannot rot.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
struct ReadmeDoctests;
