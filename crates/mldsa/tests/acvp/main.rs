//! NIST ACVP conformance: every case of every group of every file in `../shared/vectors/acvp`
//! (ACVP-Server v1.1.0.43): keyGen, sigGen (FIPS204), sigGen (FIPS204-tr1) and sigVer.
//!
//! Each file is one `#[test]`. Failures are gathered (tcId + what differed) and reported together
//! at the end of the test rather than stopping at the first one. A library panic inside one case
//! is caught and recorded as a failure of that case.
//!
//! Run with `cargo test -p mldsa --test acvp -- --nocapture` to see the per-file,
//! per-parameter-set and per-group-kind case counts.

#[path = "../common/mod.rs"]
mod common;

#[macro_use]
mod harness;

mod constants;
mod keygen;
mod siggen;
mod sigver;
