//! The AArch64 backend: NEON (Advanced SIMD, four 32-bit lanes in a 128-bit register) kernels
//! for what the profile says matters; every kernel it does not override stays portable.
//!
//! NEON is part of the base AArch64 architecture (every Armv8-A core has it, and Rust's AArch64
//! targets are compiled with it), so there is nothing to detect: [`Neon`] is the default
//! backend, and only `force_portable` (or `MLDSA_BACKEND=portable`) switches it off. Kernels that
//! need an optional extension (the SHA-3 instructions) check for it at run time.
//!
//! Layout: polynomials keep the portable layout (coefficient i at index i, NTT values in FIPS
//! 204's bit-reversed order), so values made by one backend are valid for the other.
#![allow(unsafe_code)]

use crate::backend::{Backend, PackKernels};
use crate::math::poly::{NttPoly, Poly};
use crate::params::{Parameters, SamplerXof};
use keccak::Keccak2x;

// Keccak and the samplers it drives (ExpandA, ExpandS, ExpandMask).
pub(crate) mod keccak;
pub(crate) mod keccak2x;
pub(crate) mod keccak_shake2x;
pub(crate) mod sample;
pub(crate) mod sample_uniform;

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

impl PackKernels for Neon {}

impl Backend for Neon {
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
}
