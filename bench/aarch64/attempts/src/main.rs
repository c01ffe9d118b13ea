//! Signing attempts (iterations of FIPS 204's rejection loop) per message, for the counted
//! messages of `mldsa-aarch64-insns`: mldsa signs each with its `profile` counters on, and one
//! SampleInBall call is one attempt. Deterministic signing with the same key and message runs
//! the same attempts in every correct implementation (the `check` mode of the counted binary
//! proves the peers' signatures equal mldsa's), so these are every library's attempts.
//!
//! `mldsa-aarch64-attempts SET INPUTS` prints on stdout the attempts of messages 0..INPUTS, one
//! line each, then `total N`. The key and messages are those of the counted binary (the same
//! derivation from the same seeds).

use mldsa::profile::{self as prof, Kernel};
use mldsa::{MlDsa44, MlDsa65, MlDsa87, ParameterSet, SigningKey};

/// As bench/aarch64/src/main.rs (the same inputs).
fn bytes32(stream: u64, index: u64) -> [u8; 32] {
    let mut x = stream.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ index;
    let mut out = [0u8; 32];
    for chunk in out.chunks_mut(8) {
        x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = x;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        chunk.copy_from_slice(&(z ^ (z >> 31)).to_le_bytes());
    }
    out
}

fn attempts<P: ParameterSet>(set: u64, inputs: u64) {
    let sk = SigningKey::<P>::from_seed(&bytes32(set, u64::MAX));
    let expanded = sk.to_expanded_bytes();
    let mut total = 0;
    for i in 0..inputs {
        let msg = bytes32(50 + set, i);
        prof::enable(true); // zeroes the counts
        let sig = SigningKey::<P>::sign_with_expanded(expanded.as_ref(), &msg, &[], &[0; 32]);
        let n = prof::counts()[Kernel::SampleInBall as usize];
        prof::enable(false); // zeroes them again
        sig.expect("mldsa sign");
        println!("{i} {n}");
        total += n;
    }
    println!("total {total}");
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let inputs: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(8);
    match args.first().map(String::as_str) {
        Some("44") => attempts::<MlDsa44>(0, inputs),
        Some("65") => attempts::<MlDsa65>(1, inputs),
        Some("87") => attempts::<MlDsa87>(2, inputs),
        _ => {
            eprintln!("usage: mldsa-aarch64-attempts 44|65|87 [INPUTS]");
            std::process::exit(2)
        }
    }
}
