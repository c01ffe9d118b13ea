//! Stack painting, shared by `tests/stack.rs` (ST-1, peak stack) and `tests/zeroize_runtime/`
//! (Z-1, what secrets an operation leaves in dead stack): fill a region of the calling thread's
//! stack below a reference point with a pattern, let an operation run, then find the deepest
//! word it overwrote (or scan what it left behind).
//!
//! Included by the tests that use it with `#[path = "common/stack_paint.rs"] mod stack_paint;`
//! (not through `common/mod.rs`, which every other test compiles).

/// The paint: an odd-looking word that code is unlikely to write.
pub const PATTERN: u64 = 0xA5C3_5A3C_96E1_1E69;

/// The region `[top - len, top - gap)` of the calling thread's stack, below a reference point
/// `top` (the address of a local in the caller's frame). `gap` is left alone for the frames of
/// the painting and scanning functions themselves.
#[derive(Clone, Copy, Debug)]
pub struct Region {
    pub len: usize,
    pub gap: usize,
}

impl Region {
    /// The region's 8-aligned bounds `(lo, hi)` below `top`.
    pub fn bounds(self, top: usize) -> (usize, usize) {
        ((top - self.len) & !7, (top - self.gap) & !7)
    }

    /// Writes `PATTERN` over the region below `top`.
    ///
    /// # Safety
    ///
    /// `top` must be the address of a live local of the calling thread, whose stack must
    /// extend more than `self.len` bytes below it (spawn the thread with a stack several times
    /// `len`). The region then lies inside the thread's own stack mapping and below this
    /// function's frame (`gap` must cover it), where no live object of any frame is, so no Rust
    /// value is overwritten.
    #[inline(never)]
    pub unsafe fn paint(self, top: usize) {
        let (lo, hi) = self.bounds(top);
        let mut p = lo;
        while p < hi {
            // SAFETY: inside the region the caller vouched for (see `# Safety`); 8-aligned.
            // Volatile writes keep the compiler from dropping stores to memory it sees no
            // reads of.
            unsafe { core::ptr::write_volatile(p as *mut u64, PATTERN) };
            p += 8;
        }
    }

    /// The lowest address in the region below `top` that no longer holds the pattern (`top`
    /// if none changed): the deepest point an operation run since [`Region::paint`] reached.
    ///
    /// # Safety
    ///
    /// As for [`Region::paint`], on the same thread with the same `top`; reading only inspects
    /// dead stack.
    #[inline(never)]
    pub unsafe fn deepest_change(self, top: usize) -> usize {
        let (lo, hi) = self.bounds(top);
        let mut p = lo;
        while p < hi {
            // SAFETY: the region `paint` wrote (see `# Safety`), 8-aligned; volatile reads are
            // not assumed to be initialised Rust values by the optimiser.
            let word = unsafe { core::ptr::read_volatile(p as *const u64) };
            if word != PATTERN {
                return p;
            }
            p += 8;
        }
        top
    }
}
