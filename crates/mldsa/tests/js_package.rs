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

use std::path::Path;
use std::process::{Command, Stdio};

#[test]
fn js_package_node_and_browser_suites() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let script = root.join("bindings/js/run-tests.sh");
    assert!(script.is_file(), "{} is missing", script.display());
    let status = Command::new("bash")
        .arg(&script)
        .current_dir(&root)
        .stdin(Stdio::null())
        .stdout(Stdio::inherit())
        .stderr(Stdio::inherit())
        .status()
        .expect("bash must be installed to run bindings/js/run-tests.sh");
    assert!(
        status.success(),
        "bindings/js/run-tests.sh failed ({status}): see the report above; \
         MLDSA_OFFLINE=1 skips the registry installs"
    );
}
