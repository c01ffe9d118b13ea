//! The bottom floor: what every other floor may lean on and which knows nothing of ML-DSA's
//! mathematics. Constant-time helpers and the valgrind hooks (`ct`), the reviewed
//! declassification sites (`declassify`), scratch memory kept per thread (`scratch`, `spare`)
//! and the profiler's counters (`profile`). Imports: nothing of the crate's other floors.

#[cfg(mldsa_ct)]
pub mod ct;
#[forbid(unsafe_code)]
pub mod declassify;
#[cfg(feature = "profile")]
#[forbid(unsafe_code)]
pub mod profile;
#[forbid(unsafe_code)]
pub(crate) mod scratch;
#[cfg(feature = "std")]
#[forbid(unsafe_code)]
pub(crate) mod spare;
#[forbid(unsafe_code)]
pub(crate) mod zeroed;
