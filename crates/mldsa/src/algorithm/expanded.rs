//! The expanded secret key (rho, K, tr, s1, s2, t0) as signing uses it, and its FIPS 204
//! encoding (skEncode / skDecode with strict checks), shared by ML-DSA and the legacy mode.

use crate::algorithm::keygen::{T1T0Scratch, compute_t1_t0};
use crate::algorithm::sign::{KeyTables, SigningSecret};
use crate::backend::{Backend, with_backend};
use crate::encoding::encode::{SkParts, SkVector, pk_encode, sk_decode, sk_decode_each, sk_encode};
use crate::error::{Error, Input, Malformed, check_len};
use crate::hash::keccak::shake256_with;
use crate::math::poly::{Poly, SmallPoly};
use crate::params::{ByteArray, Parameters, TR_LEN};
use crate::support::declassify::public;
use crate::support::scratch::{Held, Reuse, Scratch};
use subtle::{Choice, ConstantTimeEq};
use zeroize::{Zeroize, Zeroizing};

/// The secret key in the form signing uses: FIPS 204's (rho, K, tr, s1, s2, t0), all in
/// coefficient form (s1 and s2 in 8 bits a coefficient): signing multiplies them by the sparse
/// challenge c directly ([`crate::math::sparse`]), so FIPS 204 Alg. 7 steps 2-4 (NTT(s1), NTT(s2),
/// NTT(t0)) are not needed.
///
/// Zeroised on drop.
pub(crate) struct ExpandedSecret<P: Parameters> {
    /// The seed xi the key was expanded from, if it was (keys imported from the expanded
    /// encoding have none). Kept here, with the rest of the secret, so that it lives where the
    /// secret lives (on the heap under `alloc`: see [`SecretBox`]).
    pub seed: Option<[u8; 32]>,
    pub rho: [u8; 32],
    pub k: [u8; 32],
    /// tr; only the first `P::TR_BYTES` bytes are used (the rest stay zero).
    pub tr: [u8; TR_LEN],
    // The vectors are each their own `Scratch` (on the heap under `alloc`), made zero in place:
    // a key built whole and then boxed would pass through the stack (up to 23 KiB, ST-1).
    /// s1, coefficients in [-eta, eta].
    pub s1: Scratch<P::SmallVecL>,
    /// s2, coefficients in [-eta, eta].
    pub s2: Scratch<P::SmallVecK>,
    /// t0, coefficients in (-2^(d-1), 2^(d-1)].
    pub t0: Scratch<P::VecK>,
    /// A-hat, kept once the key is prepared.
    #[cfg(feature = "alloc")]
    pub prepared: Option<alloc::boxed::Box<PreparedMatrix<P>>>,
}

/// What signing needs beyond the key's own parts: ExpandA(rho) (FIPS 204 Alg. 7 step 5;
/// public, derived from rho). A prepared key keeps it; otherwise it is made for one signature.
/// (The public `PublicMatrix` (`keys`) holds the same for the ML-DSA sets' one-shot signers;
/// this one serves every set, the legacy ones included, and is filled in place.)
pub(crate) struct PreparedMatrix<P: Parameters> {
    // Made zero in place (on the heap under `alloc`: 56 KiB for ML-DSA-87).
    pub a_hat: Scratch<P::MatrixA>,
}

impl<P: Parameters> PreparedMatrix<P> {
    /// All zero, to be filled in place.
    pub(crate) fn zeroed() -> Self {
        Self {
            a_hat: Scratch::zeroed(),
        }
    }

    /// All zero, on the heap, to be filled in place.
    #[cfg(feature = "alloc")]
    fn boxed() -> alloc::boxed::Box<Self> {
        alloc::boxed::Box::new(Self::zeroed())
    }

    /// Fills the matrix from rho (FIPS 204 Alg. 7 step 5).
    pub(crate) fn fill<B: Backend>(&mut self, b: B, rho: &[u8; 32]) {
        b.expand_a::<P>(rho, &mut self.a_hat);
    }
}

/// An [`ExpandedSecret`] where signing keys keep it: in a heap block under `alloc` (built and
/// filled in place there), so that moving a key moves a pointer, never the secret. Returning a
/// key by value, or moving it into a struct, would otherwise leave a stale copy of K, s1, s2 and
/// t0 in a dead stack frame that no `Drop` can reach (Z-1, found by tests/zeroize_runtime/).
/// Without `alloc` the secret stays inline and such copies are possible.
pub(crate) type SecretBox<P> = Scratch<ExpandedSecret<P>>;

impl<P: Parameters> ExpandedSecret<P> {
    /// An all-zero key in its [`SecretBox`], to be filled in place.
    pub(crate) fn boxed() -> SecretBox<P> {
        Scratch::new(Self::zeroed())
    }

    /// A copy of the key, made in place in a new [`SecretBox`] (`Clone` would build it on the
    /// stack and move it).
    pub(crate) fn clone_boxed(&self) -> SecretBox<P> {
        let mut copy = Self::boxed();
        copy.seed = self.seed;
        copy.rho = self.rho;
        copy.k = self.k;
        copy.tr = self.tr;
        copy.s1.as_mut().copy_from_slice(self.s1.as_ref());
        copy.s2.as_mut().copy_from_slice(self.s2.as_ref());
        copy.t0.as_mut().copy_from_slice(self.t0.as_ref());
        #[cfg(feature = "alloc")]
        if let Some(kept) = &self.prepared {
            let into = copy.prepared.insert(PreparedMatrix::boxed());
            into.a_hat.as_mut().clone_from_slice(kept.a_hat.as_ref());
        }
        copy
    }
}

impl<P: Parameters> Drop for ExpandedSecret<P> {
    fn drop(&mut self) {
        self.seed.zeroize();
        self.k.zeroize();
        self.s1.zeroize();
        self.s2.zeroize();
        self.t0.zeroize();
    }
}

impl<P: Parameters> ExpandedSecret<P> {
    /// An all-zero key, to be filled in place (so that secrets are never moved).
    pub(crate) fn zeroed() -> Self {
        Self {
            seed: None,
            rho: [0; 32],
            k: [0; 32],
            tr: [0; TR_LEN],
            s1: Scratch::zeroed(),
            s2: Scratch::zeroed(),
            t0: Scratch::zeroed(),
            #[cfg(feature = "alloc")]
            prepared: None,
        }
    }

    /// Expands A-hat once, keeping it on the heap, so signing skips ExpandA (Alg. 7 step 5).
    #[cfg(feature = "alloc")]
    pub(crate) fn prepare(&mut self) {
        if self.prepared.is_none() {
            // Filled in place on the heap.
            let mut kept = PreparedMatrix::<P>::boxed();
            with_backend!(|b| kept.fill(b, &self.rho));
            self.prepared = Some(kept);
        }
    }

    /// The tables a prepared key keeps.
    fn kept(&self) -> Option<&PreparedMatrix<P>> {
        #[cfg(feature = "alloc")]
        return self.prepared.as_deref();
        #[cfg(not(feature = "alloc"))]
        None
    }
}

impl<P: Parameters> SigningSecret<P> for ExpandedSecret<P> {
    fn k(&self) -> &[u8; 32] {
        &self.k
    }

    fn with_tables<B: Backend, R>(&self, b: B, sign: impl FnOnce(&KeyTables<'_, P>) -> R) -> R {
        let own;
        let tables = match self.kept() {
            Some(kept) => kept,
            None => {
                let mut made = PreparedMatrix::<P>::zeroed();
                made.fill(b, &self.rho);
                own = made;
                &own
            }
        };
        sign(&KeyTables::new(&*self.s1, &*self.s2, &*self.t0, tables))
    }
}

/// An expanded secret key decoded for one signature, as the reference API's `crypto_sign` on
/// key bytes uses it: rho, K, tr, s1, s2 and t0, in coefficient form as signing reads them (s1
/// and s2 in 8 bits a coefficient). A-hat comes separately ([`OneShotSecret::signer`]), from a
/// `PublicMatrix` (`keys`) the caller keeps or one expanded for the signature.
///
/// With no seed and no public key, and the smaller signing scratch, ML-DSA-87's one-shot
/// signing takes about 117 KiB of heap (was about 150; 119 before s1 and s2 were kept in 8 bits
/// instead of NTT form, 111 before signing made masks ahead of their attempt; t0 in coefficient
/// form, since 2026-11-27, takes what NTT(t0) took), under 128 KiB, glibc's default trim
/// threshold:
/// above it, each signature handed the top of the heap back to the kernel on free and took it
/// again on the next (about 3 `brk` calls and the page faults of refilling it, per signature;
/// median time 30 % higher). `tests/heap_peak.rs` keeps it there (118 KiB measured on
/// 2026-11-28). That is the first signature on a thread: under `std` a thread keeps this and
/// the signing scratch, wiped, for its next signature ([`Held`]), which then allocates only
/// A-hat, if the caller has no matrix.
///
/// Zeroised on drop.
pub(crate) struct OneShotSecret<P: Parameters> {
    pub rho: [u8; 32],
    pub k: [u8; 32],
    /// tr; only the first `P::TR_BYTES` bytes are used (the rest stay zero).
    pub tr: [u8; TR_LEN],
    s1: Scratch<P::SmallVecL>,
    s2: Scratch<P::SmallVecK>,
    t0: Scratch<P::VecK>,
}

impl<P: Parameters> OneShotSecret<P> {
    /// FIPS 204 skDecode (strict ranges: length, s1 and s2 in [-eta, eta]); tr and t0 are used
    /// as given and no public key is derived, as ML-DSA.Sign on the encoding does. Held as
    /// [`Scratch`] (on the heap under `alloc`, built in place), so K is not left in a dead
    /// stack frame. Errors name the signing key.
    pub(crate) fn decode(bytes: &[u8]) -> Result<Held<Self>, Error> {
        check_len(Input::SigningKey, bytes, P::SK_LEN)?;
        // Under `std` the one this thread decoded its last key into, wiped (see `Held`):
        // skDecode writes every field that is read.
        let mut secret = Held::new(|| {
            Scratch::new(Self {
                rho: [0; 32],
                k: [0; 32],
                tr: [0; TR_LEN],
                s1: Scratch::zeroed(),
                s2: Scratch::zeroed(),
                t0: Scratch::zeroed(),
            })
        });
        let s = &mut *secret;
        with_backend!(|b| {
            sk_decode_each::<P, _>(b, bytes, &mut s.rho, &mut s.k, &mut s.tr, |vector, i, p| {
                match vector {
                    SkVector::S1 => s.s1.as_mut()[i].set(p),
                    SkVector::S2 => s.s2.as_mut()[i].set(p),
                    SkVector::T0 => s.t0.as_mut()[i] = *p,
                }
            })
        })
        .map_err(|what| Error::Malformed {
            input: Input::SigningKey,
            what,
        })?;
        Ok(secret)
    }

    /// The key with `a_hat`, which must be ExpandA(rho) of this key, ready to sign.
    pub(crate) fn signer<'a>(&'a self, a_hat: &'a P::MatrixA) -> OneShotSigner<'a, P> {
        OneShotSigner {
            secret: self,
            a_hat,
        }
    }
}

impl<P: Parameters> Drop for OneShotSecret<P> {
    fn drop(&mut self) {
        self.wipe();
    }
}

impl<P: Parameters> Reuse for OneShotSecret<P> {
    fn wipe(&mut self) {
        self.k.zeroize();
        self.s1.zeroize();
        self.s2.zeroize();
        self.t0.zeroize();
    }
}

/// A [`OneShotSecret`] with its A-hat: what one-shot signing signs with.
pub(crate) struct OneShotSigner<'a, P: Parameters> {
    secret: &'a OneShotSecret<P>,
    a_hat: &'a P::MatrixA,
}

impl<P: Parameters> SigningSecret<P> for OneShotSigner<'_, P> {
    fn k(&self) -> &[u8; 32] {
        &self.secret.k
    }

    fn with_tables<B: Backend, R>(&self, _: B, sign: impl FnOnce(&KeyTables<'_, P>) -> R) -> R {
        let s = self.secret;
        sign(&KeyTables::from_parts(self.a_hat, &*s.s1, &*s.s2, &*s.t0))
    }
}

/// Coefficient-form secrets while importing or exporting, zeroised on drop (each vector made
/// zero in place, on the heap under `alloc`).
struct CoefficientScratch<P: Parameters> {
    s1: Scratch<P::VecL>,
    s2: Scratch<P::VecK>,
    t0_derived: Scratch<P::VecK>,
}

impl<P: Parameters> CoefficientScratch<P> {
    fn zeroed() -> Self {
        Self {
            s1: Scratch::zeroed(),
            s2: Scratch::zeroed(),
            t0_derived: Scratch::zeroed(),
        }
    }
}

impl<P: Parameters> Drop for CoefficientScratch<P> {
    fn drop(&mut self) {
        self.s1.zeroize();
        self.s2.zeroize();
        self.t0_derived.zeroize();
    }
}

/// `small` := `wide`, polynomial by polynomial (s1 or s2, in [-eta, eta]).
fn to_small(wide: &[Poly], small: &mut [SmallPoly]) {
    for (p, s) in wide.iter().zip(small.iter_mut()) {
        s.set(p);
    }
}

/// `wide` := `small`, polynomial by polynomial.
fn to_wide(small: &[SmallPoly], wide: &mut [Poly]) {
    for (s, p) in small.iter().zip(wide.iter_mut()) {
        s.get(p);
    }
}

impl<P: Parameters> ExpandedSecret<P> {
    /// FIPS 204 skDecode (strict ranges) of `bytes` (exactly `P::SK_LEN` long) into `self`, in
    /// place (so a heap-held key is never on the stack), keeping s1 and s2 as [`Poly`] in `s`
    /// for the caller's checks.
    fn decode_into(
        &mut self,
        bytes: &[u8],
        s: &mut CoefficientScratch<P>,
    ) -> Result<(), Malformed> {
        debug_assert_eq!(bytes.len(), P::SK_LEN);
        let secret = self;
        with_backend!(|b| sk_decode::<P, _>(
            b,
            bytes,
            &mut secret.rho,
            &mut secret.k,
            &mut secret.tr,
            s.s1.as_mut(),
            s.s2.as_mut(),
            secret.t0.as_mut(),
        ))?;
        to_small(s.s1.as_ref(), secret.s1.as_mut());
        to_small(s.s2.as_ref(), secret.s2.as_mut());
        Ok(())
    }

    /// FIPS 204 skDecode (strict) of `bytes` (exactly `P::SK_LEN` long) into `self` (in
    /// place), then the public key the secret determines (Alg. 6 steps 3-8), written to `pk`. With `check_consistency`, tr
    /// and t0 must also equal the values recomputed from rho, s1 and s2.
    ///
    /// Constant time: range and consistency checks run in full over all coefficients; only the
    /// verdict on a malformed key is revealed.
    pub(crate) fn decode(
        &mut self,
        bytes: &[u8],
        check_consistency: bool,
        pk: &mut P::PkBytes,
    ) -> Result<(), Malformed> {
        let s = &mut CoefficientScratch::<P>::zeroed();
        self.decode_into(bytes, s)?;
        let secret = &*self;
        let mut t1 = Scratch::<P::VecK>::zeroed();
        with_backend!(|b| compute_t1_t0::<P, _>(
            b,
            &mut T1T0Scratch::zeroed(),
            &secret.rho,
            &s.s1,
            &secret.s2,
            &mut t1,
            &mut s.t0_derived
        ));
        pk_encode(&secret.rho, t1.as_ref(), pk.as_mut());

        if check_consistency {
            let mut tr = [0u8; TR_LEN];
            shake256_with(
                crate::backend::keccak(),
                &[pk.as_ref()],
                &mut tr[..P::TR_BYTES],
            );
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
            // Constant time: as above, only the verdict.
            if !public(bool::from(t0_equal)) {
                return Err(Malformed::T0Mismatch);
            }
        }
        Ok(())
    }

    /// FIPS 204 skEncode of the key into `out` (`P::SK_LEN` bytes), in place: the caller owns
    /// the buffer, so no copy of the encoding is left behind by returning it.
    pub(crate) fn encode_into(&self, out: &mut [u8]) {
        let s = &mut CoefficientScratch::<P>::zeroed();
        to_wide(self.s1.as_ref(), s.s1.as_mut());
        to_wide(self.s2.as_ref(), s.s2.as_mut());
        let parts = SkParts {
            rho: &self.rho,
            k: &self.k,
            tr: &self.tr[..P::TR_BYTES],
            s1: s.s1.as_ref(),
            s2: s.s2.as_ref(),
            t0: self.t0.as_ref(),
        };
        sk_encode::<P>(&parts, out);
    }

    /// FIPS 204 skEncode of the key; secret, zeroised when the wrapper drops.
    pub(crate) fn encode(&self) -> Zeroizing<P::SkBytes> {
        let mut out = Zeroizing::new(P::SkBytes::zeroed());
        self.encode_into(out.as_mut());
        out
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The decoded key this thread kept after one-shot signing (`Held`): K, s1, s2 and t0
    /// zero. Panics if none is kept.
    pub(crate) fn assert_kept_secret_wiped<P: Parameters>() {
        let kept = crate::support::spare::take::<OneShotSecret<P>>().expect("kept by the thread");
        assert_eq!(kept.k, [0; 32]);
        assert!(kept.s1.as_ref().iter().all(|p| *p == SmallPoly::ZERO));
        assert!(kept.s2.as_ref().iter().all(|p| *p == SmallPoly::ZERO));
        assert!(kept.t0.as_ref().iter().all(|p| *p == Poly::ZERO));
    }
}
