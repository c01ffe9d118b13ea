//! AVX2 sampling: ExpandA, ExpandS and ExpandMask on the 4-way Keccak.
//!
//! (Stubs delegating to the portable code until the vectorised kernels land.)

use crate::params::Parameters;

/// FIPS 204 Algorithm 32, ExpandA. Contract: as [`crate::sample::expand_a`].
#[target_feature(enable = "avx2")]
pub(crate) fn expand_a<P: Parameters>(rho: &[u8; 32], a_hat: &mut P::MatrixA) {
    crate::sample::expand_a::<P>(rho, a_hat)
}

/// FIPS 204 Algorithm 33, ExpandS. Contract: as [`crate::sample::expand_s`].
#[target_feature(enable = "avx2")]
pub(crate) fn expand_s<P: Parameters>(rho_prime: &[u8; 64], s1: &mut P::VecL, s2: &mut P::VecK) {
    crate::sample::expand_s::<P>(rho_prime, s1, s2)
}

/// FIPS 204 Algorithm 34, ExpandMask. Contract: as [`crate::sample::expand_mask`].
#[target_feature(enable = "avx2")]
pub(crate) fn expand_mask<P: Parameters>(rho_pp: &[u8; 64], kappa: u16, y: &mut P::VecL) {
    crate::sample::expand_mask::<P>(rho_pp, kappa, y)
}
