//! The AVX2 kernels of the x86-64 backend ([`super::Avx2`] calls them; their AVX-512
//! variants are in the sibling folder, [`super::avx512`]).
//!
//! Each kernel is a `#[target_feature(enable = "avx2")]` function with a written contract
//! (input and output bounds, layout) that debug builds assert.

pub(crate) mod arith;
pub(crate) mod keccak4x;
pub(crate) mod keccak_bmi;
pub(crate) mod mask_lanes;
pub(crate) mod ntt;
pub(crate) mod sample;
pub(crate) mod sparse;
#[cfg(test)]
mod tests;
