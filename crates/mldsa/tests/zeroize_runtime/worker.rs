//! The worker thread: paint the stack, run the operation, scan the dead stack.

use crate::stack_paint::Region;
use std::hint::black_box;
use std::sync::atomic::Ordering;
use std::thread;

use crate::allocator::*;
use crate::needles::*;
use crate::scanner::*;

/// Stack of the worker thread.
pub(crate) const WORKER_STACK: usize = 4 * 1024 * 1024;
/// How far below the reference point the stack is painted and scanned (every operation needs
/// less than 128 KiB: tests/stack.rs).
pub(crate) const PAINT_LEN: usize = 512 * 1024;
/// Left alone just below the reference point: the painting and scanning functions' frames.
pub(crate) const PAINT_GAP: usize = 4096;
/// The operation runs below a frame this large, so that all of its frames lie below the gap.
pub(crate) const HEADROOM: usize = 2 * PAINT_GAP;
/// The painted and scanned region below the worker's reference frame.
pub(crate) const REGION: Region = Region {
    len: PAINT_LEN,
    gap: PAINT_GAP,
};

/// Scans the painted region, dead once the operation returned, recording hits as stack hits
/// (offset: bytes below `top`).
#[inline(never)]
pub(crate) fn scan_dead_stack(top: usize, n: &Needles) {
    let (lo, hi) = REGION.bounds(top);
    // SAFETY: the range `paint` wrote, on this thread's stack mapping (see `run_checked`), below this
    // function's frame (PAINT_GAP); every frame that used it has returned, so nothing writes it
    // while it is read; 8-aligned.
    unsafe {
        scan(lo as *const u8, hi - lo, n, &mut |kind, at| {
            record(kind, PLACE_STACK, top - (lo + at), 0)
        })
    };
}

/// Runs `op` below a `HEADROOM`-byte frame.
#[inline(never)]
pub(crate) fn run_deep<F: FnOnce()>(op: F) {
    let pad = [0u8; HEADROOM];
    black_box(&pad);
    run_opaque(op);
    black_box(&pad);
}

#[inline(never)]
pub(crate) fn run_opaque<F: FnOnce()>(op: F) {
    op();
}

/// On a fresh worker thread: runs `build` (preparation, not checked), paints, runs the
/// operation `build` returned with the heap scan armed, then scans the dead stack. Returns what
/// was found and the operation's painted stack depth.
pub(crate) fn run_checked<B, F>(needles: &Needles, build: B) -> (Findings, usize)
where
    B: FnOnce() -> F + Send,
    F: FnOnce(),
{
    let _ = take_findings();
    TABLE.store(needles as *const Needles as *mut Needles, Ordering::SeqCst);
    let depth = thread::scope(|s| {
        thread::Builder::new()
            .name("zeroize-worker".into())
            .stack_size(WORKER_STACK)
            .spawn_scoped(s, move || {
                let op = build();
                let marker = 0u8;
                let top = black_box(&marker) as *const u8 as usize;
                // SAFETY: `top` is a local of this worker, spawned with WORKER_STACK (4 MiB),
                // eight times PAINT_LEN; PAINT_GAP (4 KiB) covers the painting frames.
                unsafe { REGION.paint(top) };
                arm();
                run_deep(op);
                disarm();
                scan_dead_stack(top, needles);
                // SAFETY: as for `paint`, same thread and `top`.
                top - unsafe { REGION.deepest_change(top) }
            })
            .expect("spawn worker")
            .join()
            .expect("operation panicked on the worker")
    });
    disarm();
    TABLE.store(core::ptr::null_mut(), Ordering::SeqCst);
    assert!(
        depth < PAINT_LEN - 64 * 1024,
        "the operation used {depth} bytes of stack, beyond the scanned region"
    );
    (take_findings(), depth)
}
