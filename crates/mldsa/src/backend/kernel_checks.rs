//! Differential checks shared by the SIMD backends whose kernels compute the portable integers
//! exactly (NEON, simd128): each takes the backend under test and compares its kernel with the
//! portable function it stands for, on random inputs and at the edges of the function's
//! `Bounds:`; equality, not congruence. Each backend's `tests.rs` runs them as its own tests.

use crate::backend::{Backend, Portable};
use crate::math::field::Q;
use crate::math::poly::{N, NttPoly, Poly};
use crate::math::splitmix::SplitMix64;
use crate::params::Parameters;
use std::vec::Vec;

/// Random polynomials per test.
pub(crate) const ROUNDS: usize = 200;

pub(crate) fn coeffs(rng: &mut SplitMix64, lo: i32, hi: i32) -> [i32; N] {
    core::array::from_fn(|_| rng.range(lo, hi))
}

/// Edge patterns with |c| <= `bound` - 1: all at the top, all at the bottom, alternating,
/// zero, and a ramp across the range (so each lane and each butterfly sees extremes).
pub(crate) fn edges(bound: i32) -> Vec<[i32; N]> {
    let b = bound - 1;
    std::vec![
        [b; N],
        [-b; N],
        core::array::from_fn(|i| if i % 2 == 0 { b } else { -b }),
        core::array::from_fn(|i| if i % 3 == 0 { -b } else { b }),
        [0; N],
        core::array::from_fn(|i| -b + (i as i32) * (2 * (b / N as i32))),
    ]
}

pub(crate) fn check_ntt<B: Backend>(be: B, c: [i32; N]) {
    let p = Poly(c);
    let (mut want, mut got) = (NttPoly::ZERO, NttPoly::ZERO);
    Portable.ntt(&p, &mut want);
    be.ntt(&p, &mut got);
    assert_eq!(got.0, want.0, "ntt of {c:?}");
}

pub(crate) fn check_ntt_inverse<B: Backend>(be: B, c: [i32; N]) {
    let p = NttPoly(c);
    let (mut want, mut got) = (Poly::ZERO, Poly::ZERO);
    Portable.ntt_inverse(&p, &mut want);
    be.ntt_inverse(&p, &mut got);
    assert_eq!(got.0, want.0, "ntt_inverse of {c:?}");
    Portable.ntt_inverse_nonneg(&p, &mut want);
    be.ntt_inverse_nonneg(&p, &mut got);
    assert_eq!(got.0, want.0, "ntt_inverse_nonneg of {c:?}");
    assert!(got.0.iter().all(|&x| (0..Q).contains(&x)));
}

fn check_multiply<B: Backend>(be: B, a: [i32; N], b: [i32; N]) {
    let (a, b) = (NttPoly(a), NttPoly(b));
    let (mut want, mut got) = (NttPoly::ZERO, NttPoly::ZERO);
    Portable.multiply_ntt(&a, &b, &mut want);
    be.multiply_ntt(&a, &b, &mut got);
    assert_eq!(got.0, want.0, "multiply_ntt");
}

fn check_matrix_vector<B: Backend>(be: B, a: &[Vec<NttPoly>], v: &[NttPoly]) {
    let mut want = std::vec![NttPoly::ZERO; a.len()];
    let mut got = want.clone();
    Portable.matrix_vector_ntt(a, v, &mut want);
    be.matrix_vector_ntt(a, v, &mut got);
    for (g, w) in got.iter().zip(&want) {
        assert_eq!(g.0, w.0, "matrix_vector_ntt");
    }
}

pub(crate) fn ntt_matches_portable<B: Backend>(be: B) {
    let mut rng = SplitMix64(1);
    for _ in 0..ROUNDS {
        check_ntt(be, coeffs(&mut rng, -(Q - 1), Q - 1));
    }
    edges(Q).into_iter().for_each(|c| check_ntt(be, c));
}

pub(crate) fn ntt_inverse_matches_portable<B: Backend>(be: B) {
    let mut rng = SplitMix64(2);
    for _ in 0..ROUNDS {
        check_ntt_inverse(be, coeffs(&mut rng, -(Q - 1), Q - 1));
    }
    edges(Q).into_iter().for_each(|c| check_ntt_inverse(be, c));
}

pub(crate) fn caddq_matches_portable<B: Backend>(be: B) {
    let mut rng = SplitMix64(3);
    let mut cases: Vec<[i32; N]> = (0..ROUNDS)
        .map(|_| coeffs(&mut rng, -(Q - 1), Q - 1))
        .collect();
    cases.extend(edges(Q));
    for c in cases {
        let (mut want, mut got) = (Poly(c), Poly(c));
        Portable.caddq(&mut want);
        be.caddq(&mut got);
        assert_eq!(got.0, want.0, "caddq");
    }
}

pub(crate) fn multiply_ntt_matches_portable<B: Backend>(be: B) {
    let mut rng = SplitMix64(4);
    for _ in 0..ROUNDS {
        check_multiply(
            be,
            coeffs(&mut rng, -(9 * Q - 1), 9 * Q - 1),
            coeffs(&mut rng, -(9 * Q - 1), 9 * Q - 1),
        );
    }
    for a in edges(9 * Q) {
        for b in edges(9 * Q) {
            check_multiply(be, a, b);
        }
    }
    // The extreme the contract allows: |a b| at 2^31 q.
    let big = [i32::MAX; N];
    let edge = [(((1i64 << 31) * Q as i64) / i32::MAX as i64) as i32; N];
    check_multiply(be, big, edge);
    check_multiply(be, edge.map(|c| -c), big);
}

pub(crate) fn matrix_vector_ntt_matches_portable<B: Backend>(be: B) {
    let mut rng = SplitMix64(5);
    for (k, l) in [(4, 4), (6, 5), (8, 7), (1, 1), (3, 0)] {
        let a: Vec<Vec<NttPoly>> = (0..k)
            .map(|_| {
                (0..l)
                    .map(|_| NttPoly(coeffs(&mut rng, 0, Q - 1)))
                    .collect()
            })
            .collect();
        let v: Vec<NttPoly> = (0..l)
            .map(|_| NttPoly(coeffs(&mut rng, -(9 * Q - 1), 9 * Q - 1)))
            .collect();
        check_matrix_vector(be, &a, &v);
    }
    // ML-DSA-87's shape at the bounds, and mixed signs across a row's terms.
    let (k, l) = (8, 7);
    for a_entry in [Q - 1, 0] {
        let a = std::vec![std::vec![NttPoly([a_entry; N]); l]; k];
        for v_pattern in edges(9 * Q) {
            check_matrix_vector(be, &a, &std::vec![NttPoly(v_pattern); l]);
        }
    }
    let a = std::vec![std::vec![NttPoly([Q - 1; N]); l]; k];
    let v: Vec<NttPoly> = (0..l)
        .map(|j| NttPoly([if j % 2 == 0 { 9 * Q - 1 } else { -(9 * Q - 1) }; N]))
        .collect();
    check_matrix_vector(be, &a, &v);
}

pub(crate) fn round_trip_matches_portable<B: Backend>(be: B) {
    // NTT, product, NTT^-1 on both backends: the path keygen and signing take.
    let mut rng = SplitMix64(6);
    for _ in 0..ROUNDS / 4 {
        let a = Poly(coeffs(&mut rng, -(Q - 1), Q - 1));
        let b = Poly(coeffs(&mut rng, -(Q - 1), Q - 1));
        assert_eq!(round_trip(be, &a, &b).0, round_trip(Portable, &a, &b).0);
    }
}

fn round_trip(be: impl Backend, a: &Poly, b: &Poly) -> Poly {
    let (mut ah, mut bh, mut prod) = (NttPoly::ZERO, NttPoly::ZERO, NttPoly::ZERO);
    be.ntt(a, &mut ah);
    be.ntt(b, &mut bh);
    be.multiply_ntt(&ah, &bh, &mut prod);
    let mut out = Poly::ZERO;
    be.ntt_inverse(&prod, &mut out);
    out
}

pub(crate) fn centre_freeze_matches_portable<B: Backend>(be: B) {
    let mut rng = SplitMix64(9);
    let mut cases: Vec<[i32; N]> = (0..ROUNDS)
        .map(|_| coeffs(&mut rng, -(Q - 1), Q - 1))
        .collect();
    cases.extend(edges(Q));
    cases.push(core::array::from_fn(|i| (Q - 1) / 2 - 2 + i as i32 % 5));
    cases.push(core::array::from_fn(|i| -(Q - 1) / 2 - 2 + i as i32 % 5));
    for c in cases {
        let (mut want, mut got) = (Poly(c), Poly(c));
        Portable.centre_freeze(&mut want);
        be.centre_freeze(&mut got);
        assert_eq!(got.0, want.0, "centre_freeze");
    }
}

pub(crate) fn scalar_vector_ntt_matches_portable<B: Backend>(be: B) {
    let mut rng = SplitMix64(10);
    for round in 0..ROUNDS / 10 {
        let c = NttPoly(coeffs(&mut rng, -(9 * Q - 1), 9 * Q - 1));
        let n = 1 + round % 8;
        let v: Vec<NttPoly> = (0..n)
            .map(|_| NttPoly(coeffs(&mut rng, -(9 * Q - 1), 9 * Q - 1)))
            .collect();
        let mut want = std::vec![NttPoly::ZERO; n];
        let mut got = want.clone();
        Portable.scalar_vector_ntt(&c, &v, &mut want);
        be.scalar_vector_ntt(&c, &v, &mut got);
        assert!(
            want.iter().zip(&got).all(|(w, g)| w.0 == g.0),
            "scalar_vector_ntt"
        );
    }
    for c in edges(9 * Q) {
        let v: Vec<NttPoly> = edges(9 * Q).into_iter().map(NttPoly).collect();
        let mut want = std::vec![NttPoly::ZERO; v.len()];
        let mut got = want.clone();
        Portable.scalar_vector_ntt(&NttPoly(c), &v, &mut want);
        be.scalar_vector_ntt(&NttPoly(c), &v, &mut got);
        assert!(
            want.iter().zip(&got).all(|(w, g)| w.0 == g.0),
            "scalar_vector_ntt"
        );
    }
}

pub(crate) fn ntt_of_unit_vectors_matches_portable<B: Backend>(be: B) {
    // Each coefficient alone at +-(q-1): every butterfly path through both passes.
    for i in 0..N {
        for v in [Q - 1, -(Q - 1)] {
            let mut c = [0; N];
            c[i] = v;
            check_ntt(be, c);
            check_ntt_inverse(be, c);
        }
    }
}

/// Every r in [0, q), as polynomials of 256 consecutive values (the last one padded with
/// q - 1), in vectors of `per` polynomials.
pub(crate) fn all_of_zq(per: usize) -> impl Iterator<Item = Vec<Poly>> {
    let polys = (Q as usize).div_ceil(N);
    (0..polys.div_ceil(per)).map(move |v| {
        (v * per..((v + 1) * per).min(polys))
            .map(|p| Poly(core::array::from_fn(|i| ((p * N + i) as i32).min(Q - 1))))
            .collect()
    })
}

/// HighBits, LowBits' norm check and UseHint (both hints) on every r in [0, q), and MakeHint
/// on r against r + z for random and edge z, for the set `P`'s gamma2.
pub(crate) fn check_rounding<P: Parameters, B: Backend>(be: B) {
    let gamma2 = P::GAMMA2;
    for r in all_of_zq(8) {
        let n = r.len();
        let (mut want, mut got) = (std::vec![Poly::ZERO; n], std::vec![Poly::ZERO; n]);
        Portable.high_bits_vec::<P>(&r, &mut want);
        be.high_bits_vec::<P>(&r, &mut got);
        assert!(want == got, "high_bits");
        for h in [[0; N], [1; N], core::array::from_fn(|i| (i % 2) as i32)] {
            let h = std::vec![Poly(h); n];
            Portable.use_hint_vec::<P>(&h, &r, &mut want);
            be.use_hint_vec::<P>(&h, &r, &mut got);
            assert!(want == got, "use_hint");
        }
        // Around gamma2 (where |LowBits| ends) and gamma2 - beta (the signing bound).
        let bounds = [
            1,
            2,
            gamma2 - 196,
            gamma2 - 78,
            gamma2 - 1,
            gamma2,
            gamma2 + 1,
            1 << 30,
        ];
        for bound in bounds {
            for one in r.iter() {
                let one = core::slice::from_ref(one);
                let want = Portable.low_bits_exceed::<P>(one, bound);
                assert_eq!(be.low_bits_exceed::<P>(one, bound), want, "low_bits_exceed");
            }
        }
    }
    let mut rng = SplitMix64(7);
    for round in 0..ROUNDS {
        let r: Vec<Poly> = (0..4).map(|_| Poly(coeffs(&mut rng, 0, Q - 1))).collect();
        // z small (as in signing: |z| <= gamma2) or anything keeping r + z in [0, q).
        let span = if round % 2 == 0 { gamma2 } else { Q - 1 };
        let rz: Vec<Poly> = r
            .iter()
            .map(|p| Poly(p.0.map(|c| (c + rng.range(-span, span)).clamp(0, Q - 1))))
            .collect();
        let (mut want, mut got) = (std::vec![Poly::ZERO; 4], std::vec![Poly::ZERO; 4]);
        let n_want = Portable.make_hint_vec::<P>(&rz, &r, &mut want);
        let n_got = be.make_hint_vec::<P>(&rz, &r, &mut got);
        assert!(want == got && n_want == n_got, "make_hint");
    }
}

pub(crate) fn power2_round_matches_portable_on_all_of_zq<B: Backend>(be: B) {
    for t in all_of_zq(8) {
        let n = t.len();
        let (mut t1, mut t0) = (std::vec![Poly::ZERO; n], std::vec![Poly::ZERO; n]);
        let (mut u1, mut u0) = (t1.clone(), t0.clone());
        Portable.power2_round_vec(&t, &mut t1, &mut t0);
        be.power2_round_vec(&t, &mut u1, &mut u0);
        assert!(t1 == u1 && t0 == u0, "power2_round");
    }
}

pub(crate) fn sub_freeze_matches_portable<B: Backend>(be: B) {
    let mut rng = SplitMix64(8);
    let h = (Q - 1) / 2;
    let mut cases: Vec<(Poly, Poly)> = (0..ROUNDS)
        .map(|_| {
            (
                Poly(coeffs(&mut rng, 0, Q - 1)),
                Poly(coeffs(&mut rng, -h, h)),
            )
        })
        .collect();
    for (w, c) in [(0, h), (0, -h), (Q - 1, -h), (Q - 1, h), (0, 0), (Q - 1, 0)] {
        cases.push((Poly([w; N]), Poly([c; N])));
    }
    for (w, cs2) in cases {
        let (w, mut want, mut got) = (std::vec![w], std::vec![cs2], std::vec![cs2]);
        Portable.sub_freeze(&w, &mut want);
        be.sub_freeze(&w, &mut got);
        assert!(want == got, "sub_freeze");
    }
}

/// Declares every shared check as a `#[test]` of the backend `$be` (used in its `tests.rs`).
macro_rules! kernel_check_tests {
    ($be:expr) => {
        #[test]
        fn ntt_matches_portable() {
            crate::backend::kernel_checks::ntt_matches_portable($be);
        }
        #[test]
        fn ntt_inverse_matches_portable() {
            crate::backend::kernel_checks::ntt_inverse_matches_portable($be);
        }
        #[test]
        fn caddq_matches_portable() {
            crate::backend::kernel_checks::caddq_matches_portable($be);
        }
        #[test]
        fn multiply_ntt_matches_portable() {
            crate::backend::kernel_checks::multiply_ntt_matches_portable($be);
        }
        #[test]
        fn matrix_vector_ntt_matches_portable() {
            crate::backend::kernel_checks::matrix_vector_ntt_matches_portable($be);
        }
        #[test]
        fn round_trip_matches_portable() {
            crate::backend::kernel_checks::round_trip_matches_portable($be);
        }
        #[test]
        fn centre_freeze_matches_portable() {
            crate::backend::kernel_checks::centre_freeze_matches_portable($be);
        }
        #[test]
        fn scalar_vector_ntt_matches_portable() {
            crate::backend::kernel_checks::scalar_vector_ntt_matches_portable($be);
        }
        #[test]
        fn ntt_of_unit_vectors_matches_portable() {
            crate::backend::kernel_checks::ntt_of_unit_vectors_matches_portable($be);
        }
        #[test]
        fn power2_round_matches_portable_on_all_of_zq() {
            crate::backend::kernel_checks::power2_round_matches_portable_on_all_of_zq($be);
        }
        #[test]
        fn sub_freeze_matches_portable() {
            crate::backend::kernel_checks::sub_freeze_matches_portable($be);
        }
        #[test]
        fn rounding_matches_portable_on_all_of_zq_gamma2_88() {
            crate::backend::kernel_checks::check_rounding::<crate::params::MlDsa44, _>($be);
        }
        #[test]
        fn rounding_matches_portable_on_all_of_zq_gamma2_32() {
            crate::backend::kernel_checks::check_rounding::<crate::params::MlDsa65, _>($be);
        }
    };
}
pub(crate) use kernel_check_tests;
