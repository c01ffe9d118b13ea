//! The cross-implementation suite: `interop/run.sh` (see `interop/README.md`) builds the `mldsa`
//! command in release, installs OpenSSL, pyca/cryptography, Bouncy Castle, @noble/post-quantum,
//! filippo.io/mldsa and dilithium-py from the package registries (cached between runs) and
//! cross-checks keys, signatures, mu and SPKI / PKCS#8 with each of them.
//!
//! Its output is streamed as it runs: one `PASS|FAIL|SKIP peer: what` line per check, then
//! `N passed, N failed, N skipped`. The test fails if any check failed. A peer that cannot be
//! installed is skipped, with the reason. `MLDSA_OFFLINE=1` (passed through to the script) skips
//! the whole suite on a machine without the package registries.

use std::path::Path;
use std::process::{Command, Stdio};

#[test]
fn interop_with_other_implementations() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let script = root.join("interop/run.sh");
    assert!(script.is_file(), "{} is missing", script.display());
    // Inherited stdout / stderr: the script's lines appear as they are printed, not captured.
    let status = Command::new("bash")
        .arg(&script)
        .current_dir(&root)
        .stdin(Stdio::null())
        .stdout(Stdio::inherit())
        .stderr(Stdio::inherit())
        .status()
        .expect("bash must be installed to run interop/run.sh");
    assert!(
        status.success(),
        "interop/run.sh failed ({status}): see its FAIL lines above; MLDSA_OFFLINE=1 skips it"
    );
}
