//! `libmldsa`: the C ABI of the `mldsa` crate (ML-DSA, FIPS 204, and CRYSTALS-Dilithium round
//! 3), declared in `include/mldsa.h`, plus drop-ins for the reference `crypto_sign_*` APIs
//! (`include/mldsa/ref-fips204/api.h`, `include/mldsa/ref-round3/api.h`).
//!
//! A thin layer: `ops`, `legacy`, `pkix` and `objects` are safe Rust over the core
//! crate, generic over the parameter set; `boundary` (the only module allowed `unsafe`) turns
//! C pointers into slices, catches panics and zeroes outputs on failure, and stamps the
//! exported functions for each set by macro.

#![deny(unsafe_code)]

#[allow(unsafe_code)]
pub mod boundary;
#[forbid(unsafe_code)]
mod legacy;
#[forbid(unsafe_code)]
mod objects;
#[forbid(unsafe_code)]
mod ops;
#[forbid(unsafe_code)]
mod pkix;
#[forbid(unsafe_code)]
mod status;

pub use objects::{SignCtx, SigningKeyObj, VerifyCtx, VerifyingKeyObj};
pub use status::Status;
