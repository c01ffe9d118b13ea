//! The sparse challenge products ([`crate::math::sparse`]) on NEON vectors.
//!
//! Each kernel writes the extended secret [s, -s, s] into the caller's scratch, then adds the
//! tau windows of it that c selects into accumulators that stay in registers:
//! - `mul_tiny` (eta = 2): the whole product in 8-bit lanes, 16 registers, one pass;
//! - `mul_eta4`: 8-bit lanes too, in runs of at most 31 terms (31 * 4 = 124 <= 127, exact),
//!   each run widened and added into the 32-bit output;
//! - `mul_small` (any i8 s): 16-bit lanes, two passes of 128 coefficients (16 registers);
//! - `mul_t0`: 16-bit lanes, runs of at most [`T0_RUN`] terms (exact, as the portable code),
//!   widened into 32-bit sums: four passes of 64 coefficients (8 + 16 registers).
//!
//! Every sum is exact, so the results are the portable kernels' integers.
//!
//! Constant time: the loops run over c's window offsets, which are public (c-tilde is); the
//! secret only flows through loads, stores at positions fixed by c, additions, negations and
//! widenings, never into a branch or an address.

use crate::math::poly::{N, Poly};
use crate::math::sparse::{EXT, SparseC, SparseScratch, T0_RUN};
use core::arch::aarch64::*;

/// 16 bytes from `a[at..at + 16]`.
#[inline]
#[target_feature(enable = "neon")]
fn load_i8(a: &[i8], at: usize) -> int8x16_t {
    let a: &[i8; 16] = a[at..at + 16].try_into().expect("16 lanes");
    // SAFETY: `a` is 16 readable i8; `ld1` has no alignment requirement for bytes.
    unsafe { vld1q_s8(a.as_ptr()) }
}

#[inline]
#[target_feature(enable = "neon")]
fn store_i8(a: &mut [i8], at: usize, x: int8x16_t) {
    let a: &mut [i8; 16] = (&mut a[at..at + 16]).try_into().expect("16 lanes");
    // SAFETY: `a` is 16 writable i8 (borrowed mutably); no alignment requirement.
    unsafe { vst1q_s8(a.as_mut_ptr(), x) }
}

/// Eight i16 from `a[at..at + 8]`.
#[inline]
#[target_feature(enable = "neon")]
fn load_i16(a: &[i16], at: usize) -> int16x8_t {
    let a: &[i16; 8] = a[at..at + 8].try_into().expect("8 lanes");
    // SAFETY: `a` is 8 readable i16; `ld1` needs only i16 alignment.
    unsafe { vld1q_s16(a.as_ptr()) }
}

#[inline]
#[target_feature(enable = "neon")]
fn store_i16(a: &mut [i16], at: usize, x: int16x8_t) {
    let a: &mut [i16; 8] = (&mut a[at..at + 8]).try_into().expect("8 lanes");
    // SAFETY: `a` is 8 writable i16 (borrowed mutably); `st1` needs only i16 alignment.
    unsafe { vst1q_s16(a.as_mut_ptr(), x) }
}

/// Four i32 from `a[at..at + 4]`.
#[inline]
#[target_feature(enable = "neon")]
fn load_i32(a: &[i32], at: usize) -> int32x4_t {
    super::field::load4(&a[at..])
}

#[inline]
#[target_feature(enable = "neon")]
fn store_i32(a: &mut [i32], at: usize, x: int32x4_t) {
    super::field::store4(&mut a[at..], x)
}

/// ext := [s, -s, s] in 8-bit lanes.
#[inline]
#[target_feature(enable = "neon")]
fn extend_i8(s: &[i8; N], ext: &mut [i8; EXT]) {
    for k in (0..N).step_by(16) {
        let v = load_i8(s, k);
        store_i8(ext, k, v);
        store_i8(ext, N + k, vnegq_s8(v));
        store_i8(ext, 2 * N + k, v);
    }
}

/// The sum of the windows `offsets` of `ext`, in 8-bit lanes (16 registers), wrapping.
#[inline]
#[target_feature(enable = "neon")]
fn window_sums_i8(offsets: &[u16], ext: &[i8; EXT]) -> [int8x16_t; 16] {
    let mut acc = [vdupq_n_s8(0); 16];
    for &off in offsets {
        let window = &ext[off as usize..off as usize + N];
        for (k, a) in acc.iter_mut().enumerate() {
            *a = vaddq_s8(*a, load_i8(window, 16 * k));
        }
    }
    acc
}

/// [`crate::math::sparse::mul_tiny`] (c s1 or c s2 for eta = 2): one pass in 8-bit lanes.
/// Contract and result: those of the portable kernel.
#[target_feature(enable = "neon")]
pub(super) fn mul_tiny(c: &SparseC, s: &[i8; N], scratch: &mut SparseScratch, out: &mut Poly) {
    debug_assert!(
        crate::math::sparse::fits_8_bits(c, s),
        "Bounds: tau ||s|| <= 127"
    );
    extend_i8(s, &mut scratch.tiny);
    let acc = window_sums_i8(c.offsets(), &scratch.tiny);
    for (k, a) in acc.iter().enumerate() {
        let (lo, hi) = (vmovl_s8(vget_low_s8(*a)), vmovl_high_s8(*a));
        store_i32(&mut out.0, 16 * k, vmovl_s16(vget_low_s16(lo)));
        store_i32(&mut out.0, 16 * k + 4, vmovl_high_s16(lo));
        store_i32(&mut out.0, 16 * k + 8, vmovl_s16(vget_low_s16(hi)));
        store_i32(&mut out.0, 16 * k + 12, vmovl_high_s16(hi));
    }
}

/// Terms of c that [`mul_eta4`] sums in 8 bits: 31 * 4 = 124 <= 127.
const ETA4_RUN: usize = 31;

/// [`crate::math::sparse::mul_eta4`] (c s1 or c s2 for eta = 4): runs of [`ETA4_RUN`] terms in
/// 8-bit lanes, widened into the 32-bit output. Contract and result: those of the portable
/// kernel.
#[target_feature(enable = "neon")]
pub(super) fn mul_eta4(c: &SparseC, s: &[i8; N], scratch: &mut SparseScratch, out: &mut Poly) {
    debug_assert!(s.iter().all(|x| x.unsigned_abs() <= 4), "Bounds: |s| <= 4");
    extend_i8(s, &mut scratch.tiny);
    out.0 = [0; N];
    for run in c.offsets().chunks(ETA4_RUN) {
        let acc = window_sums_i8(run, &scratch.tiny);
        for (k, a) in acc.iter().enumerate() {
            let (lo, hi) = (vmovl_s8(vget_low_s8(*a)), vmovl_high_s8(*a));
            let o = &mut out.0[16 * k..16 * k + 16];
            let sums = [
                vaddw_s16(load_i32(o, 0), vget_low_s16(lo)),
                vaddw_high_s16(load_i32(o, 4), lo),
                vaddw_s16(load_i32(o, 8), vget_low_s16(hi)),
                vaddw_high_s16(load_i32(o, 12), hi),
            ];
            for (j, x) in sums.into_iter().enumerate() {
                store_i32(o, 4 * j, x);
            }
        }
    }
}

/// [`crate::math::sparse::mul_small`] (c s1 or c s2, any i8 s): two passes of 128 coefficients
/// in 16-bit lanes. Contract and result: those of the portable kernel.
#[target_feature(enable = "neon")]
pub(super) fn mul_small(c: &SparseC, s: &[i8; N], scratch: &mut SparseScratch, out: &mut Poly) {
    let ext = &mut scratch.small;
    for k in (0..N).step_by(16) {
        let v = load_i8(s, k);
        let (lo, hi) = (vmovl_s8(vget_low_s8(v)), vmovl_high_s8(v));
        for (at, x) in [(k, lo), (k + 8, hi)] {
            store_i16(ext, at, x);
            store_i16(ext, N + at, vnegq_s16(x));
            store_i16(ext, 2 * N + at, x);
        }
    }
    for pass in 0..2 {
        let mut acc = [vdupq_n_s16(0); 16];
        for &off in c.offsets() {
            let window = &ext[off as usize + 128 * pass..];
            for (k, a) in acc.iter_mut().enumerate() {
                *a = vaddq_s16(*a, load_i16(window, 8 * k));
            }
        }
        for (k, a) in acc.iter().enumerate() {
            let at = 128 * pass + 8 * k;
            store_i32(&mut out.0, at, vmovl_s16(vget_low_s16(*a)));
            store_i32(&mut out.0, at + 4, vmovl_high_s16(*a));
        }
    }
}

/// [`crate::math::sparse::mul_t0`] (c t0): four passes of 64 coefficients, each summing the
/// terms of c in runs of at most [`T0_RUN`] in 16-bit lanes (8 registers, exact) and adding the
/// runs into 32-bit sums (16 registers). Contract and result: those of the portable kernel.
#[target_feature(enable = "neon")]
pub(super) fn mul_t0(c: &SparseC, t: &Poly, scratch: &mut SparseScratch, out: &mut Poly) {
    debug_assert!(
        t.0.iter().all(|x| x.unsigned_abs() <= 1 << 12),
        "Bounds: |t0| <= 2^12"
    );
    let ext = &mut scratch.small;
    for k in (0..N).step_by(8) {
        // Exact: |t| <= 2^12 fits 16 bits, so the narrowing keeps the value.
        let v = vcombine_s16(
            vmovn_s32(load_i32(&t.0, k)),
            vmovn_s32(load_i32(&t.0, k + 4)),
        );
        store_i16(ext, k, v);
        store_i16(ext, N + k, vnegq_s16(v));
        store_i16(ext, 2 * N + k, v);
    }
    for pass in 0..4 {
        let mut sums = [vdupq_n_s32(0); 16];
        for run in c.offsets().chunks(T0_RUN) {
            let mut acc = [vdupq_n_s16(0); 8];
            for &off in run {
                let window = &ext[off as usize + 64 * pass..];
                for (k, a) in acc.iter_mut().enumerate() {
                    *a = vaddq_s16(*a, load_i16(window, 8 * k));
                }
            }
            for (a, pair) in acc.iter().zip(sums.chunks_exact_mut(2)) {
                pair[0] = vaddw_s16(pair[0], vget_low_s16(*a));
                pair[1] = vaddw_high_s16(pair[1], *a);
            }
        }
        for (k, s) in sums.iter().enumerate() {
            store_i32(&mut out.0, 64 * pass + 4 * k, *s);
        }
    }
}
