//! SplitMix64 (Steele, Lea and Flood, 2014): reproducible pseudorandom inputs for the unit tests
//! and the benchmark's profile, without a dependency. Never used for anything secret.

use crate::math::field::Q;
use crate::math::poly::Poly;

/// A SplitMix64 generator; the state is the seed.
pub(crate) struct SplitMix64(pub(crate) u64);

impl SplitMix64 {
    /// The next 64-bit output.
    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Fills `out` with one output byte per word.
    pub(crate) fn fill(&mut self, out: &mut [u8]) {
        for b in out {
            *b = self.next_u64() as u8;
        }
    }

    /// `L` fresh bytes.
    #[cfg_attr(
        not(feature = "profile"),
        allow(dead_code, reason = "only the profile uses it")
    )]
    pub(crate) fn bytes<const L: usize>(&mut self) -> [u8; L] {
        let mut out = [0; L];
        self.fill(&mut out);
        out
    }

    /// Uniform in [lo, hi], up to a modulo bias that test inputs do not care about.
    pub(crate) fn range(&mut self, lo: i32, hi: i32) -> i32 {
        let span = (i64::from(hi) - i64::from(lo) + 1) as u64;
        (i64::from(lo) + (self.next_u64() % span) as i64) as i32
    }

    /// A polynomial with coefficients in [0, q).
    #[cfg_attr(
        not(feature = "profile"),
        allow(dead_code, reason = "only the profile uses it")
    )]
    pub(crate) fn poly(&mut self) -> Poly {
        Poly(core::array::from_fn(|_| self.range(0, Q - 1)))
    }
}
