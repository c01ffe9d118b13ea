//! The AVX-512 variants of the x86-64 backend's kernels ([`super::Avx2`] calls them where
//! [`super::Avx2::avx512`] is true: AVX-512 F, VL and BW detected), with the contracts and
//! results of their AVX2 counterparts in [`super::avx2`], to which they delegate what they do
//! not vectorise differently.

pub(crate) mod keccak4x;
pub(crate) mod keccak8x;
pub(crate) mod mask_lanes;
pub(crate) mod ntt;
pub(crate) mod sample;
pub(crate) mod sparse;
