//! The types users hold: `SigningKey`, `VerifyingKey`, `PreparedVerifyingKey`, `Signature` and
//! `PublicMatrix`, and the one way random bytes come in (`rng`). Imports: every floor below.

pub(crate) mod matrix;
#[cfg(feature = "alloc")]
pub(crate) mod prepared;
pub(crate) mod rng;
pub(crate) mod sig;
pub(crate) mod signing_key;
pub(crate) mod verifying_key;
