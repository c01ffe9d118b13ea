#!/usr/bin/env bash
# Boundary overhead in instructions (repeatable on a loaded machine, unlike a timing): keygen
# from a seed, deterministic sign and verify of ML-DSA-44/65/87 through the C ABI
# (bench/boundary_ops.c against the release libmldsa.so) and through the Rust API
# (examples/rust_api_ops.rs), same build, same inputs. Each is run under callgrind with LO and
# HI repetitions; (Ir(HI) - Ir(LO)) / (HI - LO) is the cost of one operation, start-up and
# set-up cancelled. Prints one line per operation and the C ABI's overhead in per cent.
# Not part of CI (about 2 minutes); see SECURITY.md, "C ABI".
# usage: bash crates/mldsa-ffi/bench/boundary_ir.sh [LO HI]   (default 2 10)
set -euo pipefail
cd "$(dirname "$0")/../../.."
lo=${1:-2}
hi=${2:-10}
rel=${CARGO_TARGET_DIR:-target}/release
cargo build -q -p mldsa-ffi --release --example rust_api_ops
# The C library as run.sh and install.sh build it: cdylib and staticlib only, so that LTO
# applies (see pkg/install.sh).
cargo rustc -q -p mldsa-ffi --release --lib --crate-type cdylib,staticlib
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ln -sf libmldsa.so "$rel/libmldsa.so.0"
gcc -std=c11 -O2 -Wall -Wextra -Werror -Icrates/mldsa-ffi/include \
    crates/mldsa-ffi/bench/boundary_ops.c "$rel/libmldsa.so" \
    -Wl,-rpath,"$(cd "$rel" && pwd)" -o "$work/c_abi"
cp "$rel/examples/rust_api_ops" "$work/rust_api"

# ir PROGRAM OP SET N: total instructions of one run.
ir() {
    valgrind -q --tool=callgrind --callgrind-out-file="$work/cg.out" "$work/$1" "$2" "$3" "$4" \
        >/dev/null
    sed -n 's/^totals: *\([0-9]*\).*/\1/p' "$work/cg.out"
}
echo "instructions per operation (callgrind, ($hi - $lo) repetitions), backend as detected:"
printf '%-8s %-6s %12s %12s %9s\n' set op "C ABI" "Rust API" overhead
for set in 44 65 87; do
    for op in keygen sign verify; do
        c=$(( ($(ir c_abi $op $set "$hi") - $(ir c_abi $op $set "$lo")) / (hi - lo) ))
        r=$(( ($(ir rust_api $op $set "$hi") - $(ir rust_api $op $set "$lo")) / (hi - lo) ))
        printf '%-8s %-6s %12d %12d %8s%%\n' "ML-DSA-$set" $op "$c" "$r" \
            "$(awk -v c="$c" -v r="$r" 'BEGIN { printf "%+.3f", 100 * (c - r) / r }')"
    done
done
