#!/usr/bin/env bash
# Constant-time checks of the compiled library, at each optimisation level given:
#  - constant flow (valgrind memcheck, CT-1/CT-2): keygen, signing and key import of every
#    parameter set run with their secrets marked undefined, on both backends, through the Rust
#    API (crates/ct-harness) and through the C ABI (crates/mldsa-ffi/tests/c/ct_abi.c); any
#    branch or address that depends on a secret is an error. A canary with a planted secret branch and
#    secret-indexed load must be caught, which proves the harness can fail.
#  - no variable-latency instructions (CT-3): no div/idiv/sqrt in any mldsa function *or in any
#    function they call* (directly, e.g. a core helper that the optimiser did not inline, as at
#    opt-level 0), except the reviewed allow-list below (divisions on public lengths).
#  - the AVX-512 kernels, which valgrind cannot run (it hides AVX-512 from the program, so the
#    constant-flow runs above take the AVX2 path): a static scan of their machine code finds no
#    instruction that moves vector data into a general-purpose register or the flags (vmovd,
#    vmovq, vpextr*, kmov*, vpmovmskb, vmovmskp*, vptest, ktest, kortest, vcomis, vucomis) and no
#    gather or scatter, in them or in the intrinsics and backend helpers they call (at opt-level
#    0 the intrinsics are functions of their own). So no secret they hold reaches a branch or an
#    address directly. (A value stored to memory and loaded back into a general-purpose register
#    would not show; the kernels load no coefficient that way: SECURITY.md.) The same matcher must
#    find such instructions in a control (the AVX2 r0 check, whose verdict is declassified), or
#    the scan is blind.
#  - AArch64 (`--aarch64`; valgrind cannot run AArch64 code here): the harness cross-built for
#    aarch64-unknown-linux-gnu, where the NEON backend is the default. The div scan (CT-3) above
#    on its machine code (aarch64-linux-gnu-objdump; sdiv, udiv, fdiv, fsqrt and the reciprocal
#    estimates), an assertion; the harness run under qemu must report the NEON backend; and a
#    review report of the NEON backend's functions (every function whose demangled name has
#    `backend::aarch64::` in it: defined there, or an operation monomorphised for `Neon`, which
#    is where LTO inlines the kernels), counting per function the conditional branches, the
#    table lookups (tbl, tbx), the register-indexed loads and the moves from vector to general-
#    purpose registers, each beside the same counts for its portable twin (the same function
#    monomorphised for `Portable`), so what the NEON code adds stands out. Those counts are for
#    review, not verdicts: loop counters and public rejection outcomes branch legitimately
#    (SECURITY.md says what is and is not covered).
#
# Usage:
#   scripts/ct-check.sh [OPT_LEVEL ...]              both checks (default levels: 3 z)
#   scripts/ct-check.sh --soft-aes [OPT_LEVEL ...]   the same, plus one valgrind run with the
#                                                     `aes` crate forced to software AES
#   scripts/ct-check.sh --scan-only [OPT_LEVEL ...]  the div scan alone (default: 0 1 2 3 s z);
#                                                     no valgrind needed
#   scripts/ct-check.sh --aarch64 [OPT_LEVEL ...]    the AArch64 scans (default: 3); installs the
#                                                     cross tools and qemu when missing (root)
# Levels: 0 1 2 3 s z. CI runs `3 z` in full and `--scan-only` at all six levels. Each level is
# one build of the harness (profile `ct`: release settings, debug info, no overflow checks)
# with CARGO_PROFILE_CT_OPT_LEVEL set; a build takes about 15 s (level 0) to 60 s (level 3).
set -euo pipefail
cd "$(dirname "$0")/.."

aarch64=0
if [ "${1:-}" = "--aarch64" ]; then
    aarch64=1
    shift
fi
scan_only=0
if [ "${1:-}" = "--scan-only" ]; then
    scan_only=1
    shift
fi
# --soft-aes: also run the constant-flow check once (opt-level 3, portable backend) on a build
# whose `aes` crate is forced to its software fallback (`--cfg aes_backend="soft"`, the fixsliced
# AES), since the default build runs AES-NI wherever the CPU has it. The Dilithium v3.1 AES sets
# key AES-256-CTR with secrets. Its own target dir (other RUSTFLAGS); about one more build.
soft_aes=0
if [ "${1:-}" = "--soft-aes" ]; then
    soft_aes=1
    shift
fi
levels=("$@")
if [ ${#levels[@]} -eq 0 ]; then
    if [ $aarch64 -eq 1 ]; then
        levels=(3)
    elif [ $scan_only -eq 1 ]; then levels=(0 1 2 3 s z); else levels=(3 z); fi
fi
for level in "${levels[@]}"; do
    case "$level" in
    0 | 1 | 2 | 3 | s | z) ;;
    *)
        echo "usage: $0 [--aarch64 | --scan-only | --soft-aes] [0|1|2|3|s|z ...]" >&2
        exit 2
        ;;
    esac
done

if [ $aarch64 -eq 0 ] && [ $scan_only -eq 0 ] && ! command -v valgrind >/dev/null; then
    echo "valgrind not found; installing it from Debian's packages"
    (apt-get update -qq && apt-get install -y -qq valgrind) >/dev/null
fi

export RUSTFLAGS="--cfg mldsa_ct"
# The backends to check, by the names the harness prints: AVX2 wherever the CPU has it.
if grep -qw avx2 /proc/cpuinfo 2>/dev/null; then
    want_backends="avx2 portable"
else
    echo "warning: this CPU has no AVX2; only the portable backend is checked" >&2
    want_backends="portable"
fi
# Functions allowed to divide: only public values flow into them. The scan neither starts from
# nor reports them.
ALLOW='mldsa::pkix::' # DER lengths and OID arcs of public document structure

# The call graph and instruction counts of a disassembly, for the scans below: an awk
# program prefix that records every function (all[f]), its direct calls and tail jumps
# (out[f, 1..n_out[f]]: instructions matching the regex in the awk variable `call`, CALL_INSN)
# and how many of its instructions match the regex in the awk variable `insn` (hits[f]). Each
# scan appends its own END block.
CALL_INSN='\t(call|jmp)q?[ \t]'
CALL_INSN_A64='\t(bl|b)[ \t]' # a `b` to another function is a tail jump
CALL_GRAPH_AWK='
    function callee(line,   s, i) {
        i = index(line, "<"); if (i == 0) return ""
        s = substr(line, i + 1); sub(/>[ \t]*$/, "", s)
        return s ~ /\+0x[0-9a-f]+$/ ? "" : s    # a jump inside a function is not a call
    }
    /^[0-9a-f]+ <.*>:$/ { fn = $0; sub(/^[0-9a-f]+ </, "", fn); sub(/>:$/, "", fn); all[fn] = 1; next }
    fn != "" && $0 ~ call {
        t = callee($0)
        if (t != "" && t != fn && !((fn, t) in edge)) { edge[fn, t] = 1; n_out[fn]++; out[fn, n_out[fn]] = t }
    }
    fn != "" && $0 ~ insn { hits[fn]++ }
'

# Integer division and square roots (whose timing depends on their operands).
DIV_INSN='\t(div|idiv)[bwlq]?[ \t]|\t(v?divs[sd]|v?divp[sd]|v?sqrt[sp][sd])[ \t]'

# Prints "count  function  <- caller" for every function that contains div/idiv/sqrt and is
# reachable, by direct calls and tail jumps, from an mldsa function outside the allow-list.
# Indirect calls (function pointers, vtables: formatting and panic messages) are not followed;
# no secret reaches them (Debug output of secret types is redacted, tests/adversarial/).
# AArch64 (--aarch64): the same scan with AArch64's divisions and square roots (scalar and
# vector forms share the mnemonics) and its calls; OBJDUMP and the two regexes are switched.
DIV_INSN_A64='\t(sdiv|udiv|fdiv|fsqrt|frecpe|frsqrte|urecpe|ursqrte)[ \t]'
OBJDUMP=objdump
div_scan() {
    $OBJDUMP -d --no-show-raw-insn -C "$1" | awk -v root='mldsa::' -v allow="$ALLOW" -v insn="$DIV_INSN" \
        -v call="$CALL_INSN" "$CALL_GRAPH_AWK"'
        END {
            n = 0
            for (f in all) if (index(f, root) && f !~ allow) { queue[++n] = f; from[f] = "(mldsa)" }
            for (i = 1; i <= n; i++) {
                f = queue[i]
                for (j = 1; j <= n_out[f]; j++) {
                    t = out[f, j]
                    if (!(t in from) && t !~ allow) { from[t] = f; queue[++n] = t }
                }
            }
            for (i = 1; i <= n; i++) if (queue[i] in hits) printf "%4d  %s  <- %s\n", hits[queue[i]], queue[i], from[queue[i]]
        }'
}

# The AVX-512 kernels by their (demangled) names, and the control the matcher must see through.
AVX512_KERNELS='f1600x4_avx512vl|keccak8x::f1600x[89]|::avx512::ntt::|::sparse::mul_[a-z0-9]+_512'
SCAN_CONTROL='mldsa::backend::x86_64::avx2::arith::low_bits_exceed'
# An instruction that moves vector or mask data where it could steer a branch or an address: to
# a general-purpose register or the flags; or a gather or scatter (vector-indexed memory).
LEAK_INSN='\t(vmov[dq]|vpextr[bwdq]|vextractps|kmov[bwdq]|vpmovmskb|vmovmskp[sd]|vcvtt?s[sd]2si)[ \t][^#]*,%[abcdersi][a-z0-9]*$|\t(vptest|vtestp[sd]|kortest[bwdq]|ktest[bwdq]|v?u?comis[sd])[ \t]|\tv(p)?(gather|scatter)'

# Prints "count  function" for each function matching $2: the instructions matching LEAK_INSN
# in it and in what it calls (directly, or by a tail jump) among the intrinsics and the AVX2
# backend's own functions. At opt-level 0 the intrinsics are not inlined: a kernel calls
# `core::core_arch::...::_mm512_...` functions, whose bodies hold the instructions.
leak_scan() {
    objdump -d --no-show-raw-insn -C "$1" | awk -v pat="$2" -v insn="$LEAK_INSN" -v call="$CALL_INSN" \
        -v follow='core::core_arch::|mldsa::backend::x86_64::' "$CALL_GRAPH_AWK"'
        END {
            for (f in all) {
                if (f !~ pat) continue
                n = 1; queue[1] = f; split("", seen); seen[f] = 1; total = 0
                for (i = 1; i <= n; i++) {
                    g = queue[i]; total += hits[g]
                    for (j = 1; j <= n_out[g]; j++) {
                        t = out[g, j]
                        if (!(t in seen) && t ~ follow) { seen[t] = 1; queue[++n] = t }
                    }
                }
                printf "%4d  %s\n", total, f
            }
        }'
}

# The AVX-512 scan: 0 if every AVX-512 kernel function is clean and the control is not.
avx512_scan() {
    local level=$1 kernels control dirty
    kernels=$(leak_scan target/ct/ct-harness "$AVX512_KERNELS")
    control=$(leak_scan target/ct/ct-harness "$SCAN_CONTROL")
    if [ -z "$kernels" ]; then
        echo "AVX-512 scan: no function matching '$AVX512_KERNELS' in the harness (renamed?)"
        return 1
    fi
    if ! echo "$control" | awk '$1 > 0 { found = 1 } END { exit !found }'; then
        echo "AVX-512 scan: the control $SCAN_CONTROL shows no vector-to-scalar move (the scan is blind)"
        return 1
    fi
    dirty=$(echo "$kernels" | awk '$1 > 0')
    if [ -n "$dirty" ]; then
        echo "AVX-512 scan: vector data reaches a scalar register, the flags or an address at opt-level $level:"
        echo "$dirty"
        return 1
    fi
    echo "AVX-512 scan: no vector-to-scalar move, gather or scatter in $(echo "$kernels" | wc -l) kernel functions at opt-level $level (the control shows $(echo "$control" | awk '{ n += $1 } END { print n }')): $(echo "$kernels" | awk '{ print $2 }' | sed 's/^mldsa::backend::x86_64:://' | sort | paste -sd ' ')"
}

# Constant flow through the C ABI (issue 16): libmldsa built like the harness (profile ct,
# --cfg mldsa_ct, the same opt-level), and crates/mldsa-ffi/tests/c/ct_abi.c, which marks the
# secrets undefined at the boundary as a C caller holds them, run under memcheck on both
# backends; its --canary run (a public key marked secret before verification) must be caught.
ct_abi() {
    local level=$1 backend out log start=$SECONDS ok=0 dir=target/ct/ct-abi
    # The cdylib alone, as tests/c/run.sh builds it: beside the rlib it would be linked without
    # LTO, i.e. not the code users get.
    CARGO_PROFILE_CT_OPT_LEVEL=$level cargo rustc -q --profile ct -p mldsa-ffi --lib \
        --crate-type cdylib || return 1
    mkdir -p "$dir"
    cp target/ct/libmldsa.so "$dir/libmldsa.so.0"
    ln -sf libmldsa.so.0 "$dir/libmldsa.so"
    gcc -std=c11 -O1 -g -Wall -Wextra -Werror -pedantic -Icrates/mldsa-ffi/include \
        -Icrates/mldsa-ffi/tests/c crates/mldsa-ffi/tests/c/ct_abi.c -L"$dir" -lmldsa \
        -Wl,-rpath,"$PWD/$dir" -o "$dir/ct_abi" || return 1
    log=$(mktemp)
    out=$(mktemp)
    for backend in $want_backends; do
        if MLDSA_BACKEND=$backend valgrind -q --error-exitcode=1 --log-file="$log" \
            "$dir/ct_abi" >"$out" && grep -qx "backend: $backend" "$out"; then
            echo "constant-flow through the C ABI ($backend backend): 0 memcheck errors at opt-level $level ($(tail -1 "$out"))"
        else
            echo "constant-flow through the C ABI ($backend backend): FAILED at opt-level $level:"
            cat "$out" "$log"
            ok=1
        fi
    done
    if valgrind -q --error-exitcode=1 --log-file="$log" "$dir/ct_abi" --canary >/dev/null ||
        ! grep -q 'uninitialised value' "$log"; then
        echo "C ABI canary: NOT detected at opt-level $level (the C ABI check is blind)"
        ok=1
    else
        echo "C ABI canary: detected ($(grep -c 'uninitialised value' "$log") reports), as it must be"
    fi
    rm -f "$log" "$out"
    echo "C ABI: $((SECONDS - start)) s"
    return $ok
}

# The NEON review report (--aarch64): for every function whose demangled name has
# `backend::aarch64::` in it, "cbr tbl idx v2g | the same for its portable twin  function":
# conditional branches (b.cond, cbz, cbnz, tbz, tbnz), table lookups (tbl, tbx), loads with a
# register offset (the address depends on a register, not only a base and constant), and moves
# from vector to general-purpose registers (umov, smov, mov w/x from v, fmov to w/x). The twin is
# the same function with `Portable` in place of `aarch64::Neon` ("-" where there is none: a
# function defined in backend/aarch64/).
A64_CBR='\t(b\.[a-z][a-z]|cbn?z|tbn?z)[ \t]'
A64_TBL='\t(tbl|tbx)[ \t]'
A64_IDX='\tld[a-z0-9]*[ \t][^[]*\[x[0-9]+, [xw][0-9]+'
A64_V2G='\t(umov|smov)[ \t]|\tmov[ \t]+[wx][0-9]+, v[0-9]+\.|\tfmov[ \t]+[wx][0-9]+, [hsd][0-9]+'
neon_review() {
    aarch64-linux-gnu-objdump -d --no-show-raw-insn -C "$1" | awk -v cbr="$A64_CBR" -v tbl="$A64_TBL" \
        -v idx="$A64_IDX" -v v2g="$A64_V2G" '
        /^[0-9a-f]+ <.*>:$/ { fn = $0; sub(/^[0-9a-f]+ </, "", fn); sub(/>:$/, "", fn); all[fn] = 1; next }
        fn == "" { next }
        $0 ~ cbr { c[fn]++ }
        $0 ~ tbl { t[fn]++ }
        $0 ~ idx { x[fn]++ }
        $0 ~ v2g { v[fn]++ }
        END {
            for (f in all) {
                if (!index(f, "backend::aarch64::")) continue
                twin = f; gsub(/mldsa::backend::aarch64::Neon/, "mldsa::backend::Portable", twin)
                tw = (twin != f && (twin in all)) ? sprintf("%4d %3d %3d %3d", c[twin], t[twin], x[twin], v[twin]) : "   -   -   -   -"
                name = f; gsub(/mldsa::backend::aarch64::Neon/, "Neon", name)
                printf "%4d %3d %3d %3d | %s  %s\n", c[f], t[f], x[f], v[f], tw, name
            }
        }' | sort -k10
}

# --aarch64: the harness cross-built for AArch64, the div scan, a run under qemu and the NEON
# review report, at each level; then exit.
if [ $aarch64 -eq 1 ]; then
    need=()
    command -v aarch64-linux-gnu-gcc >/dev/null || need+=(gcc-aarch64-linux-gnu libc6-dev-arm64-cross)
    command -v aarch64-linux-gnu-objdump >/dev/null || need+=(binutils-aarch64-linux-gnu)
    command -v qemu-aarch64 >/dev/null || need+=(qemu-user)
    if [ ${#need[@]} -gt 0 ]; then
        echo "installing ${need[*]} from Debian's packages"
        (apt-get update -qq && apt-get install -y -qq "${need[@]}") >/dev/null
    fi
    rustup target add aarch64-unknown-linux-gnu >/dev/null 2>&1
    export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc
    # v0 symbol names carry the generic arguments (`sign_internal::<..::Neon, ..>`; the default
    # legacy names do not), which the review report keys on. Names only: the code is the same.
    export RUSTFLAGS="$RUSTFLAGS -C symbol-mangling-version=v0"
    OBJDUMP=aarch64-linux-gnu-objdump DIV_INSN=$DIV_INSN_A64 CALL_INSN=$CALL_INSN_A64
    harness=target/aarch64-unknown-linux-gnu/ct/ct-harness
    status=0
    for level in "${levels[@]}"; do
        echo "--- AArch64, opt-level $level"
        start=$SECONDS
        CARGO_PROFILE_CT_OPT_LEVEL=$level cargo build -q --profile ct -p ct-harness \
            --target aarch64-unknown-linux-gnu
        echo "build: $((SECONDS - start)) s"
        out=$(qemu-aarch64 -L /usr/aarch64-linux-gnu "$harness") || {
            echo "the AArch64 harness failed under qemu:"
            echo "$out"
            status=1
        }
        ran=$(sed -n 's/^backend: //p' <<<"$out")
        if [ "${ran,,}" = neon ]; then
            echo "harness under qemu: ran on the NEON backend"
        else
            echo "harness under qemu: expected the NEON backend, it reports '$ran'"
            status=1
        fi
        divs=$(div_scan "$harness")
        if [ -n "$divs" ]; then
            echo "AArch64: variable-latency instructions reachable from mldsa at opt-level $level (count, function <- a caller):"
            echo "$divs"
            status=1
        else
            echo "AArch64 div scan: no sdiv/udiv/fdiv/fsqrt/reciprocal estimate in mldsa functions or their callees at opt-level $level (allow-list: $ALLOW)"
        fi
        report=target/aarch64-unknown-linux-gnu/ct/neon-review-O$level.txt
        neon_review "$harness" >"$report"
        if [ ! -s "$report" ]; then
            # Until the backend overrides a kernel, its monomorphisations are the portable ones
            # instructions for instructions and the linker folds them into the `Portable` names.
            # Once its sources use NEON intrinsics, an empty report means the scan is blind.
            if grep -rqE 'core::arch::aarch64|\bv[a-z0-9]+q_[su](8|16|32|64)\b' crates/mldsa/src/backend/aarch64/; then
                echo "NEON review: no function with backend::aarch64:: in its name, yet backend/aarch64/ uses NEON intrinsics (the scan is blind)"
                status=1
            else
                echo "NEON review: no function with backend::aarch64:: in its name; backend/aarch64/ uses no NEON intrinsic yet (its code is folded into the portable functions)"
            fi
        else
            echo "NEON review ($report): $(wc -l <"$report") functions; per function, NEON | portable twin: conditional branches, tbl/tbx, register-indexed loads, vector-to-GPR moves; those that differ from their twin (or have none):"
            awk '$1 != $6 || $2 != $7 || $3 != $8 || $4 != $9' "$report"
        fi
    done
    exit $status
fi

status=0
for level in "${levels[@]}"; do
    echo "--- opt-level $level"
    start=$SECONDS
    CARGO_PROFILE_CT_OPT_LEVEL=$level cargo build -q --profile ct -p ct-harness
    echo "build: $((SECONDS - start)) s"
    if [ $scan_only -eq 0 ]; then
        start=$SECONDS
        log=$(mktemp)
        # Both backends: the fastest one the CPU has (AVX2 here; valgrind emulates it) and the
        # portable one, forced through the environment.
        # The harness prints the backend it ran on; checking it keeps "both backends" true (on
        # a CPU without AVX2, `auto` would silently be the portable backend again).
        for backend in $want_backends; do
            out=$(mktemp)
            # MLDSA_BACKEND=portable forces the portable backend; any other value leaves the choice
            # to the CPU.
            if MLDSA_BACKEND=$backend valgrind -q --error-exitcode=1 --log-file="$log" target/ct/ct-harness >"$out"; then
                ran=$(sed -n 's/^backend: //p' "$out")
                if [ "${ran,,}" = "$backend" ]; then
                    echo "constant-flow ($backend backend, $(sed -n 's/^aes: //p' "$out") AES): 0 memcheck errors at opt-level $level"
                else
                    echo "constant-flow: asked for the $backend backend, the harness ran on '$ran'"
                    status=1
                fi
            else
                cat "$out"
                echo "constant-flow ($backend backend): FAILED at opt-level $level:"
                cat "$log"
                status=1
            fi
            rm -f "$out"
        done
        # The canary must be caught for the right reasons: both planted leaks reported (a
        # crash, or valgrind failing to start, also exits non-zero and proves nothing).
        if valgrind -q --error-exitcode=1 --log-file="$log" target/ct/ct-canary >/dev/null; then
            echo "canary: NOT detected at opt-level $level (the harness is blind)"
            status=1
        else
            branch=$(grep -c 'Conditional jump or move depends on uninitialised value' "$log" || true)
            index=$(grep -c 'Use of uninitialised value of size' "$log" || true)
            if [ "$branch" -gt 0 ] && [ "$index" -gt 0 ]; then
                echo "canary: detected ($branch secret branch, $index secret-indexed load reports), as it must be"
            else
                echo "canary: exited non-zero at opt-level $level but without both planted leaks reported" \
                    "($branch secret branch, $index secret-indexed load):"
                cat "$log"
                status=1
            fi
        fi
        rm -f "$log"
        echo "valgrind: $((SECONDS - start)) s"
        ct_abi "$level" || status=1
    fi
    divs=$(div_scan target/ct/ct-harness)
    if [ -n "$divs" ]; then
        echo "variable-latency instructions reachable from mldsa at opt-level $level (count, function <- a caller):"
        echo "$divs"
        status=1
    else
        echo "div scan: no div/idiv/sqrt in mldsa functions or their callees at opt-level $level (allow-list: $ALLOW)"
    fi
    if [ "$(uname -m)" = x86_64 ]; then
        avx512_scan "$level" || status=1
    fi
done
if [ $soft_aes -eq 1 ] && [ $scan_only -eq 0 ]; then
    echo "--- software AES (aes_backend=\"soft\"), opt-level 3, portable backend"
    start=$SECONDS
    RUSTFLAGS="--cfg mldsa_ct --cfg aes_backend=\"soft\"" CARGO_TARGET_DIR=target/ct-soft-aes \
        CARGO_PROFILE_CT_OPT_LEVEL=3 cargo build -q --profile ct -p ct-harness
    echo "build: $((SECONDS - start)) s"
    log=$(mktemp)
    out=$(mktemp)
    if MLDSA_BACKEND=portable valgrind -q --error-exitcode=1 --log-file="$log" \
        target/ct-soft-aes/ct/ct-harness >"$out"; then
        if grep -qx 'aes: software' "$out"; then
            echo "constant-flow (software AES, portable backend): 0 memcheck errors at opt-level 3"
        else
            echo "constant-flow: asked for software AES, the harness says '$(sed -n 's/^aes: //p' "$out")'"
            status=1
        fi
    else
        echo "constant-flow (software AES, portable backend): FAILED:"
        cat "$log"
        status=1
    fi
    rm -f "$log" "$out"
fi
exit $status
