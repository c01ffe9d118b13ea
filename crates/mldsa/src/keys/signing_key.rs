//! [`SigningKey`]: an ML-DSA private key, and every way to sign with it.

use crate::algorithm::expanded::{ExpandedSecret, OneShotSecret, SecretBox};
use crate::algorithm::keygen::keygen_internal;
use crate::algorithm::mu::{MuBuilder, internal_mu, pure_mu};
use crate::algorithm::prehash::PreHashed;
use crate::algorithm::sign::sign_internal;
use crate::error::{Error, Input, check_len};
use crate::keys::matrix::{PublicMatrix, expand_a};
use crate::keys::rng;
use crate::keys::sig::Signature;
use crate::keys::verifying_key::VerifyingKey;
use crate::params::{ByteArray, MU_LEN, ParameterSet, SEED_LEN};
use core::fmt;
use rand_core::TryCryptoRng;
use zeroize::{ZeroizeOnDrop, Zeroizing};

/// An ML-DSA signing (private) key of parameter set `P`.
///
/// Holds the 32-byte seed xi when the key was made from one (the seed *is* the private key:
/// FIPS 204 section 3.6.3, and RFC 9881's preferred storage form), and caches the expanded form
/// signing needs (K, tr, s1 and s2 as bytes, t0) together with the verifying key. All
/// secret parts are zeroised on drop. Keys that sign many messages should be
/// [prepared](SigningKey::prepare).
///
/// Signing is hedged by default (fresh randomness mixed with the key and message, FIPS 204
/// section 3.4); [`SigningKey::sign_deterministic`] exists for protocols and tests that need it.
pub struct SigningKey<P: ParameterSet> {
    /// The seed (if any) and the expanded secret, on the heap under `alloc` (see [`SecretBox`]).
    secret: SecretBox<P>,
    vk: VerifyingKey<P>,
    /// Verify each new signature before releasing it (fault countermeasure; off by default).
    verify_after_sign: bool,
}

// The secret (seed included) is wiped by `ExpandedSecret`'s own `Drop`.
impl<P: ParameterSet> ZeroizeOnDrop for SigningKey<P> {}

impl<P: ParameterSet> Clone for SigningKey<P> {
    fn clone(&self) -> Self {
        SigningKey {
            secret: self.secret.clone_boxed(),
            vk: self.vk,
            verify_after_sign: self.verify_after_sign,
        }
    }
}

impl<P: ParameterSet> fmt::Debug for SigningKey<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SigningKey")
            .field("parameter_set", &P::NAME)
            .field("has_seed", &self.secret.seed.is_some())
            .field("verifying_key", &self.vk)
            .finish_non_exhaustive()
    }
}

impl<P: ParameterSet> SigningKey<P> {
    /// Length of the FIPS 204 expanded encoding in bytes (Table 2).
    pub const EXPANDED_LEN: usize = P::SK_LEN;

    /// FIPS 204 Algorithm 1, ML-DSA.KeyGen: a new key from `rng`.
    pub fn generate_with_rng<R: TryCryptoRng + ?Sized>(rng: &mut R) -> Result<Self, Error> {
        let mut xi = Zeroizing::new([0u8; SEED_LEN]);
        rng::fill(rng, xi.as_mut())?;
        Ok(Self::from_seed(&xi))
    }

    /// A new key from the operating system's random number generator (FIPS 204 Algorithm 1).
    #[cfg(feature = "getrandom")]
    pub fn generate() -> Result<Self, Error> {
        Self::generate_with_rng(&mut rng::OsRng)
    }

    /// The key determined by the seed xi (FIPS 204 Algorithm 6, ML-DSA.KeyGen_internal).
    pub fn from_seed(xi: &[u8; SEED_LEN]) -> Self {
        // The secret is built in place, in its heap block, so that it is neither copied by a
        // move (leaving a stale copy) nor held twice on the stack; returning `key` moves only
        // the pointer.
        let mut key = SigningKey {
            secret: ExpandedSecret::<P>::boxed(),
            vk: VerifyingKey::unfilled(),
            verify_after_sign: false,
        };
        key.secret.seed = Some(*xi);
        keygen_internal::<P>(xi, &mut key.vk.bytes, &mut key.secret);
        key.vk.tr = key.secret.tr;
        debug_assert!(key.vk.tr == VerifyingKey::<P>::from_trusted(key.vk.bytes).tr);
        key
    }

    /// [`SigningKey::from_seed`] for a seed of unchecked length (it must be 32 bytes).
    pub fn from_seed_slice(xi: &[u8]) -> Result<Self, Error> {
        check_len(Input::Seed, xi, SEED_LEN)?;
        let mut seed = Zeroizing::new([0u8; SEED_LEN]);
        seed.copy_from_slice(xi);
        Ok(Self::from_seed(&seed))
    }

    /// The seed xi, if the key was made from one (keys imported from the expanded encoding
    /// have none).
    pub fn seed(&self) -> Option<&[u8; SEED_LEN]> {
        self.secret.seed.as_ref()
    }

    /// Imports the FIPS 204 expanded encoding (Algorithm 25, skDecode), strictly: s1 and s2 must
    /// lie in [-eta, eta], and tr and t0 must equal the values recomputed from rho, s1 and s2 (so
    /// the key is one KeyGen could have made). The cost is about one key generation.
    pub fn from_expanded(bytes: &[u8]) -> Result<Self, Error> {
        Self::import_expanded(bytes, true)
    }

    /// Imports the FIPS 204 expanded encoding checking only the ranges of s1 and s2, not that tr
    /// and t0 match. Signing then behaves exactly as FIPS 204 Sign on those bytes. With a wrong
    /// tr, the signatures fail under the verifying key derived from rho, s1 and s2; a wrong t0
    /// only perturbs the hints, so such signatures often still verify.
    pub fn from_expanded_unverified(bytes: &[u8]) -> Result<Self, Error> {
        Self::import_expanded(bytes, false)
    }

    fn import_expanded(bytes: &[u8], check_consistency: bool) -> Result<Self, Error> {
        check_len(Input::SigningKey, bytes, P::SK_LEN)?;
        let mut pk = P::PkBytes::zeroed();
        // Decoded in place, in the key's heap block (see `from_seed`).
        let mut secret = ExpandedSecret::<P>::boxed();
        secret
            .decode(bytes, check_consistency, &mut pk)
            .map_err(|what| Error::Malformed {
                input: Input::SigningKey,
                what,
            })?;
        // A consistent key's tr is H(pk): checked above, so it need not be hashed again.
        let vk = if check_consistency {
            VerifyingKey::from_trusted_with_tr(pk, secret.tr)
        } else {
            VerifyingKey::from_trusted(pk)
        };
        Ok(SigningKey {
            secret,
            vk,
            verify_after_sign: false,
        })
    }

    /// tr, the 64 bytes every mu this key signs starts with (FIPS 204 Algorithm 7 line 6): the
    /// tr of the expanded encoding the key came from. It equals `verifying_key().tr()` except
    /// for a key imported with [`Self::from_expanded_unverified`] whose tr does not match.
    pub fn tr(&self) -> &[u8; 64] {
        &self.secret.tr
    }

    /// Expands the matrix A-hat once, keeping it (on the heap: 16 to 56 KiB, by parameter set),
    /// so that every later signature skips ExpandA (FIPS 204 Algorithm 7 step 5; steps 2-4, the
    /// NTTs of s1, s2 and t0, are never needed: signing multiplies c by them sparsely): for
    /// signers that make many signatures with one key.
    /// Signatures are the same either way. Key generation and import leave this out so that a
    /// key that is only stored or sent on costs nothing extra.
    #[cfg(feature = "alloc")]
    pub fn prepare(&mut self) {
        self.secret.prepare();
    }

    /// [`SigningKey::prepare`], by value: `SigningKey::from_seed(&seed).prepared()`.
    #[cfg(feature = "alloc")]
    #[must_use]
    pub fn prepared(mut self) -> Self {
        self.prepare();
        self
    }

    /// ML-DSA.Sign (FIPS 204 Algorithm 2) on an expanded secret-key encoding, without making a
    /// key object: the fastest way to sign once with stored expanded bytes, as the reference
    /// API's `crypto_sign` does. The encoding is decoded strictly (length, s1 and s2 in
    /// [-eta, eta]), but as with [`SigningKey::from_expanded_unverified`] tr and t0 are used as
    /// given and no public key is derived.
    ///
    /// `rnd` is 32 fresh random bytes for hedged signing, or all zero for deterministic signing
    /// (FIPS 204 section 3.4).
    pub fn sign_with_expanded(
        sk: &[u8],
        msg: &[u8],
        ctx: &[u8],
        rnd: &[u8; 32],
    ) -> Result<Signature<P>, Error> {
        let secret = OneShotSecret::<P>::decode(sk)?;
        let mu = pure_mu(&secret.tr, msg, ctx)?;
        let a_hat = expand_a::<P>(&secret.rho);
        sign_internal::<P>(&secret.signer(&a_hat), &mu, rnd).map(Signature::from_trusted)
    }

    /// [`SigningKey::sign_with_expanded`] for an externally computed mu (FIPS 204 Algorithm 7
    /// from step 7): what bindings use that take expanded key bytes on every call (as
    /// dilithium-py's API does) and form mu themselves, e.g. from a message read in pieces.
    /// The encoding is decoded strictly (length, s1 and s2 in [-eta, eta]); tr and t0 are used
    /// as given (mu's tr is the caller's, normally bytes 64..128 of the encoding) and no public
    /// key is derived, which saves about one key generation over
    /// [`SigningKey::from_expanded_unverified`] followed by [`SigningKey::sign_mu`].
    pub fn sign_mu_with_expanded(
        sk: &[u8],
        mu: &[u8; MU_LEN],
        rnd: &[u8; 32],
    ) -> Result<Signature<P>, Error> {
        let secret = OneShotSecret::<P>::decode(sk)?;
        let a_hat = expand_a::<P>(&secret.rho);
        sign_internal::<P>(&secret.signer(&a_hat), mu, rnd).map(Signature::from_trusted)
    }

    /// [`SigningKey::sign_mu_with_expanded`] with the key's A-hat from `matrix`
    /// ([`PublicMatrix::expand`] of the key's rho, its first 32 bytes), which skips ExpandA:
    /// for bindings that sign from key bytes on every call and keep the matrix of the key they
    /// last used (A-hat is public, so keeping it keeps no secret). If `matrix` belongs to
    /// another rho it is not used and A-hat is expanded as usual: the signature is the same
    /// either way.
    ///
    /// ```
    /// use mldsa::{MlDsa65, PublicMatrix, SigningKey};
    ///
    /// let key = SigningKey::<MlDsa65>::from_seed(&[1; 32]);
    /// let sk = key.to_expanded_bytes();
    /// let rho: [u8; 32] = sk.as_ref()[..32].try_into().unwrap();
    /// let matrix = PublicMatrix::<MlDsa65>::expand(&rho); // once per key, then kept
    /// let mu = key.verifying_key().compute_mu(b"message", b"").unwrap();
    /// let sig =
    ///     SigningKey::<MlDsa65>::sign_mu_with_expanded_matrix(sk.as_ref(), &mu, &[0; 32], &matrix)?;
    /// assert_eq!(sig, key.sign_mu(&mu, &[0; 32])?);
    /// # Ok::<(), mldsa::Error>(())
    /// ```
    pub fn sign_mu_with_expanded_matrix(
        sk: &[u8],
        mu: &[u8; MU_LEN],
        rnd: &[u8; 32],
        matrix: &PublicMatrix<P>,
    ) -> Result<Signature<P>, Error> {
        let secret = OneShotSecret::<P>::decode(sk)?;
        let sign = |a_hat| sign_internal::<P>(&secret.signer(a_hat), mu, rnd);
        // rho is public (it is in the public key), so the comparison may branch.
        let sig = if matrix.rho() == &secret.rho {
            sign(matrix.a_hat())?
        } else {
            sign(&expand_a::<P>(&secret.rho))?
        };
        Ok(Signature::from_trusted(sig))
    }

    /// The FIPS 204 expanded encoding (Algorithm 24, skEncode). Secret: it is zeroised when the
    /// returned wrapper is dropped.
    ///
    /// Returning an array by value lets the compiler leave a copy of it in a dead stack frame,
    /// which no `Drop` can reach (`tests/zeroize_runtime/` finds one). Where that matters,
    /// use [`SigningKey::write_expanded_bytes`] into a buffer you own and wipe.
    pub fn to_expanded_bytes(&self) -> Zeroizing<P::SkBytes> {
        self.secret.encode()
    }

    /// Writes the FIPS 204 expanded encoding (Algorithm 24, skEncode) into `out`, which must be
    /// exactly `P::SK_LEN` bytes ([`Error::Length`] otherwise, naming the signing key). Nothing
    /// secret is left behind on the stack; wiping `out` is the caller's (e.g. a
    /// `Zeroizing<Vec<u8>>`).
    pub fn write_expanded_bytes(&self, out: &mut [u8]) -> Result<(), Error> {
        check_len(Input::SigningKey, out, P::SK_LEN)?;
        self.secret.encode_into(out);
        Ok(())
    }

    /// The verifying (public) key.
    pub fn verifying_key(&self) -> &VerifyingKey<P> {
        &self.vk
    }

    /// FIPS 204 Algorithm 2, ML-DSA.Sign, hedged with randomness from `rng`: signs `msg` with
    /// context string `ctx` (at most 255 bytes; use `&[]` for none).
    pub fn sign_with_rng<R: TryCryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        msg: &[u8],
        ctx: &[u8],
    ) -> Result<Signature<P>, Error> {
        let mu = pure_mu(&self.secret.tr, msg, ctx)?;
        self.sign_mu_with_rng(rng, &mu)
    }

    /// Hedged ML-DSA.Sign with randomness from the operating system (the recommended mode).
    #[cfg(feature = "getrandom")]
    pub fn sign(&self, msg: &[u8], ctx: &[u8]) -> Result<Signature<P>, Error> {
        self.sign_with_rng(&mut rng::OsRng, msg, ctx)
    }

    /// Deterministic ML-DSA.Sign (rnd = 0^32, FIPS 204 section 3.4): the same key, message and
    /// context always give the same signature. Prefer hedged signing where fault attacks or
    /// side channels are a concern; use this where reproducibility is required.
    pub fn sign_deterministic(&self, msg: &[u8], ctx: &[u8]) -> Result<Signature<P>, Error> {
        self.sign_mu(&pure_mu(&self.secret.tr, msg, ctx)?, &[0; 32])
    }

    /// FIPS 204 Algorithm 4, HashML-DSA.Sign, hedged with randomness from `rng`.
    pub fn sign_prehashed_with_rng<R: TryCryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        ph: &PreHashed,
        ctx: &[u8],
    ) -> Result<Signature<P>, Error> {
        let mu = MuBuilder::prehashed(&self.secret.tr, ctx, ph)?;
        self.sign_mu_with_rng(rng, &mu)
    }

    /// Hedged HashML-DSA.Sign with randomness from the operating system.
    #[cfg(feature = "getrandom")]
    pub fn sign_prehashed(&self, ph: &PreHashed, ctx: &[u8]) -> Result<Signature<P>, Error> {
        self.sign_prehashed_with_rng(&mut rng::OsRng, ph, ctx)
    }

    /// Deterministic HashML-DSA.Sign (rnd = 0^32).
    pub fn sign_prehashed_deterministic(
        &self,
        ph: &PreHashed,
        ctx: &[u8],
    ) -> Result<Signature<P>, Error> {
        self.sign_mu(&MuBuilder::prehashed(&self.secret.tr, ctx, ph)?, &[0; 32])
    }

    /// Signs an externally computed mu (FIPS 204 section 6.2, "external mu"), hedged.
    pub fn sign_mu_with_rng<R: TryCryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        mu: &[u8; MU_LEN],
    ) -> Result<Signature<P>, Error> {
        let mut rnd = Zeroizing::new([0u8; 32]);
        rng::fill(rng, rnd.as_mut())?;
        self.sign_mu(mu, &rnd)
    }

    /// ML-DSA.Sign_internal from mu with caller-chosen rnd (FIPS 204 Algorithm 7 from step 7).
    /// `rnd` must be fresh random bytes for hedged signing, or 0^32 for deterministic signing.
    pub fn sign_mu(&self, mu: &[u8; MU_LEN], rnd: &[u8; 32]) -> Result<Signature<P>, Error> {
        let sig = sign_internal::<P>(&*self.secret, mu, rnd).map(Signature::from_trusted)?;
        #[cfg(test)]
        let sig = fault::inject(sig);
        if self.verify_after_sign && self.vk.verify_mu(mu, &sig).is_err() {
            return Err(Error::FaultDetected);
        }
        Ok(sig)
    }

    /// Turns verify-after-sign on or off (off by default). When on, every signature is verified
    /// under the key's own verifying key before it is returned, and one that fails is withheld
    /// with [`Error::FaultDetected`]: a countermeasure against faults (glitches, rowhammer,
    /// failing hardware) that would otherwise release a bad signature, which for deterministic
    /// signing can reveal the key (Groot Bruinderink and Pessl, TCHES 2018). Costs one
    /// verification (about a third of a signature) per signature.
    pub fn set_verify_after_sign(&mut self, on: bool) {
        self.verify_after_sign = on;
    }

    /// ML-DSA.Sign_internal on a caller-formatted M' (FIPS 204 Algorithm 7). Hazardous: no
    /// domain separation or context is added; use the pure or pre-hash API unless a protocol
    /// specifies M' itself.
    pub fn sign_internal(&self, m_prime: &[u8], rnd: &[u8; 32]) -> Result<Signature<P>, Error> {
        self.sign_mu(&internal_mu(&self.secret.tr, m_prime), rnd)
    }
}

/// Test-only fault injection: flips one bit of the next signature made on this thread.
#[cfg(test)]
mod fault {
    use super::*;
    use core::cell::Cell;

    std::thread_local!(static FLIP_NEXT: Cell<bool> = const { Cell::new(false) });

    pub(super) fn arm() {
        FLIP_NEXT.with(|f| f.set(true));
    }

    pub(super) fn inject<P: ParameterSet>(sig: Signature<P>) -> Signature<P> {
        if !FLIP_NEXT.with(|f| f.replace(false)) {
            return sig;
        }
        let mut bytes = sig.to_bytes();
        // A bit inside c-tilde: the result still decodes, but cannot verify.
        bytes.as_mut()[3] ^= 0x10;
        Signature::from_trusted(bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MlDsa65;

    #[test]
    #[cfg_attr(
        miri,
        ignore = "a keygen, three signatures and two verifications: tens of minutes under Miri; scripts/miri.sh runs it on request"
    )]
    fn verify_after_sign_withholds_a_faulty_signature() {
        let mut sk = SigningKey::<MlDsa65>::from_seed(&[5; 32]);
        let good = sk.sign_deterministic(b"msg", b"").unwrap();
        // Off (the default): the injected fault goes out unnoticed, and does not verify.
        fault::arm();
        let faulty = sk.sign_deterministic(b"msg", b"").unwrap();
        assert_ne!(faulty, good);
        assert!(sk.verifying_key().verify(b"msg", b"", &faulty).is_err());
        // On: the same fault is caught and nothing is released.
        sk.set_verify_after_sign(true);
        fault::arm();
        assert_eq!(
            sk.sign_deterministic(b"msg", b""),
            Err(Error::FaultDetected)
        );
        // Without a fault, signing is unchanged.
        assert_eq!(sk.sign_deterministic(b"msg", b"").unwrap(), good);
        let ph = crate::PreHashed::hash(crate::PreHash::Sha2_256, b"msg");
        fault::arm();
        assert_eq!(
            sk.sign_prehashed_deterministic(&ph, b""),
            Err(Error::FaultDetected)
        );
    }
}

impl<P: ParameterSet> AsRef<VerifyingKey<P>> for SigningKey<P> {
    fn as_ref(&self) -> &VerifyingKey<P> {
        &self.vk
    }
}

impl<P: ParameterSet> signature::KeypairRef for SigningKey<P> {
    type VerifyingKey = VerifyingKey<P>;
}

/// Hedged pure ML-DSA with an empty context, randomness from `rng`.
impl<P: ParameterSet> signature::RandomizedSigner<Signature<P>> for SigningKey<P> {
    fn try_sign_with_rng<R: TryCryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        msg: &[u8],
    ) -> Result<Signature<P>, signature::Error> {
        self.sign_with_rng(rng, msg, &[]).map_err(Into::into)
    }
}

/// Hedged pure ML-DSA with an empty context over the concatenation of `msg`.
impl<P: ParameterSet> signature::RandomizedMultipartSigner<Signature<P>> for SigningKey<P> {
    fn try_multipart_sign_with_rng<R: TryCryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        msg: &[&[u8]],
    ) -> Result<Signature<P>, signature::Error> {
        let mut s = self.message_signer(&[])?;
        for part in msg {
            s.update(part);
        }
        s.sign_with_rng(rng).map_err(Into::into)
    }
}

/// Hedged pure ML-DSA with an empty context, randomness from the operating system.
#[cfg(feature = "getrandom")]
impl<P: ParameterSet> signature::Signer<Signature<P>> for SigningKey<P> {
    fn try_sign(&self, msg: &[u8]) -> Result<Signature<P>, signature::Error> {
        SigningKey::sign(self, msg, &[]).map_err(Into::into)
    }
}

/// Hedged pure ML-DSA with an empty context over the concatenation of `msg`, randomness from
/// the operating system.
#[cfg(feature = "getrandom")]
impl<P: ParameterSet> signature::MultipartSigner<Signature<P>> for SigningKey<P> {
    fn try_multipart_sign(&self, msg: &[&[u8]]) -> Result<Signature<P>, signature::Error> {
        signature::RandomizedMultipartSigner::try_multipart_sign_with_rng(
            self,
            &mut rng::OsRng,
            msg,
        )
    }
}

#[cfg(mldsa_ct)]
impl<P: ParameterSet> SigningKey<P> {
    /// Marks the key's secret parts (seed, K, s1, s2, t0) as secret for valgrind's
    /// constant-flow check (`--cfg mldsa_ct` builds only).
    #[doc(hidden)]
    pub fn ct_classify_secrets(&mut self) {
        if let Some(seed) = &mut self.secret.seed {
            crate::support::ct::classify(seed);
        }
        crate::support::ct::classify(&mut self.secret.k);
        crate::support::ct::classify(self.secret.s1.as_mut());
        crate::support::ct::classify(self.secret.s2.as_mut());
        crate::support::ct::classify(self.secret.t0.as_mut());
    }
}
