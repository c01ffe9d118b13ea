//! The set-independent functions on the opaque objects: `mldsa_sign_ctx_*`,
//! `mldsa_verify_ctx_*`, `mldsa_signing_key_*`, `mldsa_verifying_key_*`.

use core::ffi::c_int;

use super::{Out, call, code, free_object, guard, input, object, optional, store};
use crate::objects::{SignCtx, SigningKeyObj, VerifyCtx, VerifyingKeyObj};
use crate::ops::Message;
use crate::status::Status;

/// Runs a signer that returns the length written into `sig` (capacity `cap`), storing it in
/// `*siglen`; on failure `sig` is zeroed and `*siglen` is 0.
///
/// # Safety
/// `sig` NULL or `cap` writable bytes; `siglen` NULL or writable.
unsafe fn sign_into(
    sig: *mut u8,
    cap: usize,
    siglen: *mut usize,
    f: impl FnOnce(&mut [u8]) -> Result<usize, Status>,
) -> c_int {
    // SAFETY: forwarded contract.
    unsafe {
        store(siglen, 0);
        if siglen.is_null() {
            return call([Out(sig, cap)], |_| Err(Status::Null));
        }
        call([Out(sig, cap)], |[sig]| {
            let n = f(sig)?;
            store(siglen, n);
            Ok(())
        })
    }
}

/// Feeds `len` bytes at `data` to the context at `c`.
///
/// # Safety
/// `c` NULL or a live sign context; `data` NULL (with `len` 0) or `len` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mldsa_sign_ctx_update(
    c: *mut SignCtx,
    data: *const u8,
    len: usize,
) -> c_int {
    // SAFETY: forwarded contract.
    code(guard(|| unsafe { object(c)?.update(input(data, len)?) }))
}

/// Signs what was fed (see mldsa.h).
///
/// # Safety
/// `c` NULL or a live sign context; `sig` `cap` bytes; `siglen` writable; `rnd` NULL or 32 bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mldsa_sign_ctx_final(
    c: *mut SignCtx,
    sig: *mut u8,
    cap: usize,
    siglen: *mut usize,
    rnd: *const u8,
) -> c_int {
    // SAFETY: forwarded contract.
    unsafe {
        sign_into(sig, cap, siglen, |sig| {
            object(c)?.finalize(sig, optional(rnd)?)
        })
    }
}

/// # Safety
/// `c` NULL or a live sign context, not used afterwards.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mldsa_sign_ctx_free(c: *mut SignCtx) {
    // SAFETY: forwarded contract.
    unsafe { free_object(c) }
}

/// # Safety
/// As [`mldsa_sign_ctx_update`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mldsa_verify_ctx_update(
    c: *mut VerifyCtx,
    data: *const u8,
    len: usize,
) -> c_int {
    // SAFETY: forwarded contract.
    code(guard(|| unsafe { object(c)?.update(input(data, len)?) }))
}

/// # Safety
/// `c` NULL or a live verify context; `sig` `siglen` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mldsa_verify_ctx_final(
    c: *mut VerifyCtx,
    sig: *const u8,
    siglen: usize,
) -> c_int {
    // SAFETY: forwarded contract.
    code(guard(|| unsafe {
        object(c)?.finalize(input(sig, siglen)?)
    }))
}

/// # Safety
/// `c` NULL or a live verify context, not used afterwards.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mldsa_verify_ctx_free(c: *mut VerifyCtx) {
    // SAFETY: forwarded contract.
    unsafe { free_object(c) }
}

/// Pure ML-DSA signing with a prepared key (see mldsa.h).
///
/// # Safety
/// `key` NULL or live; `sig` `cap` bytes; `siglen` writable; `m`, `ctx` their lengths; `rnd`
/// NULL or 32 bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mldsa_signing_key_sign(
    key: *const SigningKeyObj,
    sig: *mut u8,
    cap: usize,
    siglen: *mut usize,
    m: *const u8,
    mlen: usize,
    ctx: *const u8,
    ctxlen: usize,
    rnd: *const u8,
) -> c_int {
    // SAFETY: forwarded contract.
    unsafe {
        sign_into(sig, cap, siglen, |sig| {
            let key = key.as_ref().ok_or(Status::Null)?;
            let msg = Message::Pure {
                msg: input(m, mlen)?,
                ctx: input(ctx, ctxlen)?,
            };
            key.sign(sig, msg, optional(rnd)?)
        })
    }
}

/// # Safety
/// `key` NULL or live, not used afterwards.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mldsa_signing_key_free(key: *mut SigningKeyObj) {
    // SAFETY: forwarded contract.
    unsafe { free_object(key) }
}

/// Pure ML-DSA verification with a prepared key.
///
/// # Safety
/// `key` NULL or live; `sig`, `m`, `ctx` their lengths.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mldsa_verifying_key_verify(
    key: *const VerifyingKeyObj,
    sig: *const u8,
    siglen: usize,
    m: *const u8,
    mlen: usize,
    ctx: *const u8,
    ctxlen: usize,
) -> c_int {
    // SAFETY: forwarded contract.
    code(guard(|| unsafe {
        let key = key.as_ref().ok_or(Status::Null)?;
        let msg = Message::Pure {
            msg: input(m, mlen)?,
            ctx: input(ctx, ctxlen)?,
        };
        key.verify(input(sig, siglen)?, msg)
    }))
}

/// # Safety
/// `key` NULL or live, not used afterwards.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn mldsa_verifying_key_free(key: *mut VerifyingKeyObj) {
    // SAFETY: forwarded contract.
    unsafe { free_object(key) }
}
