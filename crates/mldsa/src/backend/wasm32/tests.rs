//! Differential tests: every simd128 kernel against the portable function it stands for, on
//! random inputs and at the edges of the function's `Bounds:`; equality, not congruence (see
//! the module docs). They run only in a wasm32 simd128 build of the lib tests:
//! `scripts/wasm-simd-tests.sh` builds them for wasm32-wasip1 and runs them under Node's WASI.

use super::Simd128;
use crate::backend::{Backend, Portable};
use crate::math::field::Q;
use crate::math::poly::{N, NttPoly, Poly};
use crate::math::splitmix::SplitMix64;
use std::vec::Vec;

/// Random polynomials per test.
const ROUNDS: usize = 200;

fn coeffs(rng: &mut SplitMix64, lo: i32, hi: i32) -> [i32; N] {
    core::array::from_fn(|_| rng.range(lo, hi))
}

/// Edge patterns with |c| <= `bound` - 1: all at the top, all at the bottom, alternating,
/// zero, and a ramp across the range (so each lane and each butterfly sees extremes).
fn edges(bound: i32) -> Vec<[i32; N]> {
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

fn check_ntt(c: [i32; N]) {
    let p = Poly(c);
    let (mut want, mut got) = (NttPoly::ZERO, NttPoly::ZERO);
    Portable.ntt(&p, &mut want);
    Simd128.ntt(&p, &mut got);
    assert_eq!(got.0, want.0, "ntt of {c:?}");
}

fn check_ntt_inverse(c: [i32; N]) {
    let p = NttPoly(c);
    let (mut want, mut got) = (Poly::ZERO, Poly::ZERO);
    Portable.ntt_inverse(&p, &mut want);
    Simd128.ntt_inverse(&p, &mut got);
    assert_eq!(got.0, want.0, "ntt_inverse of {c:?}");
    Portable.ntt_inverse_nonneg(&p, &mut want);
    Simd128.ntt_inverse_nonneg(&p, &mut got);
    assert_eq!(got.0, want.0, "ntt_inverse_nonneg of {c:?}");
    assert!(got.0.iter().all(|&x| (0..Q).contains(&x)));
}

fn check_multiply(a: [i32; N], b: [i32; N]) {
    let (a, b) = (NttPoly(a), NttPoly(b));
    let (mut want, mut got) = (NttPoly::ZERO, NttPoly::ZERO);
    Portable.multiply_ntt(&a, &b, &mut want);
    Simd128.multiply_ntt(&a, &b, &mut got);
    assert_eq!(got.0, want.0, "multiply_ntt");
}

fn check_matrix_vector(a: &[Vec<NttPoly>], v: &[NttPoly]) {
    let mut want = std::vec![NttPoly::ZERO; a.len()];
    let mut got = want.clone();
    Portable.matrix_vector_ntt(a, v, &mut want);
    Simd128.matrix_vector_ntt(a, v, &mut got);
    for (g, w) in got.iter().zip(&want) {
        assert_eq!(g.0, w.0, "matrix_vector_ntt");
    }
}

#[test]
fn ntt_matches_portable() {
    let mut rng = SplitMix64(1);
    for _ in 0..ROUNDS {
        check_ntt(coeffs(&mut rng, -(Q - 1), Q - 1));
    }
    edges(Q).into_iter().for_each(check_ntt);
}

#[test]
fn ntt_inverse_matches_portable() {
    let mut rng = SplitMix64(2);
    for _ in 0..ROUNDS {
        check_ntt_inverse(coeffs(&mut rng, -(Q - 1), Q - 1));
    }
    edges(Q).into_iter().for_each(check_ntt_inverse);
}

#[test]
fn caddq_matches_portable() {
    let mut rng = SplitMix64(3);
    let mut cases: Vec<[i32; N]> = (0..ROUNDS)
        .map(|_| coeffs(&mut rng, -(Q - 1), Q - 1))
        .collect();
    cases.extend(edges(Q));
    for c in cases {
        let (mut want, mut got) = (Poly(c), Poly(c));
        Portable.caddq(&mut want);
        Simd128.caddq(&mut got);
        assert_eq!(got.0, want.0, "caddq");
    }
}

#[test]
fn multiply_ntt_matches_portable() {
    let mut rng = SplitMix64(4);
    for _ in 0..ROUNDS {
        check_multiply(
            coeffs(&mut rng, -(9 * Q - 1), 9 * Q - 1),
            coeffs(&mut rng, -(9 * Q - 1), 9 * Q - 1),
        );
    }
    for a in edges(9 * Q) {
        for b in edges(9 * Q) {
            check_multiply(a, b);
        }
    }
    // The extreme the contract allows: |a b| at 2^31 q.
    let big = [i32::MAX; N];
    let edge = [(((1i64 << 31) * Q as i64) / i32::MAX as i64) as i32; N];
    check_multiply(big, edge);
    check_multiply(edge.map(|c| -c), big);
}

#[test]
fn matrix_vector_ntt_matches_portable() {
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
        check_matrix_vector(&a, &v);
    }
    // ML-DSA-87's shape at the bounds, and mixed signs across a row's terms.
    let (k, l) = (8, 7);
    for a_entry in [Q - 1, 0] {
        let a = std::vec![std::vec![NttPoly([a_entry; N]); l]; k];
        for v_pattern in edges(9 * Q) {
            check_matrix_vector(&a, &std::vec![NttPoly(v_pattern); l]);
        }
    }
    let a = std::vec![std::vec![NttPoly([Q - 1; N]); l]; k];
    let v: Vec<NttPoly> = (0..l)
        .map(|j| NttPoly([if j % 2 == 0 { 9 * Q - 1 } else { -(9 * Q - 1) }; N]))
        .collect();
    check_matrix_vector(&a, &v);
}

#[test]
fn round_trip_matches_portable() {
    // NTT, product, NTT^-1 on both backends: the path keygen and signing take.
    let mut rng = SplitMix64(6);
    for _ in 0..ROUNDS / 4 {
        let a = Poly(coeffs(&mut rng, -(Q - 1), Q - 1));
        let b = Poly(coeffs(&mut rng, -(Q - 1), Q - 1));
        assert_eq!(
            round_trip(Simd128, &a, &b).0,
            round_trip(Portable, &a, &b).0
        );
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

#[test]
fn the_build_chooses_simd128() {
    // detect(), not active_backend(): other tests may force the portable backend meanwhile.
    assert_eq!(crate::backend::detect(), crate::backend::SIMD128);
}
