#!/usr/bin/env bash
# AArch64 instruction counts under qemu (issue 38's measure, with no ARM hardware at hand):
# mldsa (neon, its AArch64 default), mldsa (portable) and the peers built for AArch64 with their
# SIMD code (libcrux-ml-dsa `simd128`, mldsa-native-rs `native`, aws-lc-rs), for keygen, sign
# (cold, warm; per signature and per attempt) and verify (cold, warm) of ML-DSA-44/65/87.
#
#   bash scripts/aarch64-insns.sh [--quick] [--no-aws-lc] [--jobs J] [--cpu MODEL]
#
# Installs what is missing (Debian packages, the Rust target), cross-builds bench/aarch64/,
# checks every library against mldsa (same keys, byte-identical deterministic signatures),
# counts, and writes bench/results/aarch64-insns.md and .json (--quick: ML-DSA-44 only, 2
# inputs per operation, to bench/results/aarch64-insns-quick.*). The report is printed too.
#
# The count: qemu-aarch64 -d in_asm,exec,nochain logs every translation block (TB) once with its
# instructions and every execution of a TB (nochain: no direct TB-to-TB jumps, so none is
# missed); bench/aarch64/count.awk adds up the instructions of the TBs executed between the
# marker functions mldsa_insns_begin and mldsa_insns_end, around N operations on fixed inputs
# after one warm-up operation. Deterministic: the same count every run.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dir="$root/bench/aarch64"
quick=0 aws=1 jobs=2 cpu=""
command_line="bash scripts/aarch64-insns.sh${*:+ $*}"
while [ $# -gt 0 ]; do
    case "$1" in
        --quick) quick=1 ;;
        --no-aws-lc) aws=0 ;;
        --jobs) jobs="$2"; shift ;;
        --cpu) cpu="$2"; shift ;;
        *) echo "usage: $0 [--quick] [--no-aws-lc] [--jobs J] [--cpu MODEL]" >&2; exit 2 ;;
    esac
    shift
done
started=$(date +%s)
log() { echo "aarch64-insns: $*" >&2; }

# --- prerequisites -----------------------------------------------------------------------------
need=()
command -v aarch64-linux-gnu-gcc >/dev/null || need+=(gcc-aarch64-linux-gnu)
command -v aarch64-linux-gnu-g++ >/dev/null || need+=(g++-aarch64-linux-gnu)
[ -e /usr/aarch64-linux-gnu/include/stdio.h ] || need+=(libc6-dev-arm64-cross)
command -v aarch64-linux-gnu-objdump >/dev/null || need+=(binutils-aarch64-linux-gnu)
command -v qemu-aarch64 >/dev/null || need+=(qemu-user)
command -v cmake >/dev/null || need+=(cmake)
command -v python3 >/dev/null || need+=(python3)
ls /usr/lib/llvm-*/lib/libclang*.so* >/dev/null 2>&1 || need+=(libclang-dev)
if [ ${#need[@]} -gt 0 ]; then
    log "installing ${need[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi
# The toolchain is the one rust-toolchain.toml pins (rustup reads it from the repository root).
(cd "$root" && rustup target list --installed | grep -qx aarch64-unknown-linux-gnu) ||
    (cd "$root" && rustup target add aarch64-unknown-linux-gnu)

# --- build -------------------------------------------------------------------------------------
features=()
[ $aws = 0 ] && features=(--no-default-features)
log "building (cross, release, thin LTO)"
(cd "$dir" && cargo build --release --locked -q -p mldsa-aarch64-insns "${features[@]}")
(cd "$dir" && cargo build --release --locked -q -p mldsa-aarch64-attempts)
bin="$dir/target/aarch64-unknown-linux-gnu/release/mldsa-aarch64-insns"
attempts_bin="$dir/target/aarch64-unknown-linux-gnu/release/mldsa-aarch64-attempts"
qemu=(qemu-aarch64 -L /usr/aarch64-linux-gnu)
[ -n "$cpu" ] && qemu+=(-cpu "$cpu")
count() { # ARGS... -> "instructions TBs" of the marked region; fails if there is none
    # (qemu may die of SIGPIPE once awk has its number and stops reading: not an error).
    { "${qemu[@]}" -d in_asm,exec,nochain -D /dev/stdout "$@" 2>/dev/null || true; } |
        awk -f "$dir/count.awk"
}

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
raw="$work/raw"
mkdir -p "$raw"

# --- the method's checks -----------------------------------------------------------------------
# A loop of exactly 2n + 1 instructions: the count must grow by exactly 2 per iteration, and
# what the markers add around the region (a few instructions) is printed.
c1=$(count "$bin" calib 1000 | cut -d' ' -f1)
c2=$(count "$bin" calib 2000 | cut -d' ' -f1)
[ $((c2 - c1)) = 2000 ] || { log "calibration failed: $c1, $c2 (want a difference of 2000)"; exit 1; }
marker_overhead=$((c1 - 2001))
log "calibration ok: a 2n+1-instruction loop counts 2n+1+$marker_overhead"

if [ $quick = 1 ]; then sets=(44); n=2; else sets=(44 65 87); n=8; fi
read -r -a libs <<<"$("${qemu[@]}" "$bin" libs 2>&1)"
ops=(keygen sign-cold sign-warm verify-cold verify-warm)

for s in "${sets[@]}"; do
    "${qemu[@]}" "$bin" inputs "$s" "$work/inputs.$s"
    "${qemu[@]}" "$attempts_bin" "$s" "$n" >"$raw/attempts.$s"
    for lib in "${libs[@]}"; do
        "${qemu[@]}" "$bin" check "$lib" "$s" 2>"$work/check.$lib" ||
            { cat "$work/check.$lib" >&2; log "check failed: $lib ML-DSA-$s"; exit 1; }
    done
done
# The notes (what warm and cold call) from the checks' last lines.
notes_json=$(for lib in "${libs[@]}"; do
    sed -n 's/^check ok: [^ ]* [^ ]* (\(.*\))$/\1/p' "$work/check.$lib" |
        python3 -c 'import json,sys; print(json.dumps({sys.argv[1]: sys.stdin.read().strip()}))' "$lib"
done | python3 -c 'import json,sys; d={}; [d.update(json.loads(l)) for l in sys.stdin]; print(json.dumps(d))')
log "checks ok: ${libs[*]} agree with mldsa on ML-DSA-${sets[*]}"

# --- count -------------------------------------------------------------------------------------
one() { # LIB SET OP
    local out="$raw/$1.$2.$3" err="$work/err.$1.$2.$3"
    if ! count "$bin" count "$1" "$2" "$3" "$n" "$work/inputs.$2" >"$out" 2>"$err" || [ ! -s "$out" ]; then
        if "${qemu[@]}" "$bin" count "$1" "$2" "$3" 0 "$work/inputs.$2" 2>"$err"; then
            echo "aarch64-insns: counting $1 $2 $3 failed" >&2; return 1
        fi
        grep '^n/a' "$err" >"$out" || { cat "$err" >&2; return 1; }
    fi
    echo "  $1 ML-DSA-$2 $3: $(cat "$out")" >&2
}
export -f one count
export bin raw work n dir
export QEMU="${qemu[*]}"
tasks="$work/tasks"
for s in "${sets[@]}"; do for lib in "${libs[@]}"; do for op in "${ops[@]}"; do
    echo "$lib $s $op"
done; done; done >"$tasks"
log "counting $(wc -l <"$tasks") (library, set, operation), N = $n, $jobs at a time"
# `count` uses the array qemu; rebuild it from QEMU in the children.
xargs -P "$jobs" -L 1 bash -c 'qemu=($QEMU); one "$@"' _ <"$tasks"

# Determinism: one count again must give the same number.
again=$(count "$bin" count mldsa "${sets[0]}" sign-cold "$n" "$work/inputs.${sets[0]}")
[ "$again" = "$(cat "$raw/mldsa.${sets[0]}.sign-cold")" ] ||
    { log "not deterministic: mldsa sign-cold $again vs $(cat "$raw/mldsa.${sets[0]}.sign-cold")"; exit 1; }

# --- report ------------------------------------------------------------------------------------
elapsed=$(($(date +%s) - started))
suffix=""; [ $quick = 1 ] && suffix="-quick"
md="$root/bench/results/aarch64-insns$suffix.md"
json="$root/bench/results/aarch64-insns$suffix.json"
mkdir -p "$root/bench/results"
rev="$(cd "$root" && git rev-parse --short HEAD 2>/dev/null || echo unknown)"
dirty="$(cd "$root" && git status --porcelain -- crates/mldsa bench/aarch64 2>/dev/null | head -1)"
[ -n "$dirty" ] && rev="$rev (with uncommitted changes)"
qemu_version="$(qemu-aarch64 --version | head -1)"
rustc_version="$(cd "$dir" && rustc --version)"
gcc_version="$(aarch64-linux-gnu-gcc --version | head -1)"
excluded=""
[ $aws = 0 ] && excluded="left out with --no-aws-lc"
# Everything the report states about the run, handed to python through the environment.
export M_DATE="$(date -u +%Y-%m-%d)" M_COMMAND="$command_line" M_REV="$rev" M_QEMU="$qemu_version"
export M_CPU="$cpu" M_RUSTC="$rustc_version" M_GCC="$gcc_version" M_N="$n" M_ELAPSED="$elapsed"
export M_SETS="${sets[*]}" M_LIBS="${libs[*]}" M_NOTES="$notes_json" M_EXCLUDED="$excluded"
export M_OVERHEAD="$marker_overhead"
python3 - "$work/meta.json" <<'EOF'
import json, os, sys
e = os.environ
n, over = int(e["M_N"]), int(e["M_OVERHEAD"])
meta = {
    "date": e["M_DATE"],
    "command": e["M_COMMAND"],
    "mldsa": f"revision {e['M_REV']}; neon = its default backend on AArch64, portable = "
             "force_portable(true) once before anything runs",
    "qemu": e["M_QEMU"],
    "qemu_cpu": e["M_CPU"] or "max (qemu-user's default: every extension qemu has, SHA-3 included)",
    "rustc": f"{e['M_RUSTC']}, target aarch64-unknown-linux-gnu, -C target-cpu=generic, release, "
             "lto = thin, codegen-units = 1",
    "cc": f"{e['M_GCC']}, CFLAGS=-O3 (through the cc crate; mldsa-native-rs adds -O3 and "
          "-march=armv8.4-a+sha3 of its own)",
    "n": n,
    "runtime": f"{e['M_ELAPSED']} s (checks and counting; the build not included)",
    "sets": e["M_SETS"].split(),
    "libs": e["M_LIBS"].split(),
    "notes": json.loads(e["M_NOTES"]),
    "excluded": {"aws-lc-rs": e["M_EXCLUDED"]} if e["M_EXCLUDED"] else {},
    "marker_overhead_insns": over,
    "method": [
        f"Instructions counted, not time: qemu-user ({e['M_QEMU']}) runs the cross-built "
        "binary with `-d in_asm,exec,nochain`: `in_asm` logs each translation block (TB) once "
        "with its instructions, `exec` logs every execution of a TB (`nochain`: no TB jumps "
        "straight into another, so none is missed). bench/aarch64/count.awk adds up the "
        "instructions of the TBs executed between the marker functions mldsa_insns_begin and "
        "mldsa_insns_end (a TB ends at every branch, so an executed TB runs all of its "
        "instructions). It gives the same counts as `-singlestep -d exec,nochain` (one logged "
        "line per instruction), about 15 times faster.",
        "Each (library, set, operation) runs in a process of its own: the key pair and mldsa's "
        "signatures come from a file made beforehand, one warm-up operation runs (first-call "
        "costs: feature detection, AWS-LC's self test), then the marked region does the "
        f"operation N = {n} times, operation i on input i (keygen seeds or messages, the same "
        "for every library); the figure is the count / N. The markers add "
        f"{over} instructions per region (a loop of 2n+1 instructions counts 2n+1+{over}, "
        "and exactly 2 more per iteration), not subtracted.",
        "Checked on every run: that calibration loop; every library derives mldsa's key pair "
        "from the seed, its deterministic signatures equal mldsa's byte for byte (so all run "
        "the same signing attempts), it accepts mldsa's signatures and rejects a corrupted one; "
        "a second count of one operation gives the same number.",
        "Signing is deterministic (rnd = 0), pure ML-DSA, empty context. Per attempt = "
        "instructions per signature / mean attempts of these messages (counted by mldsa's "
        "profile counters, one SampleInBall per attempt, in a separate binary: the counted one "
        "is built without them).",
        "Cold: from the encoded key bytes in each operation. Warm: with the library's decoded "
        "or prepared key object, made before the region (mldsa: SigningKey::prepared(), which "
        "keeps A-hat, and PreparedVerifyingKey). Where a library's key object is only the "
        "encoded bytes, warm is n/a, and the warm rows' ratios take its cold figure.",
    ],
}
json.dump(meta, open(sys.argv[1], "w"), indent=1)
EOF
python3 "$dir/report.py" "$raw" "$work/meta.json" "$md" "$json"
cat "$md"
log "wrote $md and $json in ${elapsed} s"
