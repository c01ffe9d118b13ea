//! Batch signing and verification over all cores (feature `parallel`, on rayon's thread pool).
//!
//! Each item is an independent FIPS 204 operation, so a batch gives exactly the results of
//! calling the single-item API in a loop, in the same order; only the wall-clock time changes.
//! Use [`PreparedVerifyingKey`] for many signatures under one key, and prepare a signing key
//! ([`SigningKey::prepare`]) before signing many messages with it.

use crate::error::Error;
use crate::keys::prepared::PreparedVerifyingKey;
use crate::keys::sig::Signature;
use crate::keys::signing_key::SigningKey;
use crate::keys::verifying_key::VerifyingKey;
use crate::params::ParameterSet;
use alloc::vec::Vec;
use rayon::prelude::*;

/// One signature to check: pure ML-DSA of `msg` with context `ctx` under `key`.
#[derive(Clone, Copy, Debug)]
pub struct VerifyItem<'a, P: ParameterSet> {
    /// The verifying key.
    pub key: &'a VerifyingKey<P>,
    /// The message.
    pub msg: &'a [u8],
    /// The context string (at most 255 bytes).
    pub ctx: &'a [u8],
    /// The signature.
    pub sig: &'a Signature<P>,
}

/// Verifies every item (FIPS 204 Algorithm 3 each) across all cores; the verdicts come back in
/// the order of `items`.
pub fn verify_batch<P: ParameterSet>(items: &[VerifyItem<'_, P>]) -> Vec<Result<(), Error>> {
    items
        .par_iter()
        .map(|it| it.key.verify(it.msg, it.ctx, it.sig))
        .collect()
}

impl<P: ParameterSet> PreparedVerifyingKey<P> {
    /// Verifies each `(message, signature)` pair under this key with context `ctx`, across all
    /// cores; the verdicts come back in the order of `items`.
    pub fn verify_batch(
        &self,
        ctx: &[u8],
        items: &[(&[u8], &Signature<P>)],
    ) -> Vec<Result<(), Error>> {
        items
            .par_iter()
            .map(|(msg, sig)| self.verify(msg, ctx, sig))
            .collect()
    }
}

impl<P: ParameterSet> SigningKey<P> {
    /// Signs every message (hedged, with context `ctx`, randomness from the operating system)
    /// across all cores; the signatures come back in the order of `msgs`. Fails as a whole if
    /// any signature fails (the OS RNG failing, or a context over 255 bytes).
    pub fn sign_batch(&self, msgs: &[&[u8]], ctx: &[u8]) -> Result<Vec<Signature<P>>, Error> {
        msgs.par_iter().map(|msg| self.sign(msg, ctx)).collect()
    }

    /// [`SigningKey::sign_batch`], deterministic (FIPS 204 section 3.4: rnd = 0^32).
    pub fn sign_batch_deterministic(
        &self,
        msgs: &[&[u8]],
        ctx: &[u8],
    ) -> Result<Vec<Signature<P>>, Error> {
        msgs.par_iter()
            .map(|msg| self.sign_deterministic(msg, ctx))
            .collect()
    }
}
