//! The Python package (`bindings/python`, issues 17 and 36): `bindings/python/run-tests.sh`
//! builds its manylinux2014 wheel (maturin with zig), checks the wheel's tag with auditwheel,
//! installs it with cargo and rustc off `PATH` into a cached virtual environment under the
//! target directory, with pytest, hypothesis, dilithium-py and pyca/cryptography from PyPI, and
//! runs its pytest suite there (ACVP and KATs through both Python APIs, differential tests against
//! dilithium-py, cross-checks with pyca/cryptography, error paths, fuzzing, threads).
//!
//! The script's output streams as it runs and ends with pytest's `N passed` line; the test
//! fails if pytest fails or collects nothing. `MLDSA_OFFLINE=1` (passed through) skips the
//! registry installs: the cached environment is used if there is one, else the suite is skipped.

#[path = "common/script.rs"]
mod script;

#[test]
fn python_package_pytest_suite() {
    script::run_suite_script("bindings/python/run-tests.sh", "pytest's report");
}
