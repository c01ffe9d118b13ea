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
    let mut a = *state;
    for rc in ROUND_CONSTANTS.chunks_exact(2) {
        // Two rounds per iteration, as in `f1600x4`.
        a = round!(ops_avx512vl, a, rc[0]);
        a = round!(ops_avx512vl, a, rc[1]);
    }
    *state = a;
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
}
