//! Thin wrappers over the backend kernels, on a backend chosen by the caller, for the
//! statistical timing tests (dudect, issue #6 CT-4; see `crates/dudect`) and for the
//! portable-vs-AVX2 differential fuzz target (FZ-1; `fuzz/fuzz_targets/backend_diff.rs`).
//! Compiled only with `--cfg mldsa_ct`, like [`crate::support::ct`]; not part of the API.
//!
//! Every function takes a [`Which`] and returns `None` when that backend cannot run on this CPU
//! (AVX2 or AVX-512 without the instruction set, or on another architecture). Polynomials cross the
//! boundary as plain `[i32; 256]` arrays and are copied into the crate's types inside; vectors
//! are slices of at most 8 of them (the largest k or l). The copies cost the same for every
//! input, so they do not disturb a timing test.
//!
//! Inputs must lie in the domain of the kernel they go to (the `Bounds:` line of the portable
//! function, repeated on each wrapper): the wrappers do not check, because a check would sit
//! inside the timed region. Debug builds assert the bounds in the kernels.
//!
//! Dispatch on [`Which`] branches only on that public choice; no wrapper branches on, or indexes
//! memory by, the values it is given.

use crate::algorithm::expanded::ExpandedSecret;
use crate::backend::{Backend, PackKernels, Portable};
use crate::encoding::encode::sk_decode as decode_sk;
use crate::error::{Error, Input};
use crate::math::poly::{N, NttPoly, Poly};
use crate::params::{Matrix, ParameterSet, Parameters, PolyVec};
use zeroize::Zeroize;

#[cfg(target_arch = "x86_64")]
use crate::backend::x86_64::Avx2;

/// The largest number of polynomials in a vector (k of ML-DSA-87).
pub const MAX_POLYS: usize = 8;

/// The backend a wrapper runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Which {
    /// The portable reference kernels.
    Portable,
    /// The AVX2 kernels without their AVX-512 variants (x86-64 with AVX2 only).
    Avx2,
    /// The AVX2 kernels with their AVX-512 variants (x86-64 with AVX-512 F, VL and BW only).
    Avx512,
}

impl Which {
    /// Every backend, portable first.
    pub const ALL: [Which; 3] = [Which::Portable, Which::Avx2, Which::Avx512];

    /// A short lower-case name: `portable`, `avx2` or `avx512`.
    pub fn name(self) -> &'static str {
        match self {
            Which::Portable => "portable",
            Which::Avx2 => "avx2",
            Which::Avx512 => "avx512",
        }
    }

    /// Whether this backend can run on this CPU.
    pub fn available(self) -> bool {
        Resolved::of(self).is_some()
    }
}

/// A backend that can run here: the proof value of the backend's kernels.
#[derive(Clone, Copy)]
enum Resolved {
    Portable(Portable),
    #[cfg(target_arch = "x86_64")]
    Avx2(Avx2),
}

impl Resolved {
    fn of(which: Which) -> Option<Self> {
        match which {
            Which::Portable => Some(Resolved::Portable(Portable)),
            #[cfg(target_arch = "x86_64")]
            Which::Avx2 => Avx2::detect().map(Resolved::Avx2),
            #[cfg(target_arch = "x86_64")]
            Which::Avx512 => Avx2::detect()
                .and_then(Avx2::with_avx512)
                .map(Resolved::Avx2),
            #[cfg(not(target_arch = "x86_64"))]
            Which::Avx2 | Which::Avx512 => None,
        }
    }
}

/// Runs `$body` with `$b` bound to the backend `$which` names, or evaluates to `None` when that
/// backend cannot run here. `$body` is monomorphised once per backend.
macro_rules! on {
    ($which:expr, |$b:ident| $body:expr) => {
        match Resolved::of($which) {
            None => None,
            Some(Resolved::Portable($b)) => Some($body),
            #[cfg(target_arch = "x86_64")]
            Some(Resolved::Avx2($b)) => Some($body),
        }
    };
}

/// A vector of up to [`MAX_POLYS`] polynomials on the stack, zeroised on drop.
struct Scratch([Poly; MAX_POLYS]);

impl Scratch {
    fn new() -> Self {
        Scratch([Poly::ZERO; MAX_POLYS])
    }

    /// Copies `src` in; returns the filled prefix.
    fn load(&mut self, src: &[[i32; N]]) -> &mut [Poly] {
        assert!(
            src.len() <= MAX_POLYS,
            "ct_kernels: more than 8 polynomials"
        );
        for (p, s) in self.0.iter_mut().zip(src) {
            p.0 = *s;
        }
        &mut self.0[..src.len()]
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        self.0.zeroize();
    }
}

/// Copies `polys` out to `dst` (same length).
fn store(polys: &[Poly], dst: &mut [[i32; N]]) {
    assert_eq!(polys.len(), dst.len(), "ct_kernels: output length");
    for (d, p) in dst.iter_mut().zip(polys) {
        *d = p.0;
    }
}

/// NTT, of one polynomial (FIPS 204 Algorithm 41). Bounds: |c| < q.
pub fn ntt(which: Which, w: &[i32; N]) -> Option<[i32; N]> {
    let w = Poly(*w);
    let mut out = NttPoly::ZERO;
    on!(which, |b| b.ntt(&w, &mut out))?;
    Some(out.0)
}

/// NTT^-1 (times 2^32, as in the crate), of one polynomial (FIPS 204 Algorithm 42).
/// Bounds: |c| < q.
pub fn ntt_inverse(which: Which, w_hat: &[i32; N]) -> Option<[i32; N]> {
    let w_hat = NttPoly(*w_hat);
    let mut out = Poly::ZERO;
    on!(which, |b| b.ntt_inverse(&w_hat, &mut out))?;
    Some(out.0)
}

/// MultiplyNTT (times 2^-32) (FIPS 204 Algorithm 45): `a` o `b`.
/// Bounds: |a_i * b_i| <= 2^31 q (NTT outputs, |c| < 9q, times anything below q qualify).
pub fn multiply_ntt(which: Which, a: &[i32; N], b: &[i32; N]) -> Option<[i32; N]> {
    let (a, b) = (NttPoly(*a), NttPoly(*b));
    let mut out = NttPoly::ZERO;
    on!(which, |k| k.multiply_ntt(&a, &b, &mut out))?;
    Some(out.0)
}

/// HighBits (FIPS 204 Algorithm 37, through Decompose) of every coefficient of `w`, into `w1`
/// (same length). Bounds: w in [0, q).
pub fn high_bits<P: ParameterSet>(which: Which, w: &[[i32; N]], w1: &mut [[i32; N]]) -> Option<()> {
    let mut input = Scratch::new();
    let mut output = Scratch::new();
    let w = input.load(w);
    let out = &mut output.0[..w.len()];
    on!(which, |b| b.high_bits_vec::<P>(w, out))?;
    store(out, w1);
    Some(())
}

/// 1 if ||LowBits(r)||_inf >= bound (FIPS 204 Algorithm 38 and the r0 check of Algorithm 7
/// step 23), else 0. Bounds: r in [0, q), bound > 0.
pub fn low_bits_exceed<P: ParameterSet>(which: Which, r: &[[i32; N]], bound: i32) -> Option<u32> {
    let mut input = Scratch::new();
    let r = input.load(r);
    on!(which, |b| b.low_bits_exceed::<P>(r, bound))
}

/// MakeHint (FIPS 204 Algorithm 39) on every coefficient: h_i = MakeHint(z_i, r_i) with
/// z = `r_plus_z` - `r`; returns the number of 1s in h. Bounds: r and r + z in [0, q).
pub fn make_hint<P: ParameterSet>(
    which: Which,
    r_plus_z: &[[i32; N]],
    r: &[[i32; N]],
    h: &mut [[i32; N]],
) -> Option<u32> {
    assert_eq!(r_plus_z.len(), r.len(), "ct_kernels: MakeHint lengths");
    let mut a = Scratch::new();
    let mut c = Scratch::new();
    let mut out = Scratch::new();
    let r_plus_z = a.load(r_plus_z);
    let r = c.load(r);
    let hints = &mut out.0[..r.len()];
    let count = on!(which, |b| b.make_hint_vec::<P>(r_plus_z, r, hints))?;
    store(hints, h);
    Some(count)
}

/// 1 if ||v||_inf >= bound (FIPS 204 section 2.3; the z check of Algorithm 7 step 23), else 0.
/// Bounds: |c| < 2^31, bound > 0.
pub fn vec_exceeds(which: Which, v: &[[i32; N]], bound: i32) -> Option<u32> {
    let mut input = Scratch::new();
    let v = input.load(v);
    on!(which, |b| b.vec_exceeds(v, bound))
}

/// Power2Round (FIPS 204 Algorithm 35) of every coefficient of `t`, into `t1` and `t0` (same
/// length). Bounds: t in [0, q).
pub fn power2_round(
    which: Which,
    t: &[[i32; N]],
    t1: &mut [[i32; N]],
    t0: &mut [[i32; N]],
) -> Option<()> {
    let mut input = Scratch::new();
    let mut high = Scratch::new();
    let mut low = Scratch::new();
    let t = input.load(t);
    let (h, l) = (&mut high.0[..t.len()], &mut low.0[..t.len()]);
    on!(which, |b| b.power2_round_vec(t, h, l))?;
    store(h, t1);
    store(l, t0);
    Some(())
}

/// UseHint (FIPS 204 Algorithm 40) of every coefficient, into `w1` (same length).
/// Bounds: h in {0, 1}, r in [0, q).
pub fn use_hint<P: ParameterSet>(
    which: Which,
    h: &[[i32; N]],
    r: &[[i32; N]],
    w1: &mut [[i32; N]],
) -> Option<()> {
    assert_eq!(h.len(), r.len(), "ct_kernels: UseHint lengths");
    let mut a = Scratch::new();
    let mut c = Scratch::new();
    let mut out = Scratch::new();
    let h = a.load(h);
    let r = c.load(r);
    let o = &mut out.0[..r.len()];
    on!(which, |b| b.use_hint_vec::<P>(h, r, o))?;
    store(o, w1);
    Some(())
}

/// w1Encode (FIPS 204 Algorithm 28) of the k polynomials `w1` into `out` (`P::W1_LEN` bytes).
/// Bounds: w1 in [0, 2^bitlen((q-1)/(2 gamma2) - 1)).
pub fn w1_encode<P: ParameterSet>(which: Which, w1: &[[i32; N]], out: &mut [u8]) -> Option<()> {
    assert_eq!(w1.len(), P::K, "ct_kernels: w1Encode takes k polynomials");
    assert_eq!(out.len(), P::W1_LEN, "ct_kernels: w1Encode output length");
    let mut input = Scratch::new();
    let w1 = input.load(w1);
    on!(which, |b| b.w1_encode::<P>(w1, out))
}

/// BitUnpack(v, gamma1 - 1, gamma1) (FIPS 204 Algorithm 19) of one polynomial of z or y.
/// Bounds: `v` is 32 * bitlen(2 gamma1 - 1) bytes, any values.
pub fn bit_unpack_z<P: ParameterSet>(which: Which, v: &[u8]) -> Option<[i32; N]> {
    assert_eq!(v.len(), 32 * P::Z_BITS, "ct_kernels: BitUnpack z length");
    let mut out = Poly::ZERO;
    on!(which, |b| b.bit_unpack_z::<P>(v, &mut out))?;
    Some(out.0)
}

/// r_i := freeze(w_i - cs2_i) (Algorithm 7 step 21), in place in `cs2`.
/// Bounds: w in [0, q), |cs2| <= (q-1)/2; result in [0, q).
pub fn sub_freeze(which: Which, w: &[[i32; N]], cs2: &mut [[i32; N]]) -> Option<()> {
    assert_eq!(w.len(), cs2.len(), "ct_kernels: sub_freeze lengths");
    let mut a = Scratch::new();
    let mut c = Scratch::new();
    let w = a.load(w);
    let r = c.load(cs2);
    on!(which, |b| b.sub_freeze(w, r))?;
    store(r, cs2);
    Some(())
}

/// The sparse challenge products of signing ([`crate::math::sparse`]): c s for the public `c` (a
/// SampleInBall output: tau coefficients in {-1, 1}, the rest 0) and a secret `s`, exactly.
/// `bits` picks the kernel: 8 (s1, s2 with eta = 2; Bounds: tau ||s|| <= 127), 16 (s1, s2;
/// Bounds: |s| < 2^7), 4 (s1, s2 with eta = 4, what signing runs for them: 8-bit runs of
/// terms; Bounds: |s| <= 4) or 32 (t0, what signing runs for c t0: 16-bit runs of terms added
/// into 32-bit sums; Bounds: |s| <= 2^12). The conversion of `c` to its window
/// offsets, inside the wrapper, depends only on `c`.
pub fn sparse_mul(which: Which, bits: u32, c: &[i32; N], s: &[i32; N]) -> Option<[i32; N]> {
    use crate::math::sparse::{SparseC, SparseScratch};
    let c = SparseC::from_poly(&Poly(*c));
    let mut scratch = SparseScratch::ZERO;
    let mut out = Poly::ZERO;
    match bits {
        4 | 8 | 16 => {
            let mut small = s.map(|x| x as i8);
            if bits == 8 {
                on!(which, |b| b.sparse_mul_tiny(
                    &c,
                    &small,
                    &mut scratch,
                    &mut out
                ))?;
            } else if bits == 4 {
                on!(which, |b| b.sparse_mul_eta4(
                    &c,
                    &small,
                    &mut scratch,
                    &mut out
                ))?;
            } else {
                on!(which, |b| b.sparse_mul_small(
                    &c,
                    &small,
                    &mut scratch,
                    &mut out
                ))?;
            }
            small.zeroize();
        }
        _ => {
            let mut t0 = Poly(*s);
            on!(which, |b| b.sparse_mul_t0(&c, &t0, &mut scratch, &mut out))?;
            t0.zeroize();
        }
    }
    Some(out.0)
}

/// MatrixVectorNTT (FIPS 204 Algorithm 48, times 2^-32): `out` (k polynomials) = A-hat o `v`,
/// with A-hat given row by row as k * l polynomials and `v` as l.
/// Bounds: A-hat in [0, q), |v| < 9q; output |c| <= 6283009.
pub fn matrix_vector_ntt<P: ParameterSet>(
    which: Which,
    a_hat: &[[i32; N]],
    v: &[[i32; N]],
    out: &mut [[i32; N]],
) -> Option<()> {
    assert_eq!(
        a_hat.len(),
        P::K * P::L,
        "ct_kernels: A-hat is k * l polynomials"
    );
    assert_eq!(v.len(), P::L, "ct_kernels: v is l polynomials");
    assert_eq!(out.len(), P::K, "ct_kernels: the product is k polynomials");
    let mut a = P::MatrixA::zeroed();
    for (row, src) in a.as_mut().iter_mut().zip(a_hat.chunks(P::L)) {
        for (entry, s) in row.as_mut().iter_mut().zip(src) {
            entry.0 = *s;
        }
    }
    let mut x = P::NttVecL::zeroed();
    for (entry, s) in x.as_mut().iter_mut().zip(v) {
        entry.0 = *s;
    }
    let mut w = P::NttVecK::zeroed();
    on!(which, |b| b.matrix_vector_ntt(
        a.as_ref(),
        x.as_ref(),
        w.as_mut()
    ))?;
    for (o, p) in out.iter_mut().zip(w.as_ref()) {
        *o = p.0;
    }
    Some(())
}

/// ExpandMask (FIPS 204 Algorithm 34): y (l polynomials, written to `y`) from rho'' and kappa.
/// Bounds: kappa + l - 1 < 2^16. Any set, the Dilithium v3.1 AES ones included.
pub fn expand_mask<P: Parameters>(
    which: Which,
    rho_pp: &[u8; 64],
    kappa: u16,
    y: &mut [[i32; N]],
) -> Option<()> {
    let mut v = P::VecL::zeroed();
    on!(which, |b| b.expand_mask::<P>(rho_pp, kappa, &mut v))?;
    store(v.as_ref(), y);
    v.zeroize();
    Some(())
}

/// ExpandS (FIPS 204 Algorithm 33): s1 then s2 (l + k polynomials, written to `s`) from rho'.
///
/// The running time legitimately depends on which nibbles of the SHAKE256 stream were rejected
/// (FIPS 204 allows that to leak), not on the values of the coefficients. Any set, the
/// Dilithium v3.1 AES ones included.
pub fn expand_s<P: Parameters>(
    which: Which,
    rho_prime: &[u8; 64],
    s: &mut [[i32; N]],
) -> Option<()> {
    assert_eq!(s.len(), P::L + P::K, "ct_kernels: ExpandS output length");
    let mut s1 = P::VecL::zeroed();
    let mut s2 = P::VecK::zeroed();
    on!(which, |b| b.expand_s::<P>(rho_prime, &mut s1, &mut s2))?;
    let (out1, out2) = s.split_at_mut(P::L);
    store(s1.as_ref(), out1);
    store(s2.as_ref(), out2);
    s1.zeroize();
    s2.zeroize();
    Some(())
}

/// SHAKE256 of `input`, `out.len()` bytes (FIPS 204's H): the scalar sponge of the default
/// backend, which runs H over secrets outside the four-way samplers (the portable rounds, their
/// BMI build, or on AMD CPUs with AVX-512 lane 0 of the four-way AVX-512VL permutation).
pub fn shake256(input: &[u8], out: &mut [u8]) {
    crate::hash::keccak::shake256_with(crate::backend::keccak(), &[input], out);
}

/// Secret-key unpacking as signing from an encoded key does it: FIPS 204 Algorithm 25,
/// skDecode (with the strict range check of s1 and s2), then s1 and s2 into their 8-bit form
/// (what signing from key bytes does: t0 stays in coefficient form) on the chosen backend. The decoded key is discarded (and zeroised).
///
/// Returns `Some(Err(_))` for a malformed key (after the full, constant-time range check, as
/// the crate does) and `None` when the backend cannot run here.
pub fn sk_decode<P: ParameterSet>(which: Which, sk: &[u8]) -> Option<Result<(), Error>> {
    assert_eq!(sk.len(), P::SK_LEN, "ct_kernels: sk length");
    let mut secret = ExpandedSecret::<P>::zeroed();
    let mut s1 = P::VecL::zeroed();
    let mut s2 = P::VecK::zeroed();
    let result = on!(which, |b| {
        let result = decode_sk::<P, _>(
            b,
            sk,
            &mut secret.rho,
            &mut secret.k,
            &mut secret.tr,
            s1.as_mut(),
            s2.as_mut(),
            secret.t0.as_mut(),
        );
        // Whether the key is malformed is public (sk_decode declassifies only that verdict).
        if result.is_ok() {
            for (p, small) in s1.as_ref().iter().zip(secret.s1.as_mut()) {
                small.set(p);
            }
            for (p, small) in s2.as_ref().iter().zip(secret.s2.as_mut()) {
                small.set(p);
            }
        }
        result
    })?;
    // Keep the decoded key observable so that the work is not optimised away.
    core::hint::black_box(&secret);
    s1.zeroize();
    s2.zeroize();
    Some(result.map_err(|what| Error::Malformed {
        input: Input::SigningKey,
        what,
    }))
}
