//! Where the signing loop's masks and challenges come from (FIPS 204 Alg. 7 steps 11, 15, 16).
//!
//! Attempt a's mask y is polynomials a l .. a l + l - 1 of one stream (kappa = a l, and
//! ExpandMask's y\[r\] is stream polynomial kappa + r), so a backend may make polynomials before
//! the attempt that uses them. The AVX2 and NEON backends do (SHAKE sets): the challenge hash and
//! SampleInBall's sponge run in lane 0 of a multi-way sponge whose other lanes make the next mask
//! polynomials meanwhile: lanes 1-3 of a four-way one on AVX2
//! (`backend::x86_64::avx2::mask_lanes`), lane 1 of a two-way one on NEON, which also makes what
//! is still missing when an attempt starts two at a time (`backend::aarch64::mask_lanes`). The
//! others make each attempt's y when it starts ([`next_mask_each`]) and hash with the scalar
//! sponge ([`challenge_scalar`]).

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
    /// AVX2, NEON (SHAKE sets): whether this signature's first attempt has set `lanes` up.
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    pub(crate) started: bool,
    /// AVX2 (SHAKE sets): the four-way sponge and what its lanes made ahead (secret; wiped on
    /// drop and by [`Self::restart`]). Made by the first attempt of the first signature, and
    /// reused, wiped, by the next signatures of a kept scratch (`scratch::Held`).
    #[cfg(target_arch = "x86_64")]
    pub(crate) lanes: Option<crate::backend::x86_64::avx2::mask_lanes::MaskLanes>,
    /// NEON (SHAKE sets): the two-way sponge and what it made ahead, as on AVX2.
    #[cfg(target_arch = "aarch64")]
    pub(crate) lanes: Option<crate::backend::aarch64::mask_lanes::MaskLanes>,
}

impl MaskStream {
    pub(crate) fn new() -> Self {
        Self {
            next: 0,
            #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
            started: false,
            #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
            lanes: None,
        }
    }

    /// The stream of a new signature: wipes what the lanes hold (the sponge, the masks made
    /// ahead), keeping their memory for the next first attempt.
    pub(crate) fn restart(&mut self) {
        self.next = 0;
        #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
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

/// The check the backends' mask-lane tests share: their `next_mask` and `challenge` against
/// [`next_mask_each`]'s y (the portable ExpandMask) and [`challenge_scalar`], attempt after
/// attempt. (Only the x86-64 and AArch64 backends have mask lanes.)
#[cfg(all(test, any(target_arch = "x86_64", target_arch = "aarch64")))]
pub(crate) mod tests {
    use super::*;

    /// A backend's `next_mask` (stream, rho'', y).
    pub(crate) type NextMask<'a> = &'a mut dyn FnMut(&mut MaskStream, &[u8; 64], &mut [Poly]);
    /// A backend's `challenge` (stream, mu, w1, rho'', c-tilde).
    pub(crate) type Challenge<'a> =
        &'a mut dyn FnMut(&mut MaskStream, &[u8; 64], &[u8], &[u8; 64], &mut [u8]) -> SparseC;

    /// Reproducible pseudo-random test bytes: SHAKE256(label || counter).
    fn test_bytes<const LEN: usize>(label: &str, counter: u64) -> [u8; LEN] {
        let mut out = [0u8; LEN];
        crate::hash::keccak::shake256(&[label.as_bytes(), &counter.to_le_bytes()], &mut out);
        out
    }

    /// Attempts from stream polynomial `start` on, on `stream` (new, or restarted after another
    /// signature's attempts), with the seeds of signature `sig`: each y equals ExpandMask(rho'',
    /// kappa) and each c-tilde and c the scalar ones, attempt after attempt (the lanes' state
    /// carried across them).
    pub(crate) fn attempts_agree<P: Parameters>(
        stream: &mut MaskStream,
        start: u16,
        attempts: u16,
        sig: u64,
        next_mask: NextMask<'_>,
        challenge: Challenge<'_>,
    ) {
        let rho_pp: [u8; 64] = test_bytes(P::NAME, 2 * sig - 1);
        let mu: [u8; 64] = test_bytes(P::NAME, 2 * sig);
        stream.next = start;
        let (mut y, mut expect) = ([Poly::ZERO; 8], [Poly::ZERO; 8]);
        for a in 0..attempts {
            let (y, expect) = (&mut y[..P::L], &mut expect[..P::L]);
            let kappa = start + a * P::L as u16;
            next_mask(stream, &rho_pp, y);
            crate::hash::sample::expand_mask_polys::<P>(&rho_pp, kappa, expect.iter_mut());
            assert!(y == expect, "{}: y of attempt {a} from {start}", P::NAME);
            // (At the top of the counter the last attempt's `next` is 2^16, which wraps.)
            assert_eq!(stream.next, kappa.wrapping_add(P::L as u16));

            let w1: Vec<u8> = test_bytes::<2048>("w1", a.into())[..P::W1_LEN].to_vec();
            let (mut c_tilde, mut expect_c) = ([0u8; 64], [0u8; 64]);
            let len = P::C_TILDE_LEN;
            let c = challenge(stream, &mu, &w1, &rho_pp, &mut c_tilde[..len]);
            let expect_sparse = challenge_scalar::<P>(&mu, &w1, &mut expect_c[..len]);
            assert_eq!(c_tilde, expect_c, "{}: c-tilde of attempt {a}", P::NAME);
            let (mut got, mut want) = (Poly::ZERO, Poly::ZERO);
            c.write_poly(&mut got);
            expect_sparse.write_poly(&mut want);
            assert!(got == want, "{}: c of attempt {a}", P::NAME);
        }
    }

    /// `check(stream, start, attempts)` (a backend's [`attempts_agree`]) for one set on new
    /// streams from 0, and for its last attempts below 2^16 (F-9: the last y ends at kappa + r
    /// = 2^16 - 1).
    pub(crate) fn both_ends<P: Parameters>(
        attempts: u16,
        check: impl Fn(&mut MaskStream, u16, u16),
    ) {
        check(&mut MaskStream::new(), 0, attempts);
        let top = 4;
        check(
            &mut MaskStream::new(),
            u16::MAX - top * P::L as u16 + 1,
            top,
        );
    }
}
