//! H(pk, 64) run in lane 0 of ExpandA's multi-way sponges, for verifying from the key's
//! encoding ([`crate::backend::Backend::expand_a_times_and_tr`]) and for key generation
//! ([`crate::backend::Backend::expand_a_rows_and_tr`]).
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
//! Key generation writes pk = rho || t1 as it goes: row i of t1 exists once row i of
//! A-hat o NTT(s1) is complete, so lane 0 absorbs the blocks pk has so far and idles through
//! the rest of the round (a row, 320 bytes, is 2.4 blocks; a round of seven entries, five
//! permutations). When the entries run out, lane 0's state goes on alone on the scalar sponge
//! ([`PkLane::finish_alone`]) for the last row's blocks: 3, 3 and 4 permutations instead of H(pk)'s
//! 10, 15 and 20.
//!
//! Constant time: pk, rho and A-hat are public, so the branches may depend on them. (In key
//! generation pk is public once written: t1 is declassified row by row as it is packed.)

use crate::hash::keccak::SHAKE128_RATE as RATE128;
use crate::hash::keccak::SHAKE256_RATE as RATE256;
use crate::hash::keccak::{Permutation, Shake256};
use crate::math::poly::NttPoly;
use crate::params::TR_LEN;

/// pk's bytes: all of them (verification), or (key generation) the buffer pk is being written
/// into and how much of it is written.
enum PkBytes<'a> {
    Whole(&'a [u8]),
    Growing { buf: &'a mut [u8], ready: usize },
}

impl PkBytes<'_> {
    /// The bytes of pk written so far, and whether that is all of it.
    fn written(&self) -> (&[u8], bool) {
        match self {
            Self::Whole(pk) => (pk, true),
            Self::Growing { buf, ready } => (&buf[..*ready], *ready == buf.len()),
        }
    }
}

/// pk's SHAKE256 blocks (FIPS 202 section 6.2: the SHAKE suffix and pad10*1 at rate 136),
/// handed out one at a time for lane 0 as pk has them, and tr once the last one has been
/// permuted.
pub(in crate::backend::x86_64) struct PkLane<'a> {
    bytes: PkBytes<'a>,
    /// How many bytes of pk have been handed out (whole blocks).
    taken: usize,
    /// The last block (pk's last bytes, fewer than a block, maybe none, padded), made when
    /// it is handed out.
    last: [u8; RATE256],
    /// Whether the last block has been handed out.
    done: bool,
    /// Lane 0's state between the round kernels (which carry it from one multi-way sponge to
    /// the next) and for [`Self::finish_alone`]: the blocks handed out so far, absorbed.
    pub(in crate::backend::x86_64) lane0: [u64; 25],
}

impl<'a> PkLane<'a> {
    /// All of pk's blocks, none handed out yet. They are split off one at a time as they are
    /// handed out: finding the last block's length up front takes a remainder by 136, which
    /// stays a `div` at opt-level z even written as a subtraction loop, and the constant-time
    /// scan forbids division in every mldsa function (scripts/ct-check.sh).
    pub(in crate::backend::x86_64) fn new(pk: &'a [u8]) -> Self {
        Self::of(PkBytes::Whole(pk))
    }

    /// Key generation's pk, to be written into `buf` (its whole length) after the first
    /// `ready` bytes, which are written already, by [`Self::append`].
    pub(in crate::backend::x86_64) fn growing(buf: &'a mut [u8], ready: usize) -> Self {
        Self::of(PkBytes::Growing { buf, ready })
    }

    fn of(bytes: PkBytes<'a>) -> Self {
        Self {
            bytes,
            taken: 0,
            last: [0u8; RATE256],
            done: false,
            lane0: [0; 25],
        }
    }

    /// Key generation: `write` writes the next `len` bytes of pk (panics past its end, or on
    /// a whole pk).
    pub(in crate::backend::x86_64) fn append(&mut self, len: usize, write: impl FnOnce(&mut [u8])) {
        let PkBytes::Growing { buf, ready } = &mut self.bytes else {
            panic!("a whole pk");
        };
        write(&mut buf[*ready..*ready + len]);
        *ready += len;
    }

    /// `len / RATE` permutations of a round (`len` a whole number of SHAKE128 blocks), each
    /// `step(lane0, tr, offset)`: XOR pk's next block into lane 0 if it has one, or keep lane
    /// 0 as it is through the permutation if pk is waiting for more bytes ([`Lane0`]); permute;
    /// read lane 0's first 64 bytes into `tr` if given (after pk's last block); and read the
    /// other lanes' output block to `offset`. The kernels' sponges differ; this schedule is
    /// theirs.
    pub(in crate::backend::x86_64) fn squeeze(
        &mut self,
        len: usize,
        tr: &mut [u8; TR_LEN],
        mut step: impl FnMut(Lane0<'_>, Option<&mut [u8; TR_LEN]>, usize),
    ) {
        let mut offset = 0;
        while offset < len {
            let done = self.done;
            match self.next_block() {
                Some((block, last)) => step(Lane0::Absorb(block), last.then_some(&mut *tr), offset),
                None if done => step(Lane0::Free, None, offset),
                None => step(Lane0::Hold, None, offset),
            }
            offset += RATE128;
        }
    }

    /// The block to XOR into lane 0 before the next permutation, and whether it is the last one
    /// (then lane 0's rate holds tr after that permutation); `None` once all are handed out, or
    /// while pk has fewer than a block's bytes beyond those handed out and more are to come.
    fn next_block(&mut self) -> Option<(&[u8], bool)> {
        if self.done {
            return None;
        }
        let (pk, whole) = self.bytes.written();
        let rest = &pk[self.taken..];
        if let Some((block, _)) = rest.split_first_chunk::<RATE256>() {
            self.taken += RATE256;
            return Some((block, false));
        }
        if !whole {
            return None;
        }
        self.done = true;
        let len = rest.len();
        self.last[..len].copy_from_slice(rest);
        crate::backend::x86_64::avx2::keccak4x::shake_pad(&mut self.last, len);
        Some((&self.last, true))
    }

    /// Whether every block has been handed out.
    pub(in crate::backend::x86_64) fn done(&self) -> bool {
        self.done
    }

    /// Finishes tr = H(pk, 64) on the scalar sponge (permutation `keccak`) if lane 0 has not:
    /// from lane 0's state after the blocks handed out (all zero if none were), the rest of pk,
    /// which must be whole by now, absorbed after them.
    pub(in crate::backend::x86_64) fn finish_alone(
        &self,
        keccak: Permutation,
        tr: &mut [u8; TR_LEN],
    ) {
        if self.done {
            return;
        }
        let (pk, whole) = self.bytes.written();
        assert!(whole, "pk written whole");
        let mut h = Shake256::resume(keccak, self.lane0);
        h.absorb(&pk[self.taken..]);
        h.finalize();
        h.squeeze(tr);
    }
}

/// What lane 0 does in one permutation of a round.
pub(in crate::backend::x86_64) enum Lane0<'b> {
    /// XOR this block of pk in before the permutation.
    Absorb(&'b [u8]),
    /// Keep the state as it is: pk has absorbed some blocks and waits for more bytes (key
    /// generation), so the permutation must not run on it.
    Hold,
    /// Nothing: tr has been read.
    Free,
}

/// Runs ExpandA's rounds while pk lasts: each `round` makes the next `R` (or fewer, at the end)
/// of `tags` (256 r + s, row-major) into the entries it is given, while XORing pk's blocks into
/// lane 0 (and writing tr); `take(tag, entry, pk)` then takes each entry, in order (key
/// generation appends pk's rows there). Returns how many entries were made. The entries go in
/// `polys`. pk may outlast the entries (key generation's always does: its last row needs the
/// last entry).
pub(in crate::backend::x86_64) fn pk_rounds<const R: usize>(
    pk: &mut PkLane,
    tr: &mut [u8; TR_LEN],
    tags: &mut impl Iterator<Item = usize>,
    take: &mut impl FnMut(usize, &NttPoly, &mut PkLane),
    polys: &mut [NttPoly; R],
    mut round: impl FnMut(&mut PkLane, &mut [u8; TR_LEN], &mut Entries<'_>) -> usize,
) -> usize {
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
            take(tag, entry, pk);
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
/// `0, $lane...`, and `$restart(sponge, seeds)` starts lanes 1.. on the seeds (absorbed, padded);
/// `$wide` is the AVX-512 token for the rejection's sixteen-a-step loop, if there is one. Lane
/// 0 starts from the state `$pk` keeps and leaves its state there. The two sponges' methods share names and
/// contracts but run under different target features, which a trait could carry only as
/// `unsafe` methods.
macro_rules! a_rounds_with_pk {
    ($sponge:ty, $keccak:expr, $wide:expr, $restart:expr, [$($lane:ident),+], $lanes:literal,
     $rho:expr, $pk:expr, $tr:expr, $tags:expr, $take:expr) => {{
        let mut g = <$sponge>::new($keccak);
        g.set_lane0(&$pk.lane0);
        // Lane 0's state while it holds (saved at the first permutation that must not touch
        // it, put back before its next block): once per wait, not per permutation.
        let mut held: Option<[u64; 25]> = None;
        let restart = $restart;
        let mut seeds = [[0u8; 34]; $lanes];
        let mut buf = [[0u8; NTT_FIRST_BLOCKS * RATE128 + LOAD_SLACK]; $lanes + 1];
        let mut polys = [NttPoly::ZERO; $lanes];
        let made = pk_rounds::<$lanes>($pk, $tr, $tags, $take, &mut polys, |pk, tr, entries| {
            let (n, [$($lane),+]) =
                next_batch(entries, &mut seeds, |seed, tag| seed_a(seed, $rho, tag));
            restart(&mut g, &seeds);
            let squeeze = |mut out: [&mut [u8]; $lanes + 1]| {
                pk.squeeze(out[0].len(), tr, |lane0, tr, offset| {
                    match lane0 {
                        Lane0::Absorb(block) => {
                            if let Some(words) = held.take() {
                                g.set_lane0(&words);
                            }
                            g.xor_block_lane0(block);
                        }
                        Lane0::Hold if held.is_none() => held = Some(g.lane0()),
                        Lane0::Hold | Lane0::Free => {}
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
        });
        $pk.lane0 = held.unwrap_or_else(|| g.lane0());
        made
    }};
}
pub(in crate::backend::x86_64) use a_rounds_with_pk;
