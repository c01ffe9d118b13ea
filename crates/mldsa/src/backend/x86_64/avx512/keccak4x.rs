//! The four-way Keccak-f[1600] permutation in AVX-512VL: the rounds of the AVX2 one
//! ([`crate::backend::x86_64::avx2::keccak4x`], whose layout, sponges and round macros it
//! shares) over AVX-512VL lane operations on the same 25 ymm registers, about twice as fast.
//! [`Keccak4x`](crate::backend::x86_64::Keccak4x) says which of the two a sponge runs.
//!
//! Constant time: fixed-length arithmetic on lanes; loops depend only on public lengths.

use crate::backend::x86_64::avx2::keccak4x::{plane, round, theta_rho_pi};
use crate::hash::keccak::{PI_SOURCE, RHO_OFFSETS, ROUND_CONSTANTS};
use core::arch::x86_64::*;

/// The lane operations in AVX-512VL (AVX-512 instructions on ymm registers): a 64-bit rotate
/// (`vprolq`) and a three-input bitwise function (`vpternlogq`, whose immediate is the truth
/// table: bit 4a + 2b + c of it is f(a, b, c)) make a rotation, a three-way XOR and chi one
/// instruction each, about half the instructions of AVX2 per round. VL also gives 32 vector
/// registers instead of 16, so fewer of the 25 lanes are spilled.
mod ops_avx512vl {
    use core::arch::x86_64::*;

    /// a ^ b ^ c: truth table 0b1001_0110.
    const XOR3: i32 = 0x96;
    /// a ^ (!b & c): truth table 0b1101_0010.
    const A_XOR_NOT_B_AND_C: i32 = 0xD2;

    /// Theta's column parity C[x] = A[x, 0] ^ A[x, 1] ^ ... ^ A[x, 4]: two three-way XORs.
    #[target_feature(enable = "avx2,avx512f,avx512vl")]
    #[inline]
    pub(super) fn xor5(a: __m256i, b: __m256i, c: __m256i, d: __m256i, e: __m256i) -> __m256i {
        let abc = _mm256_ternarylogic_epi64::<XOR3>(a, b, c);
        _mm256_ternarylogic_epi64::<XOR3>(abc, d, e)
    }

    /// Theta's D[x] = C[x - 1] ^ rot(C[x + 1], 1).
    #[target_feature(enable = "avx2,avx512f,avx512vl")]
    #[inline]
    pub(super) fn theta_d(c_minus: __m256i, c_plus: __m256i) -> __m256i {
        _mm256_xor_si256(c_minus, _mm256_rol_epi64::<1>(c_plus))
    }

    /// Rotates each 64-bit element of `x` left by `L` bits (`R` = 64 - `L`, unused: the same
    /// signature as the AVX2 operation).
    #[target_feature(enable = "avx2,avx512f,avx512vl")]
    #[inline]
    pub(super) fn rol<const L: i32, const R: i32>(x: __m256i) -> __m256i {
        const { assert!(L >= 0 && L < 64 && L + R == 64) };
        if L == 0 { x } else { _mm256_rol_epi64::<L>(x) }
    }

    /// Chi's a ^ (!b & c): one instruction.
    #[target_feature(enable = "avx2,avx512f,avx512vl")]
    #[inline]
    pub(super) fn chi(a: __m256i, b: __m256i, c: __m256i) -> __m256i {
        _mm256_ternarylogic_epi64::<A_XOR_NOT_B_AND_C>(a, b, c)
    }

    /// a ^ b.
    #[target_feature(enable = "avx2,avx512f,avx512vl")]
    #[inline]
    pub(super) fn xor(a: __m256i, b: __m256i) -> __m256i {
        _mm256_xor_si256(a, b)
    }

    /// The all-zero register.
    #[target_feature(enable = "avx2,avx512f,avx512vl")]
    #[inline]
    pub(super) fn zero() -> __m256i {
        _mm256_setzero_si256()
    }

    /// `x` in every 64-bit element.
    #[target_feature(enable = "avx2,avx512f,avx512vl")]
    #[inline]
    pub(super) fn splat(x: u64) -> __m256i {
        _mm256_set1_epi64x(x as i64)
    }
}

/// [`f1600x4`](crate::backend::x86_64::avx2::keccak4x::f1600x4) in AVX-512VL: the same rounds, loop
/// and results, in about half the instructions (see [`ops_avx512vl`]). Callers must have detected
/// AVX-512 F and VL ([`Keccak4x`](crate::backend::x86_64::Keccak4x) does).
#[target_feature(enable = "avx2,avx512f,avx512vl")]
pub(crate) fn f1600x4_avx512vl(state: &mut [__m256i; 25]) {
    tick!(Keccak4x, 1);
    rounds(state);
}

/// The rounds of [`f1600x4_avx512vl`], uncounted (the lane-0 permutation counts as a scalar
/// one, not as a four-way one, in the profile). One round per loop iteration, not two as in
/// `f1600x4`: the loop's end then renames the lanes for pi with more register copies, which
/// cost nothing, and on the Zen 4 (2026-11-29, `leaf_costs`) the lane-0 permutation took 217 ns
/// against 231 ns and warm verification 2-3 % less time (the four-way permutation alone, and
/// key generation, measured the same within 1-2 %).
#[target_feature(enable = "avx2,avx512f,avx512vl")]
#[inline]
fn rounds(state: &mut [__m256i; 25]) {
    let mut a = *state;
    for &rc in ROUND_CONSTANTS.iter() {
        a = round!(ops_avx512vl, a, rc);
    }
    *state = a;
}

/// The scalar sponges' permutation on AMD CPUs with AVX-512
/// ([`crate::backend::x86_64::Keccak4x::scalar`] picks it): Keccak-f[1600] on one state in
/// lane 0 of [`f1600x4_avx512vl`], whose 25 ymm registers hold the state without spilling and
/// whose `vpternlogq` and `vprolq` do a round in about half the instructions of the scalar BMI
/// build. On the Zen 4 of 2026-11-29 (family 25 model 17) one state in lane 0, moved in and
/// out, takes 217 ns (`leaf_costs`; 231 ns before [`rounds`] ran one round per loop iteration)
/// against 258 ns for the scalar one, about 16 % less. Not measured on an Intel CPU, which keeps
/// the scalar build.
pub(crate) fn lane0_permutation() -> crate::hash::keccak::Permutation {
    crate::hash::keccak::Permutation::build(f1600_lane0)
}

/// Keccak-f[1600] in lane 0 of the four-way AVX-512VL permutation where the CPU has AVX-512 F,
/// VL and BW (checked on each call, from the cached detection, so that this safe function is
/// sound whoever calls it), else the scalar BMI build.
fn f1600_lane0(state: &mut [u64; 25]) {
    use crate::backend::x86_64::Avx2;
    if !Avx2::detect().is_some_and(Avx2::detect_avx512) {
        return crate::backend::x86_64::avx2::keccak_bmi::f1600(state);
    }
    // SAFETY: AVX-512 F and VL, the features beyond AVX2 `f1600_lane0_vl` is compiled for,
    // were detected just above (and AVX2 with them).
    unsafe { f1600_lane0_vl(state) }
}

/// [`f1600_lane0`]'s permutation: the state's words into lane 0 (the other lanes zero), the
/// four-way permutation, lane 0 back; the registers' copy in memory is wiped (the state may be
/// secret: H(xi), H(K || rnd || mu)).
#[target_feature(enable = "avx2,avx512f,avx512vl")]
fn f1600_lane0_vl(state: &mut [u64; 25]) {
    let mut v: [__m256i; 25] =
        core::array::from_fn(|j| _mm256_zextsi128_si256(_mm_cvtsi64_si128(state[j] as i64)));
    rounds(&mut v);
    for (w, r) in state.iter_mut().zip(&v) {
        *w = _mm_cvtsi128_si64(_mm256_castsi256_si128(*r)) as u64;
    }
    zeroize::Zeroize::zeroize(&mut v);
}

#[cfg(test)]
mod tests {
    use crate::backend::x86_64::Keccak4x;
    use crate::backend::x86_64::avx2::keccak4x::tests::{have_avx2, permute_x4};
    use crate::hash::keccak::f1600;
    use crate::math::splitmix::SplitMix64;

    /// The AVX-512VL permutation against the AVX2 one and the scalar one, on many random states
    /// and on states with single bits set (each bit of each lane in turn, in one of the four
    /// states: a wrong rotation or a wrong truth table shows up at once).
    #[test]
    fn avx512vl_permutation_equals_avx2_and_scalar_on_many_states() {
        if !have_avx2() {
            return;
        }
        let Some(&(_, fast)) = Keccak4x::all_here().get(1) else {
            eprintln!("skipped: this CPU has no AVX-512 F and VL");
            return;
        };
        let mut rng = SplitMix64(0x512);
        let mut single_bits = (0..25 * 64).map(|k| {
            let mut states = [[0u64; 25]; 4];
            states[k % 4][k / 64] = 1 << (k % 64);
            states
        });
        let mut trials = 0;
        loop {
            let states = match single_bits.next() {
                Some(states) => states,
                None if trials < 25 * 64 + 2000 => {
                    core::array::from_fn(|_| core::array::from_fn(|_| rng.next_u64()))
                }
                None => break,
            };
            let mut expect = states;
            expect.iter_mut().for_each(f1600);
            let (mut got, mut avx2) = (states, states);
            // SAFETY: AVX2 was detected above.
            unsafe {
                permute_x4(fast, &mut got);
                permute_x4(Keccak4x::avx2(), &mut avx2);
            }
            assert_eq!(got, avx2, "trial {trial}", trial = trials);
            assert_eq!(got, expect, "trial {trial}", trial = trials);
            trials += 1;
        }
        println!("AVX-512VL = AVX2 = scalar Keccak-f[1600] on {trials} x4 states");
    }

    /// The lane-0 permutation (the scalar sponges' on AMD CPUs with AVX-512) against the scalar
    /// one, on single-bit and random states; it falls back to the scalar build without
    /// AVX-512, so it is compared there too.
    #[test]
    fn lane0_permutation_equals_scalar() {
        let lane0 = super::lane0_permutation();
        let mut rng = SplitMix64(0x1a0);
        for k in 0..25 * 64 + 500 {
            let mut state = [0u64; 25];
            if k < 25 * 64 {
                state[k / 64] = 1 << (k % 64);
            } else {
                state = core::array::from_fn(|_| rng.next_u64());
            }
            let mut expect = state;
            f1600(&mut expect);
            lane0.apply(&mut state);
            assert_eq!(state, expect, "state {k}");
        }
    }
}
