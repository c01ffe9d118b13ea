//! The challenge products of signing (FIPS 204 Algorithm 7 steps 18, 19 and 25: c s1, c s2,
//! c t0) computed from c's few nonzero coefficients instead of through the NTT.
//!
//! c = SampleInBall(c-tilde) has exactly tau coefficients in {-1, 1} and the rest zero, so
//! c s = sum over c's nonzero positions j of c_j X^j s, and in R = Z[X]/(X^256 + 1),
//! -X^j = X^(j + 256): each term is X^m s with m = j or j + 256, m in [0, 512). With the
//! extended secret ext = [s, -s, s] (768 entries), coefficient i of X^m s is ext[512 - m + i]:
//! each term is one contiguous window of ext, and c s is the sum of tau windows, computed
//! exactly over the integers (no reduction mod q: the results are small).
//!
//! Bounds: for s1 and s2 (|s| <= eta <= 4), |c s| <= tau eta <= 240; for t0 (in
//! (-2^12, 2^12]), |c t0| <= tau 2^12 < 2^18. So s1 and s2 go through 16-bit sums (any i8 input
//! is exact: 60 * 128 < 2^15), and t0 through 16-bit sums of at most [`T0_RUN`] = 7 terms
//! (7 * 2^12 < 2^15) added into 32-bit ones. All three products of FIPS 204 Algorithm 7 are
//! made so: signing never computes c-hat = NTT(c) (step 17), nor NTT(t0) (step 4).
//!
//! Constant time: c is public (c-tilde is, see `sign.rs`), so the windows' offsets, and the
//! loop over them, may depend on it; the secret's values only ever flow through additions and
//! copies, never into a branch or an address.

use crate::math::poly::{N, Poly};
use zeroize::Zeroize;

/// The largest tau of any parameter set (ML-DSA-87).
pub(crate) const MAX_TAU: usize = 60;

/// Entries of an extended secret: [s, -s, s].
pub(crate) const EXT: usize = 3 * N;

/// The challenge c as the offsets of its tau windows into an extended secret: 512 - m for each
/// term X^m (m = j for c_j = 1, j + 256 for c_j = -1), in [1, 512], so the window
/// `offset..offset + 256` always lies inside the 768 entries.
///
/// Public: made from c, which is public.
#[derive(Clone, Copy)]
pub(crate) struct SparseC {
    offsets: [u16; MAX_TAU],
    len: u8,
}

impl SparseC {
    /// No terms (c = 0).
    pub(crate) const ZERO: Self = Self {
        offsets: [0; MAX_TAU],
        len: 0,
    };

    /// The windows of `c`, whose coefficients must be in {-1, 0, 1} with at most [`MAX_TAU`]
    /// nonzero (as SampleInBall, FIPS 204 Algorithm 29, makes them). Signing gets the terms
    /// from SampleInBall (`hash::sample`) directly; this reads them off a dense c, for the
    /// constant-time harness's kernels and the tests.
    ///
    /// Constant time: branches on c, which is public.
    #[cfg(any(test, mldsa_ct))]
    pub(crate) fn from_poly(c: &Poly) -> Self {
        let mut out = Self::ZERO;
        for (j, &x) in c.0.iter().enumerate() {
            if x == 0 {
                continue;
            }
            assert!(
                (x == 1 || x == -1) && (out.len as usize) < MAX_TAU,
                "c is not a SampleInBall output"
            );
            let m = if x == 1 { j } else { j + N };
            out.offsets[out.len as usize] = (2 * N - m) as u16;
            out.len += 1;
        }
        out
    }

    /// The terms of SampleInBall's output: term e at position `at[e]`, negative where bit e of
    /// `signs` is set (FIPS 204 Alg. 29 step 8: c_j = (-1)^h[e]).
    pub(crate) fn from_terms(at: &[u8], signs: u64) -> Self {
        debug_assert!(at.len() <= MAX_TAU);
        let mut out = Self::ZERO;
        for (e, (&j, offset)) in at.iter().zip(out.offsets.iter_mut()).enumerate() {
            // m = j for +1, j + 256 for -1; the offset is 512 - m.
            let negative = ((signs >> e) & 1) as usize;
            *offset = (2 * N - N * negative - j as usize) as u16;
        }
        out.len = at.len() as u8;
        out
    }

    /// c itself: coefficients in {-1, 0, 1}.
    pub(crate) fn write_poly(&self, c: &mut Poly) {
        *c = Poly::ZERO;
        for &offset in self.offsets() {
            let m = 2 * N - offset as usize;
            if m < N {
                c.0[m] = 1;
            } else {
                c.0[m - N] = -1;
            }
        }
    }

    /// The window offsets, each in [1, 512].
    #[inline(always)]
    pub(crate) fn offsets(&self) -> &[u16] {
        &self.offsets[..self.len as usize]
    }
}

/// Working memory of the sparse products: the extended secret and (portable code) the sums.
/// Secret: zeroised on drop; callers keep one across calls so that each call does not have to
/// wipe its own.
#[repr(C, align(64))]
pub(crate) struct SparseScratch {
    /// [s, -s, s] of an s1 or s2 polynomial, for 8-bit sums.
    pub(crate) tiny: [i8; EXT],
    /// [s, -s, s] of an s1 or s2 polynomial, for 16-bit sums.
    pub(crate) small: [i16; EXT],
    /// The portable kernels' 16-bit sums.
    pub(crate) acc: [i16; N],
    /// The portable kernels' 8-bit sums.
    pub(crate) acc8: [i8; N],
}

impl SparseScratch {
    /// All zero.
    pub(crate) const ZERO: Self = Self {
        tiny: [0; EXT],
        small: [0; EXT],
        acc: [0; N],
        acc8: [0; N],
    };
}

impl SparseScratch {
    /// Zeroes every field with `zeroize` (volatile stores of one element at a time: the
    /// portable way of the backend floor's wipe, which implements `Zeroize` for this type).
    pub(crate) fn zeroize_each(&mut self) {
        self.tiny.zeroize();
        self.small.zeroize();
        self.acc.zeroize();
        self.acc8.zeroize();
    }
}

// `Zeroize` for SparseScratch is the backend floor's (`backend/wipe.rs`: whole registers where
// the CPU has them); dropping it wipes it.
impl Drop for SparseScratch {
    fn drop(&mut self) {
        zeroize::Zeroize::zeroize(self);
    }
}

/// Terms of c whose sum [`mul_t0`] makes in 16 bits: 7 * 2^12 = 28672 <= 32767.
pub(crate) const T0_RUN: usize = 7;

/// out = c s exactly, for s in [-4, 4] (s1 or s2 of the sets with eta = 4, where tau eta = 196
/// exceeds 8 bits): [`mul_small`] here; the AVX-512 kernel sums runs of 31 terms in 8 bits
/// (31 * 4 = 124 <= 127).
///
/// Bounds: ||s||_inf <= 4; |out| <= 4 tau.
pub(crate) fn mul_eta4(c: &SparseC, s: &[i8; N], scratch: &mut SparseScratch, out: &mut Poly) {
    debug_assert!(s.iter().all(|x| x.unsigned_abs() <= 4), "Bounds: |s| <= 4");
    mul_small(c, s, scratch, out)
}

/// Whether c s fits 8-bit sums: tau ||s||_inf <= 127 (the contract of the `mul_tiny` kernels).
pub(crate) fn fits_8_bits(c: &SparseC, s: &[i8; N]) -> bool {
    s.iter()
        .all(|x| c.offsets().len() * x.unsigned_abs() as usize <= 127)
}

/// out = c s exactly, for an s whose products with c fit 8 bits: s1 or s2 of the sets with
/// eta = 2 (tau eta = 78, 98, 120 <= 127). Alg. 7 steps 18 and 19, NTT^-1(c-hat o s-hat) with
/// its representatives centred; portable.
///
/// Bounds: tau ||s||_inf <= 127; |out| <= tau ||s||_inf.
pub(crate) fn mul_tiny(c: &SparseC, s: &[i8; N], scratch: &mut SparseScratch, out: &mut Poly) {
    debug_assert!(fits_8_bits(c, s), "Bounds: tau ||s|| <= 127");
    window_sums(c, s, &mut scratch.tiny, &mut scratch.acc8, out);
}

/// out = c s exactly, for an s with 8-bit coefficients (s1 or s2: Alg. 7 steps 18 and 19,
/// NTT^-1(c-hat o s-hat) with its representatives centred), portable.
///
/// Bounds: any i8 s; |out| <= tau 128 (tau eta for s in [-eta, eta]).
pub(crate) fn mul_small(c: &SparseC, s: &[i8; N], scratch: &mut SparseScratch, out: &mut Poly) {
    window_sums(c, s, &mut scratch.small, &mut scratch.acc, out);
}

/// out = c t0 exactly (FIPS 204 Alg. 7 step 25, NTT^-1(c-hat o t0-hat) with its
/// representatives centred), portable: the terms of c in runs of at most [`T0_RUN`], each
/// summed in 16 bits (exact) and added into 32-bit sums. Uses `scratch`'s 16-bit fields.
///
/// Bounds: |t| <= 2^12 (t0 is in (-2^12, 2^12]); |out| <= tau 2^12.
#[inline(always)]
pub(crate) fn mul_t0(c: &SparseC, t: &Poly, scratch: &mut SparseScratch, out: &mut Poly) {
    debug_assert!(
        t.0.iter().all(|x| x.unsigned_abs() <= 1 << 12),
        "Bounds: |t0| <= 2^12"
    );
    let ext = &mut scratch.small;
    for (i, &x) in t.0.iter().enumerate() {
        // Exact: |t| <= 2^12 fits 16 bits.
        let x = x as i16;
        ext[i] = x;
        ext[N + i] = x.wrapping_neg();
        ext[2 * N + i] = x;
    }
    out.0 = [0; N];
    for run in c.offsets().chunks(T0_RUN) {
        let acc = &mut scratch.acc;
        *acc = [0; N];
        for &off in run {
            let window = &ext[off as usize..off as usize + N];
            for (a, &x) in acc.iter_mut().zip(window) {
                *a = a.wrapping_add(x);
            }
        }
        for (o, &a) in out.0.iter_mut().zip(acc.iter()) {
            *o += i32::from(a);
        }
    }
}

/// A lane type of the portable kernels' sums: wrapping addition and negation (the sums are
/// exact by the kernels' bounds; wrapping only keeps the arithmetic free of overflow checks).
trait Lane: Copy + Into<i32> {
    const ZERO: Self;
    fn add(self, other: Self) -> Self;
    fn neg(self) -> Self;
}

macro_rules! lane {
    ($($t:ty),*) => {$(
        impl Lane for $t {
            const ZERO: Self = 0;
            #[inline(always)]
            fn add(self, other: Self) -> Self {
                self.wrapping_add(other)
            }
            #[inline(always)]
            fn neg(self) -> Self {
                self.wrapping_neg()
            }
        }
    )*};
}
lane!(i8, i16, i32);

/// The portable kernels' one loop: `ext` := [s, -s, s] in lanes of type `T`, `acc` := the sum
/// of c's windows of it, `out` := `acc` widened.
#[inline(always)]
fn window_sums<S: Copy + Into<T>, T: Lane>(
    c: &SparseC,
    s: &[S; N],
    ext: &mut [T; EXT],
    acc: &mut [T; N],
    out: &mut Poly,
) {
    for (i, &x) in s.iter().enumerate() {
        let x: T = x.into();
        ext[i] = x;
        ext[N + i] = x.neg();
        ext[2 * N + i] = x;
    }
    *acc = [T::ZERO; N];
    for &off in c.offsets() {
        let window = &ext[off as usize..off as usize + N];
        for (a, &x) in acc.iter_mut().zip(window) {
            *a = a.add(x);
        }
    }
    for (o, &a) in out.0.iter_mut().zip(acc.iter()) {
        *o = a.into();
    }
}

#[cfg(test)]
mod tests {
    //! Every backend's sparse products against the NTT path they replace (`product_centred`),
    //! for c of every tau and s, t0 random and at and beyond their bounds.
    use super::*;
    use crate::backend::{Backend, Portable};
    use crate::hash::sample::sample_in_ball;
    use crate::math::poly::NttPoly;
    use crate::math::splitmix::SplitMix64;
    use crate::params::{Dilithium2, MlDsa44, MlDsa65, MlDsa87, Parameters};
    use std::vec::Vec;

    /// Runs a test body on one backend.
    type Runner = Box<dyn Fn(&mut dyn FnMut(&dyn Dispatch))>;

    /// Every backend variant this CPU runs, with a name.
    #[cfg_attr(
        not(any(target_arch = "x86_64", target_arch = "aarch64")),
        allow(unused_mut)
    )] // pushed to on x86-64 and AArch64 only
    fn backends() -> Vec<(&'static str, Runner)> {
        let mut v: Vec<(&'static str, Runner)> =
            std::vec![("portable", Box::new(|f| f(&Portable)))];
        #[cfg(target_arch = "x86_64")]
        if let Some(avx2) = crate::backend::x86_64::Avx2::detect() {
            v.push(("avx2", Box::new(move |f| f(&avx2))));
            if let Some(avx512) = avx2.with_avx512() {
                v.push(("avx512", Box::new(move |f| f(&avx512))));
            } else {
                std::println!("no AVX-512 (F, VL, BW): AVX-512 kernels not tested");
            }
        } else {
            std::println!("no AVX2: AVX2 kernels not tested");
        }
        #[cfg(target_arch = "aarch64")]
        v.push(("neon", Box::new(|f| f(&crate::backend::aarch64::Neon))));
        v
    }

    /// The two kernels and the NTT path, object-safe, for iterating over backends.
    trait Dispatch {
        fn tiny(&self, c: &SparseC, s: &[i8; N], out: &mut Poly);
        fn small(&self, c: &SparseC, s: &[i8; N], out: &mut Poly);
        fn eta4(&self, c: &SparseC, s: &[i8; N], out: &mut Poly);
        fn t0(&self, c: &SparseC, t: &Poly, out: &mut Poly);
        fn ntt_path(&self, c: &Poly, s: &Poly) -> Poly;
    }

    impl<B: Backend> Dispatch for B {
        fn tiny(&self, c: &SparseC, s: &[i8; N], out: &mut Poly) {
            let mut scratch = Box::new(SparseScratch::ZERO);
            self.sparse_mul_tiny(c, s, &mut scratch, out);
        }
        fn small(&self, c: &SparseC, s: &[i8; N], out: &mut Poly) {
            let mut scratch = Box::new(SparseScratch::ZERO);
            self.sparse_mul_small(c, s, &mut scratch, out);
        }
        fn eta4(&self, c: &SparseC, s: &[i8; N], out: &mut Poly) {
            let mut scratch = Box::new(SparseScratch::ZERO);
            self.sparse_mul_eta4(c, s, &mut scratch, out);
        }
        fn t0(&self, c: &SparseC, t: &Poly, out: &mut Poly) {
            let mut scratch = Box::new(SparseScratch::ZERO);
            self.sparse_mul_t0(c, t, &mut scratch, out);
        }
        fn ntt_path(&self, c: &Poly, s: &Poly) -> Poly {
            let (mut c_hat, mut s_hat, mut tmp) = (NttPoly::ZERO, NttPoly::ZERO, NttPoly::ZERO);
            self.ntt(c, &mut c_hat);
            self.ntt(s, &mut s_hat);
            let mut out = Poly::ZERO;
            crate::algorithm::sign::product_centred(*self, &c_hat, &s_hat, &mut tmp, &mut out);
            out
        }
    }

    /// The secrets to try with a c: random in [-bound, bound], and the extremes (all +-bound,
    /// alternating signs, one nonzero coefficient at either end).
    fn secrets(rng: &mut SplitMix64, bound: i32, random: usize) -> Vec<[i32; N]> {
        let mut v: Vec<[i32; N]> = (0..random)
            .map(|_| core::array::from_fn(|_| rng.range(-bound, bound)))
            .collect();
        v.push([bound; N]);
        v.push([-bound; N]);
        v.push(core::array::from_fn(|i| {
            if i % 2 == 0 { bound } else { -bound }
        }));
        v.push(core::array::from_fn(|i| if i == 0 { bound } else { 0 }));
        v.push(core::array::from_fn(
            |i| if i == N - 1 { -bound } else { 0 },
        ));
        v
    }

    fn check<P: Parameters>(seeds: usize) {
        let mut rng = SplitMix64(P::TAU as u64);
        for round in 0..seeds {
            let c_tilde: [u8; 64] = rng.bytes();
            let sparse = sample_in_ball::<P>(
                crate::hash::keccak::Permutation::PORTABLE,
                &c_tilde[..P::C_TILDE_LEN],
            );
            let mut c = Poly::ZERO;
            sparse.write_poly(&mut c);
            assert_eq!(sparse.offsets().len(), P::TAU);
            let mut read_back = SparseC::from_poly(&c).offsets().to_vec();
            read_back.sort();
            let mut offsets = sparse.offsets().to_vec();
            offsets.sort();
            assert_eq!(offsets, read_back, "from_poly(write_poly(c))");
            // s1, s2 in [-eta, eta]; any i8; t0 in (-2^12, 2^12] (and -2^12).
            let n = if round == 0 { 20 } else { 2 };
            let mut small = secrets(&mut rng, P::ETA, n);
            small.extend(secrets(&mut rng, 127, n));
            small.push([-128; N]);
            // Runs of 8-bit sums: s in [-4, 4].
            let eta4 = secrets(&mut rng, 4, n);
            // 8-bit sums: eta = 2 for every set, and the largest |s| that tau allows.
            let mut tiny = secrets(&mut rng, 2, n);
            tiny.extend(secrets(&mut rng, 127 / P::TAU as i32, n));
            let t0 = secrets(&mut rng, 1 << 12, n);
            for (name, run) in backends() {
                run(&mut |b| {
                    for s in &small {
                        let want = b.ntt_path(&c, &Poly(*s));
                        let mut got = Poly([1; N]);
                        b.small(&sparse, &s.map(|x| x as i8), &mut got);
                        assert!(
                            got == want,
                            "{} {name}: c s (small), round {round}",
                            P::NAME
                        );
                    }
                    for s in &eta4 {
                        let want = b.ntt_path(&c, &Poly(*s));
                        let mut got = Poly([1; N]);
                        b.eta4(&sparse, &s.map(|x| x as i8), &mut got);
                        assert!(got == want, "{} {name}: c s (eta4), round {round}", P::NAME);
                    }
                    for s in &tiny {
                        let want = b.ntt_path(&c, &Poly(*s));
                        let mut got = Poly([1; N]);
                        b.tiny(&sparse, &s.map(|x| x as i8), &mut got);
                        assert!(got == want, "{} {name}: c s (tiny), round {round}", P::NAME);
                    }
                    for t in &t0 {
                        let want = b.ntt_path(&c, &Poly(*t));
                        let mut got = Poly([1; N]);
                        b.t0(&sparse, &Poly(*t), &mut got);
                        assert!(got == want, "{} {name}: c t0, round {round}", P::NAME);
                    }
                });
            }
        }
    }

    #[test]
    fn sparse_products_match_the_ntt_path() {
        let seeds = if cfg!(miri) { 1 } else { 50 };
        check::<MlDsa44>(seeds);
        check::<MlDsa65>(seeds);
        check::<MlDsa87>(seeds);
        check::<Dilithium2>(seeds.min(5));
    }

    #[test]
    fn from_poly_offsets() {
        let mut c = Poly::ZERO;
        c.0[0] = 1; // X^0: offset 512
        c.0[255] = -1; // X^(255 + 256): offset 1
        c.0[3] = -1; // X^259: offset 253
        let s = SparseC::from_poly(&c);
        assert_eq!(s.offsets(), &[512, 253, 1]);
    }

    /// ns per polynomial, NTT path against sparse, on each backend (release, pinned):
    /// `taskset -c 1 cargo test --release -p mldsa --lib sparse::tests::timing -- --ignored
    /// --nocapture`.
    #[test]
    #[ignore]
    fn timing() {
        use std::time::Instant;
        fn median_ns(mut f: impl FnMut()) -> f64 {
            const BATCH: usize = 1000;
            let mut v: Vec<f64> = (0..201)
                .map(|_| {
                    let t = Instant::now();
                    for _ in 0..BATCH {
                        f();
                    }
                    t.elapsed().as_nanos() as f64 / BATCH as f64
                })
                .collect();
            v.sort_by(f64::total_cmp);
            v[v.len() / 2]
        }
        fn run<P: Parameters, B: Backend>(name: &str, b: B) {
            let mut rng = SplitMix64(7);
            let mut c = Poly::ZERO;
            sample_in_ball::<P>(
                crate::hash::keccak::Permutation::PORTABLE,
                &rng.bytes::<64>()[..P::C_TILDE_LEN],
            )
            .write_poly(&mut c);
            let s: [i8; N] = core::array::from_fn(|_| rng.range(-(P::ETA), P::ETA) as i8);
            let t = Poly(core::array::from_fn(|_| rng.range(-4095, 4096)));
            let (mut c_hat, mut s_hat, mut tmp) = (NttPoly::ZERO, NttPoly::ZERO, NttPoly::ZERO);
            b.ntt(&c, &mut c_hat);
            b.ntt(&Poly(s.map(i32::from)), &mut s_hat);
            let mut out = Poly::ZERO;
            let mut scratch = Box::new(SparseScratch::ZERO);
            let ntt_c = median_ns(|| {
                b.ntt(core::hint::black_box(&c), &mut c_hat);
                core::hint::black_box(&c_hat);
            });
            let ntt_path = median_ns(|| {
                crate::algorithm::sign::product_centred(
                    b,
                    core::hint::black_box(&c_hat),
                    &s_hat,
                    &mut tmp,
                    &mut out,
                );
                core::hint::black_box(&out);
            });
            let sc = SparseC::from_poly(&c);
            let s2: [i8; N] = core::array::from_fn(|_| rng.range(-2, 2) as i8);
            let tiny = median_ns(|| {
                b.sparse_mul_tiny(core::hint::black_box(&sc), &s2, &mut scratch, &mut out);
                core::hint::black_box(&out);
            });
            let small = median_ns(|| {
                b.sparse_mul_small(core::hint::black_box(&sc), &s, &mut scratch, &mut out);
                core::hint::black_box(&out);
            });
            let s4: [i8; N] = core::array::from_fn(|_| rng.range(-4, 4) as i8);
            let eta4 = median_ns(|| {
                b.sparse_mul_eta4(core::hint::black_box(&sc), &s4, &mut scratch, &mut out);
                core::hint::black_box(&out);
            });
            std::println!(
                "{:>9} {:<8} eta = 4 kernel (signing's for eta = 4): {eta4:.1} ns",
                P::NAME,
                name
            );
            let t0 = median_ns(|| {
                b.sparse_mul_t0(core::hint::black_box(&sc), &t, &mut scratch, &mut out);
                core::hint::black_box(&out);
            });
            let mut aligned = sc;
            for (k, o) in aligned.offsets.iter_mut().enumerate() {
                *o = 32 * (1 + (k as u16 % 16));
            }
            let small_al = median_ns(|| {
                b.sparse_mul_small(core::hint::black_box(&aligned), &s, &mut scratch, &mut out);
                core::hint::black_box(&out);
            });
            let t0_al = median_ns(|| {
                b.sparse_mul_t0(core::hint::black_box(&aligned), &t, &mut scratch, &mut out);
                core::hint::black_box(&out);
            });
            // The same with every window 64-byte aligned (not a valid c): what the unaligned
            // loads' cache-line splits cost.
            std::println!(
                "{:>9} {:<8} (aligned windows: 16-bit {small_al:.1} ns, t0 {t0_al:.1} ns)",
                P::NAME,
                name
            );
            // One NTT(c) per attempt serves l + 2k products when all three are made. (The
            // sparse form costs nothing extra: SampleInBall makes it.)
            let per = (P::L + 2 * P::K) as f64;
            std::println!(
                "{:>9} {:<8} NTT path {:6.1} ns (+ NTT(c) {:5.1} / {} = {:4.1}) | sparse s 8-bit {:6.1} ns, 16-bit {:6.1} ns, t0 {:6.1} ns | s: {:3.0} % / {:3.0} %, t0: {:3.0} %",
                P::NAME,
                name,
                ntt_path,
                ntt_c,
                per,
                ntt_c / per,
                tiny,
                small,
                t0,
                100.0 * tiny / (ntt_path + ntt_c / per),
                100.0 * small / (ntt_path + ntt_c / per),
                100.0 * t0 / (ntt_path + ntt_c / per),
            );
        }
        fn all<B: Backend>(name: &str, b: B) {
            run::<MlDsa44, B>(name, b);
            run::<MlDsa65, B>(name, b);
            run::<MlDsa87, B>(name, b);
        }
        all("portable", Portable);
        #[cfg(target_arch = "x86_64")]
        if let Some(avx2) = crate::backend::x86_64::Avx2::detect() {
            all("avx2", avx2);
            if let Some(avx512) = avx2.with_avx512() {
                all("avx512", avx512);
            }
        }
    }
}
