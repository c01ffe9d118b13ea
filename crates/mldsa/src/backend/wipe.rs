//! Wiping polynomials and scratch: whole 32-byte registers on AVX2, 16-byte registers on NEON,
//! `zeroize`'s volatile stores of one element at a time otherwise. The `Zeroize` impls of the
//! polynomial types (`math`) live here, in the floor that knows the vector units, so that
//! `math` needs nothing from the backends (the impl is placed above the type rather than the
//! call reaching up).

#[cfg(target_arch = "aarch64")]
use super::aarch64;
#[cfg(target_arch = "x86_64")]
use super::x86_64;
use crate::math::poly::{NttPoly, Poly, SmallPoly};
use crate::math::sparse::SparseScratch;
use zeroize::Zeroize;

/// Overwrites the coefficients of a polynomial with zeros, in a way the compiler may not
/// remove (volatile stores), for zeroisation: whole 32-byte registers on AVX2, one coefficient
/// at a time otherwise. `coeffs` must be a [`crate::math::poly::Poly`] or
/// [`crate::math::poly::NttPoly`]'s array (32-byte aligned).
#[inline]
pub(crate) fn wipe(coeffs: &mut [i32; crate::math::poly::N]) {
    #[cfg(target_arch = "x86_64")]
    if let Some(avx2) = x86_64::Avx2::chosen() {
        return avx2.wipe(coeffs);
    }
    #[cfg(target_arch = "aarch64")]
    if let Some(neon) = aarch64::Neon::chosen() {
        return neon.wipe(coeffs);
    }
    zeroize::Zeroize::zeroize(coeffs);
}

/// [`wipe`] for a [`crate::math::poly::SmallPoly`] (s1 or s2 as bytes): whole registers on AVX2,
/// one byte at a time otherwise.
#[inline]
pub(crate) fn wipe_small(p: &mut SmallPoly) {
    #[cfg(target_arch = "x86_64")]
    if let Some(avx2) = x86_64::Avx2::chosen() {
        return avx2.wipe_small(p);
    }
    #[cfg(target_arch = "aarch64")]
    if let Some(neon) = aarch64::Neon::chosen() {
        return neon.wipe_small(p);
    }
    zeroize::Zeroize::zeroize(&mut p.0);
}

/// [`wipe`] for the sparse products' working memory.
#[inline]
pub(crate) fn wipe_sparse(s: &mut SparseScratch) {
    #[cfg(target_arch = "x86_64")]
    if let Some(avx2) = x86_64::Avx2::chosen() {
        return avx2.wipe_sparse(s);
    }
    #[cfg(target_arch = "aarch64")]
    if let Some(neon) = aarch64::Neon::chosen() {
        return neon.wipe_sparse(s);
    }
    s.zeroize_each();
}

/// Overwrites the 4 KiB of dead stack just below the caller's frame, where a kernel the caller
/// just returned from had its own frame: kernels working on secrets call this when their
/// compiled form may have spilled secret values there (Z-1; `tests/zeroize_runtime/`). Every
/// target: the AES samplers of the Dilithium v3.1 AES sets call it too (`crate::hash::sample`).
#[inline(never)]
pub(crate) fn scrub_stack() {
    scrub_below::<16>();
}

/// [`scrub_stack`] over 768 bytes only: for a kernel whose secret-holding callee has a small
/// frame (the scalar permutation beside the eight-way one, about 600 bytes), called from deep
/// in an operation, where 4 KiB more would raise its peak stack (ST-1).
#[cfg(target_arch = "x86_64")]
#[inline(never)]
pub(crate) fn scrub_stack_small() {
    scrub_below::<3>();
}

/// Overwrites `SMALL` times 256 bytes of dead stack just below the caller's frame.
#[inline(always)]
fn scrub_below<const SMALL: usize>() {
    let mut area = [SmallPoly::ZERO; SMALL];
    for p in area.iter_mut() {
        wipe_small(p);
    }
    core::hint::black_box(&area);
}

impl Zeroize for SmallPoly {
    fn zeroize(&mut self) {
        wipe_small(self);
    }
}

impl Zeroize for Poly {
    fn zeroize(&mut self) {
        wipe(&mut self.0);
    }
}

impl Zeroize for NttPoly {
    fn zeroize(&mut self) {
        wipe(&mut self.0);
    }
}

impl Zeroize for SparseScratch {
    fn zeroize(&mut self) {
        wipe_sparse(self);
    }
}
