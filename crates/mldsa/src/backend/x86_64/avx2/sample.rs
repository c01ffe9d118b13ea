//! AVX2 sampling: ExpandA, ExpandS and ExpandMask on the 4-way Keccak.
//!
//! Each kernel runs the portable sampler's sponges four at a time ([`Shake128x4`],
//! [`Shake256x4`]): the same seeds, the same output streams, consumed in the same order, so the
//! results are identical to the portable functions for every input. Batches are taken in the
//! portable order (A-hat row by row, then s1 before s2, y by r); a last batch of two or three
//! runs with dummy lanes (their output is discarded), and a last batch of one runs the scalar
//! sampler, which is cheaper than a 4-way permutation doing a quarter of its work.
//!
//! The kernels take the [`Keccak4x`] their sponges run (AVX2 or AVX-512VL, chosen by the
//! backend from the CPU's features); the outputs are the same with either. ExpandA (alone or
//! fused with the matrix product) is driven from [`crate::backend::x86_64::sample`], which
//! takes its batches here, or eight at a time on the AVX-512 eight-way permutation where that
//! runs.

use super::keccak4x::{Shake128x4, Shake256x4};
use crate::backend::lanes::next_batch;
use crate::backend::x86_64::Keccak4x;
use crate::backend::x86_64::avx512::keccak8x::Keccak8x;
use crate::backend::x86_64::avx512::sample::{rej_eta_x16, rej_uniform_x16};
use crate::backend::x86_64::pk_lane::PkLane;
use crate::hash::sample::{coeff_from_three_bytes, rej_bounded_bytes, write_seed_66};
use crate::math::poly::{N, NttPoly, Poly};
use crate::params::{Parameters, Q, TR_LEN};
use crate::support::declassify::public;
use core::arch::x86_64::*;
use zeroize::Zeroize;

/// SHAKE128's rate in bytes (RejNTTPoly's block).
use crate::hash::keccak::SHAKE128_RATE as RATE128;
/// SHAKE256's rate in bytes (RejBoundedPoly's block and ExpandMask's stream).
use crate::hash::keccak::SHAKE256_RATE as RATE256;

/// Blocks squeezed up front by RejNTTPoly: 840 bytes, 280 candidates of which about 279.7 are
/// accepted (each is with probability q / 2^23); 256 are needed, so a sixth block is almost
/// never squeezed.
pub(in crate::backend::x86_64) const NTT_FIRST_BLOCKS: usize = 5;
/// Slack after the squeezed bytes: the vector rejection loads 32 bytes to use 24.
pub(in crate::backend::x86_64) const LOAD_SLACK: usize = 8;

/// Blocks squeezed up front by RejBoundedPoly: 272 bytes, 544 nibbles. About 510 are accepted
/// for eta = 2 (15 of 16 nibble values) and 306 for eta = 4 (9 of 16); one block (272 nibbles)
/// would fall short half of the time for eta = 2 and always for eta = 4.
const ETA_FIRST_BLOCKS: usize = 2;

/// Blocks of SHAKE256 output per mask polynomial: 32 * Z_BITS bytes, 576 or 640, fit in five.
pub(crate) const MASK_BLOCKS: usize = 5;

/// `len` rounded up to whole 32-byte registers.
pub(crate) const fn whole_registers(len: usize) -> usize {
    len.div_ceil(32) * 32
}

/// Four lanes of squeezed secret bytes (ExpandS, ExpandMask), 32-byte aligned and a whole
/// number of registers long, wiped on drop with 32-byte volatile stores: byte-by-byte volatile
/// zeroisation of some 3 KiB per signing attempt was a measurable part of signing.
#[repr(C, align(32))]
struct SecretLanes<const L: usize>([[u8; L]; 4]);

impl<const L: usize> SecretLanes<L> {
    const WHOLE: () = assert!(L.is_multiple_of(32));

    fn new() -> Self {
        let () = Self::WHOLE;
        Self([[0; L]; 4])
    }
}

impl<const L: usize> Drop for SecretLanes<L> {
    fn drop(&mut self) {
        // SAFETY: `SecretLanes` is only made inside AVX2 kernels, which run only after
        // `Avx2::detect` found AVX2.
        unsafe { wipe_lanes(self) }
    }
}

/// Zeroes `lanes` with 4 L / 32 aligned 32-byte volatile stores, then a compiler fence.
#[target_feature(enable = "avx2")]
fn wipe_lanes<const L: usize>(lanes: &mut SecretLanes<L>) {
    // SAFETY: the struct is 32-byte aligned and 4 L bytes long with L a multiple of 32
    // (asserted at compile time in `new`), all writable through `lanes`.
    unsafe { super::arith::zero_registers(lanes.0.as_mut_ptr().cast(), 4 * L / 32) }
}
const _: () = assert!(MASK_BLOCKS * RATE256 >= 32 * 20);

/// For each mask m of 8 bits: the positions of its set bits, in order, one per byte (the
/// unused high bytes are 0). `_mm256_permutevar8x32_epi32` with these moves the accepted
/// candidates of an 8-candidate group to the front.
const COMPRESS: [u64; 256] = {
    let mut table = [0u64; 256];
    let mut m = 0;
    while m < 256 {
        let (mut k, mut i) = (0, 0);
        while i < 8 {
            if (m >> i) & 1 == 1 {
                table[m] |= (i as u64) << (8 * k);
                k += 1;
            }
            i += 1;
        }
        m += 1;
    }
    table
};

/// RejNTTPoly's inner loop (FIPS 204 Algorithm 30, steps 4-12) over `buf[..len]`: appends
/// the accepted 23-bit candidates (CoeffFromThreeBytes) to `out` from position `ctr`, stopping
/// at N; returns the new count.
///
/// Eight candidates at a time: 24 bytes spread into eight 32-bit lanes, masked to 23 bits,
/// compared with q, and the accepted ones packed to the front with [`COMPRESS`] and stored
/// (the store may write up to 8 values past the new count, always below N; later ones overwrite
/// them). The last few candidates, or the last few coefficients, go one at a time.
///
/// Constant time: public data only (A-hat is derived from rho), so the branches and the table
/// index may depend on it.
#[target_feature(enable = "avx2")]
fn rej_uniform(out: &mut [i32; N], ctr: usize, buf: &[u8], len: usize) -> usize {
    rej_uniform_from(out, ctr, buf, 0, len)
}

/// [`rej_uniform`] from byte `pos` of `buf[..len]` on (a multiple of 3: where a wider loop
/// stopped, [`crate::backend::x86_64::avx512::sample::rej_uniform_x16`]).
#[target_feature(enable = "avx2")]
pub(in crate::backend::x86_64) fn rej_uniform_from(
    out: &mut [i32; N],
    mut ctr: usize,
    buf: &[u8],
    mut pos: usize,
    len: usize,
) -> usize {
    debug_assert!(len <= buf.len() && ctr <= N);
    let q = _mm256_set1_epi32(Q);
    let low23 = _mm256_set1_epi32(0x7F_FFFF);
    // After the 64-bit permutation below the low 128-bit half holds bytes 0..16 and the high
    // half bytes 8..24; candidate k is bytes 3k..3k + 3, zero-extended to 32 bits.
    let spread = _mm256_setr_epi8(
        0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1, //
        4, 5, 6, -1, 7, 8, 9, -1, 10, 11, 12, -1, 13, 14, 15, -1,
    );
    while ctr + 8 <= N && pos + 24 <= len && pos + 32 <= buf.len() {
        let bytes = &buf[pos..pos + 32];
        // SAFETY: `bytes` is 32 readable bytes; `loadu` has no alignment requirement.
        let raw = unsafe { _mm256_loadu_si256(bytes.as_ptr().cast()) };
        let raw = _mm256_permute4x64_epi64::<0b10_01_01_00>(raw);
        let z = _mm256_and_si256(_mm256_shuffle_epi8(raw, spread), low23);
        let accept = _mm256_cmpgt_epi32(q, z);
        let mask = _mm256_movemask_ps(_mm256_castsi256_ps(accept)) as usize & 0xFF;
        let order = _mm256_cvtepu8_epi32(_mm_cvtsi64_si128(COMPRESS[mask] as i64));
        let packed = _mm256_permutevar8x32_epi32(z, order);
        let dst = &mut out[ctr..ctr + 8];
        // SAFETY: `dst` is 8 writable i32s; `storeu` has no alignment requirement.
        unsafe { _mm256_storeu_si256(dst.as_mut_ptr().cast(), packed) };
        ctr += mask.count_ones() as usize;
        pos += 24;
    }
    while ctr < N && pos + 3 <= len {
        if let Some(c) = coeff_from_three_bytes(buf[pos], buf[pos + 1], buf[pos + 2]) {
            out[ctr] = c;
            ctr += 1;
        }
        pos += 3;
    }
    ctr
}

/// One lane's SHAKE128 output in a RejNTTPoly batch, with the vector loads' slack.
pub(in crate::backend::x86_64) type NttStream = [u8; NTT_FIRST_BLOCKS * RATE128 + LOAD_SLACK];

/// RejNTTPoly's loop (FIPS 204 Algorithm 30) for a batch of `W` lanes whose output streams
/// `squeeze` continues: `outs[i]` gets the polynomial of lane i where it is `Some`.
///
/// `first_blocks` (at most [`NTT_FIRST_BLOCKS`]) blocks are squeezed for every lane at once,
/// then one more at a time while some real lane still lacks coefficients.
///
/// `buf` is where the output streams are squeezed to: any contents (only bytes squeezed in this
/// call are read, and the slack bytes the vector loads reach past them only feed candidates
/// that are not used), so that a caller expanding many entries zeroes it once, not once per
/// batch (3.4 KiB of memset per batch was a measurable part of ExpandA; the data is public).
///
/// Where `wide` is given (AVX-512 is there), the rejection takes sixteen candidates a step
/// ([`crate::backend::x86_64::avx512::sample::rej_uniform_x16`]); the results are the same.
#[target_feature(enable = "avx2")]
pub(in crate::backend::x86_64) fn rej_ntt_lanes<const W: usize>(
    mut squeeze: impl FnMut([&mut [u8]; W]),
    mut outs: [Option<&mut NttPoly>; W],
    first_blocks: usize,
    buf: &mut [NttStream; W],
    wide: Option<Keccak8x>,
) {
    debug_assert!((1..=NTT_FIRST_BLOCKS).contains(&first_blocks));
    // Dummy lanes count as done.
    let mut ctr = outs.each_ref().map(|out| if out.is_some() { 0 } else { N });
    let mut len = first_blocks * RATE128;
    while ctr.iter().any(|&c| c < N) {
        squeeze(buf.each_mut().map(|b| &mut b[..len]));
        for ((out, c), b) in outs.iter_mut().zip(ctr.iter_mut()).zip(buf.iter()) {
            if let Some(out) = out
                && *c < N
            {
                *c = match wide {
                    // SAFETY: a `Keccak8x` exists only where AVX-512 F, VL and BW were
                    // detected, the features `rej_uniform_x16` is compiled for beyond AVX2.
                    Some(_) => unsafe { rej_uniform_x16(&mut out.0, *c, b, len) },
                    None => rej_uniform(&mut out.0, *c, b, len),
                };
            }
        }
        len = RATE128;
    }
}

/// FIPS 204, Algorithm 30 (RejNTTPoly), four seeds at a time on AVX2: `outs[i]` gets
/// RejNTTPoly(seeds[i]) where it is `Some` (see [`rej_ntt_lanes`]).
#[target_feature(enable = "avx2")]
fn rej_ntt_poly_x4(
    keccak: Keccak4x,
    seeds: &[[u8; 34]; 4],
    outs: [Option<&mut NttPoly>; 4],
    first_blocks: usize,
    buf: &mut [NttStream; 4],
) {
    let mut g = Shake128x4::new(keccak);
    g.absorb_once([&seeds[0], &seeds[1], &seeds[2], &seeds[3]]);
    rej_ntt_lanes(
        |out| g.squeeze_blocks(out),
        outs,
        first_blocks,
        buf,
        Keccak8x::of(keccak),
    );
}

/// One batch of ExpandA: the next four of `entries` (tag 256 r + s, output), or fewer with
/// dummy lanes, on the four-way permutation (one entry alone on the scalar sponge); returns how
/// many were made.
#[target_feature(enable = "avx2")]
pub(in crate::backend::x86_64) fn a_batch_x4<'a>(
    keccak: Keccak4x,
    rho: &[u8; 32],
    entries: &mut impl Iterator<Item = (usize, &'a mut NttPoly)>,
    seeds: &mut [[u8; 34]; 8],
    buf: &mut [NttStream; 8],
) -> usize {
    let seeds = seeds.first_chunk_mut::<4>().expect("8 >= 4");
    let buf = buf.first_chunk_mut::<4>().expect("8 >= 4");
    match next_batch(entries, seeds, |seed, tag| seed_a(seed, rho, tag)) {
        (0, _) => 0,
        (1, [Some(out), ..]) => {
            crate::hash::sample::rej_ntt_poly(&seeds[0], out);
            1
        }
        (n, outs) => {
            rej_ntt_poly_x4(keccak, seeds, outs, NTT_FIRST_BLOCKS, buf);
            n
        }
    }
}

/// ExpandA's seed of the entry tagged `tag` = 256 r + s: rho || IntegerToBytes(s, 1) ||
/// IntegerToBytes(r, 1) (FIPS 204 Alg. 32 step 5).
pub(in crate::backend::x86_64) fn seed_a(seed: &mut [u8; 34], rho: &[u8; 32], tag: usize) {
    seed[..32].copy_from_slice(rho);
    seed[32] = tag as u8;
    seed[33] = (tag >> 8) as u8;
}

/// Word j (of the 25) of the SHAKE128 state that has absorbed ExpandA's seed `seed` with its
/// padding (0x1F after the 34 bytes, 0x80 in the last byte of the 168-byte rate, FIPS 202
/// section 6.2) and is not yet permuted: what [`Shake128x4::absorb_once`] makes of it.
pub(in crate::backend::x86_64) fn seed_state_word(seed: &[u8; 34], j: usize) -> u64 {
    const { assert!(RATE128 == 168) };
    match j {
        0..4 => u64::from_le_bytes(seed[8 * j..8 * j + 8].try_into().expect("8 bytes")),
        4 => u64::from(seed[32]) | u64::from(seed[33]) << 8 | 0x1F << 16,
        20 => 0x80 << 56,
        _ => 0,
    }
}

/// FIPS 204 Algorithms 32 and 30 (ExpandA, RejNTTPoly) with H(pk, 64) of Algorithm 8 step 6
/// in lane 0, four-way: rounds of three entries of `tags` on lanes 1-3 while lane 0 absorbs
/// pk's next block before each permutation (see [`crate::backend::x86_64::pk_lane`]), until
/// pk or the tags run out; each entry goes to `accumulate(tag, entry)` once made. Returns how
/// many entries were made; lane 0's state is left in `pk` (for [`PkLane::finish_alone`], if
/// the tags ran out first).
///
/// Contract: the entries equal the portable RejNTTPoly's; tr = SHAKE256(pk, 64) once
/// `pk.done()`. Lanes mid-entry when tr is written finish that entry.
///
/// Never inlined: its buffers (a round's entries and streams, about 7 KiB) must not share a
/// frame with the batches that follow it (ST-1: merged, they put verification over its
/// recorded stack in the native build).
#[inline(never)]
#[target_feature(enable = "avx2")]
pub(in crate::backend::x86_64) fn a_rounds_with_pk_x4(
    keccak: Keccak4x,
    rho: &[u8; 32],
    pk: &mut PkLane,
    tr: &mut [u8; TR_LEN],
    tags: &mut impl Iterator<Item = usize>,
    mut accumulate: impl FnMut(usize, &NttPoly),
) -> usize {
    let mut g = Shake128x4::new(keccak);
    let mut seeds = [[0u8; 34]; 3];
    let mut buf = [[0u8; NTT_FIRST_BLOCKS * RATE128 + LOAD_SLACK]; 4];
    let mut polys = [NttPoly::ZERO; 3];
    let mut made = 0;
    while !pk.done() {
        let mut batch = [0usize; 3];
        let n = tags
            .by_ref()
            .take(3)
            .zip(batch.iter_mut())
            .map(|(tag, slot)| *slot = tag)
            .count();
        if n == 0 {
            break;
        }
        let mut entries = batch[..n].iter().copied().zip(polys.iter_mut());
        let (_, [a, b, c]) =
            next_batch(&mut entries, &mut seeds, |seed, tag| seed_a(seed, rho, tag));
        g.restart_lanes123(|j| seeds.each_ref().map(|seed| seed_state_word(seed, j)));
        let squeeze = |mut out: [&mut [u8]; 4]| {
            pk.squeeze(out[0].len(), tr, |block, tr, offset| {
                if let Some(block) = block {
                    g.xor_block_lane0(block);
                }
                g.permute();
                if let Some(tr) = tr {
                    g.read_lane0(tr);
                }
                g.read_block(offset, &mut out);
            });
        };
        rej_ntt_lanes(
            squeeze,
            [None, a, b, c],
            NTT_FIRST_BLOCKS,
            &mut buf,
            Keccak8x::of(keccak),
        );
        made += n;
        for (entry, &tag) in polys.iter().zip(&batch[..n]) {
            accumulate(tag, entry);
        }
    }
    pk.state = g.lane0();
    made
}

/// RejBoundedPoly's inner loop (FIPS 204 Algorithm 31, steps 4-17) over `buf`: appends the
/// accepted nibbles' values (CoeffFromHalfByte), low nibble first, to `out` from position
/// `ctr`, stopping at N exactly where the portable loop stops; returns the new count.
///
/// Eight nibbles (four bytes) at a time while eight more values surely fit: the nibbles are
/// spread into eight 32-bit lanes, compared with the limit (15 for eta = 2, 9 for eta = 4),
/// mapped to eta - (b mod (2 eta + 1)) with a multiply and shifts, and the accepted ones packed
/// to the front with [`COMPRESS`]. The rest goes a nibble at a time through
/// [`coeff_from_half_byte`], as the portable loop does.
///
/// Constant time: the nibbles and values are secret; the only thing that steers a branch, an
/// index or the count is the accept mask of each group, which FIPS 204 lets become public (which
/// samples were rejected) and which is declassified as such.
#[target_feature(enable = "avx2")]
pub(in crate::backend::x86_64) fn rej_eta<P: Parameters>(
    out: &mut [i32; N],
    mut ctr: usize,
    buf: &[u8],
) -> usize {
    debug_assert!(ctr <= N);
    let (limit, eta) = match P::ETA {
        2 => (15, 2),
        _ => (9, 4),
    };
    let shifts = _mm256_setr_epi32(0, 4, 8, 12, 16, 20, 24, 28);
    let low4 = _mm256_set1_epi32(0xF);
    let limit_v = _mm256_set1_epi32(limit);
    let eta_v = _mm256_set1_epi32(eta);
    let mut pos = 0;
    while ctr + 8 <= N && pos + 4 <= buf.len() {
        let x = u32::from_le_bytes([buf[pos], buf[pos + 1], buf[pos + 2], buf[pos + 3]]);
        // Lane i holds nibble i: byte 0's low nibble, then its high nibble, and so on.
        let b = _mm256_and_si256(_mm256_srlv_epi32(_mm256_set1_epi32(x as i32), shifts), low4);
        let accept = _mm256_cmpgt_epi32(limit_v, b);
        let mask = _mm256_movemask_ps(_mm256_castsi256_ps(accept)) as usize & 0xFF;
        // Constant time: which nibbles ExpandS rejects may become public (FIPS 204; the same
        // decision `coeff_from_half_byte` declassifies one nibble at a time).
        let mask = public(mask);
        // b mod 5 = b - 5 floor(b * 205 / 1024) for b < 15 (eta = 2); b itself for eta = 4,
        // whose accepted nibbles are below 9 = 2 eta + 1.
        let reduced = if eta == 2 {
            let q5 = _mm256_srli_epi32::<10>(_mm256_mullo_epi32(b, _mm256_set1_epi32(205)));
            _mm256_sub_epi32(b, _mm256_mullo_epi32(q5, _mm256_set1_epi32(5)))
        } else {
            b
        };
        let values = _mm256_sub_epi32(eta_v, reduced);
        let order = _mm256_cvtepu8_epi32(_mm_cvtsi64_si128(COMPRESS[mask] as i64));
        let packed = _mm256_permutevar8x32_epi32(values, order);
        let dst = &mut out[ctr..ctr + 8];
        // SAFETY: `dst` is 8 writable i32s; `storeu` has no alignment requirement.
        unsafe { _mm256_storeu_si256(dst.as_mut_ptr().cast(), packed) };
        ctr += mask.count_ones() as usize;
        pos += 4;
    }
    rej_bounded_bytes::<P>(out, ctr, &buf[pos..])
}

/// FIPS 204, Algorithm 31 (RejBoundedPoly), four seeds at a time on AVX2: `outs[i]` gets
/// RejBoundedPoly(seeds[i]) where it is `Some`.
///
/// `first_blocks` (at most [`ETA_FIRST_BLOCKS`]) blocks are squeezed for every lane at once,
/// then one more at a time while some real lane still lacks coefficients (which depends only on
/// declassified accept decisions). The squeezed bytes are zeroised.
#[target_feature(enable = "avx2")]
fn rej_bounded_poly_x4<P: Parameters>(
    keccak: Keccak4x,
    seeds: &[[u8; 66]; 4],
    mut outs: [Option<&mut Poly>; 4],
    first_blocks: usize,
) {
    debug_assert!((1..=ETA_FIRST_BLOCKS).contains(&first_blocks));
    let mut h = Shake256x4::new(keccak);
    h.absorb_once([&seeds[0], &seeds[1], &seeds[2], &seeds[3]]);
    let mut buf = SecretLanes::<{ whole_registers(ETA_FIRST_BLOCKS * RATE256) }>::new();
    let mut ctr = outs.each_ref().map(|out| if out.is_some() { 0 } else { N });
    let mut len = first_blocks * RATE256;
    let wide = Keccak8x::of(keccak);
    while ctr.iter().any(|&c| c < N) {
        let [b0, b1, b2, b3] = &mut buf.0;
        h.squeeze_blocks([
            &mut b0[..len],
            &mut b1[..len],
            &mut b2[..len],
            &mut b3[..len],
        ]);
        for ((out, c), b) in outs.iter_mut().zip(ctr.iter_mut()).zip(buf.0.iter()) {
            if let Some(out) = out
                && *c < N
            {
                *c = match wide {
                    // SAFETY: a `Keccak8x` exists only where AVX-512 F, VL and BW were
                    // detected, the features `rej_eta_x16` is compiled for beyond AVX2.
                    Some(_) => unsafe { rej_eta_x16::<P>(&mut out.0, *c, &b[..len]) },
                    None => rej_eta::<P>(&mut out.0, *c, &b[..len]),
                };
            }
        }
        len = RATE256;
    }
    // `buf` is wiped when it drops.
}

/// FIPS 204, Algorithm 33 (ExpandS), four polynomials at a time on AVX2.
///
/// Contract: as [`crate::hash::sample::expand_s`], whose output it equals for every rho'.
/// Constant time: as the portable function (only nibble accept decisions are declassified);
/// seeds and squeezed bytes are zeroised, the x4 state on drop.
#[target_feature(enable = "avx2")]
pub(crate) fn expand_s<P: Parameters>(
    keccak: Keccak4x,
    rho_prime: &[u8; 64],
    s1: &mut P::VecL,
    s2: &mut P::VecK,
) {
    tick!(ExpandS, 1);
    let polys = s1.as_mut().iter_mut().chain(s2.as_mut().iter_mut());
    expand_s_polys::<P>(keccak, rho_prime, polys.enumerate());
}

/// [`expand_s`]'s polynomials, those `polys` gives with their numbers r (seed rho' ||
/// IntegerToBytes(r, 2): r < l for s1, l <= r < l + k for s2, FIPS 204 Algorithm 33 steps 2
/// and 5), four at a time on AVX2 (key generation makes s1 alone with it where s2 is made
/// beside ExpandA).
#[target_feature(enable = "avx2")]
pub(crate) fn expand_s_polys<'a, P: Parameters>(
    keccak: Keccak4x,
    rho_prime: &[u8; 64],
    mut polys: impl Iterator<Item = (usize, &'a mut Poly)>,
) {
    let fill = |seed: &mut [u8; 66], r: usize| write_seed_66(seed, rho_prime, r as u16);
    let mut seeds = [[0u8; 66]; 4];
    loop {
        match next_batch(&mut polys, &mut seeds, fill) {
            (0, _) => break,
            (1, [Some(out), ..]) => crate::hash::sample::rej_bounded_poly::<P>(&seeds[0], out),
            (_, outs) => rej_bounded_poly_x4::<P>(keccak, &seeds, outs, ETA_FIRST_BLOCKS),
        }
    }
    seeds.zeroize();
}

/// FIPS 204, Algorithm 34 (ExpandMask) for up to four polynomials on AVX2: `outs[i]` gets
/// BitUnpack(H(seeds[i], 32 * Z_BITS), gamma1 - 1, gamma1) where it is `Some`.
#[target_feature(enable = "avx2")]
fn expand_mask_x4<P: Parameters>(
    keccak: Keccak4x,
    seeds: &[[u8; 66]; 4],
    outs: [Option<&mut Poly>; 4],
) {
    let mut h = Shake256x4::new(keccak);
    h.absorb_once([&seeds[0], &seeds[1], &seeds[2], &seeds[3]]);
    let mut buf = SecretLanes::<{ whole_registers(MASK_BLOCKS * RATE256) }>::new();
    let [b0, b1, b2, b3] = &mut buf.0;
    let len = MASK_BLOCKS * RATE256;
    h.squeeze_blocks([
        &mut b0[..len],
        &mut b1[..len],
        &mut b2[..len],
        &mut b3[..len],
    ]);
    for (out, b) in outs.into_iter().zip(buf.0.iter()) {
        if let Some(out) = out {
            super::arith::bit_unpack_z::<P>(&b[..32 * P::Z_BITS], out);
        }
    }
    // `buf` is wiped when it drops.
}

/// ExpandMask(rho'', kappa): the l polynomials of [`expand_mask_polys`] from kappa (for the
/// tests).
#[cfg(test)]
#[target_feature(enable = "avx2")]
pub(crate) fn expand_mask<P: Parameters>(
    keccak: Keccak4x,
    rho_pp: &[u8; 64],
    kappa: u16,
    y: &mut P::VecL,
) {
    expand_mask_polys::<P>(keccak, rho_pp, kappa, y.as_mut().iter_mut())
}

/// FIPS 204 Algorithm 34 (ExpandMask) over a stream of polynomials, four at a time on AVX2.
///
/// Contract: as [`crate::hash::sample::expand_mask_polys`], whose output it equals for every rho''
/// and every `first` with `first` + the count - 1 < 2^16. Constant time: no branch or index
/// depends on rho'' or the stream; seeds and squeezed bytes are zeroised, the x4 state on drop.
#[target_feature(enable = "avx2")]
pub(crate) fn expand_mask_polys<'a, P: Parameters>(
    keccak: Keccak4x,
    rho_pp: &[u8; 64],
    first: u16,
    polys: impl Iterator<Item = &'a mut Poly>,
) {
    let mut polys = polys.enumerate();
    // rho'' || IntegerToBytes(first + r, 2) (FIPS 204 Alg. 34 step 3).
    let fill = |seed: &mut [u8; 66], r: usize| {
        write_seed_66(seed, rho_pp, first.wrapping_add(r as u16));
    };
    let mut seeds = [[0u8; 66]; 4];
    loop {
        let batch = next_batch(&mut polys, &mut seeds, fill);
        tick!(ExpandMask, batch.0);
        match batch {
            (0, _) => break,
            (1, [Some(out), ..]) => {
                // One polynomial: the scalar sponge does a quarter of the x4 work.
                let mut v = [0u8; 32 * 20];
                crate::hash::keccak::shake256(&[&seeds[0]], &mut v[..32 * P::Z_BITS]);
                super::arith::bit_unpack_z::<P>(&v[..32 * P::Z_BITS], out);
                v.zeroize();
            }
            (_, outs) => expand_mask_x4::<P>(keccak, &seeds, outs),
        }
    }
    seeds.zeroize();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::x86_64::sample::{expand_a, expand_a_times};
    use crate::params::{
        Dilithium2, Dilithium2Aes, Dilithium3, Dilithium5, Dilithium5Aes, Matrix, MlDsa44, MlDsa65,
        MlDsa87, PolyVec,
    };

    /// Whether the kernels can run here; prints why a test does nothing when they cannot.
    fn have_avx2() -> bool {
        let yes = std::is_x86_feature_detected!("avx2");
        if !yes {
            eprintln!("skipped: this CPU has no AVX2");
        }
        yes
    }

    /// Reproducible pseudo-random test bytes: SHAKE256(label || counter).
    fn test_bytes<const LEN: usize>(label: &str, counter: u64) -> [u8; LEN] {
        let mut out = [0u8; LEN];
        crate::hash::keccak::shake256(&[label.as_bytes(), &counter.to_le_bytes()], &mut out);
        out
    }

    /// Trials per sampler and parameter set: fewer under Miri (M-1), which is here for the
    /// kernels' memory accesses, and would take hours over the full count.
    const TRIALS: u64 = if cfg!(miri) { 1 } else { 12 };

    fn expand_a_agrees<P: Parameters>(keccak: Keccak4x) {
        for trial in 0..TRIALS {
            let rho: [u8; 32] = test_bytes(P::NAME, trial);
            let mut expect = P::MatrixA::zeroed();
            crate::hash::sample::expand_a::<P>(&rho, &mut expect);
            let mut got = P::MatrixA::zeroed();
            // SAFETY: the caller checked for AVX2.
            unsafe { expand_a::<P>(keccak, &rho, &mut got) };
            for (r, (g, e)) in got.as_ref().iter().zip(expect.as_ref()).enumerate() {
                assert!(
                    g.as_ref() == e.as_ref(),
                    "{}: row {r}, trial {trial}, {keccak:?}",
                    P::NAME
                );
            }
        }
    }

    /// v for trial `trial` of the fused products: every coefficient 9q - 1 (trial 0), or
    /// -(9q - 1) (trial 1), else random in (-9q, 9q): the extremes of their contract.
    fn test_v<P: Parameters>(trial: u64) -> P::NttVecL {
        let mut v = P::NttVecL::zeroed();
        for (j, p) in v.as_mut().iter_mut().enumerate() {
            let bytes: [u8; 1024] = test_bytes("v", trial * 16 + j as u64);
            for (c, b) in p.0.iter_mut().zip(bytes.chunks_exact(4)) {
                let x = i32::from_le_bytes([b[0], b[1], b[2], b[3]]);
                *c = match trial {
                    0 => 9 * Q - 1,
                    1 => -(9 * Q - 1),
                    _ => x % (9 * Q),
                };
            }
        }
        v
    }

    /// `got` is congruent to `expect` mod q and within the fused products' bound.
    fn assert_product_agrees(got: &[NttPoly], expect: &[NttPoly], what: &str) {
        for (g, e) in got.iter().zip(expect) {
            for (x, y) in g.0.iter().zip(e.0.iter()) {
                assert!(x.abs() <= 6_283_009, "{what}: bound");
                assert_eq!((x - y).rem_euclid(Q), 0, "{what}");
            }
        }
    }

    /// The fused ExpandA-times-vector equals the portable one (mod q, within the bound), with v
    /// random in (-9q, 9q) and at its extremes.
    fn expand_a_times_agrees<P: Parameters>(keccak: Keccak4x) {
        use crate::backend::{Backend, Portable};
        // Trials 0 and 1 are the extremes; under Miri one random trial after them.
        for trial in 0..if cfg!(miri) { 3 } else { 6u64 } {
            let rho: [u8; 32] = test_bytes(P::NAME, 100 + trial);
            let v = test_v::<P>(trial);
            let mut expect = P::NttVecK::zeroed();
            Portable.expand_a_times::<P>(&rho, v.as_ref(), expect.as_mut());
            let mut got = P::NttVecK::zeroed();
            // SAFETY: the caller checked for AVX2.
            unsafe { expand_a_times::<P>(keccak, &rho, v.as_ref(), got.as_mut()) };
            let what = format!("{}: trial {trial}", P::NAME);
            assert_product_agrees(got.as_ref(), expect.as_ref(), &what);
        }
    }

    /// The x86-64 backend's `expand_a_times_and_tr` (H(pk) in lane 0 of ExpandA's four-way
    /// sponges on AVX2, beside its eight-way permutations on AVX-512, for the SHAKE sets; apart
    /// for the AES ones), on `cpu`'s permutations, equals the portable product (mod q, within the bound) and
    /// SHAKE256(pk, 64): pk of the set's length, and of others (none, around one and two
    /// blocks, longer than the rounds can absorb, so tr is finished apart).
    fn expand_a_times_and_tr_agrees<P: Parameters>(cpu: crate::backend::x86_64::Avx2) {
        use crate::backend::{Backend, Portable};
        let others = [0, 1, 135, 136, 137, 271, 272, 1000, P::PK_LEN + 136, 6000];
        let trials = if cfg!(miri) { 3 } else { 8 + others.len() };
        for trial in 0..trials as u64 {
            let rho: [u8; 32] = test_bytes(P::NAME, 500 + trial);
            let len = trial
                .checked_sub(8)
                .map_or(P::PK_LEN, |t| others[t as usize]);
            let mut pk = vec![0u8; len];
            crate::hash::keccak::shake256(&[b"pk", &trial.to_le_bytes()], &mut pk);
            let v = test_v::<P>(trial);
            let mut expect = P::NttVecK::zeroed();
            Portable.expand_a_times::<P>(&rho, v.as_ref(), expect.as_mut());
            let mut expect_tr = [0u8; TR_LEN];
            crate::hash::keccak::shake256(&[&pk], &mut expect_tr);
            let mut got = P::NttVecK::zeroed();
            let mut tr = [0u8; TR_LEN];
            cpu.expand_a_times_and_tr::<P>(&rho, v.as_ref(), got.as_mut(), &pk, &mut tr);
            let what = format!("{}: trial {trial}, pk of {len} bytes, {cpu:?}", P::NAME);
            assert_eq!(tr, expect_tr, "{what}: tr");
            assert_product_agrees(got.as_ref(), expect.as_ref(), &what);
        }
    }

    /// The x86-64 backend on this CPU: AVX2, and with AVX-512 where it has it (none without
    /// AVX2); says what it skips.
    fn x86_cpus() -> Vec<crate::backend::x86_64::Avx2> {
        use crate::backend::x86_64::Avx2;
        let Some(avx2) = Avx2::detect() else {
            eprintln!("skipped: this CPU has no AVX2");
            return Vec::new();
        };
        let mut cpus = vec![avx2];
        match avx2.with_avx512() {
            Some(wide) => cpus.push(wide),
            None => eprintln!("the eight-way permutation not tested: this CPU has no AVX-512"),
        }
        cpus
    }

    #[test]
    fn expand_a_times_and_tr_equals_the_portable_product_and_h_of_pk() {
        for cpu in x86_cpus() {
            expand_a_times_and_tr_agrees::<MlDsa44>(cpu);
            expand_a_times_and_tr_agrees::<MlDsa65>(cpu);
            expand_a_times_and_tr_agrees::<MlDsa87>(cpu);
            expand_a_times_and_tr_agrees::<Dilithium2>(cpu);
            expand_a_times_and_tr_agrees::<Dilithium2Aes>(cpu);
            expand_a_times_and_tr_agrees::<Dilithium5Aes>(cpu);
        }
    }

    /// One backend's `expand_a_rows_and_tr` on given rows, pk, tr, s2 and `finish`.
    type RowsAndTr<'a> = dyn Fn(
            &mut [NttPoly],
            &mut [u8],
            &mut [u8; TR_LEN],
            crate::backend::KeygenS2,
            &mut crate::backend::FinishRow,
        ) + 'a;

    /// The x86-64 backend's `expand_a_rows_and_tr` (H(pk) beside ExpandA's eight-way
    /// permutations as pk grows, and for ML-DSA-44 and Dilithium2 s2 beside them if asked, on
    /// AVX-512; the default order on AVX2 and for the AES sets) equals the portable default,
    /// with s2 made already and with s2 to be made from rho': the same rows (mod q, within the
    /// bound), handed to `finish` in order with s2_i = ExpandS's in row i's slot, the same pk
    /// and tr, and what `finish` writes in the slot kept there. `finish` writes each row's part
    /// of pk from the row.
    fn expand_a_rows_and_tr_agrees<P: Parameters>(cpu: crate::backend::x86_64::Avx2) {
        use crate::backend::{Backend, KeygenS2, Portable};
        for trial in 0..if cfg!(miri) { 1 } else { 4 } {
            let rho: [u8; 32] = test_bytes(P::NAME, 900 + trial);
            let rho_prime: [u8; 64] = test_bytes(P::NAME, 950 + trial);
            let v = test_v::<P>(trial);
            let (mut s1, mut s2) = (P::VecL::zeroed(), P::VecK::zeroed());
            crate::hash::sample::expand_s::<P>(&rho_prime, &mut s1, &mut s2);
            // s2 made already (k), or to be made from polynomial 0 or 1 on.
            for made in [P::K, 0, 1] {
                let run = |b: &RowsAndTr| {
                    let mut rows = P::NttVecK::zeroed();
                    let mut pk = vec![0u8; P::PK_LEN];
                    pk[..32].copy_from_slice(&rho);
                    let mut tr = [0u8; TR_LEN];
                    let mut slots = P::VecK::zeroed();
                    slots.as_mut()[..made].copy_from_slice(&s2.as_ref()[..made]);
                    let mut next = 0;
                    let mut finish =
                        |i: usize, row: &NttPoly, s2_i: &mut Poly, bytes: &mut [u8]| {
                            assert_eq!(i, next, "rows in order");
                            next += 1;
                            assert!(
                                s2_i.0 == s2.as_ref()[i].0,
                                "{}: s2_{i}, made {made}",
                                P::NAME
                            );
                            s2_i.0 = core::array::from_fn(|k| (i * 1000 + k) as i32);
                            for (k, b) in bytes.iter_mut().enumerate() {
                                *b =
                                    (crate::math::field::freeze(row.0[k & 0xFF]) >> (k >> 8)) as u8;
                            }
                        };
                    let mut sponge = [0x5a5a_u64; 25];
                    let s2 = KeygenS2 {
                        slots: slots.as_mut(),
                        make_from: (made < P::K).then_some((&rho_prime, made)),
                        sponge: &mut sponge,
                    };
                    b(rows.as_mut(), &mut pk, &mut tr, s2, &mut finish);
                    assert_eq!(next, P::K, "every row finished");
                    if made < P::K && sponge != [0x5a5a; 25] {
                        assert_eq!(sponge, [0; 25], "the sponge state is wiped");
                    }
                    for (i, slot) in slots.as_ref().iter().enumerate() {
                        assert_eq!(slot.0[9], (i * 1000 + 9) as i32, "finish's t0_{i} kept");
                    }
                    (rows, pk, tr)
                };
                let (expect, expect_pk, expect_tr) = run(&|rows, pk, tr, s2, finish| {
                    Portable.expand_a_rows_and_tr::<P>(&rho, v.as_ref(), rows, pk, tr, s2, finish)
                });
                let (got, pk, tr) = run(&|rows, pk, tr, s2, finish| {
                    cpu.expand_a_rows_and_tr::<P>(&rho, v.as_ref(), rows, pk, tr, s2, finish)
                });
                let what = format!("{}: trial {trial}, {cpu:?}, s2 made {made}", P::NAME);
                assert_product_agrees(got.as_ref(), expect.as_ref(), &what);
                assert_eq!(pk, expect_pk, "{what}: pk");
                assert_eq!(tr, expect_tr, "{what}: tr");
            }
        }
    }

    #[test]
    fn expand_a_rows_and_tr_equals_the_portable_default() {
        for cpu in x86_cpus() {
            expand_a_rows_and_tr_agrees::<MlDsa44>(cpu);
            expand_a_rows_and_tr_agrees::<MlDsa65>(cpu);
            expand_a_rows_and_tr_agrees::<MlDsa87>(cpu);
            expand_a_rows_and_tr_agrees::<Dilithium2>(cpu);
            expand_a_rows_and_tr_agrees::<Dilithium5Aes>(cpu);
        }
    }

    fn expand_s_agrees<P: Parameters>(keccak: Keccak4x) {
        for trial in 0..TRIALS {
            let rho_prime: [u8; 64] = test_bytes(P::NAME, 100 + trial);
            let (mut s1, mut s2) = (P::VecL::zeroed(), P::VecK::zeroed());
            crate::hash::sample::expand_s::<P>(&rho_prime, &mut s1, &mut s2);
            let (mut g1, mut g2) = (P::VecL::zeroed(), P::VecK::zeroed());
            // SAFETY: the caller checked for AVX2.
            unsafe { expand_s::<P>(keccak, &rho_prime, &mut g1, &mut g2) };
            assert!(g1.as_ref() == s1.as_ref(), "{}: s1, trial {trial}", P::NAME);
            assert!(g2.as_ref() == s2.as_ref(), "{}: s2, trial {trial}", P::NAME);
        }
    }

    fn expand_mask_agrees<P: Parameters>(keccak: Keccak4x) {
        // kappa from 0 to the largest the contract allows (kappa + l - 1 = 2^16 - 1).
        let top = (u16::MAX as usize + 1 - P::L) as u16;
        let mut kappas = vec![0, 1, P::L as u16, top - 1, top];
        kappas.extend(
            (0..TRIALS.min(8)).map(|t| u16::from_le_bytes(test_bytes(P::NAME, 200 + t)) % top),
        );
        for (trial, kappa) in kappas.into_iter().enumerate() {
            let rho_pp: [u8; 64] = test_bytes(P::NAME, 300 + trial as u64);
            let mut expect = P::VecL::zeroed();
            crate::hash::sample::expand_mask_polys::<P>(&rho_pp, kappa, expect.as_mut().iter_mut());
            let mut got = P::VecL::zeroed();
            // SAFETY: the caller checked for AVX2.
            unsafe { expand_mask::<P>(keccak, &rho_pp, kappa, &mut got) };
            assert!(
                got.as_ref() == expect.as_ref(),
                "{}: kappa {kappa}",
                P::NAME
            );
        }
    }

    /// Every sampler with every permutation this CPU runs (AVX2, and AVX-512VL where present),
    /// against the portable one.
    fn all_agree<P: Parameters>() {
        for (_, keccak) in Keccak4x::all_here() {
            expand_a_times_agrees::<P>(keccak);
            expand_a_agrees::<P>(keccak);
            expand_s_agrees::<P>(keccak);
            expand_mask_agrees::<P>(keccak);
        }
    }

    #[test]
    fn kernels_equal_the_portable_samplers_for_every_parameter_set() {
        if !have_avx2() {
            return;
        }
        all_agree::<MlDsa44>();
        all_agree::<MlDsa65>();
        all_agree::<MlDsa87>();
        all_agree::<Dilithium2>();
        all_agree::<Dilithium3>();
        all_agree::<Dilithium5>();
    }

    /// The samplers give the same outputs on the AVX2 permutation as on `fast`.
    fn permutations_agree<P: Parameters>(fast: Keccak4x) {
        let avx2 = Keccak4x::avx2();
        for trial in 0..TRIALS {
            let seed: [u8; 64] = test_bytes(P::NAME, 400 + trial);
            let rho: &[u8; 32] = seed[..32].try_into().expect("32 bytes");
            let kappa = u16::from_le_bytes([seed[0], seed[1]]) % (u16::MAX - P::L as u16);
            let (mut a2, mut a5) = (P::MatrixA::zeroed(), P::MatrixA::zeroed());
            let (mut s2, mut s5) = (
                (P::VecL::zeroed(), P::VecK::zeroed()),
                (P::VecL::zeroed(), P::VecK::zeroed()),
            );
            let (mut y2, mut y5) = (P::VecL::zeroed(), P::VecL::zeroed());
            // Small values, well within the |v| < 9q that expand_a_times allows.
            let bytes: [u8; N] = test_bytes("v", 400 + trial);
            let mut v = P::NttVecL::zeroed();
            for p in v.as_mut() {
                p.0 = bytes.map(|b| i32::from(b) - 128);
            }
            let (mut w2, mut w5) = (P::NttVecK::zeroed(), P::NttVecK::zeroed());
            // SAFETY: the caller checked for AVX2, and `fast` runs only where its features are.
            unsafe {
                expand_a::<P>(avx2, rho, &mut a2);
                expand_a::<P>(fast, rho, &mut a5);
                expand_s::<P>(avx2, &seed, &mut s2.0, &mut s2.1);
                expand_s::<P>(fast, &seed, &mut s5.0, &mut s5.1);
                expand_mask::<P>(avx2, &seed, kappa, &mut y2);
                expand_mask::<P>(fast, &seed, kappa, &mut y5);
                expand_a_times::<P>(avx2, rho, v.as_ref(), w2.as_mut());
                expand_a_times::<P>(fast, rho, v.as_ref(), w5.as_mut());
            }
            let what = format!("{}, trial {trial}", P::NAME);
            for (r2, r5) in a2.as_ref().iter().zip(a5.as_ref()) {
                assert!(r2.as_ref() == r5.as_ref(), "ExpandA, {what}");
            }
            assert!(s2.0.as_ref() == s5.0.as_ref(), "ExpandS s1, {what}");
            assert!(s2.1.as_ref() == s5.1.as_ref(), "ExpandS s2, {what}");
            assert!(y2.as_ref() == y5.as_ref(), "ExpandMask, {what}");
            assert!(w2.as_ref() == w5.as_ref(), "ExpandA times v, {what}");
        }
    }

    /// What `force_avx2` does to the samplers (the AVX2 permutation instead of the AVX-512VL
    /// one) changes none of their outputs. The two permutations are passed in directly: the
    /// switch is process-wide, and other tests run alongside.
    #[test]
    fn samplers_give_the_same_outputs_on_both_permutations() {
        if !have_avx2() {
            return;
        }
        let Some(&(_, fast)) = Keccak4x::all_here().get(1) else {
            eprintln!("skipped: this CPU has no AVX-512 F and VL");
            return;
        };
        permutations_agree::<MlDsa44>(fast);
        permutations_agree::<MlDsa65>(fast);
        permutations_agree::<MlDsa87>(fast);
    }

    /// Which lanes of a batch are real, including patterns `next_batch` never makes.
    const LANE_PATTERNS: [[bool; 4]; 5] = [
        [true; 4],
        [true, true, false, false],
        [true, true, true, false],
        [true, false, true, false],
        [false, false, false, true],
    ];

    #[test]
    fn rej_ntt_poly_x4_equals_rej_ntt_poly_with_few_blocks_up_front() {
        if !have_avx2() {
            return;
        }
        // With fewer than 5 blocks up front every lane takes the block-at-a-time path.
        for (name, keccak) in Keccak4x::all_here() {
            for first_blocks in 1..=NTT_FIRST_BLOCKS {
                for (t, pattern) in LANE_PATTERNS.iter().enumerate() {
                    let seeds: [[u8; 34]; 4] = core::array::from_fn(|i| {
                        test_bytes("ntt", (10 * first_blocks + t + i) as u64)
                    });
                    let mut got = [NttPoly::ZERO; 4];
                    let mut outs = got.each_mut().map(Some);
                    for (o, &real) in outs.iter_mut().zip(pattern) {
                        if !real {
                            *o = None;
                        }
                    }
                    // Leftovers of an earlier stream in the buffer must not matter.
                    let mut buf = [[0xA5u8; NTT_FIRST_BLOCKS * RATE128 + LOAD_SLACK]; 4];
                    // SAFETY: AVX2 was detected above.
                    unsafe { rej_ntt_poly_x4(keccak, &seeds, outs, first_blocks, &mut buf) };
                    for i in 0..4 {
                        let mut expect = NttPoly::ZERO;
                        if pattern[i] {
                            crate::hash::sample::rej_ntt_poly(&seeds[i], &mut expect);
                        }
                        assert!(
                            got[i] == expect,
                            "{name}, {first_blocks} blocks, {pattern:?}, lane {i}"
                        );
                    }
                }
            }
        }
    }

    fn rej_bounded_poly_x4_agrees<P: Parameters>(keccak: Keccak4x) {
        for first_blocks in 1..=ETA_FIRST_BLOCKS {
            for (t, pattern) in LANE_PATTERNS.iter().enumerate() {
                let seeds: [[u8; 66]; 4] = core::array::from_fn(|i| {
                    test_bytes(P::NAME, (10 * first_blocks + t + i) as u64)
                });
                let mut got = [Poly::ZERO; 4];
                let mut outs = got.each_mut().map(Some);
                for (o, &real) in outs.iter_mut().zip(pattern) {
                    if !real {
                        *o = None;
                    }
                }
                // SAFETY: the caller checked for AVX2.
                unsafe { rej_bounded_poly_x4::<P>(keccak, &seeds, outs, first_blocks) };
                for i in 0..4 {
                    let mut expect = Poly::ZERO;
                    if pattern[i] {
                        crate::hash::sample::rej_bounded_poly::<P>(&seeds[i], &mut expect);
                    }
                    assert!(
                        got[i] == expect,
                        "eta {}, {pattern:?}, lane {i}, {keccak:?}",
                        P::ETA
                    );
                }
            }
        }
    }

    #[test]
    fn rej_bounded_poly_x4_equals_rej_bounded_poly_for_both_etas() {
        if !have_avx2() {
            return;
        }
        // One block up front is too few for eta = 4 always and for eta = 2 often.
        for (_, keccak) in Keccak4x::all_here() {
            rej_bounded_poly_x4_agrees::<MlDsa44>(keccak);
            rej_bounded_poly_x4_agrees::<MlDsa65>(keccak);
        }
    }

    /// RejNTTPoly's loop one candidate at a time (the portable code's).
    fn rej_uniform_scalar(out: &mut [i32; N], mut ctr: usize, buf: &[u8]) -> usize {
        for b in buf.chunks_exact(3) {
            if ctr == N {
                break;
            }
            if let Some(c) = coeff_from_three_bytes(b[0], b[1], b[2]) {
                out[ctr] = c;
                ctr += 1;
            }
        }
        ctr
    }

    #[test]
    fn vector_rejection_equals_one_candidate_at_a_time() {
        if !have_avx2() {
            return;
        }
        let q = Q as u32;
        // Candidates around q (q - 1 accepted; q, 2^23 - 1 rejected; the top bit ignored), in
        // runs that make every mask pattern and every count of accepted lanes likely.
        let near_q = [
            q - 2,
            q - 1,
            q,
            q + 1,
            0x7F_FFFF,
            0xFF_FFFF,
            0x80_0000,
            0,
            q | 0x80_0000,
        ];
        let mut buf = [0u8; NTT_FIRST_BLOCKS * RATE128 + LOAD_SLACK];
        for trial in 0..if cfg!(miri) { 6 } else { 300u64 } {
            let picks: [u8; NTT_FIRST_BLOCKS * RATE128 / 3] = test_bytes("rej", trial);
            for (k, &p) in picks.iter().enumerate() {
                let v = match trial % 3 {
                    0 => near_q[p as usize % near_q.len()],
                    // Mostly rejected: every candidate is >= q unless the low bit of p is 0.
                    1 if p & 1 == 1 => q + p as u32,
                    _ => u32::from_le_bytes(test_bytes("rejv", trial << 16 | k as u64)),
                };
                buf[3 * k..3 * k + 3].copy_from_slice(&v.to_le_bytes()[..3]);
            }
            let start = [0, 1, 100, 239, 240, 241, 247, 248, 249, 255, N][trial as usize % 11];
            let len = [NTT_FIRST_BLOCKS * RATE128, RATE128, 48, 51, 24, 27, 3, 0];
            let len = len[trial as usize % 8];
            let mut expect = [-1i32; N];
            let want = rej_uniform_scalar(&mut expect, start, &buf[..len]);
            // The AVX2 loop, and the AVX-512 one (sixteen a step) where the CPU has it.
            let wide = Keccak4x::all_here()
                .into_iter()
                .find_map(|(_, keccak)| Keccak8x::of(keccak));
            for sixteen in [false, true] {
                let mut got = [-1i32; N];
                let n = match (sixteen, wide) {
                    // SAFETY: AVX2 was detected above.
                    (false, _) => unsafe { rej_uniform(&mut got, start, &buf, len) },
                    // SAFETY: a `Keccak8x` exists only where AVX-512 F, VL and BW were detected.
                    (true, Some(_)) => unsafe { rej_uniform_x16(&mut got, start, &buf, len) },
                    (true, None) => continue,
                };
                assert_eq!(n, want, "trial {trial}, sixteen {sixteen}");
                // Past the count the vector code may leave rejected candidates; below it, not.
                assert_eq!(
                    got[start.min(n)..n],
                    expect[start.min(n)..n],
                    "trial {trial}, sixteen {sixteen}"
                );
                assert!(got[..start].iter().all(|&c| c == -1));
            }
        }
    }

    /// The eta loops (eight nibbles a step on AVX2, sixteen on AVX-512) against the portable
    /// nibble at a time, from every kind of start and length, on bytes whose nibbles are
    /// mostly rejected, mostly accepted, or at the limits.
    fn vector_eta_rejection_agrees<P: Parameters>() {
        let wide = Keccak4x::all_here()
            .into_iter()
            .find_map(|(_, keccak)| Keccak8x::of(keccak));
        for trial in 0..if cfg!(miri) { 6 } else { 300u64 } {
            let raw: [u8; ETA_FIRST_BLOCKS * RATE256] = test_bytes(P::NAME, trial);
            let buf = raw.map(|b| match trial % 3 {
                // Nibbles 8, 9, 14 and 15 only: at and around both limits.
                0 => [0x89, 0xEF, 0x8F, 0xE9][(b & 3) as usize],
                // Mostly 15 (rejected for both etas).
                1 => b | 0xEE,
                _ => b,
            });
            let start = [0, 1, 100, 239, 240, 241, 247, 248, 249, 255, N][trial as usize % 11];
            let len = [ETA_FIRST_BLOCKS * RATE256, RATE256, 64, 9, 8, 7, 1, 0];
            let buf = &buf[..len[trial as usize % 8]];
            let mut expect = [-9i32; N];
            let want = rej_bounded_bytes::<P>(&mut expect, start, buf);
            for sixteen in [false, true] {
                let mut got = [-9i32; N];
                let n = match (sixteen, wide) {
                    // SAFETY: AVX2 was detected by the caller.
                    (false, _) => unsafe { rej_eta::<P>(&mut got, start, buf) },
                    // SAFETY: a `Keccak8x` exists only where AVX-512 F, VL and BW were detected.
                    (true, Some(_)) => unsafe { rej_eta_x16::<P>(&mut got, start, buf) },
                    (true, None) => continue,
                };
                let at = format!("eta {}, trial {trial}, sixteen {sixteen}", P::ETA);
                assert_eq!(n, want, "{at}");
                // Past the count the vector code may leave rejected values; below it, not.
                assert_eq!(got[start.min(n)..n], expect[start.min(n)..n], "{at}");
                assert!(got[..start].iter().all(|&c| c == -9), "{at}");
            }
        }
    }

    #[test]
    fn vector_eta_rejection_equals_one_nibble_at_a_time() {
        if !have_avx2() {
            return;
        }
        vector_eta_rejection_agrees::<MlDsa44>();
        vector_eta_rejection_agrees::<MlDsa65>();
    }
}
