//! Values made zero in place: [`Zeroed`], for the large arrays of polynomials that live in
//! scratch memory and on the heap.

/// A value whose all-zero form can be made directly where it will live: inline, or straight
/// in a heap block. `Box::new(Self::zeroed())` would build the whole value (up to 56 KiB) on the
/// stack first and copy it, and optimisers keep that stack slot in the caller's frame (ST-1,
/// issue 21: it pushed ML-DSA-87 signing past 128 KiB in the release profile).
pub trait Zeroed: Sized {
    /// The all-zero value (what `PolyVec::zeroed` and `Matrix::zeroed` in `params` return).
    fn zero() -> Self;
    /// The all-zero value in a heap block, written there (one polynomial at a time at most on
    /// the stack).
    #[cfg(feature = "alloc")]
    fn boxed_zeroed() -> alloc::boxed::Box<Self>;
}

/// `N` copies of `fill` in a heap block, cloned into place.
#[cfg(feature = "alloc")]
pub(crate) fn boxed_array<T: Clone, const N: usize>(fill: T) -> alloc::boxed::Box<[T; N]> {
    let all: alloc::boxed::Box<[T]> = alloc::vec![fill; N].into_boxed_slice();
    match all.try_into() {
        Ok(array) => array,
        Err(_) => unreachable!("vec![x; N] has N elements"),
    }
}
