//! The one status enum of the C API (`mldsa_status` in mldsa.h) and its messages.

use core::ffi::{CStr, c_int};

use mldsa_core::pkix::PkixError;
use mldsa_core::{Error, Input};

/// Every C function returns one of these (as `int`); 0 is success, failures are negative.
/// The values are ABI: never renumber, only append.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(i32)]
pub enum Status {
    /// Success.
    Ok = 0,
    /// The signature does not verify (or is not a well-formed signature of the right length).
    InvalidSignature = -1,
    /// A required pointer was NULL.
    Null = -2,
    /// An input or output has the wrong length (or an output buffer is too small).
    Length = -3,
    /// A key or document has the right length but is not a valid encoding.
    Encoding = -4,
    /// The context string is longer than 255 bytes.
    ContextTooLong = -5,
    /// The operating system's random number generator failed.
    Rng = -6,
    /// An argument is outside what the API supports (an unknown pre-hash id, key form, format).
    Unsupported = -7,
    /// An encrypted private key did not decrypt with the given passphrase.
    Decrypt = -8,
    /// Signing detected a fault or gave up after the attempts FIPS 204 allows.
    Fault = -9,
    /// A streaming context was used after its `_final`.
    State = -10,
    /// An internal error (a caught Rust panic): a bug in mldsa, never caused by input.
    Internal = -11,
}

impl Status {
    /// The value returned to C.
    pub(crate) const fn code(self) -> c_int {
        self as c_int
    }

    /// All statuses, for `mldsa_strerror` and its test.
    pub(crate) const ALL: [Status; 12] = [
        Status::Ok,
        Status::InvalidSignature,
        Status::Null,
        Status::Length,
        Status::Encoding,
        Status::ContextTooLong,
        Status::Rng,
        Status::Unsupported,
        Status::Decrypt,
        Status::Fault,
        Status::State,
        Status::Internal,
    ];

    /// What `mldsa_strerror` says.
    pub(crate) const fn message(self) -> &'static CStr {
        match self {
            Status::Ok => c"success",
            Status::InvalidSignature => c"signature verification failed",
            Status::Null => c"a required pointer is NULL",
            Status::Length => c"wrong length",
            Status::Encoding => c"malformed key or document",
            Status::ContextTooLong => c"context longer than 255 bytes",
            Status::Rng => c"the random number generator failed",
            Status::Unsupported => c"unsupported argument",
            Status::Decrypt => c"wrong passphrase or corrupt encrypted key",
            Status::Fault => c"signing fault detected",
            Status::State => c"streaming context already finalised",
            Status::Internal => c"internal error (bug in mldsa)",
        }
    }
}

impl From<Error> for Status {
    fn from(e: Error) -> Self {
        match e {
            // A signature that is not even well formed is, for the caller, one that fails.
            Error::Malformed {
                input: Input::Signature,
                ..
            }
            | Error::InvalidSignature => Status::InvalidSignature,
            Error::Length { .. } => Status::Length,
            Error::Malformed { .. } => Status::Encoding,
            Error::ContextTooLong { .. } => Status::ContextTooLong,
            Error::Rng => Status::Rng,
            Error::SigningAttemptsExhausted { .. } | Error::FaultDetected => Status::Fault,
            Error::Pkix(PkixError::Decryption) => Status::Decrypt,
            Error::Pkix(
                PkixError::UnsupportedEncryption { .. } | PkixError::EncryptionTooExpensive,
            ) => Status::Unsupported,
            Error::Pkix(PkixError::Encryption) => Status::Internal,
            Error::Pkix(_) => Status::Encoding,
            _ => Status::Internal,
        }
    }
}

/// The results of the safe layer.
pub(crate) type Outcome = Result<(), Status>;
