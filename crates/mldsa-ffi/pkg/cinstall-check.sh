#!/usr/bin/env bash
# Checks the cargo-c route (`cargo cinstall`, from [package.metadata.capi] in ../Cargo.toml)
# against pkg/install.sh, which CI uses: both install into temporary prefixes, the file lists
# must agree (apart from the CMake package's directory, lib/cmake for install.sh and
# share/cmake for cargo-c, both searched by find_package, and cargo-c's fully versioned
# libmldsa.so.0.1.0 behind the links), the libraries must have the soname libmldsa.so.0 and
# export the same symbols, and the C example (pkg-config) and the C++ example (CMake) must
# build and run against the cargo-c install. Not part of CI: cargo-c has to be installed
# first (`cargo install cargo-c --version 0.10.24 --locked`, the newest that builds with
# Rust 1.95; a cold build takes 20 minutes of CPU).
#
#   bash crates/mldsa-ffi/pkg/cinstall-check.sh      # from the repository root
set -euo pipefail
cd "$(dirname "$0")/../../.."
command -v cargo-cinstall >/dev/null || {
    echo "cargo-c is not installed (cargo install cargo-c --version 0.10.24 --locked)" >&2
    exit 2
}
work=$(mktemp -d "${TMPDIR:-/tmp}/cinstall-check.XXXXXX")
trap 'rm -rf "$work"' EXIT
ex=crates/mldsa-ffi/examples

echo "# cargo cinstall"
cargo cinstall -p mldsa-ffi --release --prefix="$work/capi" --libdir=lib \
    --target-dir="$work/target" >"$work/cinstall.log" 2>&1 || { tail -20 "$work/cinstall.log"; exit 1; }
echo "# pkg/install.sh"
# As the C suite builds it (the C libraries alone, so with LTO), into target/release.
cargo rustc -q -p mldsa-ffi --release --lib --crate-type cdylib,staticlib
bash crates/mldsa-ffi/pkg/install.sh "$work/script" >/dev/null

list() { (cd "$1" && find . -type f -o -type l | sed 's|/lib/cmake/|/CMAKE/|; s|/share/cmake/|/CMAKE/|' |
    grep -v 'libmldsa\.so\.0\.[0-9]*\.[0-9]*$' | sort); }
diff <(list "$work/script") <(list "$work/capi") || { echo "FAIL: the file lists differ" >&2; exit 1; }
echo "same files: $(list "$work/capi" | wc -l)"
for p in script capi; do
    readelf -d "$work/$p/lib/libmldsa.so.0" | grep -q 'SONAME.*\[libmldsa\.so\.0\]'
    nm -D --defined-only "$work/$p/lib/libmldsa.so.0" | awk '$2 == "T" {print $3}' | sort >"$work/$p.syms"
done
diff "$work/script.syms" "$work/capi.syms" || { echo "FAIL: the exported symbols differ" >&2; exit 1; }
echo "same exported symbols: $(wc -l <"$work/capi.syms"), soname libmldsa.so.0"

flags=$(PKG_CONFIG_PATH="$work/capi/lib/pkgconfig" pkg-config --cflags --libs mldsa)
gcc -std=c99 -Wall -Wextra -Werror -pedantic "$ex/c/sign_verify.c" $flags \
    -Wl,-rpath,"$work/capi/lib" -o "$work/example_c"
"$work/example_c"
cmake -S "$ex/cpp" -B "$work/cpp" -DCMAKE_PREFIX_PATH="$work/capi" -DCMAKE_BUILD_TYPE=Release \
    >"$work/cmake.log" 2>&1 && cmake --build "$work/cpp" >>"$work/cmake.log" 2>&1 ||
    { tail -20 "$work/cmake.log"; exit 1; }
"$work/cpp/mldsa_cpp_example"
echo "cargo cinstall: ok"
