//! The message representative mu = H(tr || M', 64) for every way of signing.
//!
//! FIPS 204 differs between pure ML-DSA (Alg. 2/3), HashML-DSA (Alg. 4/5) and the internal
//! interface (Alg. 7/8) only in how M' is formed; everything after mu is shared. [`MuBuilder`]
//! absorbs tr and the M' prefix up front and the message incrementally, so a message of any size
//! can be signed without holding it in memory, with the same bytes as the one-shot API.

use crate::algorithm::prehash::PreHashed;
use crate::error::Error;
use crate::hash::keccak::Shake256;
use crate::params::{MAX_CONTEXT_LEN, MU_LEN, TR_LEN};

/// Checks a context string's length (FIPS 204 Alg. 2 step 1 and Alg. 4 step 1).
pub(crate) fn check_context(ctx: &[u8]) -> Result<u8, Error> {
    if ctx.len() > MAX_CONTEXT_LEN {
        Err(Error::ContextTooLong { len: ctx.len() })
    } else {
        Ok(ctx.len() as u8)
    }
}

/// Incremental computation of mu = H(tr || M', 64).
///
/// Start it with [`MuBuilder::pure`] (ML-DSA, M' = 0 || |ctx| || ctx || M) or
/// [`MuBuilder::internal`] (M' supplied whole by the caller), feed the message with
/// [`MuBuilder::update`], and take mu with [`MuBuilder::finalize`]. The verifying key's
/// `tr()` gives tr.
#[derive(Clone)]
pub struct MuBuilder {
    h: Shake256,
}

impl core::fmt::Debug for MuBuilder {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("MuBuilder(..)")
    }
}

impl MuBuilder {
    /// Pure ML-DSA (FIPS 204 Alg. 2 step 10 / Alg. 3 step 5): absorbs tr || 0 || |ctx| || ctx;
    /// the message follows through [`MuBuilder::update`].
    pub fn pure(tr: &[u8; TR_LEN], ctx: &[u8]) -> Result<Self, Error> {
        let len = check_context(ctx)?;
        Ok(Self::pure_checked(tr, len, ctx))
    }

    /// [`MuBuilder::pure`] for a context whose length `len` [`check_context`] gave.
    pub(crate) fn pure_checked(tr: &[u8; TR_LEN], len: u8, ctx: &[u8]) -> Self {
        let mut b = Self::internal(tr);
        b.update(&[0, len]);
        b.update(ctx);
        b
    }

    /// The internal interface (FIPS 204 Alg. 7 step 6): absorbs tr; the caller supplies the
    /// whole of M' through [`MuBuilder::update`].
    pub fn internal(tr: &[u8; TR_LEN]) -> Self {
        Self::with_prefix(tr)
    }

    /// H(prefix || ...): the legacy Dilithium mode's mu = H(tr || M) with its 32-byte tr.
    pub(crate) fn with_prefix(prefix: &[u8]) -> Self {
        let mut h = Shake256::with(crate::backend::keccak());
        h.absorb(prefix);
        MuBuilder { h }
    }

    /// HashML-DSA (FIPS 204 Alg. 4 steps 10-23 / Alg. 5): mu for
    /// M' = 1 || |ctx| || ctx || OID(PH) || PH(M).
    pub fn prehashed(tr: &[u8; TR_LEN], ctx: &[u8], ph: &PreHashed) -> Result<[u8; MU_LEN], Error> {
        let len = check_context(ctx)?;
        let mut b = Self::internal(tr);
        b.update(&[1, len]);
        b.update(ctx);
        b.update(&ph.algorithm().oid_der());
        b.update(ph.digest());
        Ok(b.finalize())
    }

    /// Absorbs the next piece of the message (or of M').
    pub fn update(&mut self, data: &[u8]) {
        self.h.absorb(data);
    }

    /// mu.
    pub fn finalize(mut self) -> [u8; MU_LEN] {
        let mut mu = [0u8; MU_LEN];
        self.h.finalize();
        self.h.squeeze(&mut mu);
        mu
    }
}

write_via_update!([] MuBuilder);

/// mu for pure ML-DSA of a whole message.
pub(crate) fn pure_mu(tr: &[u8; TR_LEN], msg: &[u8], ctx: &[u8]) -> Result<[u8; MU_LEN], Error> {
    let mut b = MuBuilder::pure(tr, ctx)?;
    b.update(msg);
    Ok(b.finalize())
}

/// mu for the internal interface on a whole M'.
pub(crate) fn internal_mu(tr: &[u8; TR_LEN], m_prime: &[u8]) -> [u8; MU_LEN] {
    let mut b = MuBuilder::internal(tr);
    b.update(m_prime);
    b.finalize()
}
