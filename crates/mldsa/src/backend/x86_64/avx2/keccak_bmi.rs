//! Keccak-f[1600] on one state: the portable rounds compiled with BMI1 and BMI2. `andn` makes
//! chi's `!b & c` one instruction and `rorx` rotates into a new register without touching the
//! flags, which makes the permutation about 1.3x as fast (206 against 270 ns on the Xeon of
//! 2026-11-27). It is the scalar Keccak of H, G, mu, H(mu || w1) and SampleInBall, 10-30 % of
//! each operation, on every CPU with AVX2 but AMD ones with AVX-512, where lane 0 of the
//! four-way AVX-512VL permutation is faster (`Keccak4x::scalar`); H(pk) beside the eight-way
//! permutation runs these rounds on the integer units in every case.
//!
//! BMI1 and BMI2 are CPUID bits of their own (every AVX2 CPU we know of has them, but a
//! hypervisor may hide them), so they are detected on their own. Constant time: the same
//! straight-line code as the baseline build; valgrind's CPUID reports BMI1 and BMI2, so the
//! constant-flow harness runs this build.

// Built with BMI1 and BMI2 already, the library calls the baseline permutation directly
// (`crate::hash::keccak::f1600`); the tests still compare the two builds.
#![cfg_attr(
    all(target_feature = "bmi1", target_feature = "bmi2"),
    allow(dead_code, reason = "the baseline build has BMI1 and BMI2")
)]

cpufeatures::new!(cpuid_bmi, "bmi1", "bmi2");

/// Whether this CPU has BMI1 and BMI2 (detected once, then cached by `cpufeatures`).
fn detected() -> bool {
    // Miri cannot run CPUID (inline assembly): it runs the baseline build.
    #[cfg(miri)]
    return false;
    #[cfg(not(miri))]
    cpuid_bmi::get()
}

/// The permutation the AVX2 backend's scalar sponges run: [`f1600`] where the CPU has BMI1 and
/// BMI2 and the baseline build lacks them, else the portable build.
pub(crate) fn permutation() -> crate::hash::keccak::Permutation {
    use crate::hash::keccak::Permutation;
    if cfg!(all(target_feature = "bmi1", target_feature = "bmi2")) || !detected() {
        return Permutation::PORTABLE;
    }
    Permutation::build(f1600)
}

/// Keccak-f[1600] (FIPS 202 section 3.3): the BMI1 and BMI2 build where the CPU has them, else
/// the baseline one.
#[inline]
pub(crate) fn f1600(state: &mut [u64; 25]) {
    if detected() {
        // SAFETY: BMI1 and BMI2, the features `f1600_bmi` is compiled for, were detected.
        unsafe { f1600_bmi(state) }
    } else {
        crate::hash::keccak::f1600_rounds(state)
    }
}

#[target_feature(enable = "bmi1,bmi2")]
fn f1600_bmi(state: &mut [u64; 25]) {
    crate::hash::keccak::f1600_rounds(state)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::splitmix::SplitMix64;

    /// The BMI build equals the baseline one on the zero state, all-ones and 2,000 random
    /// states (the same source, so this guards the build, not the rounds, which keccak.rs
    /// checks against FIPS 202).
    #[test]
    fn bmi_build_equals_the_baseline() {
        if !detected() {
            eprintln!("BMI1/BMI2 Keccak not tested: this CPU has no BMI1 and BMI2");
            return;
        }
        let mut rng = SplitMix64(0x6b65_6363_616b);
        let fixed = [[0u64; 25], [u64::MAX; 25]];
        let random = (0..2000).map(|_| core::array::from_fn(|_| rng.next_u64()));
        for state in fixed.into_iter().chain(random) {
            let (mut fast, mut base) = (state, state);
            f1600(&mut fast);
            crate::hash::keccak::f1600_rounds(&mut base);
            assert_eq!(fast, base, "state {state:x?}");
        }
    }

    #[test]
    #[ignore = "timing, not a check: cargo test --release -p mldsa --lib -- --ignored --nocapture keccak_bmi_timing"]
    fn keccak_bmi_timing() {
        fn ns(f: fn(&mut [u64; 25])) -> f64 {
            let mut s = [1u64; 25];
            (0..30)
                .map(|_| {
                    let start = std::time::Instant::now();
                    for _ in 0..20_000 {
                        f(core::hint::black_box(&mut s));
                    }
                    start.elapsed().as_nanos() as f64 / 20_000.0
                })
                .fold(f64::MAX, f64::min)
        }
        println!(
            "f1600 baseline: {:.1} ns",
            ns(crate::hash::keccak::f1600_rounds)
        );
        println!("f1600 BMI1+BMI2 (if detected): {:.1} ns", ns(f1600));
    }
}
