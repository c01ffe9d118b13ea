//! Bytes: bit packing (`pack`, FIPS 204 Algorithms 16-21) and the key and signature encodings
//! (`encode`, Algorithms 22-28). Imports: `support`, `math`, `params`, `error`.

pub(crate) mod encode;
pub(crate) mod kernels;
pub(crate) mod pack;
