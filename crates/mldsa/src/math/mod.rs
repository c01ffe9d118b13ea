//! Arithmetic in R_q and T_q: the field (`field`), polynomials (`poly`), the NTT and its
//! products (`ntt`, FIPS 204 Algorithms 41-48), rounding and hints (`rounding`, Algorithms
//! 35-40) and the sparse challenge products signing uses (`sparse`). This is the portable
//! reference the backends' kernels must match. Imports: `support` only.

pub(crate) mod field;
pub(crate) mod ntt;
pub(crate) mod poly;
pub(crate) mod rounding;
pub(crate) mod sparse;
#[cfg(any(test, feature = "profile"))]
pub(crate) mod splitmix;
