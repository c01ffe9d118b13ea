#!/usr/bin/env bash
# Constant-time checks of the compiled library, at each optimisation level given:
#  - constant flow (valgrind memcheck): keygen, signing and key import of every parameter set run
#    with their secrets marked undefined; any branch or address that depends on a secret is an
#    error. A canary with a planted secret branch and secret-indexed load must be caught, which
#    proves the harness can fail.
#  - no variable-latency instructions: no div/idiv/sqrt in any mldsa function, except the
#    reviewed allow-list below (divisions on public lengths).
#
# Usage: scripts/ct-check.sh [OPT_LEVEL ...]   (default: 3 z; try 0 1 2 3 s z)
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v valgrind >/dev/null; then
    echo "valgrind not found; installing it from Debian's packages"
    (apt-get update -qq && apt-get install -y -qq valgrind) >/dev/null
fi

levels=("$@")
[ ${#levels[@]} -gt 0 ] || levels=(3 z)
export RUSTFLAGS="--cfg mldsa_ct"
# Functions allowed to divide: only public values flow into them.
ALLOW='mldsa::pkix::'   # DER lengths and OID arcs of public document structure
status=0
for level in "${levels[@]}"; do
    echo "--- opt-level $level"
    CARGO_PROFILE_CT_OPT_LEVEL=$level cargo build -q --profile ct -p ct-harness
    log=$(mktemp)
    # Both backends: the fastest one the CPU has (AVX2 here; valgrind emulates it) and the
    # portable one, forced through the environment.
    for backend in auto portable; do
        if MLDSA_BACKEND=$backend valgrind -q --error-exitcode=1 --log-file="$log" target/ct/ct-harness; then
            echo "constant-flow ($backend backend): 0 memcheck errors at opt-level $level"
        else
            echo "constant-flow ($backend backend): FAILED at opt-level $level:"
            cat "$log"
            status=1
        fi
    done
    if valgrind -q --error-exitcode=1 --log-file="$log" target/ct/ct-canary >/dev/null; then
        echo "canary: NOT detected at opt-level $level (the harness is blind)"
        status=1
    else
        echo "canary: detected ($(grep -cE 'Conditional jump|uninitialised value of size' "$log") reports), as it must be"
    fi
    rm -f "$log"
    divs=$(objdump -d --no-show-raw-insn -C target/ct/ct-harness | awk '
        /^[0-9a-f]+ <.*>:$/ { fn=$0; sub(/^[0-9a-f]+ </,"",fn); sub(/>:$/,"",fn); next }
        $0 ~ /\t(div|idiv)[bwlq]?[ \t]|\t(v?divs[sd]|v?divp[sd]|v?sqrt[sp][sd])[ \t]/ { hits[fn]++ }
        END { for (f in hits) printf "%4d  %s\n", hits[f], f }' | grep 'mldsa::' | grep -v "$ALLOW" || true)
    if [ -n "$divs" ]; then
        echo "variable-latency instructions in mldsa at opt-level $level:"
        echo "$divs"
        status=1
    else
        echo "div scan: no div/idiv/sqrt in mldsa functions at opt-level $level (allow-list: $ALLOW)"
    fi
done
exit $status
