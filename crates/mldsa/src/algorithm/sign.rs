//! Signing (FIPS 204 Algorithm 7), written once for every front door: pure ML-DSA, HashML-DSA,
//! the internal interface, external mu and streaming all arrive here as mu.

use crate::algorithm::expanded::PreparedMatrix;
use crate::backend::mask_stream::MaskStream;
use crate::backend::{Backend, with_backend};
use crate::backend::{mul_ct0, mul_secret};
use crate::encoding::encode::sig_encode;
use crate::error::Error;
use crate::hash::keccak::shake256_with;
use crate::math::field::freeze;
use crate::math::poly::{NttPoly, Poly};
use crate::math::sparse::SparseScratch;
use crate::params::{ByteArray, MAX_SIGN_ATTEMPTS, MU_LEN, Parameters};
use crate::support::declassify::{public, public_mut};
use crate::support::scratch::{Held, Reuse, Scratch};
use zeroize::{Zeroize, Zeroizing};

/// Why one signing attempt was rejected (FIPS 204 Alg. 7 steps 23 and 28).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Rejection {
    /// ||z||_inf >= gamma1 - beta.
    ZBound,
    /// ||r0||_inf >= gamma2 - beta.
    R0Bound,
    /// ||ct0||_inf >= gamma2.
    Ct0Bound,
    /// More than omega hints.
    TooManyHints,
}

/// What the signing loop reads from the key: A-hat (FIPS 204 Alg. 7 step 5 done), and s1, s2
/// and t0 in coefficient form. Steps 2-4 (NTT(s1), NTT(s2), NTT(t0)) are skipped: c s1, c s2
/// and c t0 are computed from c's few nonzero coefficients ([`crate::math::sparse`]), which is
/// cheaper than a pointwise product and NTT^-1 each, and spares the NTTs of the key.
pub(crate) struct KeyTables<'a, P: Parameters> {
    a_hat: &'a P::MatrixA,
    s1: &'a P::SmallVecL,
    s2: &'a P::SmallVecK,
    t0: &'a P::VecK,
}

impl<'a, P: Parameters> KeyTables<'a, P> {
    /// A key's s1, s2 and t0 with the matrix a prepared key keeps (or that was made for it).
    pub(crate) fn new(
        s1: &'a P::SmallVecL,
        s2: &'a P::SmallVecK,
        t0: &'a P::VecK,
        tables: &'a PreparedMatrix<P>,
    ) -> Self {
        Self::from_parts(&tables.a_hat, s1, s2, t0)
    }

    pub(crate) fn from_parts(
        a_hat: &'a P::MatrixA,
        s1: &'a P::SmallVecL,
        s2: &'a P::SmallVecK,
        t0: &'a P::VecK,
    ) -> Self {
        Self { a_hat, s1, s2, t0 }
    }
}

/// A secret key in a form signing can use: a key object's
/// [`crate::algorithm::expanded::ExpandedSecret`] (prepared or not),
/// or a [`crate::algorithm::expanded::OneShotSecret`] decoded for one signature, with its A-hat.
pub(crate) trait SigningSecret<P: Parameters> {
    /// K, the seed of the mask.
    fn k(&self) -> &[u8; 32];

    /// Runs `sign` with the key's [`KeyTables`], making (and afterwards wiping) what the key
    /// does not keep.
    fn with_tables<B: Backend, R>(&self, b: B, sign: impl FnOnce(&KeyTables<'_, P>) -> R) -> R;
}

/// Working memory of one signature, zeroised on drop. Buffers are reused between attempts and
/// overwritten in full by each attempt, so nothing from a rejected attempt leaks into the next.
///
/// The polynomials are two [`Scratch`] blocks, made zero in place (on the heap under `alloc`),
/// that [`SignScratch::buffers`] cuts into the vectors: one box for the whole struct would be
/// built on the stack first (up to 63 KiB for ML-DSA-87) and the release profile keeps that
/// slot in the signing frame (ST-1, issue 21), and one box per vector (as until stop 31) cost
/// an allocation and a free of about 8 KiB each, 150-200 ns a pair on glibc, five more per
/// signature. Products that are used one polynomial at a time go through `t_hat` and `t`
/// instead of whole vectors: with the reuse noted in [`SignBuffers`], that is 40 KiB for
/// ML-DSA-87 instead of 53 (see [`crate::algorithm::expanded::OneShotSecret`] for why the heap peak
/// matters).
struct SignScratch<P: Parameters> {
    /// y, w, w1, r and t, in that order.
    polys: Scratch<P::SignPolys>,
    /// y-hat and t-hat.
    ntt_polys: Scratch<P::SignNttPolys>,
    masks: MaskStream,
    /// The sparse products' working memory (3 KiB).
    sparse: Scratch<SparseScratch>,
}

/// A [`SignScratch`] cut into the signing loop's buffers.
struct SignBuffers<'a> {
    /// y, then z = y + cs1 (a rejected attempt's y is not needed again).
    y: &'a mut [Poly],
    /// Where y comes from.
    masks: &'a mut MaskStream,
    /// NTT(y).
    y_hat: &'a mut [NttPoly],
    /// w, then (once w1 and r are made from it) ct0, then r + ct0.
    w: &'a mut [Poly],
    /// w1, then the hint h.
    w1: &'a mut [Poly],
    /// cs2, then r = w - cs2.
    r: &'a mut [Poly],
    /// One polynomial of A-hat o NTT(y) (a one-element slice).
    t_hat: &'a mut [NttPoly],
    /// One polynomial of cs1 (as `t_hat`).
    t: &'a mut [Poly],
    sparse: &'a mut SparseScratch,
}

impl<P: Parameters> SignScratch<P> {
    fn new() -> Self {
        Self {
            polys: Scratch::zeroed(),
            ntt_polys: Scratch::zeroed(),
            masks: MaskStream::new(),
            sparse: Scratch::new(SparseScratch::ZERO),
        }
    }

    /// The buffers, cut from the two blocks by the set's k and l.
    fn buffers(&mut self) -> SignBuffers<'_> {
        let (y, rest) = self.polys.as_mut().split_at_mut(P::L);
        let (w, rest) = rest.split_at_mut(P::K);
        let (w1, rest) = rest.split_at_mut(P::K);
        let (r, t) = rest.split_at_mut(P::K);
        let (y_hat, t_hat) = self.ntt_polys.as_mut().split_at_mut(P::L);
        debug_assert_eq!((t.len(), t_hat.len()), (1, 1));
        SignBuffers {
            y,
            masks: &mut self.masks,
            y_hat,
            w,
            w1,
            r,
            t_hat,
            t,
            sparse: &mut self.sparse,
        }
    }
}

impl<P: Parameters> Drop for SignScratch<P> {
    fn drop(&mut self) {
        self.polys.zeroize();
        self.ntt_polys.zeroize();
        // `sparse` and `masks` wipe themselves on drop.
    }
}

/// Reused as it was left (under `std`, see [`Held`]): every attempt overwrites the buffers
/// before reading them, and the mask stream is made new.
impl<P: Parameters> Reuse for SignScratch<P> {
    fn wipe(&mut self) {
        self.polys.zeroize();
        self.ntt_polys.zeroize();
        self.sparse.zeroize();
        self.masks.restart();
    }
}

/// NTT^-1 of `c_hat o v_hat` into `out`, centred: the exact small product (|c| < q/2). `tmp`
/// holds the NTT-domain product (ScalarVectorNTT, FIPS 204 Algorithm 47, one entry at a time).
/// What the sparse products of [`crate::math::sparse`] replace in signing; their tests check against
/// it.
#[cfg(test)]
pub(crate) fn product_centred<B: Backend>(
    b: B,
    c_hat: &NttPoly,
    v_hat: &NttPoly,
    tmp: &mut NttPoly,
    out: &mut Poly,
) {
    b.scalar_vector_ntt(
        c_hat,
        core::slice::from_ref(v_hat),
        core::slice::from_mut(tmp),
    );
    b.ntt_inverse(tmp, out);
    b.centre_freeze(out);
}

/// FIPS 204 Algorithm 7, ML-DSA.Sign_internal, from mu (steps 1-6 are done when the key is
/// loaded and when mu is built).
pub(crate) fn sign_internal<P: Parameters>(
    sk: &impl SigningSecret<P>,
    mu: &[u8; MU_LEN],
    rnd: &[u8; 32],
) -> Result<P::SigBytes, Error> {
    // Step 7: rho'' = H(K || rnd || mu, 64).
    let mut rho_pp = Zeroizing::new([0u8; 64]);
    shake256_with(
        crate::backend::keccak(),
        &[sk.k(), rnd, mu],
        rho_pp.as_mut(),
    );
    sign_with_rho_pp(sk, mu, &rho_pp, &mut |_| {})
}

/// Steps 5 and 8-33 of FIPS 204 Algorithm 7: the rejection-sampling loop, given mu and the
/// mask seed rho''. (Dilithium v3.1 differs only in how rho'' is made; see `legacy.rs`.)
///
/// Each rejected attempt is reported to `observe` (a test hook; the public paths pass a no-op,
/// which compiles away).
pub(crate) fn sign_with_rho_pp<P: Parameters>(
    sk: &impl SigningSecret<P>,
    mu: &[u8; MU_LEN],
    rho_pp: &[u8; 64],
    observe: &mut impl FnMut(Rejection),
) -> Result<P::SigBytes, Error> {
    // The caller has just made rho'' with SHAKE256, whose permutation left its last state
    // (rho'' itself, lane by lane) in its dead frame, below the caller's: wipe it before the
    // signing loop moves the stack elsewhere (Z-1 found it there after prepared-key signing,
    // where no ExpandA runs in between to overwrite it).
    crate::backend::scrub_stack();
    with_backend!(|b| sk.with_tables(b, |key| sign_with::<P, _>(b, key, mu, rho_pp, observe)))
}

/// [`sign_with_rho_pp`] on backend `b`. Never inlined: the loop's frame then stands alone
/// (one per backend) rather than being merged into its callers', which kept the stack of
/// each signing entry point at the largest of them (ST-1).
#[inline(never)]
fn sign_with<P: Parameters, B: Backend>(
    b: B,
    key: &KeyTables<'_, P>,
    mu: &[u8; MU_LEN],
    rho_pp: &[u8; 64],
    observe: &mut impl FnMut(Rejection),
) -> Result<P::SigBytes, Error> {
    let mut scratch = Held::new(|| Scratch::new(SignScratch::<P>::new()));
    let s = &mut scratch.buffers();
    let mut c_tilde = [0u8; 64];
    let c_tilde = &mut c_tilde[..P::C_TILDE_LEN];
    let mut w1_bytes = [0u8; 8 * 32 * 6];
    let w1_bytes = &mut w1_bytes[..P::W1_LEN];

    'attempts: for _ in 0..MAX_SIGN_ATTEMPTS {
        // Steps 8, 11 and 31: y = ExpandMask(rho'', kappa), kappa = attempt * l (below 2^16:
        // asserted in params.rs).
        b.next_mask::<P>(s.masks, rho_pp, s.y);
        // Steps 12-13: w = NTT^-1(A-hat o NTT(y)), a row at a time; w1 = HighBits(w).
        b.ntt_vec(s.y, s.y_hat);
        for (row, w_i) in key.a_hat.as_ref().iter().zip(s.w.iter_mut()) {
            b.matrix_vector_ntt(core::slice::from_ref(row), s.y_hat, s.t_hat);
            b.ntt_inverse_nonneg(&s.t_hat[0], w_i);
        }
        b.high_bits_vec::<P>(s.w, s.w1);

        // Steps 15-16: c-tilde = H(mu || w1Encode(w1), lambda / 4), declassified (see
        // `mask_stream::challenge_scalar`), and c = SampleInBall(c-tilde), as its tau nonzero
        // terms. (Step 17, c-hat = NTT(c), is not needed: the three products with c below are
        // made from its terms.)
        b.w1_encode::<P>(s.w1, w1_bytes);
        let c = b.challenge::<P>(s.masks, mu, w1_bytes, rho_pp, c_tilde);

        // Steps 18-20 and the first check of step 23, a polynomial at a time: cs1, z = y + cs1
        // (in y's buffer), and ||z||_inf < gamma1 - beta, so that an attempt rejected on z (the
        // most common reason) stops at the first polynomial out of bounds, skipping the rest of
        // cs1 and all of cs2. The result is the same as checking the whole vector.
        for (s1_i, z_i) in key.s1.as_ref().iter().zip(s.y.iter_mut()) {
            mul_secret::<P, B>(b, &c, s1_i, s.sparse, &mut s.t[0]);
            z_i.add_assign(&s.t[0]);
            // Constant time: the check is computed over every coefficient of the polynomial;
            // only its yes/no outcome is revealed, and with it which polynomial of a rejected
            // z failed first. Neither depends on the key: with y uniform in (-gamma1, gamma1]
            // and |cs1| <= beta, each coefficient of z is out of bounds with probability
            // (2 beta + 1) / (2 gamma1) whatever cs1 is (FIPS 204 permits revealing why an
            // attempt was rejected; the reference code reveals even the coefficient).
            let z_out = b.vec_exceeds(core::slice::from_ref(z_i), P::GAMMA1 - P::BETA);
            if public(z_out) != 0 {
                observe(Rejection::ZBound);
                continue 'attempts;
            }
        }

        // Steps 19, 21 and the second check of step 23, a polynomial at a time as above: cs2,
        // r = w - cs2 (kept reduced into [0, q)) and ||LowBits(r)||_inf < gamma2 - beta.
        for ((s2_i, r_i), w_i) in key.s2.as_ref().iter().zip(s.r.iter_mut()).zip(s.w.iter()) {
            mul_secret::<P, B>(b, &c, s2_i, s.sparse, r_i);
            b.sub_freeze(core::slice::from_ref(w_i), core::slice::from_mut(r_i));
            // Constant time: as the first check. Which polynomial failed first is revealed;
            // w = A y is indistinguishable from uniform (MLWE), so whether a coefficient of
            // LowBits(w - cs2) is out of bounds does not depend on s2 either.
            let r0_out = b.low_bits_exceed::<P>(core::slice::from_ref(r_i), P::GAMMA2 - P::BETA);
            if public(r0_out) != 0 {
                observe(Rejection::R0Bound);
                continue 'attempts;
            }
        }

        // Steps 25-26: ct0 = c t0 (exact, so already centred: NTT^-1(c-hat o t0-hat) of step
        // 25), h = MakeHint(-ct0, w - cs2 + ct0). w is not needed any more (w1 and r are made
        // from it): ct0 goes into its buffer.
        let ct0 = &mut *s.w;
        for (t0_i, ct0_i) in key.t0.as_ref().iter().zip(ct0.iter_mut()) {
            mul_ct0(b, &c, t0_i, s.sparse, ct0_i);
        }
        // Constant time: as for step 23, only the outcome is revealed.
        if public(b.vec_exceeds(ct0, P::GAMMA2)) != 0 {
            observe(Rejection::Ct0Bound);
            continue;
        }
        for (ct0_i, r_i) in ct0.iter_mut().zip(s.r.iter()) {
            for (x, r) in ct0_i.0.iter_mut().zip(r_i.0.iter()) {
                *x = freeze(r + *x);
            }
        }
        let hints = b.make_hint_vec::<P>(s.r, ct0, s.w1);
        // Step 28. Constant time: only "too many" is revealed (the count itself becomes public
        // with h only if the signature is accepted). hints <= 256 k < 2^31, so the subtraction
        // wraps, setting the top bit, exactly when hints > omega.
        let too_many = (P::OMEGA as u32).wrapping_sub(hints) >> 31;
        if public(too_many) != 0 {
            observe(Rejection::TooManyHints);
            continue;
        }

        // Step 33: sigma = sigEncode(c-tilde, z mod+- q, h). z is already centred.
        // Constant time: the accepted signature's z and h are public (they are in it);
        // HintBitPack branches on h.
        let z = &mut *s.y;
        public_mut(z);
        public_mut(s.w1);
        let mut sig = P::SigBytes::zeroed();
        sig_encode::<P, B>(b, c_tilde, z, s.w1, sig.as_mut());
        scrub_kernel_frames();
        return Ok(sig);
    }
    scrub_kernel_frames();
    Err(Error::SigningAttemptsExhausted {
        attempts: MAX_SIGN_ATTEMPTS,
    })
}

/// Overwrites the dead frames of the kernels [`sign_with`] called directly (those not inlined
/// into it: the backend's target-feature functions). Unoptimised builds keep every vector
/// temporary in those frames, so the sparse products leave copies of s1, s2 and t0 there (Z-1:
/// `tests/zeroize_runtime/` found 16-byte windows of s2 after signing on AVX-512 once the
/// deeper NTT path no longer ran after them). Called by `sign_with` itself, so the wiped area
/// starts just below its frame, where theirs were.
#[inline(always)]
fn scrub_kernel_frames() {
    crate::backend::scrub_stack();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algorithm::expanded::ExpandedSecret;
    use crate::algorithm::keygen::keygen_internal;
    use crate::params::{MlDsa44, MlDsa65, MlDsa87};

    /// sign_with_rho_pp with observation, rho'' made as ML-DSA makes it, on backend `b`.
    fn sign_observed_on<P: Parameters, B: Backend>(
        b: B,
        sk: &ExpandedSecret<P>,
        mu: &[u8; 64],
        rnd: &[u8; 32],
        observe: &mut impl FnMut(Rejection),
    ) -> Result<P::SigBytes, Error> {
        let mut rho_pp = [0u8; 64];
        crate::hash::keccak::shake256(&[&sk.k, rnd, mu], &mut rho_pp);
        sk.with_tables(b, |key| sign_with(b, key, mu, &rho_pp, observe))
    }

    /// A thread keeps its last signature's scratch and decoded key for the next one
    /// (`scratch::Held`): both kept wiped, and reused without changing any signature.
    #[test]
    fn what_a_thread_keeps_after_signing_is_wiped() {
        type P = MlDsa65;
        std::thread::spawn(|| {
            let key = crate::SigningKey::<P>::from_seed(&[9; 32]);
            let bytes = key.to_expanded_bytes();
            let mut sigs = Vec::new();
            for m in 0..3u8 {
                let sig =
                    crate::SigningKey::<P>::sign_with_expanded(bytes.as_ref(), &[m], b"", &[m; 32]);
                sigs.push(sig.expect("signs"));
            }
            let scratch =
                crate::support::spare::take::<SignScratch<P>>().expect("kept by the thread");
            assert!(scratch.polys.as_ref().iter().all(|p| *p == Poly::ZERO));
            assert!(
                scratch
                    .ntt_polys
                    .as_ref()
                    .iter()
                    .all(|p| *p == NttPoly(Poly::ZERO.0))
            );
            let sparse = &*scratch.sparse;
            assert!(sparse.tiny.iter().all(|&x| x == 0) && sparse.small.iter().all(|&x| x == 0));
            assert!(sparse.acc.iter().all(|&x| x == 0) && sparse.acc8.iter().all(|&x| x == 0));
            assert_eq!(scratch.masks.next, 0);
            crate::algorithm::expanded::tests::assert_kept_secret_wiped::<P>();
            // A new scratch (none kept now) signs the same as the kept ones did.
            drop(scratch);
            let again =
                crate::SigningKey::<P>::sign_with_expanded(bytes.as_ref(), &[2], b"", &[2; 32]);
            assert_eq!(again.expect("signs").as_bytes(), sigs[2].as_bytes());
        })
        .join()
        .expect("no panic");
    }

    /// Signs until each rejection reason has fired, using keys whose t0 is overwritten (still
    /// a valid expanded key, just not one KeyGen makes) to reach the rare ct0 and hint-count
    /// rejections.
    ///
    /// The ct0 check can only fire when tau * 2^(d-1) >= gamma2, because ||ct0|| <= ||c||_1 *
    /// ||t0|| = tau * 2^(d-1): that holds for ML-DSA-44 only (159744 vs 95232); for ML-DSA-65
    /// and -87 the check is provably dead (200704 < 261888 and 245760 < 261888), and the test
    /// asserts that it never fires there.
    fn every_rejection_fires<P: Parameters, B: Backend + core::fmt::Debug>(b: B) {
        let ct0_reachable = P::TAU as i32 * (1 << (crate::params::D - 1)) >= P::GAMMA2;
        let mut seen = [false; 4];
        let mut pk = P::PkBytes::zeroed();
        // t0 patterns: as generated; +-4095 with pseudorandom signs (large ct0); constant
        // (moderate ct0, many hints).
        for round in 0..6u32 {
            let mut sk = ExpandedSecret::<P>::zeroed();
            keygen_internal::<P>(&[round as u8; 32], &mut pk, &mut sk);
            let mut t0 = Poly::ZERO;
            let mut x = round.wrapping_mul(2_654_435_761);
            for c in t0.0.iter_mut() {
                x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                *c = match round {
                    0 => continue,
                    1..=3 => {
                        if x >> 31 == 1 {
                            4095
                        } else {
                            -4095
                        }
                    }
                    _ => 1000 * round as i32 - 2000,
                };
            }
            if round != 0 {
                for t0_i in sk.t0.as_mut() {
                    *t0_i = t0;
                }
            }
            for m in 0..30u8 {
                let _ = sign_observed_on(b, &sk, &[m; 64], &[round as u8; 32], &mut |r| {
                    seen[r as usize] = true;
                });
            }
        }
        assert_eq!(
            seen,
            [true, true, ct0_reachable, true],
            "{} ({b:?}): z, r0, ct0, hint-count rejections seen",
            P::NAME
        );
    }

    /// A backend whose norm check always says "too large": every attempt fails the z check.
    /// (The other kernels are the portable ones.)
    #[derive(Clone, Copy, Debug)]
    struct RejectEverything;

    impl crate::backend::PackKernels for RejectEverything {
        fn vec_exceeds(self, _: &[Poly], _: i32) -> u32 {
            1
        }
    }

    impl Backend for RejectEverything {}

    /// When every attempt is rejected (here by a backend whose norm check always fails: no
    /// valid key can force it, and s1 and s2 are held in 8 bits, so a key with a huge s1 no
    /// longer can either), signing must stop after exactly MAX_SIGN_ATTEMPTS attempts with a
    /// typed error, not loop forever or panic.
    #[test]
    #[cfg_attr(
        miri,
        ignore = "hundreds of signing attempts: hours under Miri; run natively"
    )]
    fn signing_loop_is_bounded() {
        type P = MlDsa44;
        let mut pk = <P as Parameters>::PkBytes::zeroed();
        let mut sk = ExpandedSecret::<P>::zeroed();
        keygen_internal::<P>(&[7; 32], &mut pk, &mut sk);
        let mut attempts = 0u32;
        let result = sign_observed_on(RejectEverything, &sk, &[1; 64], &[2; 32], &mut |r| {
            assert_eq!(r, Rejection::ZBound);
            attempts += 1;
        });
        assert_eq!(
            result,
            Err(Error::SigningAttemptsExhausted {
                attempts: MAX_SIGN_ATTEMPTS
            })
        );
        assert_eq!(attempts, MAX_SIGN_ATTEMPTS as u32);
    }

    /// F-9, on each backend (the AVX2 norm and hint kernels decide three of the four checks).
    #[test]
    #[cfg_attr(
        miri,
        ignore = "hundreds of signing attempts: hours under Miri; run natively"
    )]
    fn every_rejection_fires_44() {
        every_rejection_fires::<MlDsa44, _>(crate::backend::Portable);
        #[cfg(target_arch = "x86_64")]
        if let Some(avx2) = crate::backend::x86_64::Avx2::detect() {
            every_rejection_fires::<MlDsa44, _>(avx2);
        }
    }

    /// F-9, on each backend (the AVX2 norm and hint kernels decide three of the four checks).
    #[test]
    #[cfg_attr(
        miri,
        ignore = "hundreds of signing attempts: hours under Miri; run natively"
    )]
    fn every_rejection_fires_65() {
        every_rejection_fires::<MlDsa65, _>(crate::backend::Portable);
        #[cfg(target_arch = "x86_64")]
        if let Some(avx2) = crate::backend::x86_64::Avx2::detect() {
            every_rejection_fires::<MlDsa65, _>(avx2);
        }
    }

    /// F-9, on each backend (the AVX2 norm and hint kernels decide three of the four checks).
    #[test]
    #[cfg_attr(
        miri,
        ignore = "hundreds of signing attempts: hours under Miri; run natively"
    )]
    fn every_rejection_fires_87() {
        every_rejection_fires::<MlDsa87, _>(crate::backend::Portable);
        #[cfg(target_arch = "x86_64")]
        if let Some(avx2) = crate::backend::x86_64::Avx2::detect() {
            every_rejection_fires::<MlDsa87, _>(avx2);
        }
    }
}
