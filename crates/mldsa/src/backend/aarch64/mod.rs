//! The AArch64 backend: NEON (Advanced SIMD, four 32-bit lanes in a 128-bit register) kernels
//! for what the profile says matters; every kernel it does not override stays portable.
//!
//! NEON is part of the base AArch64 architecture (every Armv8-A core has it, and Rust's AArch64
//! targets are compiled with it), so there is nothing to detect: [`Neon`] is the default
//! backend, and only `force_portable` (or `MLDSA_BACKEND=portable`) switches it off. Kernels that
//! need an optional extension (the SHA-3 instructions) check for it at run time.
//!
//! Overridden here (arithmetic): the NTT and NTT^-1 (`ntt.rs`), the T_q products
//! (`products.rs`), Decompose, the hints and the norm checks (`rounding.rs`), UseHint fused
//! with w1Encode (`hint_w1.rs`), and the sparse challenge products (`sparse.rs`), on
//! `field.rs`'s exact `sqdmulh` Montgomery multiplication: every one gives the portable function's integers, which
//! `tests.rs` checks on random inputs and at the edges of each `Bounds:` line. Each kernel is a
//! `#[target_feature(enable = "neon")]` function (so its intrinsics are safe to call); the calls
//! below are `unsafe` only because of that attribute (`neon!`).
//!
//! Overridden here (hashing): a two-way Keccak-f[1600] (`keccak2x.rs`: two states in the two
//! 64-bit lanes, in base NEON or, where the CPU has the SHA-3 extension, with EOR3/RAX1/XAR/BCAX,
//! detected at run time in `keccak.rs`), the two-lane SHAKE sponges on it (`keccak_shake2x.rs`),
//! and ExpandA (with the fused A-hat * v), ExpandS and ExpandMask two streams at a time
//! (`sample.rs`, RejNTTPoly's loop in `sample_uniform.rs`, RejBoundedPoly's in
//! `sample_bounded.rs`); signing's challenge hash and SampleInBall in one lane of a two-way
//! sponge whose other lane makes the next masks (`mask_lanes.rs`); the other scalar sponges run
//! the one-state SHA-3 build where the CPU has the extension.
//!
//! Layout: polynomials keep the portable layout (coefficient i at index i, NTT values in FIPS
//! 204's bit-reversed order), so values made by one backend are valid for the other.
#![allow(unsafe_code)]

// The arithmetic.
mod field;
mod hint_w1;
mod ntt;
mod pack;
mod products;
mod rounding;
mod sparse;
mod wipe;
// Keccak and the samplers it drives (ExpandA, ExpandS, ExpandMask, signing's mask lanes).
pub(crate) mod keccak;
pub(crate) mod keccak2x;
pub(crate) mod keccak_shake2x;
pub(crate) mod mask_lanes;
pub(crate) mod sample;
pub(crate) mod sample_bounded;
pub(crate) mod sample_uniform;
#[cfg(test)]
mod tests;

use crate::backend::mask_stream::MaskStream;
use crate::backend::{Backend, PackKernels};
use crate::math::poly::{N, NttPoly, Poly};
use crate::math::sparse::{SparseC, SparseScratch};
use crate::params::{Parameters, SamplerXof, TR_LEN};
use keccak::Keccak2x;

/// The NEON backend. A unit: the architecture guarantees NEON.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Neon;

impl Neon {
    /// `Some` unless the portable backend is forced (`force_portable`, `MLDSA_BACKEND`).
    #[inline]
    pub(crate) fn chosen() -> Option<Self> {
        (crate::backend::chosen() == crate::backend::NEON).then_some(Neon)
    }
}

/// Calls a `#[target_feature(enable = "neon")]` kernel.
macro_rules! neon {
    ($f:expr) => {
        // SAFETY: NEON is part of the base AArch64 architecture and enabled in every Rust
        // AArch64 target (checked at compile time below), so the CPU running this has it.
        unsafe { $f }
    };
}
const _: () = assert!(cfg!(target_feature = "neon"), "AArch64 targets have NEON");

impl Neon {
    /// Adds entry (r, s) = (`tag` >> 8, `tag` & 0xFF) of A-hat, times v_s, to row r of
    /// A-hat o v * 2^-32 ([`products::row_term`]): the entries must come in row-major order, and
    /// row r is in `out[r]` once its last entry has come. Bounds: as `row_term`.
    #[inline(always)]
    pub(crate) fn add_entry<P: Parameters>(
        self,
        entry: &NttPoly,
        tag: usize,
        v: &[NttPoly],
        acc: &mut products::RowSum,
        out: &mut [NttPoly],
    ) {
        use products::row_term;
        let (r, s) = (tag >> 8, tag & 0xFF);
        let (v, out) = (&v[s], &mut out[r]);
        neon!(match (s == 0, s + 1 == P::L) {
            (true, true) => row_term::<true, true>(entry, v, acc, out),
            (true, false) => row_term::<true, false>(entry, v, acc, out),
            (false, true) => row_term::<false, true>(entry, v, acc, out),
            (false, false) => row_term::<false, false>(entry, v, acc, out),
        })
    }

    /// [`crate::backend::wipe::wipe`] with 16-byte volatile stores.
    #[inline]
    pub(crate) fn wipe(self, coeffs: &mut [i32; N]) {
        neon!(wipe::wipe(coeffs))
    }

    /// [`crate::backend::wipe::wipe_small`] with 16-byte volatile stores.
    #[inline]
    pub(crate) fn wipe_small(self, p: &mut crate::math::poly::SmallPoly) {
        neon!(wipe::wipe_small(p))
    }

    /// [`crate::backend::wipe::wipe_sparse`] with 16-byte volatile stores.
    #[inline]
    pub(crate) fn wipe_sparse(self, s: &mut SparseScratch) {
        neon!(wipe::wipe_sparse(s))
    }
}

impl PackKernels for Neon {
    #[inline(always)]
    fn vec_exceeds(self, v: &[Poly], bound: i32) -> u32 {
        neon!(rounding::vec_exceeds(v, bound))
    }

    #[inline(always)]
    fn bit_unpack_narrow(self, v: &[u8], b: i32, bits: usize, max: u32, w: &mut Poly) -> u32 {
        neon!(pack::bit_unpack_narrow(v, b, bits, max, w))
    }

    #[inline(always)]
    fn bit_unpack_z<P: Parameters>(self, v: &[u8], w: &mut Poly) {
        neon!(pack::bit_unpack_z::<P>(v, w))
    }

    #[inline(always)]
    fn t1_unpack_shifted(self, v: &[u8], w: &mut Poly) {
        neon!(pack::t1_unpack_shifted(v, w))
    }
}

impl Backend for Neon {
    #[inline(always)]
    fn ntt(self, w: &Poly, out: &mut NttPoly) {
        neon!(ntt::ntt(w, out))
    }

    #[inline(always)]
    fn ntt_inverse(self, w_hat: &NttPoly, out: &mut Poly) {
        neon!(ntt::ntt_inverse::<false>(w_hat, out))
    }

    #[inline(always)]
    fn ntt_inverse_nonneg(self, w_hat: &NttPoly, out: &mut Poly) {
        neon!(ntt::ntt_inverse::<true>(w_hat, out))
    }

    #[inline(always)]
    fn caddq(self, p: &mut Poly) {
        neon!(ntt::caddq(p))
    }

    #[cfg(test)]
    #[inline(always)]
    fn centre_freeze(self, p: &mut Poly) {
        neon!(ntt::centre_freeze(p))
    }

    #[inline(always)]
    fn multiply_ntt(self, a: &NttPoly, b: &NttPoly, out: &mut NttPoly) {
        neon!(products::multiply_ntt(a, b, out))
    }

    #[cfg(test)]
    #[inline(always)]
    fn scalar_vector_ntt(self, c: &NttPoly, v: &[NttPoly], out: &mut [NttPoly]) {
        neon!(products::scalar_vector_ntt(c, v, out))
    }

    #[inline(always)]
    fn matrix_vector_ntt<Row: AsRef<[NttPoly]>>(
        self,
        a_hat: &[Row],
        v: &[NttPoly],
        out: &mut [NttPoly],
    ) {
        neon!(products::matrix_vector_ntt(a_hat, v, out))
    }

    #[inline(always)]
    fn high_bits_vec<P: Parameters>(self, w: &[Poly], w1: &mut [Poly]) {
        neon!(for_gamma2!(P, rounding::high_bits_vec(w, w1)))
    }

    #[inline(always)]
    fn low_bits_exceed<P: Parameters>(self, r: &[Poly], bound: i32) -> u32 {
        neon!(for_gamma2!(P, rounding::low_bits_exceed(r, bound)))
    }

    #[inline(always)]
    fn make_hint_vec<P: Parameters>(self, r_plus_z: &[Poly], r: &[Poly], h: &mut [Poly]) -> u32 {
        neon!(for_gamma2!(P, rounding::make_hint_vec(r_plus_z, r, h)))
    }

    #[inline(always)]
    fn use_hint_vec<P: Parameters>(self, h: &[Poly], r: &[Poly], w1: &mut [Poly]) {
        neon!(for_gamma2!(P, rounding::use_hint_vec(h, r, w1)))
    }

    #[inline(always)]
    fn sparse_mul_tiny(
        self,
        c: &SparseC,
        s: &[i8; N],
        scratch: &mut SparseScratch,
        out: &mut Poly,
    ) {
        neon!(sparse::mul_tiny(c, s, scratch, out))
    }

    #[inline(always)]
    fn sparse_mul_small(
        self,
        c: &SparseC,
        s: &[i8; N],
        scratch: &mut SparseScratch,
        out: &mut Poly,
    ) {
        neon!(sparse::mul_small(c, s, scratch, out))
    }

    #[inline(always)]
    fn sparse_mul_eta4(
        self,
        c: &SparseC,
        s: &[i8; N],
        scratch: &mut SparseScratch,
        out: &mut Poly,
    ) {
        neon!(sparse::mul_eta4(c, s, scratch, out))
    }

    #[inline(always)]
    fn sparse_mul_t0(self, c: &SparseC, t: &Poly, scratch: &mut SparseScratch, out: &mut Poly) {
        neon!(sparse::mul_t0(c, t, scratch, out))
    }

    #[inline(always)]
    fn w1_encode<P: Parameters>(self, w1: &[Poly], out: &mut [u8]) {
        neon!(pack::w1_encode::<P>(w1, out))
    }

    #[inline(always)]
    fn use_hint_w1_encode<P: Parameters>(self, h: &[Poly], r: &[Poly], out: &mut [u8]) {
        neon!(for_gamma2!(P, hint_w1::use_hint_w1_encode(h, r, out)))
    }

    // Keccak and the samplers it drives.

    #[inline(always)]
    fn keccak(self) -> crate::hash::keccak::Permutation {
        keccak::permutation()
    }

    // The two-way samplers are SHAKE only; the Dilithium v3.1 AES sets use the portable ones,
    // which give the same bytes. `P::XOF` is a constant: the branch folds away.

    #[inline(always)]
    fn expand_a<P: Parameters>(self, rho: &[u8; 32], a_hat: &mut P::MatrixA) {
        match P::XOF {
            SamplerXof::Shake => sample::expand_a::<P>(Keccak2x::detect(), rho, a_hat),
            SamplerXof::Aes256Ctr => crate::hash::sample::expand_a::<P>(rho, a_hat),
        }
    }

    #[inline(always)]
    fn expand_a_times<P: Parameters>(self, rho: &[u8; 32], v: &[NttPoly], out: &mut [NttPoly]) {
        match P::XOF {
            SamplerXof::Shake => sample::expand_a_times::<P>(self, Keccak2x::detect(), rho, v, out),
            SamplerXof::Aes256Ctr => crate::backend::expand_a_times_by_rows::<P>(self, rho, v, out),
        }
    }

    #[inline(always)]
    fn expand_a_times_and_tr<P: Parameters>(
        self,
        rho: &[u8; 32],
        v: &[NttPoly],
        out: &mut [NttPoly],
        pk: &[u8],
        tr: &mut [u8; TR_LEN],
    ) {
        match P::XOF {
            SamplerXof::Shake => {
                sample::expand_a_times_and_tr::<P>(self, Keccak2x::detect(), rho, v, out, pk, tr)
            }
            SamplerXof::Aes256Ctr => {
                crate::backend::tr_then_expand_a_times::<P>(self, rho, v, out, pk, tr)
            }
        }
    }

    #[inline(always)]
    fn expand_s<P: Parameters>(self, rho_prime: &[u8; 64], s1: &mut P::VecL, s2: &mut P::VecK) {
        match P::XOF {
            SamplerXof::Shake => sample::expand_s::<P>(Keccak2x::detect(), rho_prime, s1, s2),
            SamplerXof::Aes256Ctr => crate::backend::Portable.expand_s::<P>(rho_prime, s1, s2),
        }
    }

    #[inline(always)]
    fn expand_mask_polys<'a, P: Parameters>(
        self,
        rho_pp: &[u8; 64],
        first: u16,
        polys: impl Iterator<Item = &'a mut Poly>,
    ) {
        match P::XOF {
            SamplerXof::Shake => {
                sample::expand_mask_polys::<P>(Keccak2x::detect(), rho_pp, first, polys)
            }
            SamplerXof::Aes256Ctr => {
                crate::backend::Portable.expand_mask_polys::<P>(rho_pp, first, polys)
            }
        }
    }

    #[inline(always)]
    fn next_mask<P: Parameters>(self, stream: &mut MaskStream, rho_pp: &[u8; 64], y: &mut [Poly]) {
        match P::XOF {
            SamplerXof::Shake => mask_lanes::next_mask::<P>(Keccak2x::detect(), stream, rho_pp, y),
            SamplerXof::Aes256Ctr => {
                crate::backend::mask_stream::next_mask_each::<P, Self>(self, stream, rho_pp, y)
            }
        }
    }

    #[inline(always)]
    fn challenge<P: Parameters>(
        self,
        stream: &mut MaskStream,
        mu: &[u8; 64],
        w1: &[u8],
        rho_pp: &[u8; 64],
        c_tilde: &mut [u8],
    ) -> SparseC {
        match P::XOF {
            SamplerXof::Shake => {
                mask_lanes::challenge::<P>(Keccak2x::detect(), stream, mu, w1, rho_pp, c_tilde)
            }
            SamplerXof::Aes256Ctr => {
                crate::backend::mask_stream::challenge_scalar::<P>(mu, w1, c_tilde)
            }
        }
    }
}
