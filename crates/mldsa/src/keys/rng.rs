//! Randomness: every random byte comes through `rand_core::TryCryptoRng`, so a failing generator
//! is an error, never a panic or a silently weak signature.

use crate::error::Error;
use rand_core::TryCryptoRng;

/// The operating system's generator (`getrandom`).
#[cfg(feature = "getrandom")]
pub(crate) use getrandom::SysRng as OsRng;

/// Fills `out` from `rng`, zeroising it if the generator fails.
pub(crate) fn fill<R: TryCryptoRng + ?Sized>(rng: &mut R, out: &mut [u8]) -> Result<(), Error> {
    rng.try_fill_bytes(out).map_err(|_| {
        zeroize::Zeroize::zeroize(out);
        Error::Rng
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::convert::Infallible;
    use rand_core::TryRng;

    /// Writes 0xAA into the first half of every request, then fails.
    struct HalfThenFail;

    impl TryRng for HalfThenFail {
        type Error = core::fmt::Error;
        fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
            Err(core::fmt::Error)
        }
        fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
            Err(core::fmt::Error)
        }
        fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
            let half = dst.len() / 2;
            dst[..half].fill(0xAA);
            Err(core::fmt::Error)
        }
    }
    impl TryCryptoRng for HalfThenFail {}

    /// Always succeeds with 0x55 bytes.
    struct Fives;

    impl TryRng for Fives {
        type Error = Infallible;
        fn try_next_u32(&mut self) -> Result<u32, Infallible> {
            Ok(0x5555_5555)
        }
        fn try_next_u64(&mut self) -> Result<u64, Infallible> {
            Ok(0x5555_5555_5555_5555)
        }
        fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
            dst.fill(0x55);
            Ok(())
        }
    }
    impl TryCryptoRng for Fives {}

    /// F-10: what a failing generator wrote before it failed is wiped, not left for the caller.
    #[test]
    fn partial_output_is_zeroised_on_failure() {
        let mut out = [0x11u8; 64];
        assert_eq!(fill(&mut HalfThenFail, &mut out), Err(Error::Rng));
        assert_eq!(out, [0u8; 64]);
        let mut out = [0x11u8; 64];
        assert_eq!(fill(&mut Fives, &mut out), Ok(()));
        assert_eq!(out, [0x55u8; 64]);
    }
}
