//! Statistical timing tests (dudect; issue #6 CT-4) of mldsa's secret primitives, on each
//! backend this CPU can run, plus a leaky canary that proves the harness can see a leak.
//!
//! Each bench times one primitive on inputs of two classes, interleaved at random: `Left`, a
//! fixed extreme or structured secret (all zero, all at the top of the legal range), and
//! `Right`, random legal secrets. Welch's t-test on the two timing distributions (dudect's,
//! with its percentile crops; see `harness`) must stay small: |t| < 10 is the bar `scripts/dudect.sh` applies;
//! the canary (an early-exit comparison) must exceed 100.
//!
//! Build and run (see `scripts/dudect.sh`, which also tabulates and judges the results):
//!
//! ```text
//! RUSTFLAGS="--cfg mldsa_ct" cargo build --release -p dudect
//! target/release/dudect [MEASUREMENTS] [--filter TEXT] [--continuous TEXT] [--seed HEX]
//!     [--out FILE] [--list]
//! ```

#[cfg(mldsa_ct)]
mod benches;
// Compiled (and its unit tests run) without the cfg too: it does not touch the kernels.
#[cfg_attr(not(mldsa_ct), allow(dead_code))]
mod harness;

#[cfg(not(mldsa_ct))]
fn main() {
    eprintln!(
        "dudect must be built with RUSTFLAGS=\"--cfg mldsa_ct\" (see scripts/dudect.sh), e.g.\n  \
         RUSTFLAGS=\"--cfg mldsa_ct\" CARGO_TARGET_DIR=target/dudect \
         cargo run --release -p dudect -- 100000"
    );
    std::process::exit(2);
}

#[cfg(mldsa_ct)]
fn main() {
    benches::main();
}
