#!/usr/bin/env bash
# Installs a built libmldsa (target/release) into PREFIX: lib/libmldsa.so.0 (soname) with the
# libmldsa.so link, lib/libmldsa.a, the headers, lib/pkgconfig/mldsa.pc and
# lib/cmake/mldsa/mldsa-config.cmake. (cargo-c's `cargo cinstall` does the same from the crate's
# [package.metadata.capi], checked by pkg/cinstall-check.sh; but its Debian 12 package is too
# old for this workspace and building it from crates.io takes 20 minutes of CPU, far more than
# CI can spend, so CI and the test command install with the few steps written out here.)
# usage: install.sh PREFIX   (run from the repository root after
#        `cargo rustc -p mldsa-ffi --release --lib --crate-type cdylib,staticlib`: a plain
#        `cargo build` also emits the rlib, and cargo then links the C libraries without LTO)
set -euo pipefail
PREFIX=$(mkdir -p "${1:?usage: install.sh PREFIX}" && cd "$1" && pwd)
CRATE=crates/mldsa-ffi
VERSION=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -1)
install -d "$PREFIX/lib/pkgconfig" "$PREFIX/lib/cmake/mldsa" \
    "$PREFIX/include/mldsa/ref-fips204/nested" "$PREFIX/include/mldsa/ref-round3/nested"
install -m 755 target/release/libmldsa.so "$PREFIX/lib/libmldsa.so.0"
ln -sf libmldsa.so.0 "$PREFIX/lib/libmldsa.so"
install -m 644 target/release/libmldsa.a "$PREFIX/lib/libmldsa.a"
install -m 644 "$CRATE/include/mldsa.h" "$CRATE/include/mldsa.hpp" "$PREFIX/include/"
for d in mldsa/ref-fips204 mldsa/ref-round3; do # the drop-ins: api.h, sign.h, nested/{api,sign}.h
    install -m 644 "$CRATE/include/$d/api.h" "$CRATE/include/$d/sign.h" "$PREFIX/include/$d/"
    install -m 644 "$CRATE/include/$d/nested/api.h" "$CRATE/include/$d/nested/sign.h" \
        "$PREFIX/include/$d/nested/"
done
sed -e "s|@PREFIX@|$PREFIX|" -e "s|@VERSION@|$VERSION|" "$CRATE/pkg/mldsa.pc.in" \
    >"$PREFIX/lib/pkgconfig/mldsa.pc"
install -m 644 "$CRATE/pkg/mldsa-config.cmake" "$PREFIX/lib/cmake/mldsa/"
echo "installed libmldsa $VERSION into $PREFIX"
