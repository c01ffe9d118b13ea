//! Which implementation of the arithmetic, sampling and hashing kernels runs.
//!
//! There are four: the portable reference, for every target; on x86-64 an AVX2 one
//! (vectorised NTT, rounding, packing and a 4-way Keccak), chosen at run time where the CPU
//! supports it; on AArch64 a NEON one (NEON is part of the base architecture there, so it is
//! the default); and on wasm32 built with `simd128` a WebAssembly SIMD one (vectorised NTT,
//! products and rounding, a 2-way Keccak for the samplers), chosen at build time;
//! [`force_portable`] (or `MLDSA_BACKEND=portable` in the environment, with the `std` feature)
//! forces the portable one, for differential testing or to rule the SIMD code out. All give
//! identical bytes; [`active_backend`] says which one runs.

// Internals: keygen, sign and verify are written once, generic over the crate-private `Backend`
// trait; each public operation picks the backend with `with_backend!` and runs wholly on it. The
// choice depends only on the CPU (and on `force_portable`), never on data.
//
// Every kernel has the contract of the portable function it stands for (the `Bounds:` line of
// its doc): the same results, mod q, for every input in that function's domain, and outputs
// within the same bounds. That is what lets keys made on one backend be used on the other, and
// what the kernel tests in `backend/x86_64/` check against the portable code.

use crate::backend::mask_stream::MaskStream;
pub(crate) use crate::encoding::kernels::PackKernels;
use crate::hash::keccak::Permutation;
use crate::math::poly::SmallPoly;
use crate::math::poly::{N, NttPoly, Poly};
use crate::math::sparse::{SparseC, SparseScratch};
use crate::params::{Parameters, PolyVec, SamplerXof, TR_LEN};
use core::sync::atomic::{AtomicU8, Ordering};
pub(crate) use wipe::scrub_stack;

/// Batching for the multi-way samplers of the x86-64 and AArch64 backends.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
#[forbid(unsafe_code)]
pub(crate) mod lanes;
#[forbid(unsafe_code)]
pub(crate) mod mask_stream;
#[forbid(unsafe_code)]
pub(crate) mod wipe;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86_64;

/// Calls the build of a rounding function (of `crate::math::rounding`, or a backend's
/// kernel with the same const parameter) for the set's gamma2. The match is on a constant, so
/// it folds away; each arm gets its own compile-time multiply-and-shift constants. Here rather
/// than in `math`, which knows nothing of parameter sets.
macro_rules! for_gamma2 {
    ($p:ty, $($f:ident)::+($($arg:expr),*)) => {{
        use crate::math::rounding::{GAMMA2_32, GAMMA2_88};
        match <$p as Parameters>::GAMMA2 {
            GAMMA2_88 => $($f)::+::<GAMMA2_88>($($arg),*),
            GAMMA2_32 => $($f)::+::<GAMMA2_32>($($arg),*),
            _ => unreachable!("FIPS 204 defines two values of gamma2"),
        }
    }};
}

// After `for_gamma2`, which they use.
#[cfg(target_arch = "aarch64")]
pub(crate) mod aarch64;
/// The kernel checks the exact SIMD backends (NEON, simd128) share in their tests.
#[cfg(all(
    test,
    any(
        target_arch = "aarch64",
        all(target_arch = "wasm32", target_feature = "simd128")
    )
))]
#[forbid(unsafe_code)]
mod kernel_checks;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[forbid(unsafe_code)]
pub(crate) mod wasm32;

/// The kernels that a backend may speed up. The provided methods are the portable reference;
/// a backend overrides the ones it does better.
pub(crate) trait Backend: PackKernels {
    /// The build of Keccak-f[1600] the scalar sponges run on this backend (H, G, mu, the
    /// challenge hash, SampleInBall): the portable one by default.
    #[inline(always)]
    fn keccak(self) -> Permutation {
        Permutation::PORTABLE
    }

    /// FIPS 204 Algorithm 41, NTT. Bounds: as [`crate::math::ntt::ntt`].
    #[inline(always)]
    fn ntt(self, w: &Poly, out: &mut NttPoly) {
        crate::math::ntt::ntt(w, out)
    }

    /// FIPS 204 Algorithm 42, NTT^-1, times 2^32. Bounds: as [`crate::math::ntt::ntt_inverse`].
    #[inline(always)]
    fn ntt_inverse(self, w_hat: &NttPoly, out: &mut Poly) {
        crate::math::ntt::ntt_inverse(w_hat, out)
    }

    /// FIPS 204 Algorithm 45, MultiplyNTT, times 2^-32. Bounds: as [`crate::math::ntt::multiply_ntt`].
    #[inline(always)]
    fn multiply_ntt(self, a: &NttPoly, b: &NttPoly, out: &mut NttPoly) {
        crate::math::ntt::multiply_ntt(a, b, out)
    }

    /// FIPS 204 Algorithm 48, MatrixVectorNTT. Bounds: as [`crate::math::ntt::matrix_vector_ntt`].
    #[inline(always)]
    fn matrix_vector_ntt<Row: AsRef<[NttPoly]>>(
        self,
        a_hat: &[Row],
        v: &[NttPoly],
        out: &mut [NttPoly],
    ) {
        crate::math::ntt::matrix_vector_ntt(a_hat, v, out)
    }

    /// w = A-hat o v, times 2^-32, with A-hat = ExpandA(rho) (FIPS 204 Algorithms 32 and 48
    /// fused): the matrix is expanded a few entries at a time and never held whole, which keeps
    /// the stack small where A-hat is needed only once (KeyGen, Verify).
    ///
    /// Bounds: as [`crate::math::ntt::matrix_vector_ntt`]: |v| < 9q in, |c| <= 6283009 out.
    #[inline(always)]
    fn expand_a_times<P: Parameters>(self, rho: &[u8; 32], v: &[NttPoly], out: &mut [NttPoly]) {
        expand_a_times_by_rows::<P>(self, rho, v, out)
    }

    /// [`Self::expand_a_times`], and tr = H(pk, 64) (FIPS 204 Alg. 3 step 5's tr, for
    /// verifying from the key's encoding): a backend with a multi-way Keccak absorbs pk in a
    /// lane of ExpandA's sponges rather than on a state of its own.
    ///
    /// Bounds: as [`Self::expand_a_times`]; `tr` is exact.
    #[inline(always)]
    fn expand_a_times_and_tr<P: Parameters>(
        self,
        rho: &[u8; 32],
        v: &[NttPoly],
        out: &mut [NttPoly],
        pk: &[u8],
        tr: &mut [u8; TR_LEN],
    ) {
        tr_then_expand_a_times::<P>(self, rho, v, out, pk, tr)
    }

    /// Key generation's product, pk and tr (FIPS 204 Algorithm 6 steps 3, 5 and 8-9):
    /// rows = A-hat o v, times 2^-32, with A-hat = ExpandA(rho) (as [`Self::expand_a_times`]),
    /// each row handed, once complete and in order, to `finish(i, row_i, s2_i, pk_i)`, which
    /// writes pk's part for row i (`pk_i`: [`crate::encoding::encode::T1_ROW_BYTES`] bytes,
    /// SimpleBitPack of t1_i); pk[..32] (rho) is written by the caller. `s2_i` is row i's slot
    /// of `s2` ([`KeygenS2`]), holding s2_i (made here first if `s2` says so). Then
    /// tr = H(pk, 64). A backend with a multi-way Keccak absorbs pk in a lane of ExpandA's
    /// sponges as its rows are written.
    ///
    /// Bounds: each row as [`Self::expand_a_times`]'s; `tr` is exact.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn expand_a_rows_and_tr<P: Parameters>(
        self,
        rho: &[u8; 32],
        v: &[NttPoly],
        rows: &mut [NttPoly],
        pk: &mut [u8],
        tr: &mut [u8; TR_LEN],
        s2: KeygenS2,
        finish: &mut FinishRow,
    ) {
        rows_then_tr::<P>(self, rho, v, rows, pk, tr, s2, finish)
    }

    /// ExpandS (FIPS 204 Algorithm 33) for key generation: s1 into `s1`, and into `s2` the
    /// polynomials of s2 the backend does not make later, beside ExpandA, in
    /// [`Self::expand_a_rows_and_tr`]; returns how many it made (the first ones; the caller
    /// hands rho' and that count on in [`KeygenS2::make_from`] if it is below k). The default
    /// makes all of s2 here.
    #[inline(always)]
    fn expand_s_for_keygen<P: Parameters>(
        self,
        rho_prime: &[u8; 64],
        s1: &mut P::VecL,
        s2: &mut P::VecK,
    ) -> usize {
        self.expand_s::<P>(rho_prime, s1, s2);
        P::K
    }

    /// NTT of each polynomial of `v`.
    #[inline(always)]
    fn ntt_vec(self, v: &[Poly], out: &mut [NttPoly]) {
        for (p, o) in v.iter().zip(out.iter_mut()) {
            self.ntt(p, o);
        }
    }

    /// FIPS 204 Algorithm 47, ScalarVectorNTT: c o v, times 2^-32.
    ///
    /// Signing no longer uses it (the challenge products are sparse); the reference the sparse
    /// products are tested against (`sign::product_centred`).
    #[cfg(test)]
    #[inline(always)]
    fn scalar_vector_ntt(self, c: &NttPoly, v: &[NttPoly], out: &mut [NttPoly]) {
        crate::math::ntt::scalar_vector_ntt(c, v, out)
    }

    /// c s1 or c s2 from c's nonzero coefficients, in 8-bit sums (FIPS 204 Alg. 7 steps
    /// 18-19, eta = 2). Bounds: as [`crate::math::sparse::mul_tiny`].
    #[inline(always)]
    fn sparse_mul_tiny(
        self,
        c: &SparseC,
        s: &[i8; N],
        scratch: &mut SparseScratch,
        out: &mut Poly,
    ) {
        crate::math::sparse::mul_tiny(c, s, scratch, out)
    }

    /// c s1 or c s2 from c's nonzero coefficients, in 16-bit sums (FIPS 204 Alg. 7 steps
    /// 18-19). Bounds: as [`crate::math::sparse::mul_small`].
    #[inline(always)]
    #[cfg_attr(not(any(test, mldsa_ct)), allow(dead_code))]
    fn sparse_mul_small(
        self,
        c: &SparseC,
        s: &[i8; N],
        scratch: &mut SparseScratch,
        out: &mut Poly,
    ) {
        crate::math::sparse::mul_small(c, s, scratch, out)
    }

    /// c s1 or c s2 from c's nonzero coefficients for eta = 4 (FIPS 204 Alg. 7 steps 18-19).
    /// Bounds: as [`crate::math::sparse::mul_eta4`].
    #[inline(always)]
    fn sparse_mul_eta4(
        self,
        c: &SparseC,
        s: &[i8; N],
        scratch: &mut SparseScratch,
        out: &mut Poly,
    ) {
        crate::math::sparse::mul_eta4(c, s, scratch, out)
    }

    /// c t0 from c's nonzero coefficients (FIPS 204 Alg. 7 step 25).
    /// Bounds: as [`crate::math::sparse::mul_t0`].
    #[inline(always)]
    fn sparse_mul_t0(self, c: &SparseC, t: &Poly, scratch: &mut SparseScratch, out: &mut Poly) {
        crate::math::sparse::mul_t0(c, t, scratch, out)
    }

    /// FIPS 204 Algorithm 32, ExpandA.
    #[inline(always)]
    fn expand_a<P: Parameters>(self, rho: &[u8; 32], a_hat: &mut P::MatrixA) {
        crate::hash::sample::expand_a::<P>(rho, a_hat)
    }

    /// FIPS 204 Algorithm 33, ExpandS.
    #[inline(always)]
    fn expand_s<P: Parameters>(self, rho_prime: &[u8; 64], s1: &mut P::VecL, s2: &mut P::VecK) {
        crate::hash::sample::expand_s::<P>(rho_prime, s1, s2);
        scrub_after_secret_streams::<P>();
    }

    /// ExpandMask(rho'', kappa), l polynomials. Bounds: as [`crate::hash::sample::expand_mask_polys`].
    #[cfg(any(mldsa_ct, feature = "profile"))]
    #[inline(always)]
    fn expand_mask<P: Parameters>(self, rho_pp: &[u8; 64], kappa: u16, y: &mut P::VecL) {
        self.expand_mask_polys::<P>(rho_pp, kappa, y.as_mut().iter_mut())
    }

    /// Polynomials `first`, `first + 1`, ... of ExpandMask's stream. Bounds: as
    /// [`crate::hash::sample::expand_mask_polys`].
    #[inline(always)]
    fn expand_mask_polys<'a, P: Parameters>(
        self,
        rho_pp: &[u8; 64],
        first: u16,
        polys: impl Iterator<Item = &'a mut Poly>,
    ) {
        crate::hash::sample::expand_mask_polys::<P>(rho_pp, first, polys);
        scrub_after_secret_streams::<P>();
    }

    /// y for the next signing attempt: ExpandMask(rho'', kappa) with kappa = `stream.next`
    /// (FIPS 204 Alg. 7 step 11; the stream then moves on by l). A backend may hand out
    /// polynomials it made earlier ([`Self::challenge`]); by default each y is made when asked.
    #[inline(always)]
    fn next_mask<P: Parameters>(self, stream: &mut MaskStream, rho_pp: &[u8; 64], y: &mut [Poly]) {
        crate::backend::mask_stream::next_mask_each::<P, Self>(self, stream, rho_pp, y)
    }

    /// c-tilde = H(mu || w1Encode(w1), lambda / 4), declassified (FIPS 204 Alg. 7 step 15),
    /// and c = SampleInBall(c-tilde) (step 16). A backend may make the stream's next mask
    /// polynomials meanwhile, for [`Self::next_mask`] to hand out.
    #[inline(always)]
    fn challenge<P: Parameters>(
        self,
        _stream: &mut MaskStream,
        mu: &[u8; 64],
        w1: &[u8],
        _rho_pp: &[u8; 64],
        c_tilde: &mut [u8],
    ) -> SparseC {
        crate::backend::mask_stream::challenge_scalar::<P>(mu, w1, c_tilde)
    }

    /// Power2Round on vectors. Bounds: as [`crate::math::rounding::power2_round_vec`].
    #[inline(always)]
    fn power2_round_vec(self, t: &[Poly], t1: &mut [Poly], t0: &mut [Poly]) {
        crate::math::rounding::power2_round_vec(t, t1, t0)
    }

    /// HighBits on vectors. Bounds: as [`crate::math::rounding::high_bits_vec`].
    #[inline(always)]
    fn high_bits_vec<P: Parameters>(self, w: &[Poly], w1: &mut [Poly]) {
        for_gamma2!(P, crate::math::rounding::high_bits_vec(w, w1))
    }

    /// ||LowBits(r)|| >= bound. Bounds: as [`crate::math::rounding::low_bits_exceed`].
    #[inline(always)]
    fn low_bits_exceed<P: Parameters>(self, r: &[Poly], bound: i32) -> u32 {
        for_gamma2!(P, crate::math::rounding::low_bits_exceed(r, bound))
    }

    /// MakeHint on vectors. Bounds: as [`crate::math::rounding::make_hint_vec`].
    #[inline(always)]
    fn make_hint_vec<P: Parameters>(self, r_plus_z: &[Poly], r: &[Poly], h: &mut [Poly]) -> u32 {
        for_gamma2!(P, crate::math::rounding::make_hint_vec(r_plus_z, r, h))
    }

    /// UseHint on vectors. Bounds: as [`crate::math::rounding::use_hint_vec`].
    #[inline(always)]
    fn use_hint_vec<P: Parameters>(self, h: &[Poly], r: &[Poly], w1: &mut [Poly]) {
        for_gamma2!(P, crate::math::rounding::use_hint_vec(h, r, w1))
    }

    /// cs2_i := freeze(w_i - cs2_i) (Alg. 7 step 21: r = w - cs2, kept in [0, q)).
    ///
    /// Bounds: w in [0, q), |cs2| <= (q-1)/2; result in [0, q).
    #[inline(always)]
    fn sub_freeze(self, w: &[Poly], cs2: &mut [Poly]) {
        for (r_i, w_i) in cs2.iter_mut().zip(w) {
            for (r, w) in r_i.0.iter_mut().zip(w_i.0.iter()) {
                *r = crate::math::field::freeze(w - *r);
            }
        }
    }

    /// NTT^-1 with its output in [0, q): [`Self::ntt_inverse`] then [`Self::caddq`], in one
    /// pass where the backend can (w in signing, w'_approx in verifying). Bounds: as
    /// `ntt_inverse`; [0, q) out.
    #[inline(always)]
    fn ntt_inverse_nonneg(self, w_hat: &NttPoly, out: &mut Poly) {
        self.ntt_inverse(w_hat, out);
        self.caddq(out);
    }

    /// c := c + q where c < 0 (NTT^-1's output to [0, q)). Bounds: (-q, q) in, [0, q) out.
    #[inline(always)]
    fn caddq(self, p: &mut Poly) {
        p.caddq()
    }

    /// c := center(freeze(c)) on every coefficient: the representative in
    /// [-(q-1)/2, (q-1)/2]. Bounds: |c| < q. Test-only, as `scalar_vector_ntt`.
    #[cfg(test)]
    #[inline(always)]
    fn centre_freeze(self, p: &mut Poly) {
        for c in p.0.iter_mut() {
            *c = crate::math::field::center(crate::math::field::freeze(*c));
        }
    }

    /// The four-way Keccak-f[1600] permutation on four states (lane j of state i at
    /// `[j][i]`), for timing it in the profile; `None` if this backend has none.
    #[cfg(feature = "profile")]
    fn keccak4x_for_profile(self) -> Option<fn(&mut [[u64; 4]; 25])> {
        None
    }

    /// The eight-way permutation on eight states (as [`Self::keccak4x_for_profile`]), for
    /// timing it in the profile; `None` if this backend does not run one now.
    #[cfg(feature = "profile")]
    fn keccak8x_for_profile(self) -> Option<fn(&mut [[u64; 8]; 25])> {
        None
    }

    /// FIPS 204 Algorithm 28, w1Encode.
    #[inline(always)]
    fn w1_encode<P: Parameters>(self, w1: &[Poly], out: &mut [u8]) {
        crate::encoding::encode::w1_encode::<P>(w1, out)
    }

    /// w1Encode(UseHint(h, r)) (FIPS 204 Algorithms 40 and 28: Alg. 8 step 11 and the encoding
    /// step 12 hashes), which a backend may fuse so that w1 is never stored. Bounds: as
    /// [`crate::math::rounding::use_hint_vec`], at most k polynomials;
    /// `out.len() == r.len() * 32 * W1_BITS`.
    #[inline(always)]
    fn use_hint_w1_encode<P: Parameters>(self, h: &[Poly], r: &[Poly], out: &mut [u8]) {
        debug_assert_eq!(out.len(), r.len() * 32 * P::W1_BITS);
        // A row at a time through one polynomial: not a zeroed k-row w1 (up to 8 KiB of
        // memset a verification, and of its stack).
        // (Rows by offset, not `chunks_exact_mut`, whose length division stays a `div` at
        // opt-level z, which the constant-time scan rejects.)
        let (mut w1, row) = (Poly::ZERO, 32 * P::W1_BITS);
        for (i, (h_i, r_i)) in h.iter().zip(r).enumerate() {
            let w1 = core::slice::from_mut(&mut w1);
            self.use_hint_vec::<P>(core::slice::from_ref(h_i), core::slice::from_ref(r_i), w1);
            self.w1_encode::<P>(w1, &mut out[i * row..(i + 1) * row]);
        }
    }
}

/// After ExpandS and ExpandMask on an AES set: the `aes` crate wipes its expanded key when a
/// stream is dropped, but the key schedule may leave key words in its dead stack frames (Z-1,
/// `tests/zeroize_runtime/`, found four 8-byte lanes of rho''\[0..32\] there after signing on
/// the portable backend), so the dead stack below the sampler is overwritten. Here, after the portable samplers
/// (`hash::sample`), because the overwriting is the backend floor's (`wipe`).
#[inline(always)]
fn scrub_after_secret_streams<P: Parameters>() {
    if P::XOF == SamplerXof::Aes256Ctr {
        scrub_stack();
    }
}

/// [`Backend::expand_a_times_and_tr`] apart: tr = H(pk, 64) on `b`'s scalar sponge, then
/// [`Backend::expand_a_times`]. The default, and the x86-64 and AArch64 backends' path for the
/// Dilithium v3.1 AES sets.
#[inline(always)]
pub(crate) fn tr_then_expand_a_times<P: Parameters>(
    b: impl Backend,
    rho: &[u8; 32],
    v: &[NttPoly],
    out: &mut [NttPoly],
    pk: &[u8],
    tr: &mut [u8; TR_LEN],
) {
    crate::hash::keccak::shake256_with(b.keccak(), &[pk], tr);
    b.expand_a_times::<P>(rho, v, out);
}

/// [`Backend::expand_a_rows_and_tr`] one step after the other: the whole product
/// ([`Backend::expand_a_times`]), then `finish` each row, then tr = H(pk, 64) on `b`'s scalar
/// sponge. The default, and the x86-64 backend's path without AVX-512 and for the AES sets.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn rows_then_tr<P: Parameters>(
    b: impl Backend,
    rho: &[u8; 32],
    v: &[NttPoly],
    rows: &mut [NttPoly],
    pk: &mut [u8],
    tr: &mut [u8; TR_LEN],
    s2: KeygenS2,
    finish: &mut FinishRow,
) {
    if let Some((rho_prime, first)) = s2.make_from {
        let rest = s2.slots.iter_mut().skip(first);
        crate::hash::sample::expand_s_from::<P>(rho_prime, P::L + first, rest);
        scrub_after_secret_streams::<P>();
    }
    b.expand_a_times::<P>(rho, v, rows);
    // Offsets by multiplication: `chunks_exact_mut(320)` divides the length by 320, a `div`
    // at opt-level z (the constant-time scan forbids division in every mldsa function).
    const ROW: usize = crate::encoding::encode::T1_ROW_BYTES;
    for ((i, row), s2_i) in rows.iter().enumerate().zip(s2.slots.iter_mut()) {
        finish(i, row, s2_i, &mut pk[32 + i * ROW..32 + (i + 1) * ROW]);
    }
    crate::hash::keccak::shake256_with(b.keccak(), &[pk], tr);
}

/// What [`Backend::expand_a_rows_and_tr`] hands each row to: `finish(i, row_i, s2_i, pk_i)`.
pub(crate) type FinishRow<'a> = dyn FnMut(usize, &NttPoly, &mut Poly, &mut [u8]) + 'a;

/// Key generation's s2 as [`Backend::expand_a_rows_and_tr`] takes it: a slot per row of t (k
/// polynomials; the caller's t0, which `finish` writes over s2_i), holding s2 already, or its
/// first polynomials and the rest to be made there from rho' ([`Backend::expand_s_for_keygen`]
/// said how many it made).
pub(crate) struct KeygenS2<'a> {
    /// Row i's slot: s2_i when row i is handed to `finish`.
    pub slots: &'a mut [Poly],
    /// rho' (FIPS 204 Algorithm 33's seed) and the first polynomial of s2 still to be made, if
    /// one is, else `None`.
    pub make_from: Option<(&'a [u8; 64], usize)>,
    /// Room for the sponge state s2 is made on, if it is: the caller's key generation working
    /// memory (on the heap under `alloc`), not the stack under ExpandA's frames (ST-1). Left
    /// zero.
    #[cfg_attr(
        not(target_arch = "x86_64"),
        allow(dead_code, reason = "only the x86-64 backend makes s2 beside ExpandA")
    )]
    pub sponge: &'a mut [u64; 25],
}

/// [`Backend::expand_a_times`] one row of A-hat (at most 7 KiB) at a time, each entry made by
/// the portable sampler over the set's stream, the product by `b`'s kernel. The portable
/// reference, and the AVX2 backend's path for the Dilithium v3.1 AES sets.
#[inline(always)]
pub(crate) fn expand_a_times_by_rows<P: Parameters>(
    b: impl Backend,
    rho: &[u8; 32],
    v: &[NttPoly],
    out: &mut [NttPoly],
) {
    tick!(ExpandATimes, 1);
    let mut row = P::NttVecL::zeroed();
    let mut seed = [0u8; 34];
    seed[..32].copy_from_slice(rho);
    for (r, w_r) in out.iter_mut().enumerate() {
        for (s, entry) in row.as_mut().iter_mut().enumerate() {
            seed[32] = s as u8;
            seed[33] = r as u8;
            crate::hash::sample::rej_ntt_poly_for::<P>(&seed, entry);
        }
        b.matrix_vector_ntt(&[&row], v, core::slice::from_mut(w_r));
    }
}

/// c s1 or c s2 (FIPS 204 Alg. 7 steps 18-19) for the set `P`: in 8-bit sums where they fit
/// (tau eta <= 127: the sets with eta = 2), else in 16-bit sums. `P` is a constant, so the
/// choice is made at compile time.
///
/// Bounds: s in [-eta, eta]; |out| <= tau eta = beta.
#[inline(always)]
pub(crate) fn mul_secret<P: Parameters, B: Backend>(
    b: B,
    c: &SparseC,
    s: &SmallPoly,
    scratch: &mut SparseScratch,
    out: &mut Poly,
) {
    tick!(SparseMul, 1);
    if P::BETA <= 127 {
        b.sparse_mul_tiny(c, &s.0, scratch, out)
    } else {
        debug_assert_eq!(P::ETA, 4, "tau eta > 127 only for eta = 4");
        b.sparse_mul_eta4(c, &s.0, scratch, out)
    }
}

/// ct0 = c t0 (FIPS 204 Alg. 7 step 25) on backend `b`: [`mul_t0`] or its vector kernels.
///
/// Bounds: |t0| <= 2^12; |out| <= tau 2^12.
#[inline(always)]
pub(crate) fn mul_ct0<B: Backend>(
    b: B,
    c: &SparseC,
    t0: &Poly,
    scratch: &mut SparseScratch,
    out: &mut Poly,
) {
    tick!(SparseMul, 1);
    b.sparse_mul_t0(c, t0, scratch, out)
}

/// The reference backend: plain Rust, every target (but a wasm32 build with
/// `--cfg mldsa_wasm_simd_only`, where nothing makes one).
#[derive(Clone, Copy, Debug)]
#[cfg_attr(mldsa_wasm_simd_only, allow(dead_code))]
pub(crate) struct Portable;

impl PackKernels for Portable {}
impl Backend for Portable {}

/// The implementation that runs the kernels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum BackendKind {
    /// Plain Rust, for every target (the reference).
    Portable,
    /// x86-64 AVX2 (vectorised NTT, arithmetic, sampling and a 4-way Keccak).
    Avx2,
    /// x86-64 AVX2 with AVX-512 (F, VL and BW) variants of some of its kernels, on CPUs that have
    /// them; every other kernel is the AVX2 one.
    Avx512,
    /// WebAssembly SIMD (simd128: vectorised NTT, T_q products and rounding, and a two-way
    /// Keccak for ExpandA, ExpandS and ExpandMask), in builds for wasm32 with the `simd128`
    /// target feature.
    Simd128,
    /// AArch64 NEON (Advanced SIMD), the default on every AArch64 CPU.
    Neon,
}

/// Whether the portable backend is compiled in beside the fast one, for `force_portable`. Not in
/// a wasm32 simd128 build with `--cfg mldsa_wasm_simd_only`: monomorphising every operation a
/// second time for a switch the JavaScript package never offers cost 23 KiB of its gzipped .wasm
/// (158 KiB against 135 KiB; the package's target is 150).
const PORTABLE_FALLBACK: bool = !cfg!(all(
    target_arch = "wasm32",
    target_feature = "simd128",
    mldsa_wasm_simd_only
));

/// 0: not decided yet; otherwise 1 + the `BackendKind` in use.
static CHOSEN: AtomicU8 = AtomicU8::new(0);
pub(in crate::backend) const PORTABLE: u8 = 1;
pub(in crate::backend) const AVX2: u8 = 2;
pub(in crate::backend) const AVX512: u8 = 3;
pub(in crate::backend) const SIMD128: u8 = 4;
pub(in crate::backend) const NEON: u8 = 5;

/// Makes every later operation use the portable backend (`yes`), or go back to the fastest one
/// the CPU supports (`no`). For differential testing and for ruling the SIMD code out when
/// chasing a problem; results are the same either way.
///
/// With the `std` feature the environment variable `MLDSA_BACKEND=portable` does the same from
/// the start of the process (and `MLDSA_BACKEND=avx2` what [`force_avx2`] does). Any other
/// value of `MLDSA_BACKEND` is ignored: the library falls back to the fastest backend the CPU
/// supports (the `mldsa` command rejects such values).
///
/// A WebAssembly build compiled with `--cfg mldsa_wasm_simd_only` (the npm package's) carries
/// only the simd128 backend, and there this does nothing: [`active_backend`] still says
/// [`BackendKind::Simd128`].
pub fn force_portable(yes: bool) {
    let kind = if yes && PORTABLE_FALLBACK {
        PORTABLE
    } else {
        detect()
    };
    CHOSEN.store(kind, Ordering::Relaxed);
}

/// Makes every later operation use the AVX2 backend without its AVX-512 variants (`yes`), or
/// go back to the fastest backend the CPU supports (`no`). Where the CPU has no AVX-512 this
/// changes nothing; where it has no AVX2, `yes` means the portable backend. Results are the
/// same either way; this is for differential testing and for measuring the AVX-512 variants.
///
/// With the `std` feature the environment variable `MLDSA_BACKEND=avx2` does the same from the
/// start of the process.
pub fn force_avx2(yes: bool) {
    let kind = if yes { at_most_avx2() } else { detect() };
    CHOSEN.store(kind, Ordering::Relaxed);
}

/// The backend that operations run on now.
pub fn active_backend() -> BackendKind {
    match chosen() {
        AVX2 => BackendKind::Avx2,
        AVX512 => BackendKind::Avx512,
        SIMD128 => BackendKind::Simd128,
        NEON => BackendKind::Neon,
        _ => BackendKind::Portable,
    }
}

/// The fastest backend this CPU supports, ignoring any override.
fn detect() -> u8 {
    #[cfg(target_arch = "x86_64")]
    if let Some(avx2) = x86_64::Avx2::detect() {
        return if avx2.detect_avx512() { AVX512 } else { AVX2 };
    }
    // NEON is mandatory in AArch64 (Armv8-A's Advanced SIMD); Rust's AArch64 targets assume it.
    if cfg!(target_arch = "aarch64") {
        return NEON;
    }
    // simd128 is a build-time choice: a .wasm built with it only runs where it is supported.
    if cfg!(all(target_arch = "wasm32", target_feature = "simd128")) {
        return SIMD128;
    }
    PORTABLE
}

/// [`force_avx2`]'s backend: AVX2 where the CPU has it, else the portable one.
fn at_most_avx2() -> u8 {
    match detect() {
        AVX2 | AVX512 => AVX2,
        _ => PORTABLE,
    }
}

/// The backend to use: decided once (CPU, then the environment), then read from `CHOSEN`.
#[inline]
pub(crate) fn chosen() -> u8 {
    match CHOSEN.load(Ordering::Relaxed) {
        0 => {
            #[cfg(feature = "std")]
            let forced = std::env::var_os("MLDSA_BACKEND");
            #[cfg(feature = "std")]
            let kind = match forced.as_ref().and_then(|v| v.to_str()) {
                Some("portable") if PORTABLE_FALLBACK => PORTABLE,
                Some("avx2") => at_most_avx2(),
                _ => detect(),
            };
            #[cfg(not(feature = "std"))]
            let kind = detect();
            // A concurrent force_portable() wins over this first detection.
            let _ = CHOSEN.compare_exchange(0, kind, Ordering::Relaxed, Ordering::Relaxed);
            CHOSEN.load(Ordering::Relaxed)
        }
        kind => kind,
    }
}

/// Runs `$body` with `$b` bound to the chosen backend (monomorphised once per backend).
macro_rules! with_backend {
    (|$b:ident| $body:expr) => {{
        #[cfg(target_arch = "x86_64")]
        {
            match $crate::backend::x86_64::Avx2::chosen() {
                Some($b) => $body,
                None => {
                    let $b = $crate::backend::Portable;
                    $body
                }
            }
        }
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        {
            // The npm package's build carries one backend (see `PORTABLE_FALLBACK`).
            #[cfg(mldsa_wasm_simd_only)]
            {
                let $b = $crate::backend::wasm32::Simd128;
                $body
            }
            #[cfg(not(mldsa_wasm_simd_only))]
            match $crate::backend::wasm32::Simd128::chosen() {
                Some($b) => $body,
                None => {
                    let $b = $crate::backend::Portable;
                    $body
                }
            }
        }
        #[cfg(target_arch = "aarch64")]
        {
            match $crate::backend::aarch64::Neon::chosen() {
                Some($b) => $body,
                None => {
                    let $b = $crate::backend::Portable;
                    $body
                }
            }
        }
        #[cfg(not(any(
            target_arch = "x86_64",
            target_arch = "aarch64",
            all(target_arch = "wasm32", target_feature = "simd128")
        )))]
        {
            let $b = $crate::backend::Portable;
            $body
        }
    }};
}
pub(crate) use with_backend;

/// The build of Keccak-f[1600] the chosen backend runs ([`Backend::keccak`]), for the sponges
/// of operations that are not generic over a backend (mu, the pre-hashes, H(pk) of a key).
#[inline]
pub(crate) fn keccak() -> Permutation {
    with_backend!(|b| b.keccak())
}
