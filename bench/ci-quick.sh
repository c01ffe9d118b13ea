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

# A tripwire on code shape, not on time: in this native build, the eight-way Keccak's scalar
# ninth lane (`f1600x9`, a third of key generation on AVX-512) must stay scalar. With one round
# per loop iteration LLVM's SLP vectorizer turned it into vector code that moves lanes to and
# from general-purpose registers (vpextrq, vmovq, vinserti128), and key generation took 45 %
# longer (stop 49, Zen 4). A toolchain update could do the same to today's two rounds. Only
# where the CPU has AVX-512, the only place f1600x9 runs (and the tuning it was checked under).
if [ "$(uname -m)" = x86_64 ] && grep -qw avx512f /proc/cpuinfo; then
    f1600x9=$(objdump -d --no-show-raw-insn -C target/release/mldsa-bench |
        awk '/^[0-9a-f]+ <[^>]*keccak8x::f1600x9[^>]*>:$/ { p = 1; next } /^[0-9a-f]+ <.*>:$/ { p = 0 } p')
    if [ -z "$f1600x9" ]; then
        echo "ci-quick: no keccak8x::f1600x9 in the benchmark binary (renamed or inlined?): update this check" >&2
        exit 1
    fi
    vectorized=$(echo "$f1600x9" | grep -cE 'vpextrq|vmovq[[:space:]]+%xmm[0-9]+,%r|vinserti128' || true)
    if [ "$vectorized" -gt 0 ]; then
        echo "ci-quick: f1600x9's scalar lane was vectorized ($vectorized vector/scalar moves):" \
            "key generation slows by about 45 % on AVX-512 (see the comment on f1600x9)" >&2
        exit 1
    fi
    echo "ci-quick: f1600x9's ninth lane is scalar ($(echo "$f1600x9" | wc -l) lines, no vector/scalar moves)"
fi
cargo run --release --locked -- --quick --json "$out/quick.json" >"$out/quick.md"
done_at=$SECONDS

test -s "$out/quick.md" && test -s "$out/quick.json"
cat "$out/quick.md"
echo
echo "ci-quick: build $((built - start)) s, quick run $((done_at - built)) s; report in $out/quick.md and $out/quick.json"
