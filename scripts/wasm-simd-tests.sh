#!/usr/bin/env bash
# The simd128 backend's unit tests (src/backend/wasm32/tests.rs: every kernel against the
# portable one), run where they can: the lib tests are built for wasm32-wasip1 with simd128 and
# the test binary runs under Node's WASI. Only the tests under `backend::` run (FILTER to
# change that): WASI has no threads, which some other lib tests use.
#
# Usage: bash scripts/wasm-simd-tests.sh [FILTER]   (needs Node >= 20; installs the target)
set -euo pipefail
cd "$(dirname "$0")/.."
filter="${1:-backend::}"
rustup target add wasm32-wasip1 >/dev/null
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-target/wasip1-simd}"
export RUSTFLAGS="${RUSTFLAGS:-} -C target-feature=+simd128"
wasm=$(cargo test -p mldsa --lib --target wasm32-wasip1 --no-run --message-format=json |
  node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{for(const l of s.split("\n")){try{const m=JSON.parse(l);if(m.profile&&m.profile.test&&m.executable)console.log(m.executable)}catch{}}})')
[ -n "$wasm" ] || { echo "no test binary built" >&2; exit 1; }
node --experimental-wasi-unstable-preview1 --no-warnings scripts/wasi-run.mjs "$wasm" "$filter" --test-threads=1
