//! Differential tests: every simd128 kernel against the portable function it stands for, on
//! random inputs and at the edges of the function's `Bounds:`; equality, not congruence (see
//! the module docs): the checks every exact SIMD backend shares
//! ([`crate::backend::kernel_checks`]). They run only in a wasm32 simd128 build of the lib
//! tests: `scripts/wasm-simd-tests.sh` builds them for wasm32-wasip1 and runs them under Node's
//! WASI.

use super::Simd128;

crate::backend::kernel_checks::kernel_check_tests!(Simd128);

#[test]
fn the_build_chooses_simd128() {
    // detect(), not active_backend(): other tests may force the portable backend meanwhile.
    assert_eq!(crate::backend::detect(), crate::backend::SIMD128);
}
