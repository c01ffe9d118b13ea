//! The npm package (`bindings/js`, issue 39): `bindings/js/run-tests.sh` builds it (the crate
//! for wasm32-unknown-unknown, wasm-bindgen's glue; the CLI installed once with `cargo install`
//! into the target directory), installs its dev dependencies from npm (noble, puppeteer-core)
//! and runs its Node test suite (ACVP and KATs through both JS APIs, byte-for-byte agreement
//! with noble, errors, secret wiping) and then the vector part in headless Chromium (Debian's
//! `chromium`, installed with apt when missing).
//!
//! The script's output streams as it runs; the test fails if any suite fails. `MLDSA_OFFLINE=1`
//! (passed through) skips the registry installs: cached tools are used if present, else the
//! suite is skipped.

#[path = "common/script.rs"]
mod script;

#[test]
fn js_package_node_and_browser_suites() {
    script::run_suite_script("bindings/js/run-tests.sh", "the report");
}
