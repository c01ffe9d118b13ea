//! Reading Python bytes-like arguments (bytes, bytearray, memoryview, array, numpy uint8).
//!
//! Messages are hashed into mu (or HashML-DSA's pre-hash) before any lattice work, so a message
//! is only ever read by a hash, once, front to back. How it is read depends on whether another
//! thread could change it meanwhile:
//!
//! - `bytes` are immutable: they are hashed in place, with the GIL released when long, so
//!   nothing is copied and other threads run meanwhile.
//! - Every other buffer (bytearray, memoryview, array, numpy) may be written by another thread.
//!   Reading its memory from Rust while the GIL is released would be a data race, and holding
//!   the GIL for a whole large hash would stall every other thread. So it is copied out in
//!   fixed 256 KiB pieces while the GIL is held (each piece a consistent snapshot, made by
//!   CPython's own `memoryview.tobytes`), and each piece is hashed with the GIL released. A
//!   large message is thus never copied whole: the extra memory is one piece, whatever the
//!   message's size, and the piece copies cost a few percent of the hashing (see the README).
//!   Reading such buffers in place would need the buffer protocol, which the stable ABI we
//!   build for (abi3, CPython 3.9+) only offers from 3.11 on, and unsafe code, which this
//!   crate forbids.
//!
//! Small fixed-size inputs (keys, seeds, signatures, contexts) given as `bytes` are read in
//! place too (immutable, kept alive by the caller's reference, so nothing is copied and there is
//! no copy to wipe); from any other buffer they are copied into buffers wiped when dropped.
//! Copying and wiping a key and a signature cost 0.6-1 us per call (the wipe is byte by byte),
//! 4-6 % of a drop-in verification.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyMemoryView};
use zeroize::Zeroizing;

/// How much of a non-`bytes` buffer is copied out at a time.
const CHUNK: usize = 1 << 18;

/// A message argument: read in place when it is `bytes`, else chunk by chunk.
pub enum Message<'py> {
    Bytes(Bound<'py, PyBytes>),
    View { view: Bound<'py, PyAny>, len: usize },
}

fn memoryview<'py>(obj: &Bound<'py, PyAny>, field: &str) -> PyResult<Bound<'py, PyAny>> {
    let view = PyMemoryView::from(obj).map_err(|_| {
        PyTypeError::new_err(format!(
            "{field} must be a bytes-like object (bytes, bytearray, memoryview), not {}",
            obj.get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_default()
        ))
    })?;
    // A flat run of bytes whatever the exporter's item format or shape; non-contiguous views
    // cannot be cast, and are copied once into bytes instead.
    if view.getattr("c_contiguous")?.is_truthy()? {
        view.call_method1("cast", ("B",))
    } else {
        Ok(view.call_method0("tobytes")?)
    }
}

impl<'py> Message<'py> {
    pub fn extract(obj: &Bound<'py, PyAny>, field: &str) -> PyResult<Self> {
        if let Ok(b) = obj.cast::<PyBytes>() {
            return Ok(Message::Bytes(b.clone()));
        }
        let view = memoryview(obj, field)?;
        if let Ok(b) = view.cast::<PyBytes>() {
            return Ok(Message::Bytes(b.clone()));
        }
        let len = view.len()?;
        Ok(Message::View { view, len })
    }

    pub fn len(&self) -> usize {
        match self {
            Message::Bytes(b) => b.as_bytes().len(),
            Message::View { len, .. } => *len,
        }
    }

    /// The whole message as one slice, when it is `bytes` (safe to read without the GIL).
    pub fn in_place(&self) -> Option<&[u8]> {
        match self {
            Message::Bytes(b) => Some(b.as_bytes()),
            Message::View { .. } => None,
        }
    }

    /// Feeds the message to `sink` chunk by chunk; the chunks of a non-`bytes` buffer are
    /// copied out with the GIL held (another Python thread cannot change the buffer meanwhile).
    pub fn for_each_chunk(&self, mut sink: impl FnMut(&[u8])) -> PyResult<()> {
        match self {
            Message::Bytes(b) => sink(b.as_bytes()),
            Message::View { view, len } => {
                let mut at = 0;
                while at < *len {
                    let end = (*len).min(at + CHUNK);
                    let slice = pyo3::types::PySlice::new(view.py(), at as isize, end as isize, 1);
                    let chunk = view.get_item(slice)?.call_method0("tobytes")?;
                    sink(chunk.cast::<PyBytes>()?.as_bytes());
                    at = end;
                }
            }
        }
        Ok(())
    }
}

/// A small input (key, seed, signature, context, password): the bytes of a `bytes` object in
/// place, or a copy of any other buffer's, wiped when dropped.
pub enum ByteArg<'a> {
    /// An immutable `bytes` object's contents.
    Borrowed(&'a [u8]),
    /// A snapshot of a mutable buffer (another thread may change the buffer itself).
    Copied(Zeroizing<Vec<u8>>),
}

impl core::ops::Deref for ByteArg<'_> {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match self {
            ByteArg::Borrowed(b) => b,
            ByteArg::Copied(v) => v,
        }
    }
}

/// A small bytes-like input: see [`ByteArg`].
pub fn bytes_arg<'a>(obj: &'a Bound<'_, PyAny>, field: &str) -> PyResult<ByteArg<'a>> {
    if let Ok(b) = obj.cast::<PyBytes>() {
        return Ok(ByteArg::Borrowed(b.as_bytes()));
    }
    let view = memoryview(obj, field)?;
    let bytes = view.call_method0("tobytes")?;
    Ok(ByteArg::Copied(Zeroizing::new(
        bytes.cast::<PyBytes>()?.as_bytes().to_vec(),
    )))
}

/// A fixed-length input: `ValueError` naming the field, expected and given lengths otherwise.
pub fn array_arg<const N: usize>(
    obj: &Bound<'_, PyAny>,
    field: &str,
) -> PyResult<Zeroizing<[u8; N]>> {
    let v = bytes_arg(obj, field)?;
    let mut out = Zeroizing::new([0u8; N]);
    if v.len() != N {
        return Err(PyValueError::new_err(format!(
            "{field} must be {N} bytes, got {}",
            v.len()
        )));
    }
    out.copy_from_slice(&v);
    Ok(out)
}

/// The context string: at most 255 bytes (FIPS 204).
pub fn context_arg<'a>(obj: &'a Bound<'_, PyAny>) -> PyResult<ByteArg<'a>> {
    let ctx = bytes_arg(obj, "context")?;
    if ctx.len() > 255 {
        return Err(PyValueError::new_err(format!(
            "context must be at most 255 bytes, got {}",
            ctx.len()
        )));
    }
    Ok(ctx)
}
