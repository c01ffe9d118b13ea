//! Eight Keccak-f[1600] permutations at once, one per 64-bit lane of 25 AVX-512 (zmm)
//! registers, and the SHAKE128 sponge over them that ExpandA runs.
//!
//! Why eight: the four-way permutation on AVX-512VL ([`super::keccak4x`]) is bound by the three
//! vector ports that take 256-bit logic and rotations; on 512-bit registers two ports take them, so
//! a round costs about 1.45 times as much for twice the states, about 28 % less per state (measured
//! on this project's Sapphire Rapids host: 303 ns for eight permutations against 212 ns for four).
//! ExpandA needs 16 to 56 independent sponges, so it fills eight lanes; the signing loop's sponges
//! do not (see [`crate::backend::x86_64::avx2::mask_lanes`]) and stay four-way.
//!
//! Layout and rounds: those of [`crate::backend::x86_64::avx2::keccak4x`] (register j holds lane j
//! of every state, state i in its 64-bit element i), written once by its round macros over the zmm
//! lane operations below.
//!
//! Constant time: fixed-length arithmetic on lanes; loops depend only on public lengths. Only
//! ExpandA (public seeds and output) runs on it, and the state is zeroised on drop all the same.

use crate::backend::x86_64::Keccak4x;
use crate::backend::x86_64::avx2::keccak4x::{SHAKE_SUFFIX, plane, round, theta_rho_pi};
use crate::hash::keccak::{PI_SOURCE, RHO_OFFSETS, ROUND_CONSTANTS};
use core::arch::x86_64::*;
use zeroize::Zeroize;

/// The lane operations on zmm registers (AVX-512F): `vprolq` and `vpternlogq` as in the
/// AVX-512VL four-way permutation, on eight lanes.
mod ops_avx512 {
    use core::arch::x86_64::*;

    /// a ^ b ^ c: truth table 0b1001_0110.
    const XOR3: i32 = 0x96;
    /// a ^ (!b & c): truth table 0b1101_0010.
    const A_XOR_NOT_B_AND_C: i32 = 0xD2;

    /// Theta's column parity: two three-way XORs.
    #[target_feature(enable = "avx2,avx512f")]
    #[inline]
    pub(super) fn xor5(a: __m512i, b: __m512i, c: __m512i, d: __m512i, e: __m512i) -> __m512i {
        let abc = _mm512_ternarylogic_epi64::<XOR3>(a, b, c);
        _mm512_ternarylogic_epi64::<XOR3>(abc, d, e)
    }

    /// Theta's D[x] = C[x - 1] ^ rot(C[x + 1], 1).
    #[target_feature(enable = "avx2,avx512f")]
    #[inline]
    pub(super) fn theta_d(c_minus: __m512i, c_plus: __m512i) -> __m512i {
        _mm512_xor_si512(c_minus, _mm512_rol_epi64::<1>(c_plus))
    }

    /// Rotates each 64-bit element left by `L` bits (`R` = 64 - `L`, unused).
    #[target_feature(enable = "avx2,avx512f")]
    #[inline]
    pub(super) fn rol<const L: i32, const R: i32>(x: __m512i) -> __m512i {
        const { assert!(L >= 0 && L < 64 && L + R == 64) };
        if L == 0 { x } else { _mm512_rol_epi64::<L>(x) }
    }

    /// Chi's a ^ (!b & c): one instruction.
    #[target_feature(enable = "avx2,avx512f")]
    #[inline]
    pub(super) fn chi(a: __m512i, b: __m512i, c: __m512i) -> __m512i {
        _mm512_ternarylogic_epi64::<A_XOR_NOT_B_AND_C>(a, b, c)
    }

    /// a ^ b.
    #[target_feature(enable = "avx2,avx512f")]
    #[inline]
    pub(super) fn xor(a: __m512i, b: __m512i) -> __m512i {
        _mm512_xor_si512(a, b)
    }

    /// The all-zero register.
    #[target_feature(enable = "avx2,avx512f")]
    #[inline]
    pub(super) fn zero() -> __m512i {
        _mm512_setzero_si512()
    }

    /// `x` in every 64-bit element.
    #[target_feature(enable = "avx2,avx512f")]
    #[inline]
    pub(super) fn splat(x: u64) -> __m512i {
        _mm512_set1_epi64(x as i64)
    }
}

/// Keccak-f[1600] on eight states at once, one round per loop iteration: 423-429 ns against
/// 437 ns with two (Zen 4, 2026-11-29, `leaf_costs`; the loop's end renames the lanes for pi
/// with more register copies, which cost nothing there).
/// Never inlined, so that the AVX-512 scan of `scripts/ct-check.sh` finds it by name at every
/// opt-level (a call per 300 ns permutation costs nothing measurable).
#[target_feature(enable = "avx2,avx512f")]
#[inline(never)]
fn f1600x8(state: &mut [__m512i; 25]) {
    tick!(Keccak8x, 1);
    let mut a = *state;
    for &rc in ROUND_CONSTANTS.iter() {
        a = round!(ops_avx512, a, rc);
    }
    *state = a;
}

/// Keccak-f[1600] on eight states and, beside them, on one more state in general-purpose
/// registers: the scalar rounds ([`crate::hash::keccak::round`]) interleaved with the
/// eight-way ones. The scalar rounds run on the integer units while the eight-way ones keep the
/// vector units busy, so the ninth permutation comes almost free: 426 against 411 ns for the
/// eight-way one alone and 258 ns for the scalar one (a Zen 4, 2026-11-29, compiled for the
/// native CPU; 482 against 410 + 255 ns for the baseline build). It runs H(pk) beside ExpandA.
/// Never inlined, as [`f1600x8`]. (Without BMI1's `andn`, which AVX-512 CPUs have but this
/// build does not assume, chi takes a NOT more per lane: still hidden.) Two rounds per loop
/// iteration, unlike [`f1600x8`]: with one, key generation took 16.7 µs instead of 11.5 for
/// ML-DSA-44 on the Zen 4 (2026-11-29); with four, 1-3 % longer. (With one, a native build's
/// SLP vectorizer turns the scalar rounds into vector code that moves lanes to and from
/// general-purpose registers; the baseline build, as of rustc 1.95, keeps them scalar.
/// `bench/ci-quick.sh` checks the native build's code for those moves.)
#[target_feature(enable = "avx2,avx512f")]
#[inline(never)]
fn f1600x9(state: &mut [__m512i; 25], one: &mut [u64; 25]) {
    tick!(Keccak8x, 1);
    let mut a = *state;
    let mut s = *one;
    for rc in ROUND_CONSTANTS.chunks_exact(2) {
        a = round!(ops_avx512, a, rc[0]);
        s = crate::hash::keccak::round(s, rc[0]);
        a = round!(ops_avx512, a, rc[1]);
        s = crate::hash::keccak::round(s, rc[1]);
    }
    *state = a;
    *one = s;
}

/// The permutation on eight states given lane by lane (lane j of state i at `[j][i]`), for the
/// profile's timing of it.
#[cfg(feature = "profile")]
#[target_feature(enable = "avx2,avx512f")]
pub(crate) fn permute_lanes(_: Keccak8x, lanes: &mut [[u64; 8]; 25]) {
    let mut v = [_mm512_setzero_si512(); 25];
    for (r, l) in v.iter_mut().zip(lanes.iter()) {
        // SAFETY: `l` is 64 readable bytes; `loadu` has no alignment requirement.
        *r = unsafe { _mm512_loadu_si512(l.as_ptr().cast()) };
    }
    f1600x8(&mut v);
    for (l, r) in lanes.iter_mut().zip(v) {
        // SAFETY: `l` is 64 writable bytes; `storeu` has no alignment requirement.
        unsafe { _mm512_storeu_si512(l.as_mut_ptr().cast(), r) };
    }
}

/// Proof that the eight-way permutation may run here: made only by [`Keccak8x::of`], from a
/// [`Keccak4x`] that runs the AVX-512VL permutation (so AVX-512 F, VL and BW were detected).
/// Functions compiled for AVX-512 F take it to say why calling them is sound.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Keccak8x(());

impl Keccak8x {
    /// The eight-way permutation if `keccak` is the AVX-512VL one, else `None`.
    pub(crate) fn of(keccak: Keccak4x) -> Option<Self> {
        keccak.avx512vl().then_some(Self(()))
    }
}

/// The 8x8 transpose of 64-bit elements: element i of output k is element k of input i (input
/// j holds word j of the eight states; output i, state i's eight words). Three rounds of eight
/// shuffles: pairs of words (`unpack`), then 128-bit quarters twice (`shuffle_i64x2`).
#[target_feature(enable = "avx512f")]
fn transpose8(r: [__m512i; 8]) -> [__m512i; 8] {
    // t: within each 128-bit quarter q, (r_a[2q], r_b[2q]) (lo) or (r_a[2q + 1], r_b[2q + 1]) (hi).
    let t = [
        _mm512_unpacklo_epi64(r[0], r[1]),
        _mm512_unpackhi_epi64(r[0], r[1]),
        _mm512_unpacklo_epi64(r[2], r[3]),
        _mm512_unpackhi_epi64(r[2], r[3]),
        _mm512_unpacklo_epi64(r[4], r[5]),
        _mm512_unpackhi_epi64(r[4], r[5]),
        _mm512_unpacklo_epi64(r[6], r[7]),
        _mm512_unpackhi_epi64(r[6], r[7]),
    ];
    // 0x88 takes quarters 0 and 2 of each operand, 0xDD quarters 1 and 3: u[0] holds elements
    // 0 and 4 of inputs 0-3 (as pairs), u[1] elements 2 and 6, u[2] 1 and 5, u[3] 3 and 7; u[4..]
    // the same of inputs 4-7.
    let u = [
        _mm512_shuffle_i64x2::<0x88>(t[0], t[2]),
        _mm512_shuffle_i64x2::<0xDD>(t[0], t[2]),
        _mm512_shuffle_i64x2::<0x88>(t[1], t[3]),
        _mm512_shuffle_i64x2::<0xDD>(t[1], t[3]),
        _mm512_shuffle_i64x2::<0x88>(t[4], t[6]),
        _mm512_shuffle_i64x2::<0xDD>(t[4], t[6]),
        _mm512_shuffle_i64x2::<0x88>(t[5], t[7]),
        _mm512_shuffle_i64x2::<0xDD>(t[5], t[7]),
    ];
    [
        _mm512_shuffle_i64x2::<0x88>(u[0], u[4]),
        _mm512_shuffle_i64x2::<0x88>(u[2], u[6]),
        _mm512_shuffle_i64x2::<0x88>(u[1], u[5]),
        _mm512_shuffle_i64x2::<0x88>(u[3], u[7]),
        _mm512_shuffle_i64x2::<0xDD>(u[0], u[4]),
        _mm512_shuffle_i64x2::<0xDD>(u[2], u[6]),
        _mm512_shuffle_i64x2::<0xDD>(u[1], u[5]),
        _mm512_shuffle_i64x2::<0xDD>(u[3], u[7]),
    ]
}

/// Eight SHAKE sponges (FIPS 202 section 6.2) with a rate of `RATE` bytes, in lockstep: absorb
/// once, then squeeze whole blocks, as [`crate::backend::x86_64::avx2::keccak4x::Shake4`] does four
/// at a time.
pub(crate) struct Shake8<const RATE: usize> {
    state: [__m512i; 25],
}

/// SHAKE128 eight times over (ExpandA).
pub(crate) type Shake128x8 = Shake8<{ crate::hash::keccak::SHAKE128_RATE }>;
/// SHAKE256 eight times over (ExpandMask).
pub(crate) type Shake256x8 = Shake8<{ crate::hash::keccak::SHAKE256_RATE }>;

/// Hands `put(j, word)` word j of eight SHAKE blocks at rate `RATE`, for j = 0 to 24 in order,
/// state i's in element i: `inputs[i]` (each shorter than a block, all of the same length: a
/// public value; panics otherwise), the SHAKE suffix and pad10*1, zero after.
///
/// Straight into registers, nothing through the stack (the inputs may be secret seeds, as in
/// ExpandMask): each input's next 64 bytes by a masked load (zero past its end; masked-off bytes
/// are never read), the eight rows turned into eight words of every state by [`transpose8`],
/// and the padding XORed into the two words it touches (the same in every state, the lengths
/// being equal). Building padded blocks on the stack instead cost an ML-DSA-65 key generation
/// about 6 % on a Zen 4 (by perf's sampling): 1.3 KiB zeroised a byte at a time, and eight
/// words stored and read back as one register, which store forwarding cannot serve.
#[target_feature(enable = "avx2,avx512f,avx512bw")]
#[inline]
fn padded_blocks<const RATE: usize>(inputs: [&[u8]; 8], mut put: impl FnMut(usize, __m512i)) {
    let len = inputs[0].len();
    assert!(
        len < RATE && inputs.iter().all(|m| m.len() == len),
        "equal lengths below a block"
    );
    let suffix = _mm512_set1_epi64((u64::from(SHAKE_SUFFIX) << (8 * (len % 8))) as i64);
    let end = _mm512_set1_epi64((0x80u64 << 56) as i64);
    let mut j = 0;
    while j < 25 {
        let start = 8 * j;
        let words = if start < len {
            let n = (len - start).min(64);
            let mask = u64::MAX >> (64 - n);
            transpose8(inputs.map(|m| {
                let bytes = &m[start..start + n];
                // SAFETY: AVX-512 BW is enabled; the mask selects the first `n` bytes, all in
                // `bytes`, and the bytes it leaves out are not accessed (masked loads suppress
                // their faults); no alignment requirement.
                unsafe { _mm512_maskz_loadu_epi8(mask, bytes.as_ptr().cast()) }
            }))
        } else {
            [_mm512_setzero_si512(); 8]
        };
        for word in words {
            if j < 25 {
                // pad10*1 after the SHAKE suffix: byte `len` and the block's last byte.
                let word = if j == len / 8 {
                    _mm512_xor_si512(word, suffix)
                } else {
                    word
                };
                let word = if j == RATE / 8 - 1 {
                    _mm512_xor_si512(word, end)
                } else {
                    word
                };
                put(j, word);
            }
            j += 1;
        }
    }
}

impl<const RATE: usize> Drop for Shake8<RATE> {
    fn drop(&mut self) {
        self.state.zeroize();
    }
}

impl<const RATE: usize> Shake8<RATE> {
    /// 64-bit lanes per block.
    const LANES: usize = {
        assert!(RATE.is_multiple_of(8) && RATE < 200);
        RATE / 8
    };

    /// Eight empty sponges; [`Self::absorb_short`] fills them. Made empty and filled in place (as
    /// [`crate::backend::x86_64::avx2::keccak4x::Shake4::new`]), so that the absorbed state (secret
    /// seeds, in ExpandMask) never exists outside the value the caller holds and wipes: a returned
    /// value may be copied out of a frame that is then left behind.
    #[target_feature(enable = "avx2,avx512f")]
    pub(crate) fn new(_: Keccak8x) -> Self {
        Self {
            state: [_mm512_setzero_si512(); 25],
        }
    }

    /// Absorbs `inputs[i]` into sponge i (which must be empty: made by [`Self::new`]; each
    /// input shorter than a block, all of the same length: a public value; panics otherwise)
    /// and pads it, ready to squeeze: the blocks of [`padded_blocks`].
    #[target_feature(enable = "avx2,avx512f,avx512bw")]
    pub(crate) fn absorb_short(&mut self, inputs: [&[u8]; 8]) {
        // The sponges are empty: XORing the blocks in is writing them.
        padded_blocks::<RATE>(inputs, |j, word| self.state[j] = word);
    }

    /// Squeezes the next `out[i].len() / RATE` whole blocks of stream i into `out[i]` (equal
    /// lengths, whole blocks: public values; panics otherwise). The stack copy each lane passes
    /// through (secret output, in ExpandMask) is wiped before returning.
    #[target_feature(enable = "avx2,avx512f")]
    pub(crate) fn squeeze_blocks(&mut self, mut out: [&mut [u8]; 8]) {
        let len = out[0].len();
        assert!(out.iter().all(|o| o.len() == len), "equal output lengths");
        let mut offset = 0;
        while offset < len {
            // Whole blocks, checked without `%` (the ct scan forbids division, and at opt-level
            // z a remainder by a constant stays a `div`).
            assert!(len - offset >= RATE, "whole blocks");
            self.permute();
            self.read_block(offset, &mut out);
            offset += RATE;
        }
    }

    /// Runs the permutation once: the next output block of every lane (after padding), or
    /// the absorption of the block just XORed in.
    #[target_feature(enable = "avx2,avx512f")]
    #[inline]
    pub(crate) fn permute(&mut self) {
        f1600x8(&mut self.state);
    }

    /// [`Self::permute`], and Keccak-f[1600] on `one` beside it ([`f1600x9`]).
    #[target_feature(enable = "avx2,avx512f")]
    #[inline]
    pub(crate) fn permute_beside(&mut self, one: &mut [u64; 25]) {
        f1600x9(&mut self.state, one);
    }

    /// Writes the rate part of each state, as bytes, to `out[i][offset..offset + RATE]`: eight
    /// words of the eight states at a time, an 8x8 transpose of 64-bit elements ([`transpose8`])
    /// giving each state's 64 contiguous output bytes; the last group (five words for SHAKE128,
    /// one for SHAKE256) through the same transpose with zero rows, stored masked. Nothing goes
    /// through the stack on purpose (the output may be secret: ExpandMask).
    #[target_feature(enable = "avx2,avx512f")]
    pub(crate) fn read_block(&self, offset: usize, out: &mut [&mut [u8]; 8]) {
        let mut j = 0;
        while j < Self::LANES {
            let n = (Self::LANES - j).min(8);
            let rows = transpose8(core::array::from_fn(|k| {
                if k < n {
                    self.state[j + k]
                } else {
                    _mm512_setzero_si512()
                }
            }));
            let at = offset + 8 * j;
            for (o, row) in out.iter_mut().zip(rows) {
                let dst = &mut o[at..at + 8 * n];
                // SAFETY: the mask enables the first n 64-bit elements only, so the store
                // writes 8n bytes, all of `dst` (bounds-checked above) and nothing past it;
                // `storeu` has no alignment requirement.
                unsafe { _mm512_mask_storeu_epi64(dst.as_mut_ptr().cast(), 0xFF >> (8 - n), row) };
            }
            j += n;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::x86_64::Avx2;
    use crate::hash::keccak::f1600;
    use crate::math::splitmix::SplitMix64;

    /// The proof token on this CPU, or `None` (saying so) where AVX-512 is missing.
    fn wide() -> Option<Keccak8x> {
        let keccak = Avx2::detect().and_then(Avx2::with_avx512).map(Keccak4x::of);
        let wide = keccak.and_then(Keccak8x::of);
        if wide.is_none() {
            eprintln!("skipped: this CPU has no AVX-512 F, VL and BW");
        }
        wide
    }

    /// Packs eight scalar states into the x8 layout, permutes them, and unpacks them; with
    /// `ninth`, permutes that one beside them ([`f1600x9`]).
    #[target_feature(enable = "avx2,avx512f")]
    fn permute_x8(_: Keccak8x, states: &mut [[u64; 25]; 8], ninth: Option<&mut [u64; 25]>) {
        let mut v = [_mm512_setzero_si512(); 25];
        for (j, lane) in v.iter_mut().enumerate() {
            let words: [u64; 8] = core::array::from_fn(|i| states[i][j]);
            // SAFETY: `words` is 64 readable bytes; `loadu` has no alignment requirement.
            *lane = unsafe { _mm512_loadu_si512(words.as_ptr().cast()) };
        }
        match ninth {
            Some(one) => f1600x9(&mut v, one),
            None => f1600x8(&mut v),
        }
        for (j, lane) in v.iter().enumerate() {
            let mut words = [0u64; 8];
            // SAFETY: `words` is 64 writable bytes; `storeu` has no alignment requirement.
            unsafe { _mm512_storeu_si512(words.as_mut_ptr().cast(), *lane) };
            for (state, w) in states.iter_mut().zip(words) {
                state[j] = w;
            }
        }
    }

    /// The eight-way permutation against the scalar one on states with single bits set (each
    /// bit of each lane in turn, in one of the eight states) and on random states.
    #[test]
    fn f1600x8_and_x9_equal_the_scalar_permutation_on_each_state() {
        let Some(wide) = wide() else { return };
        let mut rng = SplitMix64(0x888);
        let singles = (0..25 * 64).map(|k| {
            let mut states = [[0u64; 25]; 8];
            states[k % 8][k / 64] = 1 << (k % 64);
            states
        });
        let randoms = (0..if cfg!(miri) { 2 } else { 500 })
            .map(|_| core::array::from_fn(|_| core::array::from_fn(|_| rng.next_u64())));
        for (trial, states) in singles.chain(randoms).enumerate() {
            let mut expect = states;
            expect.iter_mut().for_each(f1600);
            let mut got = states;
            // SAFETY: `wide` proves AVX-512 F present.
            unsafe { permute_x8(wide, &mut got, None) };
            assert_eq!(got, expect, "trial {trial}");
            // Beside them, a ninth state: state 0 turned around.
            let (mut got, mut ninth) = (states, states[0]);
            ninth.reverse();
            let mut expect_ninth = ninth;
            f1600(&mut expect_ninth);
            // SAFETY: as above.
            unsafe { permute_x8(wide, &mut got, Some(&mut ninth)) };
            assert_eq!(got, expect, "trial {trial}, with a ninth");
            assert_eq!(ninth, expect_ninth, "trial {trial}, the ninth");
        }
    }

    /// Eight streams of different seeds of each length in `lens` (below a block), squeezed in
    /// two calls of `first` and `then` blocks, against the scalar sponge `expect`.
    fn each_lane_equals<const RATE: usize>(
        wide: Keccak8x,
        lens: &[usize],
        (first, then): (usize, usize),
        expect: impl Fn(&[u8], &mut [u8]),
    ) {
        for &len in lens {
            let seeds: [Vec<u8>; 8] =
                core::array::from_fn(|i| (0..len).map(|b| (31 * i + 7 * b + len) as u8).collect());
            let mut got: [Vec<u8>; 8] = core::array::from_fn(|_| vec![0; (first + then) * RATE]);
            // SAFETY: `wide` proves AVX-512 F and BW present.
            unsafe {
                let mut g = Shake8::<RATE>::new(wide);
                g.absorb_short(seeds.each_ref().map(|s| &s[..]));
                g.squeeze_blocks(got.each_mut().map(|o| &mut o[..first * RATE]));
                g.squeeze_blocks(got.each_mut().map(|o| &mut o[first * RATE..]));
            }
            for (i, (seed, out)) in seeds.iter().zip(&got).enumerate() {
                let mut want = vec![0; out.len()];
                expect(seed, &mut want);
                assert_eq!(
                    out[..],
                    want[..],
                    "rate {RATE}, lane {i}, input length {len}"
                );
            }
        }
    }

    /// SHAKE128 (ExpandA's 34-byte seeds among the lengths) and SHAKE256 (ExpandMask's 66-byte
    /// ones) on eight lanes against the scalar sponges.
    #[test]
    fn shake8_equals_the_scalar_sponge_on_each_lane() {
        let Some(wide) = wide() else { return };
        const RATE128: usize = crate::hash::keccak::SHAKE128_RATE;
        const RATE256: usize = crate::hash::keccak::SHAKE256_RATE;
        let shake128 = |seed: &[u8], out: &mut [u8]| {
            let mut sponge = crate::hash::keccak::Shake128::new();
            sponge.absorb(seed);
            sponge.finalize();
            sponge.squeeze(out);
        };
        each_lane_equals::<RATE128>(wide, &[0, 1, 34, 100, RATE128 - 1], (1, 2), shake128);
        let shake256 = |seed: &[u8], out: &mut [u8]| crate::hash::keccak::shake256(&[seed], out);
        each_lane_equals::<RATE256>(wide, &[0, 33, 66, RATE256 - 1], (2, 3), shake256);
    }
}
