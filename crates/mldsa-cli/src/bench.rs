//! `mldsa bench`: how fast key generation, signing and verification are on this machine.
//!
//! A quick look, not a benchmark suite: the repository's `bench/` crate compares against other
//! libraries with cycle counts. Signing time varies with the number of rejected attempts, so
//! its mean is shown beside the median.

use crate::alg::Alg;
use crate::cli::BenchArgs;
use crate::error::Result;
use crate::keys::SecretKey;
use crate::ops::{MessageOptions, Randomness};
use std::time::{Duration, Instant};

struct Stats {
    min: Duration,
    median: Duration,
    mean: Duration,
    max: Duration,
}

fn stats(mut samples: Vec<Duration>) -> Stats {
    samples.sort();
    let mean = samples.iter().sum::<Duration>() / samples.len() as u32;
    Stats {
        min: samples[0],
        median: samples[samples.len() / 2],
        mean,
        max: samples[samples.len() - 1],
    }
}

fn us(d: Duration) -> String {
    format!("{:.1}", d.as_secs_f64() * 1e6)
}

pub fn run(a: &BenchArgs) -> Result<()> {
    let algs = if a.alg.is_empty() {
        vec![Alg::MlDsa44, Alg::MlDsa65, Alg::MlDsa87]
    } else {
        a.alg.clone()
    };
    let n = a.samples.max(3);
    let dir = std::env::temp_dir().join(format!("mldsa-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| crate::error::CliError::usage(e.to_string()))?;
    println!("| algorithm | operation | min µs | median µs | mean µs | max µs |");
    println!("| --- | --- | ---: | ---: | ---: | ---: |");
    for alg in algs {
        let mut keygen = Vec::with_capacity(n);
        let mut sign = Vec::with_capacity(n);
        let mut verify = Vec::with_capacity(n);
        let plain = MessageOptions {
            ctx: Vec::new(),
            prehash: None,
            external_mu: false,
        };
        for i in 0..n {
            let seed = [i as u8 ^ 0x5A; 32];
            let t = Instant::now();
            let sk = SecretKey::from_seed(alg, &seed);
            keygen.push(t.elapsed());
            // A distinct 32-byte message per sample, signed from a small file.
            let msg = dir.join(format!("m{i}"));
            std::fs::write(&msg, [i as u8; 32])
                .map_err(|e| crate::error::CliError::usage(e.to_string()))?;
            let path = msg.to_string_lossy().into_owned();
            let t = Instant::now();
            let sig = crate::ops::sign(&sk, &path, &plain, Randomness::Deterministic)?;
            sign.push(t.elapsed());
            let pk = sk.public();
            let t = Instant::now();
            let ok = crate::ops::verify(&pk, &path, &plain, &sig)?;
            verify.push(t.elapsed());
            assert!(ok, "a fresh signature must verify");
        }
        for (name, samples) in [("keygen", keygen), ("sign", sign), ("verify", verify)] {
            let s = stats(samples);
            println!(
                "| {alg} | {name} | {} | {} | {} | {} |",
                us(s.min),
                us(s.median),
                us(s.mean),
                us(s.max)
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    println!("\n{n} samples each; sign and verify include reading a 32-byte message file.");
    Ok(())
}
