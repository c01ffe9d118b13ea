//! Batch throughput on all cores: `N` signatures verified (or messages signed) one after another
//! on one thread, against `mldsa::batch` spreading the same `N` over a rayon pool with one
//! thread per allowed core. The ratio of the two throughputs is the scaling factor.
//!
//! Both sides run on the pool's threads, which may use every allowed core: the process pins
//! its main thread to one core for the latency rows, and threads inherit that, so the pool
//! widens its threads' affinity again when they start. The one-by-one loop runs on a single
//! pool thread (`install` of a plain loop), under the same conditions as the batch.

use crate::measure;
use crate::peers::ParamSet;
use crate::peers::mldsa::Batch;
use std::time::Instant;

/// One batch measurement: `n` operations under one key, one by one vs through `mldsa::batch`.
pub struct BatchRow {
    pub ps: ParamSet,
    /// "verify" (PreparedVerifyingKey::verify_batch) or "sign" (sign_batch_deterministic).
    pub op: &'static str,
    pub n: usize,
    pub threads: usize,
    /// Timed repetitions of each side; the throughputs are from the median time.
    pub reps: usize,
    /// Operations per second, one thread.
    pub serial_per_s: f64,
    /// Operations per second through the batch API on `threads` threads.
    pub batch_per_s: f64,
    /// The scaling of each alternating (one thread, batch) pair of repetitions, sorted: on a
    /// shared host the second core comes and goes, and the spread shows it.
    pub pair_scaling: Vec<f64>,
}

impl BatchRow {
    pub fn scaling(&self) -> f64 {
        self.batch_per_s / self.serial_per_s
    }

    /// The best pair's scaling: what the code does when both cores are really available.
    pub fn best_pair_scaling(&self) -> f64 {
        self.pair_scaling.last().copied().unwrap_or(f64::NAN)
    }
}

/// A pool with one thread per CPU of `cpus`, each allowed to run on all of them.
pub fn pool(cpus: &[usize]) -> rayon::ThreadPool {
    let cpus = cpus.to_vec();
    rayon::ThreadPoolBuilder::new()
        .num_threads(cpus.len().max(1))
        .thread_name(|i| format!("batch-{i}"))
        .start_handler(move |_| {
            if let Err(e) = measure::allow_cpus(&cpus) {
                eprintln!("warning: a batch thread stays pinned: {e}");
            }
        })
        .build()
        .expect("rayon pool")
}

/// One way of doing a batch's operations: one by one, or through the batch API.
type Side = fn(&dyn Batch);

/// Verify and sign throughput of `batch` (parameter set `ps`), `reps` times each way.
pub fn run(
    ps: ParamSet,
    reps: usize,
    pool: &rayon::ThreadPool,
    batch: &dyn Batch,
) -> Vec<BatchRow> {
    // Also the warm-up: it starts the pool's threads working and touches every input.
    pool.install(|| batch.check());
    let ops: [(&str, Side, Side); 2] = [
        ("verify", |b| b.verify_serial(), |b| b.verify_batch()),
        ("sign", |b| b.sign_serial(), |b| b.sign_batch()),
    ];
    ops.into_iter()
        .map(|(op, serial, batched)| {
            // Alternate the two sides, so that a change in the machine's load hits both.
            let (mut one, mut all) = (Vec::new(), Vec::new());
            for _ in 0..reps {
                one.push(seconds(|| pool.install(|| serial(batch))));
                all.push(seconds(|| pool.install(|| batched(batch))));
            }
            let n = batch.len();
            let mut pair_scaling: Vec<f64> = one.iter().zip(&all).map(|(o, a)| o / a).collect();
            pair_scaling.sort_by(f64::total_cmp);
            BatchRow {
                ps,
                op,
                n,
                threads: pool.current_num_threads(),
                reps,
                serial_per_s: n as f64 / median(&mut one),
                batch_per_s: n as f64 / median(&mut all),
                pair_scaling,
            }
        })
        .collect()
}

fn seconds(f: impl FnOnce()) -> f64 {
    let start = Instant::now();
    f();
    start.elapsed().as_secs_f64()
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}
