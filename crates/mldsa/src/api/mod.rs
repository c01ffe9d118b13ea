//! Front doors over the same algorithm and keys: streaming (`stream`), batches (`batch`) and
//! the CRYSTALS-Dilithium round-3 sets (`legacy`). Imports: every floor below.

#[cfg(feature = "parallel")]
pub mod batch;
pub mod legacy;
pub(crate) mod stream;
