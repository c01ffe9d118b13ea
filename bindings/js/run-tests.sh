#!/usr/bin/env bash
# Builds the npm package (bindings/js: the crate for wasm32-unknown-unknown, wasm-bindgen's
# glue) and runs its Node test suite, then the vector part in headless Chromium (Debian's
# chromium, driven by puppeteer-core). Run by `cargo test --workspace` through
# crates/mldsa/tests/js_package.rs.
#
# Cached between runs: the wasm-bindgen CLI (target/wasm-bindgen-cli, a few minutes to
# build once), the crate's wasm build (target/js-build) and node_modules. A warm run rebuilds
# only what changed.
#
#   MLDSA_OFFLINE=1     no registry work (npm, cargo install, apt): use what is cached, else skip
#   MLDSA_JS_BROWSER=0  skip the Chromium run
#   NODE_TEST_ARGS      extra arguments for `node --test`
set -euo pipefail
cd "$(dirname "$0")"
root=$(cd ../.. && pwd)

if ! command -v node >/dev/null; then
    if [ -n "${MLDSA_OFFLINE:-}" ]; then
        echo "SKIP js package tests: MLDSA_OFFLINE=1 and node is not installed"
        exit 0
    fi
    echo "# apt-get install nodejs npm (Debian's packages)"
    apt-get update -qq && apt-get install -y -qq nodejs npm >/dev/null
fi

# Debian 12's nodejs is 18, which has globalThis.crypto (the tests' and the package's source of
# randomness) only behind a flag.
if [ "$(node -p 'process.versions.node.split(".")[0]')" -lt 19 ]; then
    export NODE_OPTIONS="${NODE_OPTIONS:-} --experimental-global-webcrypto"
fi

target_dir=$("${CARGO:-cargo}" metadata --format-version 1 --no-deps --manifest-path "$root/Cargo.toml" |
    node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).target_directory))')
export CARGO_TARGET_DIR="$target_dir/js-build"

stamp=node_modules/.package-lock.json
if [ ! -f "$stamp" ] || [ package.json -nt "$stamp" ]; then
    if [ -n "${MLDSA_OFFLINE:-}" ]; then
        echo "SKIP js package tests: MLDSA_OFFLINE=1 and no node_modules in bindings/js"
        exit 0
    fi
    echo "# npm install (dev dependencies: noble, puppeteer-core, liboqs-js)"
    npm install --no-audit --no-fund --loglevel=error
fi

wasm_bindgen="$target_dir/wasm-bindgen-cli/bin/wasm-bindgen"
if [ -n "${MLDSA_OFFLINE:-}" ] && [ ! -x "$wasm_bindgen" ] && ! command -v wasm-bindgen >/dev/null; then
    echo "SKIP js package tests: MLDSA_OFFLINE=1 and no wasm-bindgen CLI cached"
    exit 0
fi
export WASM_BINDGEN="$wasm_bindgen"

echo "# npm run build (cargo build --release --target wasm32-unknown-unknown, wasm-bindgen)"
start=$SECONDS
npm run --silent build
echo "# build took $((SECONDS - start)) s"

echo "# node --test"
start=$SECONDS
# shellcheck disable=SC2086
node --test ${NODE_TEST_ARGS:-} test/*.test.mjs
echo "# node tests took $((SECONDS - start)) s"

if [ "${MLDSA_JS_BROWSER:-1}" != 0 ]; then
    if ! command -v chromium >/dev/null; then
        if [ -n "${MLDSA_OFFLINE:-}" ]; then
            echo "SKIP browser tests: MLDSA_OFFLINE=1 and chromium is not installed"
            exit 0
        fi
        echo "# apt-get install chromium (Debian's package)"
        apt-get update -qq && apt-get install -y -qq chromium >/dev/null
    fi
    echo "# headless Chromium"
    start=$SECONDS
    node test/browser/run.mjs
    echo "# browser tests took $((SECONDS - start)) s"
fi
