#!/usr/bin/env bash
# Builds the Python package (`pip install ./bindings/python`, through maturin) into a virtual
# environment under the cargo target directory, with pytest, hypothesis and the peers the tests
# compare against (dilithium-py, pyca/cryptography) from PyPI, and runs its pytest suite.
# Run by `cargo test --workspace` through crates/mldsa/tests/python_package.rs.
#
# The environment (target/python-venv) and the extension's cargo build (target/python-build)
# are kept between runs: a warm run only rebuilds what changed and reinstalls the package.
#
#   MLDSA_OFFLINE=1   no registry work: use the cached environment if there is one, else skip
#   PYTEST_ARGS       extra arguments for pytest (e.g. "-k acvp")
set -euo pipefail
cd "$(dirname "$0")/../.."

# Pinned to what the suite was written against; bump together with the tests.
requirements=(
    "maturin>=1.7,<2"
    "pytest>=8"
    "hypothesis>=6"
    "dilithium-py==1.5.1"
    "pycryptodome>=3.20" # dilithium-py's DRBG, for the differential DRBG tests
    "ecdsa>=0.19"        # dilithium-py's PKCS helpers, for the differential PKCS tests
    "cryptography>=46"   # the first release with ML-DSA
    "numpy>=1.24"        # buffer-protocol inputs
)

target_dir=$("${CARGO:-cargo}" metadata --format-version 1 --no-deps |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
venv="$target_dir/python-venv"
python="$venv/bin/python"
stamp="$venv/requirements.txt"
wanted=$(printf '%s\n' "${requirements[@]}")

if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$wanted" ]; then
    if [ -n "${MLDSA_OFFLINE:-}" ]; then
        echo "SKIP python package tests: MLDSA_OFFLINE=1 and no cached environment at $venv"
        exit 0
    fi
    echo "# creating $venv and installing: ${requirements[*]}"
    rm -rf "$venv"
    if ! python3 -m venv "$venv" 2>/dev/null; then
        # Debian splits venv (ensurepip) out of python3.
        apt-get update -qq && apt-get install -y -qq python3-venv >/dev/null
        python3 -m venv "$venv"
    fi
    "$python" -m pip install --quiet --disable-pip-version-check --no-input "${requirements[@]}"
    echo "$wanted" >"$stamp"
fi

echo "# building and installing ./bindings/python (maturin, release)"
# No build isolation: maturin comes from the environment, so a warm run needs no registry.
# The test build skips LTO and uses parallel codegen (about half the cold build time); the
# wheels users build keep the release profile of bindings/python/Cargo.toml.
CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 PATH="$venv/bin:$PATH" CARGO_TARGET_DIR="$target_dir/python-build" "$python" -m pip install --quiet \
    --disable-pip-version-check --no-input --no-build-isolation --no-deps --force-reinstall \
    ./bindings/python

echo "# pytest"
cd bindings/python
status=0
# shellcheck disable=SC2086
"$python" -m pytest -q -p no:cacheprovider tests ${PYTEST_ARGS:-} || status=$?
if [ "$status" -eq 5 ]; then
    echo "error: pytest collected no tests" >&2
    exit 1
fi
exit "$status"
