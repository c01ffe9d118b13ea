//! Signature file encodings: raw bytes (the default), hex or base64.

use crate::error::{CliError, Result};
use base64::Engine;
use base64::engine::general_purpose::STANDARD as BASE64;
use clap::ValueEnum;

/// How a signature is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum SigFormat {
    /// The FIPS 204 bytes.
    Raw,
    /// Lower-case hex and a newline.
    Hex,
    /// Standard base64 and a newline.
    Base64,
}

/// Encodes a signature for writing.
pub fn encode(sig: &[u8], format: SigFormat) -> Vec<u8> {
    match format {
        SigFormat::Raw => sig.to_vec(),
        SigFormat::Hex => format!("{}\n", hex::encode(sig)).into_bytes(),
        SigFormat::Base64 => format!("{}\n", BASE64.encode(sig)).into_bytes(),
    }
}

/// Decodes a signature file of any of the three encodings, given the expected length.
pub fn decode(path: &str, bytes: &[u8], expected: usize) -> Result<Vec<u8>> {
    if bytes.len() == expected {
        return Ok(bytes.to_vec());
    }
    let text = std::str::from_utf8(bytes).map(str::trim).unwrap_or("");
    let compact: String = text.split_whitespace().collect();
    let from_text = hex::decode(&compact)
        .ok()
        .or_else(|| BASE64.decode(&compact).ok());
    if let Some(raw) = from_text.filter(|raw| raw.len() == expected) {
        return Ok(raw);
    }
    Err(CliError::input(
        path,
        format!(
            "not a signature of this key's algorithm: expected {expected} bytes (raw, or as hex or \
             base64), got {} bytes",
            bytes.len()
        ),
    ))
}
