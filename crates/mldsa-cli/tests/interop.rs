//! The cross-implementation suite: `interop/run.sh` (see `interop/README.md`) builds the `mldsa`
//! command in release, installs OpenSSL, pyca/cryptography, Bouncy Castle, @noble/post-quantum,
//! filippo.io/mldsa and dilithium-py from the package registries (cached between runs) and
//! cross-checks keys, signatures, mu and SPKI / PKCS#8 with each of them.
//!
//! Its output (one `PASS|FAIL|SKIP peer: what` line per check, then `N passed, N failed, N
//! skipped`) is captured: `cargo test` shows it only when the test fails or with `--nocapture`,
//! so a passing workspace run stays quiet. The test fails if any check failed. A peer that cannot be
//! installed is skipped, with the reason. `MLDSA_OFFLINE=1` (passed through to the script) skips
//! the whole suite on a machine without the package registries.

use std::path::Path;
use std::process::{Command, Stdio};

#[test]
fn interop_with_other_implementations() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let script = root.join("interop/run.sh");
    assert!(script.is_file(), "{} is missing", script.display());
    let out = Command::new("bash")
        .arg(&script)
        .current_dir(&root)
        .stdin(Stdio::null())
        .output()
        .expect("bash must be installed to run interop/run.sh");
    // Printed through the test harness's capture: shown on failure or with --nocapture.
    print!("{}", String::from_utf8_lossy(&out.stdout));
    eprint!("{}", String::from_utf8_lossy(&out.stderr));
    assert!(
        out.status.success(),
        "interop/run.sh failed ({}): see its FAIL lines above; MLDSA_OFFLINE=1 skips it",
        out.status
    );
}
