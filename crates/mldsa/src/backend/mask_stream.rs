//! Where the signing loop's masks and challenges come from (FIPS 204 Alg. 7 steps 11, 15, 16).
//!
//! Attempt a's mask y is polynomials a l .. a l + l - 1 of one stream (kappa = a l, and
//! ExpandMask's y\[r\] is stream polynomial kappa + r), so a backend may make polynomials before
//! the attempt that uses them. The AVX2 backend does: the challenge hash and SampleInBall's sponge
//! run in lane 0 of a four-way sponge whose lanes 1-3 make the next mask polynomials meanwhile
//! (`backend::x86_64::avx2::mask_lanes`). The others make each attempt's y when it starts
//! ([`next_mask_each`]) and hash with the scalar sponge ([`challenge_scalar`]).

use crate::backend::Backend;
use crate::hash::keccak::shake256_with;
use crate::hash::sample::sample_in_ball;
use crate::math::poly::Poly;
use crate::math::sparse::SparseC;
use crate::params::Parameters;
use crate::support::declassify::public_mut;

/// The mask stream of one signature.
pub(crate) struct MaskStream {
    /// The first stream polynomial not yet handed out: kappa of the next attempt.
    pub(crate) next: u16,
    /// AVX2 (SHAKE sets): whether this signature's first attempt has set `lanes` up.
    #[cfg(target_arch = "x86_64")]
    pub(crate) started: bool,
    /// AVX2 (SHAKE sets): the four-way sponge and what its lanes made ahead (secret; wiped on
    /// drop and by [`Self::restart`]). Made by the first attempt of the first signature, and
    /// reused, wiped, by the next signatures of a kept scratch (`scratch::Held`).
    #[cfg(target_arch = "x86_64")]
    pub(crate) lanes: Option<crate::backend::x86_64::avx2::mask_lanes::MaskLanes>,
}

impl MaskStream {
    pub(crate) fn new() -> Self {
        Self {
            next: 0,
            #[cfg(target_arch = "x86_64")]
            started: false,
            #[cfg(target_arch = "x86_64")]
            lanes: None,
        }
    }

    /// The stream of a new signature: wipes what the lanes hold (the sponge, the masks made
    /// ahead), keeping their memory for the next first attempt.
    pub(crate) fn restart(&mut self) {
        self.next = 0;
        #[cfg(target_arch = "x86_64")]
        {
            self.started = false;
            if let Some(lanes) = &mut self.lanes {
                lanes.wipe();
            }
        }
    }
}

/// y = ExpandMask(rho'', kappa) with kappa = `stream.next` (FIPS 204 Alg. 7 step 11), made when
/// the attempt starts; the stream moves on by l.
pub(crate) fn next_mask_each<P: Parameters, B: Backend>(
    b: B,
    stream: &mut MaskStream,
    rho_pp: &[u8; 64],
    y: &mut [Poly],
) {
    b.expand_mask_polys::<P>(rho_pp, stream.next, y.iter_mut());
    // Below 2^16 while signing: (MAX_SIGN_ATTEMPTS + 2) * l is (asserted in params.rs);
    // only a test starting at the top of the counter reaches 2^16, after its last y.
    stream.next = stream.next.wrapping_add(y.len() as u16);
}

/// c-tilde = H(mu || w1Encode(w1), lambda / 4) (FIPS 204 Alg. 7 step 15), declassified, and
/// c = SampleInBall(c-tilde) (step 16), with the scalar sponge.
pub(crate) fn challenge_scalar<P: Parameters>(
    mu: &[u8; 64],
    w1: &[u8],
    c_tilde: &mut [u8],
) -> SparseC {
    let keccak = crate::backend::keccak();
    shake256_with(keccak, &[mu, w1], c_tilde);
    // Constant time: c-tilde is a random-oracle output that is published in the signature or
    // discarded with a rejected attempt; FIPS 204 allows it to become public, and SampleInBall
    // branches on it.
    public_mut(c_tilde);
    sample_in_ball::<P>(keccak, c_tilde)
}
