#!/usr/bin/env bash
# Miri (M-1): runs the library's unit tests under Miri, the Rust interpreter that detects
# undefined behaviour (out-of-bounds or unaligned accesses, use of uninitialised memory,
# invalid pointer arithmetic, data races, calling AVX2 code without AVX2, ...).
#
# Two configurations:
#   portable  `cargo +nightly miri test -p mldsa --lib`: the portable core. Without AVX2 compiled
#             in, Miri also checks that run-time dispatch never calls an AVX2 kernel (it stops
#             with "calling a function that requires unavailable target features").
#   avx2      the same with RUSTFLAGS="-C target-feature=+avx2": the AVX2 backend is selected
#             and its kernels' unit tests run, so every unaligned load/store and pointer offset
#             in src/backend/x86_64/ is checked.
# MIRIFLAGS: -Zmiri-strict-provenance (no integer-to-pointer casts in the SIMD pointer code).
#
# Exhaustive or long tests are ignored (#[cfg_attr(miri, ignore = "...")]) or shrunk
# (`if cfg!(miri)`) under Miri; they run natively in `cargo test`. Measured 2026-11-25 on a
# 2-vCPU VM with one other job running (see SECURITY.md, "Miri"): portable 6.5 min, avx2 38 min
# (the AVX2 kernel tests; their portable reference dominates). Under heavy load, double that.
#
# Usage: bash scripts/miri.sh [portable|avx2|all]   (default: all)
#        extra arguments after the configuration go to the test harness, e.g.
#        bash scripts/miri.sh avx2 backend::x86_64::avx2::arith
# Not in CI (too slow); run it after touching unsafe code or the AVX2 backend.
set -euo pipefail
cd "$(dirname "$0")/.."

which_config=${1:-all}
shift || true

if ! cargo +nightly miri --version >/dev/null 2>&1; then
    rustup +nightly component add miri rust-src
fi

export MIRIFLAGS="${MIRIFLAGS:--Zmiri-strict-provenance}"

run() {
    local name=$1
    shift
    echo "=== Miri, $name configuration (MIRIFLAGS=$MIRIFLAGS${RUSTFLAGS:+, RUSTFLAGS=$RUSTFLAGS}) ==="
    local start=$SECONDS
    nice -n 15 cargo +nightly miri test -p mldsa --lib -- "$@"
    echo "=== $name: $((SECONDS - start)) s ==="
}

# MIRI_WHOLE=1 also runs the one whole-operation unit test (keygen, three signatures, two
# verifications, ML-DSA-65, through the backend dispatch), ignored under Miri by default.
if [ "${MIRI_WHOLE:-0}" = 1 ]; then
    set -- --include-ignored verify_after_sign "$@"
fi

case $which_config in
portable | all) RUSTFLAGS="" run portable "$@" ;;&
avx2 | all)
    # A separate target dir: Miri rebuilds everything for other RUSTFLAGS anyway, and this keeps
    # the two configurations from invalidating each other's build.
    RUSTFLAGS="-C target-feature=+avx2" CARGO_TARGET_DIR=target/miri-avx2 run avx2 "$@"
    ;;
portable) ;;
*)
    echo "usage: $0 [portable|avx2|all] [test filter...]" >&2
    exit 2
    ;;
esac
