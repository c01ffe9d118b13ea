//! Runs a suite's own script from the repository root (`bindings/python/run-tests.sh`,
//! `bindings/js/run-tests.sh`), its output streaming as it runs; fails the test if it fails.

use std::path::Path;
use std::process::{Command, Stdio};

/// Runs `bash <repo>/<script>`; `report` names where its failure is described.
pub fn run_suite_script(script: &str, report: &str) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let path = root.join(script);
    assert!(path.is_file(), "{} is missing", path.display());
    let status = Command::new("bash")
        .arg(&path)
        .current_dir(&root)
        .stdin(Stdio::null())
        .stdout(Stdio::inherit())
        .stderr(Stdio::inherit())
        .status()
        .unwrap_or_else(|e| panic!("bash must be installed to run {script}: {e}"));
    assert!(
        status.success(),
        "{script} failed ({status}): see {report} above; MLDSA_OFFLINE=1 skips the registry installs"
    );
}
