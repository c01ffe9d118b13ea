//! The profile's costs: every kernel timed alone, on the backend in use, for the benchmark's
//! "where the time goes" table (`mldsa::profile::leaf_costs`). Here, on the top floor, because
//! it calls kernels of every floor; the counters it reads are `support::profile`'s.

use crate::backend::{Backend, with_backend};
use crate::math::poly::{NttPoly, Poly};
use crate::math::splitmix::SplitMix64;
use crate::params::{Matrix, ParameterSet, PolyVec};
use crate::support::profile::{KERNELS, Kernel, counts, enable};
use std::time::Instant;

/// Runs of each kernel timed by [`leaf_costs`]; the fastest counts.
const RUNS: usize = 25;

/// Nanoseconds per call of `f` and the kernel calls it counted per call: the fastest of
/// [`RUNS`] runs of `iters` calls. Short runs, many of them: on a loaded machine some are
/// preempted or slowed, and other load only ever adds time.
fn time(iters: u32, mut f: impl FnMut()) -> (f64, [f64; KERNELS]) {
    f();
    let mut runs = [0f64; RUNS];
    let mut counted = [0u64; KERNELS];
    for (r, t) in runs.iter_mut().enumerate() {
        enable(r == 0);
        let start = Instant::now();
        for _ in 0..iters {
            f();
        }
        *t = start.elapsed().as_nanos() as f64 / iters as f64;
        if r == 0 {
            counted = counts();
        }
    }
    enable(false);
    runs.sort_by(f64::total_cmp);
    (runs[0], counted.map(|c| c as f64 / iters as f64))
}

/// The cost in nanoseconds of one call of each kernel (indexed by `Kernel as usize`), on the
/// backend in use, measured alone (the fastest of 25 runs of `iters` calls): the kernel's time less that of
/// the counted kernels it calls (each at its own cost, measured first). 0 for a kernel this
/// backend does not have (the four-way Keccak on the portable one).
pub fn leaf_costs<P: ParameterSet>(iters: u32) -> [f64; KERNELS] {
    with_backend!(|b| leaf_costs_on::<P, _>(b, iters))
}

fn leaf_costs_on<P: ParameterSet, B: Backend>(b: B, iters: u32) -> [f64; KERNELS] {
    let mut rng = SplitMix64(0x5EED);
    let mut cost = [0f64; KERNELS];
    // A key pair and a signature to decode and re-encode.
    let sk = crate::SigningKey::<P>::from_seed(&rng.bytes());
    let pk = sk.verifying_key().as_bytes().to_vec();
    let sk_bytes = sk.to_expanded_bytes().as_ref().to_vec();
    let sig = sk
        .sign_deterministic(b"profile", &[])
        .expect("an empty context fits");
    let sig = sig.as_bytes().to_vec();
    let mut t = P::VecK::zeroed();
    let mut u = P::VecK::zeroed();
    let mut w = P::VecK::zeroed();
    for p in t.as_mut().iter_mut().chain(u.as_mut()) {
        *p = rng.poly();
    }
    for kernel in Kernel::ALL {
        let (ns, calls) = match kernel {
            Kernel::KeccakScalar => {
                let mut s = [0u64; 25];
                let keccak = b.keccak();
                time(iters, || keccak.apply(core::hint::black_box(&mut s)))
            }
            Kernel::Keccak4x => match b.keccak4x_for_profile() {
                Some(permute) => {
                    let mut s = [[0u64; 4]; 25];
                    time(iters, || permute(core::hint::black_box(&mut s)))
                }
                None => continue,
            },
            Kernel::Keccak8x => match b.keccak8x_for_profile() {
                Some(permute) => {
                    let mut s = [[0u64; 8]; 25];
                    time(iters, || permute(core::hint::black_box(&mut s)))
                }
                None => continue,
            },
            Kernel::Ntt => {
                let mut out = NttPoly::ZERO;
                time(iters, || b.ntt(&t.as_ref()[0], &mut out))
            }
            Kernel::NttInverse => {
                let a = NttPoly(t.as_ref()[0].0);
                let mut out = Poly::ZERO;
                time(iters, || b.ntt_inverse(&a, &mut out))
            }
            Kernel::Pointwise => {
                let (a, c) = (NttPoly(t.as_ref()[0].0), NttPoly(u.as_ref()[0].0));
                let mut out = NttPoly::ZERO;
                // black_box: same inputs every call, so the product would be hoisted out of the loop
                // (it measured 0.9 ns).
                time(iters, || {
                    let (a, c) = core::hint::black_box((&a, &c));
                    b.multiply_ntt(a, c, core::hint::black_box(&mut out))
                })
            }
            Kernel::SparseMul => {
                let c = crate::hash::sample::sample_in_ball::<P>(
                    b.keccak(),
                    &rng.bytes::<64>()[..P::C_TILDE_LEN],
                );
                let mut s = crate::math::poly::SmallPoly::ZERO;
                for x in s.0.iter_mut() {
                    *x = rng.range(-P::ETA, P::ETA) as i8;
                }
                let mut scratch = std::boxed::Box::new(crate::math::sparse::SparseScratch::ZERO);
                let mut out = Poly::ZERO;
                time(iters, || {
                    crate::backend::mul_secret::<P, B>(
                        b,
                        core::hint::black_box(&c),
                        core::hint::black_box(&s),
                        &mut scratch,
                        core::hint::black_box(&mut out),
                    )
                })
            }
            Kernel::Power2Round => {
                let mut t0 = P::VecK::zeroed();
                time(iters, || {
                    b.power2_round_vec(t.as_ref(), w.as_mut(), t0.as_mut())
                })
            }
            Kernel::HighBits => time(iters, || b.high_bits_vec::<P>(t.as_ref(), w.as_mut())),
            Kernel::LowBitsCheck => time(iters, || {
                core::hint::black_box(b.low_bits_exceed::<P>(t.as_ref(), P::GAMMA2 - P::BETA));
            }),
            Kernel::MakeHint => time(iters, || {
                core::hint::black_box(b.make_hint_vec::<P>(t.as_ref(), u.as_ref(), w.as_mut()));
            }),
            Kernel::UseHint => {
                let h = P::VecK::zeroed();
                time(iters, || {
                    b.use_hint_vec::<P>(h.as_ref(), t.as_ref(), w.as_mut())
                })
            }
            Kernel::NormCheck => time(iters, || {
                core::hint::black_box(b.vec_exceeds(t.as_ref(), P::GAMMA1 - P::BETA));
            }),
            Kernel::PkEncode => {
                let mut out = pk.clone();
                let rho = [1u8; 32];
                let mut t1 = P::VecK::zeroed();
                crate::encoding::encode::pk_decode(&pk, &mut [0; 32], t1.as_mut());
                time(iters, || {
                    let (rho, t1) = core::hint::black_box((&rho, t1.as_ref()));
                    crate::encoding::encode::pk_encode(rho, t1, core::hint::black_box(&mut out))
                })
            }
            Kernel::PkDecode => {
                let mut rho = [0u8; 32];
                time(iters, || {
                    crate::encoding::encode::pk_decode(&pk, &mut rho, w.as_mut())
                })
            }
            Kernel::SkEncode | Kernel::SkDecode => {
                let (mut rho, mut key, mut tr) = ([0u8; 32], [0u8; 32], [0u8; 64]);
                let mut s1 = P::VecL::zeroed();
                let mut s2 = P::VecK::zeroed();
                let mut t0 = P::VecK::zeroed();
                let mut decode = || {
                    let ok = crate::encoding::encode::sk_decode::<P, B>(
                        b,
                        &sk_bytes,
                        &mut rho,
                        &mut key,
                        &mut tr,
                        s1.as_mut(),
                        s2.as_mut(),
                        t0.as_mut(),
                    );
                    assert!(ok.is_ok(), "profile: the key decodes");
                };
                if kernel == Kernel::SkDecode {
                    time(iters, decode)
                } else {
                    decode();
                    let mut out = sk_bytes.clone();
                    let parts = crate::encoding::encode::SkParts {
                        rho: &rho,
                        k: &key,
                        tr: &tr[..P::TR_BYTES],
                        s1: s1.as_ref(),
                        s2: s2.as_ref(),
                        t0: t0.as_ref(),
                    };
                    time(iters, || {
                        crate::encoding::encode::sk_encode::<P>(&parts, &mut out)
                    })
                }
            }
            Kernel::SigEncode | Kernel::SigDecode => {
                let mut c_tilde = [0u8; 64];
                let mut z = P::VecL::zeroed();
                let mut h = P::VecK::zeroed();
                let ct = &mut c_tilde[..P::C_TILDE_LEN];
                let mut decode = || {
                    let z = z.as_mut();
                    let ok = crate::encoding::encode::sig_decode::<P, B>(
                        b,
                        &sig,
                        ct,
                        h.as_mut(),
                        |i, z_i| z[i] = *z_i,
                    );
                    assert!(ok.is_ok(), "profile: the signature decodes");
                };
                if kernel == Kernel::SigDecode {
                    time(iters, decode)
                } else {
                    decode();
                    let mut out = sig.clone();
                    let ct = &c_tilde[..P::C_TILDE_LEN];
                    time(iters, || {
                        crate::encoding::encode::sig_encode::<P, B>(
                            b,
                            ct,
                            z.as_ref(),
                            h.as_ref(),
                            &mut out,
                        )
                    })
                }
            }
            Kernel::W1Encode => {
                let mut w1 = P::VecK::zeroed();
                b.high_bits_vec::<P>(t.as_ref(), w1.as_mut());
                let mut out = [0u8; 8 * 128 * 8];
                let out = &mut out[..P::W1_LEN];
                time(iters, || b.w1_encode::<P>(w1.as_ref(), out))
            }
            Kernel::ExpandA => {
                let mut a = P::MatrixA::zeroed();
                let mut rho: [u8; 32] = rng.bytes();
                time(iters, || {
                    rho[0] = rho[0].wrapping_add(1);
                    b.expand_a::<P>(&rho, &mut a);
                })
            }
            Kernel::ExpandATimes => {
                let v = P::NttVecL::zeroed();
                let mut out = P::NttVecK::zeroed();
                let mut rho: [u8; 32] = rng.bytes();
                time(iters, || {
                    rho[0] = rho[0].wrapping_add(1);
                    b.expand_a_times::<P>(&rho, v.as_ref(), out.as_mut());
                })
            }
            Kernel::ExpandS => {
                let mut s1 = P::VecL::zeroed();
                let mut s2 = P::VecK::zeroed();
                let mut seed: [u8; 64] = rng.bytes();
                time(iters, || {
                    seed[0] = seed[0].wrapping_add(1);
                    b.expand_s::<P>(&seed, &mut s1, &mut s2);
                })
            }
            Kernel::ExpandMask => {
                let mut y = P::VecL::zeroed();
                let seed: [u8; 64] = rng.bytes();
                let mut kappa = 0u16;
                time(iters, || {
                    kappa = kappa.wrapping_add(P::L as u16) & 0x7FFF;
                    b.expand_mask::<P>(&seed, kappa, &mut y);
                })
            }
            Kernel::SampleInBall => {
                let mut c_tilde = [0u8; 64];
                time(iters, || {
                    c_tilde[0] = c_tilde[0].wrapping_add(1);
                    core::hint::black_box(crate::hash::sample::sample_in_ball::<P>(
                        b.keccak(),
                        &c_tilde[..P::C_TILDE_LEN],
                    ));
                })
            }
        };
        // Per-polynomial kernels count one call per polynomial of the vector they were given.
        let own = calls[kernel as usize].max(1.0);
        let nested: f64 = Kernel::ALL
            .iter()
            .filter(|&&j| j != kernel)
            .map(|&j| calls[j as usize] * cost[j as usize])
            .sum();
        cost[kernel as usize] = ((ns - nested) / own).max(0.0);
    }
    cost
}
