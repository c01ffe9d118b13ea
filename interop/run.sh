#!/usr/bin/env bash
# Cross-checks our ML-DSA CLI and library against independent implementations installed from the
# package registries (see interop/README.md). Run from anywhere; prints one PASS/FAIL/SKIP line
# per check and `N passed, N failed, N skipped`; exits 1 if anything failed.
#
#   MLDSA_OFFLINE=1       skip everything (no network needed), exit 0
#   MLDSA_INTEROP_PEERS   comma-separated subset: dilithium-py,noble,cryptography,go,bouncycastle,openssl
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -n "${MLDSA_OFFLINE:-}" ]; then
    exec python3 interop/run.py
fi

echo "# building the mldsa CLI (release)"
"${CARGO:-cargo}" build --release -q -p mldsa-cli
target_dir=$("${CARGO:-cargo}" metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
exec python3 interop/run.py --mldsa "$target_dir/release/mldsa"
