//! Working memory a thread keeps between signatures (feature `std`).
//!
//! A signature's scratch (17-40 KiB of polynomials, the sparse products' 3 KiB) used to be
//! allocated, zeroed and freed by every signature: a few allocations per signature that glibc
//! serves through `posix_memalign` (the blocks are 32- and 64-byte aligned), whose split-off
//! fragments make the next large allocation run `malloc_consolidate`; with the zeroing, about
//! a tenth of a signature that succeeds at its first attempt. So each thread keeps the last
//! scratch it signed with, of each type, for its next signature.
//!
//! What is kept holds no secret: the owner wipes a block before giving it back (as it would
//! before freeing it), and [`take`] hands it out as it was left. A block that is not kept
//! (one of its type is kept already, or the thread is exiting) is dropped, which wipes and
//! frees it as before. Nothing is kept in builds without `std` (no thread-local storage).

use alloc::boxed::Box;
use alloc::vec::Vec;
use core::any::Any;
use core::cell::RefCell;

std::thread_local! {
    /// At most one block of each type, each wiped by its owner before it was kept.
    static KEPT: RefCell<Vec<Box<dyn Any>>> = const { RefCell::new(Vec::new()) };
}

/// The block of type `T` this thread kept, if any (wiped, with whatever else its owner left in
/// it).
pub(crate) fn take<T: 'static>() -> Option<Box<T>> {
    KEPT.try_with(|kept| {
        let mut kept = kept.try_borrow_mut().ok()?;
        let at = kept.iter().position(|block| block.is::<T>())?;
        kept.swap_remove(at).downcast::<T>().ok()
    })
    .ok()
    .flatten()
}

/// Keeps `block`, which the caller has wiped, for this thread's next [`take`] of its type;
/// drops it instead if one of its type is kept already or the thread is exiting.
pub(crate) fn keep<T: 'static>(block: Box<T>) {
    // If the thread-local storage is gone, the closure (and `block` with it) is dropped unrun.
    let _ = KEPT.try_with(move |kept| {
        if let Ok(mut kept) = kept.try_borrow_mut()
            && !kept.iter().any(|b| b.is::<T>())
        {
            kept.push(block);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kept_block_comes_back_once_and_only_for_its_type() {
        assert!(take::<[u8; 3]>().is_none());
        keep(Box::new([7u8; 3]));
        // A second block of the same type is dropped, not kept.
        keep(Box::new([9u8; 3]));
        assert!(take::<[u16; 3]>().is_none());
        assert_eq!(take::<[u8; 3]>().as_deref(), Some(&[7u8; 3]));
        assert!(take::<[u8; 3]>().is_none());
        // Per thread.
        keep(Box::new([1u8; 3]));
        std::thread::spawn(|| assert!(take::<[u8; 3]>().is_none()))
            .join()
            .expect("no panic");
        assert!(take::<[u8; 3]>().is_some());
    }
}
