//! The opaque objects behind `mldsa_signing_key`, `mldsa_verifying_key`, `mldsa_sign_ctx` and
//! `mldsa_verify_ctx`: one type each for all three parameter sets, the set erased behind a
//! small trait so that the C side frees and uses them without naming the set again.

use mldsa_core::{MuBuilder, ParameterSet, PreparedVerifyingKey, Signature, SigningKey};

use crate::ops::{Message, put, rnd_or_os};
use crate::status::{Outcome, Status};

/// A signing key of some parameter set.
pub(crate) trait AnySigner: Send + Sync {
    fn tr(&self) -> &[u8; 64];
    /// Signs `mu` into `sig[..sig_len()]`, returning the length written.
    fn sign_mu(
        &self,
        sig: &mut [u8],
        mu: &[u8; 64],
        rnd: Option<&[u8; 32]>,
    ) -> Result<usize, Status>;
}

impl<P: ParameterSet> AnySigner for SigningKey<P> {
    fn tr(&self) -> &[u8; 64] {
        self.verifying_key().tr()
    }

    fn sign_mu(
        &self,
        sig: &mut [u8],
        mu: &[u8; 64],
        rnd: Option<&[u8; 32]>,
    ) -> Result<usize, Status> {
        let out = sig.get_mut(..Signature::<P>::LEN).ok_or(Status::Length)?;
        put(
            out,
            SigningKey::sign_mu(self, mu, &*rnd_or_os(rnd)?)?.as_bytes(),
        )?;
        Ok(Signature::<P>::LEN)
    }
}

/// A prepared verifying key (A-hat kept) of some parameter set.
pub(crate) trait AnyVerifier: Send + Sync {
    fn tr(&self) -> &[u8; 64];
    fn verify_mu(&self, sig: &[u8], mu: &[u8; 64]) -> Outcome;
}

impl<P: ParameterSet> AnyVerifier for PreparedVerifyingKey<P> {
    fn tr(&self) -> &[u8; 64] {
        self.verifying_key().tr()
    }

    fn verify_mu(&self, sig: &[u8], mu: &[u8; 64]) -> Outcome {
        let sig = Signature::<P>::from_bytes(sig)?;
        Ok(PreparedVerifyingKey::verify_mu(self, mu, &sig)?)
    }
}

/// `mldsa_signing_key`: a strictly imported, prepared signing key (zeroised when freed).
pub struct SigningKeyObj(pub(crate) Box<dyn AnySigner>);

impl SigningKeyObj {
    pub(crate) fn new<P: ParameterSet>(key: SigningKey<P>) -> Self {
        SigningKeyObj(Box::new(key.prepared()))
    }

    /// Signs `message` into `sig` (at least the set's signature length), returning the length.
    pub(crate) fn sign(
        &self,
        sig: &mut [u8],
        message: Message<'_>,
        rnd: Option<&[u8; 32]>,
    ) -> Result<usize, Status> {
        self.0.sign_mu(sig, &message.mu(self.0.tr())?, rnd)
    }
}

/// `mldsa_verifying_key`: a prepared verifying key.
pub struct VerifyingKeyObj(pub(crate) Box<dyn AnyVerifier>);

impl VerifyingKeyObj {
    pub(crate) fn new<P: ParameterSet>(pk: &[u8]) -> Result<Self, Status> {
        Ok(VerifyingKeyObj(Box::new(
            mldsa_core::VerifyingKey::<P>::from_bytes(pk)?.prepare(),
        )))
    }

    pub(crate) fn verify(&self, sig: &[u8], message: Message<'_>) -> Outcome {
        self.0.verify_mu(sig, &message.mu(self.0.tr())?)
    }
}

/// `mldsa_sign_ctx`: a key and the running mu hash of a pure message with its context.
pub struct SignCtx {
    key: SigningKeyObj,
    /// `None` once finalised.
    mu: Option<MuBuilder>,
}

impl SignCtx {
    pub(crate) fn new<P: ParameterSet>(sk: &[u8], ctx: &[u8]) -> Result<Self, Status> {
        // As the one-shot calls: the expanded key is used as given (ranges checked).
        let key = SigningKeyObj(Box::new(SigningKey::<P>::from_expanded_unverified(sk)?));
        let mu = MuBuilder::pure(key.0.tr(), ctx)?;
        Ok(SignCtx { key, mu: Some(mu) })
    }

    pub(crate) fn update(&mut self, data: &[u8]) -> Outcome {
        self.mu.as_mut().ok_or(Status::State)?.update(data);
        Ok(())
    }

    pub(crate) fn finalize(
        &mut self,
        sig: &mut [u8],
        rnd: Option<&[u8; 32]>,
    ) -> Result<usize, Status> {
        let mu = self.mu.take().ok_or(Status::State)?.finalize();
        self.key.sign(sig, Message::Mu(&mu), rnd)
    }
}

/// `mldsa_verify_ctx`: a prepared key and the running mu hash.
pub struct VerifyCtx {
    key: VerifyingKeyObj,
    mu: Option<MuBuilder>,
}

impl VerifyCtx {
    pub(crate) fn new<P: ParameterSet>(pk: &[u8], ctx: &[u8]) -> Result<Self, Status> {
        let key = VerifyingKeyObj::new::<P>(pk)?;
        let mu = MuBuilder::pure(key.0.tr(), ctx)?;
        Ok(VerifyCtx { key, mu: Some(mu) })
    }

    pub(crate) fn update(&mut self, data: &[u8]) -> Outcome {
        self.mu.as_mut().ok_or(Status::State)?.update(data);
        Ok(())
    }

    pub(crate) fn finalize(&mut self, sig: &[u8]) -> Outcome {
        let mu = self.mu.take().ok_or(Status::State)?.finalize();
        self.key.verify(sig, Message::Mu(&mu))
    }
}
