//! The WebAssembly SIMD backend (simd128, four 32-bit lanes): the NTT and the T_q products.
//!
//! Chosen at build time: it exists only where the crate is compiled with
//! `-C target-feature=+simd128`, which every current browser and Node run (a .wasm that uses
//! SIMD does not validate on an engine without it, so there is nothing to detect at run time).
//! `force_portable` still switches to the portable backend, so `with_backend!` asks
//! [`Simd128::chosen`].
//!
//! No `unsafe`: the simd128 intrinsics are safe functions once the feature is enabled, and
//! vectors are built from and stored to arrays lane by lane (LLVM turns that into `v128.load`
//! and `v128.store`). Every kernel gives the very integers the portable function gives (the same
//! operations on each coefficient, in the same order, with the same wrapping), which is stronger
//! than the backends' contract (the same results mod q within the same bounds); the tests in
//! `tests.rs` check equality.

mod ntt;
#[cfg(test)]
mod tests;

use crate::backend::{Backend, PackKernels};
use crate::math::poly::{NttPoly, Poly};

/// The simd128 backend. A unit: the build, not the CPU, decides that it can run.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Simd128;

impl Simd128 {
    /// `Some` unless the portable backend is forced (`force_portable`, `MLDSA_BACKEND`).
    #[inline]
    pub(crate) fn chosen() -> Option<Self> {
        (crate::backend::chosen() == crate::backend::SIMD128).then_some(Simd128)
    }
}

impl PackKernels for Simd128 {}

impl Backend for Simd128 {
    #[inline(always)]
    fn ntt(self, w: &Poly, out: &mut NttPoly) {
        ntt::ntt(w, out)
    }

    #[inline(always)]
    fn ntt_inverse(self, w_hat: &NttPoly, out: &mut Poly) {
        ntt::ntt_inverse::<false>(w_hat, out)
    }

    #[inline(always)]
    fn ntt_inverse_nonneg(self, w_hat: &NttPoly, out: &mut Poly) {
        ntt::ntt_inverse::<true>(w_hat, out)
    }

    #[inline(always)]
    fn caddq(self, p: &mut Poly) {
        ntt::caddq(p)
    }

    #[inline(always)]
    fn multiply_ntt(self, a: &NttPoly, b: &NttPoly, out: &mut NttPoly) {
        ntt::multiply_ntt(a, b, out)
    }

    #[inline(always)]
    fn matrix_vector_ntt<Row: AsRef<[NttPoly]>>(
        self,
        a_hat: &[Row],
        v: &[NttPoly],
        out: &mut [NttPoly],
    ) {
        ntt::matrix_vector_ntt(a_hat, v, out)
    }
}
