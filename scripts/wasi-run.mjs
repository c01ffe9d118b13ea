// Runs a wasm32-wasip1 test binary (a Rust test harness) under Node's WASI, passing the
// remaining arguments to the harness (a filter, --test-threads, ...). Exits with its status.
// Usage: node --experimental-wasi-unstable-preview1 scripts/wasi-run.mjs FILE.wasm [ARGS...]
import { readFileSync } from 'node:fs';
import { WASI } from 'node:wasi';

const [file, ...args] = process.argv.slice(2);
const wasi = new WASI({ version: 'preview1', args: [file, ...args], env: {}, returnOnExit: true });
const module = await WebAssembly.compile(readFileSync(file));
const instance = await WebAssembly.instantiate(module, wasi.getImportObject());
process.exitCode = wasi.start(instance);
