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

/// Decodes a signature file of the given encoding (`--sig-format`), or of any of the three,
/// given the expected length. Detection cannot misread: a file of exactly the expected length is
/// raw, and no hex or base64 text of a signature has a signature's length.
pub fn decode(
    path: &str,
    bytes: &[u8],
    expected: usize,
    format: Option<SigFormat>,
) -> Result<Vec<u8>> {
    let text = || {
        let text = std::str::from_utf8(bytes).map(str::trim).unwrap_or("");
        text.split_whitespace().collect::<String>()
    };
    let decoded = match format {
        None if bytes.len() == expected => Some(bytes.to_vec()),
        None => {
            let compact = text();
            hex::decode(&compact)
                .ok()
                .or_else(|| BASE64.decode(&compact).ok())
        }
        Some(SigFormat::Raw) => Some(bytes.to_vec()),
        Some(SigFormat::Hex) => hex::decode(text()).ok(),
        Some(SigFormat::Base64) => BASE64.decode(text()).ok(),
    };
    if let Some(raw) = decoded.filter(|raw| raw.len() == expected) {
        return Ok(raw);
    }
    let encoding = match format {
        None => "raw, or as hex or base64",
        Some(SigFormat::Raw) => "raw",
        Some(SigFormat::Hex) => "as hex",
        Some(SigFormat::Base64) => "as base64",
    };
    Err(CliError::input(
        path,
        format!(
            "not a signature of this key's algorithm: expected {expected} bytes ({encoding}), got \
             {} bytes",
            bytes.len()
        ),
    ))
}
