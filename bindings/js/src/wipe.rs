//! Wiping the part of the shadow stack the core's secret computations used. In wasm32 the
//! stack frames holding arrays live in linear memory, which JavaScript can read through
//! `memory.buffer` and which the next call reuses without clearing; the core zeroises its heap
//! secrets on drop, but a returned frame keeps whatever its locals held, and so do the
//! moved-from temporaries of values that wipe themselves on drop.
//!
//! So every exported call that touches secret data runs its body through [`wiped`]: the body
//! runs in a frame of its own (`run`, never inlined), below the exported function's, and once
//! it has returned `STACK_WIPE` bytes below the exported function's frame are zeroed, which
//! covers the body's frames and everything the core called from them. test/secrets.test.mjs
//! checks the result by searching the instance's whole memory for the secrets afterwards.

use wasm_bindgen::JsValue;

/// Bytes of stack to zero below the exported function's frame. Measured on wasm32 (lowest
/// non-zero stack byte after one call in a fresh instance, no wiping): ML-DSA-87 keygen 13 KiB,
/// one-shot signing 20 KiB, signing with a prepared key or PKCS#8 PEM import 36 KiB, and
/// verification (no secrets, not wiped) 68 KiB. 96 KiB covers them all, so after any secret
/// call the stack below the top frames is entirely zero, which test/secrets.test.mjs checks.
const STACK_WIPE: usize = 96 * 1024;

#[inline(never)]
fn wipe_below() {
    let mut buf = [0u8; STACK_WIPE];
    // The buffer is "used" afterwards, so the zeroing store (memory.fill) is not elided.
    core::hint::black_box(&mut buf);
}

#[inline(never)]
fn run<T>(f: impl FnOnce() -> Result<T, JsValue>) -> Result<T, JsValue> {
    f()
}

/// Runs `f` in its own stack frame, then zeroes the stack it used (on error paths too).
pub fn wiped<T>(f: impl FnOnce() -> Result<T, JsValue>) -> Result<T, JsValue> {
    let r = run(f);
    wipe_below();
    r
}
