//! Differential tests: every NEON kernel against the portable function it stands for, on random
//! inputs and at the edges of the function's `Bounds:`; equality, not congruence (the kernels
//! compute the portable integers). They run in an AArch64 build of the lib tests, natively or
//! under qemu: `cargo test -p mldsa --release --target aarch64-unknown-linux-gnu --lib aarch64`.

use super::Neon;
use crate::backend::{Backend, PackKernels, Portable};
use crate::math::field::Q;
use crate::math::poly::{N, NttPoly, Poly};
use crate::math::sparse::{SparseC, SparseScratch};
use crate::math::splitmix::SplitMix64;

use crate::params::Parameters;
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
    Neon.ntt(&p, &mut got);
    assert_eq!(got.0, want.0, "ntt of {c:?}");
}

fn check_ntt_inverse(c: [i32; N]) {
    let p = NttPoly(c);
    let (mut want, mut got) = (Poly::ZERO, Poly::ZERO);
    Portable.ntt_inverse(&p, &mut want);
    Neon.ntt_inverse(&p, &mut got);
    assert_eq!(got.0, want.0, "ntt_inverse of {c:?}");
    Portable.ntt_inverse_nonneg(&p, &mut want);
    Neon.ntt_inverse_nonneg(&p, &mut got);
    assert_eq!(got.0, want.0, "ntt_inverse_nonneg of {c:?}");
    assert!(got.0.iter().all(|&x| (0..Q).contains(&x)));
}

fn check_multiply(a: [i32; N], b: [i32; N]) {
    let (a, b) = (NttPoly(a), NttPoly(b));
    let (mut want, mut got) = (NttPoly::ZERO, NttPoly::ZERO);
    Portable.multiply_ntt(&a, &b, &mut want);
    Neon.multiply_ntt(&a, &b, &mut got);
    assert_eq!(got.0, want.0, "multiply_ntt");
}

fn check_matrix_vector(a: &[Vec<NttPoly>], v: &[NttPoly]) {
    let mut want = std::vec![NttPoly::ZERO; a.len()];
    let mut got = want.clone();
    Portable.matrix_vector_ntt(a, v, &mut want);
    Neon.matrix_vector_ntt(a, v, &mut got);
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
        Neon.caddq(&mut got);
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
        assert_eq!(round_trip(Neon, &a, &b).0, round_trip(Portable, &a, &b).0);
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
fn centre_freeze_matches_portable() {
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
        Neon.centre_freeze(&mut got);
        assert_eq!(got.0, want.0, "centre_freeze");
    }
}

#[test]
fn scalar_vector_ntt_matches_portable() {
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
        Neon.scalar_vector_ntt(&c, &v, &mut got);
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
        Neon.scalar_vector_ntt(&NttPoly(c), &v, &mut got);
        assert!(
            want.iter().zip(&got).all(|(w, g)| w.0 == g.0),
            "scalar_vector_ntt"
        );
    }
}

#[test]
fn ntt_of_unit_vectors_matches_portable() {
    // Each coefficient alone at +-(q-1): every butterfly path through both passes.
    for i in 0..N {
        for v in [Q - 1, -(Q - 1)] {
            let mut c = [0; N];
            c[i] = v;
            check_ntt(c);
            check_ntt_inverse(c);
        }
    }
}

#[test]
fn the_default_is_neon() {
    // detect(), not active_backend(): other tests may force the portable backend meanwhile.
    assert_eq!(crate::backend::detect(), crate::backend::NEON);
}

/// Every r in [0, q), as polynomials of 256 consecutive values (the last one padded with
/// q - 1), in vectors of `per` polynomials.
fn all_of_zq(per: usize) -> impl Iterator<Item = Vec<Poly>> {
    let polys = (Q as usize).div_ceil(N);
    (0..polys.div_ceil(per)).map(move |v| {
        (v * per..((v + 1) * per).min(polys))
            .map(|p| Poly(core::array::from_fn(|i| ((p * N + i) as i32).min(Q - 1))))
            .collect()
    })
}

/// HighBits, LowBits' norm check and UseHint (both hints) on every r in [0, q), and MakeHint
/// on r against r + z for random and edge z, for the set `P`'s gamma2.
fn check_rounding<P: Parameters>() {
    let gamma2 = P::GAMMA2;
    for r in all_of_zq(8) {
        let n = r.len();
        let (mut want, mut got) = (std::vec![Poly::ZERO; n], std::vec![Poly::ZERO; n]);
        Portable.high_bits_vec::<P>(&r, &mut want);
        Neon.high_bits_vec::<P>(&r, &mut got);
        assert!(want == got, "high_bits");
        for h in [[0; N], [1; N], core::array::from_fn(|i| (i % 2) as i32)] {
            let h = std::vec![Poly(h); n];
            Portable.use_hint_vec::<P>(&h, &r, &mut want);
            Neon.use_hint_vec::<P>(&h, &r, &mut got);
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
                assert_eq!(
                    Neon.low_bits_exceed::<P>(one, bound),
                    want,
                    "low_bits_exceed"
                );
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
        let n_got = Neon.make_hint_vec::<P>(&rz, &r, &mut got);
        assert!(want == got && n_want == n_got, "make_hint");
    }
}

#[test]
fn rounding_matches_portable_on_all_of_zq_gamma2_88() {
    check_rounding::<crate::params::MlDsa44>();
}

#[test]
fn rounding_matches_portable_on_all_of_zq_gamma2_32() {
    check_rounding::<crate::params::MlDsa65>();
}

#[test]
fn vec_exceeds_matches_portable() {
    let mut rng = SplitMix64(11);
    let bounds = [
        1,
        2,
        100,
        (1 << 17) - 78,
        1 << 17,
        (1 << 19) - 196,
        Q,
        i32::MAX,
    ];
    let mut cases: Vec<Poly> = (0..ROUNDS)
        .map(|_| Poly(coeffs(&mut rng, -(1 << 19), 1 << 19)))
        .collect();
    cases.extend(edges(Q).into_iter().map(Poly));
    for x in [
        i32::MIN,
        i32::MIN + 1,
        i32::MAX,
        -(1 << 17),
        1 << 17,
        (1 << 17) - 1,
    ] {
        cases.push(Poly([x; N]));
        for i in [0, 1, 2, 3, 4, 127, 255] {
            let mut c = [0; N];
            c[i] = x;
            cases.push(Poly(c));
        }
    }
    for bound in bounds {
        for p in &cases {
            let one = core::slice::from_ref(p);
            assert_eq!(
                Neon.vec_exceeds(one, bound),
                crate::math::poly::vec_exceeds(one, bound),
                "vec_exceeds, bound {bound}"
            );
        }
        for v in cases.chunks(7) {
            assert_eq!(
                Neon.vec_exceeds(v, bound),
                crate::math::poly::vec_exceeds(v, bound)
            );
        }
    }
}

/// A c with `tau` distinct random positions and random signs (as SampleInBall makes).
fn random_c(rng: &mut SplitMix64, tau: usize) -> SparseC {
    let mut at: Vec<u8> = Vec::new();
    while at.len() < tau {
        let j = rng.range(0, N as i32 - 1) as u8;
        if !at.contains(&j) {
            at.push(j);
        }
    }
    SparseC::from_terms(
        &at,
        rng.range(0, i32::MAX) as u64 | (rng.range(0, i32::MAX) as u64) << 31,
    )
}

/// The secrets to try: random in [-bound, bound], and the extremes.
fn small_secrets(rng: &mut SplitMix64, bound: i32) -> Vec<[i32; N]> {
    let mut v: Vec<[i32; N]> = (0..4).map(|_| coeffs(rng, -bound, bound)).collect();
    v.extend([[bound; N], [-bound; N], [0; N]]);
    v.push(core::array::from_fn(|i| {
        if i % 2 == 0 { bound } else { -bound }
    }));
    v.push(core::array::from_fn(|i| if i == N - 1 { bound } else { 0 }));
    v
}

#[test]
fn sparse_products_match_portable() {
    let mut rng = SplitMix64(12);
    let mut scratch = std::boxed::Box::new(SparseScratch::ZERO);
    for tau in [1, 30, 31, 32, 39, 49, 60] {
        for _ in 0..10 {
            let c = random_c(&mut rng, tau);
            let (mut want, mut got) = (Poly::ZERO, Poly([7; N]));
            for s in small_secrets(&mut rng, 127 / tau as i32) {
                let s = s.map(|x| x as i8);
                Portable.sparse_mul_tiny(&c, &s, &mut scratch, &mut want);
                Neon.sparse_mul_tiny(&c, &s, &mut scratch, &mut got);
                assert!(want == got, "sparse_mul_tiny, tau {tau}");
            }
            for s in small_secrets(&mut rng, 4) {
                let s = s.map(|x| x as i8);
                Portable.sparse_mul_eta4(&c, &s, &mut scratch, &mut want);
                Neon.sparse_mul_eta4(&c, &s, &mut scratch, &mut got);
                assert!(want == got, "sparse_mul_eta4, tau {tau}");
            }
            let mut small = small_secrets(&mut rng, 127);
            small.push([-128; N]);
            for s in small {
                let s = s.map(|x| x as i8);
                Portable.sparse_mul_small(&c, &s, &mut scratch, &mut want);
                Neon.sparse_mul_small(&c, &s, &mut scratch, &mut got);
                assert!(want == got, "sparse_mul_small, tau {tau}");
            }
            let mut t0 = small_secrets(&mut rng, 1 << 12);
            t0.push([-(1 << 12); N]);
            for t in t0 {
                Portable.sparse_mul_t0(&c, &Poly(t), &mut scratch, &mut want);
                Neon.sparse_mul_t0(&c, &Poly(t), &mut scratch, &mut got);
                assert!(want == got, "sparse_mul_t0, tau {tau}");
            }
        }
    }
}

#[test]
fn wipes_zero_everything() {
    let mut rng = SplitMix64(21);
    let mut p = Poly(coeffs(&mut rng, -Q + 1, Q - 1));
    Neon.wipe(&mut p.0);
    assert!(p == Poly::ZERO, "wipe");
    let mut s = crate::math::poly::SmallPoly(core::array::from_fn(|i| (i % 7) as i8 - 3));
    Neon.wipe_small(&mut s);
    assert!(s.0 == [0; N], "wipe_small");
    let mut sc = SparseScratch::ZERO;
    sc.tiny.iter_mut().for_each(|x| *x = 5);
    sc.small.iter_mut().for_each(|x| *x = -7);
    sc.acc.iter_mut().for_each(|x| *x = 9);
    sc.acc8.iter_mut().for_each(|x| *x = 1);
    Neon.wipe_sparse(&mut sc);
    assert!(sc.tiny.iter().all(|&x| x == 0) && sc.small.iter().all(|&x| x == 0));
    assert!(sc.acc.iter().all(|&x| x == 0) && sc.acc8.iter().all(|&x| x == 0));
}

#[test]
fn bit_unpack_narrow_matches_portable() {
    let mut rng = SplitMix64(22);
    for bits in [3usize, 4, 6, 10, 13] {
        for round in 0..ROUNDS {
            let bytes: Vec<u8> = (0..N * bits / 8)
                .map(|i| match round {
                    0 => 0,
                    1 => 0xff,
                    _ => (rng.range(0, 255) as u8) ^ (i as u8),
                })
                .collect();
            for (b, max) in [
                (2, 4),
                (4, 8),
                (1 << 12, (1 << 13) - 1),
                (0, 0),
                (7, u32::MAX),
            ] {
                let (mut want, mut got) = (Poly::ZERO, Poly::ZERO);
                let w = crate::encoding::pack::bit_unpack(&bytes, b, bits, max, &mut want);
                let g = Neon.bit_unpack_narrow(&bytes, b, bits, max, &mut got);
                assert!(want == got && w == g, "bit_unpack_narrow {bits}");
            }
        }
    }
}

fn check_bit_unpack_z<P: Parameters>() {
    let mut rng = SplitMix64(23);
    for round in 0..ROUNDS {
        let bytes: Vec<u8> = (0..32 * P::Z_BITS)
            .map(|i| match round {
                0 => 0,
                1 => 0xff,
                _ => (rng.range(0, 255) as u8) ^ (i as u8),
            })
            .collect();
        let (mut want, mut got) = (Poly::ZERO, Poly::ZERO);
        crate::encoding::pack::bit_unpack_z::<P>(&bytes, &mut want);
        Neon.bit_unpack_z::<P>(&bytes, &mut got);
        assert!(want == got, "bit_unpack_z");
    }
}

#[test]
fn bit_unpack_z_matches_portable() {
    check_bit_unpack_z::<crate::params::MlDsa44>();
    check_bit_unpack_z::<crate::params::MlDsa65>();
    check_bit_unpack_z::<crate::params::MlDsa87>();
}

fn check_w1_encode<P: Parameters>() {
    let mut rng = SplitMix64(24);
    let top = (1 << P::W1_BITS) - 1;
    for round in 0..ROUNDS {
        let w1: Vec<Poly> = (0..P::K)
            .map(|_| match round {
                0 => Poly::ZERO,
                1 => Poly([top; N]),
                _ => Poly(coeffs(&mut rng, 0, top)),
            })
            .collect();
        let (mut want, mut got) = (std::vec![0u8; P::W1_LEN], std::vec![1u8; P::W1_LEN]);
        crate::encoding::encode::w1_encode::<P>(&w1, &mut want);
        Neon.w1_encode::<P>(&w1, &mut got);
        assert!(want == got, "w1_encode");
    }
}

#[test]
fn w1_encode_matches_portable() {
    check_w1_encode::<crate::params::MlDsa44>();
    check_w1_encode::<crate::params::MlDsa65>();
    check_w1_encode::<crate::params::MlDsa87>();
}
