//! ExpandA on the two-way Keccak against the portable sampler, alone and fused with the
//! matrix product, for every set (the AES sets take the portable path).

use super::Simd128;
use crate::backend::{Backend, Portable};
use crate::math::poly::{N, NttPoly, Poly};
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

/// The vector candidate loop against the scalar one: random streams, streams where about
/// half the candidates are rejected (q - 1, q and above are all near), every start count
/// near N, and every length up to a few groups.
#[test]
fn rej_uniform_matches_scalar() {
    use super::sample::{rej_uniform, rej_uniform_scalar};
    let mut rng = SplitMix64(0x3B17);
    for trial in 0..400 {
        let len = if trial < 64 {
            trial
        } else {
            3 * rng.range(0, 290) as usize
        };
        let buf: std::vec::Vec<u8> = (0..len)
            .map(|i| match (trial % 3, i % 3) {
                // Candidates in [q - 2^13 .. 2^23 + q - 2^13): near q, top bit random.
                (1, 2) => 0x7F | (rng.next_u64() as u8 & 0x80),
                (1, 1) => 0xC0 | rng.next_u64() as u8,
                _ => rng.next_u64() as u8,
            })
            .collect();
        let start = match trial % 4 {
            0 => 0,
            1 => rng.range(0, 256) as usize,
            _ => rng.range(240, 256) as usize,
        };
        let mut want = [0i32; N];
        let mut got = [0i32; N];
        let fill: [i32; N] = core::array::from_fn(|i| i as i32 - 7);
        want.copy_from_slice(&fill);
        got.copy_from_slice(&fill);
        let w = rej_uniform_scalar(&mut want, start, &buf);
        let g = rej_uniform(&mut got, start, &buf);
        assert_eq!(
            (g, got),
            (w, want),
            "trial {trial}, length {len}, start {start}"
        );
    }
}

/// Nanoseconds for one call of `f`, over `iters` calls.
fn run(iters: u32, mut f: impl FnMut()) -> f64 {
    let start = std::time::Instant::now();
    for _ in 0..iters {
        f();
    }
    start.elapsed().as_nanos() as f64 / iters as f64
}

/// The scalar candidate loop against the vector one on one entry's first 840 bytes,
/// interleaved short runs; the fastest and the median of each. By hand:
/// `bash scripts/wasm-simd-tests.sh rej_uniform_timing` after building, or wasi-run.mjs on
/// the test binary with `--ignored --nocapture`.
#[test]
#[ignore = "timing, run by hand"]
fn rej_uniform_timing() {
    use super::sample::{rej_uniform, rej_uniform_scalar};
    let mut rng = SplitMix64(0x71);
    let buf: std::vec::Vec<u8> = (0..840).map(|_| rng.next_u64() as u8).collect();
    let mut out = [0i32; N];
    let scalar = |out: &mut [i32; N]| {
        core::hint::black_box(rej_uniform_scalar(out, 0, core::hint::black_box(&buf)));
    };
    let vector = |out: &mut [i32; N]| {
        core::hint::black_box(rej_uniform(out, 0, core::hint::black_box(&buf)));
    };
    let warm = std::time::Instant::now();
    while warm.elapsed().as_millis() < 1_000 {
        run(100, || scalar(&mut out));
        run(100, || vector(&mut out));
    }
    let (mut s, mut v) = ([0f64; 201], [0f64; 201]);
    for (a, b) in s.iter_mut().zip(v.iter_mut()) {
        *a = run(1_000, || scalar(&mut out));
        *b = run(1_000, || vector(&mut out));
    }
    s.sort_by(f64::total_cmp);
    v.sort_by(f64::total_cmp);
    std::println!(
        "ns per entry (256 coefficients): scalar min {:.0} median {:.0}; simd128 min {:.0} \
         median {:.0}; ratio min {:.2} median {:.2}",
        s[0],
        s[100],
        v[0],
        v[100],
        s[0] / v[0],
        s[100] / v[100]
    );
}
