#!/usr/bin/env bash
# Where an AArch64 operation's instructions go, under qemu: the count of scripts/aarch64-insns.sh
# split by function (bench/aarch64/by-symbol.awk; inlined code counts in its caller).
#
#   bash scripts/aarch64-profile.sh [SET] [OP] [LIB] [N]
#
# SET: 44 (default), 65, 87; OP: keygen (default), sign-cold, sign-warm, verify-cold,
# verify-warm; LIB: mldsa (default), mldsa-portable, libcrux, mldsa-native, aws-lc-rs; N: the
# operations counted (default 2). Prints thousands of instructions per operation by function,
# largest first. Needs what scripts/aarch64-insns.sh installs (run that once on a new machine).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dir="$root/bench/aarch64"
set_="${1:-44}" op="${2:-keygen}" lib="${3:-mldsa}" n="${4:-2}"
features=(--no-default-features)
[ "$lib" = aws-lc-rs ] && features=()
(cd "$dir" && cargo build --release --locked -q -p mldsa-aarch64-insns "${features[@]}")
bin="$dir/target/aarch64-unknown-linux-gnu/release/mldsa-aarch64-insns"
qemu=(qemu-aarch64 -L /usr/aarch64-linux-gnu)
inputs="$(mktemp)"
trap 'rm -f "$inputs"' EXIT
"${qemu[@]}" "$bin" inputs "$set_" "$inputs"
echo "# $lib ML-DSA-$set_ $op: thousands of instructions per operation (N = $n), by function"
{ "${qemu[@]}" -d in_asm,exec,nochain -D /dev/stdout "$bin" count "$lib" "$set_" "$op" "$n" "$inputs" 2>/dev/null || true; } |
    awk -f "$dir/by-symbol.awk" | sort -rn |
    awk -v n="$n" '{ printf "%9.1f %6s %s\n", $1 / n / 1000, $2, $3 }' |
    c++filt | sed -E 's/::h[0-9a-f]{16}$//; s/\.llvm\.[0-9]+$//' | head -40
