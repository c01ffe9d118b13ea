//! The top floor: entry points for tooling, free to call any kernel. The constant-time
//! harness's (`ct_kernels`, built only with `--cfg mldsa_ct`) and the profile's kernel costs
//! (`profile`, feature `profile`). Imports: anything below.

#[cfg(mldsa_ct)]
pub mod ct_kernels;
#[cfg(feature = "profile")]
pub mod profile;
