//! Differential tests: every NEON kernel against the portable function it stands for, on random
//! inputs and at the edges of the function's `Bounds:`; equality, not congruence (the kernels
//! compute the portable integers): the checks every exact SIMD backend shares
//! ([`crate::backend::kernel_checks`]), then the NEON-only kernels. They run in an AArch64 build
//! of the lib tests, natively or under qemu:
//! `cargo test -p mldsa --release --target aarch64-unknown-linux-gnu --lib aarch64`.

use super::Neon;
use crate::backend::kernel_checks::{ROUNDS, coeffs, edges};
use crate::backend::{Backend, PackKernels, Portable};
use crate::math::field::Q;
use crate::math::poly::{N, Poly};
use crate::math::sparse::{SparseC, SparseScratch};
use crate::math::splitmix::SplitMix64;
use crate::params::Parameters;
use std::vec::Vec;

crate::backend::kernel_checks::kernel_check_tests!(Neon);

#[test]
fn the_default_is_neon() {
    // detect(), not active_backend(): other tests may force the portable backend meanwhile.
    assert_eq!(crate::backend::detect(), crate::backend::NEON);
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

#[test]
fn t1_unpack_shifted_matches_portable() {
    let mut rng = SplitMix64(25);
    for round in 0..ROUNDS {
        let bytes: Vec<u8> = (0..320)
            .map(|i| match round {
                0 => 0,
                1 => 0xff,
                2 => 0x55 << (i % 2),
                _ => (rng.range(0, 255) as u8) ^ (i as u8),
            })
            .collect();
        let (mut want, mut got) = (Poly::ZERO, Poly([-1; N]));
        crate::encoding::pack::simple_bit_unpack_shifted(&bytes, 10, crate::params::D, &mut want);
        Neon.t1_unpack_shifted(&bytes, &mut got);
        assert!(want == got, "t1_unpack_shifted");
        assert!(got.0.iter().all(|&c| (0..Q).contains(&c)));
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

/// The fused UseHint and w1Encode against the portable pair, on every r in [0, q) with h all
/// 0, all 1 and alternating, and on random r and h.
fn check_use_hint_w1_encode<P: Parameters>() {
    let len = 32 * P::W1_BITS;
    let mut rng = SplitMix64(26);
    let random = (0..ROUNDS / 10).map(|_| {
        (0..P::K)
            .map(|_| Poly(coeffs(&mut rng, 0, Q - 1)))
            .collect::<Vec<_>>()
    });
    for (n, r) in crate::backend::kernel_checks::all_of_zq(P::K)
        .chain(random)
        .enumerate()
    {
        let mut hs = std::vec![[0; N], [1; N], core::array::from_fn(|i| (i % 2) as i32)];
        hs.push(core::array::from_fn(|i| ((n * 7 + i * i) % 3 == 0) as i32));
        for h in hs {
            let h = std::vec![Poly(h); r.len()];
            let mut w1 = std::vec![Poly::ZERO; r.len()];
            let (mut want, mut got) =
                (std::vec![0u8; r.len() * len], std::vec![7u8; r.len() * len]);
            Portable.use_hint_vec::<P>(&h, &r, &mut w1);
            crate::encoding::encode::w1_encode::<P>(&w1, &mut want);
            Neon.use_hint_w1_encode::<P>(&h, &r, &mut got);
            assert!(want == got, "use_hint_w1_encode");
        }
    }
}

#[test]
fn use_hint_w1_encode_matches_portable_on_all_of_zq_gamma2_88() {
    check_use_hint_w1_encode::<crate::params::MlDsa44>();
}

#[test]
fn use_hint_w1_encode_matches_portable_on_all_of_zq_gamma2_32() {
    check_use_hint_w1_encode::<crate::params::MlDsa65>();
}
