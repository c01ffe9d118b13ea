//! H(pk, 64) run beside ExpandA's multi-way sponges, for verifying from the key's encoding
//! ([`crate::backend::Backend::expand_a_times_and_tr`]) and for key generation
//! ([`crate::backend::Backend::expand_a_rows_and_tr`]).
//!
//! Why: tr = SHAKE256(pk, 64) takes 10, 15 or 20 permutations (pk of 1312, 1952 or 2592 bytes
//! at rate 136), 15-25 % of verifying from the encoding, while ExpandA runs independent sponges
//! on the multi-way permutation. Two ways to share the work:
//!
//! - **Beside** the eight-way permutation (AVX-512): pk's sponge is a scalar state, permuted
//!   by [`crate::backend::x86_64::avx512::keccak8x::Shake8::permute_beside`] with a block of pk
//!   XORed in before each of ExpandA's eight-way permutations: the scalar rounds run on the
//!   integer units while the vector units run the eight-way ones, so they come almost free, and
//!   all eight lanes keep making entries.
//! - **In lane 0** of the four-way permutation (AVX2, where a four-way permutation costs about
//!   as much as a scalar one and a scalar one beside it is far from free): lanes 1-3 make
//!   entries while lane 0 absorbs pk (Keccak-f[1600] does not depend on the rate, so a SHAKE256
//!   sponge can share a state with SHAKE128 ones), in rounds of three entries
//!   ([`crate::backend::x86_64::avx2::sample::a_rounds_with_pk_x4`]).
//!
//! Key generation writes pk = rho || t1 as it goes: row i of t1 exists once row i of
//! A-hat o NTT(s1) is complete, so pk's sponge absorbs the blocks pk has so far and waits for
//! the rest. When the entries run out, it goes on alone on the scalar sponge
//! ([`PkLane::finish_alone`]) for the last rows' blocks (6 of ML-DSA-44's 10; 3 of 15 and 4 of
//! 20 for ML-DSA-65 and -87, whose first batch makes a ninth entry beside it so that the last
//! batch completes one row, not two).
//!
//! Constant time: pk, rho and A-hat are public, so the branches may depend on them. (In key
//! generation pk is public once written: t1 is declassified row by row as it is packed.)

use crate::hash::keccak::SHAKE128_RATE as RATE128;
use crate::hash::keccak::SHAKE256_RATE as RATE256;
use crate::hash::keccak::{Permutation, Shake256};
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
/// handed out one at a time as pk has them.
struct PkBlocks<'a> {
    bytes: PkBytes<'a>,
    /// How many bytes of pk have been handed out (whole blocks).
    taken: usize,
    /// The last block (pk's last bytes, fewer than a block, maybe none, padded), made when
    /// it is handed out.
    last: [u8; RATE256],
    /// Whether the last block has been handed out.
    done: bool,
}

impl PkBlocks<'_> {
    /// The next block and whether it is the last one; `None` once all are handed out, or while
    /// pk has fewer than a block's bytes beyond those handed out and more are to come. The
    /// blocks are split off one at a time: finding the last block's length up front takes a
    /// remainder by 136, which stays a `div` at opt-level z even written as a subtraction loop,
    /// and the constant-time scan forbids division in every mldsa function
    /// (scripts/ct-check.sh).
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
}

/// H(pk, 64) as it runs beside or inside ExpandA's sponges: pk's blocks and the sponge's state.
pub(in crate::backend::x86_64) struct PkLane<'a> {
    blocks: PkBlocks<'a>,
    /// The state of pk's sponge after the blocks handed out so far: the scalar state permuted
    /// beside the eight-way sponge, or lane 0's state when the four-way rounds end (all zero
    /// before any block).
    pub(in crate::backend::x86_64) state: [u64; 25],
}

impl<'a> PkLane<'a> {
    /// All of pk's blocks, none handed out yet.
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
            blocks: PkBlocks {
                bytes,
                taken: 0,
                last: [0u8; RATE256],
                done: false,
            },
            state: [0; 25],
        }
    }

    /// Key generation: `write` writes the next `len` bytes of pk (panics past its end, or on
    /// a whole pk).
    pub(in crate::backend::x86_64) fn append(&mut self, len: usize, write: impl FnOnce(&mut [u8])) {
        let PkBytes::Growing { buf, ready } = &mut self.blocks.bytes else {
            panic!("a whole pk");
        };
        write(&mut buf[*ready..*ready + len]);
        *ready += len;
    }

    /// Whether every block has been handed out.
    pub(in crate::backend::x86_64) fn done(&self) -> bool {
        self.blocks.done
    }

    /// One of ExpandA's permutations with pk's sponge beside it: if pk has its next block,
    /// XORs it into the state, runs `permute(Some(state))` (the multi-way permutation and this
    /// state's), and after the last block writes tr from the state; else `permute(None)`.
    pub(in crate::backend::x86_64) fn permute_beside(
        &mut self,
        tr: &mut [u8; TR_LEN],
        permute: impl FnOnce(Option<&mut [u64; 25]>),
    ) {
        let Some((block, last)) = self.blocks.next_block() else {
            return permute(None);
        };
        for (w, bytes) in self.state.iter_mut().zip(block.as_chunks::<8>().0) {
            *w ^= u64::from_le_bytes(*bytes);
        }
        permute(Some(&mut self.state));
        if last {
            for (out, w) in tr.as_chunks_mut::<8>().0.iter_mut().zip(&self.state) {
                *out = w.to_le_bytes();
            }
        }
    }

    /// `len / RATE` permutations of a four-way round (`len` a whole number of SHAKE128
    /// blocks), each `step(block, tr, offset)`: XOR `block` (pk's next, if any are left) into
    /// lane 0, permute, read lane 0's first 64 bytes into `tr` if given (after pk's last
    /// block), and read the other lanes' output block to `offset`.
    pub(in crate::backend::x86_64) fn squeeze(
        &mut self,
        len: usize,
        tr: &mut [u8; TR_LEN],
        mut step: impl FnMut(Option<&[u8]>, Option<&mut [u8; TR_LEN]>, usize),
    ) {
        let mut offset = 0;
        while offset < len {
            match self.blocks.next_block() {
                Some((block, last)) => step(Some(block), last.then_some(&mut *tr), offset),
                None => step(None, None, offset),
            }
            offset += RATE128;
        }
    }

    /// Finishes tr = H(pk, 64) on the scalar sponge (permutation `keccak`) if the blocks handed
    /// out did not include the last: from [`Self::state`], the rest of pk, which must be whole
    /// by now, absorbed after them.
    pub(in crate::backend::x86_64) fn finish_alone(
        &self,
        keccak: Permutation,
        tr: &mut [u8; TR_LEN],
    ) {
        if self.blocks.done {
            return;
        }
        let (pk, whole) = self.blocks.bytes.written();
        assert!(whole, "pk written whole");
        let mut h = Shake256::resume(keccak, self.state);
        h.absorb(&pk[self.blocks.taken..]);
        h.finalize();
        h.squeeze(tr);
    }
}
