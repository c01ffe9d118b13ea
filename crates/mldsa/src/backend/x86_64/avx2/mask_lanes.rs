//! Signing's masks made in the spare lanes of the challenge's four-way sponge (AVX2, SHAKE
//! sets).
//!
//! The challenge hash H(mu || w1Encode(w1)) takes 7 permutations in a row (9 for ML-DSA-87)
//! and SampleInBall's SHAKE256(c-tilde) one more, and on AVX-512VL a four-way permutation
//! costs about what the scalar one does. So both run in lane 0 of one four-way sponge kept for
//! the whole signature, and lanes 1-3 carry three ExpandMask sponges (Algorithm 34, five
//! permutations per polynomial) from one call to the next: 24 lane-permutations per attempt
//! (30 for ML-DSA-87), 4.8 (6) of the l mask polynomials the next attempt needs. What is still
//! missing when an attempt starts is made by permuting with lane 0 idle; the first attempt's
//! first four come from a four-way batch ([`super::sample::expand_mask_polys`]), or, where the
//! eight-way permutation runs and l > 4, the ring is first filled with eight at once
//! ([`crate::backend::x86_64::sample::next_mask`]).
//!
//! The three lanes always make consecutive stream polynomials, started and finished together,
//! right after those already made: stream order needs only counts. Their squeezed bytes go
//! straight into a ring of slots, unpacked when an attempt takes them.
//!
//! Constant time: every count and branch here depends only on l, the parameter set, the attempt
//! number and how many blocks SampleInBall reads (public: c-tilde is); the mask bytes and the
//! sponge are secret and wiped (slots as they are taken and on drop, the sponge on drop).

use super::arith::{SecretBytes, bit_unpack_z, zero_registers};
use super::keccak4x::{Shake256x4, shake_pad};
use super::sample::{MASK_BLOCKS, expand_mask_polys, whole_registers};
use crate::backend::mask_stream::MaskStream;
use crate::backend::x86_64::Keccak4x;
use crate::hash::keccak::SHAKE256_RATE as RATE;
use crate::hash::sample::{sample_in_ball_from, write_seed_66};
use crate::math::poly::Poly;
use crate::math::sparse::SparseC;
use crate::params::{Parameters, Zeroed};
use crate::support::declassify::public_mut;
use crate::support::scratch::Scratch;

/// Bytes kept per polynomial: its five squeezed blocks, in whole 32-byte registers.
const SLOT_BYTES: usize = whole_registers(MASK_BLOCKS * RATE);

/// Polynomials the ring holds (made, or being made by the lanes). The lanes start on three more
/// only while there is room for them, so an attempt's 4.8-6 polynomials fit with what is left
/// of the last one's.
const SLOTS: usize = 9;

/// One polynomial's squeezed bytes.
#[repr(C, align(32))]
#[derive(Clone)]
pub(crate) struct MaskSlot(pub(in crate::backend::x86_64) [u8; SLOT_BYTES]);

/// The ring of [`SLOTS`] slots, and one more where lane 0's blocks go while it hashes (read
/// with the others by the four-lane transpose, and not wanted).
type Slots = [MaskSlot; SLOTS + 1];

impl Zeroed for Slots {
    fn zero() -> Self {
        core::array::from_fn(|_| MaskSlot([0; SLOT_BYTES]))
    }
    #[cfg(feature = "alloc")]
    fn boxed_zeroed() -> alloc::boxed::Box<Self> {
        crate::params::boxed_array(MaskSlot([0; SLOT_BYTES]))
    }
}

/// The four-way sponge and the polynomials its lanes 1-3 made ahead.
pub(crate) struct MaskLanes {
    sponge: Shake256x4,
    pub(in crate::backend::x86_64) slots: Scratch<Slots>,
    /// The slot of the stream's next polynomial (`MaskStream::next`).
    pub(in crate::backend::x86_64) head: usize,
    /// Polynomials made: slots `head`, `head + 1`, ... (in the ring).
    pub(in crate::backend::x86_64) made: usize,
    /// Whether lanes 1-3 are making the three polynomials after those, and how many of their
    /// blocks they have squeezed.
    pub(in crate::backend::x86_64) busy: bool,
    squeezed: usize,
}

impl Drop for MaskLanes {
    fn drop(&mut self) {
        self.wipe();
    }
}

impl MaskLanes {
    /// Wipes the sponge and every slot (masks made ahead and not taken are secret) and empties
    /// the ring, for [`Self::ready`] to set up again.
    pub(crate) fn wipe(&mut self) {
        self.sponge.wipe();
        // SAFETY: `MaskLanes` is only made by `next_mask` and `challenge`, AVX2 kernels that run
        // only after `Avx2::detect` found AVX2; `Slots` is 32-byte aligned and a whole number of
        // 32-byte registers long (`MaskSlot` is), all writable through `self`.
        unsafe { zero_registers(self.slots.as_mut_ptr().cast(), size_of::<Slots>() / 32) }
        self.head = 0;
        self.made = 0;
        self.busy = false;
        self.squeezed = 0;
    }

    /// The lanes of a stream's signature (the stream's `started` and `lanes`). On its first
    /// use (`started` false) they are set up: the last signature's, wiped, with a new sponge on
    /// `keccak`, or new ones; that first use is reported (true).
    #[target_feature(enable = "avx2")]
    pub(in crate::backend::x86_64) fn ready<'a>(
        keccak: Keccak4x,
        started: &mut bool,
        lanes: &'a mut Option<Self>,
    ) -> (&'a mut Self, bool) {
        let first = !*started;
        *started = true;
        let lanes = match lanes {
            Some(lanes) => {
                if first {
                    // Wiped when its last signature ended; the permutation may differ now
                    // (tests switch backends between signatures).
                    lanes.sponge = Shake256x4::new(keccak);
                }
                lanes
            }
            None => lanes.insert(Self::new(keccak)),
        };
        (lanes, first)
    }

    #[target_feature(enable = "avx2")]
    fn new(keccak: Keccak4x) -> Self {
        const { assert!(size_of::<Slots>().is_multiple_of(32)) };
        Self {
            sponge: Shake256x4::new(keccak),
            slots: Scratch::zeroed(),
            head: 0,
            made: 0,
            busy: false,
            squeezed: 0,
        }
    }

    /// Slot `head + i` of the ring (i < 2 SLOTS).
    fn slot(&self, i: usize) -> usize {
        let s = self.head + i;
        if s >= SLOTS { s - SLOTS } else { s }
    }

    /// Starts lanes 1-3 on the three polynomials after those made, if they are idle and there
    /// is room for them. `next` is the stream's next polynomial (the one in slot `head`).
    #[target_feature(enable = "avx2")]
    fn start(&mut self, rho_pp: &[u8; 64], next: u16) {
        if self.busy || self.made + 3 > SLOTS {
            return;
        }
        // rho'' || IntegerToBytes(kappa + r, 2), padded (Algorithm 34 step 3). Signing stays
        // below 2^16 (params.rs); the additions wrap only to keep a test that starts at the top
        // of the counter free of overflow checks. Built in memory that is wiped (made word by
        // word in registers instead, rho'' was spilled to the stack and left there:
        // tests/zeroize_runtime/).
        let first = next.wrapping_add(self.made as u16);
        let mut seeds = SecretBytes::<{ whole_registers(3 * RATE) }>::new();
        let (blocks, _) = seeds.0.as_chunks_mut::<RATE>();
        for (r, seed) in blocks.iter_mut().enumerate() {
            let (head, _) = seed
                .split_first_chunk_mut::<66>()
                .expect("a block holds a seed");
            write_seed_66(head, rho_pp, first.wrapping_add(r as u16));
            shake_pad(seed, 66);
        }
        let word = |block: &[u8; RATE], j: usize| match block.get(8 * j..8 * j + 8) {
            Some(w) => u64::from_le_bytes(w.try_into().expect("8 bytes")),
            None => 0,
        };
        self.sponge.restart_lanes123(|j| {
            [
                word(&blocks[0], j),
                word(&blocks[1], j),
                word(&blocks[2], j),
            ]
        });
        tick!(ExpandMask, 3);
        self.busy = true;
        self.squeezed = 0;
    }

    /// One four-way permutation (lane 0's caller has XORed in its block, or does not care):
    /// lanes 1-3's next blocks go to their slots, and once their polynomials are complete they
    /// count as made and the lanes start on the next three.
    #[target_feature(enable = "avx2")]
    fn step(&mut self, rho_pp: &[u8; 64], next: u16) {
        self.sponge.permute();
        if !self.busy {
            return;
        }
        let at = [
            SLOTS,
            self.slot(self.made),
            self.slot(self.made + 1),
            self.slot(self.made + 2),
        ];
        let [junk, a, b, c] = self
            .slots
            .get_disjoint_mut(at)
            .expect("four distinct slots: the junk slot and three of the ring");
        let mut out: [&mut [u8]; 4] = [&mut junk.0, &mut a.0, &mut b.0, &mut c.0];
        self.sponge.read_block(self.squeezed * RATE, &mut out);
        self.squeezed += 1;
        if self.squeezed == MASK_BLOCKS {
            self.made += 3;
            self.busy = false;
            self.start(rho_pp, next);
        }
    }
}

/// y for the next attempt (FIPS 204 Alg. 7 step 11, y = ExpandMask(rho'', kappa) with kappa
/// = `stream.next`): the polynomials the lanes made, and what is missing made now.
///
/// Contract: as [`crate::backend::mask_stream::next_mask_each`], whose y it equals attempt after
/// attempt (whatever [`challenge`] calls come between). Constant time: see the module.
#[target_feature(enable = "avx2")]
pub(crate) fn next_mask<P: Parameters>(
    keccak: Keccak4x,
    stream: &mut MaskStream,
    rho_pp: &[u8; 64],
    y: &mut [Poly],
) {
    let MaskStream {
        next,
        started,
        lanes,
    } = stream;
    let (lanes, first) = MaskLanes::ready(keccak, started, lanes);
    // The first attempt: nothing made yet, so a four-way batch makes y[..4]. (Where the
    // backend fills the ring at once before this, as `crate::backend::x86_64::sample::next_mask`
    // does with eight, this is not the first use: the ring's polynomials are taken below.)
    let y = if first {
        let (batch, rest) = y.split_at_mut(y.len().min(4));
        expand_mask_polys::<P>(keccak, rho_pp, *next, batch.iter_mut());
        *next = next.wrapping_add(batch.len() as u16);
        rest
    } else {
        y
    };
    while lanes.made < y.len() {
        lanes.start(rho_pp, *next);
        lanes.step(rho_pp, *next);
    }
    for out in y {
        let slot = &mut lanes.slots[lanes.head].0;
        bit_unpack_z::<P>(&slot[..32 * P::Z_BITS], out);
        // SAFETY: AVX2 is present (this is an AVX2 kernel); the slot is 32-byte aligned and
        // SLOT_BYTES (a multiple of 32) bytes long, all writable through `slot`.
        unsafe { zero_registers(slot.as_mut_ptr().cast(), SLOT_BYTES / 32) };
        lanes.head = lanes.slot(1);
        lanes.made -= 1;
        // Below 2^16 while signing: (MAX_SIGN_ATTEMPTS + 2) * l is (asserted in params.rs);
        // only a test starting at the top of the counter reaches 2^16, after its last y.
        *next = next.wrapping_add(1);
    }
}

/// c-tilde = H(mu || w1Encode(w1), lambda / 4), declassified (FIPS 204 Alg. 7 step 15), and
/// c = SampleInBall(c-tilde) (step 16), both in lane 0 of the four-way sponge while lanes 1-3
/// make the stream's next mask polynomials.
///
/// Contract: as [`crate::backend::mask_stream::challenge_scalar`], whose c-tilde and c it equals.
#[target_feature(enable = "avx2")]
pub(crate) fn challenge<P: Parameters>(
    keccak: Keccak4x,
    stream: &mut MaskStream,
    mu: &[u8; 64],
    w1: &[u8],
    rho_pp: &[u8; 64],
    c_tilde: &mut [u8],
) -> SparseC {
    debug_assert_eq!(w1.len(), P::W1_LEN);
    let next = stream.next;
    let (lanes, _) = MaskLanes::ready(keccak, &mut stream.started, &mut stream.lanes);
    // mu || w1, padded: a whole number of blocks (a multiple of the rate gets a block of
    // padding alone).
    let blocks = const { (64 + P::W1_LEN) / RATE + 1 };
    const { assert!((64 + P::W1_LEN) / RATE < 9) };
    let mut padded = SecretBytes::<{ whole_registers(9 * RATE) }>::new();
    let msg = &mut padded.0;
    msg[..64].copy_from_slice(mu);
    msg[64..64 + w1.len()].copy_from_slice(w1);
    shake_pad(&mut msg[..blocks * RATE], 64 + w1.len());

    lanes.sponge.reset_lane0();
    lanes.start(rho_pp, next);
    for block in msg[..blocks * RATE].chunks_exact(RATE) {
        lanes.sponge.xor_block_lane0(block);
        lanes.step(rho_pp, next);
    }
    lanes.sponge.read_lane0(c_tilde);
    // Constant time: c-tilde is a random-oracle output that is published in the signature or
    // discarded with a rejected attempt; FIPS 204 allows it to become public.
    public_mut(c_tilde);

    // SampleInBall's sponge: c-tilde, padded, in lane 0.
    let mut seed = [0u8; RATE];
    seed[..c_tilde.len()].copy_from_slice(c_tilde);
    shake_pad(&mut seed, c_tilde.len());
    lanes.sponge.reset_lane0();
    lanes.sponge.xor_block_lane0(&seed);
    sample_in_ball_from::<P>(|block| {
        lanes.step(rho_pp, next);
        lanes.sponge.read_lane0(block);
        // Constant time: SampleInBall's stream is SHAKE256(c-tilde), as public as c-tilde;
        // it branches on these bytes (and on how many blocks it reads).
        public_mut(block);
    })
    // `padded` is wiped when it drops.
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::mask_stream::tests as shared;
    use crate::backend::x86_64::sample::next_mask;
    use crate::params::{Dilithium2, Dilithium3, Dilithium5, MlDsa44, MlDsa65, MlDsa87};

    /// The shared check ([`shared::attempts_agree`]) on these lanes, on `keccak` (which the
    /// caller checked for AVX2).
    fn attempts_agree_on<P: Parameters>(
        keccak: Keccak4x,
        stream: &mut MaskStream,
        start: u16,
        attempts: u16,
        sig: u64,
    ) {
        shared::attempts_agree::<P>(
            stream,
            start,
            attempts,
            sig,
            // SAFETY: the caller checked for AVX2.
            &mut |s, rho_pp, y| unsafe { next_mask::<P>(keccak, s, rho_pp, y) },
            // SAFETY: as above.
            &mut |s, mu, w1, rho_pp, c| unsafe { challenge::<P>(keccak, s, mu, w1, rho_pp, c) },
        );
    }

    fn both_ends<P: Parameters>(keccak: Keccak4x, attempts: u16) {
        shared::both_ends::<P>(attempts, |s, start, n| {
            attempts_agree_on::<P>(keccak, s, start, n, 1)
        });
    }

    /// A stream restarted after a signature (as a kept signing scratch is) gives the next
    /// signature the masks and challenges a new stream would, whatever the last one left in its
    /// lanes (attempt counts that stop with masks made ahead and not taken), and its lanes are
    /// wiped in between.
    #[test]
    fn a_restarted_stream_equals_a_new_one() {
        if !std::is_x86_feature_detected!("avx2") {
            eprintln!("skipped: this CPU has no AVX2");
            return;
        }
        for (_, keccak) in Keccak4x::all_here() {
            let mut stream = MaskStream::new();
            for (sig, attempts) in [(1, 1), (2, 3), (3, 2), (4, 5)] {
                attempts_agree_on::<MlDsa65>(keccak, &mut stream, 0, attempts, sig);
                stream.restart();
                let lanes = stream.lanes.as_ref().expect("made by the first attempt");
                assert!(!stream.started && stream.next == 0);
                assert!(
                    lanes
                        .slots
                        .iter()
                        .all(|slot| slot.0.iter().all(|&b| b == 0))
                );
                assert_eq!((lanes.head, lanes.made, lanes.busy), (0, 0, false));
            }
            attempts_agree_on::<MlDsa87>(keccak, &mut stream, 0, 2, 5);
        }
    }

    #[test]
    fn masks_and_challenges_equal_the_portable_ones_attempt_after_attempt() {
        if !std::is_x86_feature_detected!("avx2") {
            eprintln!("skipped: this CPU has no AVX2");
            return;
        }
        let attempts = if cfg!(miri) { 3 } else { 40 };
        for (_, keccak) in Keccak4x::all_here() {
            both_ends::<MlDsa44>(keccak, attempts);
            both_ends::<MlDsa65>(keccak, attempts);
            both_ends::<MlDsa87>(keccak, attempts);
            both_ends::<Dilithium2>(keccak, attempts);
            both_ends::<Dilithium3>(keccak, attempts);
            both_ends::<Dilithium5>(keccak, attempts);
        }
    }
}
