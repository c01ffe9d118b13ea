//! "Where the time goes": call counters on the kernels and their costs measured in isolation,
//! for the benchmark's profile table (issue #20). Compiled only with the `profile` feature,
//! which only the benchmark (`bench/`) turns on; not part of the API.
//!
//! Each kernel site calls `tick` (through the crate's `tick!` macro, which is empty without
//! the feature). Counting is off until [`enable`]: then a tick is one relaxed load and a
//! predictable branch, and while on, a relaxed load and store of a static counter (the
//! benchmark measures on one thread). [`leaf_costs`] times every kernel alone, on the backend
//! in use, and subtracts what the kernels it calls cost (counted, not assumed), so that each
//! category of the table is the kernel's own work.

use crate::backend::{Backend, with_backend};
use crate::math::poly::{NttPoly, Poly};
use crate::math::splitmix::SplitMix64;
use crate::params::{Matrix, ParameterSet, PolyVec};
use core::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// The kernels counted. A call of each is the unit in its doc.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    /// One scalar Keccak-f\[1600\] permutation (H, G, mu, H(mu || w1), SampleInBall).
    KeccakScalar,
    /// One four-way Keccak-f\[1600\] permutation (the AVX2 samplers).
    Keccak4x,
    /// One eight-way Keccak-f\[1600\] permutation (ExpandA where AVX-512 runs).
    Keccak8x,
    /// One NTT of one polynomial.
    Ntt,
    /// One NTT^-1 of one polynomial.
    NttInverse,
    /// One pointwise product of two NTT-domain polynomials (also each term of A-hat o v).
    Pointwise,
    /// One sparse challenge product c s of one polynomial (c s1, c s2 in signing).
    SparseMul,
    /// One ExpandA of the whole matrix (held), without its Keccak.
    ExpandA,
    /// One fused ExpandA and A-hat o v (KeyGen, Verify), without its Keccak and products.
    ExpandATimes,
    /// One ExpandS (s1 and s2), without its Keccak.
    ExpandS,
    /// One mask polynomial of ExpandMask (y), without its Keccak.
    ExpandMask,
    /// One SampleInBall, without its Keccak.
    SampleInBall,
    /// Power2Round of one polynomial.
    Power2Round,
    /// HighBits of one polynomial.
    HighBits,
    /// The LowBits norm check of one polynomial.
    LowBitsCheck,
    /// MakeHint of one polynomial.
    MakeHint,
    /// UseHint of one polynomial.
    UseHint,
    /// The infinity-norm check of one polynomial.
    NormCheck,
    /// One pkEncode.
    PkEncode,
    /// One pkDecode.
    PkDecode,
    /// One skEncode.
    SkEncode,
    /// One skDecode (with its range checks).
    SkDecode,
    /// One sigEncode.
    SigEncode,
    /// One sigDecode, without its norm check.
    SigDecode,
    /// One w1Encode.
    W1Encode,
}

/// Number of [`Kernel`]s.
pub const KERNELS: usize = 25;

/// The table's columns, each a group of kernels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Category {
    /// Scalar Keccak.
    KeccakScalar,
    /// Four- and eight-way Keccak.
    Keccak4x,
    /// NTT.
    Ntt,
    /// NTT^-1.
    NttInverse,
    /// Pointwise products, and the sparse challenge products that replace some of them.
    Pointwise,
    /// Sampling and rejection (the samplers' own work).
    Sampling,
    /// Rounding, hints and norm checks.
    Rounding,
    /// Encoding and decoding keys, signatures and w1.
    Packing,
}

impl Category {
    /// Every category, in table order.
    pub const ALL: [Category; 8] = [
        Category::KeccakScalar,
        Category::Keccak4x,
        Category::Ntt,
        Category::NttInverse,
        Category::Pointwise,
        Category::Sampling,
        Category::Rounding,
        Category::Packing,
    ];

    /// The column heading.
    pub fn name(self) -> &'static str {
        match self {
            Category::KeccakScalar => "Keccak (scalar)",
            Category::Keccak4x => "Keccak (4/8-way)",
            Category::Ntt => "NTT",
            Category::NttInverse => "NTT^-1",
            Category::Pointwise => "pointwise",
            Category::Sampling => "sampling, rejection",
            Category::Rounding => "rounding, hints, norms",
            Category::Packing => "packing",
        }
    }
}

impl Kernel {
    /// Every kernel: the leaves (which call no other counted kernel) first, so that
    /// [`leaf_costs`] can subtract them from the kernels that call them.
    pub const ALL: [Kernel; KERNELS] = [
        Kernel::KeccakScalar,
        Kernel::Keccak4x,
        Kernel::Keccak8x,
        Kernel::Ntt,
        Kernel::NttInverse,
        Kernel::Pointwise,
        Kernel::SparseMul,
        Kernel::Power2Round,
        Kernel::HighBits,
        Kernel::LowBitsCheck,
        Kernel::MakeHint,
        Kernel::UseHint,
        Kernel::NormCheck,
        Kernel::PkEncode,
        Kernel::PkDecode,
        Kernel::SkEncode,
        Kernel::SkDecode,
        Kernel::SigEncode,
        Kernel::W1Encode,
        Kernel::ExpandA,
        Kernel::ExpandATimes,
        Kernel::ExpandS,
        Kernel::ExpandMask,
        Kernel::SampleInBall,
        Kernel::SigDecode,
    ];

    /// The column it is counted in.
    pub fn category(self) -> Category {
        match self {
            Kernel::KeccakScalar => Category::KeccakScalar,
            Kernel::Keccak4x | Kernel::Keccak8x => Category::Keccak4x,
            Kernel::Ntt => Category::Ntt,
            Kernel::NttInverse => Category::NttInverse,
            Kernel::Pointwise | Kernel::SparseMul => Category::Pointwise,
            Kernel::ExpandA
            | Kernel::ExpandATimes
            | Kernel::ExpandS
            | Kernel::ExpandMask
            | Kernel::SampleInBall => Category::Sampling,
            Kernel::Power2Round
            | Kernel::HighBits
            | Kernel::LowBitsCheck
            | Kernel::MakeHint
            | Kernel::UseHint
            | Kernel::NormCheck => Category::Rounding,
            Kernel::PkEncode
            | Kernel::PkDecode
            | Kernel::SkEncode
            | Kernel::SkDecode
            | Kernel::SigEncode
            | Kernel::SigDecode
            | Kernel::W1Encode => Category::Packing,
        }
    }
}

static ENABLED: AtomicBool = AtomicBool::new(false);
static COUNTS: [AtomicU64; KERNELS] = [const { AtomicU64::new(0) }; KERNELS];

/// Counts `n` calls of `k` (while counting is on).
#[inline(always)]
pub(crate) fn tick(k: Kernel, n: usize) {
    if ENABLED.load(Ordering::Relaxed) {
        let c = &COUNTS[k as usize];
        c.store(c.load(Ordering::Relaxed) + n as u64, Ordering::Relaxed);
    }
}

/// The pointwise products of A-hat o v over `rows` rows (zip semantics, as the kernels pair
/// them).
pub(crate) fn matrix_terms<Row: AsRef<[NttPoly]>>(
    a_hat: &[Row],
    v: &[NttPoly],
    rows: usize,
) -> usize {
    a_hat
        .iter()
        .take(rows)
        .map(|row| row.as_ref().len().min(v.len()))
        .sum()
}

/// Turns counting on (and zeroes the counts) or off. One thread at a time: the counters are
/// plain loads and stores.
pub fn enable(on: bool) {
    reset();
    ENABLED.store(on, Ordering::Relaxed);
}

/// Zeroes the counts.
pub fn reset() {
    for c in &COUNTS {
        c.store(0, Ordering::Relaxed);
    }
}

/// The calls counted since the last [`reset`], indexed by `Kernel as usize`.
pub fn counts() -> [u64; KERNELS] {
    core::array::from_fn(|i| COUNTS[i].load(Ordering::Relaxed))
}

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
                time(iters, || {
                    crate::hash::keccak::f1600(core::hint::black_box(&mut s))
                })
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
                let c =
                    crate::hash::sample::sample_in_ball::<P>(&rng.bytes::<64>()[..P::C_TILDE_LEN]);
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
                    let ok = crate::encoding::encode::sig_decode::<P, B>(
                        b,
                        &sig,
                        ct,
                        z.as_mut(),
                        h.as_mut(),
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
