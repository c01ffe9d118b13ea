#!/usr/bin/env bash
# Boundary overhead in time: ML-DSA-65 deterministic sign and verify through the C ABI
# (bench/boundary.c against the release libmldsa) and through the Rust API
# (examples/rust_api_timing.rs), same operations, same timing method, pinned to one CPU and
# alternated REPEATS times. Wall-clock: noisy on a shared machine; bench/boundary_ir.sh counts
# instructions instead and is the repeatable figure. Not part of CI.
# usage: bash crates/mldsa-ffi/bench/boundary.sh [ITERATIONS_PER_BATCH [REPEATS [CPU]]]
set -euo pipefail
cd "$(dirname "$0")/../../.."
n=${1:-200}
repeats=${2:-5}
cpu=${3:-1}
cargo build -q -p mldsa-ffi --release --example rust_api_timing
# The C library alone, as run.sh and install.sh build it (with the rlib it gets no LTO).
cargo rustc -q -p mldsa-ffi --release --lib --crate-type cdylib,staticlib
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
gcc -std=c11 -O2 -Icrates/mldsa-ffi/include crates/mldsa-ffi/bench/boundary.c \
    target/release/libmldsa.so -Wl,-rpath,"$PWD/target/release" -o "$work/boundary"
ln -sf libmldsa.so target/release/libmldsa.so.0
for _ in $(seq "$repeats"); do
    taskset -c "$cpu" "$work/boundary" "$n"
    taskset -c "$cpu" target/release/examples/rust_api_timing "$n"
done
