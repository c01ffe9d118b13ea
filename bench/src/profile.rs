//! "Where the time goes" (issue #20): for each ML-DSA set and operation, the share of each
//! group of kernels in mldsa's time on its default backend.
//!
//! Measured, not estimated: the operation runs through the same calls as the latency rows (the
//! `Peer` implementation of `peers/mldsa.rs`) once with mldsa's kernel counters on (the hidden
//! `mldsa::profile` module, built with the crate's `profile` feature), which gives the calls of
//! each kernel per operation, then timed on the same inputs with them off, sample by sample as
//! the latency rows are (re-run if disturbed); `mldsa::profile::leaf_costs` times each kernel alone on the same
//! backend (its own work: the counted kernels it calls are subtracted). Kernel share = calls x
//! cost; "other" is what the whole operation took beyond them. The check: the kernels' sum must
//! not exceed the whole operation by more than 10 % (it would, if the costs measured alone were
//! off or calls were counted twice).

use crate::measure::Series;
use crate::peers::{self, ParamSet};
use mldsa::profile::{self as prof, Category, KERNELS, Kernel};
use mldsa::{MlDsa44, MlDsa65, MlDsa87};
use std::time::Instant;

/// The rows of one parameter set and operation.
pub struct ProfileRow {
    pub ps: ParamSet,
    pub op: &'static str,
    /// Samples the whole-operation time and the counts come from.
    pub n: usize,
    /// The whole operation, µs: the median, the mean for signing (as in the summary).
    pub whole_us: f64,
    /// Signing attempts per signature (mean); 1 for the other operations.
    pub attempts: f64,
    /// µs per operation in each category, in `Category::ALL` order.
    pub parts_us: [f64; 8],
}

impl ProfileRow {
    /// The kernels' sum as a fraction of the whole.
    pub fn coverage(&self) -> f64 {
        self.parts_us.iter().sum::<f64>() / self.whole_us
    }

    /// Whether the sum is within the 10 % allowed over the whole.
    pub fn check_ok(&self) -> bool {
        self.coverage() <= 1.10
    }
}

/// Kernel costs (ns per call) of one parameter set, for the report's second table.
pub struct KernelCosts {
    pub ps: ParamSet,
    pub ns: [f64; KERNELS],
}

/// Runs the profile of every ML-DSA set: `n` samples of each operation and `iters` calls per
/// timing run of each kernel.
pub fn run(n: usize, iters: u32) -> (Vec<ProfileRow>, Vec<KernelCosts>) {
    let started = Instant::now();
    let mut rows = Vec::new();
    let mut costs = Vec::new();
    for ps in ParamSet::ALL {
        let ns = match ps {
            ParamSet::P44 => prof::leaf_costs::<MlDsa44>(iters),
            ParamSet::P65 => prof::leaf_costs::<MlDsa65>(iters),
            ParamSet::P87 => prof::leaf_costs::<MlDsa87>(iters),
            _ => unreachable!("ML-DSA sets only"),
        };
        rows.extend(profile_set(ps, n, &ns));
        costs.push(KernelCosts { ps, ns });
    }
    eprintln!(
        "  profile              {:5.1} s",
        started.elapsed().as_secs_f64()
    );
    (rows, costs)
}

/// `op` on inputs 0..n: first with the counters on (untimed), for the calls per operation; then
/// timed with them off, each sample as the latency rows take it (re-run if disturbed):
/// (median µs, mean µs, counts per operation).
fn sample(n: usize, mut op: impl FnMut(usize)) -> (f64, f64, [f64; KERNELS]) {
    op(0);
    prof::enable(true);
    for i in 0..n {
        op(i);
    }
    let counts = prof::counts();
    prof::enable(false);
    let mut series = Series::default();
    for i in 0..n {
        series.measure(|| op(i));
    }
    let us = series.stats().micros;
    (us.median, us.mean, counts.map(|c| c as f64 / n as f64))
}

fn profile_set(ps: ParamSet, n: usize, ns: &[f64; KERNELS]) -> Vec<ProfileRow> {
    let keys = peers::mldsa::keys(ps, crate::bytes32(ps as u64, u64::MAX - 1));
    let peer = (peers::mldsa::LIB.load)(ps, &keys);
    let sig_len = match ps {
        ParamSet::P44 => MlDsa44::SIG_LEN,
        ParamSet::P65 => MlDsa65::SIG_LEN,
        _ => MlDsa87::SIG_LEN,
    };
    let msg = |i: usize| crate::bytes32(ps as u64 + 100, i as u64);
    let sigs: Vec<(Vec<u8>, [u8; 32])> = (0..crate::VERIFY_POOL.min(n.max(1)))
        .map(|i| {
            let mut sig = vec![0u8; sig_len];
            peer.sign(&msg(i), &mut sig);
            (sig, msg(i))
        })
        .collect();
    let mut sig = vec![0u8; sig_len];
    let mut rows = Vec::new();
    let mut push = |op, (median, mean, counts): (f64, f64, [f64; KERNELS]), by_mean: bool| {
        let attempts = if by_mean {
            // One SampleInBall per attempt (masks are made ahead of their attempt, in batches).
            counts[Kernel::SampleInBall as usize].max(1.0)
        } else {
            1.0
        };
        let mut parts_us = [0f64; 8];
        for k in Kernel::ALL {
            let c = Category::ALL
                .iter()
                .position(|&c| c == k.category())
                .expect("every kernel has a category");
            parts_us[c] += counts[k as usize] * ns[k as usize] / 1000.0;
        }
        let whole_us = if by_mean { mean } else { median };
        rows.push(ProfileRow {
            ps,
            op,
            n,
            whole_us,
            attempts,
            parts_us,
        });
        if by_mean {
            // The same signatures, per attempt of the rejection loop.
            let per = |x: f64| x / attempts;
            rows.push(ProfileRow {
                ps,
                op: if op == "sign (warm)" {
                    "sign (warm), per attempt"
                } else {
                    "sign (cold), per attempt"
                },
                n,
                whole_us: per(whole_us),
                attempts,
                parts_us: parts_us.map(per),
            });
        }
    };
    push(
        "keygen",
        sample(n, |i| {
            peer.keygen(&crate::bytes32(ps as u64 + 200, i as u64))
        }),
        false,
    );
    push(
        "sign (warm)",
        sample(n, |i| peer.sign(&msg(i), &mut sig)),
        true,
    );
    push(
        "sign (cold)",
        sample(n, |i| peer.sign_cold(&keys.sk, &msg(i), &mut sig)),
        true,
    );
    let pick = |i: usize| &sigs[i % sigs.len()];
    push(
        "verify (warm)",
        sample(n, |i| {
            let (s, m) = pick(i);
            assert!(peer.verify(m, s), "profile: mldsa verifies its signature");
        }),
        false,
    );
    push(
        "verify (cold)",
        sample(n, |i| {
            let (s, m) = pick(i);
            assert!(peer.verify_cold(&keys.pk, m, s), "profile: mldsa verifies");
        }),
        false,
    );
    rows
}
