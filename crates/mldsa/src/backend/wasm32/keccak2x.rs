//! Two Keccak-f[1600] permutations at once, one per 64-bit lane of 25 simd128 vectors
//! (`i64x2`), and the SHAKE sponges over them.
//!
//! Layout: vector j holds lane j (= x + 5y, FIPS 202 section 3.1.2) of both states, state i in
//! its 64-bit element i. The step mappings of FIPS 202 section 3.2 act lane-wise, so each one is
//! the scalar formula ([`crate::hash::keccak`]'s round, the same tables) with `v128`
//! operations; the two states never mix. simd128 has no 64-bit rotate: a shift pair and an OR
//! (and a byte shuffle for the whole-byte rotations); chi's `!b & c` is one `v128.andnot`.
//!
//! The sponge is only what ML-DSA's samplers need: two inputs of the same (public) length
//! absorbed once with the SHAKE suffix, then whole rate blocks squeezed.
//!
//! Constant time: fixed-length lane arithmetic; loops depend only on public lengths. The state
//! is zeroised on drop.

use crate::hash::keccak::{PI_SOURCE, RHO_OFFSETS, ROUND_CONSTANTS};
use core::arch::wasm32::*;
use zeroize::Zeroize;

/// Rotates both 64-bit elements of `x` left by `L` bits. `L` is a constant: one arm is left.
///
/// Whole-byte rotations (8 and 56 occur in rho) are one byte shuffle; the others a shift pair
/// and an OR.
#[inline(always)]
fn rol<const L: u32>(x: v128) -> v128 {
    if L == 0 {
        x
    } else if L == 8 {
        i8x16_shuffle::<7, 0, 1, 2, 3, 4, 5, 6, 15, 8, 9, 10, 11, 12, 13, 14>(x, x)
    } else if L == 56 {
        i8x16_shuffle::<1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15, 8>(x, x)
    } else {
        v128_or(i64x2_shl(x, L), u64x2_shr(x, 64 - L))
    }
}

/// Theta's last step, rho and pi for the lane that lands at index `$i` (as the scalar round).
macro_rules! theta_rho_pi {
    ($a:ident, $d:ident, $i:expr) => {
        rol::<{ RHO_OFFSETS[PI_SOURCE[$i]] }>(v128_xor(
            $a[const { PI_SOURCE[$i] }],
            $d[const { PI_SOURCE[$i] % 5 }],
        ))
    };
}

/// Theta (applying D), rho, pi, then chi, for the plane of output lanes `$i`..`$i + 4`.
macro_rules! plane {
    ($a:ident, $d:ident, $e:ident, $i:literal) => {{
        let b = [
            theta_rho_pi!($a, $d, { $i }),
            theta_rho_pi!($a, $d, { $i + 1 }),
            theta_rho_pi!($a, $d, { $i + 2 }),
            theta_rho_pi!($a, $d, { $i + 3 }),
            theta_rho_pi!($a, $d, { $i + 4 }),
        ];
        // chi: B[x, y] ^ (!B[x + 1, y] & B[x + 2, y]); v128_andnot(c, b) = c & !b.
        $e[$i] = v128_xor(b[0], v128_andnot(b[2], b[1]));
        $e[$i + 1] = v128_xor(b[1], v128_andnot(b[3], b[2]));
        $e[$i + 2] = v128_xor(b[2], v128_andnot(b[4], b[3]));
        $e[$i + 3] = v128_xor(b[3], v128_andnot(b[0], b[4]));
        $e[$i + 4] = v128_xor(b[4], v128_andnot(b[1], b[0]));
    }};
}

/// theta's C[x] = A[x, 0] ^ ... ^ A[x, 4].
#[inline(always)]
fn xor5(a: v128, b: v128, c: v128, d: v128, e: v128) -> v128 {
    v128_xor(v128_xor(a, b), v128_xor(v128_xor(c, d), e))
}

/// One round (FIPS 202 section 3.3, Rnd) on both states, with round constant `rc`.
#[inline(always)]
fn round(a: [v128; 25], rc: u64) -> [v128; 25] {
    let c = [
        xor5(a[0], a[5], a[10], a[15], a[20]),
        xor5(a[1], a[6], a[11], a[16], a[21]),
        xor5(a[2], a[7], a[12], a[17], a[22]),
        xor5(a[3], a[8], a[13], a[18], a[23]),
        xor5(a[4], a[9], a[14], a[19], a[24]),
    ];
    // D[x] = C[x - 1] ^ rot(C[x + 1], 1).
    let d = [
        v128_xor(c[4], rol::<1>(c[1])),
        v128_xor(c[0], rol::<1>(c[2])),
        v128_xor(c[1], rol::<1>(c[3])),
        v128_xor(c[2], rol::<1>(c[4])),
        v128_xor(c[3], rol::<1>(c[0])),
    ];
    let mut e = [i64x2_splat(0); 25];
    plane!(a, d, e, 0);
    plane!(a, d, e, 5);
    plane!(a, d, e, 10);
    plane!(a, d, e, 15);
    plane!(a, d, e, 20);
    // iota
    e[0] = v128_xor(e[0], i64x2_splat(rc as i64));
    e
}

/// Keccak-f[1600] (FIPS 202 section 3.3) on two states at once. Two rounds per loop iteration,
/// as the scalar build.
#[inline(never)]
pub(crate) fn f1600x2(state: &mut [v128; 25]) {
    let mut a = *state;
    for rc in ROUND_CONSTANTS.chunks_exact(2) {
        a = round(a, rc[0]);
        a = round(a, rc[1]);
    }
    *state = a;
}

/// Two states given lane by lane (lane j of state i at `[j][i]`) as vectors.
#[inline(always)]
pub(crate) fn to_vectors(lanes: &[[u64; 2]; 25]) -> [v128; 25] {
    core::array::from_fn(|j| u64x2(lanes[j][0], lanes[j][1]))
}

/// The inverse of [`to_vectors`].
#[inline(always)]
pub(crate) fn from_vectors(v: &[v128; 25]) -> [[u64; 2]; 25] {
    core::array::from_fn(|j| [u64x2_extract_lane::<0>(v[j]), u64x2_extract_lane::<1>(v[j])])
}

/// Two SHAKE sponges (FIPS 202 section 6.2) with a rate of `RATE` bytes, in lockstep on one
/// two-way state: [`Self::absorb_once`], then [`Self::squeeze_blocks`] continues both output
/// streams block by block, as [`crate::hash::keccak::Sponge::squeeze_block`] does.
///
/// The state is kept as lanes (`[state 0, state 1]` per lane), loaded into vectors for each
/// permutation: `v128` is not `Zeroize`, and the state holds secrets in ExpandS and ExpandMask.
pub(crate) struct Shake2<const RATE: usize> {
    /// Absorbed and padded, not yet permuted for the next block.
    state: [[u64; 2]; 25],
}

/// SHAKE128 twice over (rate 168 bytes).
pub(crate) type Shake128x2 = Shake2<{ crate::hash::keccak::SHAKE128_RATE }>;
/// SHAKE256 twice over (rate 136 bytes).
pub(crate) type Shake256x2 = Shake2<{ crate::hash::keccak::SHAKE256_RATE }>;

impl<const RATE: usize> Drop for Shake2<RATE> {
    fn drop(&mut self) {
        self.state.zeroize();
    }
}

/// The SHAKE domain-separation suffix 1111 with the first bit of pad10*1 (FIPS 202 section 6.2
/// and B.2): the byte XORed after the message.
const SHAKE_SUFFIX: u8 = 0x1F;

impl<const RATE: usize> Shake2<RATE> {
    /// 64-bit lanes per block.
    const LANES: usize = {
        assert!(RATE.is_multiple_of(8) && RATE < 200);
        RATE / 8
    };

    /// Two empty sponges.
    pub(crate) fn new() -> Self {
        Self {
            state: [[0; 2]; 25],
        }
    }

    /// Absorbs `inputs[i]` into sponge i (which must be empty) and pads it, ready to squeeze.
    /// The inputs must be shorter than a block and of equal length (public; panics otherwise):
    /// the samplers' 34- and 66-byte seeds.
    pub(crate) fn absorb_once(&mut self, inputs: [&[u8]; 2]) {
        let len = inputs[0].len();
        assert!(len < RATE && inputs[1].len() == len, "equal short inputs");
        for (i, m) in inputs.iter().enumerate() {
            // Whole 8-byte words, then the last partial one with the suffix; the last bit of
            // pad10*1 in the block's last byte.
            let mut words = m.chunks_exact(8);
            for (lane, w) in self.state.iter_mut().zip(words.by_ref()) {
                lane[i] ^= u64::from_le_bytes(w.try_into().expect("8 bytes"));
            }
            let tail = words.remainder();
            let mut last = [0u8; 8];
            last[..tail.len()].copy_from_slice(tail);
            last[tail.len()] = SHAKE_SUFFIX;
            self.state[len / 8][i] ^= u64::from_le_bytes(last);
            last.zeroize();
            self.state[Self::LANES - 1][i] ^= 0x80 << 56;
        }
    }

    /// Squeezes the next `out[i].len() / RATE` whole blocks of output stream i into `out[i]`.
    /// The two lengths must be equal multiples of `RATE` (public; panics otherwise).
    pub(crate) fn squeeze_blocks(&mut self, out: [&mut [u8]; 2]) {
        let len = out[0].len();
        assert!(out[1].len() == len, "equal output lengths");
        let [o0, o1] = out;
        for (b0, b1) in o0.chunks_mut(RATE).zip(o1.chunks_mut(RATE)) {
            assert!(b0.len() == RATE, "whole blocks");
            let mut v = to_vectors(&self.state);
            f1600x2(&mut v);
            self.state = from_vectors(&v);
            let lanes = self.state.iter().take(Self::LANES);
            for ((w0, w1), lane) in b0
                .chunks_exact_mut(8)
                .zip(b1.chunks_exact_mut(8))
                .zip(lanes)
            {
                w0.copy_from_slice(&lane[0].to_le_bytes());
                w1.copy_from_slice(&lane[1].to_le_bytes());
            }
        }
    }
}
