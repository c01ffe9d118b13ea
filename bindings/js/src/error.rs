//! Errors crossing into JavaScript as exceptions. Lengths and the context limit become
//! `RangeError`s; everything else (a malformed key, a bad DER or PEM document, a failed random
//! source) an `Error` named `MlDsaError`, which the JS layer re-throws as its `MlDsaError` class
//! (lib/errors.js). Every message is the core's, which says what was wrong and where.

use js_sys::{Error as JsErr, RangeError, TypeError};
use wasm_bindgen::{JsCast, JsValue};

pub fn range(msg: &str) -> JsValue {
    RangeError::new(msg).into()
}

pub fn type_error(msg: &str) -> JsValue {
    TypeError::new(msg).into()
}

/// An `Error` named `MlDsaError` with `kind` set, for the JS layer to re-throw as its class.
pub fn named(kind: &str, msg: &str) -> JsValue {
    let e = JsErr::new(msg);
    e.set_name("MlDsaError");
    // Setting a property on a fresh Error object cannot fail.
    let _ = js_sys::Reflect::set(&e, &JsValue::from_str("kind"), &JsValue::from_str(kind));
    e.unchecked_into()
}

pub fn to_js(e: mldsa::Error) -> JsValue {
    let msg = e.to_string();
    match e {
        mldsa::Error::Length { .. } | mldsa::Error::ContextTooLong { .. } => range(&msg),
        mldsa::Error::Malformed { .. } => named("malformed", &msg),
        mldsa::Error::Pkix(_) => named("pkix", &msg),
        mldsa::Error::Rng => named("rng", &msg),
        mldsa::Error::InvalidSignature => named("invalid-signature", &msg),
        _ => named("internal", &msg),
    }
}

/// `?` on the core's results inside exported functions.
pub trait IntoJs<T> {
    fn js(self) -> Result<T, JsValue>;
}

impl<T> IntoJs<T> for Result<T, mldsa::Error> {
    fn js(self) -> Result<T, JsValue> {
        self.map_err(to_js)
    }
}

/// A method called on a signing key after `destroy()` (the JS classes prevent it; this is the
/// answer should the handle be used directly).
pub fn freed() -> JsValue {
    type_error("this key has been freed")
}
