//! Signing and verifying messages that arrive in pieces (streaming).
//!
//! Both wrap a [`MuBuilder`] started with the key's tr and the context: the message is absorbed
//! chunk by chunk, in constant memory, and the result is byte for byte what the one-shot API
//! gives for the concatenated message.

use crate::algorithm::mu::MuBuilder;
use crate::error::Error;
use crate::keys::sig::Signature;
use crate::keys::signing_key::SigningKey;
use crate::keys::verifying_key::VerifyingKey;
use crate::params::ParameterSet;
use rand_core::TryCryptoRng;

// The keys' doors to streaming are written here, with the streams, so that the keys' floor
// needs nothing from the front doors above it.
impl<P: ParameterSet> SigningKey<P> {
    /// Starts signing a message that arrives in pieces (pure ML-DSA with context `ctx`); the
    /// result equals [`SigningKey::sign_with_rng`] on the whole message.
    pub fn message_signer(&self, ctx: &[u8]) -> Result<MessageSigner<'_, P>, Error> {
        Ok(MessageSigner::new(self, MuBuilder::pure(self.tr(), ctx)?))
    }
}

impl<P: ParameterSet> VerifyingKey<P> {
    /// Starts verifying a message that arrives in pieces (pure ML-DSA with context `ctx`).
    pub fn message_verifier(&self, ctx: &[u8]) -> Result<MessageVerifier<'_, P>, Error> {
        Ok(MessageVerifier::new(self, MuBuilder::pure(self.tr(), ctx)?))
    }
}

/// Signs a message fed in pieces; made by [`SigningKey::message_signer`].
#[derive(Debug)]
pub struct MessageSigner<'k, P: ParameterSet> {
    key: &'k SigningKey<P>,
    mu: MuBuilder,
}

impl<'k, P: ParameterSet> MessageSigner<'k, P> {
    pub(crate) fn new(key: &'k SigningKey<P>, mu: MuBuilder) -> Self {
        MessageSigner { key, mu }
    }

    /// Absorbs the next piece of the message.
    pub fn update(&mut self, chunk: &[u8]) -> &mut Self {
        self.mu.update(chunk);
        self
    }

    /// Hedged signature with randomness from `rng` (the recommended mode).
    pub fn sign_with_rng<R: TryCryptoRng + ?Sized>(
        self,
        rng: &mut R,
    ) -> Result<Signature<P>, Error> {
        self.key.sign_mu_with_rng(rng, &self.mu.finalize())
    }

    /// Hedged signature with randomness from the operating system.
    #[cfg(feature = "getrandom")]
    pub fn sign(self) -> Result<Signature<P>, Error> {
        self.sign_with_rng(&mut crate::keys::rng::OsRng)
    }

    /// Deterministic signature (rnd = 0^32). See [`SigningKey::sign_deterministic`].
    pub fn sign_deterministic(self) -> Result<Signature<P>, Error> {
        self.key.sign_mu(&self.mu.finalize(), &[0; 32])
    }
}

/// Verifies a message fed in pieces; made by [`VerifyingKey::message_verifier`].
#[derive(Debug)]
pub struct MessageVerifier<'k, P: ParameterSet> {
    key: &'k VerifyingKey<P>,
    mu: MuBuilder,
}

impl<'k, P: ParameterSet> MessageVerifier<'k, P> {
    pub(crate) fn new(key: &'k VerifyingKey<P>, mu: MuBuilder) -> Self {
        MessageVerifier { key, mu }
    }

    /// Absorbs the next piece of the message.
    pub fn update(&mut self, chunk: &[u8]) -> &mut Self {
        self.mu.update(chunk);
        self
    }

    /// Checks `sig` on everything absorbed.
    pub fn verify(self, sig: &Signature<P>) -> Result<(), Error> {
        self.key.verify_mu(&self.mu.finalize(), sig)
    }
}

write_via_update!([P: ParameterSet] MessageSigner<'_, P>);

write_via_update!([P: ParameterSet] MessageVerifier<'_, P>);
