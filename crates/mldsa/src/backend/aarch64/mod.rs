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

impl Backend for Neon {}
