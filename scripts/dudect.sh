#!/usr/bin/env bash
# Statistical timing tests (dudect; issue #6 CT-4) of the secret primitives on every backend this
# CPU can run (crates/dudect): NTT, NTT^-1, MultiplyNTT, HighBits, the LowBits (r0) check,
# MakeHint, the z and c t0 norm checks, Power2Round, skDecode, SHAKE256, ExpandMask and ExpandS,
# plus an A/A control of the harness and a leaky canary.
#
# Prints a table (bench | backend | n | max |t|) and fails if any real bench (or the A/A control)
# reaches |t| >= 10, or if the canary (an early-exit comparison) does not exceed |t| > 100, which
# would mean the harness cannot see a leak.
#
# Usage: scripts/dudect.sh [MEASUREMENTS]   (default 100000 per bench: about 40 s of
#        measuring on a loaded 2-core machine, plus the build and a few seconds making
#        ExpandS's inputs, a fresh rho' per measurement. 10^5 is a smoke test; for a report use
#        1000000 or more (ExpandS's inputs then take about 2 minutes), or `--continuous NAME`
#        on the binary under `timeout`.)
set -euo pipefail
cd "$(dirname "$0")/.."

n=${1:-100000}
case $n in
    '' | *[!0-9]*) echo "usage: $0 [MEASUREMENTS]" >&2; exit 2 ;;
esac

export RUSTFLAGS="--cfg mldsa_ct"
# A target directory of its own: the cfg changes every crate's fingerprint, so sharing target/
# with the ordinary (or the ct-check) builds would make each rebuild the other's artefacts.
export CARGO_TARGET_DIR=${DUDECT_TARGET_DIR:-target/dudect}
cargo build -q --release -p dudect
bin=$CARGO_TARGET_DIR/release/dudect

out=$(mktemp)
log=$(mktemp)
trap 'rm -f "$out" "$log"' EXIT
expected=$("$bin" --list)
start=$(date +%s)
if ! "$bin" "$n" >"$out" 2>"$log"; then
    echo "dudect: the bench binary failed:"
    cat "$log" "$out"
    exit 1
fi
elapsed=$(($(date +%s) - start))

# Result lines look like:
#   bench ntt.avx2   ... : n == +0.100M, max t = +1.23456, max tau = ..., (5/tau)^2 = ...
awk -v n="$n" -v expected="$expected" '
    BEGIN {
        count = split(expected, names, "\n")
        for (i = 1; i <= count; i++) want[names[i]] = 1
        printf "%-20s %-9s %9s %10s  %s\n", "bench", "backend", "n", "max |t|", "verdict"
        status = 0
    }
    /^bench .* \.\.\. : n == / {
        name = $2
        t = $0; sub(/.*max t = /, "", t); sub(/,.*/, "", t); t = t + 0; if (t < 0) t = -t
        split(name, part, ".")
        bench = part[1]; backend = part[2]
        if (backend == "none" || backend == "shared") backend = "-"
        if (bench == "canary") {
            verdict = (t > 100) ? "ok (leak seen, as it must be)" : "FAIL: canary not seen (harness blind)"
            if (t <= 100) status = 1
        } else {
            verdict = (t < 10) ? "ok" : "FAIL: |t| >= 10"
            if (t >= 10) status = 1
        }
        printf "%-20s %-9s %9d %10.2f  %s\n", bench, backend, n, t, verdict
        seen[name] = 1
    }
    END {
        for (name in want) if (!(name in seen)) { printf "%-30s FAIL: no result\n", name; status = 1 }
        exit status
    }
' "$out" && status=0 || status=$?

benches=$(grep -c "" <<<"$expected")
echo "$benches benches, $n measurements each, ${elapsed}s of measuring"
grep -E '^note|pairs of' "$log" || true
if [ "$status" -ne 0 ]; then
    echo "dudect: FAILED"
fi
exit "$status"
