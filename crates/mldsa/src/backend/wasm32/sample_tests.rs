//! ExpandA on the two-way Keccak against the portable sampler, alone and fused with the
//! matrix product, for every set (the AES sets take the portable path).

use super::Simd128;
use crate::backend::{Backend, Portable};
use crate::math::poly::{NttPoly, Poly};
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

fn check_secret<P: Parameters>() {
    let mut rng = SplitMix64(0x5EC);
    for _ in 0..4 {
        let rho_prime: [u8; 64] = rng.bytes();
        let (mut s1, mut s2) = (P::VecL::zeroed(), P::VecK::zeroed());
        let (mut t1, mut t2) = (P::VecL::zeroed(), P::VecK::zeroed());
        Portable.expand_s::<P>(&rho_prime, &mut s1, &mut s2);
        Simd128.expand_s::<P>(&rho_prime, &mut t1, &mut t2);
        assert!(s1.as_ref() == t1.as_ref(), "{} expand_s s1", P::NAME);
        assert!(s2.as_ref() == t2.as_ref(), "{} expand_s s2", P::NAME);
    }
    // Every count from 0 to 7 (odd ones end on the scalar sampler), and the top of the counter.
    let rho_pp: [u8; 64] = rng.bytes();
    for (first, count) in (0..8).map(|c| (3 * c as u16, c)).chain([(u16::MAX - 6, 7)]) {
        let mut want = [Poly::ZERO; 7];
        let mut got = [Poly::ZERO; 7];
        Portable.expand_mask_polys::<P>(&rho_pp, first, want[..count].iter_mut());
        Simd128.expand_mask_polys::<P>(&rho_pp, first, got[..count].iter_mut());
        assert!(want == got, "{} expand_mask from {first}, {count}", P::NAME);
    }
}

#[test]
fn expand_s_and_mask_match_portable() {
    check_secret::<MlDsa44>();
    check_secret::<MlDsa65>();
    check_secret::<MlDsa87>();
    check_secret::<Dilithium3>();
    check_secret::<Dilithium2Aes>();
}
