//! Working memory that goes on the heap when there is one.
//!
//! Signing and key generation need tens of KiB of scratch (up to about 60 KiB for ML-DSA-87).
//! With `alloc`, [`Scratch`] keeps it in a heap block, so every operation runs on a 128 KiB
//! thread stack; without `alloc` (bare `no_std`), it stays inline on the stack. The contents
//! are zeroised by their own `Drop` before the block is freed.

use crate::params::Zeroed;
use core::ops::{Deref, DerefMut};

/// `T` on the heap (feature `alloc`) or inline.
pub(crate) struct Scratch<T> {
    #[cfg(feature = "alloc")]
    inner: alloc::boxed::Box<T>,
    #[cfg(not(feature = "alloc"))]
    inner: T,
}

impl<T> Scratch<T> {
    /// Scratch holding `value`. `#[inline(always)]` so that the value is built in place.
    #[inline(always)]
    pub(crate) fn new(value: T) -> Self {
        Self {
            #[cfg(feature = "alloc")]
            inner: alloc::boxed::Box::new(value),
            #[cfg(not(feature = "alloc"))]
            inner: value,
        }
    }
}

impl<T: Zeroed> Scratch<T> {
    /// Scratch holding `T`'s all-zero value, made where it is kept: under `alloc` directly in
    /// the heap block, never whole on the stack (unlike `Scratch::new(T::zeroed())`, whose
    /// temporary the release profile keeps in the caller's frame: see [`Zeroed`]).
    #[inline(always)]
    pub(crate) fn zeroed() -> Self {
        Self {
            #[cfg(feature = "alloc")]
            inner: T::boxed_zeroed(),
            #[cfg(not(feature = "alloc"))]
            inner: T::zero(),
        }
    }
}

impl<T> Deref for Scratch<T> {
    type Target = T;

    #[inline(always)]
    fn deref(&self) -> &T {
        &self.inner
    }
}

impl<T> DerefMut for Scratch<T> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut T {
        &mut self.inner
    }
}
