//! The x86-64 samplers that choose, batch by batch, between the AVX2 kernels and their
//! AVX-512 variants: ExpandA (alone and fused with the matrix product) takes eight entries at a
//! time on the eight-way permutation ([`Keccak8x`]) where it runs and more than four are left,
//! else four ([`avx2::sample`]); and signing's first masks are made eight at once where the
//! eight-way permutation runs ([`next_mask`]).

use super::Keccak4x;
use super::avx2;
use super::avx2::mask_lanes::MaskLanes;
use super::avx2::ntt::RowSums;
use super::avx2::sample::{LOAD_SLACK, NTT_FIRST_BLOCKS, NttStream};
use super::avx512;
use super::avx512::keccak8x::Keccak8x;
use super::pk_lane::PkLane;
use crate::backend::mask_stream::MaskStream;
use crate::encoding::encode::T1_ROW_BYTES;
use crate::hash::keccak::SHAKE128_RATE as RATE128;
use crate::math::poly::{NttPoly, Poly};
use crate::params::{Parameters, TR_LEN};
use zeroize::Zeroize;

/// Whether ExpandA's next batch, with `left` entries left, is eight-way: where the eight-way
/// permutation runs and more than four are left (a last batch of five to seven with dummy
/// lanes); else four-way.
fn eight_way(wide: Option<Keccak8x>, left: usize) -> Option<Keccak8x> {
    wide.filter(|_| left > 4)
}

/// One batch of ExpandA, eight-way on `wide` where [`eight_way`] gave it, else four-way;
/// returns how many entries were made. H(pk) takes a block beside each eight-way permutation
/// if `pk` is given (four-way batches leave it waiting).
#[target_feature(enable = "avx2")]
fn a_batch<'a>(
    keccak: Keccak4x,
    wide: Option<Keccak8x>,
    rho: &[u8; 32],
    entries: &mut impl Iterator<Item = (usize, &'a mut NttPoly)>,
    seeds: &mut [[u8; 34]; 8],
    buf: &mut [NttStream; 8],
    pk: Option<(&mut PkLane, &mut [u8; TR_LEN])>,
) -> usize {
    match wide {
        // SAFETY: a `Keccak8x` exists only where AVX-512 F (with VL and BW) was detected, the
        // features (F, BW) `a_batch_x8` is compiled for beyond this function's AVX2.
        Some(wide) => unsafe { avx512::sample::a_batch_x8(wide, rho, entries, seeds, buf, pk) },
        None => avx2::sample::a_batch_x4(keccak, rho, entries, seeds, buf),
    }
}

/// FIPS 204, Algorithm 32 (ExpandA), eight entries at a time on AVX-512 or four on AVX2
/// ([`eight_way`]).
///
/// Contract: as [`crate::hash::sample::expand_a`], whose output it equals for every rho.
#[target_feature(enable = "avx2")]
pub(crate) fn expand_a<P: Parameters>(keccak: Keccak4x, rho: &[u8; 32], a_hat: &mut P::MatrixA) {
    tick!(ExpandA, 1);
    // Row by row, as the portable loop; entry (r, s) is tagged 256 r + s, so its two seed bytes
    // are the tag's bytes (no division to recover r and s from a running count: at opt-level
    // z LLVM turns even a subtraction loop back into a `div`).
    let mut entries = a_hat.as_mut().iter_mut().enumerate().flat_map(|(r, row)| {
        let entries = row.as_mut().iter_mut().enumerate();
        entries.map(move |(s, entry)| ((r << 8) | s, entry))
    });
    let mut seeds = [[0u8; 34]; 8];
    let mut buf = [[0u8; NTT_FIRST_BLOCKS * RATE128 + LOAD_SLACK]; 8];
    let (wide, mut left) = (Keccak8x::of(keccak), P::K * P::L);
    while left > 0 {
        let wide = eight_way(wide, left);
        left -= a_batch(keccak, wide, rho, &mut entries, &mut seeds, &mut buf, None);
    }
}

/// FIPS 204, Algorithms 32 and 48 (ExpandA, MatrixVectorNTT) fused, eight or four entries at
/// a time on AVX2 (batches as in [`expand_a`]): out = A-hat o v * 2^-32 with A-hat =
/// ExpandA(rho), holding at most eight entries.
///
/// Contract: as [`crate::backend::Backend::expand_a_times`]: |v| < 9q; out congruent mod q to
/// the portable result, |c| <= 6283009. Entries are made in the order of [`expand_a`] and each
/// is multiplied into its row's 64-bit sums as soon as it exists ([`add_term`]), which are
/// Montgomery-reduced once, with the row's last term.
#[target_feature(enable = "avx2")]
pub(crate) fn expand_a_times<P: Parameters>(
    keccak: Keccak4x,
    rho: &[u8; 32],
    v: &[NttPoly],
    out: &mut [NttPoly],
) {
    tick!(ExpandATimes, 1);
    debug_assert_eq!(v.len(), P::L);
    debug_assert_eq!(out.len(), P::K);
    let mut tags = row_major_tags::<P>();
    let mut sums = RowSums::ZERO;
    let mut take = |tag: usize, entry: &NttPoly, _: Option<&mut PkLane>| {
        add_term(&mut sums, out, tag, entry, v)
    };
    times_batches(keccak, rho, &mut tags, P::K * P::L, None, &mut take);
    // Secret where v is (NTT(s1) in key generation, NTT(y) in signing).
    sums.zeroize();
    for w in out.iter_mut() {
        w.reduce();
    }
}

/// FIPS 204, Algorithms 32 and 48 (ExpandA, MatrixVectorNTT) fused as in [`expand_a_times`],
/// with tr = H(pk, 64) (Algorithm 8 step 6) made alongside ([`super::pk_lane`]): beside the
/// eight-way permutations where they run, else in lane 0 of four-way rounds of three entries,
/// the entries left when tr is ready going in [`expand_a_times`]'s batches.
///
/// Contract: as [`crate::backend::Backend::expand_a_times_and_tr`]: `out` as
/// [`expand_a_times`]'s (each entry multiplied into its row's accumulator as soon as it
/// exists, the same terms), tr = SHAKE256(pk, 64) for any pk.
#[target_feature(enable = "avx2")]
pub(crate) fn expand_a_times_and_tr<P: Parameters>(
    keccak: Keccak4x,
    rho: &[u8; 32],
    v: &[NttPoly],
    out: &mut [NttPoly],
    pk: &[u8],
    tr: &mut [u8; TR_LEN],
) {
    tick!(ExpandATimes, 1);
    debug_assert_eq!(v.len(), P::L);
    debug_assert_eq!(out.len(), P::K);
    let mut tags = row_major_tags::<P>();
    let mut pk_lane = PkLane::new(pk);
    let mut sums = RowSums::ZERO;
    let made = match Keccak8x::of(keccak) {
        Some(_) => 0,
        None => avx2::sample::a_rounds_with_pk_x4(
            keccak,
            rho,
            &mut pk_lane,
            tr,
            &mut tags,
            |tag, entry| add_term(&mut sums, out, tag, entry, v),
        ),
    };
    let mut take = |tag: usize, entry: &NttPoly, _: Option<&mut PkLane>| {
        add_term(&mut sums, out, tag, entry, v)
    };
    let left = P::K * P::L - made;
    times_batches(
        keccak,
        rho,
        &mut tags,
        left,
        Some((&mut pk_lane, tr)),
        &mut take,
    );
    // The entries ran out before pk (a longer pk than the set's): the rest on its own.
    pk_lane.finish_alone(avx2::keccak_bmi::permutation(), tr);
    // Public in verification (v = NTT(z)), wiped all the same.
    sums.zeroize();
    for w in out.iter_mut() {
        w.reduce();
    }
}

/// FIPS 204 Algorithm 6 steps 3, 5 and 8-9 (key generation's ExpandA, A-hat o NTT(s1), pk and
/// tr = H(pk, 64)) as [`crate::backend::Backend::expand_a_rows_and_tr`], whose contract this
/// has, for where the eight-way permutation runs (the caller's choice; on four-way batches
/// H(pk) would be made after them, correct but slower than the default order): ExpandA's
/// batches with H(pk) beside them ([`super::pk_lane`]), each row handed to `finish` (which
/// writes its part of pk) as soon as its last entry is made, so that H(pk) absorbs pk as it
/// grows; then what it has not absorbed (the last rows' blocks, 6 of 10, 15 or 20) on the
/// scalar sponge alone.
#[target_feature(enable = "avx2")]
pub(crate) fn expand_a_rows_and_tr<P: Parameters>(
    keccak: Keccak4x,
    rho: &[u8; 32],
    v: &[NttPoly],
    rows: &mut [NttPoly],
    pk: &mut [u8],
    tr: &mut [u8; TR_LEN],
    finish: &mut dyn FnMut(usize, &NttPoly, &mut [u8]),
) {
    debug_assert_eq!(v.len(), P::L);
    debug_assert_eq!(rows.len(), P::K);
    tick!(ExpandATimes, 1);
    let mut pk_lane = PkLane::growing(pk, 32);
    // The row being filled and how many of its entries are in.
    let (mut row, mut filled) = (0, 0);
    let mut sums = RowSums::ZERO;
    let mut take = |tag: usize, entry: &NttPoly, pk: Option<&mut PkLane>| {
        add_term(&mut sums, rows, tag, entry, v);
        filled += 1;
        if filled == P::L {
            rows[row].reduce();
            if let Some(pk) = pk {
                let (i, row_i) = (row, &rows[row]);
                pk.append(T1_ROW_BYTES, |bytes| finish(i, row_i, bytes));
            }
            (row, filled) = (row + 1, 0);
        }
    };
    let mut tags = row_major_tags::<P>();
    times_batches(
        keccak,
        rho,
        &mut tags,
        P::K * P::L,
        Some((&mut pk_lane, tr)),
        &mut take,
    );
    // Sums of NTT(s1)'s products: secret.
    sums.zeroize();
    pk_lane.finish_alone(avx2::keccak_bmi::permutation(), tr);
}

/// Entry `tag` = 256 r + s of A-hat times v_s, summed into `sums`, which row r of `out` gets,
/// reduced, with its last term (s = l - 1). Entries come in row-major order, so one row's sums
/// are open at a time and `out` need not be zeroed first.
#[target_feature(enable = "avx2")]
#[inline]
fn add_term(sums: &mut RowSums, out: &mut [NttPoly], tag: usize, entry: &NttPoly, v: &[NttPoly]) {
    let (r, s) = (tag >> 8, tag & 0xFF);
    sums.add_product(entry, &v[s], s == 0);
    if s + 1 == v.len() {
        sums.reduce_into(&mut out[r]);
    }
}

/// The tags 256 r + s of A-hat's entries in row-major order, as [`expand_a`] makes them (no
/// division anywhere).
fn row_major_tags<P: Parameters>() -> impl Iterator<Item = usize> {
    (0..P::K).flat_map(|r| (0..P::L).map(move |s| (r << 8) | s))
}

/// The `left` entries of `tags` in ExpandA's batches ([`eight_way`]), each handed to
/// `take(tag, entry, pk)` as soon as its batch is made, with H(pk) beside the eight-way
/// permutations if `pk` is given (see [`a_batch`]). Never inlined: its buffers (about 15 KiB)
/// must not share a frame with another path's, as they would in key generation's two (ST-1).
#[inline(never)]
#[target_feature(enable = "avx2")]
fn times_batches(
    keccak: Keccak4x,
    rho: &[u8; 32],
    tags: &mut impl Iterator<Item = usize>,
    mut left: usize,
    mut pk: Option<(&mut PkLane, &mut [u8; TR_LEN])>,
    take: &mut impl FnMut(usize, &NttPoly, Option<&mut PkLane>),
) {
    let mut tmp = [NttPoly::ZERO; 8];
    let mut seeds = [[0u8; 34]; 8];
    let mut buf = [[0u8; NTT_FIRST_BLOCKS * RATE128 + LOAD_SLACK]; 8];
    let wide = Keccak8x::of(keccak);
    while left > 0 {
        let wide = eight_way(wide, left);
        let mut batch = [0usize; 8];
        let n = tags
            .by_ref()
            .take(if wide.is_some() { 8 } else { 4 })
            .zip(batch.iter_mut())
            .map(|(tag, slot)| *slot = tag)
            .count();
        let mut entries = batch[..n].iter().copied().zip(tmp.iter_mut());
        let beside = pk.as_mut().map(|(pk, tr)| (&mut **pk, &mut **tr));
        left -= a_batch(
            keccak,
            wide,
            rho,
            &mut entries,
            &mut seeds,
            &mut buf,
            beside,
        );
        for (entry, &tag) in tmp.iter().zip(&batch[..n]) {
            take(tag, entry, pk.as_mut().map(|(pk, _)| &mut **pk));
        }
    }
}

/// y for the next attempt (FIPS 204 Alg. 7 step 11): [`avx2::mask_lanes::next_mask`], whose
/// contract this has, after filling the lanes' ring with eight polynomials on the eight-way
/// permutation where it runs, on the first attempt of a set with more than four (ML-DSA-65,
/// -87; see [`MaskLanes::fill_eight`]).
#[target_feature(enable = "avx2")]
pub(crate) fn next_mask<P: Parameters>(
    keccak: Keccak4x,
    stream: &mut MaskStream,
    rho_pp: &[u8; 64],
    y: &mut [Poly],
) {
    if let Some(wide) = Keccak8x::of(keccak)
        && !stream.started
        && P::L > 4
    {
        let (lanes, _) = MaskLanes::ready(keccak, &mut stream.started, &mut stream.lanes);
        // SAFETY: a `Keccak8x` exists only where AVX-512 F (with VL and BW) was detected, the
        // features `fill_eight` is compiled for beyond this function's AVX2.
        unsafe { lanes.fill_eight(wide, rho_pp, stream.next) };
    }
    avx2::mask_lanes::next_mask::<P>(keccak, stream, rho_pp, y)
}
