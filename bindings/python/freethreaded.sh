#!/usr/bin/env bash
# Builds the package for a free-threaded CPython (3.14t: PyO3 0.30 supports free-threading from
# 3.14 on) and runs the pytest suite on it with the GIL off. Not part of CI (a cold run builds
# CPython, about 10 minutes on 2 cores): run it by hand after changing the extension's
# threading, and record the result in SECURITY.md ("Python package", free-threaded).
#
#   bash bindings/python/freethreaded.sh             # builds CPython 3.14 --disable-gil first
#   PYTHON=/path/to/python3.14t bash bindings/python/freethreaded.sh
#
# Neither Debian (12) nor PyPI ships a free-threaded interpreter, and python.org is out of reach
# here. Without PYTHON, CPython's source comes from the Go module proxy, which serves any tagged
# GitHub repository as a module zip (github.com/python/cpython@vX.Y.Z+incompatible; the zip
# drops executable bits, restored below), and is built under the cargo target directory. The
# peers' packages that install on free-threaded CPython come from PyPI; test modules whose peer
# cannot be installed are left out, and the run says which.
set -euo pipefail
cd "$(dirname "$0")/../.."

cpython_version=3.14.7
cpython_url="https://proxy.golang.org/github.com/python/cpython/@v/v${cpython_version}+incompatible.zip"

target_dir=$("${CARGO:-cargo}" metadata --format-version 1 --no-deps |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
work="$target_dir/python-freethreaded"
mkdir -p "$work"

python=${PYTHON:-}
if [ -z "$python" ]; then
    prefix="$work/cpython"
    python="$prefix/bin/python3.14t"
    if [ ! -x "$python" ]; then
        echo "# building CPython $cpython_version with --disable-gil into $prefix"
        rm -rf "$work/src" "$work/cpython.zip" && mkdir -p "$work/src"
        curl -sSfL -o "$work/cpython.zip" "$cpython_url"
        (cd "$work/src" && unzip -q ../cpython.zip)
        src=$(echo "$work"/src/github.com/python/cpython@*)
        chmod +x "$src/configure" "$src/install-sh" "$src/config.guess" "$src/config.sub"
        (cd "$src" && ./configure --quiet --disable-gil --prefix="$prefix" \
            && make -s -j"$(nproc)" && make -s install) >"$work/cpython-build.log" 2>&1 ||
            { tail -30 "$work/cpython-build.log"; exit 1; }
    fi
fi
"$python" -c 'import sys, sysconfig
assert sysconfig.get_config_var("Py_GIL_DISABLED"), "not a free-threaded build"
print("# interpreter:", sys.version)'

venv="$work/venv"
if [ ! -x "$venv/bin/python" ]; then
    "$python" -m venv "$venv"
fi
vpy="$venv/bin/python"
"$vpy" -m pip install --quiet --disable-pip-version-check --no-input \
    "maturin>=1.7,<2" "pytest>=8" "hypothesis>=6"

# The peers, each optional here (a missing one leaves its test modules out).
ignore=()
peer() { # peer MODULE REQUIREMENT... -- TEST_FILE...
    local module=$1 reqs=() files=()
    shift
    while [ "$1" != "--" ]; do reqs+=("$1"); shift; done
    shift
    files=("$@")
    if "$vpy" -m pip install --quiet --disable-pip-version-check --no-input --only-binary=:all: \
        "${reqs[@]}" >/dev/null 2>&1 || "$vpy" -m pip install --quiet --disable-pip-version-check \
        --no-input "${reqs[@]}" >/dev/null 2>&1; then
        echo "# peer $module: installed"
    else
        echo "# peer $module: not installable for this interpreter; leaving out ${files[*]}"
        for f in "${files[@]}"; do ignore+=(--ignore "tests/$f"); done
    fi
}
peer numpy "numpy>=1.24" -- test_buffers.py
peer dilithium_py "dilithium-py==1.5.1" "pycryptodome>=3.20" "ecdsa>=0.19" -- test_differential.py
peer cryptography "cryptography>=46" -- test_pyca_interop.py

echo "# building and installing ./bindings/python for $("$vpy" -c 'import sys; print(sys.implementation.cache_tag)')t"
PATH="$venv/bin:$PATH" CARGO_TARGET_DIR="$work/build" CARGO_PROFILE_RELEASE_LTO=false \
    CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 "$vpy" -m pip install --quiet \
    --disable-pip-version-check --no-input --no-build-isolation --no-deps --force-reinstall \
    ./bindings/python

# Importing the extension must leave the GIL off (it declares gil_used = false); an extension
# that did not would turn it back on, with a RuntimeWarning.
"$vpy" -W error -c 'import sys, mldsa_rs
assert not sys._is_gil_enabled(), "importing mldsa_rs enabled the GIL"
print("# GIL after import mldsa_rs:", sys._is_gil_enabled())'

echo "# pytest (PYTHON_GIL=0)"
cd bindings/python
# shellcheck disable=SC2086
PYTHON_GIL=0 "$vpy" -m pytest -q -p no:cacheprovider -W error::RuntimeWarning tests \
    "${ignore[@]}" ${PYTEST_ARGS:-}
