//! The public matrix A-hat of the key each ML-DSA parameter set last signed with, kept between
//! drop-in calls (`ML_DSA_65.sign(sk, m)` passes the key bytes every time).
//!
//! ExpandA is about half the work of a signature whose first attempt succeeds, and it depends
//! only on rho, which is public (part of the public key): keeping the last matrix per set keeps
//! no secret, unlike caching the decoded secret key, which this package never does. A call with
//! another key's bytes expands that key's matrix and replaces the kept one; a matrix that does
//! not match a key's rho is never used (the core checks). At most one matrix per set stays
//! alive for the life of the process: 16, 30 or 56 KiB.

use mldsa::{MlDsa44, MlDsa65, MlDsa87, ParameterSet, PublicMatrix};
use std::sync::{Arc, Mutex, PoisonError};

/// A parameter set with a slot for its last matrix (one static per set: statics cannot be
/// generic).
pub trait KeptMatrix: ParameterSet {
    fn slot() -> &'static Mutex<Option<Arc<PublicMatrix<Self>>>>;
}

macro_rules! kept_matrix {
    ($($set:ty),*) => {$(
        impl KeptMatrix for $set {
            fn slot() -> &'static Mutex<Option<Arc<PublicMatrix<Self>>>> {
                static SLOT: Mutex<Option<Arc<PublicMatrix<$set>>>> = Mutex::new(None);
                &SLOT
            }
        }
    )*};
}

kept_matrix!(MlDsa44, MlDsa65, MlDsa87);

/// The matrix for `rho`: the kept one if it is rho's, else a new one, which is kept instead.
/// The lock is held only to look or to swap, never while expanding, so threads signing with
/// different keys do not wait for each other's ExpandA.
pub fn matrix_for<P: KeptMatrix>(rho: &[u8; 32]) -> Arc<PublicMatrix<P>> {
    // A poisoned lock only means a thread panicked while holding it; the slot is still either
    // empty or a whole matrix, so it is safe to go on using it.
    let kept = P::slot()
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .as_ref()
        .filter(|m| m.rho() == rho)
        .cloned();
    kept.unwrap_or_else(|| {
        let made = Arc::new(PublicMatrix::<P>::expand(rho));
        *P::slot().lock().unwrap_or_else(PoisonError::into_inner) = Some(Arc::clone(&made));
        made
    })
}
