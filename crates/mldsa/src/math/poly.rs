//! Polynomials of R_q = Z_q[X]/(X^256 + 1) and of its NTT image T_q.
//!
//! Two types keep the domains apart, as FIPS 204 does with its hats: [`Poly`] is an element of
//! R_q (coefficients), [`NttPoly`] one of T_q (NTT evaluations). Neither type fixes a canonical
//! representative: each function states the coefficient range it accepts and returns (`Bounds:`),
//! and values are reduced only where a bound would otherwise be exceeded.

use crate::math::field::{abs, caddq, freeze, reduce32};

/// Number of coefficients of a polynomial.
pub const N: usize = 256;

/// An element of R_q: coefficients of X^0 .. X^255, as signed 32-bit integers.
///
/// Aligned to 32 bytes so that vector code can load, store and wipe it in whole registers.
#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(C, align(32))]
pub struct Poly(pub(crate) [i32; N]);

/// An element of T_q: the 256 NTT evaluations, as signed 32-bit integers.
///
/// Aligned to 32 bytes, as [`Poly`].
#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(C, align(32))]
pub struct NttPoly(pub(crate) [i32; N]);

/// An element of R with small coefficients (s1 or s2: in [-eta, eta], eta <= 4), as signed
/// 8-bit integers: the form the sparse challenge products of signing read
/// ([`crate::math::sparse`]), a quarter of a [`Poly`].
#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(C, align(32))]
pub struct SmallPoly(pub(crate) [i8; N]);

impl SmallPoly {
    /// The zero polynomial.
    pub const ZERO: Self = Self([0; N]);

    /// The coefficients of `p`, which must lie in [-128, 127] (s1, s2 do).
    ///
    /// Constant time: a truncation per coefficient.
    #[inline]
    pub(crate) fn set(&mut self, p: &Poly) {
        debug_assert!(p.0.iter().all(|&c| i8::try_from(c).is_ok()));
        for (a, &c) in self.0.iter_mut().zip(p.0.iter()) {
            *a = c as i8;
        }
    }

    /// The coefficients as a [`Poly`].
    #[inline]
    pub(crate) fn get(&self, out: &mut Poly) {
        for (o, &c) in out.0.iter_mut().zip(self.0.iter()) {
            *o = i32::from(c);
        }
    }
}

// `Zeroize` for SmallPoly, Poly and NttPoly is implemented by the backend floor
// (`backend/wipe.rs`), which wipes whole registers where the CPU has them: polynomials often
// hold secrets and are wiped a lot (every signing attempt's scratch), and a volatile store per
// coefficient is slow. It lives there so that this floor needs nothing from the backends.

impl core::fmt::Debug for SmallPoly {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("SmallPoly(..)")
    }
}

// No Debug that prints coefficients: polynomials often hold secrets.
impl core::fmt::Debug for Poly {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Poly(..)")
    }
}

impl core::fmt::Debug for NttPoly {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("NttPoly(..)")
    }
}

macro_rules! common_ops {
    ($t:ty) => {
        impl $t {
            /// The zero polynomial.
            pub const ZERO: Self = Self([0; N]);
        }
    };
}

common_ops!(Poly);
common_ops!(NttPoly);

impl NttPoly {
    /// self -= other, coefficient-wise, without reduction.
    #[inline]
    pub(crate) fn sub_assign(&mut self, other: &Self) {
        for (a, b) in self.0.iter_mut().zip(other.0.iter()) {
            *a = a.wrapping_sub(*b);
        }
    }

    /// Reduces every coefficient with [`reduce32`].
    ///
    /// Bounds: coefficients <= 2^31 - 2^22 - 1 in, |c| <= 6283009 out.
    #[inline]
    pub(crate) fn reduce(&mut self) {
        for a in self.0.iter_mut() {
            *a = reduce32(*a);
        }
    }
}

impl Poly {
    /// self += other, coefficient-wise.
    #[inline]
    pub(crate) fn add_assign_small(&mut self, other: &SmallPoly) {
        for (a, &b) in self.0.iter_mut().zip(other.0.iter()) {
            *a = a.wrapping_add(i32::from(b));
        }
    }

    /// self += other, coefficient-wise, without reduction.
    #[inline]
    pub(crate) fn add_assign(&mut self, other: &Self) {
        for (a, b) in self.0.iter_mut().zip(other.0.iter()) {
            *a = a.wrapping_add(*b);
        }
    }
    /// Brings every coefficient to [0, q).
    ///
    /// Bounds: coefficients <= 2^31 - 2^22 - 1 in, [0, q) out.
    #[inline]
    pub(crate) fn freeze(&mut self) {
        for a in self.0.iter_mut() {
            *a = freeze(*a);
        }
    }

    /// Adds q to negative coefficients.
    ///
    /// Bounds: (-q, q) in, [0, q) out.
    #[inline]
    pub(crate) fn caddq(&mut self) {
        for a in self.0.iter_mut() {
            *a = caddq(*a);
        }
    }

    /// 1 if some coefficient has |c| >= bound, else 0, looking at every coefficient.
    ///
    /// Constant time: the loop never exits early and the comparison is arithmetic, so the answer
    /// is the only thing that depends on the coefficients. Callers decide what to do with it.
    /// Bounds: |c| < 2^31 in; bound > 0.
    #[inline]
    pub(crate) fn exceeds(&self, bound: i32) -> u32 {
        let mut any = 0u32;
        for &a in self.0.iter() {
            // (bound - 1 - |a|) is negative exactly when |a| >= bound.
            any |= ((bound - 1).wrapping_sub(abs(a)) as u32) >> 31;
        }
        any
    }
}

/// 1 if any polynomial of `v` has a coefficient with |c| >= bound (the infinity-norm check
/// ||v||_inf >= bound of FIPS 204 section 2.3), else 0.
///
/// Constant time: see [`Poly::exceeds`].
#[inline]
pub(crate) fn vec_exceeds(v: &[Poly], bound: i32) -> u32 {
    tick!(NormCheck, v.len());
    v.iter().fold(0, |any, p| any | p.exceeds(bound))
}

#[cfg(test)]
mod tests {
    use super::*;
    use zeroize::Zeroize;

    /// Zeroisation clears every coefficient, on whichever backend wipes (and on the portable
    /// path, forced), and polynomials are aligned as the AVX2 wipe requires.
    #[test]
    fn zeroize_clears_every_coefficient() {
        for forced in [false, true] {
            crate::backend::force_portable(forced);
            let mut v = [Poly([-7; N]), Poly([i32::MAX; N])];
            let mut w = NttPoly([i32::MIN; N]);
            for p in v.iter_mut() {
                assert_eq!(p.0.as_ptr() as usize % 32, 0);
                p.zeroize();
            }
            w.zeroize();
            assert!(v.iter().all(|p| p.0 == [0; N]) && w.0 == [0; N]);
            let mut small = SmallPoly([-3; N]);
            small.zeroize();
            assert_eq!(small.0, [0; N]);
            let mut sparse = std::boxed::Box::new(crate::math::sparse::SparseScratch::ZERO);
            sparse.tiny = [1; crate::math::sparse::EXT];
            sparse.small = [-1; crate::math::sparse::EXT];
            sparse.acc = [7; N];
            sparse.acc8 = [7; N];
            sparse.zeroize();
            assert!(
                sparse.tiny.iter().all(|&x| x == 0)
                    && sparse.small.iter().all(|&x| x == 0)
                    && sparse.acc == [0; N]
                    && sparse.acc8 == [0; N]
            );
        }
        crate::backend::force_portable(false);
    }
}
