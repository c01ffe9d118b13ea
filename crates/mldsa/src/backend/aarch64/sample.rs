//! NEON sampling: ExpandA, ExpandS and ExpandMask on the two-way Keccak ([`Keccak2x`]).
//!
//! Each kernel runs the portable sampler's sponges two at a time ([`Shake128x2`],
//! [`Shake256x2`]): the same seeds, the same output streams, consumed in the same order, so the
//! results are identical to the portable functions for every input. Batches are taken in the
//! portable order (A-hat row by row, then s1 before s2, y by r). A last batch of one runs with
//! a dummy second lane on the SHA-3 build, which costs less than one state on the portable
//! permutation (counted under qemu: about 1,690 instructions against 3,690), and on the
//! portable sponge otherwise (two states in base NEON cost about 4,340).

use super::Neon;
use super::keccak::Keccak2x;
use super::keccak_shake2x::{Shake128x2, Shake256x2};
use super::products::RowSum;
use super::sample_bounded::rej_eta;
use super::sample_uniform::rej_uniform;
use crate::backend::PackKernels;
use crate::backend::lanes::next_batch;
use crate::hash::keccak::{SHAKE128_RATE as RATE128, SHAKE256_RATE as RATE256};
use crate::hash::sample::write_seed_66;
use crate::math::poly::{N, NttPoly, Poly};
use crate::params::Parameters;
use core::arch::aarch64::{uint64x2_t, vdupq_n_u64};
use zeroize::Zeroize;

/// Blocks squeezed up front by RejNTTPoly: 840 bytes, 280 candidates of which about 279.7 are
/// accepted (each is with probability q / 2^23); 256 are needed, so a sixth block is almost
/// never squeezed.
const NTT_FIRST_BLOCKS: usize = 5;

/// Slack after the squeezed bytes: the vector rejection's last steps load 16 bytes to use 12.
/// Eight rather than four keeps the second lane's stream (at offset 848) 8-byte aligned, so the
/// squeeze's word stores into it take immediate offsets (counted under qemu: about 215 fewer
/// instructions per five-block pair: 763 to 546).
const LOAD_SLACK: usize = 8;

/// Blocks squeezed up front by RejBoundedPoly: 272 bytes, 544 nibbles. About 510 are accepted
/// for eta = 2 (15 of 16 nibble values) and 306 for eta = 4 (9 of 16).
const ETA_FIRST_BLOCKS: usize = 2;

/// Blocks of SHAKE256 output per mask polynomial: 32 * Z_BITS bytes, 576 or 640, fit in five.
pub(super) const MASK_BLOCKS: usize = 5;
const _: () = assert!(MASK_BLOCKS * RATE256 >= 32 * 20);

/// `len` rounded up to whole 16-byte registers.
const fn whole_registers(len: usize) -> usize {
    (len + 15) & !15
}

/// Two lanes of squeezed secret bytes (ExpandS, ExpandMask), 16-byte aligned and a whole
/// number of registers long, wiped on drop with 16-byte volatile stores (a byte-by-byte
/// volatile wipe of 1.4 KiB would cost as much as half a permutation).
#[repr(C, align(16))]
struct SecretLanes<const L: usize>([[u8; L]; 2]);

impl<const L: usize> SecretLanes<L> {
    const WHOLE: () = assert!(L.is_multiple_of(16));

    fn new() -> Self {
        let () = Self::WHOLE;
        Self([[0; L]; 2])
    }
}

impl<const L: usize> Drop for SecretLanes<L> {
    fn drop(&mut self) {
        for lane in self.0.iter_mut() {
            for chunk in lane.chunks_exact_mut(16) {
                // SAFETY: `chunk` is 16 writable bytes, 16-byte aligned (the struct is, and L
                // is a multiple of 16, asserted in `new`), what a `uint64x2_t` store needs;
                // NEON is part of every AArch64 CPU.
                unsafe {
                    core::ptr::write_volatile(
                        chunk.as_mut_ptr().cast::<uint64x2_t>(),
                        vdupq_n_u64(0),
                    )
                };
            }
        }
        core::sync::atomic::compiler_fence(core::sync::atomic::Ordering::SeqCst);
    }
}

/// One lane's SHAKE128 output in a RejNTTPoly pair, with the vector loads' slack.
type NttStream = [u8; NTT_FIRST_BLOCKS * RATE128 + LOAD_SLACK];

/// FIPS 204 Algorithm 30, RejNTTPoly, two seeds at a time: `outs[i]` gets
/// RejNTTPoly(seeds[i]) where it is `Some`. Five blocks are squeezed for both lanes at once,
/// then one more at a time while a real lane lacks coefficients.
///
/// Constant time: public data only (A-hat is derived from rho).
fn rej_ntt_poly_x2(
    keccak: Keccak2x,
    seeds: &[[u8; 34]; 2],
    mut outs: [Option<&mut NttPoly>; 2],
    buf: &mut [NttStream; 2],
) {
    let mut g = Shake128x2::new(keccak, [&seeds[0], &seeds[1]]);
    // Dummy lanes count as done.
    let mut ctr = outs.each_ref().map(|out| if out.is_some() { 0 } else { N });
    let mut len = NTT_FIRST_BLOCKS * RATE128;
    while ctr.iter().any(|&c| c < N) {
        let [b0, b1] = buf;
        g.squeeze_blocks([&mut b0[..len], &mut b1[..len]]);
        for ((out, c), b) in outs.iter_mut().zip(ctr.iter_mut()).zip(buf.iter()) {
            if let Some(out) = out
                && *c < N
            {
                *c = rej_uniform(&mut out.0, *c, b, len);
            }
        }
        len = RATE128;
    }
}

/// ExpandA's seed of the entry tagged `tag` = 256 r + s: rho || IntegerToBytes(s, 1) ||
/// IntegerToBytes(r, 1) (FIPS 204 Alg. 32 step 5).
fn seed_a(seed: &mut [u8; 34], rho: &[u8; 32], tag: usize) {
    seed[..32].copy_from_slice(rho);
    seed[32] = tag as u8;
    seed[33] = (tag >> 8) as u8;
}

/// One batch of ExpandA: the next two of `entries` (tag 256 r + s, output), or one (with a
/// dummy lane on the SHA-3 build, else on the portable sponge); returns how many were made.
fn a_batch<'a>(
    keccak: Keccak2x,
    rho: &[u8; 32],
    entries: &mut impl Iterator<Item = (usize, &'a mut NttPoly)>,
    buf: &mut [NttStream; 2],
) -> usize {
    let mut seeds = [[0u8; 34]; 2];
    match next_batch(entries, &mut seeds, |seed, tag| seed_a(seed, rho, tag)) {
        (0, _) => 0,
        (1, [Some(out), _]) if !keccak.sha3() => {
            crate::hash::sample::rej_ntt_poly(&seeds[0], out);
            1
        }
        (n, outs) => {
            rej_ntt_poly_x2(keccak, &seeds, outs, buf);
            n
        }
    }
}

/// FIPS 204 Algorithm 32, ExpandA, two entries at a time on the two-way Keccak.
///
/// Contract: as [`crate::hash::sample::expand_a`], whose output it equals for every rho.
pub(crate) fn expand_a<P: Parameters>(keccak: Keccak2x, rho: &[u8; 32], a_hat: &mut P::MatrixA) {
    tick!(ExpandA, 1);
    // Entry (r, s) is tagged 256 r + s, so its two seed bytes are the tag's bytes.
    let mut entries = a_hat.as_mut().iter_mut().enumerate().flat_map(|(r, row)| {
        let entries = row.as_mut().iter_mut().enumerate();
        entries.map(move |(s, entry)| ((r << 8) | s, entry))
    });
    let mut buf = [[0u8; NTT_FIRST_BLOCKS * RATE128 + LOAD_SLACK]; 2];
    while a_batch(keccak, rho, &mut entries, &mut buf) > 0 {}
}

/// FIPS 204 Algorithms 32 and 48 (ExpandA, MatrixVectorNTT) fused, two entries at a time:
/// out = A-hat o v * 2^-32 with A-hat = ExpandA(rho), holding two entries.
///
/// Contract: as [`crate::backend::Backend::expand_a_times`]: |v| < 9q; out congruent mod q to
/// the portable result, |c| <= 6283009. Each entry's product is added to its row's 64-bit sums
/// as soon as the entry exists, and the row is reduced once after its last entry
/// ([`Neon::add_entry`]): out is exactly the portable MatrixVectorNTT of A-hat and v.
pub(crate) fn expand_a_times<P: Parameters>(
    b: Neon,
    keccak: Keccak2x,
    rho: &[u8; 32],
    v: &[NttPoly],
    out: &mut [NttPoly],
) {
    tick!(ExpandATimes, 1);
    debug_assert_eq!(v.len(), P::L);
    debug_assert_eq!(out.len(), P::K);
    let mut acc = RowSum::new();
    times_in_pairs::<P>(b, keccak, rho, &mut entry_tags::<P>(), v, &mut acc, out);
}

/// ExpandA's entries in row-major order, as `expand_a` makes them, as tags 256 r + s.
fn entry_tags<P: Parameters>() -> impl Iterator<Item = usize> {
    (0..P::K).flat_map(|r| (0..P::L).map(move |s| (r << 8) | s))
}

/// FIPS 204 Algorithms 32 and 48 fused as in [`expand_a_times`], and tr = H(pk, 64) (Alg. 3
/// step 5's tr, for verifying from the key's encoding) hashed alongside: while lane 0 absorbs
/// pk (SHAKE256, rate 136), lane 1 makes entries one after another (SHAKE128), so that H(pk)'s
/// permutations are ExpandA's instead of running on a state of their own. pk takes 10, 15 or 20
/// blocks for ML-DSA-44, -65, -87, as many permutations as two, three or four entries take
/// (five blocks each, almost always); the other entries then go two at a time.
///
/// Contract: as [`expand_a_times`] for `out`; `tr` exact. Public data only (pk, rho, A-hat):
/// the branches on how many candidates were accepted are on public values.
pub(crate) fn expand_a_times_and_tr<P: Parameters>(
    b: Neon,
    keccak: Keccak2x,
    rho: &[u8; 32],
    v: &[NttPoly],
    out: &mut [NttPoly],
    pk: &[u8],
    tr: &mut [u8; 64],
) {
    tick!(ExpandATimes, 1);
    debug_assert_eq!(v.len(), P::L);
    debug_assert_eq!(out.len(), P::K);
    let mut acc = RowSum::new();
    let mut tags = entry_tags::<P>();
    let mut lanes = Shake128x2::empty(keccak);
    // Lane 1's entry: its tag, the blocks squeezed for it so far, and its coefficients.
    let mut job: Option<(usize, usize)> = None;
    let (mut entry, mut ctr) = (NttPoly::ZERO, 0);
    let mut buf: NttStream = [0; NTT_FIRST_BLOCKS * RATE128 + LOAD_SLACK];
    let mut seed = [0u8; 34];
    // pk's blocks, the last one partial (possibly empty) and padded. Taken by subtraction:
    // `chunks` and a `%` by 136 stay divisions at opt-level z, which the constant-time scan
    // forbids in every mldsa function (scripts/ct-check.sh).
    let mut rest = pk;
    let mut absorbing = true;
    while absorbing || job.is_some() {
        let mut last_block = false;
        if absorbing {
            let block = match rest.split_first_chunk::<RATE256>() {
                Some((block, tail)) => {
                    rest = tail;
                    &block[..]
                }
                None => {
                    last_block = true;
                    rest
                }
            };
            lanes.xor_lane(0, 0, block);
            if last_block {
                lanes.pad_lane_at_rate(0, block.len(), RATE256);
            }
            if job.is_none()
                && let Some(tag) = tags.next()
            {
                seed_a(&mut seed, rho, tag);
                lanes.clear_lane(1);
                lanes.xor_lane(1, 0, &seed);
                lanes.pad_lane(1, seed.len());
                (job, ctr) = (Some((tag, 0)), 0);
            }
        }
        lanes.permute();
        if last_block {
            // The padded last block is in: tr is the first 64 bytes squeezed.
            lanes.read_lane(0, tr);
            absorbing = false;
        }
        let Some((tag, read)) = &mut job else {
            continue;
        };
        if *read < NTT_FIRST_BLOCKS {
            lanes.read_lane(1, &mut buf[*read * RATE128..(*read + 1) * RATE128]);
            *read += 1;
            if *read == NTT_FIRST_BLOCKS {
                ctr = rej_uniform(&mut entry.0, 0, &buf, NTT_FIRST_BLOCKS * RATE128);
            }
        } else {
            lanes.read_lane(1, &mut buf[..RATE128]);
            ctr = rej_uniform(&mut entry.0, ctr, &buf, RATE128);
        }
        if *read == NTT_FIRST_BLOCKS && ctr == N {
            b.add_entry::<P>(&entry, *tag, v, &mut acc, out);
            job = None;
        }
    }
    times_in_pairs::<P>(b, keccak, rho, &mut tags, v, &mut acc, out);
}

/// The entries `tags` names (the rest of the matrix, in row-major order), two at a time, each
/// added to its row's sums in `acc` and `out` as in [`expand_a_times`].
fn times_in_pairs<P: Parameters>(
    b: Neon,
    keccak: Keccak2x,
    rho: &[u8; 32],
    tags: &mut impl Iterator<Item = usize>,
    v: &[NttPoly],
    acc: &mut RowSum,
    out: &mut [NttPoly],
) {
    let mut tmp = [NttPoly::ZERO; 2];
    let mut buf = [[0u8; NTT_FIRST_BLOCKS * RATE128 + LOAD_SLACK]; 2];
    loop {
        let mut batch = [0usize; 2];
        let n = tags
            .by_ref()
            .take(2)
            .zip(batch.iter_mut())
            .map(|(tag, slot)| *slot = tag)
            .count();
        let mut entries = batch[..n].iter().copied().zip(tmp.iter_mut());
        if a_batch(keccak, rho, &mut entries, &mut buf) == 0 {
            break;
        }
        for (entry, &tag) in tmp.iter().zip(&batch[..n]) {
            b.add_entry::<P>(entry, tag, v, acc, out);
        }
    }
}

/// FIPS 204 Algorithm 31, RejBoundedPoly, two seeds at a time: `outs[i]` gets
/// RejBoundedPoly(seeds[i]) where it is `Some`. Two blocks are squeezed for both lanes at
/// once, then one more at a time while a real lane lacks coefficients (which depends only on
/// declassified accept decisions). The squeezed bytes are wiped.
fn rej_bounded_poly_x2<P: Parameters>(
    keccak: Keccak2x,
    seeds: &[[u8; 66]; 2],
    mut outs: [Option<&mut Poly>; 2],
) {
    let mut h = Shake256x2::new(keccak, [&seeds[0], &seeds[1]]);
    let mut buf = SecretLanes::<{ whole_registers(ETA_FIRST_BLOCKS * RATE256) }>::new();
    let mut ctr = outs.each_ref().map(|out| if out.is_some() { 0 } else { N });
    let mut len = ETA_FIRST_BLOCKS * RATE256;
    while ctr.iter().any(|&c| c < N) {
        let [b0, b1] = &mut buf.0;
        h.squeeze_blocks([&mut b0[..len], &mut b1[..len]]);
        for ((out, c), b) in outs.iter_mut().zip(ctr.iter_mut()).zip(buf.0.iter()) {
            if let Some(out) = out
                && *c < N
            {
                *c = rej_eta::<P>(&mut out.0, *c, &b[..len]);
            }
        }
        len = RATE256;
    }
    // `buf` is wiped when it drops.
}

/// FIPS 204 Algorithm 33, ExpandS, two polynomials at a time on the two-way Keccak.
///
/// Contract: as [`crate::hash::sample::expand_s`], whose output it equals for every rho'.
/// Constant time: as the portable function (only nibble accept decisions are declassified);
/// seeds and squeezed bytes are zeroised, the two-way state on drop.
pub(crate) fn expand_s<P: Parameters>(
    keccak: Keccak2x,
    rho_prime: &[u8; 64],
    s1: &mut P::VecL,
    s2: &mut P::VecK,
) {
    tick!(ExpandS, 1);
    let mut polys = s1
        .as_mut()
        .iter_mut()
        .chain(s2.as_mut().iter_mut())
        .enumerate();
    // rho' || IntegerToBytes(r, 2): r < l for s1, l <= r < l + k for s2 (Alg. 33 steps 2, 5).
    let fill = |seed: &mut [u8; 66], r: usize| write_seed_66(seed, rho_prime, r as u16);
    let mut seeds = [[0u8; 66]; 2];
    loop {
        match next_batch(&mut polys, &mut seeds, fill) {
            (0, _) => break,
            (1, [Some(out), _]) if !keccak.sha3() => {
                crate::hash::sample::rej_bounded_poly::<P>(&seeds[0], out)
            }
            (_, outs) => rej_bounded_poly_x2::<P>(keccak, &seeds, outs),
        }
    }
    seeds.zeroize();
}

/// FIPS 204 Algorithm 34, ExpandMask, for up to two polynomials: `outs[i]` gets
/// BitUnpack(H(seeds[i], 32 * Z_BITS), gamma1 - 1, gamma1) where it is `Some`.
fn expand_mask_x2<P: Parameters>(
    keccak: Keccak2x,
    seeds: &[[u8; 66]; 2],
    outs: [Option<&mut Poly>; 2],
) {
    let mut h = Shake256x2::new(keccak, [&seeds[0], &seeds[1]]);
    let mut buf = SecretLanes::<{ whole_registers(MASK_BLOCKS * RATE256) }>::new();
    let len = MASK_BLOCKS * RATE256;
    let [b0, b1] = &mut buf.0;
    h.squeeze_blocks([&mut b0[..len], &mut b1[..len]]);
    for (out, b) in outs.into_iter().zip(buf.0.iter()) {
        if let Some(out) = out {
            Neon.bit_unpack_z::<P>(&b[..32 * P::Z_BITS], out);
        }
    }
    // `buf` is wiped when it drops.
}

/// FIPS 204 Algorithm 34, ExpandMask, over a stream of polynomials, two at a time on the
/// two-way Keccak.
///
/// Contract: as [`crate::hash::sample::expand_mask_polys`], whose output it equals for every
/// rho'' and every `first` with `first` + the count - 1 < 2^16. Constant time: no branch or
/// index depends on rho'' or the stream; seeds and squeezed bytes are zeroised, the two-way
/// state on drop.
pub(crate) fn expand_mask_polys<'a, P: Parameters>(
    keccak: Keccak2x,
    rho_pp: &[u8; 64],
    first: u16,
    polys: impl Iterator<Item = &'a mut Poly>,
) {
    let mut polys = polys.enumerate();
    // rho'' || IntegerToBytes(first + r, 2) (FIPS 204 Alg. 34 step 3).
    let fill = |seed: &mut [u8; 66], r: usize| {
        write_seed_66(seed, rho_pp, first.wrapping_add(r as u16));
    };
    let mut seeds = [[0u8; 66]; 2];
    loop {
        match next_batch(&mut polys, &mut seeds, fill) {
            (0, _) => break,
            (1, [Some(out), _]) if !keccak.sha3() => {
                let kappa = u16::from_le_bytes([seeds[0][64], seeds[0][65]]);
                crate::hash::sample::expand_mask_polys::<P>(rho_pp, kappa, core::iter::once(out));
            }
            (_n, outs) => {
                tick!(ExpandMask, _n);
                expand_mask_x2::<P>(keccak, &seeds, outs)
            }
        }
    }
    seeds.zeroize();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::Backend;
    use crate::params::{Matrix, MlDsa44, MlDsa65, MlDsa87, PolyVec, Q};

    fn same<R: PolyVec<NttPoly>>(a: &impl Matrix<R>, b: &impl Matrix<R>) -> bool {
        a.as_ref()
            .iter()
            .zip(b.as_ref())
            .all(|(x, y)| x.as_ref() == y.as_ref())
    }

    /// Base NEON, and the SHA-3 build where the CPU has it (each with its own single-lane path).
    fn builds() -> Vec<Keccak2x> {
        let mut all = vec![Keccak2x::neon()];
        if super::super::keccak::has_sha3() {
            all.push(Keccak2x::detect());
        } else {
            eprintln!("SHA-3 samplers not tested: this CPU has no SHA-3 instructions");
        }
        all
    }

    fn samplers_equal_portable<P: Parameters>() {
        for keccak in builds() {
            for seed in 0u8..3 {
                let rho = [seed.wrapping_mul(29).wrapping_add(1); 32];
                let mut fast = P::MatrixA::zeroed();
                let mut slow = P::MatrixA::zeroed();
                expand_a::<P>(keccak, &rho, &mut fast);
                crate::hash::sample::expand_a::<P>(&rho, &mut slow);
                assert!(same(&fast, &slow), "ExpandA, {keccak:?}");

                // The fused product, against ExpandA then MatrixVectorNTT: the same integers.
                let mut v = P::NttVecL::zeroed();
                for (i, p) in v.as_mut().iter_mut().enumerate() {
                    for (j, c) in p.0.iter_mut().enumerate() {
                        *c = ((i * 7919 + j * 104_729) % (17 * Q as usize)) as i32 - 8 * Q;
                    }
                }
                let mut fused = P::NttVecK::zeroed();
                let mut plain = P::NttVecK::zeroed();
                expand_a_times::<P>(Neon, keccak, &rho, v.as_ref(), fused.as_mut());
                crate::math::ntt::matrix_vector_ntt(slow.as_ref(), v.as_ref(), plain.as_mut());
                for (f, p) in fused.as_ref().iter().zip(plain.as_ref()) {
                    assert!(f.0.iter().all(|a| a.abs() <= 6_283_009), "bound");
                    assert_eq!(f.0, p.0, "A-hat o v, {keccak:?}");
                }

                // With tr = H(pk) in lane 0: the same sums (exact, whatever the order), and
                // tr for keys of the set's length, of none, of whole blocks (an empty padded
                // block follows) and of lengths whose last block ends in mid-entry (lane 1
                // then finishes its entry alone).
                let pk: Vec<u8> = (0..3000).map(|i| (i * 131 + seed as usize) as u8).collect();
                for len in [P::PK_LEN, 0, 1, 135, 136, 137, 3 * 136, 700, 2999] {
                    let mut with_tr = P::NttVecK::zeroed();
                    let mut tr = [0u8; 64];
                    expand_a_times_and_tr::<P>(
                        Neon,
                        keccak,
                        &rho,
                        v.as_ref(),
                        with_tr.as_mut(),
                        &pk[..len],
                        &mut tr,
                    );
                    assert!(
                        with_tr.as_ref() == fused.as_ref(),
                        "{len}-byte pk, {keccak:?}"
                    );
                    let mut want = [0u8; 64];
                    crate::hash::keccak::shake256_with(
                        crate::hash::keccak::Permutation::PORTABLE,
                        &[&pk[..len]],
                        &mut want,
                    );
                    assert_eq!(tr, want, "tr of a {len}-byte pk, {keccak:?}");
                }

                let rho_prime = [seed.wrapping_mul(53).wrapping_add(3); 64];
                let (mut s1, mut s2) = (P::VecL::zeroed(), P::VecK::zeroed());
                let (mut t1, mut t2) = (P::VecL::zeroed(), P::VecK::zeroed());
                expand_s::<P>(keccak, &rho_prime, &mut s1, &mut s2);
                crate::hash::sample::expand_s::<P>(&rho_prime, &mut t1, &mut t2);
                assert!(s1.as_ref() == t1.as_ref(), "ExpandS s1, {keccak:?}");
                assert!(s2.as_ref() == t2.as_ref(), "ExpandS s2, {keccak:?}");

                // Odd and even counts, and a start at the top of the counter.
                for (first, count) in [(0u16, P::L), (5, 1), (7, 3), (u16::MAX - 1, 2)] {
                    let mut fast = [Poly::ZERO; 7];
                    let mut slow = [Poly::ZERO; 7];
                    expand_mask_polys::<P>(keccak, &rho_prime, first, fast[..count].iter_mut());
                    crate::hash::sample::expand_mask_polys::<P>(
                        &rho_prime,
                        first,
                        slow[..count].iter_mut(),
                    );
                    assert!(fast == slow, "ExpandMask from {first}, {count}, {keccak:?}");
                }
            }
        }
    }

    #[test]
    fn samplers_equal_portable_44() {
        samplers_equal_portable::<MlDsa44>();
    }

    #[test]
    fn samplers_equal_portable_65() {
        samplers_equal_portable::<MlDsa65>();
    }

    #[test]
    fn samplers_equal_portable_87() {
        samplers_equal_portable::<MlDsa87>();
    }

    /// The backend's overrides are the ones these tests check (a guard against a dispatch slip).
    #[test]
    fn backend_dispatches_to_these_samplers() {
        let rho = [9u8; 32];
        let mut fast = <MlDsa65 as Parameters>::MatrixA::zeroed();
        let mut slow = <MlDsa65 as Parameters>::MatrixA::zeroed();
        Neon.expand_a::<MlDsa65>(&rho, &mut fast);
        crate::hash::sample::expand_a::<MlDsa65>(&rho, &mut slow);
        assert!(same(&fast, &slow));
    }
}
