//! Portable vs AVX2 kernels, with or without their AVX-512 variants (FZ-1; bug class 18,
//! backend-specific miscomputation).
//!
//! Each input picks a kernel and a parameter set and supplies the coefficients; the kernel runs
//! on both backends through `mldsa::ct_kernels` (hidden, compiled only with `--cfg mldsa_ct`,
//! which `scripts/fuzz-smoke.sh` sets) and the outputs must agree:
//! - exactly, where the kernel's result is canonical: Power2Round, HighBits (Decompose),
//!   ||LowBits|| >= bound, MakeHint (and its count), UseHint, ||v|| >= bound, w1Encode,
//!   BitUnpack of z, sub_freeze, the sparse products c s and c t0, ExpandMask, ExpandS (also on
//!   the Dilithium v3.1 AES sets, whose AES-256-CTR samplers are portable code on both backends);
//! - modulo q, each within the portable function's documented output bound, where the
//!   contract leaves the representative free: NTT (|c| < 9q), NTT^-1 and MultiplyNTT (|c| < q),
//!   MatrixVectorNTT (|c| <= 6283009).
//!
//! Inputs are mapped into each kernel's documented input domain (the `Bounds:` lines), with a
//! bias towards the edges of that domain and their neighbours; outside it the contract promises
//! nothing (debug builds assert the bounds inside the kernels, and this build keeps debug
//! assertions on, so a mapping mistake shows up as a crash too).
//!
//! Layout: byte 0 = kernel, byte 1 = parameter set (`% 3`; and `/ 3 % 2`, on a CPU with AVX-512,
//! whether the AVX-512 variants run), bytes 2..6 = a 32-bit parameter
//! (a norm bound or kappa), the rest = coefficient material, four bytes per coefficient (read
//! cyclically, so any length works). On a CPU without AVX2 the target does nothing.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    #[cfg(mldsa_ct)]
    diff::run(data);
    #[cfg(not(mldsa_ct))]
    {
        let _ = data;
        panic!("backend_diff needs RUSTFLAGS=\"--cfg mldsa_ct\" (scripts/fuzz-smoke.sh sets it)");
    }
});

#[cfg(mldsa_ct)]
mod diff {
    use mldsa::ct_kernels::{self as k, MAX_POLYS, Which};
    use mldsa::legacy::{Dilithium2Aes, Dilithium3Aes, Dilithium5Aes};
    use mldsa::{MlDsa44, MlDsa65, MlDsa87, ParameterSet, Parameters};

    const N: usize = 256;
    const Q: i32 = 8_380_417;
    /// Kernel selectors (byte 0 modulo this).
    const KERNELS: u8 = 15;

    /// Coefficient material, read cyclically.
    struct Source<'a> {
        data: &'a [u8],
        pos: usize,
    }

    impl Source<'_> {
        fn u32(&mut self) -> u32 {
            if self.data.is_empty() {
                return 0;
            }
            let mut b = [0u8; 4];
            for x in &mut b {
                *x = self.data[self.pos % self.data.len()];
                self.pos += 1;
            }
            u32::from_le_bytes(b)
        }

        fn byte(&mut self) -> u8 {
            self.u32() as u8
        }

        /// A value in [lo, hi] (inclusive): one in sixteen is lo, one hi, one 0 (clamped into
        /// range), one within 16 of lo, one within 16 of hi; the rest spread over the range
        /// (uniformly when hi - lo < 2^28, the kernels' domains here).
        fn coeff(&mut self, lo: i32, hi: i32) -> i32 {
            let raw = self.u32();
            let rest = u64::from(raw >> 4);
            let (lo, hi) = (i64::from(lo), i64::from(hi));
            let span = (hi - lo + 1) as u64;
            let v = match raw & 15 {
                0 => lo,
                1 => hi,
                2 => 0i64.clamp(lo, hi),
                3 => lo + (rest % 16).min(span - 1) as i64,
                4 => hi - (rest % 16).min(span - 1) as i64,
                _ => lo + (rest % span) as i64,
            };
            v as i32
        }

        fn poly(&mut self, lo: i32, hi: i32) -> [i32; N] {
            core::array::from_fn(|_| self.coeff(lo, hi))
        }

        fn polys(&mut self, n: usize, lo: i32, hi: i32) -> Vec<[i32; N]> {
            (0..n).map(|_| self.poly(lo, hi)).collect()
        }
    }

    fn modq(x: i32) -> i64 {
        (x as i64).rem_euclid(Q as i64)
    }

    /// Both outputs congruent mod q and each strictly within `bound` (`<=` when `inclusive`).
    fn congruent(what: &str, p: &[i32], a: &[i32], bound: i64, inclusive: bool) {
        assert_eq!(p.len(), a.len());
        for (i, (&x, &y)) in p.iter().zip(a).enumerate() {
            for (side, v) in [("portable", x), ("avx2", y)] {
                let m = (v as i64).abs();
                assert!(
                    m < bound || (inclusive && m == bound),
                    "{what}: {side} output [{i}] = {v} outside its bound {bound}"
                );
            }
            assert_eq!(
                modq(x),
                modq(y),
                "{what}: [{i}] portable {x} vs avx2 {y} differ mod q"
            );
        }
    }

    fn flat(v: &[[i32; N]]) -> Vec<i32> {
        v.iter().flatten().copied().collect()
    }

    pub fn run(data: &[u8]) {
        if data.len() < 6 || !Which::Avx2.available() {
            return;
        }
        let kernel = data[0] % KERNELS;
        let param = u32::from_le_bytes([data[2], data[3], data[4], data[5]]);
        let mut src = Source {
            data: &data[6..],
            pos: 0,
        };
        let av = if data[1] / 3 % 2 == 1 && Which::Avx512.available() {
            Which::Avx512
        } else {
            Which::Avx2
        };
        match data[1] % 3 {
            0 => per_set::<MlDsa44>(av, kernel, param, &mut src),
            1 => per_set::<MlDsa65>(av, kernel, param, &mut src),
            _ => per_set::<MlDsa87>(av, kernel, param, &mut src),
        }
    }

    fn per_set<P: ParameterSet>(av: Which, kernel: u8, param: u32, src: &mut Source<'_>) {
        let pt = Which::Portable;
        let name = P::NAME;
        // Vector length 1..=8 for the element-wise kernels.
        let count = 1 + usize::from(src.byte()) % MAX_POLYS;
        let gamma2 = P::GAMMA2;
        match kernel {
            // NTT. Bounds: |c| < q in; |c| < 9q out.
            0 => {
                let w = src.poly(-(Q - 1), Q - 1);
                let (a, b) = (k::ntt(pt, &w).unwrap(), k::ntt(av, &w).unwrap());
                congruent("ntt", &a, &b, 9 * Q as i64, false);
            }
            // NTT^-1. Bounds: |c| < q in and out.
            1 => {
                let w = src.poly(-(Q - 1), Q - 1);
                let (a, b) = (
                    k::ntt_inverse(pt, &w).unwrap(),
                    k::ntt_inverse(av, &w).unwrap(),
                );
                congruent("ntt_inverse", &a, &b, Q as i64, false);
            }
            // MultiplyNTT. Bounds: |a_i b_i| <= 2^31 q (|a|, |b| < 9q qualify); |c| < q out.
            2 => {
                let x = src.poly(-(9 * Q - 1), 9 * Q - 1);
                let y = src.poly(-(9 * Q - 1), 9 * Q - 1);
                let (a, b) = (
                    k::multiply_ntt(pt, &x, &y).unwrap(),
                    k::multiply_ntt(av, &x, &y).unwrap(),
                );
                congruent("multiply_ntt", &a, &b, Q as i64, false);
            }
            // MatrixVectorNTT. Bounds: A-hat in [0, q), |v| < 9q; |c| <= 6283009 out.
            3 => {
                let a_hat = src.polys(P::K * P::L, 0, Q - 1);
                let v = src.polys(P::L, -(9 * Q - 1), 9 * Q - 1);
                let mut a = vec![[0; N]; P::K];
                let mut b = vec![[0; N]; P::K];
                k::matrix_vector_ntt::<P>(pt, &a_hat, &v, &mut a).unwrap();
                k::matrix_vector_ntt::<P>(av, &a_hat, &v, &mut b).unwrap();
                congruent("matrix_vector_ntt", &flat(&a), &flat(&b), 6_283_009, true);
            }
            // Power2Round. Bounds: [0, q).
            4 => {
                let t = src.polys(count, 0, Q - 1);
                let (mut a1, mut a0) = (vec![[0; N]; count], vec![[0; N]; count]);
                let (mut b1, mut b0) = (vec![[0; N]; count], vec![[0; N]; count]);
                k::power2_round(pt, &t, &mut a1, &mut a0).unwrap();
                k::power2_round(av, &t, &mut b1, &mut b0).unwrap();
                assert!(a1 == b1 && a0 == b0, "{name} power2_round differs");
            }
            // HighBits (Decompose). Bounds: [0, q); inputs near multiples of 2 gamma2 and
            // near q - 1 (the wrap-around case) are the interesting ones.
            5 => {
                let w = decompose_inputs(src, count, gamma2);
                let (mut a, mut b) = (vec![[0; N]; count], vec![[0; N]; count]);
                k::high_bits::<P>(pt, &w, &mut a).unwrap();
                k::high_bits::<P>(av, &w, &mut b).unwrap();
                assert!(a == b, "{name} high_bits differs");
            }
            // ||LowBits(r)|| >= bound. Bounds: r in [0, q), bound > 0.
            6 => {
                let bound = norm_bound(param, gamma2 - P::BETA, gamma2 + 1);
                let r = if src.byte() & 1 == 0 {
                    decompose_inputs(src, count, gamma2)
                } else {
                    low_bits_inputs(src, count, gamma2, bound)
                };
                let a = k::low_bits_exceed::<P>(pt, &r, bound).unwrap();
                let b = k::low_bits_exceed::<P>(av, &r, bound).unwrap();
                assert_eq!(a, b, "{name} low_bits_exceed, bound {bound}");
            }
            // MakeHint. Bounds: r and r + z in [0, q).
            7 => {
                let r = decompose_inputs(src, count, gamma2);
                let mut rz = decompose_inputs(src, count, gamma2);
                // Half the time a small z (the signer's |ct0| < gamma2), which crosses
                // high-bit boundaries only near them.
                if param & 1 == 1 {
                    for (rz_i, r_i) in rz.iter_mut().zip(&r) {
                        for (x, &y) in rz_i.iter_mut().zip(r_i) {
                            let z = *x % (2 * gamma2) - gamma2;
                            *x = (y + z).rem_euclid(Q);
                        }
                    }
                }
                let (mut a, mut b) = (vec![[0; N]; count], vec![[0; N]; count]);
                let ca = k::make_hint::<P>(pt, &rz, &r, &mut a).unwrap();
                let cb = k::make_hint::<P>(av, &rz, &r, &mut b).unwrap();
                assert!(a == b, "{name} make_hint differs");
                assert_eq!(ca, cb, "{name} make_hint count");
            }
            // UseHint. Bounds: h in {0, 1}, r in [0, q).
            8 => {
                let h = src.polys(count, 0, 1);
                let r = decompose_inputs(src, count, gamma2);
                let (mut a, mut b) = (vec![[0; N]; count], vec![[0; N]; count]);
                k::use_hint::<P>(pt, &h, &r, &mut a).unwrap();
                k::use_hint::<P>(av, &h, &r, &mut b).unwrap();
                assert!(a == b, "{name} use_hint differs");
            }
            // ||v|| >= bound. Bounds: |c| < 2^31, bound > 0. Coefficients anywhere in i32
            // except i32::MIN, or near the signer's bounds.
            9 => {
                let bound = norm_bound(param, P::GAMMA1 - P::BETA, i32::MAX);
                // Per input, one range for every coefficient: anything, up to the bound (the
                // edges +-bound come up often, so a check off by one at the bound shows), below
                // it (answer 0), or a little beyond.
                let (lo, hi) = match src.byte() % 4 {
                    0 => (-i32::MAX, i32::MAX),
                    1 => (-bound, bound),
                    2 => (-(bound - 1), bound - 1),
                    _ => (-bound.saturating_add(16), bound.saturating_add(16)),
                };
                let v: Vec<[i32; N]> = (0..count)
                    .map(|_| {
                        core::array::from_fn(|_| {
                            if hi == i32::MAX {
                                (src.u32() as i32).max(-i32::MAX)
                            } else {
                                src.coeff(lo, hi)
                            }
                        })
                    })
                    .collect();
                let a = k::vec_exceeds(pt, &v, bound).unwrap();
                let b = k::vec_exceeds(av, &v, bound).unwrap();
                assert_eq!(a, b, "{name} vec_exceeds, bound {bound}");
            }
            // w1Encode. Bounds: w1 in [0, 2^W1_BITS).
            10 => {
                let top = (1 << bitlen(((Q - 1) / (2 * gamma2) - 1) as u32)) - 1;
                let w1 = src.polys(P::K, 0, top);
                let (mut a, mut b) = (vec![0u8; P::W1_LEN], vec![0u8; P::W1_LEN]);
                k::w1_encode::<P>(pt, &w1, &mut a).unwrap();
                k::w1_encode::<P>(av, &w1, &mut b).unwrap();
                assert!(a == b, "{name} w1_encode differs");
            }
            // BitUnpack of z. Bounds: any bytes.
            11 => {
                let v: Vec<u8> = (0..32 * P::Z_BITS).map(|_| src.byte()).collect();
                let a = k::bit_unpack_z::<P>(pt, &v).unwrap();
                let b = k::bit_unpack_z::<P>(av, &v).unwrap();
                assert!(a == b, "{name} bit_unpack_z differs");
            }
            // sub_freeze. Bounds: w in [0, q), |cs2| <= (q-1)/2.
            12 => {
                let w = src.polys(count, 0, Q - 1);
                let cs2 = src.polys(count, -(Q - 1) / 2, (Q - 1) / 2);
                let (mut a, mut b) = (cs2.clone(), cs2);
                k::sub_freeze(pt, &w, &mut a).unwrap();
                k::sub_freeze(av, &w, &mut b).unwrap();
                assert!(a == b, "sub_freeze differs");
            }
            // The sparse challenge products signing runs: c s1 / c s2 (the kernel for the set's
            // eta) and c t0, for a SampleInBall-shaped c (at most tau coefficients in {-1, 1},
            // at positions from the input). Bounds: s in [-eta, eta], |t0| <= 2^12.
            13 => {
                let mut c = [0i32; N];
                for _ in 0..P::TAU {
                    let r = src.u32();
                    c[(r >> 1) as usize % N] = if r & 1 == 0 { 1 } else { -1 };
                }
                let s = src.poly(-P::ETA, P::ETA);
                let bits = if P::ETA == 2 { 8 } else { 4 };
                let a = k::sparse_mul(pt, bits, &c, &s).unwrap();
                let b = k::sparse_mul(av, bits, &c, &s).unwrap();
                assert!(a == b, "c s differs");
                let t0 = src.poly(-(1 << 12), 1 << 12);
                let a = k::sparse_mul(pt, 32, &c, &t0).unwrap();
                let b = k::sparse_mul(av, 32, &c, &t0).unwrap();
                assert!(a == b, "c t0 differs");
            }
            // ExpandMask and ExpandS (the 4-way Keccak samplers), then the same seed on the
            // Dilithium v3.1 AES set of the same shape (AES-256-CTR streams; the AVX2 backend
            // runs the portable samplers over them, which must give the same bytes).
            _ => {
                let mut seed = [0u8; 64];
                seed.iter_mut().for_each(|x| *x = src.byte());
                samplers::<P>(av, &seed, param);
                match P::K {
                    4 => samplers::<Dilithium2Aes>(av, &seed, param),
                    6 => samplers::<Dilithium3Aes>(av, &seed, param),
                    _ => samplers::<Dilithium5Aes>(av, &seed, param),
                }
            }
        }
    }

    /// ExpandMask and ExpandS of set `S` agree on both backends. Bounds: kappa + l - 1 < 2^16.
    fn samplers<S: Parameters>(av: Which, seed: &[u8; 64], param: u32) {
        let (pt, name) = (Which::Portable, S::NAME);
        let kappa = (param % (65_536 - S::L as u32 + 1)) as u16;
        let (mut a, mut b) = (vec![[0; N]; S::L], vec![[0; N]; S::L]);
        k::expand_mask::<S>(pt, seed, kappa, &mut a).unwrap();
        k::expand_mask::<S>(av, seed, kappa, &mut b).unwrap();
        assert!(a == b, "{name} expand_mask differs at kappa {kappa}");
        let (mut a, mut b) = (vec![[0; N]; S::L + S::K], vec![[0; N]; S::L + S::K]);
        k::expand_s::<S>(pt, seed, &mut a).unwrap();
        k::expand_s::<S>(av, seed, &mut b).unwrap();
        assert!(a == b, "{name} expand_s differs");
    }

    /// Coefficients in [0, q): half uniform, half within 8 of a multiple of 2 gamma2 (where
    /// r0 is 0, +-gamma2 is one step away, and q - 1 wraps around).
    fn decompose_inputs(src: &mut Source<'_>, count: usize, gamma2: i32) -> Vec<[i32; N]> {
        let m = (Q - 1) / (2 * gamma2);
        (0..count)
            .map(|_| {
                core::array::from_fn(|_| {
                    let raw = src.u32();
                    if raw & 1 == 0 {
                        src.coeff(0, Q - 1)
                    } else {
                        // Multiples of gamma2 (odd ones are the r0 = +-gamma2 edges), up to q - 1.
                        let k = ((raw >> 1) % (2 * m as u32 + 1)) as i32;
                        let d = ((raw >> 24) % 17) as i32 - 8;
                        (k * gamma2 + d).clamp(0, Q - 1)
                    }
                })
            })
            .collect()
    }

    /// Coefficients in [0, q) whose low bits lie in [-bound, bound] (edges included often):
    /// k * 2 gamma2 + d, clamped into [0, q).
    fn low_bits_inputs(
        src: &mut Source<'_>,
        count: usize,
        gamma2: i32,
        bound: i32,
    ) -> Vec<[i32; N]> {
        let m = (Q - 1) / (2 * gamma2);
        (0..count)
            .map(|_| {
                core::array::from_fn(|_| {
                    let k = src.coeff(0, m);
                    let d = src.coeff(-bound, bound);
                    (k * 2 * gamma2 + d).clamp(0, Q - 1)
                })
            })
            .collect()
    }

    /// A norm bound > 0 from the parameter: the signer's bound and its neighbours most of the
    /// time, otherwise anything in [1, max].
    fn norm_bound(param: u32, signer: i32, max: i32) -> i32 {
        let b = match param % 8 {
            0..=2 => signer,
            3 => signer - 1,
            4 => signer + 1,
            _ => 1 + ((param >> 3) % max as u32) as i32,
        };
        b.clamp(1, max)
    }

    const fn bitlen(x: u32) -> u32 {
        u32::BITS - x.leading_zeros()
    }
}
