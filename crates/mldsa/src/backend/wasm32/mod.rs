//! The WebAssembly SIMD backend (simd128, four 32-bit lanes): the NTT, the T_q products,
//! rounding and hints, RejNTTPoly's candidate loop ([`sample`]) and BitUnpack of y and z
//! ([`pack`]); and a two-way Keccak (two 64-bit lanes, [`keccak2x`]) for the samplers'
//! independent streams: ExpandA's SHAKE128 ([`sample`]), ExpandS's and ExpandMask's SHAKE256
//! ([`secret_streams`]). It is about 1.5x the scalar permutation's speed per state in V8 (see
//! `keccak2x_tests.rs`).
//!
//! Chosen at build time: it exists only where the crate is compiled with
//! `-C target-feature=+simd128`, which every current browser and Node run (a .wasm that uses
//! SIMD does not validate on an engine without it, so there is nothing to detect at run time).
//! `force_portable` still switches to the portable backend, so `with_backend!` asks
//! [`Simd128::chosen`]; except in a build with `--cfg mldsa_wasm_simd_only` (the npm package's),
//! which leaves the portable fallback out to keep the .wasm small.
//!
//! No `unsafe`: the simd128 intrinsics are safe functions once the feature is enabled, and
//! vectors are built from and stored to arrays lane by lane (LLVM turns that into `v128.load`
//! and `v128.store`). Every kernel gives the very integers the portable function gives (the same
//! operations on each coefficient, in the same order, with the same wrapping), which is stronger
//! than the backends' contract (the same results mod q within the same bounds); the tests in
//! `tests.rs` check equality.

mod keccak2x;
#[cfg(test)]
mod keccak2x_tests;
mod ntt;
mod pack;
#[cfg(test)]
mod pack_tests;
mod rounding;
mod sample;
#[cfg(test)]
mod sample_tests;
mod secret_streams;
#[cfg(test)]
mod tests;

use crate::backend::{Backend, PackKernels, Portable};
use crate::math::poly::{NttPoly, Poly};
use crate::params::{Parameters, SamplerXof};

/// The simd128 backend. A unit: the build, not the CPU, decides that it can run.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Simd128;

impl Simd128 {
    /// `Some` unless the portable backend is forced (`force_portable`, `MLDSA_BACKEND`).
    #[cfg(not(mldsa_wasm_simd_only))]
    #[inline]
    pub(crate) fn chosen() -> Option<Self> {
        (crate::backend::chosen() == crate::backend::SIMD128).then_some(Simd128)
    }
}

impl PackKernels for Simd128 {
    #[inline(always)]
    fn bit_unpack_z<P: Parameters>(self, v: &[u8], w: &mut Poly) {
        pack::bit_unpack_z::<P>(v, w)
    }
}

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

    #[inline(always)]
    fn power2_round_vec(self, t: &[Poly], t1: &mut [Poly], t0: &mut [Poly]) {
        rounding::power2_round_vec(t, t1, t0)
    }

    #[inline(always)]
    fn high_bits_vec<P: Parameters>(self, w: &[Poly], w1: &mut [Poly]) {
        for_gamma2!(P, rounding::high_bits_vec(w, w1))
    }

    #[inline(always)]
    fn low_bits_exceed<P: Parameters>(self, r: &[Poly], bound: i32) -> u32 {
        for_gamma2!(P, rounding::low_bits_exceed(r, bound))
    }

    #[inline(always)]
    fn make_hint_vec<P: Parameters>(self, r_plus_z: &[Poly], r: &[Poly], h: &mut [Poly]) -> u32 {
        for_gamma2!(P, rounding::make_hint_vec(r_plus_z, r, h))
    }

    #[inline(always)]
    fn use_hint_vec<P: Parameters>(self, h: &[Poly], r: &[Poly], w1: &mut [Poly]) {
        for_gamma2!(P, rounding::use_hint_vec(h, r, w1))
    }

    #[inline(always)]
    fn sub_freeze(self, w: &[Poly], cs2: &mut [Poly]) {
        rounding::sub_freeze(w, cs2)
    }

    #[inline(always)]
    fn expand_a<P: Parameters>(self, rho: &[u8; 32], a_hat: &mut P::MatrixA) {
        sample::expand_a::<P>(rho, a_hat)
    }

    #[inline(always)]
    fn expand_a_times<P: Parameters>(self, rho: &[u8; 32], v: &[NttPoly], out: &mut [NttPoly]) {
        if P::XOF != SamplerXof::Shake {
            return crate::backend::expand_a_times_by_rows::<P>(self, rho, v, out);
        }
        sample::expand_a_times::<P>(rho, v, out, |row, v, w| {
            ntt::matrix_vector_ntt(&[row], v, core::slice::from_mut(w))
        })
    }

    #[inline(always)]
    fn expand_s<P: Parameters>(self, rho_prime: &[u8; 64], s1: &mut P::VecL, s2: &mut P::VecK) {
        match P::XOF {
            SamplerXof::Shake => secret_streams::expand_s::<P>(rho_prime, s1, s2),
            SamplerXof::Aes256Ctr => Portable.expand_s::<P>(rho_prime, s1, s2),
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
            SamplerXof::Shake => secret_streams::expand_mask_polys::<P>(rho_pp, first, polys),
            SamplerXof::Aes256Ctr => Portable.expand_mask_polys::<P>(rho_pp, first, polys),
        }
    }
}
