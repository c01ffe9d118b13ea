//! Peak stack of one operation, by stack painting.
//!
//! On a fresh thread with a large stack: fill a region just below the current frame with a
//! pattern (through a buffer local to a function of its own, which returns and leaves the
//! pattern in place), run the operation (whose frames grow down into that region), and find the
//! lowest byte that no longer holds the pattern. The depth of that byte, less the same depth for
//! an empty operation (the measuring code's own frames), is the operation's peak stack.
//!
//! It can under-count by a few bytes if the deepest bytes written happen to equal the pattern.

use std::mem::MaybeUninit;
use std::ptr;
use std::thread;

/// Stack of the measuring thread: ample, so that no operation can overflow it.
const THREAD_STACK: usize = 2 << 20;
/// Bytes painted below the measuring frame; an operation that reaches past them is reported as
/// "more than" this.
pub const PAINTED: usize = 1 << 20;
const WORD: u64 = 0xA5A5_A5A5_A5A5_A5A5;
const PATTERN: u8 = 0xA5;

/// The peak stack of `op` in bytes, or `None` if it used more than [`PAINTED`].
pub fn peak(op: &(dyn Fn() + Sync)) -> Option<usize> {
    let baseline = depth_on_fresh_thread(&|| {})?;
    Some(depth_on_fresh_thread(op)?.saturating_sub(baseline))
}

/// Checks the method on a frame of known size before it measures anything: a function that
/// writes all of a 64 KiB local buffer must come out at 64 KiB plus a little. Panics otherwise.
pub fn self_check() {
    const KNOWN: usize = 64 << 10;
    #[inline(never)]
    fn known_frame() {
        let mut buf = [0u8; KNOWN];
        for b in buf.iter_mut() {
            // SAFETY: `b` is a valid &mut u8. Volatile, so every byte is really written.
            unsafe { ptr::write_volatile(b, 1) };
        }
        std::hint::black_box(&buf);
    }
    let got = peak(&known_frame);
    assert!(
        got.is_some_and(|g| (KNOWN..KNOWN + 1024).contains(&g)),
        "stack painting is off: it measured {got:?} bytes for a {KNOWN}-byte frame"
    );
}

/// How deep below the measuring frame the stack was written while `op` ran.
fn depth_on_fresh_thread(op: &(dyn Fn() + Sync)) -> Option<usize> {
    thread::scope(|s| {
        thread::Builder::new()
            .name("stack-paint".into())
            .stack_size(THREAD_STACK)
            .spawn_scoped(s, || {
                let (low, high) = paint();
                run(op);
                let deepest = lowest_written(low, high);
                (deepest > low).then(|| high - deepest)
            })
            .expect("spawn the stack-measuring thread")
            .join()
            .expect("the measured operation panicked")
    })
}

/// Paints [`PAINTED`] bytes of this thread's stack just below the caller's frame and returns
/// their address range. Not inlined, so the buffer is this function's frame: it is gone, but
/// still painted, when this returns, and the caller's next call reuses that memory.
#[inline(never)]
fn paint() -> (usize, usize) {
    let mut buf = MaybeUninit::<[u64; PAINTED / 8]>::uninit();
    let words = buf.as_mut_ptr().cast::<u64>();
    for i in 0..PAINTED / 8 {
        // SAFETY: i < PAINTED / 8 words, inside `buf`. Volatile, so that the compiler keeps
        // these stores although nothing reads `buf` before it goes out of scope.
        unsafe { words.add(i).write_volatile(WORD) };
    }
    let low = words.expose_provenance();
    (low, low + PAINTED)
}

/// Runs `op` in a frame of its own, at the same depth as `paint`'s frame was.
#[inline(never)]
fn run(op: &(dyn Fn() + Sync)) {
    op();
}

/// The lowest address in `low..high` that does not hold the pattern (`high` if none).
#[inline(never)]
fn lowest_written(low: usize, high: usize) -> usize {
    (low..high)
        .find(|&addr| {
            // SAFETY: `low..high` is part of this thread's own stack, below its live frames
            // (and above its guard page, since it was written a moment ago), so the memory is
            // mapped and nothing else writes it. It no longer belongs to any Rust object,
            // hence the exposed-provenance pointer and the volatile read: the compiler can make
            // no assumption about what is there.
            let byte = unsafe { ptr::with_exposed_provenance::<u8>(addr).read_volatile() };
            byte != PATTERN
        })
        .unwrap_or(high)
}

/// The peak stack of one (parameter set, operation, backend).
pub struct StackRow {
    pub ps: crate::peers::ParamSet,
    pub op: &'static str,
    /// "avx2" or "portable" (the name of `mldsa::backend::BackendKind`, lower case).
    pub backend: String,
    /// `None`: more than [`PAINTED`].
    pub bytes: Option<usize>,
}
