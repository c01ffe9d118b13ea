#!/usr/bin/env bash
# Runs the README's C and C++ commands as written: the sh block that follows the comment naming
# this script in README.md ("## C and C++"), from the repository root, in a fresh shell (an
# empty environment but for PATH, HOME and the Rust toolchain's variables), with the install
# prefix /opt/mldsa replaced by PREFIX. Fails if the block is missing, if any command fails, or
# if the programs it runs do not print what the examples print on success.
# usage: readme.sh PREFIX   (run.sh passes a temporary directory)
set -euo pipefail
cd "$(dirname "$0")/../../../.."
PREFIX=${1:?usage: readme.sh PREFIX}
block=$(awk '/crates\/mldsa-ffi\/tests\/c\/readme.sh runs this block/ { armed = 1; next }
    armed && /^```sh$/ { inside = 1; next }
    inside && /^```$/ { exit }
    inside { print }' README.md)
[ -n "$block" ] || { echo "README.md: no sh block after the readme.sh comment" >&2; exit 1; }
grep -q /opt/mldsa <<<"$block" || { echo "README.md: the block does not use /opt/mldsa" >&2; exit 1; }
script=${block//\/opt\/mldsa/$PREFIX}
env_vars=(PATH="$PATH" HOME="$HOME")
for v in RUSTUP_HOME CARGO_HOME CARGO_TARGET_DIR RUSTUP_TOOLCHAIN; do
    [ -n "${!v:-}" ] && env_vars+=("$v=${!v}")
done
out=$(env -i "${env_vars[@]}" bash -euo pipefail -c "$script" 2>&1) || {
    echo "$out"
    echo "FAIL: the README's commands stopped"
    exit 1
}
echo "$out"
# sign_verify runs twice (shared and static), the C++ example once.
[ "$(grep -c '^C: ML-DSA-65 sign/verify ok' <<<"$out")" -eq 2 ] &&
    [ "$(grep -c '^C++: ML-DSA-65 sign/verify ok' <<<"$out")" -eq 1 ] || {
    echo "FAIL: expected two C example runs and one C++ example run"
    exit 1
}
echo "3 passed, 0 failed"
