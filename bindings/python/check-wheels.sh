#!/usr/bin/env bash
# Checks the wheels build-wheels.sh made (run by hand before a release, not by CI):
#
#  1. every wheel: `auditwheel show` reports the platform tag the file name claims; the
#     extension is an ELF for the wheel's machine, needs only the C library (for glibc with
#     its libpthread, libdl and dynamic loader) and exports only the module's init function;
#     the C library functions it calls are listed;
#  2. the x86-64 manylinux wheel: installed into a fresh virtual environment with no cargo,
#     rustc or rustup on PATH, the whole pytest suite (run-tests.sh with MLDSA_WHEEL and
#     MLDSA_VENV);
#  3. the aarch64 manylinux wheel: Debian 12's arm64 CPython 3.11, unpacked from Debian's
#     packages (apt-get download; multiarch arm64) into a private root, runs the whole pytest
#     suite under qemu-aarch64, with the test dependencies' aarch64 wheels from PyPI;
#  4. the musllinux wheels: neither Debian nor PyPI ships a musl CPython, so besides check 1
#     each extension is loaded by Debian's musl 1.2.3 (x86_64 natively, aarch64 under qemu)
#     from a small C host built with zig cc: dlopen with RTLD_NOW must resolve every
#     relocation (the host defines the CPython API symbols as placeholders; musl binds
#     everything at load time) and find PyInit__native. The module is not initialised.
#
#   bash bindings/python/check-wheels.sh [WHEEL_DIR]   (default: target/wheels)
#   QEMU_PYTEST_ARGS   what pytest runs under qemu (default: the whole suite, `tests`; 95 s
#                      against 12 s natively on 2 quiet cores, about 7 minutes on busy ones)
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD

target_dir=$(cargo metadata --format-version 1 --no-deps |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
dir=$(realpath "${1:-$target_dir/wheels}")
tools="$target_dir/wheel-tools"
if [ ! -x "$tools/bin/auditwheel" ]; then
    echo "error: $tools/bin/auditwheel not found: run bindings/python/build-wheels.sh first" >&2
    exit 1
fi
command -v readelf >/dev/null || { apt-get update -qq && apt-get install -y -qq binutils >/dev/null; }

shopt -s nullglob
wheels=("$dir"/*.whl)
if [ "${#wheels[@]}" -eq 0 ]; then
    echo "error: no wheels in $dir" >&2
    exit 1
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/mldsa-wheel-check.XXXXXX")
trap 'rm -rf "$work"' EXIT

echo "=== 1. tags, libraries and symbols of every wheel"
for wheel in "${wheels[@]}"; do
    name=$(basename "$wheel")
    platform=$(basename "$wheel" .whl | awk -F- '{ print $NF }' | tr . '\n' | grep -v '^manylinux2014_' | head -n 1)
    case "$platform" in
    *_x86_64) machine="Advanced Micro Devices X86-64" ;;
    *_aarch64) machine="AArch64" ;;
    *)
        echo "error: $name: unexpected platform $platform" >&2
        exit 1
        ;;
    esac
    case "$platform" in
    # glibc's libraries that the manylinux policy lets a wheel need (the dynamic loader for
    # thread-local storage's __tls_get_addr).
    manylinux_*) libs="libc.so.6 libdl.so.2 libpthread.so.0 ld-linux-x86-64.so.2 ld-linux-aarch64.so.1" ;;
    musllinux_*) libs="libc.musl-x86_64.so.1 libc.musl-aarch64.so.1" ;;
    esac
    if ! "$tools/bin/auditwheel" show "$wheel" | tr -s ' \n' ' ' |
        grep -q "is consistent with the following platform tag: \"$platform\""; then
        "$tools/bin/auditwheel" show "$wheel" >&2 || true
        echo "error: auditwheel does not find $name consistent with $platform" >&2
        exit 1
    fi
    so="$work/$platform.so"
    unzip -p "$wheel" 'mldsa_rs/_native.abi3.so' >"$so"
    got_machine=$(readelf -h "$so" | sed -n 's/^ *Machine: *//p')
    [ "$got_machine" = "$machine" ] || { echo "error: $name: ELF machine $got_machine, expected $machine" >&2; exit 1; }
    needed=$(readelf -d "$so" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | sort | paste -sd ' ')
    for lib in $needed; do
        case " $libs " in
        *" $lib "*) ;;
        *) echo "error: $name needs $lib (allowed: $libs)" >&2; exit 1 ;;
        esac
    done
    # Listed: the undefined dynamic symbols, CPython's stable API (the loading interpreter
    # provides it) and the C library's (auditwheel above judged their versions). Exported
    # must be the module's init function alone.
    undefined=$(readelf --dyn-syms -W "$so" | awk '$7 == "UND" && $8 != "" { print $8 }' | sed 's/@.*//' | sort -u)
    python_api=$(grep -c '^_\?Py' <<<"$undefined" || true)
    other=$(grep -v '^_\?Py' <<<"$undefined" | paste -sd ' ')
    exported=$(readelf --dyn-syms -W "$so" | awk '$7 != "UND" && ($5 == "GLOBAL" || $5 == "WEAK") && $4 == "FUNC" { print $8 }' | paste -sd ' ')
    [ "$exported" = "PyInit__native" ] || { echo "error: $name exports functions $exported" >&2; exit 1; }
    printf '%s: %s; %s bytes; ELF %s; needs %s; %s CPython API symbols; C library: %s\n' \
        "$name" "$platform" "$(stat -c %s "$wheel")" "$got_machine" "$needed" "$python_api" "$other"
done

echo
echo "=== 2. x86-64 manylinux wheel: fresh environment, no Rust on PATH, pytest"
x86=("$dir"/*-manylinux*_x86_64.whl)
[ "${#x86[@]}" -eq 1 ] || { echo "error: expected one x86_64 manylinux wheel in $dir" >&2; exit 1; }
MLDSA_WHEEL="${x86[0]}" MLDSA_VENV="$work/venv-x86_64" bash bindings/python/run-tests.sh

echo
echo "=== 3. aarch64 manylinux wheel under qemu-aarch64 with Debian's arm64 CPython"
arm=("$dir"/*-manylinux*_aarch64.whl)
[ "${#arm[@]}" -eq 1 ] || { echo "error: expected one aarch64 manylinux wheel in $dir" >&2; exit 1; }
if ! command -v qemu-aarch64 >/dev/null; then
    apt-get update -qq && apt-get install -y -qq qemu-user >/dev/null
fi
# Installing python3:arm64 itself would replace this machine's amd64 python3 (Debian's
# interpreter packages are not co-installable across architectures), so the arm64 packages
# are downloaded from Debian (multiarch) and unpacked into a private root that qemu-aarch64
# -L uses for every absolute path.
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
    dpkg --add-architecture arm64
    apt-get update -qq
fi
arm_root="$target_dir/arm64-root"
arm_pkgs=(libc6 libgcc-s1 libstdc++6 python3.11-minimal libpython3.11-minimal libpython3.11-stdlib
    zlib1g libexpat1 libffi8 libssl3 libbz2-1.0 liblzma5 libsqlite3-0 libuuid1 libncursesw6
    libtinfo6 libreadline8 libcrypt1 libnsl2 libtirpc3 libdb5.3 libgdbm6)
if [ ! -x "$arm_root/usr/bin/python3.11" ]; then
    mkdir -p "$work/debs"
    (cd "$work/debs" && apt-get download "${arm_pkgs[@]/%/:arm64}" media-types)
    rm -rf "$arm_root"
    mkdir -p "$arm_root"
    for deb in "$work/debs"/*.deb; do dpkg-deb -x "$deb" "$arm_root"; done
fi
arm_python=(qemu-aarch64 -L "$arm_root" "$arm_root/usr/bin/python3.11")
"${arm_python[@]}" -c 'import platform, sys; assert platform.machine() == "aarch64"; print("# arm64 python", sys.version.split()[0], platform.machine())'
# The test dependencies' aarch64 wheels (and the wheel under test), chosen by this machine's
# pip for CPython 3.11 on manylinux aarch64, into a folder the arm64 interpreter imports from.
# Pinned as run-tests.sh pins them.
arm_site="$work/site-aarch64"
mapfile -t test_requirements < <(sed -n '/^requirements=(/,/^)/p' bindings/python/run-tests.sh |
    sed -n 's/^ *"\([^"]*\)".*/\1/p' | grep -v '^maturin\|^ziglang\|^auditwheel')
python3 -m pip install --quiet --disable-pip-version-check --no-input --target "$arm_site" \
    --platform manylinux_2_28_aarch64 --platform manylinux2014_aarch64 --implementation cp \
    --python-version 3.11 --only-binary=:all: "${test_requirements[@]}" "${arm[0]}"
cd bindings/python
status=0
# shellcheck disable=SC2086
env -u CARGO PATH=/usr/bin:/bin PYTHONPATH="$arm_site" "${arm_python[@]}" - \
    ${QEMU_PYTEST_ARGS:-tests} <<'PY' || status=$?
import platform, shutil, sys
import mldsa_rs._native as native
assert platform.machine() == "aarch64" and shutil.which("cargo") is None
print(f"# {native.__file__} on {platform.machine()}")
import pytest
sys.exit(pytest.main(["-q", "-p", "no:cacheprovider", *sys.argv[1:]]))
PY
cd "$root"
if [ "$status" -eq 5 ]; then
    echo "error: pytest collected no tests under qemu" >&2
    exit 1
fi
[ "$status" -eq 0 ] || { echo "error: pytest under qemu-aarch64 failed ($status)" >&2; exit 1; }

echo
echo "=== 4. musllinux wheels: loaded by musl's dynamic loader (no musl CPython to run them)"
musl_root="$work/musl-root"
mkdir -p "$work/musl-debs" "$musl_root"
(cd "$work/musl-debs" && apt-get download musl:amd64 musl:arm64)
for deb in "$work/musl-debs"/*.deb; do dpkg-deb -x "$deb" "$musl_root"; done
for wheel in "$dir"/*-musllinux_*.whl; do
    case "$wheel" in
    *_x86_64.whl) arch=x86_64 run=("$musl_root/lib/ld-musl-x86_64.so.1") ;;
    *_aarch64.whl) arch=aarch64 run=(qemu-aarch64 -L "$musl_root") ;;
    esac
    so="$work/musl-$arch.so"
    unzip -p "$wheel" 'mldsa_rs/_native.abi3.so' >"$so"
    host="$work/musl-host-$arch"
    {
        echo '#include <dlfcn.h>'
        echo '#include <stdio.h>'
        # Placeholders for the interpreter's symbols: only their addresses are needed.
        readelf --dyn-syms -W "$so" | awk '$7 == "UND" && $8 ~ /^_?Py/ { sub(/@.*/, "", $8); print "char " $8 "[256];" }' | sort -u
        cat <<'C'
int main(int argc, char **argv) {
    (void)argc;
    void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!h) { fprintf(stderr, "dlopen: %s\n", dlerror()); return 1; }
    if (!dlsym(h, "PyInit__native")) { fprintf(stderr, "dlsym: %s\n", dlerror()); return 1; }
    printf("# %s: loaded by musl, every relocation resolved, PyInit__native found\n", argv[2]);
    return 0;
}
C
    } >"$host.c"
    "$tools/bin/python" -m ziglang cc -target "$arch-linux-musl" -dynamic -rdynamic -O1 -o "$host" "$host.c"
    "${run[@]}" "$host" "$so" "$(basename "$wheel")"
done
echo "all checks passed"
