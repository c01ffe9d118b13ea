#!/usr/bin/env bash
# FZ-1 smoke run: every cargo-fuzz target in fuzz/ for N seconds (default 60), each on a scratch
# copy of its committed seed corpus (fuzz/corpus/<target>/), so runs never grow the repository.
#
#   scripts/fuzz-smoke.sh [seconds]
#
# Needs the nightly toolchain (`cargo +nightly`, for -Zsanitizer=address and sancov); installs
# cargo-fuzz with `cargo install --locked cargo-fuzz` when it is missing. Exits non-zero if any
# target crashes, fails a property assertion, leaks, times out on one input, or does not run;
# the crashing input is left in fuzz/artifacts/<target>/ and named in the output. Per target it
# prints the execution count and rate from libFuzzer's final statistics.
#
# Environment: FUZZ_TARGETS="sig_decode verify" runs only those targets (one after the other).
set -euo pipefail

secs="${1:-60}"
case "$secs" in
'' | *[!0-9]*)
    echo "usage: $0 [seconds]" >&2
    exit 2
    ;;
esac

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

if ! cargo +nightly --version >/dev/null 2>&1; then
    echo "fuzz-smoke: installing the nightly toolchain (cargo-fuzz needs it)" >&2
    rustup toolchain install nightly --profile minimal
fi
if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "fuzz-smoke: installing cargo-fuzz" >&2
    cargo install --locked cargo-fuzz
fi

# Longest input each target is given: a little over its largest meaningful input
# (ML-DSA-87 signature / key / PEM document plus the selector bytes).
max_len() {
    case "$1" in
    sig_decode) echo 4700 ;;
    pk_decode) echo 2700 ;;
    sk_decode) echo 5000 ;;
    verify) echo 8192 ;;
    hint_roundtrip) echo 512 ;;
    sign_roundtrip) echo 1024 ;;
    pkix_parse) echo 8192 ;;
    # Kernel, set and parameter bytes, then coefficient material read cyclically: 1 KiB is one
    # polynomial of fresh coefficients, 4 KiB a vector of four.
    backend_diff) echo 4096 ;;
    # Selector, operation, then up to three pieces (ML-DSA-87 signature plus message).
    c_abi) echo 10000 ;;
    *) echo 4096 ;;
    esac
}

targets="${FUZZ_TARGETS:-$(cargo +nightly fuzz list)}"
if [ -z "$targets" ]; then
    echo "fuzz-smoke: no fuzz targets found" >&2
    exit 1
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/fuzz-smoke.XXXXXX")"
trap 'rm -rf "$work"' EXIT

# backend_diff reaches the kernels of both backends through `mldsa::ct_kernels`, which exists
# only with this cfg (a no-op for the other targets). cargo-fuzz appends RUSTFLAGS to its own.
export RUSTFLAGS="${RUSTFLAGS:+$RUSTFLAGS }--cfg mldsa_ct"

echo "fuzz-smoke: building targets"
cargo +nightly fuzz build

failed=()
summary=()
for t in $targets; do
    corpus="$work/corpus/$t"
    mkdir -p "$corpus"
    if [ -d "fuzz/corpus/$t" ]; then
        cp -R "fuzz/corpus/$t/." "$corpus/"
    fi
    log="$work/$t.log"
    echo "fuzz-smoke: $t for ${secs}s ($(find "$corpus" -type f | wc -l) seed inputs)"
    status=0
    cargo +nightly fuzz run "$t" "$corpus" -- \
        -max_total_time="$secs" -max_len="$(max_len "$t")" -timeout=30 \
        -print_final_stats=1 >"$log" 2>&1 || status=$?
    runs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)"
    rate="$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)"
    if [ "$status" -ne 0 ]; then
        failed+=("$t")
        echo "fuzz-smoke: $t FAILED (exit $status); last lines of its log:" >&2
        tail -n 40 "$log" >&2
        summary+=("$t: FAILED")
    else
        summary+=("$t: ok, ${runs:-?} runs, ${rate:-?} exec/s")
    fi
done

echo "fuzz-smoke summary (${secs}s per target):"
printf '  %s\n' "${summary[@]}"
if [ "${#failed[@]}" -ne 0 ]; then
    echo "fuzz-smoke: ${#failed[@]} target(s) failed: ${failed[*]} (inputs in fuzz/artifacts/)" >&2
    exit 1
fi
