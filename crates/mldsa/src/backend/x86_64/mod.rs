//! x86-64: the AVX2 backend (`avx2`) and its AVX-512 variants.

pub(crate) mod avx2;
