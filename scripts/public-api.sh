#!/usr/bin/env bash
# Public API listing of the core crate (`crates/mldsa`), for checking that a restructuring keeps
# the API (issue #35: "public API unchanged (`cargo public-api` diff or an equivalent, empty, or
# each change listed and justified)").
#
# Prints, one item a line and sorted, every public item of `mldsa` with its signature: modules,
# re-exports, types, fields, variants, functions, constants, trait impls (auto traits and blanket
# impls included: a type that stops being Send, or loses a derive, shows up). The tool is
# `cargo public-api` (crates.io), which reads rustdoc's JSON output and so needs a nightly
# toolchain (it calls `cargo +nightly rustdoc`). Checked 2026-11-28 with cargo-public-api 0.52.0
# and nightly-2026-05-19 (1.97.0-nightly e50aa6fba); 0.52 needs nightly-2025-08-02 or later.
#
# Usage: bash scripts/public-api.sh [--rev REV] [FEATURES]
#   FEATURES  `all` (default: --all-features) or `default` (the default features only).
#   --rev REV list the crate as of commit REV instead of the working tree: the commit is exported
#             (git archive) to target/public-api/src-REV, so the working tree and the index are
#             not touched.
#
# Compare a restructuring with its base, e.g. main before issue #35 (commit c8cd903):
#   bash scripts/public-api.sh --rev c8cd903 > /tmp/api-base.txt &&
#     bash scripts/public-api.sh > /tmp/api-new.txt && diff /tmp/api-base.txt /tmp/api-new.txt
# and the same with `default` after each command. No diff means the same public API. (Files and
# `&&` rather than `diff <(...) <(...)`: diff does not see a failed process substitution, and
# two failed runs would compare equal.)
#
# It builds into its own target folders (under target/public-api, or $CARGO_TARGET_DIR/public-api)
# so that it does not invalidate the normal builds; a first run takes about two minutes. Not in
# `cargo test` or CI: it needs nightly and the network on first use (to install the tool).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)

rev=""
if [ "${1:-}" = "--rev" ]; then
    rev=${2:?"--rev needs a commit"}
    shift 2
fi
case "${1:-all}" in
    all) features=(--all-features) ;;
    default) features=() ;;
    *) echo "usage: $0 [--rev REV] [all|default]" >&2; exit 2 ;;
esac

if ! rustup run nightly rustc --version >/dev/null 2>&1; then
    echo "installing the nightly toolchain (rustdoc JSON is unstable)" >&2
    rustup toolchain install nightly --profile minimal >&2
fi
if ! cargo public-api --version >/dev/null 2>&1; then
    echo "installing cargo-public-api" >&2
    cargo install --locked cargo-public-api >&2
fi

# One target folder per tree and feature set: two runs may go at once (`diff <(...) <(...)`), and
# each reads back the rustdoc JSON it built (target/doc/mldsa.json), which a shared folder would
# let the other overwrite in between.
root="${CARGO_TARGET_DIR:-$repo/target}/public-api"
src=$repo
name=worktree
if [ -n "$rev" ]; then
    name=$(git -C "$repo" rev-parse --short=12 "$rev^{commit}")
    # The commit's files, in a fixed place so that a second run reuses the build.
    src="$root/src-$name"
    rm -rf "$src"
    mkdir -p "$src"
    git -C "$repo" archive "$name" | tar -x -C "$src"
fi
target_dir="$root/$name-${1:-all}"

# The build log goes to stderr; only the listing goes to stdout. `sort` makes the order
# independent of the tool's own (which follows the module tree), so that moving an item's
# definition between private modules, which does not change its public path, is no diff.
cd "$src"
listing=$(CARGO_TARGET_DIR="$target_dir" cargo public-api -p mldsa "${features[@]}" --color never)
if [ -z "$listing" ]; then
    echo "public-api.sh: cargo public-api printed nothing" >&2
    exit 1
fi
printf '%s\n' "$listing" | sort
