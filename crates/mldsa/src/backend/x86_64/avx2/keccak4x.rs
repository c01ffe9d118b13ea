//! Four Keccak-f[1600] permutations at once, one per 64-bit lane of 25 AVX2 registers, and the
//! SHAKE128 / SHAKE256 sponges over them.
//!
//! Layout: register j holds lane j (= x + 5y, FIPS 202 section 3.1.2) of all four states, state
//! i in its 64-bit element i. The step mappings of FIPS 202 section 3.2 act lane-wise, so each
//! one is the scalar formula with `__m256i` operations; the four states never mix.
//!
//! The sponge is only what ML-DSA's samplers need: four inputs of the same (public) length
//! absorbed once with the SHAKE suffix, then whole rate blocks squeezed. Squeezing writes a
//! fresh block after each permutation, so no byte position is kept.
//!
//! The permutation in AVX2 is [`f1600x4`]; its rounds are written once (the macros below) over
//! lane operations, so that the AVX-512 permutations (in the sibling folder) run the same
//! rounds. [`Keccak4x`] says which four-way permutation a sponge runs.
//!
//! Constant time: fixed-length arithmetic on lanes; loops depend only on public lengths, the
//! choice of implementation only on the CPU. The state is zeroised on drop (it holds rho',
//! rho'' and their outputs in ExpandS, ExpandMask).

use super::arith::SecretBytes;
use crate::backend::x86_64::Keccak4x;
use crate::hash::keccak::{PI_SOURCE, RHO_OFFSETS, ROUND_CONSTANTS};
use core::arch::x86_64::*;
use zeroize::Zeroize;

// The round is written once (the macros below) over a handful of lane operations, which each
// instruction set provides in its own module: `$ops::xor5`, `$ops::theta_d`, `$ops::rol` and
// `$ops::chi`. The operations are `#[inline]` target-feature functions, so each permutation
// compiles to straight-line code with the instructions of its own set.

/// The lane operations in AVX2.
mod ops_avx2 {
    use core::arch::x86_64::*;

    /// Theta's column parity C[x] = A[x, 0] ^ A[x, 1] ^ ... ^ A[x, 4]: four XORs.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) fn xor5(a: __m256i, b: __m256i, c: __m256i, d: __m256i, e: __m256i) -> __m256i {
        _mm256_xor_si256(
            _mm256_xor_si256(a, b),
            _mm256_xor_si256(_mm256_xor_si256(c, d), e),
        )
    }

    /// Theta's D[x] = C[x - 1] ^ rot(C[x + 1], 1); x + x is the left shift by one.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) fn theta_d(c_minus: __m256i, c_plus: __m256i) -> __m256i {
        let rot1 = _mm256_or_si256(
            _mm256_add_epi64(c_plus, c_plus),
            _mm256_srli_epi64::<63>(c_plus),
        );
        _mm256_xor_si256(c_minus, rot1)
    }

    /// Rotates each 64-bit element of `x` left by `L` bits; `R` must be 64 - `L` (stable Rust
    /// cannot compute it from a const parameter).
    ///
    /// AVX2 has no 64-bit rotate: a shift pair and an OR, except for rotations by whole bytes
    /// (8 and 56 occur in rho), which are one byte shuffle. `L` is a constant, so only one arm
    /// is left after optimisation.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) fn rol<const L: i32, const R: i32>(x: __m256i) -> __m256i {
        const { assert!(L >= 0 && L < 64 && L + R == 64) };
        if L == 0 {
            x
        } else if L == 8 {
            let by8 = _mm256_setr_epi8(
                7, 0, 1, 2, 3, 4, 5, 6, 15, 8, 9, 10, 11, 12, 13, 14, 7, 0, 1, 2, 3, 4, 5, 6, 15,
                8, 9, 10, 11, 12, 13, 14,
            );
            _mm256_shuffle_epi8(x, by8)
        } else if L == 56 {
            let by56 = _mm256_setr_epi8(
                1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15, 8, 1, 2, 3, 4, 5, 6, 7, 0, 9,
                10, 11, 12, 13, 14, 15, 8,
            );
            _mm256_shuffle_epi8(x, by56)
        } else {
            _mm256_or_si256(_mm256_slli_epi64::<L>(x), _mm256_srli_epi64::<R>(x))
        }
    }

    /// Chi's a ^ (!b & c): two instructions.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) fn chi(a: __m256i, b: __m256i, c: __m256i) -> __m256i {
        _mm256_xor_si256(a, _mm256_andnot_si256(b, c))
    }

    /// a ^ b.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) fn xor(a: __m256i, b: __m256i) -> __m256i {
        _mm256_xor_si256(a, b)
    }

    /// The all-zero register.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) fn zero() -> __m256i {
        _mm256_setzero_si256()
    }

    /// `x` in every 64-bit element.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) fn splat(x: u64) -> __m256i {
        _mm256_set1_epi64x(x as i64)
    }
}

/// Theta's last step, rho and pi for the lane that lands at index `$i`: the source lane, XORed
/// with D of its column, rotated by its own offset. Every index and offset is a constant.
macro_rules! theta_rho_pi {
    ($ops:ident, $a:ident, $d:ident, $i:expr) => {
        $ops::rol::<
            { RHO_OFFSETS[PI_SOURCE[$i]] as i32 },
            { 64 - RHO_OFFSETS[PI_SOURCE[$i]] as i32 },
        >($ops::xor(
            $a[const { PI_SOURCE[$i] }],
            $d[const { PI_SOURCE[$i] % 5 }],
        ))
    };
}

/// Theta (applying D), rho, pi, then chi, for the plane of output lanes `$i`..`$i + 4` (one
/// y), written to `$e`: chi needs only the five B lanes of its plane, so computing plane by
/// plane keeps few registers live (four states' 25 lanes already exceed AVX2's 16 ymm
/// registers).
macro_rules! plane {
    ($ops:ident, $a:ident, $d:ident, $e:ident, $i:literal) => {{
        let b = [
            theta_rho_pi!($ops, $a, $d, { $i }),
            theta_rho_pi!($ops, $a, $d, { $i + 1 }),
            theta_rho_pi!($ops, $a, $d, { $i + 2 }),
            theta_rho_pi!($ops, $a, $d, { $i + 3 }),
            theta_rho_pi!($ops, $a, $d, { $i + 4 }),
        ];
        // chi: B[x, y] ^ (!B[x + 1, y] & B[x + 2, y]).
        $e[$i] = $ops::chi(b[0], b[1], b[2]);
        $e[$i + 1] = $ops::chi(b[1], b[2], b[3]);
        $e[$i + 2] = $ops::chi(b[2], b[3], b[4]);
        $e[$i + 3] = $ops::chi(b[3], b[4], b[0]);
        $e[$i + 4] = $ops::chi(b[4], b[0], b[1]);
    }};
}

/// One round (FIPS 202 section 3.3, Rnd) on the four states `$a`, with round constant `$rc`,
/// in the lane operations of module `$ops`.
macro_rules! round {
    ($ops:ident, $a:ident, $rc:expr) => {{
        let a = $a;
        // theta: C[x] = xor of column x, D[x] = C[x - 1] ^ rot(C[x + 1], 1).
        let c = [
            $ops::xor5(a[0], a[5], a[10], a[15], a[20]),
            $ops::xor5(a[1], a[6], a[11], a[16], a[21]),
            $ops::xor5(a[2], a[7], a[12], a[17], a[22]),
            $ops::xor5(a[3], a[8], a[13], a[18], a[23]),
            $ops::xor5(a[4], a[9], a[14], a[19], a[24]),
        ];
        let d = [
            $ops::theta_d(c[4], c[1]),
            $ops::theta_d(c[0], c[2]),
            $ops::theta_d(c[1], c[3]),
            $ops::theta_d(c[2], c[4]),
            $ops::theta_d(c[3], c[0]),
        ];
        let mut e = [$ops::zero(); 25];
        plane!($ops, a, d, e, 0);
        plane!($ops, a, d, e, 5);
        plane!($ops, a, d, e, 10);
        plane!($ops, a, d, e, 15);
        plane!($ops, a, d, e, 20);
        // iota
        e[0] = $ops::xor(e[0], $ops::splat($rc));
        e
    }};
}

// The AVX-512 permutations (four-way on ymm, eight-way on zmm) run the same rounds.
pub(in crate::backend::x86_64) use {plane, round, theta_rho_pi};

/// Keccak-f[1600] (FIPS 202 section 3.3) on four states at once, in AVX2.
///
/// Each round is straight-line code; the loop runs two rounds per iteration, which measured
/// faster than one (fewer register copies between iterations) and than all 24 (code size).
#[target_feature(enable = "avx2")]
#[inline]
pub(crate) fn f1600x4(state: &mut [__m256i; 25]) {
    tick!(Keccak4x, 1);
    let mut a = *state;
    for rc in ROUND_CONSTANTS.chunks_exact(2) {
        // One iteration, two rounds.
        a = round!(ops_avx2, a, rc[0]);
        a = round!(ops_avx2, a, rc[1]);
    }
    *state = a;
}

/// The permutation `keccak` on four states given lane by lane (lane j of state i at
/// `[j][i]`), for the profile's timing of it.
#[cfg(feature = "profile")]
#[target_feature(enable = "avx2")]
pub(crate) fn permute_lanes(keccak: Keccak4x, lanes: &mut [[u64; 4]; 25]) {
    let mut v = [_mm256_setzero_si256(); 25];
    for (r, l) in v.iter_mut().zip(lanes.iter()) {
        *r = _mm256_set_epi64x(l[3] as i64, l[2] as i64, l[1] as i64, l[0] as i64);
    }
    keccak.permute(&mut v);
    for (l, r) in lanes.iter_mut().zip(v) {
        *l = [
            _mm256_extract_epi64::<0>(r) as u64,
            _mm256_extract_epi64::<1>(r) as u64,
            _mm256_extract_epi64::<2>(r) as u64,
            _mm256_extract_epi64::<3>(r) as u64,
        ];
    }
}

/// Four SHAKE sponges (FIPS 202 section 6.2) with a rate of `RATE` bytes, run in lockstep on
/// one four-way state, permuted by the [`Keccak4x`] given at construction.
///
/// Made by [`Self::new`] and [`Self::absorb_once`]; every [`Self::squeeze_blocks`] call then continues the output
/// streams block by block, as [`crate::hash::keccak::Sponge::squeeze_block`] does.
pub(crate) struct Shake4<const RATE: usize> {
    /// Absorbed and padded, not yet permuted for the next block: each squeezed block starts with
    /// a permutation.
    state: [__m256i; 25],
    /// The permutation.
    keccak: Keccak4x,
}

/// SHAKE128 four times over (rate 168 bytes).
pub(crate) type Shake128x4 = Shake4<168>;
/// SHAKE256 four times over (rate 136 bytes).
pub(crate) type Shake256x4 = Shake4<136>;

impl<const RATE: usize> Drop for Shake4<RATE> {
    fn drop(&mut self) {
        self.wipe();
    }
}

/// The SHAKE domain-separation suffix 1111 with the first bit of pad10*1 (FIPS 202 section 6.2
/// and B.2): the byte XORed after the message.
pub(crate) const SHAKE_SUFFIX: u8 = 0x1F;

/// Pads the message of `len` bytes at the start of `padded` (zero after it) for SHAKE: the
/// suffix after the message and the last bit of pad10*1 at the end of `padded`, whose length
/// is a whole number of blocks.
pub(crate) fn shake_pad(padded: &mut [u8], len: usize) {
    padded[len] ^= SHAKE_SUFFIX;
    padded[padded.len() - 1] ^= 0x80;
}

impl<const RATE: usize> Shake4<RATE> {
    /// 64-bit lanes per block.
    const LANES: usize = {
        assert!(RATE.is_multiple_of(8) && RATE < 200);
        RATE / 8
    };

    /// Four empty sponges on `keccak`'s permutation; [`Self::absorb_once`] fills them.
    ///
    /// Made empty and filled in place, rather than filled and returned, so that the absorbed
    /// state (secret seeds, in ExpandS and ExpandMask) never exists outside the value the
    /// caller holds and zeroises: a returned value may be copied out of a frame that is then
    /// left behind (Z-1 found such a copy of rho'' once the AVX-512VL permutation stopped
    /// overwriting that part of the stack).
    #[target_feature(enable = "avx2")]
    pub(crate) fn new(keccak: Keccak4x) -> Self {
        Self {
            state: [_mm256_setzero_si256(); 25],
            keccak,
        }
    }

    /// Absorbs `inputs[i]` into sponge i (which must be empty: made by [`Self::new`]) and pads
    /// it (SHAKE suffix, pad10*1), ready to squeeze.
    ///
    /// The four inputs must have the same length (a public value; panics otherwise).
    #[target_feature(enable = "avx2")]
    pub(crate) fn absorb_once(&mut self, inputs: [&[u8]; 4]) {
        let len = inputs[0].len();
        assert!(inputs.iter().all(|m| m.len() == len), "equal input lengths");
        let keccak = self.keccak;
        let sponge = self;
        let mut rest = inputs;
        // Whole blocks, without `/` or `%` on the length (the ct scan forbids division, and at
        // opt-level z a division by a constant stays a `div`).
        while rest[0].len() >= RATE {
            sponge.xor_block(rest);
            keccak.permute(&mut sponge.state);
            rest = rest.map(|m| &m[RATE..]);
        }
        // The last blocks may hold secret seed bytes (rho', rho''): wiped on drop with 32-byte
        // stores. (`zeroize` on a byte array stores one byte at a time, 672 stores per
        // absorption: 2-4 % of an ML-DSA-65 keygen on a Zen 3, by perf's sampling, and 9.5k of
        // its 541k instructions.) Sized for the larger rate.
        let mut last = SecretBytes::<{ 4 * crate::hash::keccak::SHAKE128_RATE }>::new();
        let (blocks, _) = last.0.as_chunks_mut::<RATE>();
        for (block, m) in blocks.iter_mut().zip(rest) {
            block[..m.len()].copy_from_slice(m);
            shake_pad(block, m.len());
        }
        sponge.xor_block([&blocks[0], &blocks[1], &blocks[2], &blocks[3]]);
    }

    /// XORs the first `RATE` bytes of `blocks[i]` into state i.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(crate) fn xor_block(&mut self, blocks: [&[u8]; 4]) {
        let lane = |m: &[u8], j: usize| {
            let bytes: [u8; 8] = m[8 * j..8 * j + 8].try_into().expect("8 bytes");
            u64::from_le_bytes(bytes) as i64
        };
        for j in 0..Self::LANES {
            let v = _mm256_set_epi64x(
                lane(blocks[3], j),
                lane(blocks[2], j),
                lane(blocks[1], j),
                lane(blocks[0], j),
            );
            self.state[j] = _mm256_xor_si256(self.state[j], v);
        }
    }

    /// Squeezes the next `out[i].len() / RATE` whole blocks of output stream i into `out[i]`.
    ///
    /// The four lengths must be equal multiples of `RATE` (public values; panics otherwise).
    #[target_feature(enable = "avx2")]
    pub(crate) fn squeeze_blocks(&mut self, mut out: [&mut [u8]; 4]) {
        let len = out[0].len();
        assert!(out.iter().all(|o| o.len() == len), "equal output lengths");
        let mut offset = 0;
        while offset < len {
            assert!(len - offset >= RATE, "whole blocks");
            self.permute();
            self.read_block(offset, &mut out);
            offset += RATE;
        }
    }

    /// Zeroes the four states (they may hold secret seeds and output).
    pub(crate) fn wipe(&mut self) {
        self.state.zeroize();
    }

    /// Runs the permutation once: the next output block of every lane (after padding), or
    /// the absorption of the block just XORed in.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(crate) fn permute(&mut self) {
        self.keccak.permute(&mut self.state);
    }

    /// Writes the rate part of each state, as bytes, to `out[i][offset..offset + RATE]`.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(crate) fn read_block(&self, offset: usize, out: &mut [&mut [u8]; 4]) {
        let mut j = 0;
        // Four lanes of four states: a 4x4 transpose of 64-bit elements gives 32 contiguous
        // output bytes per state.
        while j + 4 <= Self::LANES {
            let s = &self.state;
            let t0 = _mm256_unpacklo_epi64(s[j], s[j + 1]);
            let t1 = _mm256_unpackhi_epi64(s[j], s[j + 1]);
            let t2 = _mm256_unpacklo_epi64(s[j + 2], s[j + 3]);
            let t3 = _mm256_unpackhi_epi64(s[j + 2], s[j + 3]);
            let rows = [
                _mm256_permute2x128_si256::<0x20>(t0, t2),
                _mm256_permute2x128_si256::<0x20>(t1, t3),
                _mm256_permute2x128_si256::<0x31>(t0, t2),
                _mm256_permute2x128_si256::<0x31>(t1, t3),
            ];
            let at = offset + 8 * j;
            for (o, row) in out.iter_mut().zip(rows) {
                let dst = &mut o[at..at + 32];
                // SAFETY: `dst` is 32 writable bytes (the slice above is bounds-checked),
                // and `storeu` has no alignment requirement.
                unsafe { _mm256_storeu_si256(dst.as_mut_ptr().cast(), row) };
            }
            j += 4;
        }
        // The lanes left over (one for both SHAKE rates).
        while j < Self::LANES {
            let v = self.state[j];
            let words = [
                _mm256_extract_epi64::<0>(v),
                _mm256_extract_epi64::<1>(v),
                _mm256_extract_epi64::<2>(v),
                _mm256_extract_epi64::<3>(v),
            ];
            let at = offset + 8 * j;
            for (o, w) in out.iter_mut().zip(words) {
                o[at..at + 8].copy_from_slice(&w.to_le_bytes());
            }
            j += 1;
        }
    }

    /// XORs `block` (whole words, at most `RATE` bytes: a block of this sponge, or of a sponge
    /// of smaller rate run in lane 0, as H(pk) in ExpandA's) into state 0 only (the others are
    /// unchanged). Panics on another length.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(crate) fn xor_block_lane0(&mut self, block: &[u8]) {
        assert!(
            block.len() <= RATE && block.len() & 7 == 0,
            "whole words of a block"
        );
        for (j, word) in block.chunks_exact(8).enumerate() {
            let word = u64::from_le_bytes(word.try_into().expect("8 bytes"));
            let v = _mm256_set_epi64x(0, 0, 0, word as i64);
            self.state[j] = _mm256_xor_si256(self.state[j], v);
        }
    }

    /// Empties state 0 (all zero: a new sponge), leaving the others as they are.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(crate) fn reset_lane0(&mut self) {
        for v in &mut self.state {
            // 32-bit elements 0 and 1 (state 0's lane) from the zero vector.
            *v = _mm256_blend_epi32::<0b0000_0011>(*v, _mm256_setzero_si256());
        }
    }

    /// Makes states 1-3 new sponges that have absorbed a whole (padded) block and not yet
    /// permuted, leaving state 0 as it is: `words(j)` is word j of the three blocks (zero past
    /// the rate).
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(crate) fn restart_lanes123(&mut self, words: impl Fn(usize) -> [u64; 3]) {
        for (j, v) in self.state.iter_mut().enumerate() {
            let [a, b, c] = words(j);
            let fresh = _mm256_set_epi64x(c as i64, b as i64, a as i64, 0);
            // State 0's lane (32-bit elements 0 and 1) kept, the others fresh.
            *v = _mm256_blend_epi32::<0b0000_0011>(fresh, *v);
        }
    }

    /// The first `out.len()` bytes (at most `RATE`) of state 0's rate part.
    #[target_feature(enable = "avx2")]
    pub(crate) fn read_lane0(&self, out: &mut [u8]) {
        for (word, v) in out.chunks_mut(8).zip(&self.state[..Self::LANES]) {
            let bytes = (_mm256_extract_epi64::<0>(*v) as u64).to_le_bytes();
            word.copy_from_slice(&bytes[..word.len()]);
        }
    }

    /// State 0 whole: its 25 words, for the scalar sponge that carries on with it
    /// ([`crate::hash::keccak::Sponge::resume`]).
    #[target_feature(enable = "avx2")]
    pub(crate) fn lane0(&self) -> [u64; 25] {
        self.state.map(|v| _mm256_extract_epi64::<0>(v) as u64)
    }
}

#[cfg(test)]
pub(in crate::backend::x86_64) mod tests {
    use super::*;
    use crate::hash::keccak::{Sponge, f1600};
    use crate::math::splitmix::SplitMix64;

    /// Whether the kernels can run here; prints why a test does nothing when they cannot.
    pub(in crate::backend::x86_64) fn have_avx2() -> bool {
        let yes = std::is_x86_feature_detected!("avx2");
        if !yes {
            eprintln!("skipped: this CPU has no AVX2");
        }
        yes
    }

    /// Packs four scalar states into the x4 layout, permutes them with `keccak`, and unpacks
    /// them.
    #[target_feature(enable = "avx2")]
    pub(in crate::backend::x86_64) fn permute_x4(keccak: Keccak4x, states: &mut [[u64; 25]; 4]) {
        let mut v = [_mm256_setzero_si256(); 25];
        for (j, lane) in v.iter_mut().enumerate() {
            let s = |i: usize| states[i][j] as i64;
            *lane = _mm256_set_epi64x(s(3), s(2), s(1), s(0));
        }
        keccak.permute(&mut v);
        for (j, lane) in v.iter().enumerate() {
            states[0][j] = _mm256_extract_epi64::<0>(*lane) as u64;
            states[1][j] = _mm256_extract_epi64::<1>(*lane) as u64;
            states[2][j] = _mm256_extract_epi64::<2>(*lane) as u64;
            states[3][j] = _mm256_extract_epi64::<3>(*lane) as u64;
        }
    }

    #[test]
    fn f1600x4_matches_the_scalar_permutation_on_each_state() {
        if !have_avx2() {
            return;
        }
        for (name, keccak) in Keccak4x::all_here() {
            let mut rng = SplitMix64(1);
            // Fewer trials under Miri (M-1): it checks the memory accesses, not the arithmetic.
            for trial in 0..if cfg!(miri) { 2 } else { 16 } {
                // Trial 0 starts from the all-zero state (whose image FIPS 202's examples give).
                let mut states = [[0u64; 25]; 4];
                if trial > 0 {
                    states = core::array::from_fn(|_| core::array::from_fn(|_| rng.next_u64()));
                }
                let mut expect = states;
                // Twice in a row: the output of one call is a valid input of the next.
                for _ in 0..2 {
                    expect.iter_mut().for_each(f1600);
                    // SAFETY: AVX2 was detected above.
                    unsafe { permute_x4(keccak, &mut states) };
                    assert_eq!(states, expect, "{name}, trial {trial}");
                }
            }
        }
        let mut zero = [0u64; 25];
        f1600(&mut zero);
        assert_eq!(zero[0], 0xF125_8F79_40E1_DDE7);
    }

    /// Median ns per call of `permute` on one x4 state: 301 runs of 2000 calls each.
    fn time_ns(permute: impl Fn(&mut [__m256i; 25])) -> f64 {
        let mut v = [[1u64, 2, 3, 4]; 25].map(|l| {
            // SAFETY: callers checked for AVX2.
            unsafe { _mm256_set_epi64x(l[3] as i64, l[2] as i64, l[1] as i64, l[0] as i64) }
        });
        let calls = 2000;
        let mut runs: Vec<f64> = (0..301)
            .map(|_| {
                let start = std::time::Instant::now();
                for _ in 0..calls {
                    permute(core::hint::black_box(&mut v));
                }
                start.elapsed().as_nanos() as f64 / f64::from(calls)
            })
            .collect();
        runs.sort_by(f64::total_cmp);
        runs[runs.len() / 2]
    }

    /// ns per call of each permutation (four Keccak-f[1600] each).
    #[test]
    #[ignore = "timing, not a check: cargo test --release -p mldsa --lib -- --ignored --nocapture keccak4x_timing"]
    fn keccak4x_timing() {
        if !have_avx2() {
            return;
        }
        for (name, keccak) in Keccak4x::all_here() {
            // SAFETY: AVX2 was detected above (and `keccak` runs only where its features are).
            let ns = time_ns(|s| unsafe { keccak.permute(s) });
            println!("f1600x4 ({name}): {ns:.1} ns per call (four permutations)");
        }
    }

    /// The x4 sponge on `msgs`: `first` bytes of each stream in one call, then `rest` more
    /// (each a whole number of blocks, possibly none).
    #[target_feature(enable = "avx2")]
    fn shake_x4<const RATE: usize>(
        keccak: Keccak4x,
        msgs: &[Vec<u8>; 4],
        first: usize,
        rest: usize,
    ) -> [Vec<u8>; 4] {
        let mut got: [Vec<u8>; 4] = core::array::from_fn(|_| vec![0u8; first + rest]);
        let mut x4 = Shake4::<RATE>::new(keccak);
        x4.absorb_once([&msgs[0], &msgs[1], &msgs[2], &msgs[3]]);
        let [g0, g1, g2, g3] = &mut got;
        let (h0, t0) = g0.split_at_mut(first);
        let (h1, t1) = g1.split_at_mut(first);
        let (h2, t2) = g2.split_at_mut(first);
        let (h3, t3) = g3.split_at_mut(first);
        x4.squeeze_blocks([h0, h1, h2, h3]);
        x4.squeeze_blocks([t0, t1, t2, t3]);
        got
    }

    /// Four different messages of length `len`, `blocks` blocks squeezed in two calls (none or
    /// one block, then the rest), against four scalar sponges.
    fn check_against_scalar<const RATE: usize>(
        keccak: Keccak4x,
        rng: &mut SplitMix64,
        len: usize,
        blocks: usize,
    ) {
        let msgs: [Vec<u8>; 4] = core::array::from_fn(|_| {
            let mut m = vec![0; len];
            rng.fill(&mut m);
            m
        });
        let first = (blocks & 1) * RATE;
        // SAFETY: callers checked for AVX2.
        let got = unsafe { shake_x4::<RATE>(keccak, &msgs, first, blocks * RATE - first) };
        for (i, msg) in msgs.iter().enumerate() {
            let mut h = Sponge::<RATE, 0x1F>::new();
            h.absorb(msg);
            h.finalize();
            let mut expect = vec![0u8; blocks * RATE];
            h.squeeze(&mut expect);
            assert_eq!(
                got[i], expect,
                "{keccak:?}, rate {RATE}, length {len}, {blocks} blocks, lane {i}"
            );
        }
    }

    #[test]
    fn shake128x4_and_shake256x4_match_scalar_shake() {
        if !have_avx2() {
            return;
        }
        for (_, keccak) in Keccak4x::all_here() {
            let mut rng = SplitMix64(2);
            for rate in [168, 136] {
                let lengths = [
                    0,
                    1,
                    7,
                    8,
                    34,
                    66,
                    rate - 1,
                    rate,
                    rate + 1,
                    2 * rate - 1,
                    2 * rate,
                    2 * rate + 1,
                    3 * rate + 17,
                ];
                // Under Miri (M-1) 1 and 2 blocks only: both squeeze paths, a tenth of the time.
                for len in lengths {
                    for blocks in 1..=if cfg!(miri) { 2 } else { 6 } {
                        match rate {
                            168 => check_against_scalar::<168>(keccak, &mut rng, len, blocks),
                            _ => check_against_scalar::<136>(keccak, &mut rng, len, blocks),
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn squeezing_nothing_leaves_the_stream_where_it_was() {
        if !have_avx2() {
            return;
        }
        let msgs: [Vec<u8>; 4] = core::array::from_fn(|i| vec![i as u8; 34]);
        for (name, keccak) in Keccak4x::all_here() {
            // SAFETY: AVX2 was detected above.
            let got = unsafe { shake_x4::<168>(keccak, &msgs, 0, 168) };
            for (msg, got) in msgs.iter().zip(&got) {
                let mut expect = [0u8; 168];
                let mut h = crate::hash::keccak::Shake128::new();
                h.absorb(msg);
                h.finalize();
                h.squeeze_block(&mut expect);
                assert_eq!(got[..], expect[..], "{name}");
            }
        }
    }
}
