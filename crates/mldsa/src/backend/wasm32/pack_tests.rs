//! The simd128 BitUnpack of y and z against the portable one, and (ignored, run by hand) its
//! timing.

use super::Simd128;
use crate::backend::{PackKernels, Portable};
use crate::math::poly::Poly;
use crate::math::splitmix::SplitMix64;
use crate::params::{Dilithium3, MlDsa44, MlDsa65, MlDsa87, Parameters};
use std::vec::Vec;

fn check<P: Parameters>() {
    let len = 32 * P::Z_BITS;
    let mut rng = SplitMix64(0x2B + P::Z_BITS as u64);
    let mut inputs: Vec<Vec<u8>> = std::vec![std::vec![0; len], std::vec![0xFF; len]];
    inputs.push((0..len).map(|i| i as u8).collect());
    inputs.push(
        (0..len)
            .map(|i| if i % 2 == 0 { 0xFF } else { 0 })
            .collect(),
    );
    for _ in 0..200 {
        inputs.push((0..len).map(|_| rng.next_u64() as u8).collect());
    }
    for v in &inputs {
        let (mut want, mut got) = (Poly([7; 256]), Poly([-7; 256]));
        Portable.bit_unpack_z::<P>(v, &mut want);
        Simd128.bit_unpack_z::<P>(v, &mut got);
        assert_eq!(got.0, want.0, "{} bit_unpack_z of {v:?}", P::NAME);
        // A longer buffer (ExpandMask's squeezed blocks) reads only the first 32 Z_BITS bytes.
        let mut long = v.clone();
        long.extend_from_slice(&[0xA5; 64]);
        Simd128.bit_unpack_z::<P>(&long[..len], &mut got);
        assert_eq!(got.0, want.0, "{} bit_unpack_z, longer buffer", P::NAME);
    }
}

#[test]
fn bit_unpack_z_matches_portable() {
    check::<MlDsa44>();
    check::<MlDsa65>();
    check::<MlDsa87>();
    check::<Dilithium3>();
}

/// Nanoseconds for one call of `f`, over `iters` calls.
fn run(iters: u32, mut f: impl FnMut()) -> f64 {
    let start = std::time::Instant::now();
    for _ in 0..iters {
        f();
    }
    start.elapsed().as_nanos() as f64 / iters as f64
}

/// The portable BitUnpack of z (ML-DSA-65, 20 bits) against the simd128 one: interleaved short
/// runs, the fastest and the median of each. By hand, with `--ignored --nocapture`.
#[test]
#[ignore = "timing, run by hand"]
fn bit_unpack_z_timing() {
    let mut rng = SplitMix64(0x7A);
    let v: Vec<u8> = (0..32 * 20).map(|_| rng.next_u64() as u8).collect();
    let mut w = Poly::ZERO;
    let scalar = |w: &mut Poly| Portable.bit_unpack_z::<MlDsa65>(core::hint::black_box(&v), w);
    let vector = |w: &mut Poly| Simd128.bit_unpack_z::<MlDsa65>(core::hint::black_box(&v), w);
    let warm = std::time::Instant::now();
    while warm.elapsed().as_millis() < 1_000 {
        run(100, || scalar(core::hint::black_box(&mut w)));
        run(100, || vector(core::hint::black_box(&mut w)));
    }
    let (mut s, mut t) = ([0f64; 201], [0f64; 201]);
    for (a, b) in s.iter_mut().zip(t.iter_mut()) {
        *a = run(1_000, || scalar(core::hint::black_box(&mut w)));
        *b = run(1_000, || vector(core::hint::black_box(&mut w)));
    }
    s.sort_by(f64::total_cmp);
    t.sort_by(f64::total_cmp);
    std::println!(
        "ns per polynomial: portable min {:.0} median {:.0}; simd128 min {:.0} median {:.0}; \
         ratio min {:.2} median {:.2}",
        s[0],
        s[100],
        t[0],
        t[100],
        s[0] / t[0],
        s[100] / t[100]
    );
}
