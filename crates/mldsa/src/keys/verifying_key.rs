//! [`VerifyingKey`]: an ML-DSA public key, and every way to verify with it.

use crate::algorithm::mu::{MuBuilder, check_context, internal_mu, pure_mu};
use crate::algorithm::prehash::PreHashed;
use crate::algorithm::verify::{verify_encoded, verify_internal};
use crate::error::{Error, Input, check_len, to_array};
use crate::hash::keccak::shake256_with;
use crate::keys::sig::Signature;
use crate::params::{ByteArray, MU_LEN, ParameterSet, TR_LEN};
use core::fmt;
use core::marker::PhantomData;

/// An ML-DSA verifying (public) key of parameter set `P`.
///
/// Keeps the FIPS 204 encoding and tr = H(pk, 64), which every verification needs.
#[derive(Clone, Copy)]
pub struct VerifyingKey<P: ParameterSet> {
    pub(crate) bytes: P::PkBytes,
    pub(crate) tr: [u8; TR_LEN],
    _p: PhantomData<P>,
}

impl<P: ParameterSet> VerifyingKey<P> {
    /// Length of an encoded verifying key in bytes (FIPS 204 Table 2).
    pub const LEN: usize = P::PK_LEN;

    /// Wraps an encoding our own key generation produced.
    pub(crate) fn from_trusted(bytes: P::PkBytes) -> Self {
        let mut tr = [0u8; TR_LEN];
        shake256_with(crate::backend::keccak(), &[bytes.as_ref()], &mut tr);
        VerifyingKey {
            bytes,
            tr,
            _p: PhantomData,
        }
    }

    /// All-zero bytes and tr, for key generation to fill in place.
    pub(crate) fn unfilled() -> Self {
        VerifyingKey {
            bytes: P::PkBytes::zeroed(),
            tr: [0; TR_LEN],
            _p: PhantomData,
        }
    }

    /// Wraps an encoding our own key generation produced, with its tr = H(pk, 64) already
    /// computed (so it is not hashed twice).
    pub(crate) fn from_trusted_with_tr(bytes: P::PkBytes, tr: [u8; TR_LEN]) -> Self {
        debug_assert!(tr == Self::from_trusted(bytes).tr);
        VerifyingKey {
            bytes,
            tr,
            _p: PhantomData,
        }
    }

    /// Decodes a verifying key (FIPS 204 Algorithm 23). Every byte string of the right length
    /// is a valid key, so only the length is checked.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        Ok(Self::from_trusted(to_array(Input::VerifyingKey, bytes)?))
    }

    /// The FIPS 204 encoding of the key.
    pub fn to_bytes(&self) -> P::PkBytes {
        self.bytes
    }

    /// The FIPS 204 encoding of the key, borrowed.
    pub fn as_bytes(&self) -> &[u8] {
        self.bytes.as_ref()
    }

    /// tr = H(pk, 64), the key's hash that prefixes every message representative.
    pub fn tr(&self) -> &[u8; TR_LEN] {
        &self.tr
    }

    /// FIPS 204 Algorithm 3, ML-DSA.Verify: checks `sig` on `msg` with context `ctx`.
    pub fn verify(&self, msg: &[u8], ctx: &[u8], sig: &Signature<P>) -> Result<(), Error> {
        let mu = pure_mu(&self.tr, msg, ctx)?;
        self.verify_mu(&mu, sig)
    }

    /// ML-DSA.Verify (FIPS 204 Algorithm 3) on encodings, without making key or signature
    /// objects: the fastest way to check one signature under a key held as bytes, as the
    /// reference API's `crypto_sign_verify` does.
    ///
    /// The same checks and the same errors as [`VerifyingKey::from_bytes`],
    /// [`Signature::from_bytes`] and [`VerifyingKey::verify`] (the lengths and the context are
    /// checked before the signature's encoding), with less work: the
    /// signature is decoded once, and tr = H(pk, 64) is hashed alongside ExpandA (on the SIMD
    /// backends, in a lane of its multi-way sponge) instead of before it. To check several
    /// signatures under one key, make the key once with [`VerifyingKey::from_bytes`] (or
    /// [`VerifyingKey::prepare`] it) instead.
    ///
    /// ```
    /// use mldsa::{MlDsa44, SigningKey, VerifyingKey};
    ///
    /// let sk = SigningKey::<MlDsa44>::from_seed(&[7; 32]);
    /// let sig = sk.sign_deterministic(b"message", b"ctx")?;
    /// let pk = sk.verifying_key().to_bytes();
    /// VerifyingKey::<MlDsa44>::verify_with_bytes(&pk, b"message", b"ctx", sig.as_bytes())?;
    /// assert!(VerifyingKey::<MlDsa44>::verify_with_bytes(&pk, b"other", b"ctx", sig.as_bytes()).is_err());
    /// # Ok::<(), mldsa::Error>(())
    /// ```
    pub fn verify_with_bytes(pk: &[u8], msg: &[u8], ctx: &[u8], sig: &[u8]) -> Result<(), Error> {
        check_len(Input::VerifyingKey, pk, P::PK_LEN)?;
        check_len(Input::Signature, sig, P::SIG_LEN)?;
        let len = check_context(ctx)?;
        verify_encoded::<P>(pk, sig, &|tr| {
            let mut mu = MuBuilder::pure_checked(tr, len, ctx);
            mu.update(msg);
            mu.finalize()
        })
    }

    /// FIPS 204 Algorithm 5, HashML-DSA.Verify: checks `sig` on a pre-hashed message.
    pub fn verify_prehashed(
        &self,
        ph: &PreHashed,
        ctx: &[u8],
        sig: &Signature<P>,
    ) -> Result<(), Error> {
        let mu = MuBuilder::prehashed(&self.tr, ctx, ph)?;
        self.verify_mu(&mu, sig)
    }

    /// ML-DSA.Verify_internal on a caller-formatted M' (FIPS 204 Algorithm 8). Hazardous: no
    /// domain separation is added; use [`VerifyingKey::verify`] unless a protocol says otherwise.
    pub fn verify_internal(&self, m_prime: &[u8], sig: &Signature<P>) -> Result<(), Error> {
        self.verify_mu(&internal_mu(&self.tr, m_prime), sig)
    }

    /// Verification from an externally computed mu (FIPS 204 section 6.3, "external mu").
    pub fn verify_mu(&self, mu: &[u8; MU_LEN], sig: &Signature<P>) -> Result<(), Error> {
        verify_internal::<P>(self.bytes.as_ref(), mu, sig.as_bytes())
    }

    /// mu for pure ML-DSA of `msg` with context `ctx`, under this key: what a remote signer
    /// holding only the secret key needs (external mu).
    pub fn compute_mu(&self, msg: &[u8], ctx: &[u8]) -> Result<[u8; MU_LEN], Error> {
        pure_mu(&self.tr, msg, ctx)
    }

    /// A copy of the key that keeps what every verification derives from it (the expanded
    /// matrix A-hat and NTT(t1 * 2^d), on the heap), for checking many signatures under one key.
    #[cfg(feature = "alloc")]
    pub fn prepare(&self) -> crate::keys::prepared::PreparedVerifyingKey<P> {
        crate::keys::prepared::PreparedVerifyingKey::new(*self)
    }
}

// Equality of the public encodings; written out so that it does not require `P: PartialEq`.
impl<P: ParameterSet> PartialEq for VerifyingKey<P> {
    fn eq(&self, other: &Self) -> bool {
        self.bytes == other.bytes
    }
}

impl<P: ParameterSet> Eq for VerifyingKey<P> {}

impl<P: ParameterSet> AsRef<[u8]> for VerifyingKey<P> {
    fn as_ref(&self) -> &[u8] {
        self.as_bytes()
    }
}

impl<P: ParameterSet> TryFrom<&[u8]> for VerifyingKey<P> {
    type Error = Error;

    fn try_from(bytes: &[u8]) -> Result<Self, Error> {
        Self::from_bytes(bytes)
    }
}

impl<P: ParameterSet> fmt::Debug for VerifyingKey<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "VerifyingKey<{}>(tr ", P::NAME)?;
        for b in &self.tr[..8] {
            write!(f, "{b:02x}")?;
        }
        f.write_str("..)")
    }
}

/// Pure ML-DSA with an empty context, as `signature::Verifier` users expect.
impl<P: ParameterSet> signature::Verifier<Signature<P>> for VerifyingKey<P> {
    fn verify(&self, msg: &[u8], sig: &Signature<P>) -> Result<(), signature::Error> {
        VerifyingKey::verify(self, msg, &[], sig).map_err(Into::into)
    }
}

/// Pure ML-DSA with an empty context over the concatenation of `msg`.
impl<P: ParameterSet> signature::MultipartVerifier<Signature<P>> for VerifyingKey<P> {
    fn multipart_verify(&self, msg: &[&[u8]], sig: &Signature<P>) -> Result<(), signature::Error> {
        let mut v = self.message_verifier(&[])?;
        for part in msg {
            v.update(part);
        }
        v.verify(sig).map_err(Into::into)
    }
}
