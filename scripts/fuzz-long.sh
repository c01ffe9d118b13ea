#!/usr/bin/env bash
# FZ-1 long runs (reported, not in CI): fuzz each named target until it has had the given number
# of CPU seconds, on a scratch copy of its committed corpus, then merge what the run found back
# into fuzz/corpus/<target>/ (libFuzzer's -merge=1 adds only inputs that add coverage), and append
# one line per target to the log: date, commit, wall and CPU seconds, executions, crashes.
#
#   scripts/fuzz-long.sh CPU_SECONDS TARGET [TARGET ...]
#   e.g. nice -n 19 scripts/fuzz-long.sh 3600 verify sig_decode
#
# The budget is CPU time, not wall time: libFuzzer only knows wall time (-max_total_time), so on a
# shared machine the target is run again, on the same growing corpus, for the CPU seconds still
# missing until the budget is spent. CPU seconds come from the fuzzing process's own accounting
# (user + system), so a run that shared the machine is not over-reported. Exits non-zero if any
# target crashed; the input is left in fuzz/artifacts/<target>/. Log: fuzz/long-runs.log
# (committed with the corpus).
set -euo pipefail

secs="${1:?usage: $0 CPU_SECONDS TARGET [TARGET ...]}"
shift
[ $# -gt 0 ] || { echo "usage: $0 CPU_SECONDS TARGET [TARGET ...]" >&2; exit 2; }

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
# The same per-target input limits as the smoke run.
max_len() {
    case "$1" in
    sig_decode) echo 4700 ;; pk_decode) echo 2700 ;; sk_decode) echo 5000 ;;
    hint_roundtrip) echo 512 ;; sign_roundtrip) echo 1024 ;;
    *) echo 8192 ;;
    esac
}

# As in fuzz-smoke.sh: backend_diff needs `mldsa::ct_kernels` (a no-op for the other targets).
export RUSTFLAGS="${RUSTFLAGS:+$RUSTFLAGS }--cfg mldsa_ct"
cargo +nightly fuzz build
commit="$(git rev-parse --short HEAD)"
work="$(mktemp -d "${TMPDIR:-/tmp}/fuzz-long.XXXXXX")"
trap 'rm -rf "$work"' EXIT
status=0
for t in "$@"; do
    corpus="$work/$t"
    mkdir -p "$corpus"
    cp -R "fuzz/corpus/$t/." "$corpus/" 2>/dev/null || true
    before="$(find "fuzz/corpus/$t" -type f 2>/dev/null | wc -l)"
    log="$work/$t.log"
    echo "fuzz-long: $t for ${secs} CPU-s"
    rc=0 cpu=0 runs=0 start=$SECONDS
    while [ "$cpu" -lt "$secs" ]; do
        # At least a minute per round, so that a starved machine cannot make this spin.
        left=$((secs - cpu)); [ "$left" -ge 60 ] || left=60
        /usr/bin/time -f '%U %S' -o "$work/$t.time" \
            cargo +nightly fuzz run "$t" "$corpus" -- -max_total_time="$left" \
            -max_len="$(max_len "$t")" -timeout=30 -print_final_stats=1 >"$log" 2>&1 || rc=$?
        round_runs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)"
        runs=$((runs + ${round_runs:-0}))
        cpu=$((cpu + $(awk '{printf "%.0f", $1 + $2}' "$work/$t.time")))
        [ "$rc" -eq 0 ] || break
    done
    wall=$((SECONDS - start))
    if [ "$rc" -ne 0 ]; then
        status=1
        verdict="CRASH (exit $rc)"
        tail -n 40 "$log" >&2
    else
        verdict="0 crashes"
        # Keep what the run learned: libFuzzer's merge adds to the committed corpus only the
        # inputs that reach new coverage, and never removes the named, hand-made seeds.
        mkdir -p "fuzz/corpus/$t"
        cargo +nightly fuzz run "$t" "fuzz/corpus/$t" "$corpus" -- -merge=1 \
            -max_len="$(max_len "$t")" >/dev/null 2>&1 || true
    fi
    after="$(find "fuzz/corpus/$t" -type f | wc -l)"
    line="$(date -u +%F) $commit $t wall=${wall}s cpu=${cpu}s runs=${runs} corpus=${before}->${after} $verdict"
    echo "$line" | tee -a fuzz/long-runs.log
done
exit $status
