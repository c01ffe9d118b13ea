//! The benches. Each is a `fn(&mut Runner, &mut BenchRng)`, instantiated once per backend
//! (`const B: u8`), that makes [`measurements`] timings of one primitive.
//!
//! How one measurement is made ([`measure`]): both a `Left` and a `Right` input are prepared
//! (always both, so the work before the timer does not depend on the class), a fair coin picks
//! the class, the chosen input is blended into one fixed buffer by a mask (the same loads and
//! stores whichever is chosen), and only the primitive on that buffer is timed. The classes are
//! interleaved so that drifts of the machine (frequency, other load) hit both alike.
//!
//! The inputs of each class are legal for the primitive (its documented domain, and the values
//! signing actually gives it), and where a check's outcome may become public (the norm and r0
//! checks, skDecode's range check) both classes have the same outcome.

use crate::harness::{self, Bench, BenchFn, BenchRng, Class, Options, Runner};
use mldsa::ct_kernels::{self as k, Which};
use mldsa::{MlDsa44, MlDsa65, ParameterSet, Parameters, SigningKey};
use rand::{Rng, RngExt, SeedableRng};
use std::cell::Cell;
use std::hint::black_box;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Coefficients per polynomial.
const N: usize = 256;
/// The ML-DSA modulus q.
const Q: i32 = 8_380_417;
/// One polynomial at the kernels' boundary.
type Coeffs = [i32; N];

/// Measurements per bench (set once from the command line).
static MEASUREMENTS: AtomicUsize = AtomicUsize::new(100_000);

fn measurements() -> usize {
    MEASUREMENTS.load(Ordering::Relaxed)
}

/// The backend a bench instance runs on: 0 portable, 1 AVX2, 2 AVX2 with its AVX-512 variants.
fn which<const B: u8>() -> Which {
    match B {
        0 => Which::Portable,
        1 => Which::Avx2,
        _ => Which::Avx512,
    }
}

/// A bench input: plain words that [`Input::select`] can copy without branching.
trait Input: Copy {
    /// `self` := `r` if `mask` is all ones, `l` if it is zero, reading every word of both
    /// inputs, in the same order, whatever the mask.
    fn select(&mut self, l: &Self, r: &Self, mask: u32);
}

/// dst := mask ? r : l, word by word, as arithmetic on every word of both.
fn select_words<T>(dst: &mut [T], l: &[T], r: &[T], mask: T)
where
    T: Copy + std::ops::BitXor<Output = T> + std::ops::BitAnd<Output = T>,
{
    for ((d, &a), &b) in dst.iter_mut().zip(l).zip(r) {
        *d = a ^ (mask & (a ^ b));
    }
}

impl<const L: usize> Input for [u8; L] {
    fn select(&mut self, l: &Self, r: &Self, mask: u32) {
        select_words(self, l, r, mask as u8);
    }
}

impl Input for Coeffs {
    fn select(&mut self, l: &Self, r: &Self, mask: u32) {
        select_words(self, l, r, mask as i32);
    }
}

impl<const K: usize> Input for [Coeffs; K] {
    fn select(&mut self, l: &Self, r: &Self, mask: u32) {
        for ((d, a), b) in self.iter_mut().zip(l).zip(r) {
            d.select(a, b, mask);
        }
    }
}

impl<const K: usize> Input for [[Coeffs; K]; 2] {
    fn select(&mut self, l: &Self, r: &Self, mask: u32) {
        for ((d, a), b) in self.iter_mut().zip(l).zip(r) {
            d.select(a, b, mask);
        }
    }
}

/// Times `op` [`measurements`] times on inputs from `left` or `right`, chosen by a fair coin
/// (see the module docs).
///
/// The harness itself must not tell the classes apart: on this machine (2 shared cores, a
/// working set near the size of L1), merely copying the chosen input from a class-dependent
/// address into the buffer, or copying both in a class-dependent order, moved the timed
/// region by a clock tick and gave |t| in the hundreds for identically distributed classes.
/// So both inputs are always made, and blended into one buffer by a mask: the same loads and
/// stores, in the same order, for either class; only the values differ.
fn measure<I: Input, T>(
    runner: &mut Runner,
    rng: &mut BenchRng,
    mut left: impl FnMut(&mut BenchRng) -> I,
    mut right: impl FnMut(&mut BenchRng) -> I,
    op: impl Fn(&I) -> T,
) {
    // One buffer, at one address, for every measurement.
    let mut work: I = left(rng);
    for _ in 0..measurements() {
        let l = left(rng);
        let r = right(rng);
        let is_left = rng.random::<bool>();
        let mask = black_box(0u32.wrapping_sub(u32::from(!is_left)));
        work.select(black_box(&l), black_box(&r), mask);
        black_box(&mut work);
        let class = if is_left { Class::Left } else { Class::Right };
        runner.run_one(class, || op(black_box(&work)));
    }
}

/// A polynomial with coefficients drawn uniformly from `range`.
fn uniform(rng: &mut BenchRng, range: std::ops::RangeInclusive<i32>) -> Coeffs {
    core::array::from_fn(|_| rng.random_range(range.clone()))
}

/// `K` polynomials with coefficients drawn uniformly from `range`.
fn uniform_vec<const K: usize>(
    rng: &mut BenchRng,
    range: std::ops::RangeInclusive<i32>,
) -> [Coeffs; K] {
    core::array::from_fn(|_| uniform(rng, range.clone()))
}

/// Random bytes.
fn bytes<const L: usize>(rng: &mut BenchRng) -> [u8; L] {
    let mut out = [0u8; L];
    rng.fill_bytes(&mut out);
    out
}

// ---------------------------------------------------------------------------------------------
// NTT domain

/// NTT of a secret polynomial (s1, s2, t0 at key load; y and c in signing). Left: the zero
/// polynomial; Right: uniform in (-q, q), the whole domain.
fn ntt<const B: u8>(runner: &mut Runner, rng: &mut BenchRng) {
    let w = which::<B>();
    measure(
        runner,
        rng,
        |_| [0; N],
        |g| uniform(g, -(Q - 1)..=Q - 1),
        |a| k::ntt(w, a),
    );
}

/// NTT^-1 of a secret NTT-domain polynomial (A y, c s1, c s2, c t0 in signing). Left: every
/// value q - 1 (the top of the domain); Right: uniform in (-q, q).
fn ntt_inverse<const B: u8>(runner: &mut Runner, rng: &mut BenchRng) {
    let w = which::<B>();
    measure(
        runner,
        rng,
        |_| [Q - 1; N],
        |g| uniform(g, -(Q - 1)..=Q - 1),
        |a| k::ntt_inverse(w, a),
    );
}

/// MultiplyNTT of a secret (s1-hat: an NTT output, |c| < 9q) by a fixed public polynomial
/// (c-hat, in (-q, q)). Left: the zero polynomial; Right: uniform in (-9q, 9q).
fn multiply_ntt<const B: u8>(runner: &mut Runner, rng: &mut BenchRng) {
    let w = which::<B>();
    let c_hat = uniform(rng, -(Q - 1)..=Q - 1);
    measure(
        runner,
        rng,
        |_| [0; N],
        |g| uniform(g, -(9 * Q - 1)..=9 * Q - 1),
        |a| k::multiply_ntt(w, a, &c_hat),
    );
}

/// A fixed public challenge c: `tau` coefficients in {-1, 1} at random positions, as
/// SampleInBall makes (only its shape matters here).
fn challenge(rng: &mut BenchRng, tau: usize) -> Coeffs {
    let mut c = [0; N];
    for i in N - tau..N {
        let j = rng.random_range(0..=i);
        c[i] = c[j];
        c[j] = if rng.random::<bool>() { 1 } else { -1 };
    }
    c
}

/// c s of signing's sparse products (Algorithm 7 steps 18, 19 and 25) with c fixed (public)
/// and only the secret varying: s1 or s2 of ML-DSA-44 (eta 2, tau 39) in 8-bit sums, of
/// ML-DSA-65 (eta 4, tau 49) in 16-bit sums and (BITS = 4) in signing's runs of 8-bit sums, t0
/// of ML-DSA-65 (BITS = 32) in signing's runs of 16-bit sums added into 32-bit ones. Left:
/// s = 0; Right: uniform in [-eta, eta] (t0: (-2^12, 2^12]).
fn sparse_mul<const BITS: u32, const B: u8>(runner: &mut Runner, rng: &mut BenchRng) {
    let w = which::<B>();
    let (tau, bound) = match BITS {
        8 => (MlDsa44::TAU, MlDsa44::ETA),
        4 | 16 => (MlDsa65::TAU, MlDsa65::ETA),
        _ => (MlDsa65::TAU, 1 << 12),
    };
    let c = challenge(rng, tau);
    let low = if BITS == 32 { -(bound - 1) } else { -bound };
    measure(
        runner,
        rng,
        |_| [0; N],
        |g| uniform(g, low..=bound),
        |s| k::sparse_mul(w, BITS, &c, s),
    );
}

// ---------------------------------------------------------------------------------------------
// Rounding and norm checks (ML-DSA-65 unless named 44: gamma2 = (q-1)/32, or (q-1)/88)

/// HighBits of the secret w = A y (k polynomials; HighBits is Decompose's first half). Left:
/// w = 0; Right: uniform in [0, q).
fn high_bits<const B: u8>(runner: &mut Runner, rng: &mut BenchRng) {
    const K: usize = MlDsa65::K;
    let w = which::<B>();
    zero_or_uniform_mod_q::<K, _>(runner, rng, |v| {
        let mut w1 = [[0; N]; K];
        k::high_bits::<MlDsa65>(w, v, &mut w1).map(|()| w1)
    });
}

/// Times `op` on `K` polynomials of a secret in [0, q). Left: all zero; Right: uniform.
fn zero_or_uniform_mod_q<const K: usize, T>(
    runner: &mut Runner,
    rng: &mut BenchRng,
    op: impl Fn(&[Coeffs; K]) -> T,
) {
    measure(
        runner,
        rng,
        |_| [[0; N]; K],
        |g| uniform_vec::<K>(g, 0..=Q - 1),
        op,
    );
}

/// A coefficient r in [0, q) with LowBits(r) = r0 and HighBits(r) = r1, for |r0| < gamma2.
fn compose<P: ParameterSet>(r1: i32, r0: i32) -> i32 {
    (r1 * 2 * P::GAMMA2 + r0).rem_euclid(Q)
}

/// The r0 check ||LowBits(w - c s2)||_inf >= gamma2 - beta (Decompose's second half), with both
/// classes strictly under the bound (the accepted case must not leak the values). Left: every
/// coefficient has r0 = gamma2 - beta - 1 (the largest accepted) and r1 = 0; Right: r1 uniform,
/// r0 uniform among the accepted values. Both classes are checked to be accepted.
fn decompose_check<P: ParameterSet, const K: usize, const B: u8>(
    runner: &mut Runner,
    rng: &mut BenchRng,
) {
    let w = which::<B>();
    let bound = P::GAMMA2 - P::BETA;
    let m = (Q - 1) / (2 * P::GAMMA2);
    measure_accepted(
        runner,
        rng,
        |_| [[compose::<P>(0, bound - 1); N]; K],
        |g| {
            core::array::from_fn(|_| {
                core::array::from_fn(|_| {
                    compose::<P>(
                        g.random_range(0..m),
                        g.random_range(-(bound - 1)..=bound - 1),
                    )
                })
            })
        },
        |r| k::low_bits_exceed::<P>(w, r, bound),
        "decompose_check",
    );
}

/// [`measure`] for a bound check (1 = rejected, `None` = backend missing) whose every input,
/// of either class, must be accepted: panics naming `bench` if one was not.
fn measure_accepted<I: Input>(
    runner: &mut Runner,
    rng: &mut BenchRng,
    left: impl FnMut(&mut BenchRng) -> I,
    right: impl FnMut(&mut BenchRng) -> I,
    check: impl Fn(&I) -> Option<u32>,
    bench: &str,
) {
    let rejected = Cell::new(0u32);
    measure(runner, rng, left, right, |v| {
        let out = check(v);
        rejected.set(rejected.get() | out.unwrap_or(1));
        out
    });
    assert_eq!(
        rejected.get(),
        0,
        "{bench}: an input was not under the bound"
    );
}

/// MakeHint(-c t0, w - c s2 + c t0) over k polynomials (the kernel takes r + z and r). Left:
/// r = r + z = 0 (no hint); Right: r uniform in [0, q), z uniform with |z| < gamma2 (the
/// c t0 check has passed), r + z reduced into [0, q).
fn make_hint<P: ParameterSet, const K: usize, const B: u8>(
    runner: &mut Runner,
    rng: &mut BenchRng,
) {
    let w = which::<B>();
    let g2 = P::GAMMA2;
    measure(
        runner,
        rng,
        |_| [[[0; N]; K]; 2],
        |g| {
            let r = uniform_vec::<K>(g, 0..=Q - 1);
            let z = uniform_vec::<K>(g, -(g2 - 1)..=g2 - 1);
            let rz = core::array::from_fn(|i| {
                core::array::from_fn(|j| (r[i][j] + z[i][j]).rem_euclid(Q))
            });
            [rz, r]
        },
        |[rz, r]| {
            let mut h = [[0; N]; K];
            k::make_hint::<P>(w, rz, r, &mut h).map(|count| (count, h))
        },
    );
}

/// The z check ||z||_inf >= gamma1 - beta on l polynomials (Algorithm 7 step 23).
fn norm_check<const B: u8>(runner: &mut Runner, rng: &mut BenchRng) {
    type P = MlDsa65;
    infinity_norm_check::<{ P::L }>(runner, rng, which::<B>(), P::GAMMA1 - P::BETA);
}

/// The c t0 check ||c t0||_inf >= gamma2 on k polynomials (Algorithm 7 step 28's first half).
fn ct0_check<const B: u8>(runner: &mut Runner, rng: &mut BenchRng) {
    type P = MlDsa65;
    infinity_norm_check::<{ P::K }>(runner, rng, which::<B>(), P::GAMMA2);
}

/// An infinity-norm check ||v||_inf >= bound on `V` polynomials, with both classes strictly
/// under the bound (the accepted case must not leak the values). Left: every coefficient
/// bound - 1 (the largest accepted); Right: uniform among the accepted values. Both classes are
/// checked to be accepted.
fn infinity_norm_check<const V: usize>(
    runner: &mut Runner,
    rng: &mut BenchRng,
    w: Which,
    bound: i32,
) {
    measure_accepted(
        runner,
        rng,
        |_| [[bound - 1; N]; V],
        |g| uniform_vec::<V>(g, -(bound - 1)..=bound - 1),
        |v| k::vec_exceeds(w, v, bound),
        "infinity_norm_check",
    );
}

/// Power2Round of the secret t = A s1 + s2 (k polynomials, at key generation and key import;
/// t0 stays secret). Left: t = 0; Right: uniform in [0, q).
fn power2_round<const B: u8>(runner: &mut Runner, rng: &mut BenchRng) {
    const K: usize = MlDsa65::K;
    let w = which::<B>();
    zero_or_uniform_mod_q::<K, _>(runner, rng, |t| {
        let (mut t1, mut t0) = ([[0; N]; K], [[0; N]; K]);
        k::power2_round(w, t, &mut t1, &mut t0).map(|()| (t1, t0))
    });
}

// ---------------------------------------------------------------------------------------------
// Key unpacking, hashing and sampling

/// skDecode (strict range check) and the NTT of s1, s2 and t0 on the backend. rho and tr are
/// public and the same in both classes. Left: K = 0 and every s1, s2 and t0 field zero, which
/// encodes the extremes s = eta, t0 = 2^12; Right: the secret parts of real keys (a pool of
/// 256 from random seeds). Every key is checked to decode.
fn sk_decode<P: ParameterSet, const SK: usize, const B: u8>(
    runner: &mut Runner,
    rng: &mut BenchRng,
) {
    assert_eq!(SK, P::SK_LEN);
    let w = which::<B>();
    let key = |g: &mut BenchRng| -> [u8; SK] {
        let sk = SigningKey::<P>::from_seed(&bytes::<32>(g)).to_expanded_bytes();
        sk.as_ref().try_into().expect("SK_LEN")
    };
    // Layout (FIPS 204 Alg. 24): rho 0..32, K 32..64, tr 64..128, then s1, s2, t0.
    let mut fixed = key(rng);
    fixed[32..64].fill(0);
    fixed[128..].fill(0);
    let pool: Vec<[u8; SK]> = (0..256)
        .map(|_| {
            let mut sk = key(rng);
            sk[..32].copy_from_slice(&fixed[..32]);
            sk[64..128].copy_from_slice(&fixed[64..128]);
            sk
        })
        .collect();
    let failed = Cell::new(false);
    measure(
        runner,
        rng,
        |_| fixed,
        |g| pool[g.random_range(0..pool.len())],
        |sk| {
            let out = k::sk_decode::<P>(w, sk);
            failed.set(failed.get() | !matches!(out, Some(Ok(()))));
            out
        },
    );
    assert!(!failed.get(), "sk_decode: a key did not decode");
}

/// SHAKE256 over a secret, as rho'' = H(K || rnd || mu, 64): 128 input bytes, 64 out, on the
/// default backend's scalar sponge (`ct_kernels::shake256`: on an AMD CPU with AVX-512, lane 0
/// of the four-way AVX-512VL permutation). Left: all-zero input; Right: random.
fn shake256(runner: &mut Runner, rng: &mut BenchRng) {
    measure(
        runner,
        rng,
        |_| [0u8; 128],
        bytes::<128>,
        |input| {
            let mut out = [0u8; 64];
            k::shake256(input, &mut out);
            out
        },
    );
}

/// ExpandMask(rho'', kappa) of ML-DSA-65 (l = 5 polynomials, 20-bit fields); kappa is public
/// and fixed. Left: rho'' = 0; Right: random rho''.
fn expand_mask<const B: u8>(runner: &mut Runner, rng: &mut BenchRng) {
    type P = MlDsa65;
    let w = which::<B>();
    measure(
        runner,
        rng,
        |_| [0u8; 64],
        bytes::<64>,
        |rho_pp| {
            let mut y = [[0; N]; P::L];
            k::expand_mask::<P>(w, rho_pp, 5, &mut y).map(|()| y)
        },
    );
}

/// ExpandS(rho') of ML-DSA-65 (eta = 4) read independently of the kernels: the l + k
/// RejBoundedPoly calls (FIPS 204 Alg. 31) on their SHAKE256 streams, or `None` in the rare case
/// (about 1 in 10^5) that a polynomial needs more than the two blocks read here.
fn expand_s_reference(rho_prime: &[u8; 64]) -> Option<Vec<Coeffs>> {
    type P = MlDsa65;
    const RATE: usize = 136;
    let mut polys = Vec::with_capacity(P::L + P::K);
    for r in 0..(P::L + P::K) as u16 {
        let mut seed = [0u8; 66];
        seed[..64].copy_from_slice(rho_prime);
        seed[64..].copy_from_slice(&r.to_le_bytes());
        let mut stream = [0u8; 2 * RATE];
        k::shake256(&seed, &mut stream);
        let mut poly = [0; N];
        let mut accepted = 0;
        for nibble in stream.iter().flat_map(|b| [b & 0x0F, b >> 4]) {
            if nibble < 9 {
                poly[accepted] = 4 - nibble as i32;
                accepted += 1;
                if accepted == N {
                    break;
                }
            }
        }
        if accepted < N {
            return None;
        }
        polys.push(poly);
    }
    Some(polys)
}

/// The sum of |c| over ExpandS(rho')'s coefficients, if [`expand_s_reference`] can read it.
fn expand_s_weight(rho_prime: &[u8; 64]) -> Option<i64> {
    let s = expand_s_reference(rho_prime)?;
    Some(s.iter().flatten().map(|&c| i64::from(c.abs())).sum())
}

/// The inputs of every `expand_s` instance, made once: a fresh rho' for every measurement of
/// each class (see [`expand_s`]).
struct ExpandSInputs {
    left: Vec<[u8; 64]>,
    right: Vec<[u8; 64]>,
}

static EXPAND_S_INPUTS: std::sync::OnceLock<ExpandSInputs> = std::sync::OnceLock::new();

impl ExpandSInputs {
    /// Quartiles of the weight distribution from a calibration sample, then `count` rho' in the
    /// top quarter and `count` in the bottom one, drawn on two threads.
    fn make(rng: &mut BenchRng, count: usize) -> Self {
        const CALIBRATION: usize = 2048;
        let mut weights = Vec::with_capacity(CALIBRATION);
        while weights.len() < CALIBRATION {
            if let Some(x) = expand_s_weight(&bytes::<64>(rng)) {
                weights.push(x);
            }
        }
        weights.sort_unstable();
        let (low, high) = (
            weights[CALIBRATION / 4],
            weights[CALIBRATION - CALIBRATION / 4],
        );
        let seeds = [rng.random::<u64>(), rng.random::<u64>()];
        let draw = |seed: u64, keep: &(dyn Fn(i64) -> bool + Sync)| {
            let mut g = BenchRng::seed_from_u64(seed);
            let mut out = Vec::with_capacity(count);
            while out.len() < count {
                let rho = bytes::<64>(&mut g);
                if expand_s_weight(&rho).is_some_and(keep) {
                    out.push(rho);
                }
            }
            out
        };
        let (left, right) = std::thread::scope(|scope| {
            let left = scope.spawn(|| draw(seeds[0], &|x| x >= high));
            let right = draw(seeds[1], &|x| x <= low);
            (left.join().expect("drawing thread"), right)
        });
        eprintln!(
            "expand_s: Left sum of |c| >= {high}, Right <= {low} (median {}), {count} rho' each",
            weights[CALIBRATION / 2]
        );
        Self { left, right }
    }
}

/// ExpandS(rho') of ML-DSA-65 (l + k = 11 polynomials, eta = 4).
///
/// Fixed-versus-random does not work here: which nibbles of the SHAKE256 stream are rejected,
/// and so how long the sampler runs, depends on rho' and may become public (FIPS 204;
/// ASSURANCE.md section 2), so every rho' has its own legitimate running time. The classes
/// therefore differ only in the coefficient values: Left rho' have s1, s2 whose sum of |c| is in
/// the top quarter, Right in the bottom quarter. That sum is independent of which nibbles are
/// rejected (the accepted values are uniform whatever the rejection pattern), so the rejection
/// patterns, and the running times they cause, are distributed alike in both classes.
///
/// Two pitfalls, both seen here, decide the design. (1) Every measurement needs a fresh rho':
/// an earlier version drew from two fixed pools of 256 (matched on their total nibble counts),
/// and the pools' mean running times differed by chance, through their rejection patterns; an
/// A/A run of it (both pools random) reached |t| = 38 at 10^6 measurements. (2) The inputs are
/// all made before measuring, with an independent reader ([`expand_s_reference`]), not the
/// kernel: running the kernel on an input just before timing it trains the branch predictor on
/// that input's rejection pattern (|t| = 290 on the portable sampler). A sample of inputs is
/// checked to give the reference's output.
fn expand_s<const B: u8>(runner: &mut Runner, rng: &mut BenchRng) {
    type P = MlDsa65;
    const S: usize = P::L + P::K;
    let w = which::<B>();
    let inputs = EXPAND_S_INPUTS.get_or_init(|| ExpandSInputs::make(rng, measurements() + 1));
    let checked = inputs
        .left
        .iter()
        .chain(&inputs.right)
        .step_by(997)
        .take(64);
    for rho in checked {
        let mut s = [[0; N]; S];
        k::expand_s::<P>(w, rho, &mut s).expect("backend available");
        assert!(
            expand_s_reference(rho).is_some_and(|expected| s.iter().eq(expected.iter())),
            "expand_s: output differs from the stream"
        );
    }
    let (mut next_left, mut next_right) = (inputs.left.iter(), inputs.right.iter());
    measure(
        runner,
        rng,
        |_| *next_left.next().expect("one rho' per measurement"),
        |_| *next_right.next().expect("one rho' per measurement"),
        |rho| {
            let mut s = [[0; N]; S];
            k::expand_s::<P>(w, rho, &mut s).map(|()| s)
        },
    );
}

// ---------------------------------------------------------------------------------------------
// Canary

/// A comparison that stops at the first differing byte: the textbook leak.
fn early_exit_eq(a: &[u8; 512], b: &[u8; 512]) -> bool {
    for i in 0..a.len() {
        if a[i] != b[i] {
            return false;
        }
    }
    true
}

/// The canary: an early-exit comparison of a 512-byte secret with a fixed value. Left: the
/// secret equals it (all 512 bytes compared); Right: random (the first byte differs 255 times
/// in 256). It must show |t| > 100, or the harness is blind.
fn canary(runner: &mut Runner, rng: &mut BenchRng) {
    let reference = bytes::<512>(rng);
    measure(
        runner,
        rng,
        |_| reference,
        bytes::<512>,
        |secret| early_exit_eq(secret, &reference),
    );
}

/// The harness's own control (A/A): both classes are fresh random inputs of HighBits (the
/// bench most sensitive to harness artefacts while it was being written), drawn from the same
/// distribution. Any |t| here comes from the harness or the machine, not from the code.
fn harness_aa(runner: &mut Runner, rng: &mut BenchRng) {
    const K: usize = MlDsa65::K;
    let random = |g: &mut BenchRng| uniform_vec::<K>(g, 0..=Q - 1);
    measure(runner, rng, random, random, |v| {
        let mut w1 = [[0; N]; K];
        k::high_bits::<MlDsa65>(Which::Portable, v, &mut w1).map(|()| w1)
    });
}

// ---------------------------------------------------------------------------------------------

/// The benches whose kernels have AVX-512 variants (the NTTs, and the 4-way Keccak under
/// ExpandMask and ExpandS): only these run a third time, on `avx512`.
const AVX512_VARIANTS: &[&str] = &[
    "ntt",
    "sparse_mul8",
    "sparse_mul16",
    "sparse_mul_eta4",
    "sparse_mul32",
    "ntt_inverse",
    "multiply_ntt",
    "sk_decode",
    "sk_decode44",
    "expand_mask",
];

/// Every bench: name (`primitive.backend`; `shared` for code both backends run, `none` for the
/// canary), the backend it needs, and the function.
fn all_benches() -> Vec<(String, Option<Which>, BenchFn)> {
    let mut list: Vec<(String, Option<Which>, BenchFn)> = Vec::new();
    for which in Which::ALL {
        let pick = |p: BenchFn, a: BenchFn, a512: BenchFn| match which {
            Which::Portable => p,
            Which::Avx2 => a,
            Which::Avx512 => a512,
        };
        let per_backend: [(&str, BenchFn); 18] = [
            ("ntt", pick(ntt::<0>, ntt::<1>, ntt::<2>)),
            (
                "ntt_inverse",
                pick(ntt_inverse::<0>, ntt_inverse::<1>, ntt_inverse::<2>),
            ),
            (
                "multiply_ntt",
                pick(multiply_ntt::<0>, multiply_ntt::<1>, multiply_ntt::<2>),
            ),
            (
                "sparse_mul8",
                pick(sparse_mul::<8, 0>, sparse_mul::<8, 1>, sparse_mul::<8, 2>),
            ),
            (
                "sparse_mul16",
                pick(
                    sparse_mul::<16, 0>,
                    sparse_mul::<16, 1>,
                    sparse_mul::<16, 2>,
                ),
            ),
            (
                "sparse_mul_eta4",
                pick(sparse_mul::<4, 0>, sparse_mul::<4, 1>, sparse_mul::<4, 2>),
            ),
            (
                "sparse_mul32",
                pick(
                    sparse_mul::<32, 0>,
                    sparse_mul::<32, 1>,
                    sparse_mul::<32, 2>,
                ),
            ),
            (
                "high_bits",
                pick(high_bits::<0>, high_bits::<1>, high_bits::<2>),
            ),
            (
                "decompose_check",
                pick(
                    decompose_check::<MlDsa65, { MlDsa65::K }, 0>,
                    decompose_check::<MlDsa65, { MlDsa65::K }, 1>,
                    decompose_check::<MlDsa65, { MlDsa65::K }, 2>,
                ),
            ),
            (
                "decompose_check44",
                pick(
                    decompose_check::<MlDsa44, { MlDsa44::K }, 0>,
                    decompose_check::<MlDsa44, { MlDsa44::K }, 1>,
                    decompose_check::<MlDsa44, { MlDsa44::K }, 2>,
                ),
            ),
            (
                "make_hint",
                pick(
                    make_hint::<MlDsa65, { MlDsa65::K }, 0>,
                    make_hint::<MlDsa65, { MlDsa65::K }, 1>,
                    make_hint::<MlDsa65, { MlDsa65::K }, 2>,
                ),
            ),
            (
                "make_hint44",
                pick(
                    make_hint::<MlDsa44, { MlDsa44::K }, 0>,
                    make_hint::<MlDsa44, { MlDsa44::K }, 1>,
                    make_hint::<MlDsa44, { MlDsa44::K }, 2>,
                ),
            ),
            (
                "norm_check",
                pick(norm_check::<0>, norm_check::<1>, norm_check::<2>),
            ),
            (
                "ct0_check",
                pick(ct0_check::<0>, ct0_check::<1>, ct0_check::<2>),
            ),
            (
                "power2_round",
                pick(power2_round::<0>, power2_round::<1>, power2_round::<2>),
            ),
            (
                "sk_decode",
                pick(
                    sk_decode::<MlDsa65, { MlDsa65::SK_LEN }, 0>,
                    sk_decode::<MlDsa65, { MlDsa65::SK_LEN }, 1>,
                    sk_decode::<MlDsa65, { MlDsa65::SK_LEN }, 2>,
                ),
            ),
            (
                "sk_decode44",
                pick(
                    sk_decode::<MlDsa44, { MlDsa44::SK_LEN }, 0>,
                    sk_decode::<MlDsa44, { MlDsa44::SK_LEN }, 1>,
                    sk_decode::<MlDsa44, { MlDsa44::SK_LEN }, 2>,
                ),
            ),
            (
                "expand_mask",
                pick(expand_mask::<0>, expand_mask::<1>, expand_mask::<2>),
            ),
        ];
        for (name, f) in per_backend {
            if which == Which::Avx512 && !AVX512_VARIANTS.contains(&name) {
                continue; // the same code as the AVX2 instance
            }
            list.push((format!("{name}.{}", which.name()), Some(which), f));
        }
        list.push((
            format!("expand_s.{}", which.name()),
            Some(which),
            pick(expand_s::<0>, expand_s::<1>, expand_s::<2>),
        ));
    }
    list.push(("shake256.shared".into(), None, shake256));
    list.push((
        "harness_aa.portable".into(),
        Some(Which::Portable),
        harness_aa,
    ));
    list.push(("canary.none".into(), None, canary));
    list
}

const USAGE: &str = "usage: dudect [MEASUREMENTS] [--filter TEXT] [--continuous TEXT] [--seed HEX]
              [--out FILE] [--list]

Runs every bench (the one named TEXT, or else those whose name contains TEXT) with MEASUREMENTS
timings each (default 100000). --continuous repeats the first matching bench, accumulating,
until interrupted. --seed seeds every bench's generator (each run prints the seed it used).
--out writes every measurement to FILE as bench,class,nanoseconds lines in the order they were
made (class 0 is Left). --list prints the names of the benches this CPU can run.";

pub fn main() {
    let mut opts = Options {
        filter: None,
        continuous: false,
        seed: None,
        out: None,
    };
    let mut list = false;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = || args.next().unwrap_or_else(|| usage_error());
        match arg.as_str() {
            "--filter" | "--continuous" => {
                opts.continuous = arg == "--continuous";
                opts.filter = Some(value());
            }
            "--seed" => {
                let hex = value();
                let seed = u64::from_str_radix(hex.trim_start_matches("0x"), 16);
                opts.seed = Some(seed.unwrap_or_else(|_| usage_error()));
            }
            "--out" => {
                let path = value();
                let file = std::fs::File::create(&path).unwrap_or_else(|e| {
                    eprintln!("dudect: cannot create {path}: {e}");
                    std::process::exit(2);
                });
                opts.out = Some(file);
            }
            "--list" => list = true,
            "-h" | "--help" => {
                println!("{USAGE}");
                return;
            }
            n => match n.parse::<usize>() {
                Ok(n) if n >= 2 => MEASUREMENTS.store(n, Ordering::Relaxed),
                _ => usage_error(),
            },
        }
    }
    let benches: Vec<Bench> = all_benches()
        .into_iter()
        .filter(|(_, backend, _)| backend.is_none_or(Which::available))
        .map(|(name, _, run)| Bench { name, run })
        .collect();
    if list {
        for b in &benches {
            println!("{}", b.name);
        }
        return;
    }
    if !Which::Avx2.available() {
        eprintln!("note: this CPU has no AVX2; only the portable backend is tested");
    }
    eprintln!("{} measurements per bench", measurements());
    if let Err(e) = harness::run(benches, opts) {
        eprintln!("dudect: {e}");
        std::process::exit(1);
    }
}

fn usage_error() -> ! {
    eprintln!("{USAGE}");
    std::process::exit(2);
}
