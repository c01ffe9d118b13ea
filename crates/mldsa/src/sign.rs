//! Signing (FIPS 204 Algorithm 7), written once for every front door: pure ML-DSA, HashML-DSA,
//! the internal interface, external mu and streaming all arrive here as mu.

use crate::backend::{Backend, with_backend};
use crate::declassify::{public, public_mut};
use crate::encode::sig_encode;
use crate::error::Error;
use crate::expanded::ExpandedSecret;
use crate::field::freeze;
use crate::keccak::shake256;
use crate::params::{ByteArray, MAX_SIGN_ATTEMPTS, MU_LEN, Parameters};
use crate::poly::{NttPoly, Poly};
use crate::sample::sample_in_ball;
use crate::scratch::Scratch;
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

/// Working memory of one signature, zeroised on drop. Buffers are reused between attempts and
/// overwritten in full by each attempt, so nothing from a rejected attempt leaks into the next.
///
/// Each vector is its own [`Scratch`], made zero in place (on the heap under `alloc`): one box
/// for the whole struct would be built on the stack first (up to 63 KiB for ML-DSA-87) and the
/// release profile keeps that slot in the signing frame (ST-1, issue 21).
struct SignScratch<P: Parameters> {
    y: Scratch<P::VecL>,
    /// NTT(y), then c o s1-hat.
    tmp_l: Scratch<P::NttVecL>,
    /// cs1, then z = y + cs1.
    z: Scratch<P::VecL>,
    /// w, then (once w1 and r are made from it) ct0, then r + ct0: sharing the buffer saves a
    /// k-vector of heap, zeroing and wiping per signature.
    w: Scratch<P::VecK>,
    /// w1, then the hint h.
    w1: Scratch<P::VecK>,
    /// A-hat o NTT(y), then c o s2-hat, then c o t0-hat.
    tmp_k: Scratch<P::NttVecK>,
    /// cs2, then r = w - cs2.
    r: Scratch<P::VecK>,
    c: Poly,
    c_hat: NttPoly,
}

impl<P: Parameters> SignScratch<P> {
    fn new() -> Self {
        Self {
            y: Scratch::zeroed(),
            tmp_l: Scratch::zeroed(),
            z: Scratch::zeroed(),
            w: Scratch::zeroed(),
            w1: Scratch::zeroed(),
            tmp_k: Scratch::zeroed(),
            r: Scratch::zeroed(),
            c: Poly::ZERO,
            c_hat: NttPoly::ZERO,
        }
    }
}

impl<P: Parameters> Drop for SignScratch<P> {
    fn drop(&mut self) {
        self.y.zeroize();
        self.tmp_l.zeroize();
        self.z.zeroize();
        self.w.zeroize();
        self.w1.zeroize();
        self.tmp_k.zeroize();
        self.r.zeroize();
        self.c.zeroize();
        self.c_hat.zeroize();
    }
}

/// NTT(s2) and NTT(t0) of an unprepared key, made for one signature; zeroised on drop.
struct SecretHats<P: Parameters> {
    s2_hat: Scratch<P::NttVecK>,
    t0_hat: Scratch<P::NttVecK>,
}

impl<P: Parameters> Drop for SecretHats<P> {
    fn drop(&mut self) {
        self.s2_hat.zeroize();
        self.t0_hat.zeroize();
    }
}

/// NTT^-1 of `a o b` for each pair, centred: the exact small product (|c| < q/2).
fn product_centred<B: Backend>(
    b: B,
    c_hat: &NttPoly,
    v_hat: &[NttPoly],
    tmp: &mut [NttPoly],
    out: &mut [Poly],
) {
    b.scalar_vector_ntt(c_hat, v_hat, tmp);
    for (t_i, o_i) in tmp.iter().zip(out.iter_mut()) {
        b.ntt_inverse(t_i, o_i);
        b.centre_freeze(o_i);
    }
}

/// FIPS 204 Algorithm 7, ML-DSA.Sign_internal, from mu (steps 1-6 are done when the key is
/// loaded and when mu is built).
pub(crate) fn sign_internal<P: Parameters>(
    sk: &ExpandedSecret<P>,
    mu: &[u8; MU_LEN],
    rnd: &[u8; 32],
) -> Result<P::SigBytes, Error> {
    // Step 7: rho'' = H(K || rnd || mu, 64).
    let mut rho_pp = Zeroizing::new([0u8; 64]);
    shake256(&[&sk.k, rnd, mu], rho_pp.as_mut());
    sign_with_rho_pp(sk, mu, &rho_pp, &mut |_| {})
}

/// Steps 5 and 8-33 of FIPS 204 Algorithm 7: the rejection-sampling loop, given mu and the
/// mask seed rho''. (Dilithium v3.1 differs only in how rho'' is made; see `legacy.rs`.)
///
/// Each rejected attempt is reported to `observe` (a test hook; the public paths pass a no-op,
/// which compiles away).
pub(crate) fn sign_with_rho_pp<P: Parameters>(
    sk: &ExpandedSecret<P>,
    mu: &[u8; MU_LEN],
    rho_pp: &[u8; 64],
    observe: &mut impl FnMut(Rejection),
) -> Result<P::SigBytes, Error> {
    with_backend!(|b| sign_with::<P, _>(b, sk, mu, rho_pp, observe))
}

/// [`sign_with_rho_pp`] on backend `b`.
fn sign_with<P: Parameters, B: Backend>(
    b: B,
    sk: &ExpandedSecret<P>,
    mu: &[u8; MU_LEN],
    rho_pp: &[u8; 64],
    observe: &mut impl FnMut(Rejection),
) -> Result<P::SigBytes, Error> {
    // Step 5: A-hat = ExpandA(rho), unless the key is prepared and keeps it. Signing needs it on
    // every attempt; with `alloc` it goes on the heap (up to 56 KiB), keeping signing within a
    // 128 KiB thread stack.
    let mut a_local = None;
    let a_hat: &P::MatrixA = match sk.kept_a_hat() {
        Some(a_hat) => a_hat,
        None => {
            let a_hat = a_local.insert(Scratch::<P::MatrixA>::zeroed());
            b.expand_a::<P>(&sk.rho, a_hat);
            a_hat
        }
    };
    // Steps 3-4 for s2 and t0: a prepared key keeps NTT(s2) and NTT(t0); otherwise they are
    // computed once per signature, by the first attempt that passes the z check (most
    // attempts do not get that far).
    let kept_hats = sk.kept_s2_t0_hat();
    let mut own_hats: Option<SecretHats<P>> = None;

    let s = &mut SignScratch::<P>::new();
    let mut c_tilde = [0u8; 64];
    let c_tilde = &mut c_tilde[..P::C_TILDE_LEN];
    let mut w1_bytes = [0u8; 8 * 32 * 6];
    let w1_bytes = &mut w1_bytes[..P::W1_LEN];

    for attempt in 0..MAX_SIGN_ATTEMPTS {
        // Step 8 and 31: kappa = attempt * l; it stays below 2^16 (asserted in params.rs).
        let kappa = attempt * P::L as u16;

        // Step 11: y = ExpandMask(rho'', kappa).
        b.expand_mask::<P>(rho_pp, kappa, &mut s.y);
        // Steps 12-13: w = NTT^-1(A-hat o NTT(y)), w1 = HighBits(w).
        b.ntt_vec(s.y.as_ref(), s.tmp_l.as_mut());
        b.matrix_vector_ntt(a_hat.as_ref(), s.tmp_l.as_ref(), s.tmp_k.as_mut());
        for (w_hat_i, w_i) in s.tmp_k.as_ref().iter().zip(s.w.as_mut()) {
            b.ntt_inverse(w_hat_i, w_i);
            w_i.caddq();
        }
        b.high_bits_vec::<P>(s.w.as_ref(), s.w1.as_mut());

        // Step 15: c-tilde = H(mu || w1Encode(w1), lambda / 4).
        // Constant time: c-tilde is a random-oracle output that is published in the signature
        // or discarded with a rejected attempt; FIPS 204 allows it to become public, and
        // SampleInBall branches on it.
        b.w1_encode::<P>(s.w1.as_ref(), w1_bytes);
        shake256(&[mu, w1_bytes], c_tilde);
        public_mut(c_tilde);
        // Steps 16-17: c = SampleInBall(c-tilde), c-hat = NTT(c).
        sample_in_ball::<P>(c_tilde, &mut s.c);
        b.ntt(&s.c, &mut s.c_hat);

        // Steps 18-20: cs1, z = y + cs1. The two checks of step 23 are made one at a time, each
        // as soon as its input exists, so that an attempt rejected on z (the most common reason)
        // skips cs2; the result is the same either way.
        product_centred(
            b,
            &s.c_hat,
            sk.s1_hat.as_ref(),
            s.tmp_l.as_mut(),
            s.z.as_mut(),
        );
        for (z_i, y_i) in s.z.as_mut().iter_mut().zip(s.y.as_ref()) {
            z_i.add_assign(y_i);
        }
        // Step 23, first check.
        // Constant time: each check is computed over every coefficient; only its yes/no outcome
        // is revealed, which FIPS 204 permits (a rejected attempt's reason is public).
        if public(b.vec_exceeds(s.z.as_ref(), P::GAMMA1 - P::BETA)) != 0 {
            observe(Rejection::ZBound);
            continue;
        }

        // Constant time: whether an earlier attempt got this far is public (see above).
        let (s2_hat, t0_hat) = match kept_hats {
            Some(hats) => hats,
            None => {
                let own = own_hats.get_or_insert_with(|| {
                    let mut hats = SecretHats::<P> {
                        s2_hat: Scratch::zeroed(),
                        t0_hat: Scratch::zeroed(),
                    };
                    b.ntt_vec(sk.s2.as_ref(), hats.s2_hat.as_mut());
                    b.ntt_vec(sk.t0.as_ref(), hats.t0_hat.as_mut());
                    hats
                });
                (&*own.s2_hat, &*own.t0_hat)
            }
        };

        // Steps 19 and 21: cs2, r0 = LowBits(w - cs2); r is kept reduced into [0, q).
        product_centred(b, &s.c_hat, s2_hat.as_ref(), s.tmp_k.as_mut(), s.r.as_mut());
        b.sub_freeze(s.w.as_ref(), s.r.as_mut());
        // Step 23, second check. Constant time: as the first.
        if public(b.low_bits_exceed::<P>(s.r.as_ref(), P::GAMMA2 - P::BETA)) != 0 {
            observe(Rejection::R0Bound);
            continue;
        }

        // Steps 25-26: ct0 = NTT^-1(c-hat o t0-hat), h = MakeHint(-ct0, w - cs2 + ct0). w is
        // not needed any more (w1 and r are made from it): ct0 goes into its buffer.
        let ct0 = s.w.as_mut();
        product_centred(b, &s.c_hat, t0_hat.as_ref(), s.tmp_k.as_mut(), ct0);
        // Constant time: as for step 23, only the outcome is revealed.
        if public(b.vec_exceeds(ct0, P::GAMMA2)) != 0 {
            observe(Rejection::Ct0Bound);
            continue;
        }
        for (ct0_i, r_i) in ct0.iter_mut().zip(s.r.as_ref()) {
            for (x, r) in ct0_i.0.iter_mut().zip(r_i.0.iter()) {
                *x = freeze(r + *x);
            }
        }
        let hints = b.make_hint_vec::<P>(s.r.as_ref(), ct0, s.w1.as_mut());
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
        public_mut(s.z.as_mut());
        public_mut(s.w1.as_mut());
        let mut sig = P::SigBytes::zeroed();
        sig_encode::<P>(c_tilde, s.z.as_ref(), s.w1.as_ref(), sig.as_mut());
        return Ok(sig);
    }
    Err(Error::SigningAttemptsExhausted {
        attempts: MAX_SIGN_ATTEMPTS,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keygen::keygen_internal;
    use crate::ntt::ntt;
    use crate::params::{MlDsa44, MlDsa65, MlDsa87};

    /// sign_with_rho_pp with observation, rho'' made as ML-DSA makes it, on the process's
    /// backend.
    fn sign_observed<P: Parameters>(
        sk: &ExpandedSecret<P>,
        mu: &[u8; 64],
        rnd: &[u8; 32],
        observe: &mut impl FnMut(Rejection),
    ) -> Result<P::SigBytes, Error> {
        with_backend!(|b| sign_observed_on(b, sk, mu, rnd, observe))
    }

    /// As [`sign_observed`], on backend `b` whatever the process chose.
    fn sign_observed_on<P: Parameters, B: Backend>(
        b: B,
        sk: &ExpandedSecret<P>,
        mu: &[u8; 64],
        rnd: &[u8; 32],
        observe: &mut impl FnMut(Rejection),
    ) -> Result<P::SigBytes, Error> {
        let mut rho_pp = [0u8; 64];
        shake256(&[&sk.k, rnd, mu], &mut rho_pp);
        sign_with(b, sk, mu, &rho_pp, observe)
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

    /// A key whose s1 is far outside [-eta, eta] (impossible through any public constructor)
    /// makes every attempt fail the z check: signing must stop after exactly
    /// MAX_SIGN_ATTEMPTS attempts with a typed error, not loop forever or panic.
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
        let huge = Poly([1 << 20; 256]);
        for s1_hat in sk.s1_hat.as_mut() {
            ntt(&huge, s1_hat);
        }
        let mut attempts = 0u32;
        let result = sign_observed(&sk, &[1; 64], &[2; 32], &mut |r| {
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
        if let Some(avx2) = crate::backend::avx2::Avx2::detect() {
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
        if let Some(avx2) = crate::backend::avx2::Avx2::detect() {
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
        if let Some(avx2) = crate::backend::avx2::Avx2::detect() {
            every_rejection_fires::<MlDsa87, _>(avx2);
        }
    }
}
