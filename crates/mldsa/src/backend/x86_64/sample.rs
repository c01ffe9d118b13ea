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
use super::avx512::sample::{Beside, NinthEntry, S2Beside};
use super::pk_lane::PkLane;
use crate::backend::mask_stream::MaskStream;
use crate::backend::{FinishRow, KeygenS2};
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

/// The seeds and output streams of a batch's lanes.
struct BatchBufs {
    seeds: [[u8; 34]; 8],
    buf: [NttStream; 8],
}

impl BatchBufs {
    fn new() -> Self {
        Self {
            seeds: [[0u8; 34]; 8],
            buf: [[0u8; NTT_FIRST_BLOCKS * RATE128 + LOAD_SLACK]; 8],
        }
    }
}

/// One batch of ExpandA, eight-way on `wide` where [`eight_way`] gave it, else four-way;
/// returns how many entries were made in its lanes. `beside` runs beside the eight-way
/// permutations (four-way batches leave it waiting).
#[target_feature(enable = "avx2")]
fn a_batch<'a>(
    keccak: Keccak4x,
    wide: Option<Keccak8x>,
    rho: &[u8; 32],
    entries: &mut impl Iterator<Item = (usize, &'a mut NttPoly)>,
    bufs: &mut BatchBufs,
    beside: Beside,
) -> usize {
    let BatchBufs { seeds, buf } = bufs;
    match wide {
        // SAFETY: a `Keccak8x` exists only where AVX-512 F (with VL and BW) was detected, the
        // features (F, BW) `a_batch_x8` is compiled for beyond this function's AVX2.
        Some(wide) => unsafe { avx512::sample::a_batch_x8(wide, rho, entries, seeds, buf, beside) },
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
    let mut bufs = BatchBufs::new();
    let (wide, mut left) = (Keccak8x::of(keccak), P::K * P::L);
    while left > 0 {
        let wide = eight_way(wide, left);
        left -= a_batch(keccak, wide, rho, &mut entries, &mut bufs, Beside::none());
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
    let mut take =
        |tag: usize, entry: &NttPoly, _: Option<&mut PkLane>, _: Option<&mut S2Beside>| {
            add_term(&mut sums, out, tag, entry, v)
        };
    times_batches(
        keccak,
        rho,
        &mut tags,
        P::K * P::L,
        None,
        None,
        None,
        &mut take,
    );
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
    let mut take =
        |tag: usize, entry: &NttPoly, _: Option<&mut PkLane>, _: Option<&mut S2Beside>| {
            add_term(&mut sums, out, tag, entry, v)
        };
    let left = P::K * P::L - made;
    times_batches(
        keccak,
        rho,
        &mut tags,
        left,
        Some((&mut pk_lane, tr)),
        None,
        None,
        &mut take,
    );
    // The entries ran out before pk (a longer pk than the set's): the rest on its own.
    pk_lane.finish_alone(keccak.scalar(), tr);
    // Public in verification (v = NTT(z)), wiped all the same.
    sums.zeroize();
    for w in out.iter_mut() {
        w.reduce();
    }
}

/// FIPS 204 Algorithm 6 steps 3, 5 and 8-9 (key generation's ExpandA, A-hat o NTT(s1), pk and
/// tr = H(pk, 64)) as [`crate::backend::Backend::expand_a_rows_and_tr`], whose contract this
/// has, for where the eight-way permutation runs (`wide`; on four-way batches H(pk) would be
/// made after them, correct but slower than the default order): ExpandA's
/// batches with H(pk) beside them ([`super::pk_lane`]), each row handed to `finish` (which
/// writes its part of pk) as soon as its last entry is made, so that H(pk) absorbs pk as it
/// grows; then what it has not absorbed (the last rows' blocks) on the scalar sponge alone.
///
/// Where that helps ([`ninth_shortens_tail`]), the first batch, whose scalar slots H(pk)
/// cannot use yet (pk is only rho), makes a ninth entry beside it ([`times_batches`]), so the
/// last batch holds one entry fewer: for ML-DSA-65 (30 entries, rows of 5) and ML-DSA-87 (56,
/// rows of 7) it then completes only the last row, not the last two, and what is left for the
/// scalar sponge alone falls from 6 permutations to 3 and 4. (ML-DSA-44's last batch completes
/// two rows either way: 6.) Where it does not (ML-DSA-44), those slots make s2 instead, and for
/// ML-DSA-87 the slots H(pk) leaves free while it waits for rows make all of s2 but s2_0, if
/// `s2` asks for it ([`s2_made_first`], [`S2Beside`]): that saves one of ExpandS's four-way
/// batches for ML-DSA-44 (about 2 % of its key generation on the Zen 4, back to back) and two
/// for ML-DSA-87.
#[target_feature(enable = "avx2")]
#[allow(clippy::too_many_arguments)]
pub(crate) fn expand_a_rows_and_tr<P: Parameters>(
    keccak: Keccak4x,
    wide: Keccak8x,
    rho: &[u8; 32],
    v: &[NttPoly],
    rows: &mut [NttPoly],
    pk: &mut [u8],
    tr: &mut [u8; TR_LEN],
    s2: KeygenS2,
    finish: &mut FinishRow,
) {
    debug_assert_eq!(v.len(), P::L);
    debug_assert_eq!(rows.len(), P::K);
    tick!(ExpandATimes, 1);
    let mut pk_lane = PkLane::growing(pk, 32);
    let mut s2 = S2Beside::new::<P>(wide, s2);
    // The row being filled and how many of its entries are in.
    let (mut row, mut filled) = (0, 0);
    let mut sums = RowSums::ZERO;
    let mut take =
        |tag: usize, entry: &NttPoly, pk: Option<&mut PkLane>, s2: Option<&mut S2Beside>| {
            add_term(&mut sums, rows, tag, entry, v);
            filled += 1;
            if filled == P::L {
                rows[row].reduce();
                if let (Some(pk), Some(s2)) = (pk, s2) {
                    let s2_i = s2.row(row, keccak.scalar());
                    let (i, row_i) = (row, &rows[row]);
                    pk.append(T1_ROW_BYTES, |bytes| finish(i, row_i, s2_i, bytes));
                }
                (row, filled) = (row + 1, 0);
            }
        };
    let mut tags = row_major_tags::<P>();
    let mut run = |ninth: Option<&mut NinthEntry>| {
        let pk = Some((&mut pk_lane, &mut *tr));
        times_batches(
            keccak,
            rho,
            &mut tags,
            P::K * P::L,
            pk,
            ninth,
            Some(&mut s2),
            &mut take,
        );
    };
    // Only the sets it helps have the ninth entry's room (2 KiB) in this frame.
    if const { ninth_shortens_tail(P::K, P::L) } {
        run(Some(&mut NinthEntry::new()));
    } else {
        run(None);
    }
    // Sums of NTT(s1)'s products: secret.
    sums.zeroize();
    // Wipes s2's sponge state.
    drop(s2);
    pk_lane.finish_alone(keccak.scalar(), tr);
}

/// Whether key generation makes s2 beside ExpandA's eight-way batches
/// ([`expand_a_rows_and_tr`]) and if so, how many of its polynomials are made first, four-way
/// with s1 (to fill s1's last batch): where the eight-way permutation runs, for the shapes whose
/// scalar slots H(pk) and a ninth entry leave free in time for each row's s2_i (eta = 2: one or
/// two SHAKE256 blocks a polynomial, 1.55 on average):
///
/// - ML-DSA-44 and Dilithium2 (k = l = 4): none first. The first batch's five slots are free
///   (pk is only rho then; no ninth entry), and the last batch leaves one after H(pk)'s four
///   blocks: six for 6.2 blocks a key on average (1,000 keys: 0.46 made alone).
/// - ML-DSA-87 and Dilithium5 (k = 8, l = 7): s2_0 first (needed after the first batch, whose
///   slots the ninth entry takes; s1 and s2_0 fill two four-way batches). Batches 2 to 7 leave
///   3, 3, 2, 3, 2 and 1 slots while H(pk) waits for rows (it can take 2, 2, 3, 2, 3 and 4
///   blocks): 14 for s2's other seven polynomials, 10.7 blocks a key on average, none of which
///   had to be made alone in 1,000 keys.
///
/// Not ML-DSA-65 (k = 6, l = 5, eta = 4, about two blocks a polynomial): only its second batch
/// leaves slots free (3), too few before rows 3 to 5 are finished.
pub(crate) fn s2_made_first<P: Parameters>(keccak: Keccak4x) -> Option<usize> {
    Keccak8x::of(keccak)?;
    match (P::K, P::L, P::ETA) {
        (4, 4, 2) => Some(0),
        (8, 7, 2) => Some(1),
        _ => None,
    }
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
/// permutations if `pk` is given (see [`a_batch`]). With `ninth`, the first batch, if
/// eight-way with more to follow, makes a ninth entry, the next in `tags`, beside it
/// ([`NinthEntry`], whose room the caller holds), handed to `take` after the batch's eight.
/// Never inlined: its buffers (about 15 KiB) must not share a frame with another path's, as
/// they would in key generation's two (ST-1). rustc does not pass `#[inline(never)]` on to LLVM
/// for a `#[target_feature]` function (rustc 1.95: no `noinline` in the IR; LLVM inlined key
/// generation's instances once s2 was made beside), so the frame boundary is this plain
/// function, into which LLVM cannot inline the AVX2 body either (its features are not here).
#[allow(clippy::too_many_arguments)]
#[inline(never)]
fn times_batches(
    keccak: Keccak4x,
    rho: &[u8; 32],
    tags: &mut impl Iterator<Item = usize>,
    left: usize,
    pk: Option<(&mut PkLane, &mut [u8; TR_LEN])>,
    ninth: Option<&mut NinthEntry>,
    s2: Option<&mut S2Beside>,
    take: &mut impl FnMut(usize, &NttPoly, Option<&mut PkLane>, Option<&mut S2Beside>),
) {
    // SAFETY: a `Keccak4x` is made only from an `Avx2` value (`Keccak4x::of`), which exists
    // only where AVX2 was detected, the feature `times_batches_avx2` is compiled for.
    unsafe { times_batches_avx2(keccak, rho, tags, left, pk, ninth, s2, take) }
}

/// [`times_batches`]' body.
#[allow(clippy::too_many_arguments)]
#[target_feature(enable = "avx2")]
fn times_batches_avx2(
    keccak: Keccak4x,
    rho: &[u8; 32],
    tags: &mut impl Iterator<Item = usize>,
    mut left: usize,
    mut pk: Option<(&mut PkLane, &mut [u8; TR_LEN])>,
    mut ninth: Option<&mut NinthEntry>,
    mut s2: Option<&mut S2Beside>,
    take: &mut impl FnMut(usize, &NttPoly, Option<&mut PkLane>, Option<&mut S2Beside>),
) {
    let mut tmp = [NttPoly::ZERO; 8];
    let mut bufs = BatchBufs::new();
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
        // The first batch's ninth entry, if asked for and there is room, with its tag.
        let mut extra = None;
        if let Some(e) = ninth.take()
            && wide.is_some()
            && left > 8
            && let Some(tag) = tags.next()
        {
            e.start(rho, tag);
            extra = Some((tag, e));
        }
        let mut entries = batch[..n].iter().copied().zip(tmp.iter_mut());
        let beside = Beside {
            pk: pk.as_mut().map(|(pk, tr)| (&mut **pk, &mut **tr)),
            ninth: extra.as_mut().map(|(_, e)| &mut **e),
            s2: s2.as_deref_mut(),
        };
        left -= a_batch(keccak, wide, rho, &mut entries, &mut bufs, beside);
        for (entry, &tag) in tmp.iter().zip(&batch[..n]) {
            take(
                tag,
                entry,
                pk.as_mut().map(|(pk, _)| &mut **pk),
                s2.as_deref_mut(),
            );
        }
        if let Some((tag, e)) = extra {
            // SAFETY: `extra` is set only with `wide`, a `Keccak8x`, which exists only where
            // AVX-512 F (with VL and BW) was detected, the features `finish` is compiled for.
            let entry = unsafe { e.finish(keccak.scalar()) };
            take(
                tag,
                entry,
                pk.as_mut().map(|(pk, _)| &mut **pk),
                s2.as_deref_mut(),
            );
            left -= 1;
        }
    }
}

/// Whether a ninth entry beside ExpandA's first eight-way batch ([`times_batches`]) leaves
/// fewer rows of a k x l matrix to be completed by the last batch (rows made in row-major
/// order, batches of eight after the first): it does for l = 5 and 7, not for l = 4. (Counted
/// without a division: the constant-time scan forbids them.)
const fn ninth_shortens_tail(k: usize, l: usize) -> bool {
    /// Rows with an entry at or after the start of the last batch.
    const fn rows_in_last_batch(k: usize, l: usize, first: usize) -> usize {
        let mut start = first;
        while start + 8 < k * l {
            start += 8;
        }
        let mut rows = 0;
        let mut r = 0;
        while r < k {
            if (r + 1) * l > start {
                rows += 1;
            }
            r += 1;
        }
        rows
    }
    rows_in_last_batch(k, l, 9) < rows_in_last_batch(k, l, 8)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::x86_64::Avx2;

    #[test]
    fn a_ninth_entry_shortens_the_tail_for_rows_of_five_and_seven_only() {
        assert!(!ninth_shortens_tail(4, 4), "ML-DSA-44");
        assert!(ninth_shortens_tail(6, 5), "ML-DSA-65");
        assert!(ninth_shortens_tail(8, 7), "ML-DSA-87");
    }

    /// The ninth entry made alone (no batch beside it) is RejNTTPoly of its seed, for entries
    /// of several rows and columns.
    #[test]
    fn a_ninth_entry_is_rej_ntt_poly_of_its_seed() {
        let Some(keccak) = Avx2::detect().and_then(Avx2::with_avx512).map(Keccak4x::of) else {
            std::eprintln!("skipped: this CPU has no AVX-512");
            return;
        };
        assert!(Keccak8x::of(keccak).is_some());
        for trial in 0..8u8 {
            let rho = [trial.wrapping_mul(37); 32];
            for tag in [0, 3, 256 + 4, (7 << 8) | 6] {
                let mut seed = [0u8; 34];
                avx2::sample::seed_a(&mut seed, &rho, tag);
                let mut expect = NttPoly::ZERO;
                crate::hash::sample::rej_ntt_poly(&seed, &mut expect);
                let mut e = NinthEntry::new();
                e.start(&rho, tag);
                // SAFETY: `Keccak8x::of` found AVX-512 F, VL and BW above.
                let got = unsafe { e.finish(keccak.scalar()) };
                assert_eq!(got.0, expect.0, "rho {trial}, tag {tag:#x}");
            }
        }
    }
}
