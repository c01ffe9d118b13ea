//! Errors of the `mldsa` command, each with the exit code it maps to.
//!
//! Exit codes: 0 success (or a valid signature), 1 the signature is invalid, 2 a usage or input
//! error. Every message names the file (or stdin) it is about and what is wrong with it.

use std::fmt;

/// What went wrong, as the user should read it.
#[derive(Debug)]
pub struct CliError {
    /// Process exit code.
    pub code: u8,
    /// The message, without a trailing newline.
    pub message: String,
}

/// Exit code for a signature that does not verify.
pub const EXIT_INVALID: u8 = 1;
/// Exit code for usage and input errors.
pub const EXIT_USAGE: u8 = 2;

impl CliError {
    /// A usage or input error not tied to one file.
    pub fn usage(message: impl Into<String>) -> Self {
        CliError {
            code: EXIT_USAGE,
            message: message.into(),
        }
    }

    /// An error about the file (or `-` for stdin) at `path`.
    pub fn input(path: &str, message: impl fmt::Display) -> Self {
        let name = if path == "-" { "<stdin>" } else { path };
        CliError {
            code: EXIT_USAGE,
            message: format!("{name}: {message}"),
        }
    }

    /// The signature did not verify.
    pub fn invalid(message: impl Into<String>) -> Self {
        CliError {
            code: EXIT_INVALID,
            message: message.into(),
        }
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// Result of a command.
pub type Result<T> = std::result::Result<T, CliError>;
