#!/usr/bin/env bash
# Boundary overhead: ML-DSA-65 sign and verify through the C ABI (bench/boundary.c against the
# release libmldsa) and through the Rust API (examples/rust_api_timing.rs), same operations,
# same timing method. Run on a quiet machine; not part of CI.
# usage: bash crates/mldsa-ffi/bench/boundary.sh [ITERATIONS_PER_BATCH]
set -euo pipefail
cd "$(dirname "$0")/../../.."
n=${1:-200}
cargo build -q -p mldsa-ffi --release --example rust_api_timing
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
gcc -std=c11 -O2 -Icrates/mldsa-ffi/include crates/mldsa-ffi/bench/boundary.c \
    target/release/libmldsa.so -Wl,-rpath,"$PWD/target/release" -o "$work/boundary"
ln -sf libmldsa.so target/release/libmldsa.so.0
for _ in 1 2; do
    "$work/boundary" "$n"
    target/release/examples/rust_api_timing "$n"
done
