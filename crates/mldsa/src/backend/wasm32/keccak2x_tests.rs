//! The two-way permutation and sponge against the portable ones, and (ignored, run by hand)
//! their timing: `bash scripts/wasm-simd-tests.sh keccak2x_timing -- --ignored --nocapture`
//! (the test profile is opt-level 3).

use super::keccak2x::{Shake2, f1600x2, from_vectors, to_vectors};
use crate::hash::keccak::{Permutation, SHAKE128_RATE, SHAKE256_RATE, Sponge};
use crate::math::splitmix::SplitMix64;

#[test]
fn f1600x2_is_two_portable_permutations() {
    let mut rng = SplitMix64(0x2A);
    for trial in 0..64 {
        let lanes: [[u64; 2]; 25] = if trial == 0 {
            [[0; 2]; 25]
        } else {
            core::array::from_fn(|_| [rng.next_u64(), rng.next_u64()])
        };
        let mut v = to_vectors(&lanes);
        f1600x2(&mut v);
        let got = from_vectors(&v);
        for i in 0..2 {
            let mut s: [u64; 25] = core::array::from_fn(|j| lanes[j][i]);
            Permutation::PORTABLE.apply(&mut s);
            let g: [u64; 25] = core::array::from_fn(|j| got[j][i]);
            assert_eq!(g, s, "trial {trial}, state {i}");
        }
    }
}

/// Two-way sponges of rate `RATE` against the scalar sponge of that rate, for input lengths
/// around the word boundaries and up to a block less one.
fn check_sponge<const RATE: usize>() {
    let mut rng = SplitMix64(0x5A + RATE as u64);
    for len in [0usize, 1, 7, 8, 9, 33, 34, 35, 66, 100, RATE - 1] {
        let inputs: [std::vec::Vec<u8>; 2] =
            core::array::from_fn(|_| (0..len).map(|_| rng.next_u64() as u8).collect());
        let mut two = Shake2::<RATE>::new();
        two.absorb_once([&inputs[0], &inputs[1]]);
        let mut got = [[0u8; 4 * 168]; 2];
        let [g0, g1] = &mut got;
        // One block, then three: the streams continue across calls.
        two.squeeze_blocks([&mut g0[..RATE], &mut g1[..RATE]]);
        two.squeeze_blocks([&mut g0[RATE..4 * RATE], &mut g1[RATE..4 * RATE]]);
        for (input, g) in inputs.iter().zip(&got) {
            let mut one = Sponge::<RATE, 0x1F>::new();
            one.absorb(input);
            one.finalize();
            let mut want = [0u8; 4 * 168];
            one.squeeze(&mut want[..4 * RATE]);
            assert_eq!(g[..4 * RATE], want[..4 * RATE], "rate {RATE}, length {len}");
        }
    }
}

#[test]
fn shake2_is_two_portable_sponges() {
    check_sponge::<SHAKE128_RATE>();
    check_sponge::<SHAKE256_RATE>();
}

/// Nanoseconds for one call of `f`, over `iters` calls.
fn run(iters: u32, mut f: impl FnMut()) -> f64 {
    let start = std::time::Instant::now();
    for _ in 0..iters {
        f();
    }
    start.elapsed().as_nanos() as f64 / iters as f64
}

/// The fastest and the median of `runs` (sorted in place).
fn min_median(runs: &mut [f64]) -> (f64, f64) {
    runs.sort_by(f64::total_cmp);
    (runs[0], runs[runs.len() / 2])
}

/// The scalar permutation against the two-way one, per state: short runs of each, interleaved
/// so that the machine's load (which only ever adds time) falls on both alike; the fastest and
/// the median run of each.
#[test]
#[ignore = "timing, run by hand"]
fn keccak2x_timing() {
    let mut s = [0u64; 25];
    let mut v = to_vectors(&[[1, 2]; 25]);
    // Warm-up: V8 first runs a function in its baseline compiler and swaps in the optimised
    // code when a background compile finishes, which on a loaded machine can take a while.
    let warm = std::time::Instant::now();
    while warm.elapsed().as_millis() < 1_000 {
        run(100, || {
            Permutation::PORTABLE.apply(core::hint::black_box(&mut s))
        });
        run(100, || f1600x2(core::hint::black_box(&mut v)));
    }
    let (mut scalar, mut two) = ([0f64; 201], [0f64; 201]);
    for (a, b) in scalar.iter_mut().zip(two.iter_mut()) {
        *a = run(2_000, || {
            Permutation::PORTABLE.apply(core::hint::black_box(&mut s))
        });
        *b = run(1_000, || f1600x2(core::hint::black_box(&mut v))) / 2.0;
    }
    let (s_min, s_med) = min_median(&mut scalar);
    let (t_min, t_med) = min_median(&mut two);
    std::println!(
        "ns per state: scalar min {s_min:.0} median {s_med:.0}; 2-way min {t_min:.0} median \
         {t_med:.0}; ratio min {:.2} median {:.2}",
        s_min / t_min,
        s_med / t_med
    );
}
