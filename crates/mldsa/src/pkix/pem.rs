//! PEM (RFC 7468) around the DER documents, via the `pem-rfc7468` crate.
//!
//! Writing: RFC 7468's strict form, 64-column Base64 lines and LF line endings. Reading: lax
//! where RFC 7468 asks parsers to be (section 2, "parsers SHOULD ... handle other line sizes"):
//! any one line width (64, 76, a single long line), CRLF, CR or LF line endings, explanatory
//! text before the BEGIN line, and surrounding whitespace. Headers (RFC 1421 `Proc-Type:`) are
//! rejected, as RFC 7468 requires.

use crate::error::pkix::{PemLabel, PemProblem, PkixError};
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use pkcs8::der::pem::{self, LineEnding};
use zeroize::Zeroizing;

fn map_pem(e: pem::Error) -> PkixError {
    map_pem_in(e, &[])
}

/// Classifies a `pem-rfc7468` error; `text` (trimmed) refines the boundary errors: the crate
/// reports a missing END line, or text after it, as a bad BEGIN line.
fn map_pem_in(e: pem::Error, text: &[u8]) -> PkixError {
    let has = |needle: &[u8]| text.windows(needle.len()).any(|w| w == needle);
    let end_ok = has(b"-----END ") && text.ends_with(b"-----");
    if e == pem::Error::PreEncapsulationBoundary && has(b"-----BEGIN ") && !end_ok {
        return PkixError::Pem(PemProblem::EndLine);
    }
    PkixError::Pem(match e {
        pem::Error::PreEncapsulationBoundary | pem::Error::Preamble => PemProblem::BeginLine,
        pem::Error::PostEncapsulationBoundary => PemProblem::EndLine,
        pem::Error::Label => PemProblem::Label,
        pem::Error::HeaderDisallowed => PemProblem::Headers,
        pem::Error::Base64(_) | pem::Error::EncapsulatedText => PemProblem::Base64,
        _ => PemProblem::Other,
    })
}

/// The encapsulated document: from the BEGIN line to its matching END line. Text before and after
/// it is ignored, as RFC 7468 section 2 says parsers should (`openssl pkey -text` writes a
/// description after the END line; certificate bundles put a subject line before BEGIN). When
/// no complete block is found the trimmed input is returned, so the parser names the problem.
fn trimmed(text: &str) -> &[u8] {
    let t = text
        .trim_matches(|c: char| c.is_ascii_whitespace())
        .as_bytes();
    let find = |hay: &[u8], needle: &[u8]| hay.windows(needle.len()).position(|w| w == needle);
    let Some(begin) = find(t, b"-----BEGIN ") else {
        return t;
    };
    let block = &t[begin..];
    let Some(label_len) = find(&block[11..], b"-----") else {
        return t;
    };
    let label = &block[11..11 + label_len];
    let mut end_line = Vec::with_capacity(label.len() + 14);
    end_line.extend_from_slice(b"-----END ");
    end_line.extend_from_slice(label);
    end_line.extend_from_slice(b"-----");
    match find(block, &end_line) {
        Some(end) => &block[..end + end_line.len()],
        None => t,
    }
}

/// The label of a PEM document, checking only its BEGIN and END lines.
pub(crate) fn label(text: &str) -> Result<&str, PkixError> {
    let bytes = trimmed(text);
    match pem::decode_label(bytes) {
        Ok(label) => Ok(label),
        Err(pem::Error::Label) => hyphenated_label(bytes).ok_or(PkixError::Pem(PemProblem::Label)),
        Err(e) => Err(map_pem_in(e, bytes)),
    }
}

/// The label of `-----BEGIN label-----` ... `-----END label-----` for labels with inner
/// hyphens (`ML-DSA-65 PRIVATE KEY`), which RFC 7468's ABNF allows but `pem-rfc7468` 1.0
/// rejects. Only used to name such a label; no document with one is decoded.
fn hyphenated_label(bytes: &[u8]) -> Option<&str> {
    const BEGIN: &[u8] = b"-----BEGIN ";
    const END: &[u8] = b"-----END ";
    const DASHES: &[u8] = b"-----";
    let rest = bytes.strip_prefix(BEGIN)?;
    let len = rest.windows(DASHES.len()).position(|w| w == DASHES)?;
    let label = &rest[..len];
    let valid = !label.is_empty()
        && label.iter().all(|&c| matches!(c, 0x21..=0x7e | b' '))
        && !label.starts_with(b"-")
        && !label.ends_with(b"-")
        && !label.windows(2).any(|w| w == b"--");
    let end = bytes.strip_suffix(DASHES)?;
    let end_label = &end[end.len().checked_sub(label.len())?..];
    let end = &end[..end.len() - label.len()];
    (valid && end_label == label && end.ends_with(END))
        .then(|| core::str::from_utf8(label).ok())
        .flatten()
}

/// Decodes a PEM document whose label must be `expected`; the DER is zeroised on drop.
pub(crate) fn decode(text: &str, expected: PemLabel) -> Result<Zeroizing<Vec<u8>>, PkixError> {
    let bytes = trimmed(text);
    // The label first, so that a wrong kind of document is named as such.
    let found = PemLabel::from_label(label(text)?);
    if found != expected {
        return Err(
            if found == PemLabel::EncryptedPrivateKey && expected == PemLabel::PrivateKey {
                PkixError::Encrypted
            } else {
                PkixError::PemLabel { expected, found }
            },
        );
    }
    // Detects the line width from the first line (not constant-time in the width, which is
    // public), then decodes in constant time.
    let mut decoder = pem::Decoder::new_detect_wrap(bytes).map_err(|e| map_body(e, bytes))?;
    let mut der = Zeroizing::new(vec![0u8; decoder.remaining_len()]);
    let n = decoder
        .decode(&mut der)
        .map_err(|e| map_body(e, bytes))?
        .len();
    if !decoder.is_finished() || n != der.len() {
        return Err(PkixError::Pem(PemProblem::Base64));
    }
    Ok(der)
}

/// Classifies an error decoding the body: a colon after the BEGIN line means RFC 1421 headers
/// (Base64 has no colon), which RFC 7468 does not allow.
fn map_body(e: pem::Error, bytes: &[u8]) -> PkixError {
    let after_begin = bytes
        .windows(11)
        .position(|w| w == b"-----BEGIN ")
        .map_or(bytes, |i| &bytes[i..]);
    let body = after_begin
        .iter()
        .position(|&c| c == b'\n' || c == b'\r')
        .map_or(&[][..], |i| &after_begin[i..]);
    if matches!(e, pem::Error::Base64(_)) && body.contains(&b':') {
        PkixError::Pem(PemProblem::Headers)
    } else {
        map_pem(e)
    }
}

/// Encodes `der` as PEM with label `label` (a constant of ours), 64 columns, LF endings.
/// The output buffer is allocated once at its final size (no stray copies of secrets).
pub(crate) fn encode(label: &'static str, der: &[u8]) -> Result<String, PkixError> {
    pem::encode_string(label, LineEnding::LF, der).map_err(map_pem)
}
