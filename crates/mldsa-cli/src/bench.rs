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

/// How long one algorithm may be measured.
const TIME_BOX: Duration = Duration::from_secs(60);

/// A progress bar for long runs, when stderr is a terminal.
fn progress(n: u64, alg: Alg) -> Option<indicatif::ProgressBar> {
    use std::io::IsTerminal;
    (n > 1000 && std::io::stderr().is_terminal()).then(|| {
        let bar = indicatif::ProgressBar::new(n);
        bar.set_message(alg.name());
        bar
    })
}

pub fn run(a: &BenchArgs) -> Result<()> {
    let algs = if a.alg.is_empty() {
        vec![Alg::MlDsa44, Alg::MlDsa65, Alg::MlDsa87]
    } else {
        a.alg.clone()
    };
    let n = a.samples as usize;
    // The name as the C library's mldsa_backend() gives it: "avx512", "avx2", "neon", ...
    let backend = format!("{:?}", mldsa::backend::active_backend()).to_lowercase();
    let overrides = if cfg!(target_arch = "x86_64") {
        "MLDSA_BACKEND=portable forces the portable one, MLDSA_BACKEND=avx2 AVX2 without AVX-512"
    } else {
        "MLDSA_BACKEND=portable forces the portable one"
    };
    outln!("backend: {backend} ({overrides})\n");
    let dir = std::env::temp_dir().join(format!("mldsa-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| crate::error::CliError::usage(e.to_string()))?;
    outln!("| algorithm | operation | min µs | median µs | mean µs | max µs |");
    outln!("| --- | --- | ---: | ---: | ---: | ---: |");
    for alg in algs {
        let mut keygen = Vec::with_capacity(n);
        let mut sign = Vec::with_capacity(n);
        let mut verify = Vec::with_capacity(n);
        let plain = MessageOptions {
            ctx: Vec::new(),
            prehash: None,
            external_mu: false,
        };
        let started = Instant::now();
        let bar = progress(n as u64, alg);
        for i in 0..n {
            // A time box, so that a huge -n ends: what was measured so far is reported.
            if started.elapsed() > TIME_BOX && i >= 3 {
                eprintln!("mldsa: {alg}: stopped after {i} samples ({TIME_BOX:?} time box)");
                break;
            }
            if let Some(bar) = &bar {
                bar.inc(1);
            }
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
        if let Some(bar) = bar {
            bar.finish_and_clear();
        }
        for (name, samples) in [("keygen", keygen), ("sign", sign), ("verify", verify)] {
            let s = stats(samples);
            outln!(
                "| {alg} | {name} | {} | {} | {} | {} |",
                us(s.min),
                us(s.median),
                us(s.mean),
                us(s.max)
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    outln!("\nup to {n} samples each; sign and verify include reading a 32-byte message file.");
    Ok(())
}
