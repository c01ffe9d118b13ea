//! The C boundary: the only place with `unsafe`. Each exported function turns its pointers into
//! slices here (NULL and lengths checked), runs the safe layer inside `catch_unwind` (a panic
//! becomes `MLDSA_ERR_INTERNAL`, never an unwind into C), and zeroes every output on failure.
//!
//! Contract for every pointer argument (stated once in mldsa.h): non-NULL pointers point to at
//! least the documented number of bytes, valid for the call; outputs do not overlap any other
//! argument. NULL is checked and answered with `MLDSA_ERR_NULL` (or, for an input of length 0,
//! read as the empty string).

use core::ffi::c_int;
use std::panic::{AssertUnwindSafe, catch_unwind};

use zeroize::Zeroize;

use crate::status::{Outcome, Status};

pub mod dropin;
pub mod legacy;
pub mod misc;
pub mod mldsa;
pub mod objects;
#[cfg(test)]
mod tests;

/// An input of `len` bytes at `p`; NULL is the empty input when `len` is 0. A length above
/// `isize::MAX` (C's PTRDIFF_MAX) describes no object and is a length error, never a slice.
///
/// # Safety
/// A non-NULL `p` points to `len` readable bytes that stay valid and unmodified for `'a`.
pub(crate) unsafe fn input<'a>(p: *const u8, len: usize) -> Result<&'a [u8], Status> {
    if p.is_null() {
        return if len == 0 { Ok(&[]) } else { Err(Status::Null) };
    }
    if len > isize::MAX as usize {
        return Err(Status::Length);
    }
    // SAFETY: non-NULL, and the caller guarantees `len` readable bytes for 'a.
    Ok(unsafe { core::slice::from_raw_parts(p, len) })
}

/// A fixed-size input of `N` bytes at `p` (seeds, rnd, mu).
///
/// # Safety
/// A non-NULL `p` points to `N` readable bytes valid for `'a`.
pub(crate) unsafe fn fixed<'a, const N: usize>(p: *const u8) -> Result<&'a [u8; N], Status> {
    if p.is_null() {
        return Err(Status::Null);
    }
    // SAFETY: non-NULL, `N` readable bytes (caller), and `[u8; N]` has alignment 1.
    Ok(unsafe { &*p.cast::<[u8; N]>() })
}

/// Like [`fixed`], but NULL means "not given".
///
/// # Safety
/// As [`fixed`].
pub(crate) unsafe fn optional<'a, const N: usize>(
    p: *const u8,
) -> Result<Option<&'a [u8; N]>, Status> {
    if p.is_null() {
        return Ok(None);
    }
    // SAFETY: forwarded contract.
    unsafe { fixed(p) }.map(Some)
}

/// An output buffer: pointer and the exact length the operation writes.
pub(crate) struct Out(pub(crate) *mut u8, pub(crate) usize);

#[cfg(test)]
thread_local! {
    /// Tests set this to make the next guarded call panic inside the guard.
    pub(crate) static FORCE_PANIC: core::cell::Cell<bool> = const { core::cell::Cell::new(false) };
}

/// Runs `f`, catching any panic as [`Status::Internal`].
pub(crate) fn guard<T>(f: impl FnOnce() -> Result<T, Status>) -> Result<T, Status> {
    catch_unwind(AssertUnwindSafe(|| {
        #[cfg(test)]
        if FORCE_PANIC.with(|p| p.replace(false)) {
            panic!("forced panic (test)");
        }
        f()
    }))
    .unwrap_or(Err(Status::Internal))
}

/// The status code of a result.
pub(crate) fn code<T>(r: Result<T, Status>) -> c_int {
    match r {
        Ok(_) => Status::Ok.code(),
        Err(s) => s.code(),
    }
}

/// Runs `f` on the output buffers `outs`; on any failure (including a NULL output or a panic)
/// every non-NULL output is zeroed.
///
/// # Safety
/// Each non-NULL `Out(p, n)` points to `n` writable bytes, overlapping nothing else the call
/// reads or writes.
pub(crate) unsafe fn call<const N: usize>(
    outs: [Out; N],
    f: impl FnOnce(&mut [&mut [u8]; N]) -> Outcome,
) -> c_int {
    let any_null = outs.iter().any(|o| o.0.is_null());
    let mut slices = outs.map(|Out(p, n)| -> &mut [u8] {
        if p.is_null() {
            &mut []
        } else {
            // SAFETY: non-NULL, `n` writable bytes with no other live reference (caller).
            unsafe { core::slice::from_raw_parts_mut(p, n) }
        }
    });
    let r = if any_null {
        Err(Status::Null)
    } else {
        guard(|| f(&mut slices))
    };
    if r.is_err() {
        for s in slices.iter_mut() {
            s.zeroize();
        }
    }
    code(r)
}

/// Writes `v` to `*p` when `p` is not NULL.
///
/// # Safety
/// A non-NULL `p` is valid for a write of `T`.
pub(crate) unsafe fn store<T>(p: *mut T, v: T) {
    if !p.is_null() {
        // SAFETY: non-NULL and writable (caller); `write` does not drop the old (plain) value.
        unsafe { p.write(v) };
    }
}

/// Bytes in front of every buffer we allocate for C: the total length, so that `mldsa_free`
/// needs only the pointer.
const HEADER: usize = size_of::<usize>();

/// Copies `doc` into a new buffer for `mldsa_free`, NUL-terminated (so PEM is a C string; the
/// NUL is not counted in the length).
fn into_c_buffer(doc: &[u8]) -> *mut u8 {
    let total = HEADER + doc.len() + 1;
    let mut buf = Vec::with_capacity(total);
    buf.extend_from_slice(&total.to_ne_bytes());
    buf.extend_from_slice(doc);
    buf.push(0);
    let raw = Box::into_raw(buf.into_boxed_slice()).cast::<u8>();
    // SAFETY: the allocation is `total > HEADER` bytes long.
    unsafe { raw.add(HEADER) }
}

/// Frees (after wiping) a buffer from [`into_c_buffer`].
///
/// # Safety
/// `p` is NULL or was returned by [`into_c_buffer`] and not freed since.
pub(crate) unsafe fn free_c_buffer(p: *mut u8) {
    if p.is_null() {
        return;
    }
    // SAFETY: `p` is HEADER bytes into an allocation of ours (caller), which starts with its
    // total length; the boxed slice is rebuilt with exactly the layout it was allocated with.
    unsafe {
        let start = p.sub(HEADER);
        let total = usize::from_ne_bytes(*start.cast::<[u8; HEADER]>());
        let mut owned = Box::from_raw(core::ptr::slice_from_raw_parts_mut(start, total));
        owned.zeroize();
    }
}

/// Runs `f`, which makes a document, and hands it to C in `*out` / `*out_len` (NULL and 0 on
/// any failure).
///
/// # Safety
/// `out` and `out_len` are NULL or valid for writes.
pub(crate) unsafe fn call_alloc(
    out: *mut *mut u8,
    out_len: *mut usize,
    f: impl FnOnce() -> Result<crate::pkix::Document, Status>,
) -> c_int {
    // SAFETY: NULL or writable (caller).
    unsafe {
        store(out, core::ptr::null_mut());
        store(out_len, 0);
    }
    if out.is_null() || out_len.is_null() {
        return Status::Null.code();
    }
    let r = guard(f).map(|doc| {
        // SAFETY: both checked non-NULL above.
        unsafe {
            *out = into_c_buffer(&doc);
            *out_len = doc.len();
        }
    });
    code(r)
}

/// Runs `f`, which makes an object, and hands it to C in `*out` (NULL on any failure).
///
/// # Safety
/// `out` is NULL or valid for a write.
pub(crate) unsafe fn call_new<T>(out: *mut *mut T, f: impl FnOnce() -> Result<T, Status>) -> c_int {
    // SAFETY: NULL or writable (caller).
    unsafe { store(out, core::ptr::null_mut()) };
    if out.is_null() {
        return Status::Null.code();
    }
    // SAFETY: checked non-NULL above.
    code(guard(f).map(|obj| unsafe { *out = Box::into_raw(Box::new(obj)) }))
}

/// The object behind a handle.
///
/// # Safety
/// `p` is NULL or a live handle of type `T` from [`call_new`], used by one thread at a time.
pub(crate) unsafe fn object<'a, T>(p: *mut T) -> Result<&'a mut T, Status> {
    // SAFETY: NULL or a live, exclusively used Box<T> allocation (caller).
    unsafe { p.as_mut() }.ok_or(Status::Null)
}

/// Drops (and so wipes, where the type zeroises) a handle from [`call_new`].
///
/// # Safety
/// `p` is NULL or a live handle of type `T` from [`call_new`], not used afterwards.
pub(crate) unsafe fn free_object<T>(p: *mut T) {
    if !p.is_null() {
        let _ = guard(|| {
            // SAFETY: made by Box::into_raw in `call_new` (caller); freed once.
            drop(unsafe { Box::from_raw(p) });
            Ok(())
        });
    }
}
