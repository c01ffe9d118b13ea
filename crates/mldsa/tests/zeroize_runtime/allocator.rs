//! The tracking allocator: while armed, scans every block handed back to it before freeing it.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicUsize, Ordering};

use crate::needles::*;
use crate::scanner::*;

/// The needles of the current run (null when none).
pub(crate) static TABLE: AtomicPtr<Needles> = AtomicPtr::new(core::ptr::null_mut());
/// Whether freed blocks are scanned.
pub(crate) static ARMED: AtomicBool = AtomicBool::new(false);
/// Scans in progress (so that disarming can wait for them before the table goes away).
pub(crate) static IN_FLIGHT: AtomicUsize = AtomicUsize::new(0);

/// While set, allocations of at least `BIG` bytes are listed in `LIVE` (and taken off when
/// freed): so that `planted_leaks_are_found` can look inside a live key's heap blocks. The key
/// keeps K in a block of a few hundred bytes and each of s1-hat, s2 and t0 in a block of its
/// own (made zero in place there: ST-1), so `BIG` is well below the smallest of them.
pub(crate) static TRACK_LIVE: AtomicBool = AtomicBool::new(false);
pub(crate) const BIG: usize = 128;
/// (address, size) of live big blocks; address 0 marks a free slot.
pub(crate) static LIVE: [(AtomicUsize, AtomicUsize); 16] =
    [const { (AtomicUsize::new(0), AtomicUsize::new(0)) }; 16];

pub(crate) fn track_alloc(ptr: *mut u8, size: usize) {
    if TRACK_LIVE.load(Ordering::SeqCst) && size >= BIG && !ptr.is_null() {
        for (p, s) in &LIVE {
            if p.compare_exchange(0, ptr as usize, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
            {
                s.store(size, Ordering::SeqCst);
                return;
            }
        }
    }
}

pub(crate) fn track_free(ptr: *mut u8) {
    for (p, _) in &LIVE {
        let _ = p.compare_exchange(ptr as usize, 0, Ordering::SeqCst, Ordering::SeqCst);
    }
}

/// `System`, scanning every block it frees while armed.
pub(crate) struct Tracking;

impl Tracking {
    /// Scans the block `[ptr, ptr + size)`, about to be freed, if armed.
    ///
    /// # Safety
    /// The block must be allocated and owned by the caller (it is being freed).
    unsafe fn check(ptr: *mut u8, size: usize) {
        if !ARMED.load(Ordering::SeqCst) {
            return;
        }
        IN_FLIGHT.fetch_add(1, Ordering::SeqCst);
        let table = TABLE.load(Ordering::SeqCst);
        if ARMED.load(Ordering::SeqCst) && !table.is_null() && (ptr as usize).is_multiple_of(4) {
            // SAFETY: `table` was published by `Armed::new` and stays alive until `disarm` has
            // seen IN_FLIGHT at 0, which cannot happen before this scan's decrement below.
            let n = unsafe { &*table };
            // SAFETY: the block is allocated, owned by the freeing caller, and 4-aligned
            // (checked); nothing writes it during its deallocation.
            unsafe {
                scan(ptr, size, n, &mut |kind, at| {
                    record(kind, PLACE_HEAP, at, size)
                })
            };
        }
        IN_FLIGHT.fetch_sub(1, Ordering::SeqCst);
    }
}

// SAFETY: every method forwards to `System` with the same arguments; `check` only reads the
// block before it is freed and never allocates.
unsafe impl GlobalAlloc for Tracking {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded unchanged; the caller upholds `GlobalAlloc::alloc`'s contract.
        let p = unsafe { System.alloc(layout) };
        track_alloc(p, layout.size());
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as `alloc`.
        let p = unsafe { System.alloc_zeroed(layout) };
        track_alloc(p, layout.size());
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` is a live block of `layout.size()` bytes that the caller is freeing.
        unsafe { Self::check(ptr, layout.size()) };
        track_free(ptr);
        // SAFETY: forwarded unchanged.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // The old block may be freed (its contents copied elsewhere): scan it as freed.
        // SAFETY: `ptr` is a live block of `layout.size()` bytes.
        unsafe { Self::check(ptr, layout.size()) };
        track_free(ptr);
        // SAFETY: forwarded unchanged.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        track_alloc(p, new_size);
        p
    }
}

#[global_allocator]
pub(crate) static ALLOCATOR: Tracking = Tracking;

pub(crate) fn arm() {
    ARMED.store(true, Ordering::SeqCst);
}

pub(crate) fn disarm() {
    ARMED.store(false, Ordering::SeqCst);
    while IN_FLIGHT.load(Ordering::SeqCst) != 0 {
        std::hint::spin_loop();
    }
}
