//! The expanded secret key (rho, K, tr, s1, s2, t0) as signing uses it, and its FIPS 204
//! encoding (skEncode / skDecode with strict checks), shared by ML-DSA and the legacy mode.

use crate::backend::{Backend, with_backend};
use crate::declassify::public;
use crate::encode::{SkParts, pk_encode, sk_decode, sk_encode};
use crate::error::Malformed;
use crate::field::{caddq, center, montgomery_reduce};
use crate::keccak::shake256;
use crate::keygen::compute_t1_t0;
use crate::ntt::ntt_inverse;
use crate::params::{ByteArray, Parameters, PolyVec, TR_LEN};
use crate::poly::{NttPoly, Poly};
use crate::scratch::Scratch;
use subtle::{Choice, ConstantTimeEq};
use zeroize::{Zeroize, Zeroizing};

/// The secret key in the form signing uses: FIPS 204's (rho, K, tr, s1, s2, t0), with s1 already
/// in the NTT domain (Alg. 7 step 2 done once, not per signature; key generation computes it
/// anyway). s2 and t0 stay in coefficient form until the key is prepared: key generation and
/// import then cost 2k NTTs less, and signing with an unprepared key transforms them once per
/// signature, only when an attempt gets that far.
///
/// Zeroised on drop.
pub(crate) struct ExpandedSecret<P: Parameters> {
    pub rho: [u8; 32],
    pub k: [u8; 32],
    /// tr; only the first `P::TR_BYTES` bytes are used (the rest stay zero).
    pub tr: [u8; TR_LEN],
    pub s1_hat: P::NttVecL,
    /// s2, coefficients in [-eta, eta].
    pub s2: P::VecK,
    /// t0, coefficients in (-2^(d-1), 2^(d-1)].
    pub t0: P::VecK,
    /// A-hat, NTT(s2) and NTT(t0), kept once the key is prepared.
    #[cfg(feature = "alloc")]
    pub prepared: Option<alloc::boxed::Box<PreparedSecret<P>>>,
}

/// What [`ExpandedSecret::prepare`] computes once so that signing does not repeat it:
/// ExpandA(rho) (public: derived from rho), NTT(s2) and NTT(t0) (secret).
pub(crate) struct PreparedSecret<P: Parameters> {
    pub a_hat: P::MatrixA,
    pub s2_hat: P::NttVecK,
    pub t0_hat: P::NttVecK,
}

impl<P: Parameters> Clone for PreparedSecret<P> {
    fn clone(&self) -> Self {
        Self {
            a_hat: self.a_hat.clone(),
            s2_hat: self.s2_hat.clone(),
            t0_hat: self.t0_hat.clone(),
        }
    }
}

impl<P: Parameters> Drop for PreparedSecret<P> {
    fn drop(&mut self) {
        self.s2_hat.zeroize();
        self.t0_hat.zeroize();
    }
}

impl<P: Parameters> Clone for ExpandedSecret<P> {
    fn clone(&self) -> Self {
        Self {
            rho: self.rho,
            k: self.k,
            tr: self.tr,
            s1_hat: self.s1_hat.clone(),
            s2: self.s2.clone(),
            t0: self.t0.clone(),
            #[cfg(feature = "alloc")]
            prepared: self.prepared.clone(),
        }
    }
}

impl<P: Parameters> Drop for ExpandedSecret<P> {
    fn drop(&mut self) {
        self.k.zeroize();
        self.s1_hat.zeroize();
        self.s2.zeroize();
        self.t0.zeroize();
    }
}

impl<P: Parameters> ExpandedSecret<P> {
    /// An all-zero key, to be filled in place (so that secrets are never moved).
    pub(crate) fn zeroed() -> Self {
        Self {
            rho: [0; 32],
            k: [0; 32],
            tr: [0; TR_LEN],
            s1_hat: P::NttVecL::zeroed(),
            s2: P::VecK::zeroed(),
            t0: P::VecK::zeroed(),
            #[cfg(feature = "alloc")]
            prepared: None,
        }
    }

    /// Expands A-hat and transforms s2 and t0 once, keeping them on the heap, so signing skips
    /// ExpandA (Alg. 7 step 5) and the NTTs of steps 3-4.
    #[cfg(feature = "alloc")]
    pub(crate) fn prepare(&mut self) {
        if self.prepared.is_none() {
            use crate::params::Matrix;
            // Built in place on the heap (the box is zeroed first), never on the stack.
            let mut kept = alloc::boxed::Box::new(PreparedSecret::<P> {
                a_hat: P::MatrixA::zeroed(),
                s2_hat: P::NttVecK::zeroed(),
                t0_hat: P::NttVecK::zeroed(),
            });
            with_backend!(|b| {
                b.expand_a::<P>(&self.rho, &mut kept.a_hat);
                b.ntt_vec(self.s2.as_ref(), kept.s2_hat.as_mut());
                b.ntt_vec(self.t0.as_ref(), kept.t0_hat.as_mut());
            });
            self.prepared = Some(kept);
        }
    }

    /// ExpandA(rho), if the key is prepared.
    pub(crate) fn kept_a_hat(&self) -> Option<&P::MatrixA> {
        #[cfg(feature = "alloc")]
        return self.prepared.as_deref().map(|p| &p.a_hat);
        #[cfg(not(feature = "alloc"))]
        None
    }

    /// (NTT(s2), NTT(t0)), if the key is prepared.
    pub(crate) fn kept_s2_t0_hat(&self) -> Option<(&P::NttVecK, &P::NttVecK)> {
        #[cfg(feature = "alloc")]
        return self.prepared.as_deref().map(|p| (&p.s2_hat, &p.t0_hat));
        #[cfg(not(feature = "alloc"))]
        None
    }
}

/// The coefficients of a polynomial from its NTT, centred: the exact inverse of [`ntt`] for
/// polynomials with small coefficients (|c| < q/2).
pub(crate) fn from_ntt_centred(hat: &NttPoly, out: &mut Poly) {
    // ntt_inverse multiplies by 2^32 (see ntt.rs); one Montgomery reduction divides it out.
    let mut reduced = *hat;
    reduced.reduce();
    ntt_inverse(&reduced, out);
    for c in out.0.iter_mut() {
        *c = center(caddq(montgomery_reduce(*c as i64)));
    }
    reduced.zeroize();
}

/// Recovers s1 in coefficient form from the NTT-domain secret, for skEncode.
pub(crate) fn secret_s1<P: Parameters>(sk: &ExpandedSecret<P>, s1: &mut P::VecL) {
    for (hat, p) in sk.s1_hat.as_ref().iter().zip(s1.as_mut()) {
        from_ntt_centred(hat, p);
    }
}

/// Coefficient-form secrets while importing or exporting, zeroised on drop.
struct CoefficientScratch<P: Parameters> {
    s1: P::VecL,
    t0_derived: P::VecK,
}

impl<P: Parameters> CoefficientScratch<P> {
    fn zeroed() -> Self {
        Self {
            s1: P::VecL::zeroed(),
            t0_derived: P::VecK::zeroed(),
        }
    }
}

impl<P: Parameters> Drop for CoefficientScratch<P> {
    fn drop(&mut self) {
        self.s1.zeroize();
        self.t0_derived.zeroize();
    }
}

impl<P: Parameters> ExpandedSecret<P> {
    /// FIPS 204 skDecode (strict ranges) of `bytes` (exactly `P::SK_LEN` long) into `self`, in
    /// place (so a heap-held key is never on the stack), keeping s1's coefficient form in `s`
    /// for the caller's checks.
    fn decode_into(
        &mut self,
        bytes: &[u8],
        s: &mut CoefficientScratch<P>,
    ) -> Result<(), Malformed> {
        debug_assert_eq!(bytes.len(), P::SK_LEN);
        let secret = self;
        sk_decode::<P>(
            bytes,
            &mut secret.rho,
            &mut secret.k,
            &mut secret.tr,
            s.s1.as_mut(),
            secret.s2.as_mut(),
            secret.t0.as_mut(),
        )?;
        with_backend!(|b| b.ntt_vec(s.s1.as_ref(), secret.s1_hat.as_mut()));
        Ok(())
    }

    /// FIPS 204 skDecode (strict ranges) only: tr and t0 are taken as given and no public key
    /// is derived, as ML-DSA.Sign on the encoding does. The key is held as [`Scratch`] (on the
    /// heap under `alloc`), so one-shot signing also fits a 128 KiB stack.
    pub(crate) fn decode_for_signing(bytes: &[u8]) -> Result<Scratch<Self>, Malformed> {
        let mut secret = Scratch::new(Self::zeroed());
        secret.decode_into(bytes, &mut Scratch::new(CoefficientScratch::<P>::zeroed()))?;
        Ok(secret)
    }

    /// FIPS 204 skDecode (strict) of `bytes` (exactly `P::SK_LEN` long), then the public key
    /// the secret determines (Alg. 6 steps 3-8), written to `pk`. With `check_consistency`, tr
    /// and t0 must also equal the values recomputed from rho, s1 and s2.
    ///
    /// Constant time: range and consistency checks run in full over all coefficients; only the
    /// verdict on a malformed key is revealed.
    pub(crate) fn decode(
        bytes: &[u8],
        check_consistency: bool,
        pk: &mut P::PkBytes,
    ) -> Result<Self, Malformed> {
        let mut held = Scratch::new(CoefficientScratch::<P>::zeroed());
        let s = &mut *held;
        let mut secret = Self::zeroed();
        secret.decode_into(bytes, s)?;
        let mut t1 = P::VecK::zeroed();
        with_backend!(|b| compute_t1_t0::<P, _>(
            b,
            &secret.rho,
            &secret.s1_hat,
            &secret.s2,
            &mut t1,
            &mut s.t0_derived
        ));
        pk_encode(&secret.rho, t1.as_ref(), pk.as_mut());

        if check_consistency {
            let mut tr = [0u8; TR_LEN];
            shake256(&[pk.as_ref()], &mut tr[..P::TR_BYTES]);
            // Constant time: only the verdict on a malformed key is revealed (both checks).
            if !public(bool::from(tr.ct_eq(&secret.tr))) {
                return Err(Malformed::TrMismatch);
            }
            let t0_equal = secret
                .t0
                .as_ref()
                .iter()
                .zip(s.t0_derived.as_ref())
                .fold(Choice::from(1), |acc, (a, b)| acc & a.0[..].ct_eq(&b.0[..]));
            if !public(bool::from(t0_equal)) {
                return Err(Malformed::T0Mismatch);
            }
        }
        Ok(secret)
    }

    /// FIPS 204 skEncode of the key; secret, zeroised when the wrapper drops.
    pub(crate) fn encode(&self) -> Zeroizing<P::SkBytes> {
        let mut held = Scratch::new(CoefficientScratch::<P>::zeroed());
        let s = &mut *held;
        secret_s1::<P>(self, &mut s.s1);
        let mut out = Zeroizing::new(P::SkBytes::zeroed());
        let parts = SkParts {
            rho: &self.rho,
            k: &self.k,
            tr: &self.tr[..P::TR_BYTES],
            s1: s.s1.as_ref(),
            s2: self.s2.as_ref(),
            t0: self.t0.as_ref(),
        };
        sk_encode::<P>(&parts, out.as_mut());
        out
    }
}
