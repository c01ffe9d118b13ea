//! The x86-64 backend: one type, [`Avx2`], that runs the AVX2 kernels ([`avx2`]) and, where
//! the CPU and OS also support AVX-512 F, VL and BW, the AVX-512 variants ([`avx512`]) of the
//! kernels that have one; the only place in the crate with `unsafe`.
//!
//! Each kernel is a `#[target_feature(enable = "avx2")]` function in a submodule of [`avx2`],
//! with a written contract (input and output bounds, layout) that debug builds assert. An
//! [`Avx2`] value is the proof that the CPU has AVX2: it is made only by [`Avx2::detect`], so
//! the `unsafe` calls below (calling a `target_feature` function from code compiled without the
//! feature) are sound. The AVX-512 variants (`avx2,avx512f[,avx512bw]` functions in
//! [`avx512`], with the same contracts) are called only where [`Avx2::avx512`] returned true,
//! which needs AVX-512 F, VL and BW to have been detected. One runtime-dispatched type rather
//! than a backend per instruction set: the generic algorithm code is compiled once for x86-64.
//!
//! Layout: polynomials keep the portable layout (coefficient i at index i, NTT values in FIPS
//! 204's bit-reversed order), so NTT-domain values made by one backend are valid for the other.
#![allow(unsafe_code)]

pub(crate) mod avx2;
pub(crate) mod avx512;
#[forbid(unsafe_code)]
pub(crate) mod pk_lane;
pub(crate) mod sample;

use crate::backend::mask_stream::MaskStream;
use crate::backend::{Backend, FinishRow, KeygenS2, PackKernels};
use crate::math::poly::{N, NttPoly, Poly};
use crate::math::sparse::{SparseC, SparseScratch};
use crate::params::{Parameters, SamplerXof, TR_LEN};
use core::arch::x86_64::__m256i;

cpufeatures::new!(cpuid_avx2, "avx2");
// The AVX-512 variants use only F (zmm, 32- and 64-bit lanes), VL (the same on ymm) and BW
// (16-bit lanes, in the sparse products); every CPU with F and VL has BW. cpufeatures also
// checks that the OS saves the zmm and mask registers (XCR0).
cpufeatures::new!(cpuid_avx512, "avx512f", "avx512vl", "avx512bw");

/// Whether the CPU's vendor (CPUID leaf 0) is AMD: read once, then cached (CPUID may trap to a
/// hypervisor, so it is not read per operation). Only a speed choice depends on it
/// ([`Keccak4x::scalar`]), never correctness.
fn amd() -> bool {
    use core::sync::atomic::{AtomicU8, Ordering::Relaxed};
    /// 0: not read yet, 1: AMD, 2: another vendor.
    static VENDOR: AtomicU8 = AtomicU8::new(0);
    // Miri cannot run CPUID.
    if cfg!(miri) {
        return false;
    }
    match VENDOR.load(Relaxed) {
        0 => {
            let leaf0 = core::arch::x86_64::__cpuid(0);
            let amd = [leaf0.ebx, leaf0.edx, leaf0.ecx]
                == [*b"Auth", *b"enti", *b"cAMD"].map(u32::from_le_bytes);
            VENDOR.store(if amd { 1 } else { 2 }, Relaxed);
            amd
        }
        vendor => vendor == 1,
    }
}

/// Proof that the CPU (and the OS) support AVX2, and whether the AVX-512 variants of the
/// kernels that have one run (only if the CPU and OS also support AVX-512 F, VL and BW).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Avx2 {
    avx512: bool,
}

impl Avx2 {
    /// `Some` if this CPU and OS support AVX2 (detected once, then cached by `cpufeatures`).
    #[inline]
    pub(crate) fn detect() -> Option<Self> {
        // Miri cannot run CPUID (inline assembly), so under Miri AVX2 counts as present exactly
        // when it is compiled in (`RUSTFLAGS="-C target-feature=+avx2"`, scripts/miri.sh), as
        // `is_x86_feature_detected!` does there.
        #[cfg(miri)]
        return cfg!(target_feature = "avx2").then_some(Self { avx512: false });
        #[cfg(not(miri))]
        cpuid_avx2::get().then_some(Self { avx512: false })
    }

    /// [`crate::backend::wipe::wipe`] with 32-byte volatile stores.
    #[inline]
    pub(crate) fn wipe(self, coeffs: &mut [i32; crate::math::poly::N]) {
        // SAFETY: `self` exists only after `Avx2::detect` found AVX2.
        unsafe { avx2::arith::wipe(coeffs) }
    }

    /// [`crate::backend::wipe::wipe_small`] with 32-byte volatile stores.
    #[inline]
    pub(crate) fn wipe_small(self, p: &mut crate::math::poly::SmallPoly) {
        // SAFETY: `self` exists only after `Avx2::detect` found AVX2.
        unsafe { avx2::arith::wipe_small(p) }
    }

    /// [`crate::backend::wipe::wipe_sparse`] with 32-byte volatile stores.
    #[inline]
    pub(crate) fn wipe_sparse(self, s: &mut SparseScratch) {
        // SAFETY: `self` exists only after `Avx2::detect` found AVX2.
        unsafe { avx2::arith::wipe_sparse(s) }
    }

    /// Whether this CPU and OS also support AVX-512 F, VL and BW (detected once, then cached).
    #[inline]
    pub(crate) fn detect_avx512(self) -> bool {
        #[cfg(miri)]
        return false;
        #[cfg(not(miri))]
        cpuid_avx512::get()
    }

    /// The same proof with the AVX-512 variants on, if the CPU and OS support AVX-512 F, VL and BW.
    #[inline]
    pub(crate) fn with_avx512(self) -> Option<Self> {
        self.detect_avx512().then_some(Self { avx512: true })
    }

    /// Whether the AVX-512 variants of the kernels that have one run (this value was made by
    /// [`Self::with_avx512`], or by [`Self::chosen`] with the AVX-512 backend chosen).
    #[inline(always)]
    pub(crate) fn avx512(self) -> bool {
        self.avx512
    }

    /// The four-way Keccak the samplers run: AVX-512VL when [`Self::avx512`], else AVX2.
    #[inline(always)]
    pub(crate) fn keccak4x(self) -> Keccak4x {
        Keccak4x::of(self)
    }

    /// `Some` if AVX2 is present and chosen (not overridden by `force_portable`), with the
    /// AVX-512 variants on if they are chosen (not overridden by `force_avx2`).
    #[inline]
    pub(crate) fn chosen() -> Option<Self> {
        match crate::backend::chosen() {
            crate::backend::AVX2 => Self::detect(),
            crate::backend::AVX512 => Self::detect().and_then(Self::with_avx512),
            _ => None,
        }
    }
}

/// Which implementation of the four-way permutation a sponge runs: [`avx2::keccak4x::f1600x4`],
/// or [`avx512::keccak4x::f1600x4_avx512vl`] where the CPU has AVX-512 F and VL. Both give the
/// same results; the choice depends only on the CPU (and on the backend override), never on
/// data.
///
/// Picked by the backend at each sampler call ([`Avx2::keccak4x`]) and kept in each sponge, so
/// that the feature check is one predictable branch per permutation, outside the rounds.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Keccak4x {
    /// True only if AVX-512 F and VL were detected (the field is private and [`Self::of`] sets
    /// it only from an [`Avx2`] value made by [`Avx2::with_avx512`]): what makes calling
    /// [`avx512::keccak4x::f1600x4_avx512vl`] sound.
    avx512vl: bool,
}

impl Keccak4x {
    /// The AVX2 permutation (for tests; the samplers get theirs from [`Self::of`]).
    #[cfg(test)]
    pub(crate) fn avx2() -> Self {
        Self { avx512vl: false }
    }

    /// The AVX-512VL permutation if `cpu` has the AVX-512 variants on (its proof that AVX-512 F
    /// and VL were detected), else the AVX2 one. No detection here: the value carries it.
    pub(crate) fn of(cpu: Avx2) -> Self {
        Self {
            avx512vl: cpu.avx512(),
        }
    }

    /// Whether this is the AVX-512VL permutation (so AVX-512 F, VL and BW were detected).
    #[inline]
    pub(crate) fn avx512vl(self) -> bool {
        self.avx512vl
    }

    /// The permutation of the scalar sponges beside this four-way one: lane 0 of the AVX-512VL
    /// permutation on AMD CPUs ([`avx512::keccak4x::lane0_permutation`]: about 15 % faster than
    /// the scalar build on the Zen 4), else the scalar BMI build. Intel CPUs keep the scalar
    /// build: how the two compare there has not been measured.
    pub(crate) fn scalar(self) -> crate::hash::keccak::Permutation {
        if self.avx512vl && amd() {
            avx512::keccak4x::lane0_permutation()
        } else {
            avx2::keccak_bmi::permutation()
        }
    }

    /// Keccak-f[1600] on four states, with the chosen implementation.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(crate) fn permute(self, state: &mut [__m256i; 25]) {
        if self.avx512vl {
            // SAFETY: `avx512vl` is true only when `of` was given an `Avx2` made by
            // `with_avx512`, which detected AVX-512 F and VL on this CPU and OS, the features
            // `f1600x4_avx512vl` is compiled for.
            unsafe { avx512::keccak4x::f1600x4_avx512vl(state) }
        } else {
            avx2::keccak4x::f1600x4(state)
        }
    }

    /// Every implementation this CPU runs, named, for tests to run each of them: none without
    /// AVX2, AVX2 alone without AVX-512 F and VL (saying so on stderr), else both. Detection
    /// only: unlike [`Avx2::keccak4x`], not changed by `force_avx2` from tests running
    /// alongside.
    #[cfg(test)]
    pub(crate) fn all_here() -> Vec<(&'static str, Self)> {
        let Some(cpu) = Avx2::detect() else {
            return Vec::new();
        };
        let mut all = vec![("AVX2", Self::avx2())];
        if let Some(cpu) = cpu.with_avx512() {
            all.push(("AVX-512VL", Self::of(cpu)));
        } else {
            eprintln!("AVX-512VL Keccak not tested: this CPU has no AVX-512 F and VL");
        }
        all
    }
}

/// Calls an AVX2 kernel.
macro_rules! avx2 {
    ($f:expr) => {
        // SAFETY: an `Avx2` value exists only after `Avx2::detect` found AVX2, so the
        // `target_feature(enable = "avx2")` function runs on a CPU that has it.
        unsafe { $f }
    };
}

/// Calls an AVX-512 variant of a kernel; only where `self.avx512()` returned true.
macro_rules! avx512 {
    ($f:expr) => {
        // SAFETY: an `Avx2` value exists only after `Avx2::detect` found AVX2, and the caller
        // checked `avx512()`, true only where `detect_avx512` found AVX-512 F, VL and BW, so
        // the `target_feature(enable = "avx2,avx512f[,avx512bw]")` function runs on a CPU that
        // has them.
        unsafe { $f }
    };
}

impl PackKernels for Avx2 {
    #[inline(always)]
    fn hint_words(self, h: &Poly) -> [u64; 4] {
        avx2!(avx2::arith::hint_words(h))
    }

    #[inline(always)]
    fn bit_pack_z<P: Parameters>(self, z: &Poly, out: &mut [u8]) {
        avx2!(avx2::arith::bit_pack_z::<P>(z, out))
    }

    #[inline(always)]
    fn t1_pack(self, t1: &Poly, out: &mut [u8]) {
        avx2!(avx2::arith::t1_pack(t1, out))
    }

    #[inline(always)]
    fn bit_unpack_z<P: Parameters>(self, v: &[u8], w: &mut Poly) {
        avx2!(avx2::arith::bit_unpack_z::<P>(v, w))
    }

    #[inline(always)]
    fn vec_exceeds(self, v: &[Poly], bound: i32) -> u32 {
        avx2!(avx2::arith::vec_exceeds(v, bound))
    }

    #[inline(always)]
    fn bit_unpack_narrow(self, v: &[u8], b: i32, bits: usize, max: u32, w: &mut Poly) -> u32 {
        avx2!(avx2::arith::bit_unpack_narrow(v, b, bits, max, w))
    }

    #[inline(always)]
    fn t1_unpack_shifted(self, v: &[u8], w: &mut Poly) {
        avx2!(avx2::arith::t1_unpack_shifted(v, w))
    }
}

impl Backend for Avx2 {
    #[inline(always)]
    fn keccak(self) -> crate::hash::keccak::Permutation {
        self.keccak4x().scalar()
    }

    #[inline(always)]
    fn ntt(self, w: &Poly, out: &mut NttPoly) {
        if self.avx512() {
            avx512!(avx512::ntt::ntt(w, out))
        } else {
            avx2!(avx2::ntt::ntt(w, out))
        }
    }

    #[inline(always)]
    fn ntt_vec(self, v: &[Poly], out: &mut [NttPoly]) {
        if self.avx512() {
            for (p, o) in v.iter().zip(out.iter_mut()) {
                avx512!(avx512::ntt::ntt(p, o));
            }
        } else {
            for (p, o) in v.iter().zip(out.iter_mut()) {
                avx2!(avx2::ntt::ntt(p, o));
            }
        }
        // The vectors transformed here are secret (s1, s2, t0, y), and the kernel may spill
        // part of a transform to its stack frame (the test profile's build does: Z-1 found 64
        // NTT-domain t0 coefficients there); overwrite that dead frame.
        crate::backend::scrub_stack();
    }

    #[inline(always)]
    fn ntt_inverse(self, w_hat: &NttPoly, out: &mut Poly) {
        if self.avx512() {
            avx512!(avx512::ntt::ntt_inverse(w_hat, out))
        } else {
            avx2!(avx2::ntt::ntt_inverse(w_hat, out))
        }
    }

    #[inline(always)]
    fn ntt_inverse_nonneg(self, w_hat: &NttPoly, out: &mut Poly) {
        if self.avx512() {
            avx512!(avx512::ntt::ntt_inverse_nonneg(w_hat, out))
        } else {
            avx2!(avx2::ntt::ntt_inverse(w_hat, out));
            avx2!(avx2::arith::caddq(out))
        }
    }

    #[inline(always)]
    fn multiply_ntt(self, a: &NttPoly, b: &NttPoly, out: &mut NttPoly) {
        if self.avx512() {
            avx512!(avx512::ntt::multiply_ntt(a, b, out))
        } else {
            avx2!(avx2::ntt::multiply_ntt(a, b, out))
        }
    }

    #[cfg(test)]
    #[inline(always)]
    fn scalar_vector_ntt(self, c: &NttPoly, v: &[NttPoly], out: &mut [NttPoly]) {
        for (o, p) in out.iter_mut().zip(v.iter()) {
            self.multiply_ntt(c, p, o);
        }
    }

    #[inline(always)]
    fn sparse_mul_tiny(
        self,
        c: &SparseC,
        s: &[i8; N],
        scratch: &mut SparseScratch,
        out: &mut Poly,
    ) {
        if self.avx512() {
            avx512!(avx512::sparse::mul_tiny_512(c, s, scratch, out))
        } else {
            avx2!(avx2::sparse::mul_tiny(c, s, scratch, out))
        }
    }

    #[inline(always)]
    fn sparse_mul_small(
        self,
        c: &SparseC,
        s: &[i8; N],
        scratch: &mut SparseScratch,
        out: &mut Poly,
    ) {
        if self.avx512() {
            avx512!(avx512::sparse::mul_small_512(c, s, scratch, out))
        } else {
            avx2!(avx2::sparse::mul_small(c, s, scratch, out))
        }
    }

    #[inline(always)]
    fn sparse_mul_eta4(
        self,
        c: &SparseC,
        s: &[i8; N],
        scratch: &mut SparseScratch,
        out: &mut Poly,
    ) {
        if self.avx512() {
            avx512!(avx512::sparse::mul_eta4_512(c, s, scratch, out))
        } else {
            avx2!(avx2::sparse::mul_small(c, s, scratch, out))
        }
    }

    #[inline(always)]
    fn sparse_mul_t0(self, c: &SparseC, t: &Poly, scratch: &mut SparseScratch, out: &mut Poly) {
        if self.avx512() {
            avx512!(avx512::sparse::mul_t0_512(c, t, scratch, out))
        } else {
            avx2!(avx2::sparse::mul_t0(c, t, scratch, out))
        }
    }

    #[inline(always)]
    fn matrix_vector_ntt<Row: AsRef<[NttPoly]>>(
        self,
        a_hat: &[Row],
        v: &[NttPoly],
        out: &mut [NttPoly],
    ) {
        if self.avx512() {
            avx512!(avx512::ntt::matrix_vector_ntt(a_hat, v, out))
        } else {
            avx2!(avx2::ntt::matrix_vector_ntt(a_hat, v, out))
        }
    }

    // The 4-way samplers below are SHAKE only; the Dilithium v3.1 AES sets (whose stream is
    // AES-256-CTR, itself AES-NI accelerated by the `aes` crate) use the portable samplers, which
    // give the same bytes. `P::XOF` is a constant: the branch is resolved at compile time.

    #[inline(always)]
    fn expand_a<P: Parameters>(self, rho: &[u8; 32], a_hat: &mut P::MatrixA) {
        match P::XOF {
            SamplerXof::Shake => avx2!(sample::expand_a::<P>(self.keccak4x(), rho, a_hat)),
            SamplerXof::Aes256Ctr => crate::hash::sample::expand_a::<P>(rho, a_hat),
        }
    }

    #[inline(always)]
    fn expand_a_times<P: Parameters>(self, rho: &[u8; 32], v: &[NttPoly], out: &mut [NttPoly]) {
        match P::XOF {
            SamplerXof::Shake => avx2!(sample::expand_a_times::<P>(self.keccak4x(), rho, v, out)),
            SamplerXof::Aes256Ctr => crate::backend::expand_a_times_by_rows::<P>(self, rho, v, out),
        }
    }

    #[inline(always)]
    fn expand_a_times_and_tr<P: Parameters>(
        self,
        rho: &[u8; 32],
        v: &[NttPoly],
        out: &mut [NttPoly],
        pk: &[u8],
        tr: &mut [u8; TR_LEN],
    ) {
        match P::XOF {
            SamplerXof::Shake => avx2!(sample::expand_a_times_and_tr::<P>(
                self.keccak4x(),
                rho,
                v,
                out,
                pk,
                tr
            )),
            SamplerXof::Aes256Ctr => {
                crate::backend::tr_then_expand_a_times::<P>(self, rho, v, out, pk, tr)
            }
        }
    }

    #[inline(always)]
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
        let keccak = self.keccak4x();
        match (P::XOF, avx512::keccak8x::Keccak8x::of(keccak)) {
            // H(pk) beside the eight-way permutation; without it (a scalar permutation beside a
            // four-way AVX2 one is far from free) and for the AES sets, the default order.
            (SamplerXof::Shake, Some(wide)) => avx2!(sample::expand_a_rows_and_tr::<P>(
                keccak, wide, rho, v, rows, pk, tr, s2, finish
            )),
            _ => crate::backend::rows_then_tr::<P>(self, rho, v, rows, pk, tr, s2, finish),
        }
    }

    /// s2 is made beside ExpandA's eight-way batches, but for its first polynomials, where
    /// their scalar slots are free for it ([`sample::s2_made_first`]: ML-DSA-44 and -87 on
    /// AVX-512); else all of it with s1 here.
    #[inline(always)]
    fn expand_s_for_keygen<P: Parameters>(
        self,
        rho_prime: &[u8; 64],
        s1: &mut P::VecL,
        s2: &mut P::VecK,
    ) -> usize {
        let keccak = self.keccak4x();
        match sample::s2_made_first::<P>(keccak) {
            Some(first) if P::XOF == SamplerXof::Shake => {
                tick!(ExpandS, 1);
                let s2_first = s2.as_mut().iter_mut().take(first);
                let polys = s1.as_mut().iter_mut().chain(s2_first).enumerate();
                avx2!(avx2::sample::expand_s_polys::<P>(keccak, rho_prime, polys));
                first
            }
            _ => {
                self.expand_s::<P>(rho_prime, s1, s2);
                P::K
            }
        }
    }

    #[inline(always)]
    fn expand_s<P: Parameters>(self, rho_prime: &[u8; 64], s1: &mut P::VecL, s2: &mut P::VecK) {
        match P::XOF {
            SamplerXof::Shake => avx2!(avx2::sample::expand_s::<P>(
                self.keccak4x(),
                rho_prime,
                s1,
                s2
            )),
            SamplerXof::Aes256Ctr => crate::backend::Portable.expand_s::<P>(rho_prime, s1, s2),
        }
    }

    #[inline(always)]
    fn expand_mask_polys<'a, P: Parameters>(
        self,
        rho_pp: &[u8; 64],
        first: u16,
        polys: impl Iterator<Item = &'a mut Poly>,
    ) {
        match P::XOF {
            SamplerXof::Shake => avx2!(avx2::sample::expand_mask_polys::<P>(
                self.keccak4x(),
                rho_pp,
                first,
                polys
            )),
            SamplerXof::Aes256Ctr => {
                crate::backend::Portable.expand_mask_polys::<P>(rho_pp, first, polys)
            }
        }
    }

    #[inline(always)]
    fn next_mask<P: Parameters>(self, stream: &mut MaskStream, rho_pp: &[u8; 64], y: &mut [Poly]) {
        match P::XOF {
            SamplerXof::Shake => avx2!(sample::next_mask::<P>(self.keccak4x(), stream, rho_pp, y)),
            SamplerXof::Aes256Ctr => {
                crate::backend::mask_stream::next_mask_each::<P, Self>(self, stream, rho_pp, y)
            }
        }
    }

    #[inline(always)]
    fn challenge<P: Parameters>(
        self,
        stream: &mut MaskStream,
        mu: &[u8; 64],
        w1: &[u8],
        rho_pp: &[u8; 64],
        c_tilde: &mut [u8],
    ) -> SparseC {
        match P::XOF {
            SamplerXof::Shake => avx2!(avx2::mask_lanes::challenge::<P>(
                self.keccak4x(),
                stream,
                mu,
                w1,
                rho_pp,
                c_tilde
            )),
            SamplerXof::Aes256Ctr => {
                crate::backend::mask_stream::challenge_scalar::<P>(mu, w1, c_tilde)
            }
        }
    }

    #[inline(always)]
    fn power2_round_vec(self, t: &[Poly], t1: &mut [Poly], t0: &mut [Poly]) {
        avx2!(avx2::arith::power2_round_vec(t, t1, t0))
    }

    #[inline(always)]
    fn high_bits_vec<P: Parameters>(self, w: &[Poly], w1: &mut [Poly]) {
        avx2!(avx2::arith::high_bits_vec::<P>(w, w1))
    }

    #[inline(always)]
    fn low_bits_exceed<P: Parameters>(self, r: &[Poly], bound: i32) -> u32 {
        avx2!(avx2::arith::low_bits_exceed::<P>(r, bound))
    }

    #[inline(always)]
    fn make_hint_vec<P: Parameters>(self, r_plus_z: &[Poly], r: &[Poly], h: &mut [Poly]) -> u32 {
        avx2!(avx2::arith::make_hint_vec::<P>(r_plus_z, r, h))
    }

    #[inline(always)]
    fn use_hint_vec<P: Parameters>(self, h: &[Poly], r: &[Poly], w1: &mut [Poly]) {
        avx2!(avx2::arith::use_hint_vec::<P>(h, r, w1))
    }

    #[inline(always)]
    fn sub_freeze(self, w: &[Poly], cs2: &mut [Poly]) {
        avx2!(avx2::arith::sub_freeze(w, cs2))
    }

    #[inline(always)]
    fn caddq(self, p: &mut Poly) {
        avx2!(avx2::arith::caddq(p))
    }

    #[inline(always)]
    fn w1_encode<P: Parameters>(self, w1: &[Poly], out: &mut [u8]) {
        avx2!(avx2::arith::w1_encode::<P>(w1, out))
    }

    #[cfg(feature = "profile")]
    fn keccak4x_for_profile(self) -> Option<fn(&mut [[u64; 4]; 25])> {
        // The permutation the samplers would run now (AVX-512VL unless overridden).
        fn permute(lanes: &mut [[u64; 4]; 25]) {
            if let Some(cpu) = Avx2::detect() {
                avx2!(avx2::keccak4x::permute_lanes(cpu.keccak4x(), lanes))
            }
        }
        Some(permute)
    }

    #[cfg(feature = "profile")]
    fn keccak8x_for_profile(self) -> Option<fn(&mut [[u64; 8]; 25])> {
        // Only where the samplers would run it now (AVX-512VL chosen, not overridden).
        fn permute(lanes: &mut [[u64; 8]; 25]) {
            let chosen =
                Avx2::chosen().and_then(|cpu| avx512::keccak8x::Keccak8x::of(cpu.keccak4x()));
            if let Some(wide) = chosen {
                // SAFETY: a `Keccak8x` exists only where AVX-512 F (with VL and BW) was
                // detected, the features `permute_lanes` is compiled for.
                unsafe { avx512::keccak8x::permute_lanes(wide, lanes) }
            }
        }
        avx512::keccak8x::Keccak8x::of(self.keccak4x()).map(|_| permute as fn(&mut [[u64; 8]; 25]))
    }
}
