#!/usr/bin/env bash
# Builds the Python package's x86-64 (or host) manylinux2014 wheel with maturin and zig, installs
# that wheel into a virtual environment under the cargo target directory with cargo and rustc
# off PATH, and runs the pytest suite there: the suite checks what a user of the binary wheel
# gets, and that installing it needs no Rust (issue 36). pytest, hypothesis and the peers the
# tests compare against (dilithium-py, pyca/cryptography) come from PyPI.
# Run by `cargo test --workspace` through crates/mldsa/tests/python_package.rs.
#
# The environment (target/python-venv) and the extension's cargo build (target/python-build)
# are kept between runs: a warm run only rebuilds what changed and reinstalls the wheel.
#
#   MLDSA_OFFLINE=1   no registry work: use the cached environment if there is one, else skip
#   MLDSA_WHEEL=path  test this wheel instead of building one (check-wheels.sh passes the
#                     release wheel that build-wheels.sh made)
#   MLDSA_VENV=dir    the environment to use instead of target/python-venv (check-wheels.sh
#                     gives a new one, so that the wheel goes into a fresh environment)
#   PYTEST_ARGS       extra arguments for pytest (e.g. "-k acvp")
set -euo pipefail
cd "$(dirname "$0")/../.."

# Pinned to what the suite was written against; bump together with the tests.
requirements=(
    "maturin>=1.7,<2"
    "ziglang>=0.13,<0.18" # maturin --zig: links against glibc 2.17 whatever this machine has
    "auditwheel>=6.1,<7"  # checks the platform tag the wheel claims
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
venv=$(realpath -m "${MLDSA_VENV:-$target_dir/python-venv}")
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

wheel_dir="$target_dir/python-wheel"
if [ -n "${MLDSA_WHEEL:-}" ]; then
    wheel=$(realpath "$MLDSA_WHEEL")
    echo "# testing the given wheel $wheel"
else
    echo "# building the manylinux2014 wheel of ./bindings/python (maturin --zig, release)"
    rm -rf "$wheel_dir"
    # The test build skips LTO and uses parallel codegen (about half the cold build time); the
    # release wheels (build-wheels.sh) keep the release profile of bindings/python/Cargo.toml.
    # zig links against glibc 2.17's symbols: a native link on Debian 12 pulls in GLIBC_2.34
    # symbols, which maturin's manylinux2014 check refuses.
    CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 PATH="$venv/bin:$PATH" \
        CARGO_TARGET_DIR="$target_dir/python-build" "$venv/bin/maturin" build --release --zig \
        --compatibility manylinux2014 -m bindings/python/Cargo.toml --out "$wheel_dir"
    wheels=("$wheel_dir"/*.whl)
    if [ "${#wheels[@]}" -ne 1 ] || [ ! -f "${wheels[0]}" ]; then
        echo "error: maturin left ${#wheels[@]} wheels in $wheel_dir, expected one" >&2
        exit 1
    fi
    wheel=${wheels[0]}
fi
# The platform tag the file name claims must be the one auditwheel derives from the libraries
# and versioned symbols the extension links.
claimed=$(basename "$wheel" .whl | awk -F- '{ print $NF }' | tr . '\n' | grep -v '^manylinux2014_' | head -n 1)
if ! "$venv/bin/auditwheel" show "$wheel" | tr -s ' \n' ' ' |
    grep -q "is consistent with the following platform tag: \"$claimed\""; then
    "$venv/bin/auditwheel" show "$wheel" >&2 || true
    echo "error: auditwheel does not find $(basename "$wheel") consistent with $claimed" >&2
    exit 1
fi
echo "# auditwheel: $(basename "$wheel") is $claimed"

# From here on no Rust: PATH keeps only the folders without cargo, rustc or rustup, and
# cargo's own variables (cargo test sets CARGO) are dropped, so pip can only install the
# wheel as built (--no-index --only-binary: no sdist to fall back on) and pytest runs what a
# user without Rust gets.
norust_path=
IFS=: read -r -a path_dirs <<<"$PATH"
for dir in "${path_dirs[@]}"; do
    [ -n "$dir" ] || continue
    if [ -e "$dir/cargo" ] || [ -e "$dir/rustc" ] || [ -e "$dir/rustup" ]; then
        continue
    fi
    norust_path="${norust_path:+$norust_path:}$dir"
done
norust=(env -u CARGO -u RUSTC -u RUSTUP_TOOLCHAIN -u RUSTUP_HOME -u CARGO_HOME -u CARGO_TARGET_DIR
    -u CARGO_MANIFEST_DIR "PATH=$norust_path")
"${norust[@]}" "$python" - <<'PY'
import shutil, sys
found = {tool: shutil.which(tool) for tool in ("cargo", "rustc", "rustup")}
assert all(path is None for path in found.values()), f"Rust still on PATH: {found}"
print("# no cargo, rustc or rustup on PATH for the install and the tests")
PY

echo "# installing $(basename "$wheel") without Rust"
"${norust[@]}" "$python" -m pip install --quiet --disable-pip-version-check --no-input \
    --no-index --only-binary=:all: --no-deps --force-reinstall "$wheel"
# The package pytest imports must be the installed wheel's (not a source tree), with the tag
# it was installed under.
"${norust[@]}" "$python" - "$(basename "$wheel")" <<'PY'
import importlib.metadata as md, pathlib, shutil, sys, sysconfig
import mldsa_rs, mldsa_rs._native
assert shutil.which("cargo") is None and shutil.which("rustc") is None
site = pathlib.Path(sysconfig.get_paths()["purelib"]).resolve()
native = pathlib.Path(mldsa_rs._native.__file__).resolve()
assert native.is_relative_to(site), f"{native} is not under {site}"
dist = md.distribution("mldsa-rs")
tags = {l.split(": ", 1)[1] for l in dist.read_text("WHEEL").splitlines() if l.startswith("Tag: ")}
py, abi, platforms = sys.argv[1][: -len(".whl")].split("-")[2:]  # the file name's tags
assert (py, abi) == ("cp39", "abi3"), sys.argv[1]
assert tags == {f"{py}-{abi}-{p}" for p in platforms.split(".")}, (tags, sys.argv[1])
print(f"# imported {native.name} from {site} (wheel tags {', '.join(sorted(tags))})")
PY

echo "# pytest"
cd bindings/python
status=0
# pytest itself runs in the Rust-free environment, and checks so before it starts.
# shellcheck disable=SC2086
"${norust[@]}" "$python" -c 'import shutil, sys, pytest
assert shutil.which("cargo") is None and shutil.which("rustc") is None, "Rust on PATH"
sys.exit(pytest.main(sys.argv[1:]))' -q -p no:cacheprovider tests ${PYTEST_ARGS:-} || status=$?
if [ "$status" -eq 5 ]; then
    echo "error: pytest collected no tests" >&2
    exit 1
fi
exit "$status"
