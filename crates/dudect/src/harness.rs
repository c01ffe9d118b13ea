//! Timing and judging: dudect's method (Reparaz, Balasch and Verbauwhede, "dude, is my code
//! constant time?", DATE 2017), written here so that its statistics are the method's.
//!
//! Each measurement is one call timed with the monotonic clock and filed under its class. The
//! verdict is Welch's t between the classes, on all measurements and on 100 crops that keep only
//! those below a percentile of the first batch (dudect's `1 - 0.5^(10 k / 100)`, k = 1..=100,
//! about the fastest 7 % up to all but the slowest 0.1 %), which cut off the slow tail that
//! interrupts and other load add. The largest |t| is reported.
//!
//! Why not the `dudect-bencher` crate, which this replaced on 2026-11-29: it takes the largest
//! |t| over every crop, however few measurements a crop holds. With timings in whole
//! nanoseconds, a percentile can fall on the minimum value itself; the crop below it then holds
//! the handful of runs that came in faster than the usual minimum, and two classes of three
//! identical values each give |t| = infinity (seen on `decompose_check44.avx2`, a 60 ns
//! kernel, at n = 10^5). dudect's own C implementation counts a crop only once it holds more
//! than 10,000 measurements; this one counts it once each class has [`ENOUGH`] in it (fewer in
//! short runs), and the test on all measurements always counts.

use rand::SeedableRng;
use rand_chacha::ChaCha20Rng;
use std::hint::black_box;
use std::io::Write;
use std::time::Instant;

/// The generator every bench draws its inputs and classes from (seeded per bench and printed,
/// so that a run can be repeated with `--seed`).
pub type BenchRng = ChaCha20Rng;

/// A bench: times the measurements of one primitive (see `benches`) into the runner.
pub type BenchFn = fn(&mut Runner, &mut BenchRng);

/// The two input classes of a bench.
#[derive(Clone, Copy)]
pub enum Class {
    /// The fixed or structured secret.
    Left = 0,
    /// Random secrets.
    Right = 1,
}

/// The measurements of one batch in the order they were made: class and nanoseconds.
#[derive(Default)]
pub struct Runner {
    times: Vec<(Class, u64)>,
}

impl Runner {
    /// Times `f` once and files the time under `class`.
    pub fn run_one<T>(&mut self, class: Class, f: impl FnOnce() -> T) {
        let start = Instant::now();
        black_box(f());
        let elapsed = start.elapsed();
        let nanos = u64::try_from(elapsed.as_nanos()).unwrap_or(u64::MAX);
        self.times.push((class, nanos));
    }
}

/// A crop counts toward the verdict only when each class has at least this many measurements
/// in it: dudect's `DUDECT_ENOUGH_MEASUREMENTS`. (At 10^5 measurements, about 50,000 a class,
/// that is the crops from about the 20th percentile up.) Shorter runs lower it to half the
/// smaller class, so that the crops from the median up still count: with the test on all
/// measurements alone, the slow tail hides even the canary (|t| 45 at 2 x 10^4, against
/// hundreds with the crops).
pub const ENOUGH: u64 = 10_000;

/// Welch's t-test between the classes, accumulated one measurement at a time (Welford).
#[derive(Clone, Copy, Default)]
struct Welch {
    n: [u64; 2],
    mean: [f64; 2],
    m2: [f64; 2],
}

impl Welch {
    fn push(&mut self, class: usize, x: f64) {
        self.n[class] += 1;
        let delta = x - self.mean[class];
        self.mean[class] += delta / self.n[class] as f64;
        self.m2[class] += delta * (x - self.mean[class]);
    }

    /// t, or `None` while a class has fewer than two measurements.
    fn t(&self) -> Option<f64> {
        if self.n.iter().any(|&n| n < 2) {
            return None;
        }
        let var = |c: usize| self.m2[c] / (self.n[c] - 1) as f64 / self.n[c] as f64;
        let t = (self.mean[0] - self.mean[1]) / (var(0) + var(1)).sqrt();
        // Zero variance in both classes gives 0/0 (equal means) or +-infinity: a crop of
        // identical values says nothing either way, and ENOUGH keeps such crops out.
        t.is_finite().then_some(t)
    }

    fn total(&self) -> u64 {
        self.n[0] + self.n[1]
    }
}

/// The verdict so far on one bench: the largest |t| over the tests that count.
pub struct Summary {
    /// t of that test (signed: positive when `Left` is slower).
    pub t: f64,
    /// The measurements in that test.
    pub n: u64,
}

/// The tests of one bench, accumulated over batches (`--continuous` runs many).
pub struct Tests {
    /// The crops' upper bounds, from the first batch.
    thresholds: Vec<f64>,
    /// Test 0 on every measurement, test k on those below `thresholds[k - 1]`.
    tests: Vec<Welch>,
}

impl Tests {
    /// dudect's crops, placed at percentiles of `first`'s measurements.
    pub fn new(first: &Runner) -> Self {
        let mut all: Vec<u64> = first.times.iter().map(|&(_, t)| t).collect();
        all.sort_unstable();
        let thresholds = (1..=100)
            .map(|k| percentile(&all, 1.0 - 0.5f64.powf(f64::from(10 * k) / 100.0)))
            .collect::<Vec<_>>();
        let tests = vec![Welch::default(); thresholds.len() + 1];
        Tests { thresholds, tests }
    }

    /// Adds a batch's measurements to every test whose crop they fall in.
    pub fn add(&mut self, batch: &Runner) {
        for &(class, time) in &batch.times {
            let x = time as f64;
            self.tests[0].push(class as usize, x);
            for (test, &bound) in self.tests[1..].iter_mut().zip(&self.thresholds) {
                if x < bound {
                    test.push(class as usize, x);
                }
            }
        }
    }

    /// The largest |t| over the test on all measurements and the crops with [`ENOUGH`] in
    /// each class (or, in a short run, half the smaller class).
    pub fn summary(&self) -> Summary {
        let enough = ENOUGH.min(self.tests[0].n[0].min(self.tests[0].n[1]) / 2);
        let counts = |w: &Welch, i: usize| i == 0 || w.n.iter().all(|&n| n >= enough.max(2));
        self.tests
            .iter()
            .enumerate()
            .filter(|&(i, w)| counts(w, i))
            .filter_map(|(_, w)| {
                Some(Summary {
                    t: w.t()?,
                    n: w.total(),
                })
            })
            .fold(Summary { t: 0.0, n: 0 }, |best, s| {
                if s.t.abs() > best.t.abs() { s } else { best }
            })
    }
}

/// The `p`-quantile (0..=1) of sorted values, interpolated between neighbours.
fn percentile(sorted: &[u64], p: f64) -> f64 {
    let Some(&last) = sorted.last() else {
        return 0.0;
    };
    let rank = p * (sorted.len() - 1) as f64;
    let low = rank.floor() as usize;
    let Some(&high) = sorted.get(low + 1) else {
        return last as f64;
    };
    let below = sorted[low] as f64;
    below + (high as f64 - below) * (rank - low as f64)
}

/// One bench to run: its name and function.
pub struct Bench {
    pub name: String,
    pub run: BenchFn,
}

/// How [`run`] runs the benches.
pub struct Options {
    /// Only the bench of this name if there is one, else those whose name contains it.
    pub filter: Option<String>,
    /// Repeat the first matching bench, accumulating, until the process is stopped.
    pub continuous: bool,
    /// The seed of every bench's generator (default: a fresh random seed per bench).
    pub seed: Option<u64>,
    /// Where to write every measurement as `bench,class,nanoseconds` lines.
    pub out: Option<std::fs::File>,
}

/// Runs the benches, printing one line per result in dudect's format (which
/// `scripts/dudect.sh` reads): `bench NAME ... : n == +0.100M, max t = +1.23456, ...`.
pub fn run(benches: Vec<Bench>, mut opts: Options) -> std::io::Result<()> {
    let mut benches: Vec<Bench> = benches
        .into_iter()
        .filter(|b| match &opts.filter {
            None => true,
            Some(f) => b.name.contains(f.as_str()),
        })
        .collect();
    benches.sort_by(|a, b| a.name.cmp(&b.name));
    // A whole name picks that bench alone: `ntt.avx2` is not also `multiply_ntt.avx2`.
    if let Some(i) = benches
        .iter()
        .position(|b| opts.filter.as_ref() == Some(&b.name))
    {
        benches = vec![benches.swap_remove(i)];
    }
    if let (true, Some(filter)) = (benches.is_empty(), &opts.filter) {
        let msg = format!("no bench matches {filter:?} (--list names them)");
        return Err(std::io::Error::new(std::io::ErrorKind::InvalidInput, msg));
    }
    if opts.continuous {
        benches.truncate(1);
    }
    let width = benches.iter().map(|b| b.name.len()).max().unwrap_or(0);
    let mut stdout = std::io::stdout();
    writeln!(stdout, "running {} benches", benches.len())?;
    for bench in &benches {
        let seed = opts.seed.unwrap_or_else(rand::random);
        let mut rng = BenchRng::seed_from_u64(seed);
        writeln!(
            stdout,
            "bench {:width$} seeded with 0x{seed:016x}",
            bench.name
        )?;
        let mut tests: Option<Tests> = None;
        loop {
            let mut runner = Runner::default();
            (bench.run)(&mut runner, &mut rng);
            if let Some(out) = opts.out.as_mut() {
                write_times(out, &bench.name, &runner)?;
            }
            let tests = tests.get_or_insert_with(|| Tests::new(&runner));
            tests.add(&runner);
            let s = tests.summary();
            let tau = s.t / (s.n.max(1) as f64).sqrt();
            writeln!(
                stdout,
                "bench {:width$} ... : n == {:+0.3}M, max t = {:+0.5}, max tau = {tau:+0.5}, \
                 (5/tau)^2 = {}",
                bench.name,
                s.n as f64 / 1e6,
                s.t,
                (5.0 / tau).powi(2) as u64,
            )?;
            if !opts.continuous {
                break;
            }
        }
    }
    Ok(())
}

/// Appends a batch's measurements to the `--out` file, in the order they were made.
fn write_times(out: &mut std::fs::File, name: &str, runner: &Runner) -> std::io::Result<()> {
    let mut w = std::io::BufWriter::new(out);
    for &(class, t) in &runner.times {
        writeln!(w, "{name},{},{t}", class as u8)?;
    }
    w.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runner(left: &[u64], right: &[u64]) -> Runner {
        let left = left.iter().map(|&t| (Class::Left, t));
        let right = right.iter().map(|&t| (Class::Right, t));
        Runner {
            times: left.chain(right).collect(),
        }
    }

    #[test]
    fn welch_t_matches_a_hand_computation() {
        // Left 1, 2, 3 (mean 2, variance 1); right 4, 5, 6, 7 (mean 5.5, variance 5/3).
        let mut w = Welch::default();
        for x in [1.0, 2.0, 3.0] {
            w.push(0, x);
        }
        for x in [4.0, 5.0, 6.0, 7.0] {
            w.push(1, x);
        }
        let expected = (2.0 - 5.5) / (1.0f64 / 3.0 + (5.0 / 3.0) / 4.0).sqrt();
        assert!((w.t().unwrap() - expected).abs() < 1e-12);
    }

    #[test]
    fn identical_constant_classes_give_no_t() {
        let mut w = Welch::default();
        for class in [0, 0, 1, 1] {
            w.push(class, 5.0);
        }
        assert_eq!(w.t(), None);
        w.push(1, 6.0);
        assert!(w.t().is_some());
    }

    #[test]
    fn percentile_interpolates() {
        assert_eq!(percentile(&[10, 20, 30], 0.5), 20.0);
        assert_eq!(percentile(&[10, 20], 0.25), 12.5);
        assert_eq!(percentile(&[10, 20], 1.0), 20.0);
        assert_eq!(percentile(&[], 0.5), 0.0);
    }

    /// The defect this module exists for: a few fast outliers under the usual minimum, split
    /// by class, must not decide the verdict.
    #[test]
    fn a_crop_of_a_few_outliers_does_not_count() {
        let mut left = vec![60u64; 30_000];
        let mut right = vec![60u64; 30_000];
        // Some spread above the minimum, the same in both classes.
        for (i, (l, r)) in left.iter_mut().zip(right.iter_mut()).enumerate() {
            *l += (i % 7) as u64;
            *r += ((i + 3) % 7) as u64;
        }
        left.extend([50, 50, 50]);
        right.extend([51, 51, 51]);
        let batch = runner(&left, &right);
        let mut tests = Tests::new(&batch);
        tests.add(&batch);
        let s = tests.summary();
        assert!(s.t.is_finite() && s.t.abs() < 1.0, "t = {}", s.t);
        assert!(s.n >= 2 * ENOUGH);
    }

    /// In a run too short for ENOUGH, the crops from the median up still count: a shift in the
    /// fast half, under a slow tail that swamps the test on all measurements, is seen.
    #[test]
    fn a_short_run_keeps_its_crops() {
        let mut left: Vec<u64> = (0..4_000).map(|i| 100 + i % 5).collect();
        let mut right: Vec<u64> = (0..4_000).map(|i| 102 + i % 5).collect();
        // The slow tail: a fifth of each class, spread over a millisecond.
        for (i, (l, r)) in left.iter_mut().zip(right.iter_mut()).enumerate().step_by(5) {
            *l = 1_000 + (i as u64 * 7_919) % 1_000_000;
            *r = 1_000 + (i as u64 * 104_729) % 1_000_000;
        }
        let batch = runner(&left, &right);
        let mut tests = Tests::new(&batch);
        tests.add(&batch);
        let all = tests.tests[0].t().unwrap().abs();
        let s = tests.summary();
        assert!(all < 5.0, "the test on all measurements alone sees {all}");
        assert!(s.t < -20.0 && s.n >= 4_000, "t = {}, n = {}", s.t, s.n);
    }

    #[test]
    fn a_shift_is_seen() {
        let left: Vec<u64> = (0..20_000).map(|i| 100 + i % 10).collect();
        let right: Vec<u64> = (0..20_000).map(|i| 101 + i % 10).collect();
        let batch = runner(&left, &right);
        let mut tests = Tests::new(&batch);
        tests.add(&batch);
        assert!(tests.summary().t < -20.0);
    }
}
