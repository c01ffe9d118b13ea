//! [`PublicMatrix`]: a key's A-hat, kept so that signing from expanded key bytes can skip
//! ExpandA.

use crate::backend::{Backend, with_backend};
use crate::params::{ParameterSet, Parameters};
use crate::support::scratch::Scratch;
use core::fmt;

/// The matrix A-hat = ExpandA(rho) of a key (FIPS 204 Algorithm 32, Algorithm 7 step 5), kept
/// for [`crate::SigningKey::sign_mu_with_expanded_matrix`]: for bindings whose API passes the
/// expanded key bytes on every call (dilithium-py's, the reference C API's) and that keep the
/// matrix of the key they last signed with. ExpandA is about half of such a signature's work
/// when the first attempt succeeds.
///
/// A-hat is public: it is derived from rho, which is part of the public key, so keeping it
/// keeps no secret (and it is not zeroised). It lives on the heap under `alloc` (16 to 56 KiB
/// by parameter set), inline otherwise.
pub struct PublicMatrix<P: ParameterSet> {
    rho: [u8; 32],
    a_hat: Scratch<P::MatrixA>,
}

impl<P: ParameterSet> PublicMatrix<P> {
    /// Runs ExpandA on `rho` (the first 32 bytes of a public or expanded secret key).
    pub fn expand(rho: &[u8; 32]) -> Self {
        Self {
            rho: *rho,
            a_hat: expand_a::<P>(rho),
        }
    }

    /// The rho this matrix was expanded from.
    pub fn rho(&self) -> &[u8; 32] {
        &self.rho
    }

    /// A-hat.
    pub(crate) fn a_hat(&self) -> &P::MatrixA {
        &self.a_hat
    }
}

impl<P: ParameterSet> fmt::Debug for PublicMatrix<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PublicMatrix")
            .field("set", &P::NAME)
            .field("rho", &self.rho)
            .finish()
    }
}

/// ExpandA(rho), made in place (on the heap under `alloc`).
pub(crate) fn expand_a<P: Parameters>(rho: &[u8; 32]) -> Scratch<P::MatrixA> {
    let mut a_hat = Scratch::<P::MatrixA>::zeroed();
    with_backend!(|b| b.expand_a::<P>(rho, &mut a_hat));
    a_hat
}
