//! [`PreparedVerifyingKey`]: a verifying key with its expensive derived terms precomputed.

use crate::algorithm::mu::{MuBuilder, internal_mu, pure_mu};
use crate::algorithm::prehash::PreHashed;
use crate::algorithm::verify::{KeyTerms, verify_prepared};
use crate::error::Error;
use crate::keys::sig::Signature;
use crate::keys::verifying_key::VerifyingKey;
use crate::params::{MU_LEN, ParameterSet};
use core::fmt;

/// A [`VerifyingKey`] that keeps the expanded matrix A-hat and NTT(t1 * 2^d) (FIPS 204
/// Algorithm 8 steps 5 and 10), so each verification skips ExpandA and k NTTs: for servers that
/// check many signatures under one key. Made by [`VerifyingKey::prepare`]; the terms live on the
/// heap (16 to 63 KiB, by parameter set).
///
/// Verification gives exactly the same answers as with the plain key.
#[derive(Clone)]
pub struct PreparedVerifyingKey<P: ParameterSet> {
    vk: VerifyingKey<P>,
    terms: KeyTerms<P>,
}

impl<P: ParameterSet> PreparedVerifyingKey<P> {
    pub(crate) fn new(vk: VerifyingKey<P>) -> Self {
        let terms = KeyTerms::new(vk.as_bytes());
        Self { vk, terms }
    }

    /// The plain verifying key.
    pub fn verifying_key(&self) -> &VerifyingKey<P> {
        &self.vk
    }

    /// ML-DSA.Verify (FIPS 204 Algorithm 3): as [`VerifyingKey::verify`].
    pub fn verify(&self, msg: &[u8], ctx: &[u8], sig: &Signature<P>) -> Result<(), Error> {
        self.verify_mu(&pure_mu(&self.vk.tr, msg, ctx)?, sig)
    }

    /// HashML-DSA.Verify (FIPS 204 Algorithm 5): as [`VerifyingKey::verify_prehashed`].
    pub fn verify_prehashed(
        &self,
        ph: &PreHashed,
        ctx: &[u8],
        sig: &Signature<P>,
    ) -> Result<(), Error> {
        self.verify_mu(&MuBuilder::prehashed(&self.vk.tr, ctx, ph)?, sig)
    }

    /// ML-DSA.Verify_internal on a caller-formatted M': as [`VerifyingKey::verify_internal`].
    pub fn verify_internal(&self, m_prime: &[u8], sig: &Signature<P>) -> Result<(), Error> {
        self.verify_mu(&internal_mu(&self.vk.tr, m_prime), sig)
    }

    /// Verification from an externally computed mu: as [`VerifyingKey::verify_mu`].
    pub fn verify_mu(&self, mu: &[u8; MU_LEN], sig: &Signature<P>) -> Result<(), Error> {
        verify_prepared::<P>(&self.terms, mu, sig.as_bytes())
    }
}

impl<P: ParameterSet> fmt::Debug for PreparedVerifyingKey<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("PreparedVerifyingKey")
            .field(&self.vk)
            .finish()
    }
}

impl<P: ParameterSet> AsRef<VerifyingKey<P>> for PreparedVerifyingKey<P> {
    fn as_ref(&self) -> &VerifyingKey<P> {
        &self.vk
    }
}

/// Pure ML-DSA with an empty context, as `signature::Verifier` users expect.
impl<P: ParameterSet> signature::Verifier<Signature<P>> for PreparedVerifyingKey<P> {
    fn verify(&self, msg: &[u8], sig: &Signature<P>) -> Result<(), signature::Error> {
        PreparedVerifyingKey::verify(self, msg, &[], sig).map_err(Into::into)
    }
}
