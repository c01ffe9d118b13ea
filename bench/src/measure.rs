//! Timing: pinning to one core (and unpinning, for the batch pool), one sample = one operation timed with both the TSC and
//! `Instant`, round-robin rounds across libraries, re-runs of disturbed samples, summary stats.

use core::arch::x86_64::{_mm_lfence, _rdtsc};
use std::time::Instant;

/// A sample is re-run (at most this many times) when the thread was context-switched during it,
/// or when it took more than `OUTLIER_FACTOR` times the running median of its series.
const MAX_RERUNS: u32 = 3;
const OUTLIER_FACTOR: u64 = 10;
/// The outlier test starts once a series has this many samples.
const MIN_FOR_MEDIAN: usize = 8;

/// Pins the calling thread to `cpu`. Threads it spawns afterwards inherit that: the batch
/// section's thread pool undoes it with [`allow_cpus`].
pub fn pin_to_cpu(cpu: usize) -> std::io::Result<()> {
    allow_cpus(&[cpu])
}

/// Lets the calling thread run on any of `cpus`.
pub fn allow_cpus(cpus: &[usize]) -> std::io::Result<()> {
    // SAFETY: cpu_set_t is plain data; CPU_SET bounds-checks each cpu against the set size.
    unsafe {
        let mut set: libc::cpu_set_t = core::mem::zeroed();
        for &cpu in cpus {
            libc::CPU_SET(cpu, &mut set);
        }
        if libc::sched_setaffinity(0, size_of::<libc::cpu_set_t>(), &set) != 0 {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(())
}

/// The CPUs this thread may run on.
pub fn allowed_cpus() -> Vec<usize> {
    // SAFETY: as above; sched_getaffinity fills the set.
    unsafe {
        let mut set: libc::cpu_set_t = core::mem::zeroed();
        if libc::sched_getaffinity(0, size_of::<libc::cpu_set_t>(), &mut set) != 0 {
            return Vec::new();
        }
        (0..libc::CPU_SETSIZE as usize)
            .filter(|&c| libc::CPU_ISSET(c, &set))
            .collect()
    }
}

/// Voluntary plus involuntary context switches of this thread so far.
fn context_switches() -> i64 {
    // SAFETY: getrusage writes a plain struct.
    unsafe {
        let mut ru: libc::rusage = core::mem::zeroed();
        libc::getrusage(libc::RUSAGE_THREAD, &mut ru);
        ru.ru_nvcsw + ru.ru_nivcsw
    }
}

/// The time-stamp counter, fenced so the measured work cannot move across the read.
#[inline(always)]
fn tsc() -> u64 {
    // SAFETY: lfence and rdtsc exist on every x86-64 CPU.
    unsafe {
        _mm_lfence();
        let t = _rdtsc();
        _mm_lfence();
        t
    }
}

/// The samples of one (parameter set, operation, library).
#[derive(Default)]
pub struct Series {
    cycles: Vec<u64>,
    nanos: Vec<u64>,
    /// Samples thrown away and taken again (context switch or > 10x the running median).
    pub reruns: u32,
    median_hint: u64,
}

impl Series {
    fn plausible(&self, cycles: u64) -> bool {
        self.cycles.len() < MIN_FOR_MEDIAN || cycles <= OUTLIER_FACTOR * self.median_hint
    }

    fn push(&mut self, cycles: u64, nanos: u64) {
        self.cycles.push(cycles);
        self.nanos.push(nanos);
        let n = self.cycles.len();
        // Refresh the running median now and then (a sort of at most a few thousand numbers).
        if n >= MIN_FOR_MEDIAN && (n.is_power_of_two() || n.is_multiple_of(64)) {
            self.median_hint = median(&mut self.cycles.clone());
        }
    }

    /// Times `op` once and records it, re-running it if the sample looks disturbed.
    pub fn measure(&mut self, mut op: impl FnMut()) {
        for attempt in 0..=MAX_RERUNS {
            let switches = context_switches();
            let start = Instant::now();
            let c0 = tsc();
            op();
            let c1 = tsc();
            let nanos = start.elapsed().as_nanos() as u64;
            let cycles = c1.wrapping_sub(c0);
            let clean = context_switches() == switches && self.plausible(cycles);
            // A deterministic operation that is genuinely slow on this input stays slow when
            // re-run; after MAX_RERUNS tries the sample is kept.
            if clean || attempt == MAX_RERUNS {
                self.push(cycles, nanos);
                return;
            }
            self.reruns += 1;
        }
    }

    pub fn stats(&self) -> Stats {
        Stats {
            n: self.cycles.len(),
            reruns: self.reruns,
            micros: Summary::of(&self.nanos, 1e-3),
            cycles: Summary::of(&self.cycles, 1.0),
        }
    }
}

/// Runs `warmup` unrecorded rounds, then `rounds` recorded ones; in each round every one of
/// `series.len()` contestants does `op(i, round)` once (rounds are numbered on from the warm-up,
/// so no input is reused). The order within a round rotates, so no contestant always follows
/// the same one, and slow drift (frequency, other load) affects all alike.
pub fn round_robin(
    series: &mut [Series],
    warmup: usize,
    rounds: usize,
    mut op: impl FnMut(usize, usize),
) {
    let k = series.len();
    for r in 0..warmup {
        for i in 0..k {
            op(i, r);
        }
    }
    for r in 0..rounds {
        for j in 0..k {
            let i = (r + j) % k;
            series[i].measure(|| op(i, warmup + r));
        }
    }
}

/// min / median / mean / max of one quantity.
#[derive(Clone, Copy, Debug, Default)]
pub struct Summary {
    pub min: f64,
    pub median: f64,
    pub mean: f64,
    pub max: f64,
}

impl Summary {
    fn of(values: &[u64], scale: f64) -> Summary {
        if values.is_empty() {
            return Summary::default();
        }
        let mut v = values.to_vec();
        let med = median_f64(&mut v);
        Summary {
            min: v[0] as f64 * scale,
            median: med * scale,
            mean: v.iter().map(|&x| x as f64).sum::<f64>() / v.len() as f64 * scale,
            max: v[v.len() - 1] as f64 * scale,
        }
    }
}

#[derive(Clone, Copy, Debug)]
pub struct Stats {
    pub n: usize,
    pub reruns: u32,
    pub micros: Summary,
    pub cycles: Summary,
}

fn median(v: &mut [u64]) -> u64 {
    v.sort_unstable();
    v[v.len() / 2]
}

/// Sorts `v` and returns its median (mean of the middle two for an even count).
fn median_f64(v: &mut [u64]) -> f64 {
    v.sort_unstable();
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2] as f64
    } else {
        (v[n / 2 - 1] as f64 + v[n / 2] as f64) / 2.0
    }
}
