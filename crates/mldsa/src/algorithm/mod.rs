//! ML-DSA itself, written once over the backend: key generation (`keygen`, FIPS 204
//! Algorithm 6), signing (`sign`, Algorithm 7), verification (`verify`, Algorithm 8), the
//! message representative mu and the HashML-DSA pre-hashes (`mu`, `prehash`, Algorithms 2-5),
//! and the expanded secret key signing works from (`expanded`). Imports: every floor below.

pub(crate) mod expanded;
pub(crate) mod keygen;
pub(crate) mod mu;
pub(crate) mod prehash;
pub(crate) mod sign;
pub(crate) mod verify;
