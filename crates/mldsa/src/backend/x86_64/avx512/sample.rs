//! ExpandA's eight-way batches (AVX-512 F): RejNTTPoly on eight seeds at a time, on the
//! eight-way permutation ([`Keccak8x`], zmm registers), about 28 % cheaper per sponge than the
//! four-way one, with H(pk) beside it where verification or key generation hash pk
//! ([`crate::backend::x86_64::pk_lane`]), and in key generation a ninth entry ([`NinthEntry`])
//! or s2 ([`S2Beside`]) in the scalar slots H(pk) leaves free; and the sixteen-a-step rejection
//! loops of ExpandA and ExpandS. Seeds, batches and the rejection loops' tails are those of the
//! AVX2 kernels in [`crate::backend::x86_64::avx2::sample`], called, not copied; the driver that
//! picks eight or four per batch is [`crate::backend::x86_64::sample`].

use crate::backend::KeygenS2;
use crate::backend::lanes::next_batch;
use crate::backend::x86_64::avx2::sample::{
    NTT_FIRST_BLOCKS, NttStream, rej_eta, rej_ntt_lanes, rej_uniform_from, seed_a, seed_state_word,
};
use crate::backend::x86_64::avx512::keccak8x::{Keccak8x, Shake128x8};
use crate::backend::x86_64::pk_lane::PkLane;
use crate::hash::keccak::Permutation;
use crate::hash::keccak::SHAKE128_RATE as RATE128;
use crate::hash::keccak::SHAKE256_RATE as RATE256;
use crate::math::poly::{N, NttPoly, Poly};
use crate::params::{Parameters, Q, TR_LEN};
use crate::support::declassify::public;
use core::arch::x86_64::*;

/// What runs on the scalar sponge beside an eight-way batch's permutations: H(pk)'s next block
/// if `pk` is given and has one ([`PkLane::permute_beside`], which writes tr when it has taken
/// the last), else the next block of `ninth` if given and it wants one ([`NinthEntry`]), else
/// the next block of s2 if given and still being made ([`S2Beside`]).
pub(in crate::backend::x86_64) struct Beside<'a, 'pk, 's2> {
    pub(in crate::backend::x86_64) pk: Option<(&'a mut PkLane<'pk>, &'a mut [u8; TR_LEN])>,
    pub(in crate::backend::x86_64) ninth: Option<&'a mut NinthEntry>,
    pub(in crate::backend::x86_64) s2: Option<&'a mut S2Beside<'s2>>,
}

impl Beside<'_, '_, '_> {
    /// Nothing beside.
    pub(in crate::backend::x86_64) fn none() -> Self {
        Self {
            pk: None,
            ninth: None,
            s2: None,
        }
    }
}

/// RejNTTPoly eight seeds at a time, on the eight-way permutation (AVX-512 F and BW; `Keccak8x`
/// proves them present): as the four-way batch in [`crate::backend::x86_64::avx2::sample`],
/// with `beside` on the scalar sponge.
#[target_feature(enable = "avx2,avx512f,avx512bw")]
fn rej_ntt_poly_x8(
    keccak: Keccak8x,
    seeds: &[[u8; 34]; 8],
    outs: [Option<&mut NttPoly>; 8],
    buf: &mut [NttStream; 8],
    beside: Beside,
) {
    let Beside {
        mut pk,
        mut ninth,
        mut s2,
    } = beside;
    // Whether s2, secret, took a block beside a permutation of this batch.
    let mut secret_beside = false;
    let mut g = Shake128x8::new(keccak);
    g.absorb_short(seeds.each_ref().map(|s| &s[..]));
    // The permutation with the ninth entry's sponge beside it if it wants a block, else s2's.
    let mut without_pk = |g: &mut Shake128x8| match (&mut ninth, &mut s2) {
        (Some(ninth), _) if ninth.wants() => {
            g.permute_beside(&mut ninth.state);
            ninth.read_block();
        }
        (_, Some(s2)) if s2.wants() => {
            g.permute_beside(s2.state);
            s2.take_block();
            secret_beside = true;
        }
        _ => g.permute(),
    };
    let squeeze = |mut out: [&mut [u8]; 8]| {
        let mut offset = 0;
        while offset < out[0].len() {
            match &mut pk {
                Some((pk, tr)) => pk.permute_beside(tr, |one| match one {
                    Some(one) => g.permute_beside(one),
                    None => without_pk(&mut g),
                }),
                None => without_pk(&mut g),
            }
            g.read_block(offset, &mut out);
            offset += RATE128;
        }
    };
    rej_ntt_lanes(squeeze, outs, NTT_FIRST_BLOCKS, buf, Some(keccak));
    if secret_beside {
        // The scalar rounds beside (`f1600x9`) may have spilled s2's sponge state, secret,
        // into their frame (about 600 bytes), just below this one and dead now.
        crate::backend::wipe::scrub_stack_small();
    }
}

/// A ninth entry of A-hat for an eight-way batch, made on the scalar sponge beside the
/// permutations whose scalar slot H(pk) leaves free (key generation's first batch, where pk is
/// still only rho): its blocks cost about 4 % of a scalar permutation each. Taking it ends
/// ExpandA's batches one entry sooner, which lets key generation's last batch complete fewer
/// rows of t (see [`crate::backend::x86_64::sample::expand_a_rows_and_tr`]). Public: A-hat is
/// derived from rho.
pub(in crate::backend::x86_64) struct NinthEntry {
    /// SHAKE128 of the entry's seed: absorbed, then `blocks` blocks squeezed into `buf`.
    state: [u64; 25],
    buf: NttStream,
    blocks: usize,
    /// The entry, once [`Self::finish`] has made it.
    out: NttPoly,
}

impl NinthEntry {
    /// Room for an entry (made in place: it is 2 KiB), to be started by [`Self::start`].
    pub(in crate::backend::x86_64) fn new() -> Self {
        Self {
            state: [0; 25],
            buf: [0; _],
            blocks: 0,
            out: NttPoly::ZERO,
        }
    }

    /// Starts the sponge of entry `tag` = 256 r + s (seed rho || s || r), absorbed.
    pub(in crate::backend::x86_64) fn start(&mut self, rho: &[u8; 32], tag: usize) {
        let mut seed = [0u8; 34];
        seed_a(&mut seed, rho, tag);
        self.state = core::array::from_fn(|j| seed_state_word(&seed, j));
        self.blocks = 0;
    }

    /// Whether it has fewer blocks than a batch squeezes first.
    fn wants(&self) -> bool {
        self.blocks < NTT_FIRST_BLOCKS
    }

    /// Appends the rate part of the state, just permuted, to `buf`.
    fn read_block(&mut self) {
        let at = self.blocks * RATE128;
        let block = &mut self.buf[at..at + RATE128];
        for (bytes, w) in block.as_chunks_mut::<8>().0.iter_mut().zip(&self.state) {
            *bytes = w.to_le_bytes();
        }
        self.blocks += 1;
    }

    /// FIPS 204 Algorithm 30 (RejNTTPoly) of its seed: the blocks it did not get beside the
    /// batch made on the scalar sponge (`keccak`), then, as rarely as for the batches' lanes,
    /// one more block at a time.
    #[target_feature(enable = "avx2,avx512f,avx512bw")]
    pub(in crate::backend::x86_64) fn finish(&mut self, keccak: Permutation) -> &NttPoly {
        while self.wants() {
            keccak.apply(&mut self.state);
            self.read_block();
        }
        let mut ctr = rej_uniform_x16(&mut self.out.0, 0, &self.buf, NTT_FIRST_BLOCKS * RATE128);
        while ctr < N {
            keccak.apply(&mut self.state);
            self.blocks = 0;
            self.read_block();
            ctr = rej_uniform_x16(&mut self.out.0, ctr, &self.buf, RATE128);
        }
        &self.out
    }
}

/// Key generation's s2 (FIPS 204 Algorithm 33 steps 4-5: s2_i = RejBoundedPoly(rho' ||
/// IntegerToBytes(l + i, 2)) for i < k), from a given polynomial on, made on the scalar sponge
/// beside ExpandA's eight-way permutations, in the slots that H(pk) and a ninth entry leave free
/// (see [`crate::backend::x86_64::sample::s2_made_first`]), a SHAKE256 block at a time, each
/// polynomial into its row's slot ([`KeygenS2::slots`]). [`Self::row`] makes what is left of
/// a row's polynomial alone, when the row is finished. Where s2 is made already, it only hands
/// out the slots.
///
/// Secret: the sponge state is wiped on drop, and the batch scrubs the dead frames the scalar
/// rounds ran in ([`rej_ntt_poly_x8`]). The only decisions taken on it are
/// [`rej_eta_x16`]'s accept masks, which FIPS 204 lets become public and which are
/// declassified there.
pub(in crate::backend::x86_64) struct S2Beside<'a> {
    slots: &'a mut [Poly],
    /// rho' and the proof that [`rej_eta_x16`] may run, while s2 is being made here.
    making: Option<(&'a [u8; 64], Keccak8x)>,
    /// l: polynomial i of s2 has the seed rho' || IntegerToBytes(l + i, 2).
    l: usize,
    /// [`rej_eta_x16_state`] for the set's eta.
    rej: unsafe fn(&mut [i32; N], usize, &[u64; 25]) -> usize,
    /// The polynomial being made and how many of its coefficients it has.
    next: usize,
    ctr: usize,
    /// Its sponge ([`KeygenS2::sponge`]): absorbed, then permuted once per block taken.
    state: &'a mut [u64; 25],
}

impl<'a> S2Beside<'a> {
    /// The slots of `s2`, and s2 to be made beside the batches if `s2` asks for it.
    pub(in crate::backend::x86_64) fn new<P: Parameters>(wide: Keccak8x, s2: KeygenS2<'a>) -> Self {
        let KeygenS2 {
            slots,
            make_from,
            sponge,
        } = s2;
        let mut s2 = Self {
            slots,
            making: make_from.map(|(rho_prime, _)| (rho_prime, wide)),
            l: P::L,
            rej: rej_eta_x16_state::<P>,
            next: make_from.map_or(0, |(_, first)| first),
            ctr: 0,
            state: sponge,
        };
        s2.start();
        s2
    }

    /// Whether a polynomial of s2 is still to be made here.
    pub(in crate::backend::x86_64) fn wants(&self) -> bool {
        self.making.is_some() && self.next < self.slots.len()
    }

    /// Absorbs the seed of polynomial `next` (with SHAKE256's padding: 0x1F after the 66
    /// bytes, 0x80 in the last byte of the 136-byte rate, FIPS 202 section 6.2), unpermuted.
    fn start(&mut self) {
        const { assert!(RATE256 == 136) };
        let Some((rho_prime, _)) = self.making else {
            return;
        };
        let nonce = (self.l + self.next) as u64;
        *self.state = [0; 25];
        for (w, bytes) in self.state.iter_mut().zip(rho_prime.as_chunks::<8>().0) {
            *w = u64::from_le_bytes(*bytes);
        }
        self.state[8] = nonce | 0x1F << 16;
        self.state[16] = 0x80 << 56;
        self.ctr = 0;
    }

    /// After the state was permuted: its rate part is the next block of the polynomial's
    /// stream, which goes through RejBoundedPoly's loop; a full polynomial moves on to the next.
    /// Never inlined: the peak stack measured the same with and without it, but inlined (into
    /// [`rej_ntt_poly_x8`]'s permutation loop) ML-DSA-44's key generation took 9 % longer and
    /// ML-DSA-87's 11 % (11.3 -> 12.5 and 28.6 -> 32.0 µs on the Zen 4, back to back).
    #[inline(never)]
    pub(in crate::backend::x86_64) fn take_block(&mut self) {
        let Some((_, _wide)) = self.making else {
            return;
        };
        let out = &mut self.slots[self.next].0;
        // SAFETY: `rej` is `rej_eta_x16_state`, compiled for AVX2 and AVX-512 F and BW;
        // `making` holds a `Keccak8x` (`_wide`), which exists only where AVX-512 F, VL and BW
        // were detected.
        self.ctr = unsafe { (self.rej)(out, self.ctr, self.state) };
        if self.ctr == N {
            self.next += 1;
            if self.wants() {
                self.start();
            }
        }
    }

    /// Row i's slot, holding s2_i: what is left of it (and of the polynomials before it) made
    /// first on `keccak`, the scalar permutation.
    pub(in crate::backend::x86_64) fn row(&mut self, i: usize, keccak: Permutation) -> &mut Poly {
        while self.wants() && self.next <= i {
            keccak.apply(self.state);
            self.take_block();
        }
        &mut self.slots[i]
    }
}

impl Drop for S2Beside<'_> {
    fn drop(&mut self) {
        zeroize::Zeroize::zeroize(self.state);
    }
}

/// RejNTTPoly's inner loop (FIPS 204 Algorithm 30, steps 4-12) as
/// [`crate::backend::x86_64::avx2::sample::rej_uniform_from`] from byte 0, sixteen candidates
/// a step until the polynomial is full, while a 64-byte load stays in `buf`: 48 bytes, four
/// per 128-bit quarter (`vpermd`), spread into sixteen 32-bit lanes (`vpshufb`), masked to 23
/// bits, compared with q, the accepted ones packed to the front (`vpcompressd`) and stored
/// ([`store_packed`]: up to 16 values past the new count, below N; later ones overwrite them).
/// The AVX2 loop takes the rest if the bytes run out first. Twice the candidates of the AVX2
/// step in about as many instructions, and half the steps in the count's dependency chain.
///
/// Contract: as `rej_uniform_from` (the same count and coefficients). Constant time: public
/// data only (A-hat is derived from rho).
#[target_feature(enable = "avx2,avx512f,avx512bw")]
pub(in crate::backend::x86_64) fn rej_uniform_x16(
    out: &mut [i32; N],
    mut ctr: usize,
    buf: &[u8],
    len: usize,
) -> usize {
    debug_assert!(len <= buf.len() && ctr <= N);
    let q = _mm512_set1_epi32(Q);
    let low23 = _mm512_set1_epi32(0x7F_FFFF);
    // Quarter k gets bytes 12k..12k + 16 (dwords 3k..3k + 4), candidates 4k..4k + 4.
    let quarters = _mm512_setr_epi32(0, 1, 2, 3, 3, 4, 5, 6, 6, 7, 8, 9, 9, 10, 11, 12);
    let spread = _mm512_broadcast_i32x4(_mm_setr_epi8(
        0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1,
    ));
    let mut pos = 0;
    while ctr < N && pos + 48 <= len && pos + 64 <= buf.len() {
        let bytes = &buf[pos..pos + 64];
        // SAFETY: `bytes` is 64 readable bytes; `loadu` has no alignment requirement.
        let raw = unsafe { _mm512_loadu_si512(bytes.as_ptr().cast()) };
        let z = _mm512_shuffle_epi8(_mm512_permutexvar_epi32(quarters, raw), spread);
        let z = _mm512_and_si512(z, low23);
        let accept = _mm512_cmplt_epi32_mask(z, q);
        store_packed(&mut out[ctr..], _mm512_maskz_compress_epi32(accept, z));
        ctr = (ctr + accept.count_ones() as usize).min(N);
        pos += 48;
    }
    rej_uniform_from(out, ctr, buf, pos, len)
}

/// Stores the first `dst.len()` (at most 16) lanes of `packed` at `dst`: a plain 64-byte store
/// while there is room for all 16, a masked one for the last few coefficients of a
/// polynomial. So the sixteen-a-step rejection loops run until the polynomial is full, and do
/// not hand its last coefficients to a loop of eight and then one at a time, whose branches on
/// fresh random bytes mispredict (about 2 % of ML-DSA-65's key generation on the Zen 4).
#[target_feature(enable = "avx512f")]
#[inline]
fn store_packed(dst: &mut [i32], packed: __m512i) {
    match dst.first_chunk_mut::<16>() {
        // SAFETY: `dst` is 16 writable i32s; `storeu` has no alignment requirement.
        Some(dst) => unsafe { _mm512_storeu_si512(dst.as_mut_ptr().cast(), packed) },
        None => {
            debug_assert!(dst.len() < 16);
            // SAFETY: the mask enables the first `dst.len()` (< 16) 32-bit lanes only, so the
            // store writes exactly `dst`; `storeu` has no alignment requirement.
            unsafe {
                _mm512_mask_storeu_epi32(dst.as_mut_ptr().cast(), (1u16 << dst.len()) - 1, packed)
            }
        }
    }
}

/// RejBoundedPoly's inner loop (FIPS 204 Algorithm 31, steps 4-17) as
/// [`crate::backend::x86_64::avx2::sample::rej_eta`], sixteen nibbles a step until the
/// polynomial is full: eight bytes, each doubled (`vpunpcklbw`) and widened into two 32-bit
/// lanes (`vpmovzxbd`), shifted by 0 or 4 and masked to a nibble, compared with the limit (15
/// for eta = 2, 9 for eta = 4), mapped to eta - (b mod (2 eta + 1)) by a register table lookup
/// (`vpermd`, whose timing does not depend on the index), the accepted ones packed to the front
/// (`vpcompressd`) and stored ([`store_packed`]: up to 16 values past the new count, below N;
/// later ones overwrite them). The AVX2 loop takes the rest if the bytes run out first (fewer
/// than eight left). Twice the nibbles of the AVX2 step, with no multiply and no table in
/// memory.
///
/// Contract: as `rej_eta` (the same count and coefficients). Constant time: as `rej_eta`; the
/// only thing that steers a branch, an index or the count is each step's accept mask, which
/// FIPS 204 lets become public and which is declassified as such.
#[target_feature(enable = "avx2,avx512f,avx512bw")]
pub(in crate::backend::x86_64) fn rej_eta_x16<P: Parameters>(
    out: &mut [i32; N],
    ctr: usize,
    buf: &[u8],
) -> usize {
    let words = buf
        .as_chunks::<8>()
        .0
        .iter()
        .map(|w| u64::from_le_bytes(*w));
    let (ctr, used) = rej_eta_words::<P>(out, ctr, words);
    rej_eta::<P>(out, ctr, &buf[8 * used..])
}

/// [`rej_eta_x16`] on the SHAKE256 block a sponge state holds after a permutation (the words
/// of the rate, little-endian), for [`S2Beside`], which so needs no copy of the block in bytes.
#[target_feature(enable = "avx2,avx512f,avx512bw")]
fn rej_eta_x16_state<P: Parameters>(out: &mut [i32; N], ctr: usize, state: &[u64; 25]) -> usize {
    rej_eta_words::<P>(out, ctr, state[..RATE256 / 8].iter().copied()).0
}

/// [`rej_eta_x16`]'s loop over 8-byte words (each the next 8 bytes of the stream,
/// little-endian), one a step while the polynomial is not full; returns the count and how many
/// words it used.
#[target_feature(enable = "avx2,avx512f,avx512bw")]
#[inline]
fn rej_eta_words<P: Parameters>(
    out: &mut [i32; N],
    mut ctr: usize,
    words: impl Iterator<Item = u64>,
) -> (usize, usize) {
    debug_assert!(ctr <= N);
    let (limit, values) = match P::ETA {
        // b mod 5 for b < 15, mapped to 2 - (b mod 5); entry 15 is never taken.
        2 => (
            15,
            _mm512_setr_epi32(2, 1, 0, -1, -2, 2, 1, 0, -1, -2, 2, 1, 0, -1, -2, 0),
        ),
        // b < 9 is b mod 9, mapped to 4 - b; entries 9 to 15 are never taken.
        _ => (
            9,
            _mm512_setr_epi32(4, 3, 2, 1, 0, -1, -2, -3, -4, 0, 0, 0, 0, 0, 0, 0),
        ),
    };
    let limit = _mm512_set1_epi32(limit);
    let low4 = _mm512_set1_epi32(0xF);
    // Lane 2i holds byte i's low nibble, lane 2i + 1 its high nibble.
    let shifts = _mm512_setr_epi32(0, 4, 0, 4, 0, 4, 0, 4, 0, 4, 0, 4, 0, 4, 0, 4);
    let mut used = 0;
    for word in words {
        if ctr >= N {
            break;
        }
        let x = _mm_cvtsi64_si128(word as i64);
        let b = _mm512_cvtepu8_epi32(_mm_unpacklo_epi8(x, x));
        let b = _mm512_and_si512(_mm512_srlv_epi32(b, shifts), low4);
        // Constant time: which nibbles ExpandS rejects may become public (FIPS 204; the same
        // decision `coeff_from_half_byte` declassifies one nibble at a time).
        let accept = public(_mm512_cmplt_epi32_mask(b, limit));
        let packed = _mm512_maskz_compress_epi32(accept, _mm512_permutexvar_epi32(b, values));
        store_packed(&mut out[ctr..], packed);
        ctr = (ctr + accept.count_ones() as usize).min(N);
        used += 1;
    }
    (ctr, used)
}

/// One batch of ExpandA: the next eight of `entries` (tag 256 r + s, output), or fewer with
/// dummy lanes, on the eight-way permutation, with `beside` on the scalar sponge
/// ([`rej_ntt_poly_x8`]; the caller finishes a ninth entry); returns how many lanes were made.
#[target_feature(enable = "avx2,avx512f,avx512bw")]
pub(in crate::backend::x86_64) fn a_batch_x8<'a>(
    wide: Keccak8x,
    rho: &[u8; 32],
    entries: &mut impl Iterator<Item = (usize, &'a mut NttPoly)>,
    seeds: &mut [[u8; 34]; 8],
    buf: &mut [NttStream; 8],
    beside: Beside,
) -> usize {
    let (n, outs) = next_batch(entries, seeds, |seed, tag| seed_a(seed, rho, tag));
    rej_ntt_poly_x8(wide, seeds, outs, buf, beside);
    n
}
