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
