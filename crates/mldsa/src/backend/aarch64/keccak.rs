//! Which builds of Keccak-f[1600] the NEON backend runs: the SHA-3 instructions (FEAT_SHA3,
//! optional from Armv8.2-A) where the CPU has them, else base NEON for the two-way permutation
//! and the portable build for one state.
//!
//! Counted under qemu (instructions per permutation; `keccak_icount` below): the portable build
//! compiles to about 3,690 (LLVM already folds theta's rotation by one into `eor ..., ror #63`
//! and uses `bic` for chi; what is left is 24 `ror`s and some 40 loads and stores of spilled
//! lanes per round, which only a hand-scheduled lazy-rotation build would remove); two states
//! in base NEON about 4,340 (2,170 per state: NEON has no 64-bit rotate, so each costs a shift
//! and a shift-and-insert); two states with the SHA-3 instructions about 1,690 (845 per state);
//! one state alone on them the same 1,690 (the same assembly, on half of each register). So the
//! samplers run two states at a time on either build, and the scalar sponges switch to the
//! SHA-3 build where the CPU has it. (Each count includes some 40 instructions of the test's
//! own loop.) (A hybrid,
//! say two NEON states and one scalar interleaved, cannot lower the instruction count, the
//! measure here: its count is the sum of its parts; it could only help the cycles of a core
//! with idle scalar pipes, which we cannot measure.)
//!
//! Detection: with the `std` feature, `is_aarch64_feature_detected!` (the OS's HWCAP), cached
//! here; without `std` only a build with the feature enabled (`-C target-feature=+sha3`) uses
//! it. The choice depends only on the CPU, never on data.

use super::keccak2x::{Lanes2, f1600_sha3, f1600x2_neon, f1600x2_sha3};
use crate::hash::keccak::Permutation;
use core::sync::atomic::{AtomicU8, Ordering};

/// 0: not detected yet; 1: no SHA-3 instructions; 2: they are there.
static SHA3: AtomicU8 = AtomicU8::new(0);

/// Whether this CPU has the SHA-3 instructions (detected once, then cached).
#[inline]
pub(crate) fn has_sha3() -> bool {
    if cfg!(target_feature = "sha3") {
        return true;
    }
    match SHA3.load(Ordering::Relaxed) {
        0 => {
            let yes = detect_sha3();
            SHA3.store(1 + u8::from(yes), Ordering::Relaxed);
            yes
        }
        known => known == 2,
    }
}

/// Asks the OS (with `std`).
#[cfg(any(test, feature = "std"))]
fn detect_sha3() -> bool {
    std::arch::is_aarch64_feature_detected!("sha3")
}

/// Without `std` there is no portable way to ask: only builds with the feature use it.
#[cfg(not(any(test, feature = "std")))]
fn detect_sha3() -> bool {
    false
}

/// The build of Keccak-f[1600] the scalar sponges run (H, G, mu, c-tilde, SampleInBall): one
/// state on the SHA-3 instructions where the CPU has them, else the portable build.
pub(crate) fn permutation() -> Permutation {
    if has_sha3() {
        Permutation::build(f1600)
    } else {
        Permutation::PORTABLE
    }
}

/// Keccak-f[1600] on one state: the SHA-3 build where the CPU has it, else the portable one.
/// (The check is a cached load, so a stale function pointer can never run the wrong build.)
fn f1600(state: &mut [u64; 25]) {
    if has_sha3() {
        // SAFETY: the CPU has the SHA-3 instructions, the feature `f1600_sha3` is built for.
        unsafe { f1600_sha3(state) }
    } else {
        crate::hash::keccak::f1600_rounds(state)
    }
}

/// Which two-way permutation a sponge runs: base NEON, or the SHA-3 instructions. Chosen from
/// the CPU once per sampler call and kept in the sponge; both give the same results.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Keccak2x {
    /// True only where [`has_sha3`] said so (the field is private): what makes calling
    /// [`f1600x2_sha3`] sound.
    sha3: bool,
}

impl Keccak2x {
    /// The fastest two-way permutation this CPU runs.
    #[inline]
    pub(crate) fn detect() -> Self {
        Self { sha3: has_sha3() }
    }

    /// The base NEON permutation (for tests and measurements).
    #[cfg(test)]
    pub(crate) fn neon() -> Self {
        Self { sha3: false }
    }

    /// Whether this is the SHA-3 build.
    #[inline]
    pub(crate) fn sha3(self) -> bool {
        self.sha3
    }

    /// Keccak-f[1600] on both states.
    #[inline]
    pub(crate) fn permute(self, state: &mut Lanes2) {
        if self.sha3 {
            // SAFETY: `sha3` is true only where `has_sha3` detected the SHA-3 instructions,
            // the feature `f1600x2_sha3` is built for.
            unsafe { f1600x2_sha3(state) }
        } else {
            // SAFETY: NEON (Advanced SIMD) is part of every AArch64 CPU, and Rust's AArch64
            // targets are built with it.
            unsafe { f1600x2_neon(state) }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hash::keccak::f1600_rounds;
    use crate::math::splitmix::SplitMix64;

    /// Random states, the zero state and all-ones: each build equals the portable permutation
    /// (which `hash::keccak`'s tests check against FIPS 202's step mappings and digests).
    fn states() -> impl Iterator<Item = [u64; 25]> {
        let mut rng = SplitMix64(0x6b65_6363_616b_3278);
        let random = (0..500).map(move |_| core::array::from_fn(|_| rng.next_u64()));
        [[0u64; 25], [u64::MAX; 25]].into_iter().chain(random)
    }

    fn two_way_equals_portable(keccak: Keccak2x) {
        let mut prev = [0u64; 25];
        for s in states() {
            let mut two: Lanes2 = core::array::from_fn(|j| [s[j], prev[j]]);
            keccak.permute(&mut two);
            let (mut a, mut b) = (s, prev);
            f1600_rounds(&mut a);
            f1600_rounds(&mut b);
            for j in 0..25 {
                assert_eq!(two[j], [a[j], b[j]], "lane {j} of {s:x?}");
            }
            prev = s;
        }
    }

    #[test]
    fn neon_two_way_equals_portable() {
        two_way_equals_portable(Keccak2x::neon());
    }

    #[test]
    fn sha3_builds_equal_portable() {
        if !has_sha3() {
            eprintln!("SHA-3 Keccak not tested: this CPU has no SHA-3 instructions");
            return;
        }
        two_way_equals_portable(Keccak2x::detect());
        for s in states() {
            let (mut one, mut base) = (s, s);
            f1600(&mut one);
            f1600_rounds(&mut base);
            assert_eq!(one, base, "state {s:x?}");
        }
    }

    /// `f1600` is the portable build where the CPU lacks the extension (and the dispatcher
    /// picks accordingly): checked on any CPU.
    #[test]
    fn scalar_permutation_equals_portable() {
        for s in states().take(50) {
            let (mut one, mut base) = (s, s);
            permutation().apply(&mut one);
            f1600_rounds(&mut base);
            assert_eq!(one, base);
        }
    }

    /// Runs one build `MLDSA_ICOUNT_N` times (default 0), for counting instructions per
    /// permutation under qemu: run with N and 2N, subtract, divide by N (see the module docs).
    /// `MLDSA_ICOUNT_BUILD` picks it: `portable`, `neon2x`, `sha3_2x`, `sha3_1x`.
    #[test]
    #[ignore = "measurement: MLDSA_ICOUNT_N=1000 MLDSA_ICOUNT_BUILD=neon2x qemu ... --ignored keccak_icount"]
    fn keccak_icount() {
        let n: usize = std::env::var("MLDSA_ICOUNT_N").map_or(0, |v| v.parse().unwrap());
        let build = std::env::var("MLDSA_ICOUNT_BUILD").unwrap_or_default();
        let mut one = [1u64; 25];
        let mut two: Lanes2 = [[1, 2]; 25];
        for _ in 0..n {
            match build.as_str() {
                "portable" => crate::hash::keccak::f1600(core::hint::black_box(&mut one)),
                // SAFETY: NEON is part of every AArch64 CPU.
                "neon2x" => unsafe { f1600x2_neon(core::hint::black_box(&mut two)) },
                // SAFETY: the guard detected the SHA-3 instructions.
                "sha3_2x" if has_sha3() => unsafe { f1600x2_sha3(core::hint::black_box(&mut two)) },
                // SAFETY: the guard detected the SHA-3 instructions.
                "sha3_1x" if has_sha3() => unsafe { f1600_sha3(core::hint::black_box(&mut one)) },
                other => panic!("unknown build {other:?}"),
            }
        }
        println!("{:x} {:x}", one[0], two[0][0]);
    }
}
