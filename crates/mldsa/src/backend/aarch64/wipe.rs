//! Zeroisation with 16-byte NEON volatile stores (`str q`, four to a loop step) instead of
//! `zeroize`'s one element at a time: [`crate::backend::wipe`]'s AArch64 path.

use crate::math::poly::{N, SmallPoly};
use crate::math::sparse::SparseScratch;
use core::arch::aarch64::*;

/// Zeroes `slots` 64-byte blocks from `base` with volatile 16-byte stores, then a compiler
/// fence: zeroisation the compiler may not remove or merge away.
///
/// # Safety
///
/// `base` must be 16-byte aligned and valid for writes of `slots * 64` bytes.
#[target_feature(enable = "neon")]
unsafe fn zero_blocks(base: *mut uint32x4_t, slots: usize) {
    debug_assert!(base.is_aligned(), "zero_blocks: not 16-byte aligned");
    let zero = vdupq_n_u32(0);
    for i in 0..slots {
        // SAFETY: i < slots, so the four 16-byte slots from `base.add(4 i)` are aligned and
        // writable (the caller's contract); `uint32x4_t` has no invalid bit patterns.
        unsafe {
            let at = base.add(4 * i);
            core::ptr::write_volatile(at, zero);
            core::ptr::write_volatile(at.add(1), zero);
            core::ptr::write_volatile(at.add(2), zero);
            core::ptr::write_volatile(at.add(3), zero);
        }
    }
    core::sync::atomic::compiler_fence(core::sync::atomic::Ordering::SeqCst);
}

/// Zeroes a polynomial's coefficients (a `Poly` or `NttPoly`, 32-byte aligned) with N / 16
/// 64-byte steps.
#[target_feature(enable = "neon")]
pub(super) fn wipe(coeffs: &mut [i32; N]) {
    const { assert!((N * 4).is_multiple_of(64)) };
    // SAFETY: the array is N * 4 = (N / 16) * 64 bytes, writable through `coeffs`, and
    // 16-byte aligned because it belongs to a `repr(align(32))` Poly or NttPoly (asserted in
    // debug builds inside).
    unsafe { zero_blocks(coeffs.as_mut_ptr().cast(), N / 16) }
}

/// Zeroes a [`SmallPoly`] (s1 or s2 as bytes) with N / 64 64-byte steps.
#[target_feature(enable = "neon")]
pub(super) fn wipe_small(p: &mut SmallPoly) {
    const { assert!(size_of::<SmallPoly>() == N && align_of::<SmallPoly>().is_multiple_of(16)) };
    const { assert!(N.is_multiple_of(64)) };
    // SAFETY: a SmallPoly is N = (N / 64) * 64 bytes (asserted above), writable through `p`,
    // and 16-byte aligned (asserted above); any bytes are valid i8.
    unsafe { zero_blocks((p as *mut SmallPoly).cast(), N / 64) }
}

/// Zeroes the sparse products' working memory with 64-byte steps.
#[target_feature(enable = "neon")]
pub(super) fn wipe_sparse(s: &mut SparseScratch) {
    const {
        assert!(
            size_of::<SparseScratch>().is_multiple_of(64)
                && align_of::<SparseScratch>().is_multiple_of(16)
        )
    };
    // SAFETY: the struct is a whole number of 64-byte blocks, 16-byte aligned (both asserted
    // above) and writable through `s`; its fields are integer arrays, valid as all zero.
    unsafe {
        zero_blocks(
            (s as *mut SparseScratch).cast(),
            size_of::<SparseScratch>() / 64,
        )
    }
}

/// Zeroes `bytes`, which must be 16-byte aligned and a whole number of 64-byte blocks long
/// (checked; public layout facts), with 64-byte steps: signing's mask slots.
#[target_feature(enable = "neon")]
pub(super) fn wipe_bytes(bytes: &mut [u8]) {
    let base = bytes.as_mut_ptr().cast::<uint32x4_t>();
    assert!(
        bytes.len().is_multiple_of(64) && base.is_aligned(),
        "wipe_bytes: whole aligned 64-byte blocks"
    );
    // SAFETY: `bytes` is writable, 16-byte aligned and len / 64 whole 64-byte blocks long
    // (checked above); any bytes are valid u8.
    unsafe { zero_blocks(base, bytes.len() >> 6) }
}
