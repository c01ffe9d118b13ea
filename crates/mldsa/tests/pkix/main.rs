//! RFC 9881 key containers (`mldsa::pkix`): round trips, byte-exact known answers against an
//! independent implementation (pyca/cryptography's bundled OpenSSL) and RFC 9881's examples,
//! every rejection rule, lax PEM reading, and no panics on random or mutated documents.
//!
//! Test data: `tests/pkix/` (see its README.md for how each file was made).
//!
//! Run with `cargo test -p mldsa --features pkcs8 --test pkix` (add `pkcs8-encryption` for the
//! encrypted-PKCS#8 tests).

#![cfg(feature = "pkcs8")]

mod helpers;

mod algorithm_identifiers;
mod errors_and_no_panics;
mod key_fields;
mod known_answers;
mod lengths;
mod pem;
mod round_trips;
mod seed_encodings_and_truncation;
mod traits;

#[cfg(feature = "pkcs8-encryption")]
mod encrypted;
