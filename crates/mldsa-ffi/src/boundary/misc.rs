//! `mldsa_strerror`, `mldsa_free`, `mldsa_version` and backend control.

use core::ffi::{c_char, c_int, c_void};

use mldsa_core::backend::{self, BackendKind};

use crate::status::Status;

/// The message for a status code (a static string; never NULL).
#[unsafe(no_mangle)]
pub extern "C" fn mldsa_strerror(status: c_int) -> *const c_char {
    Status::ALL
        .iter()
        .find(|s| s.code() == status)
        .map_or(c"unknown status code", |s| s.message())
        .as_ptr()
}

/// Wipes and frees a buffer this library returned (NULL is ignored).
///
/// # Safety
/// `p` is NULL or a buffer returned by this library and not yet freed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mldsa_free(p: *mut c_void) {
    // SAFETY: forwarded contract.
    unsafe { super::free_c_buffer(p.cast()) }
}

/// The library version, e.g. "0.1.0".
#[unsafe(no_mangle)]
pub extern "C" fn mldsa_version() -> *const c_char {
    concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr().cast()
}

/// The backend that runs the arithmetic now: "avx512" (AVX2 with its AVX-512 variants), "avx2",
/// "simd128" (WebAssembly SIMD builds), "neon" (AArch64) or "portable".
#[unsafe(no_mangle)]
pub extern "C" fn mldsa_backend() -> *const c_char {
    match backend::active_backend() {
        BackendKind::Avx512 => c"avx512".as_ptr(),
        BackendKind::Avx2 => c"avx2".as_ptr(),
        BackendKind::Simd128 => c"simd128".as_ptr(),
        BackendKind::Neon => c"neon".as_ptr(),
        _ => c"portable".as_ptr(),
    }
}

/// Forces AVX2 without its AVX-512 variants (non-zero) or returns to the fastest backend (zero).
#[unsafe(no_mangle)]
pub extern "C" fn mldsa_force_avx2(yes: c_int) -> c_int {
    super::code(super::guard(|| {
        backend::force_avx2(yes != 0);
        Ok(())
    }))
}

/// Forces the portable backend (non-zero) or returns to the fastest one (zero).
#[unsafe(no_mangle)]
pub extern "C" fn mldsa_force_portable(yes: c_int) -> c_int {
    super::code(super::guard(|| {
        backend::force_portable(yes != 0);
        Ok(())
    }))
}
