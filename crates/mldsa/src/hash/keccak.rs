//! Keccak-f[1600] and the sponge construction (FIPS 202), for SHAKE128, SHAKE256 and SHA3.
//!
//! Written here rather than taken from a crate because ML-DSA drives the sponge in ways generic
//! hash APIs hide (squeezing whole rate blocks for rejection sampling, resuming absorption for
//! streaming), and because the AVX2 backend needs a 4-way permutation with the same layout. Every
//! table is computed at compile time from its FIPS 202 definition; tests compare the results with
//! RustCrypto's independent `sha3` and `shake` crates.
//!
//! Constant time: the permutation is fixed-length arithmetic on 64-bit lanes; absorb and squeeze
//! positions depend only on lengths, which are public.

use zeroize::Zeroize;

/// FIPS 202 Algorithm 5, rc(t): one output bit of the round-constant LFSR.
const fn rc_bit(t: usize) -> u64 {
    let t = t % 255;
    let mut r: u8 = 1; // R = 10000000, bit i of `r` holds R[i]
    let mut i = 0;
    while i < t {
        // R = 0 || R; R[0] ^= R[8]; R[4] ^= R[8]; R[5] ^= R[8]; R[6] ^= R[8]; truncate to 8.
        let r8 = r >> 7;
        r <<= 1;
        if r8 == 1 {
            r ^= 0b0111_0001;
        }
        i += 1;
    }
    (r & 1) as u64
}

/// FIPS 202 section 3.2.5: round constants RC_ir, bit 2^j - 1 set to rc(j + 7 ir).
pub(crate) const ROUND_CONSTANTS: [u64; 24] = {
    let mut rc = [0u64; 24];
    let mut ir = 0;
    while ir < 24 {
        let mut j = 0;
        while j <= 6 {
            rc[ir] |= rc_bit(j + 7 * ir) << ((1 << j) - 1);
            j += 1;
        }
        ir += 1;
    }
    rc
};

/// FIPS 202 sections 3.2.2 (rho) and 3.2.3 (pi), merged: walking lane (x, y) -> (y, 2x + 3y)
/// from (1, 0) visits the 24 non-zero lanes; the t-th lane of that walk is rotated by
/// (t + 1)(t + 2)/2 and moved to the next one.
const RHO_PI: ([u32; 24], [usize; 24]) = {
    let mut rho = [0u32; 24];
    let mut pi = [0usize; 24];
    let (mut x, mut y) = (1usize, 0usize);
    let mut t = 0;
    while t < 24 {
        rho[t] = (((t + 1) * (t + 2) / 2) % 64) as u32;
        let next = (y, (2 * x + 3 * y) % 5);
        x = next.0;
        y = next.1;
        pi[t] = x + 5 * y;
        t += 1;
    }
    (rho, pi)
};

/// FIPS 202 section 3.2.2 (rho) per lane: `RHO_OFFSETS[x + 5y]` is the rotation of lane (x, y),
/// read off the walk in [`RHO_PI`] (lane (0, 0) is not rotated).
pub(crate) const RHO_OFFSETS: [u32; 25] = {
    let (rho, pi) = RHO_PI;
    let mut offsets = [0u32; 25];
    offsets[1] = rho[0];
    let mut t = 1;
    while t < 24 {
        offsets[pi[t - 1]] = rho[t];
        t += 1;
    }
    offsets
};

/// FIPS 202 section 3.2.3 (pi), A'[x, y] = A[(x + 3y) mod 5, x]: `PI_SOURCE[x + 5y]` is the
/// index of the lane that pi moves to (x, y).
pub(crate) const PI_SOURCE: [usize; 25] = {
    let mut source = [0usize; 25];
    let mut i = 0;
    while i < 25 {
        let (x, y) = (i % 5, i / 5);
        source[i] = (x + 3 * y) % 5 + 5 * x;
        i += 1;
    }
    source
};

/// Theta's last step, rho and pi for the lane that lands at index `$i`: the source lane, XORed
/// with D of its column, rotated by its own offset. Every index is a constant.
macro_rules! theta_rho_pi {
    ($a:ident, $d:ident, $i:expr) => {
        ($a[const { PI_SOURCE[$i] }] ^ $d[const { PI_SOURCE[$i] % 5 }])
            .rotate_left(const { RHO_OFFSETS[PI_SOURCE[$i]] })
    };
}

/// Theta (applying D), rho, pi, then chi, for the plane of output lanes `$i`..`$i + 4` (one
/// y), written to `$e`: chi needs only the five B lanes of its plane, so computing plane by
/// plane keeps few values live.
macro_rules! plane {
    ($a:ident, $d:ident, $e:ident, $i:literal) => {{
        let b = [
            theta_rho_pi!($a, $d, { $i }),
            theta_rho_pi!($a, $d, { $i + 1 }),
            theta_rho_pi!($a, $d, { $i + 2 }),
            theta_rho_pi!($a, $d, { $i + 3 }),
            theta_rho_pi!($a, $d, { $i + 4 }),
        ];
        // chi: B[x, y] ^ (!B[x + 1, y] & B[x + 2, y]).
        $e[$i] = b[0] ^ (!b[1] & b[2]);
        $e[$i + 1] = b[1] ^ (!b[2] & b[3]);
        $e[$i + 2] = b[2] ^ (!b[3] & b[4]);
        $e[$i + 3] = b[3] ^ (!b[4] & b[0]);
        $e[$i + 4] = b[4] ^ (!b[0] & b[1]);
    }};
}

/// One round (FIPS 202 section 3.3, Rnd) with round constant `rc`, as straight-line code on
/// locals: no array is indexed in a loop and no index is computed at run time. (The x86-64
/// backend interleaves it with its eight-way rounds.)
#[inline(always)]
pub(crate) fn round(a: [u64; 25], rc: u64) -> [u64; 25] {
    // theta: C[x] = xor of column x, D[x] = C[x - 1] ^ rot(C[x + 1], 1).
    let c = [
        a[0] ^ a[5] ^ a[10] ^ a[15] ^ a[20],
        a[1] ^ a[6] ^ a[11] ^ a[16] ^ a[21],
        a[2] ^ a[7] ^ a[12] ^ a[17] ^ a[22],
        a[3] ^ a[8] ^ a[13] ^ a[18] ^ a[23],
        a[4] ^ a[9] ^ a[14] ^ a[19] ^ a[24],
    ];
    let d = [
        c[4] ^ c[1].rotate_left(1),
        c[0] ^ c[2].rotate_left(1),
        c[1] ^ c[3].rotate_left(1),
        c[2] ^ c[4].rotate_left(1),
        c[3] ^ c[0].rotate_left(1),
    ];
    let mut e = [0u64; 25];
    plane!(a, d, e, 0);
    plane!(a, d, e, 5);
    plane!(a, d, e, 10);
    plane!(a, d, e, 15);
    plane!(a, d, e, 20);
    // iota
    e[0] ^= rc;
    e
}

/// Keccak-f[1600] (FIPS 202 section 3.3, 24 rounds of theta, rho, pi, chi, iota): the portable
/// build, which [`Permutation::PORTABLE`] runs.
pub(crate) fn f1600(state: &mut [u64; 25]) {
    f1600_rounds(state);
}

/// The build of Keccak-f[1600] a scalar sponge runs. This floor has the portable one; a
/// backend may hand the sponges a faster build of the same rounds (the x86-64 backend's BMI1
/// and BMI2 build, `backend/x86_64/avx2/keccak_bmi.rs`: about 1.3x as fast; on AMD CPUs with
/// AVX-512, lane 0 of its four-way AVX-512VL permutation: 1.2x faster still), which it gives as
/// a value, so that hashing needs nothing from the backends (the choice is passed in, not
/// looked up). Sponges made with [`Sponge::new`] run the portable build; those of keygen,
/// signing, verification, mu and the pre-hashes are made with [`Sponge::with`] and the
/// backend's choice (`Backend::keccak`, `backend::keccak`).
#[derive(Clone, Copy)]
pub(crate) struct Permutation(fn(&mut [u64; 25]));

impl Permutation {
    /// [`f1600`], the portable build.
    pub(crate) const PORTABLE: Self = Self(f1600);

    /// Another build of the rounds of [`f1600_rounds`]: it must compute exactly
    /// Keccak-f[1600], in constant time.
    #[cfg_attr(
        not(any(target_arch = "x86_64", target_arch = "aarch64")),
        allow(
            dead_code,
            reason = "only the x86-64 and AArch64 backends have other builds"
        )
    )]
    pub(crate) const fn build(f1600: fn(&mut [u64; 25])) -> Self {
        Self(f1600)
    }

    /// Permutes `state`.
    #[inline(always)]
    pub(crate) fn apply(self, state: &mut [u64; 25]) {
        tick!(KeccakScalar, 1);
        (self.0)(state)
    }
}

/// The 24 rounds of [`f1600`] as plain Rust, inlined into each build of it.
///
/// Two rounds per loop iteration: faster than one (fewer copies between iterations) and than
/// all 24 (code size). The AVX2 backend's 4-way permutation has the same shape.
#[inline(always)]
pub(crate) fn f1600_rounds(state: &mut [u64; 25]) {
    let mut a = *state;
    for rc in ROUND_CONSTANTS.chunks_exact(2) {
        a = round(a, rc[0]);
        a = round(a, rc[1]);
    }
    *state = a;
}

/// A Keccak sponge with a rate of `RATE` bytes and domain-separation suffix `DS`
/// (FIPS 202 section 4 and 6: 0x1F for SHAKE, 0x06 for SHA3).
///
/// The state is zeroised on drop: it often holds secrets (K, rho', the signing key hash).
#[derive(Clone)]
pub(crate) struct Sponge<const RATE: usize, const DS: u8> {
    state: [u64; 25],
    /// The build of the permutation this sponge runs.
    keccak: Permutation,
    /// Byte position inside the current block (absorbing, then squeezing).
    pos: usize,
}

impl<const RATE: usize, const DS: u8> Drop for Sponge<RATE, DS> {
    fn drop(&mut self) {
        self.state.zeroize();
    }
}

impl<const RATE: usize, const DS: u8> Sponge<RATE, DS> {
    /// An empty sponge, ready to absorb, on the portable permutation.
    pub(crate) const fn new() -> Self {
        Self::with(Permutation::PORTABLE)
    }

    /// An empty sponge, ready to absorb, on the permutation `keccak`.
    pub(crate) const fn with(keccak: Permutation) -> Self {
        Self {
            state: [0; 25],
            keccak,
            pos: 0,
        }
    }

    /// The sponge whose state is `state` after absorbing whole blocks (the last one permuted),
    /// ready to absorb more on the permutation `keccak`: how a lane of a multi-way sponge that
    /// absorbed the first blocks of a message goes on alone.
    #[cfg_attr(
        not(target_arch = "x86_64"),
        allow(dead_code, reason = "only the x86-64 backend hands a lane over")
    )]
    pub(crate) const fn resume(keccak: Permutation, state: [u64; 25]) -> Self {
        Self {
            state,
            keccak,
            pos: 0,
        }
    }

    #[inline(always)]
    fn xor_byte(&mut self, i: usize, b: u8) {
        self.state[i / 8] ^= (b as u64) << (8 * (i % 8));
    }

    #[inline(always)]
    fn byte(&self, i: usize) -> u8 {
        (self.state[i / 8] >> (8 * (i % 8))) as u8
    }

    /// Absorbs `data` (may be called any number of times before [`Self::finalize`]).
    pub(crate) fn absorb(&mut self, mut data: &[u8]) {
        while !data.is_empty() {
            // `pos & 7`, not `pos.is_multiple_of(8)`: unoptimised builds call that as a function
            // that divides (on public positions, but the div scan of scripts/ct-check.sh counts
            // every `div` reachable from the library).
            if self.pos & 7 == 0 && data.len() >= 8 && self.pos + 8 <= RATE {
                // Whole lanes while aligned (zipped: no bounds check per lane).
                let lanes = &mut self.state[self.pos / 8..RATE / 8];
                let words = data.as_chunks::<8>().0;
                let n = lanes.len().min(words.len());
                for (lane, word) in lanes.iter_mut().zip(words) {
                    *lane ^= u64::from_le_bytes(*word);
                }
                self.pos += 8 * n;
                data = &data[8 * n..];
            } else {
                self.xor_byte(self.pos, data[0]);
                self.pos += 1;
                data = &data[1..];
            }
            if self.pos == RATE {
                self.keccak.apply(&mut self.state);
                self.pos = 0;
            }
        }
    }

    /// Pads (suffix `DS`, then pad10*1) and switches to squeezing.
    pub(crate) fn finalize(&mut self) {
        self.xor_byte(self.pos, DS);
        self.xor_byte(RATE - 1, 0x80);
        self.keccak.apply(&mut self.state);
        self.pos = 0;
    }

    /// Squeezes `out.len()` bytes (after [`Self::finalize`]).
    pub(crate) fn squeeze(&mut self, mut out: &mut [u8]) {
        while !out.is_empty() {
            if self.pos == RATE {
                self.keccak.apply(&mut self.state);
                self.pos = 0;
            }
            if self.pos & 7 == 0 && out.len() >= 8 {
                // Whole lanes while aligned (ExpandMask and the hashes squeeze hundreds of bytes;
                // byte by byte was a tenth of portable signing).
                let lanes = ((RATE - self.pos) >> 3).min(out.len() >> 3);
                let (head, rest) = out.split_at_mut(lanes << 3);
                for (chunk, lane) in head.chunks_exact_mut(8).zip(&self.state[self.pos >> 3..]) {
                    chunk.copy_from_slice(&lane.to_le_bytes());
                }
                self.pos += lanes << 3;
                out = rest;
            } else {
                out[0] = self.byte(self.pos);
                self.pos += 1;
                out = &mut out[1..];
            }
        }
    }

    /// Squeezes one whole block of `RATE` bytes; for samplers that consume blocks.
    ///
    /// Must be called on a block boundary: right after [`Self::finalize`] or another block.
    pub(crate) fn squeeze_block(&mut self, out: &mut [u8; RATE]) {
        debug_assert!(self.pos == 0 || self.pos == RATE);
        if self.pos == RATE {
            self.keccak.apply(&mut self.state);
        }
        for (k, chunk) in out.chunks_exact_mut(8).enumerate() {
            chunk.copy_from_slice(&self.state[k].to_le_bytes());
        }
        self.pos = RATE;
    }
}

/// SHAKE128's rate in bytes (FIPS 202: 1344 bits).
pub(crate) const SHAKE128_RATE: usize = 168;
/// SHAKE256's rate in bytes (FIPS 202: 1088 bits).
pub(crate) const SHAKE256_RATE: usize = 136;

/// SHAKE128 (FIPS 202).
pub(crate) type Shake128 = Sponge<SHAKE128_RATE, 0x1F>;
/// SHAKE256 (FIPS 202).
pub(crate) type Shake256 = Sponge<SHAKE256_RATE, 0x1F>;
/// SHA3-224 (FIPS 202): rate 144 bytes, 28-byte output.
pub(crate) type Sha3_224 = Sponge<144, 0x06>;
/// SHA3-256 (FIPS 202): rate 136 bytes, 32-byte output.
pub(crate) type Sha3_256 = Sponge<136, 0x06>;
/// SHA3-384 (FIPS 202): rate 104 bytes, 48-byte output.
pub(crate) type Sha3_384 = Sponge<104, 0x06>;
/// SHA3-512 (FIPS 202): rate 72 bytes, 64-byte output.
pub(crate) type Sha3_512 = Sponge<72, 0x06>;

/// SHAKE256 of the concatenation of `parts`, `out.len()` bytes: FIPS 204's H, on the portable
/// permutation.
pub(crate) fn shake256(parts: &[&[u8]], out: &mut [u8]) {
    shake256_with(Permutation::PORTABLE, parts, out)
}

/// [`shake256`] on the permutation `keccak`.
pub(crate) fn shake256_with(keccak: Permutation, parts: &[&[u8]], out: &mut [u8]) {
    let mut h = Shake256::with(keccak);
    for p in parts {
        h.absorb(p);
    }
    h.finalize();
    h.squeeze(out);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (x + 1) mod 5, (x + 2) mod 5 and (x + 4) mod 5 as tables, so that no `%` (a hardware `div`
    /// at low optimisation levels, even on these public indices) appears in the permutation.
    const PLUS1: [usize; 5] = [1, 2, 3, 4, 0];
    const PLUS2: [usize; 5] = [2, 3, 4, 0, 1];
    const PLUS4: [usize; 5] = [4, 0, 1, 2, 3];

    /// Keccak-f[1600] step by step as FIPS 202 section 3.2 writes it (the former implementation):
    /// the reference for the unrolled [`f1600`].
    fn f1600_step_by_step(a: &mut [u64; 25]) {
        let (rho, pi) = RHO_PI;
        for rc in ROUND_CONSTANTS {
            // theta
            let mut c = [0u64; 5];
            for x in 0..5 {
                c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20];
            }
            for x in 0..5 {
                let d = c[PLUS4[x]] ^ c[PLUS1[x]].rotate_left(1);
                for y in 0..5 {
                    a[x + 5 * y] ^= d;
                }
            }
            // rho and pi
            let mut carried = a[1];
            for t in 0..24 {
                let next = a[pi[t]];
                a[pi[t]] = carried.rotate_left(rho[t]);
                carried = next;
            }
            // chi
            for y in 0..5 {
                let row = [
                    a[5 * y],
                    a[5 * y + 1],
                    a[5 * y + 2],
                    a[5 * y + 3],
                    a[5 * y + 4],
                ];
                for x in 0..5 {
                    a[x + 5 * y] = row[x] ^ (!row[PLUS1[x]] & row[PLUS2[x]]);
                }
            }
            // iota
            a[0] ^= rc;
        }
    }

    #[test]
    fn unrolled_permutation_equals_the_step_by_step_one() {
        // SplitMix64 states, and the all-zero state.
        let mut rng = crate::math::splitmix::SplitMix64(0);
        for trial in 0..64 {
            let mut a = [0u64; 25];
            if trial > 0 {
                a = core::array::from_fn(|_| rng.next_u64());
            }
            let mut b = a;
            f1600(&mut a);
            f1600_step_by_step(&mut b);
            assert_eq!(a, b, "trial {trial}");
        }
    }

    #[test]
    fn lane_tables_match_fips202() {
        // FIPS 202 Table 2 (rho offsets), in lane order x + 5y.
        let table2 = [
            0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39, 41, 45, 15, 21, 8, 18, 2, 61,
            56, 14,
        ];
        assert_eq!(RHO_OFFSETS, table2);
        // pi moves the t-th lane of the (x, y) -> (y, 2x + 3y) walk from (1, 0) to the next.
        let (_, walk) = RHO_PI;
        assert_eq!(PI_SOURCE[walk[0]], 1);
        for t in 1..24 {
            assert_eq!(PI_SOURCE[walk[t]], walk[t - 1]);
        }
        assert_eq!(PI_SOURCE[0], 0);
    }

    #[test]
    fn round_constants_match_fips202_first_and_last() {
        // Spot values from FIPS 202's table of RC (the rest follow from the same LFSR).
        assert_eq!(ROUND_CONSTANTS[0], 0x0000_0000_0000_0001);
        assert_eq!(ROUND_CONSTANTS[1], 0x0000_0000_0000_8082);
        assert_eq!(ROUND_CONSTANTS[23], 0x8000_0000_8000_8008);
    }

    #[test]
    fn empty_input_digests() {
        // FIPS 202 example values for the empty message.
        let mut out = [0u8; 32];
        shake256(&[], &mut out);
        assert_eq!(
            hex(&out),
            "46b9dd2b0ba88d13233b3feb743eeb243fcd52ea62b81b82b50c27646ed5762f"
        );
        let mut s = Sha3_256::new();
        s.finalize();
        s.squeeze(&mut out);
        assert_eq!(
            hex(&out),
            "a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a"
        );
    }

    /// Absorbing in pieces of every size and alignment (lane-wise and byte-wise paths, block
    /// boundaries crossed mid-lane) gives the state of XORing the input in byte by byte.
    #[test]
    fn absorb_in_pieces_equals_byte_by_byte() {
        fn check<const RATE: usize, const DS: u8>() {
            let input: [u8; 700] = core::array::from_fn(|i| (i * 7 + i / 13) as u8);
            let mut reference = Sponge::<RATE, DS>::new();
            for &b in &input {
                reference.xor_byte(reference.pos, b);
                reference.pos += 1;
                if reference.pos == RATE {
                    f1600(&mut reference.state);
                    reference.pos = 0;
                }
            }
            for first in 0..17 {
                for step in [1usize, 3, 7, 8, 9, 16, 63, 136, 168, 200] {
                    let mut s = Sponge::<RATE, DS>::new();
                    let (head, mut rest) = input.split_at(first);
                    s.absorb(head);
                    while !rest.is_empty() {
                        let (piece, tail) = rest.split_at(step.min(rest.len()));
                        s.absorb(piece);
                        rest = tail;
                    }
                    assert_eq!((s.state, s.pos), (reference.state, reference.pos));
                }
            }
        }
        check::<136, 0x1F>();
        check::<168, 0x1F>();
    }

    /// Squeezing in pieces of every size and alignment (lane-wise and byte-wise paths, block
    /// boundaries crossed mid-lane) gives the same stream as reading the state byte by byte.
    #[test]
    fn squeeze_in_pieces_equals_byte_by_byte() {
        fn check<const RATE: usize, const DS: u8>() {
            let mut reference = Sponge::<RATE, DS>::new();
            reference.absorb(b"squeeze in pieces");
            reference.finalize();
            let mut expected = [0u8; 1200];
            for b in expected.iter_mut() {
                if reference.pos == RATE {
                    f1600(&mut reference.state);
                    reference.pos = 0;
                }
                *b = reference.byte(reference.pos);
                reference.pos += 1;
            }
            for first in 0..17 {
                for step in [1usize, 3, 7, 8, 9, 16, 63, 136, 168, 200] {
                    let mut s = Sponge::<RATE, DS>::new();
                    s.absorb(b"squeeze in pieces");
                    s.finalize();
                    let mut got = [0u8; 1200];
                    let (head, mut rest) = got.split_at_mut(first);
                    s.squeeze(head);
                    while !rest.is_empty() {
                        let n = step.min(rest.len());
                        let (piece, tail) = rest.split_at_mut(n);
                        s.squeeze(piece);
                        rest = tail;
                    }
                    assert_eq!(got, expected, "rate {RATE}, first {first}, step {step}");
                }
            }
        }
        check::<136, 0x1F>();
        check::<168, 0x1F>();
    }

    fn hex(b: &[u8]) -> String {
        b.iter().map(|x| format!("{x:02x}")).collect()
    }
}
