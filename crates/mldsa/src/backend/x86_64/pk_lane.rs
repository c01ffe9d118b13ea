//! H(pk, 64) run in lane 0 of ExpandA's multi-way sponges, for verifying from the key's
//! encoding ([`crate::backend::Backend::expand_a_times_and_tr`]).
//!
//! Why: tr = SHAKE256(pk, 64) takes 10, 15 or 20 permutations (pk of 1312, 1952 or 2592 bytes
//! at rate 136), and a scalar permutation costs about as much as a four-way one. ExpandA keeps
//! every lane of a four- or eight-way state busy with independent sponges, so one lane can
//! absorb pk, a block per permutation, while the others make entries of A-hat: about the
//! scalar H(pk) saved (Keccak-f[1600] does not depend on the rate, so a SHAKE256 sponge can share
//! a state with SHAKE128 ones; only what is XORed in and read out differs).
//!
//! The rounds: lanes 1.. take the next entries' seeds, squeeze five blocks and reject
//! ([`crate::backend::x86_64::avx2::sample::rej_ntt_lanes`], a sixth block and more for the
//! lanes that need them), while lane 0 absorbs pk's next block before each permutation. Since
//! ExpandA's entries take five permutations and pk 10, 15 or 20, tr is ready at the end of a
//! round. The rounds are the kernels `a_rounds_with_pk_x4` (AVX2) and `a_rounds_with_pk_x8`
//! (AVX-512); the driver is [`crate::backend::x86_64::sample::expand_a_times_and_tr`].
//!
//! Constant time: pk, rho and A-hat are public, so the branches may depend on them.

use crate::hash::keccak::SHAKE128_RATE as RATE128;
use crate::hash::keccak::SHAKE256_RATE as RATE256;
use crate::math::poly::NttPoly;
use crate::params::TR_LEN;

/// pk's SHAKE256 blocks (FIPS 202 section 6.2: the SHAKE suffix and pad10*1 at rate 136),
/// handed out one at a time for lane 0, and tr once the last one has been permuted.
pub(in crate::backend::x86_64) struct PkLane<'a> {
    /// What of pk has not been handed out yet.
    rest: &'a [u8],
    /// The last block (pk's last bytes, fewer than a block, maybe none, padded), made when
    /// it is handed out.
    last: [u8; RATE256],
    /// Whether the last block has been handed out.
    done: bool,
}

impl<'a> PkLane<'a> {
    /// pk's blocks, none handed out yet. They are split off one at a time as they are handed
    /// out: finding the last block's length up front takes a remainder by 136, which stays a
    /// `div` at opt-level z even written as a subtraction loop, and the constant-time scan
    /// forbids division in every mldsa function (scripts/ct-check.sh).
    pub(in crate::backend::x86_64) fn new(pk: &'a [u8]) -> Self {
        Self {
            rest: pk,
            last: [0u8; RATE256],
            done: false,
        }
    }

    /// `len / RATE` permutations of a round (`len` a whole number of SHAKE128 blocks), each
    /// `step(block, tr, offset)`: XOR `block` (pk's next, if any are left) into lane 0,
    /// permute, read lane 0's first 64 bytes into `tr` if given (after pk's last block), and
    /// read the other lanes' output block to `offset`. The kernels' sponges differ; this
    /// schedule is theirs.
    pub(in crate::backend::x86_64) fn squeeze(
        &mut self,
        len: usize,
        tr: &mut [u8; TR_LEN],
        mut step: impl FnMut(Option<&[u8]>, Option<&mut [u8; TR_LEN]>, usize),
    ) {
        let mut offset = 0;
        while offset < len {
            match self.next_block() {
                Some((block, last)) => step(Some(block), last.then_some(&mut *tr), offset),
                None => step(None, None, offset),
            }
            offset += RATE128;
        }
    }

    /// The block to XOR into lane 0 before the next permutation, and whether it is the last one
    /// (then lane 0's rate holds tr after that permutation); `None` once all are handed out.
    fn next_block(&mut self) -> Option<(&[u8], bool)> {
        if self.done {
            return None;
        }
        if let Some((block, tail)) = self.rest.split_first_chunk::<RATE256>() {
            self.rest = tail;
            return Some((block, false));
        }
        self.done = true;
        let len = self.rest.len();
        self.last[..len].copy_from_slice(self.rest);
        crate::backend::x86_64::avx2::keccak4x::shake_pad(&mut self.last, len);
        Some((&self.last, true))
    }

    /// Whether every block has been handed out.
    pub(in crate::backend::x86_64) fn done(&self) -> bool {
        self.done
    }
}

/// Runs ExpandA's rounds while pk lasts: each `round` makes the next `R` (or fewer, at the end)
/// of `tags` (256 r + s, row-major) into the entries it is given, while XORing pk's blocks into
/// lane 0 (and writing tr); `accumulate(tag, entry)` then takes each entry. Returns how many
/// entries were made; pk may outlast the entries (never for the sets' keys: 16 entries or more
/// against 10 to 20 blocks, at least three lanes of five permutations each).
pub(in crate::backend::x86_64) fn pk_rounds<const R: usize>(
    pk: &mut PkLane,
    tr: &mut [u8; TR_LEN],
    tags: &mut impl Iterator<Item = usize>,
    mut accumulate: impl FnMut(usize, &NttPoly),
    mut round: impl FnMut(&mut PkLane, &mut [u8; TR_LEN], &mut Entries<'_>) -> usize,
) -> usize {
    let mut polys = [NttPoly::ZERO; R];
    let mut made = 0;
    while !pk.done() {
        let mut batch = [0usize; R];
        let n = tags
            .by_ref()
            .take(R)
            .zip(batch.iter_mut())
            .map(|(tag, slot)| *slot = tag)
            .count();
        if n == 0 {
            break;
        }
        let mut entries = batch[..n].iter().copied().zip(polys.iter_mut());
        made += round(pk, tr, &mut entries);
        for (entry, &tag) in polys.iter().zip(&batch[..n]) {
            accumulate(tag, entry);
        }
    }
    made
}

/// A round's entries: tags and where their polynomials go.
pub(in crate::backend::x86_64) type Entries<'a> = core::iter::Zip<
    core::iter::Copied<core::slice::Iter<'a, usize>>,
    core::slice::IterMut<'a, NttPoly>,
>;

/// The body of the round kernels `a_rounds_with_pk_x4` (AVX2) and `a_rounds_with_pk_x8`
/// (AVX-512), written once over their sponges: `$sponge` (made from `$keccak`) has lanes
/// `0, $lane...`, and `$restart` starts lanes 1.. on the given words of their padded seeds;
/// `$wide` is the AVX-512 token for the rejection's sixteen-a-step loop, if there is one. The
/// two sponges' methods share names and contracts but run under different target features, which
/// a trait could carry only as `unsafe` methods.
macro_rules! a_rounds_with_pk {
    ($sponge:ty, $keccak:expr, $wide:expr, $restart:ident, [$($lane:ident),+], $lanes:literal,
     $rho:expr, $pk:expr, $tr:expr, $tags:expr, $accumulate:expr) => {{
        let mut g = <$sponge>::new($keccak);
        let mut seeds = [[0u8; 34]; $lanes];
        let mut buf = [[0u8; NTT_FIRST_BLOCKS * RATE128 + LOAD_SLACK]; $lanes + 1];
        pk_rounds::<$lanes>($pk, $tr, $tags, $accumulate, |pk, tr, entries| {
            let (n, [$($lane),+]) =
                next_batch(entries, &mut seeds, |seed, tag| seed_a(seed, $rho, tag));
            g.$restart(|j| seeds.each_ref().map(|seed| seed_state_word(seed, j)));
            let squeeze = |mut out: [&mut [u8]; $lanes + 1]| {
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
            rej_ntt_lanes(squeeze, [None, $($lane),+], NTT_FIRST_BLOCKS, &mut buf, $wide);
            n
        })
    }};
}
pub(in crate::backend::x86_64) use a_rounds_with_pk;
