//! ExpandA on the two-way Keccak against the portable sampler, alone and fused with the
//! matrix product, for every set (the AES sets take the portable path).

use super::Simd128;
use crate::backend::{Backend, Portable};
use crate::math::poly::NttPoly;
use crate::math::splitmix::SplitMix64;
use crate::params::{
    Dilithium2Aes, Dilithium3, Matrix, MlDsa44, MlDsa65, MlDsa87, Parameters, PolyVec,
};

fn check<P: Parameters>() {
    let mut rng = SplitMix64(0xA11CE);
    for _ in 0..4 {
        let rho: [u8; 32] = rng.bytes();
        let (mut want, mut got) = (P::MatrixA::zeroed(), P::MatrixA::zeroed());
        Portable.expand_a::<P>(&rho, &mut want);
        Simd128.expand_a::<P>(&rho, &mut got);
        for (w, g) in want.as_ref().iter().zip(got.as_ref()) {
            for (w, g) in w.as_ref().iter().zip(g.as_ref()) {
                assert_eq!(g.0, w.0, "{} expand_a", P::NAME);
            }
        }
        let mut v = P::NttVecL::zeroed();
        for p in v.as_mut() {
            *p = NttPoly(core::array::from_fn(|_| {
                rng.range(-9 * 8380417 + 1, 9 * 8380417 - 1)
            }));
        }
        let (mut want, mut got) = (P::NttVecK::zeroed(), P::NttVecK::zeroed());
        Portable.expand_a_times::<P>(&rho, v.as_ref(), want.as_mut());
        Simd128.expand_a_times::<P>(&rho, v.as_ref(), got.as_mut());
        for (w, g) in want.as_ref().iter().zip(got.as_ref()) {
            assert_eq!(g.0, w.0, "{} expand_a_times", P::NAME);
        }
    }
}

#[test]
fn expand_a_matches_portable() {
    check::<MlDsa44>();
    check::<MlDsa65>();
    check::<MlDsa87>();
    check::<Dilithium3>();
    check::<Dilithium2Aes>();
}
