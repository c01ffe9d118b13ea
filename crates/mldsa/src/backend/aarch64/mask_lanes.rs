//! Signing's masks made in the spare lane of the challenge's two-way sponge (NEON, SHAKE sets):
//! the two-lane counterpart of `backend::x86_64::avx2::mask_lanes`.
//!
//! The challenge hash H(mu || w1Encode(w1)) takes 7 permutations in a row (9 for ML-DSA-87)
//! and SampleInBall's SHAKE256(c-tilde) one more (rarely two), and with the SHA-3 instructions
//! a two-way permutation costs what a one-state one does (about 1,690 instructions each under
//! qemu; `keccak.rs`). So both run in lane 0 of one two-way sponge
//! ([`Shake256x2`]) kept for the whole signature, while lane 1 carries an ExpandMask sponge
//! (Algorithm 34, five permutations per polynomial) from one call to the next: 1.6 of the l
//! mask polynomials the next attempt needs (1.8-2 for ML-DSA-87). What is still missing when
//! an attempt starts is made five permutations at a time with lane 0 on a new polynomial too,
//! so no permutation runs with an idle lane but on masks a signature's last attempt leaves made
//! ahead. (On base NEON two states cost 4,340 against 3,690 for one on the portable
//! permutation, and lane 1 still more than makes up for it.)
//!
//! Stream order needs only counts: lane 1 makes the polynomial right after those made, and in
//! a round of [`next_mask`] lane 0 the one after it. Lane 1 has at most five blocks left, so
//! it finishes first, and starts again on the polynomial after lane 0's: those made are always
//! the first of the ring. Squeezed bytes go straight into the ring's slots, unpacked when an
//! attempt takes them.
//!
//! Constant time: every count and branch here depends only on l, the parameter set, the attempt
//! number and how many blocks SampleInBall reads (public: c-tilde is); the mask bytes and the
//! sponge are secret and wiped (slots as they are taken and on drop, the sponge on drop).

use super::Neon;
use super::keccak::Keccak2x;
use super::keccak_shake2x::Shake256x2;
use super::sample::MASK_BLOCKS;
use super::wipe::wipe_bytes;
use crate::backend::PackKernels;
use crate::backend::mask_stream::MaskStream;
use crate::encoding::pack::integer_to_bytes_2;
use crate::hash::keccak::SHAKE256_RATE as RATE;
use crate::hash::sample::sample_in_ball_from;
use crate::math::poly::Poly;
use crate::math::sparse::SparseC;
use crate::params::{Parameters, Zeroed};
use crate::support::declassify::public_mut;
use crate::support::scratch::Scratch;

/// Bytes kept per polynomial: its five squeezed blocks, in whole 64-byte wipe steps.
const SLOT_BYTES: usize = (MASK_BLOCKS * RATE + 63) & !63;

/// Polynomials the ring holds (made, or being made). A round of [`next_mask`] starts with
/// fewer than l <= 7 made and claims two more and lane 1's next: at most l + 2.
const SLOTS: usize = 9;

/// One polynomial's squeezed bytes.
#[repr(C, align(16))]
#[derive(Clone)]
struct MaskSlot([u8; SLOT_BYTES]);

impl MaskSlot {
    /// Zeroes the slot with 16-byte volatile stores.
    fn wipe(&mut self) {
        // SAFETY: NEON is part of every AArch64 CPU (the feature `wipe_bytes` is built for).
        unsafe { wipe_bytes(&mut self.0) }
    }
}

type Slots = [MaskSlot; SLOTS];

impl Zeroed for Slots {
    fn zero() -> Self {
        core::array::from_fn(|_| MaskSlot([0; SLOT_BYTES]))
    }
    #[cfg(feature = "alloc")]
    fn boxed_zeroed() -> alloc::boxed::Box<Self> {
        crate::params::boxed_array(MaskSlot([0; SLOT_BYTES]))
    }
}

/// The two-way sponge and the polynomials it made ahead.
pub(crate) struct MaskLanes {
    sponge: Shake256x2,
    slots: Scratch<Slots>,
    /// The slot of the stream's next polynomial (`MaskStream::next`).
    head: usize,
    /// Polynomials made: slots `head`, `head + 1`, ... (in the ring).
    made: usize,
    /// Whether lane 1 is making a polynomial, in which slot, and how many of its blocks it has
    /// squeezed.
    busy: bool,
    at: usize,
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
        for slot in self.slots.iter_mut() {
            slot.wipe();
        }
        self.head = 0;
        self.made = 0;
        self.busy = false;
        self.at = 0;
        self.squeezed = 0;
    }

    /// The lanes of a stream's signature (the stream's `started` and `lanes`). On its first
    /// use (`started` false) they are set up: the last signature's, wiped, with a new sponge on
    /// `keccak`, or new ones.
    fn ready<'a>(
        keccak: Keccak2x,
        started: &mut bool,
        lanes: &'a mut Option<Self>,
    ) -> &'a mut Self {
        let first = !*started;
        *started = true;
        match lanes {
            Some(lanes) => {
                if first {
                    // Wiped when its last signature ended; the permutation may differ now
                    // (tests switch builds between signatures).
                    lanes.sponge = Shake256x2::empty(keccak);
                }
                lanes
            }
            None => lanes.insert(Self {
                sponge: Shake256x2::empty(keccak),
                slots: Scratch::zeroed(),
                head: 0,
                made: 0,
                busy: false,
                at: 0,
                squeezed: 0,
            }),
        }
    }

    /// Slot `head + i` of the ring (i < 2 SLOTS).
    fn slot(&self, i: usize) -> usize {
        let s = self.head + i;
        if s >= SLOTS { s - SLOTS } else { s }
    }

    /// Makes sponge `lane` a new ExpandMask sponge for stream polynomial `kappa`: rho'' ||
    /// IntegerToBytes(kappa, 2), padded (Algorithm 34 step 3), written straight into the state
    /// (no seed buffer to wipe).
    fn seed(&mut self, lane: usize, rho_pp: &[u8; 64], kappa: u16) {
        self.sponge.clear_lane(lane);
        self.sponge.xor_lane(lane, 0, rho_pp);
        self.sponge.xor_lane(lane, 64, &integer_to_bytes_2(kappa));
        self.sponge.pad_lane(lane, 66);
        tick!(ExpandMask, 1);
    }

    /// Starts lane 1 on the polynomial after those made and `after` more (lane 0's, in a round
    /// of [`next_mask`]), if it is idle and there is room. `next` is the stream's next
    /// polynomial (the one in slot `head`).
    fn start(&mut self, rho_pp: &[u8; 64], next: u16, after: usize) {
        if self.busy || self.made + after >= SLOTS {
            return;
        }
        let offset = self.made + after;
        self.at = self.slot(offset);
        // Signing stays below 2^16 (params.rs); the addition wraps only to keep a test that
        // starts at the top of the counter free of overflow checks.
        self.seed(1, rho_pp, next.wrapping_add(offset as u16));
        self.busy = true;
        self.squeezed = 0;
    }

    /// One two-way permutation (lane 0's caller has XORed in its block, or does not care):
    /// block `b` of lane 0's polynomial goes to slot `s` where `lane0` is `Some((s, b))`, lane
    /// 1's next block to its slot, and once its polynomial is complete it counts as made and
    /// the lane starts on the next.
    fn step(&mut self, rho_pp: &[u8; 64], next: u16, lane0: Option<(usize, usize)>) {
        self.sponge.permute();
        if let Some((s, b)) = lane0 {
            let out = &mut self.slots[s].0[b * RATE..(b + 1) * RATE];
            self.sponge.read_lane(0, out);
        }
        if !self.busy {
            return;
        }
        let b = self.squeezed;
        let out = &mut self.slots[self.at].0[b * RATE..(b + 1) * RATE];
        self.sponge.read_lane(1, out);
        self.squeezed += 1;
        if self.squeezed == MASK_BLOCKS {
            // Lane 1's polynomial is the one after those made (lane 0's, if any, is after it).
            debug_assert_eq!(self.at, self.slot(self.made));
            self.made += 1;
            self.busy = false;
            self.start(rho_pp, next, usize::from(lane0.is_some()));
        }
    }
}

/// y for the next attempt (FIPS 204 Alg. 7 step 11, y = ExpandMask(rho'', kappa) with kappa
/// = `stream.next`): the polynomials the lanes made, and what is missing made now, two at a
/// time (lane 1 finishing or starting the next, lane 0 a new one after it).
///
/// Contract: as [`crate::backend::mask_stream::next_mask_each`], whose y it equals attempt after
/// attempt (whatever [`challenge`] calls come between). Constant time: see the module.
pub(crate) fn next_mask<P: Parameters>(
    keccak: Keccak2x,
    stream: &mut MaskStream,
    rho_pp: &[u8; 64],
    y: &mut [Poly],
) {
    const { assert!(P::L + 2 <= SLOTS) };
    let MaskStream {
        next,
        started,
        lanes,
    } = stream;
    let lanes = MaskLanes::ready(keccak, started, lanes);
    while lanes.made < y.len() {
        lanes.start(rho_pp, *next, 0);
        let offset = lanes.made + usize::from(lanes.busy);
        let slot = lanes.slot(offset);
        lanes.seed(0, rho_pp, next.wrapping_add(offset as u16));
        for b in 0..MASK_BLOCKS {
            lanes.step(rho_pp, *next, Some((slot, b)));
        }
        // Lane 1's polynomial (before lane 0's) was complete by the last step.
        debug_assert_eq!(slot, lanes.slot(lanes.made));
        lanes.made += 1;
    }
    for out in y {
        let slot = &mut lanes.slots[lanes.head];
        Neon.bit_unpack_z::<P>(&slot.0[..32 * P::Z_BITS], out);
        slot.wipe();
        lanes.head = lanes.slot(1);
        lanes.made -= 1;
        // Below 2^16 while signing: (MAX_SIGN_ATTEMPTS + 2) * l is (asserted in params.rs);
        // only a test starting at the top of the counter reaches 2^16, after its last y.
        *next = next.wrapping_add(1);
    }
}

/// c-tilde = H(mu || w1Encode(w1), lambda / 4), declassified (FIPS 204 Alg. 7 step 15), and
/// c = SampleInBall(c-tilde) (step 16), both in lane 0 of the two-way sponge while lane 1
/// makes the stream's next mask polynomials.
///
/// Contract: as [`crate::backend::mask_stream::challenge_scalar`], whose c-tilde and c it equals.
pub(crate) fn challenge<P: Parameters>(
    keccak: Keccak2x,
    stream: &mut MaskStream,
    mu: &[u8; 64],
    w1: &[u8],
    rho_pp: &[u8; 64],
    c_tilde: &mut [u8],
) -> SparseC {
    debug_assert_eq!(w1.len(), P::W1_LEN);
    let next = stream.next;
    let lanes = MaskLanes::ready(keccak, &mut stream.started, &mut stream.lanes);
    lanes.start(rho_pp, next, 0);
    // mu || w1 XORed into lane 0 as it comes, a step per whole block (`at` is 0 or 64 when
    // a part starts: mu is 64 bytes), then the padding and the last step.
    lanes.sponge.clear_lane(0);
    let mut at = 0;
    for mut part in [&mu[..], w1] {
        while !part.is_empty() {
            let (now, rest) = part.split_at(part.len().min(RATE - at));
            lanes.sponge.xor_lane(0, at, now);
            at += now.len();
            part = rest;
            if at == RATE {
                lanes.step(rho_pp, next, None);
                at = 0;
            }
        }
    }
    lanes.sponge.pad_lane(0, at);
    lanes.step(rho_pp, next, None);
    lanes.sponge.read_lane(0, c_tilde);
    // Constant time: c-tilde is a random-oracle output that is published in the signature or
    // discarded with a rejected attempt; FIPS 204 allows it to become public.
    public_mut(c_tilde);

    // SampleInBall's sponge: c-tilde, padded, in lane 0.
    lanes.sponge.clear_lane(0);
    lanes.sponge.xor_lane(0, 0, c_tilde);
    lanes.sponge.pad_lane(0, c_tilde.len());
    sample_in_ball_from::<P>(|block| {
        lanes.step(rho_pp, next, None);
        lanes.sponge.read_lane(0, block);
        // Constant time: SampleInBall's stream is SHAKE256(c-tilde), as public as c-tilde;
        // it branches on these bytes (and on how many blocks it reads).
        public_mut(block);
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::mask_stream::tests as shared;
    use crate::params::{Dilithium2, Dilithium3, Dilithium5, MlDsa44, MlDsa65, MlDsa87};

    /// Base NEON, and the SHA-3 build where the CPU has it.
    fn builds() -> Vec<Keccak2x> {
        let mut all = vec![Keccak2x::neon()];
        if super::super::keccak::has_sha3() {
            all.push(Keccak2x::detect());
        } else {
            eprintln!("SHA-3 mask lanes not tested: this CPU has no SHA-3 instructions");
        }
        all
    }

    /// The shared check ([`shared::attempts_agree`]) on these lanes, on `keccak`.
    fn attempts_agree<P: Parameters>(
        keccak: Keccak2x,
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
            &mut |s, rho_pp, y| next_mask::<P>(keccak, s, rho_pp, y),
            &mut |s, mu, w1, rho_pp, c| challenge::<P>(keccak, s, mu, w1, rho_pp, c),
        );
    }

    fn both_ends<P: Parameters>(keccak: Keccak2x, attempts: u16) {
        shared::both_ends::<P>(attempts, |s, start, n| {
            attempts_agree::<P>(keccak, s, start, n, 1)
        });
    }

    #[test]
    fn masks_and_challenges_equal_the_portable_ones_attempt_after_attempt() {
        for keccak in builds() {
            both_ends::<MlDsa44>(keccak, 30);
            both_ends::<MlDsa65>(keccak, 30);
            both_ends::<MlDsa87>(keccak, 30);
            both_ends::<Dilithium2>(keccak, 10);
            both_ends::<Dilithium3>(keccak, 10);
            both_ends::<Dilithium5>(keccak, 10);
        }
    }

    /// A stream restarted after a signature (as a kept signing scratch is) gives the next
    /// signature the masks and challenges a new stream would, whatever the last one left in its
    /// lanes (attempt counts that stop with masks made ahead and not taken), and its lanes are
    /// wiped in between.
    #[test]
    fn a_restarted_stream_equals_a_new_one() {
        for keccak in builds() {
            let mut stream = MaskStream::new();
            for (sig, attempts) in [(1, 1), (2, 3), (3, 2), (4, 5)] {
                attempts_agree::<MlDsa65>(keccak, &mut stream, 0, attempts, sig);
                stream.restart();
                let lanes = stream.lanes.as_ref().expect("made by the first attempt");
                assert!(!stream.started && stream.next == 0);
                assert!(
                    lanes
                        .slots
                        .iter()
                        .all(|slot| slot.0.iter().all(|&b| b == 0))
                );
                let counts = (lanes.head, lanes.made, lanes.busy, lanes.squeezed);
                assert_eq!(counts, (0, 0, false, 0));
            }
            attempts_agree::<MlDsa87>(keccak, &mut stream, 0, 2, 5);
            stream.restart();
            attempts_agree::<MlDsa44>(keccak, &mut stream, 0, 3, 6);
        }
    }

    /// The backend's overrides are the ones these tests check, for the SHAKE sets.
    #[test]
    fn backend_dispatches_to_the_lanes() {
        use crate::backend::Backend;
        let rho_pp = [7u8; 64];
        let mut stream = MaskStream::new();
        let mut y = [Poly::ZERO; 5];
        Neon.next_mask::<MlDsa65>(&mut stream, &rho_pp, &mut y);
        assert!(stream.lanes.is_some());
    }
}
