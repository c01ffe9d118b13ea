//! A fixed-output generator, 1, 2, 3, ... (wrapping), for tests that sign hedged but need the
//! same rnd every run: `tests/stack.rs` (the stack depth must not depend on where rnd comes
//! from) and `tests/zeroize_runtime/` (rnd-derived needles are computed in advance).
//!
//! Included with `#[path = "common/counting_rng.rs"] mod counting_rng;`.

use mldsa::rand_core::{TryCryptoRng, TryRng, utils};

/// Yields start + 1, start + 2, ... one byte at a time.
pub struct CountingRng(pub u8);

impl TryRng for CountingRng {
    type Error = core::convert::Infallible;

    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        utils::next_word_via_fill(self)
    }

    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        utils::next_word_via_fill(self)
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        for d in dst {
            self.0 = self.0.wrapping_add(1);
            *d = self.0;
        }
        Ok(())
    }
}

impl TryCryptoRng for CountingRng {}
