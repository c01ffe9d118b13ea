//! AVX2 NTT, inverse NTT and pointwise arithmetic in T_q.
//!
//! (Stubs delegating to the portable code until the vectorised kernels land.)

use crate::poly::{NttPoly, Poly};

/// FIPS 204 Algorithm 41, NTT. Contract: as [`crate::ntt::ntt`].
#[target_feature(enable = "avx2")]
pub(crate) fn ntt(w: &Poly, out: &mut NttPoly) {
    crate::ntt::ntt(w, out)
}

/// FIPS 204 Algorithm 42, NTT^-1, times 2^32. Contract: as [`crate::ntt::ntt_inverse`].
#[target_feature(enable = "avx2")]
pub(crate) fn ntt_inverse(w_hat: &NttPoly, out: &mut Poly) {
    crate::ntt::ntt_inverse(w_hat, out)
}

/// FIPS 204 Algorithm 45, MultiplyNTT. Contract: as [`crate::ntt::multiply_ntt`].
#[target_feature(enable = "avx2")]
pub(crate) fn multiply_ntt(a: &NttPoly, b: &NttPoly, out: &mut NttPoly) {
    crate::ntt::multiply_ntt(a, b, out)
}

/// FIPS 204 Algorithm 48, MatrixVectorNTT. Contract: as [`crate::ntt::matrix_vector_ntt`].
#[target_feature(enable = "avx2")]
pub(crate) fn matrix_vector_ntt<Row: AsRef<[NttPoly]>>(
    a_hat: &[Row],
    v: &[NttPoly],
    out: &mut [NttPoly],
) {
    crate::ntt::matrix_vector_ntt(a_hat, v, out)
}
