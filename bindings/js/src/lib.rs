//! WebAssembly bindings for the `mldsa` crate: the Rust half of the npm package `mldsa-rs`
//! (bindings/js). wasm-bindgen exports flat byte-array functions for the noble-compatible API
//! (`noble`) and handle classes for the key objects (`keys`, `legacy`); the JavaScript modules
//! in lib/ check every argument and give the package its shape.
//!
//! No exported path panics on what JavaScript passes in: lengths, levels and names are checked
//! and every failure is returned as a JS exception (`error`). Secret inputs and outputs are
//! copied between JS typed arrays and buffers wiped on drop (`bytes`), and calls that touched
//! secrets wipe the stack they used (`wipe`).

// No `unsafe` of our own (the project's budget: backends, the C boundary, the valgrind hooks);
// what wasm-bindgen's macros generate is theirs.
#![forbid(unsafe_code)]

mod bytes;
mod error;
mod keys;
mod legacy;
mod level;
mod noble;
mod wipe;

pub use keys::{JsSigningKey, JsVerifyingKey, MuStream};
pub use legacy::{JsDilithiumSigningKey, JsDilithiumVerifyingKey};
