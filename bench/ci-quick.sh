#!/usr/bin/env bash
# CI smoke run of the benchmark, so that it cannot rot: installs what the peers' build scripts
# need, builds, and runs `--quick`, writing the report to a temporary directory (never over
# bench/results/latest.*, which hold the reference run). Fails if the build or the run fails.
#
#   bash bench/ci-quick.sh            # report in a fresh mktemp directory
#   BENCH_OUT=DIR bash bench/ci-quick.sh
#
# Numbers from CI are not results: the machine is shared and --quick takes few samples.
set -euo pipefail
# From bench/, so that cargo applies bench/.cargo/config.toml (native flags; build.rs checks).
cd "$(dirname "$0")"

# bindgen (mldsa-native-rs, oqs-sys) needs libclang; liboqs builds with CMake.
missing=()
for pkg in libclang-dev cmake; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$pkg")
    fi
done
if [ "${#missing[@]}" -gt 0 ]; then
    echo "ci-quick: installing ${missing[*]}"
    sudo=()
    [ "$(id -u)" -eq 0 ] || sudo=(sudo)
    export DEBIAN_FRONTEND=noninteractive
    "${sudo[@]}" apt-get update -qq
    "${sudo[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
fi

out="${BENCH_OUT:-$(mktemp -d -t mldsa-bench.XXXXXX)}"
mkdir -p "$out"

# --locked: CI must build exactly the pinned versions of Cargo.lock.
start=$SECONDS
cargo build --release --locked
built=$SECONDS
cargo run --release --locked -- --quick --json "$out/quick.json" >"$out/quick.md"
done_at=$SECONDS

test -s "$out/quick.md" && test -s "$out/quick.json"
cat "$out/quick.md"
echo
echo "ci-quick: build $((built - start)) s, quick run $((done_at - built)) s; report in $out/quick.md and $out/quick.json"
