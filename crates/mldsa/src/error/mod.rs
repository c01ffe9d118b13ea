//! The one error type of the crate.
//!
//! Every variant says what was wrong in terms a caller can act on (which input, expected and
//! actual lengths, which part of an encoding is malformed) and none carries secret data: no
//! coefficient, no index into a secret, no key bytes.

use core::fmt;

/// The key-container errors (`mldsa::pkix::PkixError` and the types it names). Here, below
/// the key types, so that [`Error`] can carry them without this floor reaching up to `pkix`.
#[cfg(feature = "pkcs8")]
pub(crate) mod pkix;

/// Which input an error is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Input {
    /// An encoded verifying (public) key.
    VerifyingKey,
    /// An encoded expanded signing (secret) key.
    SigningKey,
    /// An encoded signature.
    Signature,
    /// A 32-byte key-generation seed (xi).
    Seed,
    /// A 64-byte message representative (mu).
    Mu,
    /// A 32-byte signing randomness (rnd).
    Rnd,
    /// A pre-hash digest for HashML-DSA.
    Digest,
}

impl fmt::Display for Input {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Input::VerifyingKey => "verifying key",
            Input::SigningKey => "signing key",
            Input::Signature => "signature",
            Input::Seed => "seed",
            Input::Mu => "mu",
            Input::Rnd => "rnd",
            Input::Digest => "pre-hash digest",
        })
    }
}

/// What is malformed in an encoding of the right length.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Malformed {
    /// A coefficient of s1 lies outside [-eta, eta].
    S1OutOfRange,
    /// A coefficient of s2 lies outside [-eta, eta].
    S2OutOfRange,
    /// The key's tr is not H(pk) of the public key its s1, s2 and rho determine.
    TrMismatch,
    /// The key's t0 is not the one its s1, s2 and rho determine.
    T0Mismatch,
    /// A hint count (cut point) is smaller than the previous one.
    HintCountDecreasing,
    /// A hint count (cut point) exceeds omega.
    HintCountAboveOmega,
    /// Hint indices of one polynomial are not strictly increasing.
    HintIndicesNotIncreasing,
    /// Unused hint index slots are not zero.
    HintPaddingNonZero,
    /// The response z has a coefficient with |z_i| >= gamma1 - beta.
    ZOutOfRange,
}

impl fmt::Display for Malformed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Malformed::S1OutOfRange => "s1 has a coefficient outside [-eta, eta]",
            Malformed::S2OutOfRange => "s2 has a coefficient outside [-eta, eta]",
            Malformed::TrMismatch => "tr does not match the public key derived from the key",
            Malformed::T0Mismatch => "t0 does not match the one derived from the key",
            Malformed::HintCountDecreasing => "hint counts are not monotone",
            Malformed::HintCountAboveOmega => "a hint count exceeds omega",
            Malformed::HintIndicesNotIncreasing => "hint indices are not strictly increasing",
            Malformed::HintPaddingNonZero => "unused hint slots are not zero",
            Malformed::ZOutOfRange => "z has a coefficient of magnitude >= gamma1 - beta",
        })
    }
}

/// Errors returned by this crate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
#[must_use]
pub enum Error {
    /// An input has the wrong length.
    Length {
        /// Which input.
        input: Input,
        /// The length the parameter set requires, in bytes.
        expected: usize,
        /// The length given, in bytes.
        got: usize,
    },
    /// An input has the right length but is not a valid encoding.
    Malformed {
        /// Which input.
        input: Input,
        /// What is wrong with it.
        what: Malformed,
    },
    /// The context string is longer than the 255 bytes FIPS 204 allows.
    ContextTooLong {
        /// The length given, in bytes.
        len: usize,
    },
    /// The signature does not verify.
    InvalidSignature,
    /// Signing gave up after the number of attempts FIPS 204 Appendix C allows. A correct
    /// implementation hits this with probability below 2^-256: treat it as a fault.
    SigningAttemptsExhausted {
        /// Attempts made.
        attempts: u16,
    },
    /// The random number generator failed.
    Rng,
    /// Verify-after-sign (`SigningKey::set_verify_after_sign`) found that the new
    /// signature does not verify: a fault (hardware error or attack) struck the signing
    /// computation. The faulty signature is withheld.
    FaultDetected,
    /// A key container (SubjectPublicKeyInfo, PKCS#8, PEM) is not what RFC 9881 allows; says
    /// exactly what and where.
    #[cfg(feature = "pkcs8")]
    Pkix(pkix::PkixError),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Length {
                input,
                expected,
                got,
            } => {
                write!(f, "{input} must be {expected} bytes, got {got}")
            }
            Error::Malformed { input, what } => write!(f, "malformed {input}: {what}"),
            Error::ContextTooLong { len } => {
                write!(f, "context must be at most 255 bytes, got {len}")
            }
            Error::InvalidSignature => f.write_str("signature verification failed"),
            Error::SigningAttemptsExhausted { attempts } => {
                write!(f, "signing gave up after {attempts} attempts")
            }
            Error::Rng => f.write_str("the random number generator failed"),
            Error::FaultDetected => {
                f.write_str("the new signature failed verify-after-sign (a fault); withheld")
            }
            #[cfg(feature = "pkcs8")]
            Error::Pkix(e) => fmt::Display::fmt(e, f),
        }
    }
}

impl core::error::Error for Error {}

impl From<Error> for signature::Error {
    fn from(e: Error) -> Self {
        #[cfg(feature = "alloc")]
        {
            signature::Error::from_source(e)
        }
        #[cfg(not(feature = "alloc"))]
        {
            let _ = e;
            signature::Error::new()
        }
    }
}

/// `bytes` as the fixed-length array `A`, or a length error naming `input`.
pub(crate) fn to_array<A: crate::params::ByteArray>(
    input: Input,
    bytes: &[u8],
) -> Result<A, Error> {
    let mut out = A::zeroed();
    check_len(input, bytes, out.as_ref().len())?;
    out.as_mut().copy_from_slice(bytes);
    Ok(out)
}

/// Checks that `bytes` has length `expected`, naming `input` otherwise.
pub(crate) fn check_len(input: Input, bytes: &[u8], expected: usize) -> Result<(), Error> {
    if bytes.len() == expected {
        Ok(())
    } else {
        Err(Error::Length {
            input,
            expected,
            got: bytes.len(),
        })
    }
}
