//! Working memory that goes on the heap when there is one.
//!
//! Signing and key generation need tens of KiB of scratch (up to about 60 KiB for ML-DSA-87).
//! With `alloc`, [`Scratch`] keeps it in a heap block, so every operation runs on a 128 KiB
//! thread stack; without `alloc` (bare `no_std`), it stays inline on the stack. The contents
//! are zeroised by their own `Drop` before the block is freed.
//!
//! [`Held`] is scratch that, under `std`, a thread keeps between operations ([`crate::support::spare`]):
//! wiped when an operation ends, as on drop, and reused by the next instead of allocated and
//! zeroed again.

use crate::support::zeroed::Zeroed;
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

/// Working memory that can be wiped for another operation of the same kind ([`Held`]).
pub(crate) trait Reuse: 'static {
    /// Wipes what the value's `Drop` would wipe, leaving it usable again.
    fn wipe(&mut self);
}

/// A [`Scratch`] that, under `std`, is the one this thread kept from its last operation of the
/// kind ([`crate::support::spare`]) when there is one, and is wiped ([`Reuse::wipe`]) and kept again
/// when dropped. Elsewhere it is the [`Scratch`] itself, wiped by its own `Drop`.
pub(crate) struct Held<T: Reuse> {
    #[cfg(feature = "std")]
    inner: Option<alloc::boxed::Box<T>>,
    #[cfg(not(feature = "std"))]
    inner: Scratch<T>,
}

impl<T: Reuse> Held<T> {
    /// The kept one, as it was left, or else `make()` (a new one).
    #[inline(always)]
    pub(crate) fn new(make: impl FnOnce() -> Scratch<T>) -> Self {
        #[cfg(feature = "std")]
        let inner = Some(crate::support::spare::take().unwrap_or_else(|| make().inner));
        #[cfg(not(feature = "std"))]
        let inner = make();
        Self { inner }
    }
}

impl<T: Reuse> Deref for Held<T> {
    type Target = T;

    #[inline(always)]
    fn deref(&self) -> &T {
        #[cfg(feature = "std")]
        return self.inner.as_deref().expect("held until dropped");
        #[cfg(not(feature = "std"))]
        &self.inner
    }
}

impl<T: Reuse> DerefMut for Held<T> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut T {
        #[cfg(feature = "std")]
        return self.inner.as_deref_mut().expect("held until dropped");
        #[cfg(not(feature = "std"))]
        &mut self.inner
    }
}

#[cfg(feature = "std")]
impl<T: Reuse> Drop for Held<T> {
    fn drop(&mut self) {
        if let Some(mut block) = self.inner.take() {
            block.wipe();
            crate::support::spare::keep(block);
        }
    }
}
