//! Moving bytes between JS typed arrays and wasm memory. Every input is copied straight from
//! the caller's `Uint8Array` into a buffer this module owns, and every output straight from
//! ours into a fresh `Uint8Array` (js-sys `copy_to` / `copy_from`), so the glue never makes the
//! temporary allocations it would for `&[u8]` or `Vec<u8>` arguments and results; secret
//! buffers are `Zeroizing` and wiped when dropped, leaving no copy in the instance's memory.

use js_sys::Uint8Array;
use zeroize::Zeroizing;

/// A secret input (seed, secret key, rnd), wiped when dropped.
pub fn secret(a: &Uint8Array) -> Zeroizing<Vec<u8>> {
    let mut out = Zeroizing::new(vec![0u8; a.length() as usize]);
    a.copy_to(&mut out);
    out
}

/// A fixed-length secret input; the JS layer has checked the length, this checks it again.
pub fn secret_array<const N: usize>(
    a: &Uint8Array,
    what: &str,
) -> Result<Zeroizing<[u8; N]>, wasm_bindgen::JsValue> {
    if a.length() as usize != N {
        return Err(crate::error::range(&format!(
            "{what} must be {N} bytes, got {}",
            a.length()
        )));
    }
    let mut out = Zeroizing::new([0u8; N]);
    a.copy_to(out.as_mut());
    Ok(out)
}

/// A new `Uint8Array` holding `bytes`.
pub fn out(bytes: &[u8]) -> Uint8Array {
    let a = Uint8Array::new_with_length(bytes.len() as u32);
    a.copy_from(bytes);
    a
}

/// 32 bytes from crypto.getRandomValues, wiped when dropped.
pub fn random32() -> Result<Zeroizing<[u8; 32]>, wasm_bindgen::JsValue> {
    let mut r = Zeroizing::new([0u8; 32]);
    getrandom::fill(r.as_mut()).map_err(|_| crate::error::to_js(mldsa::Error::Rng))?;
    Ok(r)
}

/// rnd for signing: the caller's 32 bytes, or fresh random ones when `None` (hedged).
pub fn rnd(a: Option<Uint8Array>) -> Result<Zeroizing<[u8; 32]>, wasm_bindgen::JsValue> {
    match a {
        Some(a) => secret_array::<32>(&a, "rnd"),
        None => random32(),
    }
}
