//! Entry points for the constant-time harness (`ct_kernels`, built only with
//! `--cfg mldsa_ct`): the top floor, free to call any kernel. Imports: anything below.

pub mod ct_kernels;
