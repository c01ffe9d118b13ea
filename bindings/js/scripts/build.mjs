// `npm run build`: compiles the crate to wasm32-unknown-unknown (release), generates the JS
// glue with wasm-bindgen (the CLI of exactly the version Cargo.lock resolved the wasm-bindgen
// crate to: the two must match), and embeds the .wasm as base64 in pkg/mldsa_js_bg.wasm.js
// so that lib/wasm.js can instantiate it without fetch or fs.
//
// The CLI is looked for in $WASM_BINDGEN, then in <repo>/target/wasm-bindgen-cli (installed
// there by this script with `cargo install` when missing: a few minutes, once), then on PATH.
// CARGO_TARGET_DIR is honoured (the root test suite points it at target/js-build).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const here = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const repo = resolve(here, '../..');
const cargo = process.env.CARGO || 'cargo';
const run = (cmd, args, opts = {}) => {
  const r = spawnSync(cmd, args, { stdio: 'inherit', cwd: here, ...opts });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status ?? r.signal})`);
};

// The wasm-bindgen crate's version in Cargo.lock (resolved by the `=` pin in Cargo.toml).
function lockedVersion() {
  const lock = readFileSync(join(here, 'Cargo.lock'), 'utf8');
  const m = lock.match(/name = "wasm-bindgen"\nversion = "([^"]+)"/);
  if (!m) throw new Error('wasm-bindgen not found in bindings/js/Cargo.lock');
  return m[1];
}

function cliVersion(bin) {
  try {
    return execFileSync(bin, ['--version'], { encoding: 'utf8' }).trim().split(/\s+/)[1];
  } catch {
    return undefined;
  }
}

function wasmBindgen(version) {
  // Installed beside $WASM_BINDGEN when that is set (the test script points it into the target
  // directory), else into <repo>/target/wasm-bindgen-cli.
  const root = process.env.WASM_BINDGEN ? resolve(dirname(process.env.WASM_BINDGEN), '..') : join(repo, 'target/wasm-bindgen-cli');
  const candidates = [process.env.WASM_BINDGEN, join(root, 'bin/wasm-bindgen'), 'wasm-bindgen'].filter(Boolean);
  for (const c of candidates) if (cliVersion(c) === version) return c;
  console.log(`# installing wasm-bindgen-cli ${version} into ${root} (once)`);
  const args = ['install', '--root', root, 'wasm-bindgen-cli', '--version', version];
  // --locked first (the CLI's own lock file); a registry mirror that lacks one of those exact
  // versions gets the newest compatible ones instead.
  // The CLI only rewrites one small module, so it is built for build speed, not its own
  // (about half the cold build time, which CI pays on every fresh machine).
  const env = {
    ...process.env,
    CARGO_PROFILE_RELEASE_OPT_LEVEL: '1',
    CARGO_PROFILE_RELEASE_LTO: 'false',
    CARGO_PROFILE_RELEASE_CODEGEN_UNITS: '16',
    CARGO_PROFILE_RELEASE_DEBUG: 'false',
  };
  const locked = spawnSync(cargo, [...args, '--locked'], { stdio: 'inherit', env });
  if (locked.status !== 0) run(cargo, args, { env });
  const bin = join(root, 'bin/wasm-bindgen');
  if (cliVersion(bin) !== version) throw new Error(`wasm-bindgen ${version} did not install`);
  return bin;
}

// Rust's own target directory for this workspace (or CARGO_TARGET_DIR).
const targetDir = process.env.CARGO_TARGET_DIR ? resolve(process.env.CARGO_TARGET_DIR) : join(here, 'target');
run('rustup', ['target', 'add', 'wasm32-unknown-unknown'], { stdio: ['ignore', 'ignore', 'inherit'] });
// WebAssembly SIMD (simd128) is on by default: the core then runs its simd128 backend (and LLVM
// vectorises the portable loops), signing about twice as fast (README, "WebAssembly SIMD"). The
// .wasm then needs an engine with SIMD (Chrome 91, Firefox 89, Safari 16.4, Node 16.4);
// MLDSA_WASM_SIMD=0 builds without it, on the core's portable backend, for older engines. The
// SIMD build gets its own target directory (RUSTFLAGS differ).
const simd = process.env.MLDSA_WASM_SIMD !== '0';
const buildDir = simd ? join(targetDir, 'simd128') : targetDir;
const env = { ...process.env, CARGO_TARGET_DIR: buildDir };
// mldsa_wasm_simd_only: the core without its portable fallback (force_portable, which this
// package does not offer), 23 KiB less gzipped (crates/mldsa/src/backend/mod.rs).
if (simd) {
  env.RUSTFLAGS = [process.env.RUSTFLAGS, '-C target-feature=+simd128 --cfg mldsa_wasm_simd_only']
    .filter(Boolean).join(' ');
}
run(cargo, ['build', '--release', '--locked', '--target', 'wasm32-unknown-unknown'], { env });
const input = join(buildDir, 'wasm32-unknown-unknown/release/mldsa_js.wasm');
const pkg = join(here, 'pkg');
mkdirSync(pkg, { recursive: true });
// --target web: an ES module with initSync (lib/wasm.js); function names and the producers
// section are dropped from the shipped .wasm (about 20 KiB gzipped).
run(wasmBindgen(lockedVersion()), [
  '--target', 'web', '--no-typescript', '--remove-name-section', '--remove-producers-section',
  '--out-dir', pkg, '--out-name', 'mldsa_js', input,
]);

const wasm = readFileSync(join(pkg, 'mldsa_js_bg.wasm'));
writeFileSync(
  join(pkg, 'mldsa_js_bg.wasm.js'),
  '// Generated by scripts/build.mjs: mldsa_js_bg.wasm, base64.\nexport default "' + wasm.toString('base64') + '";\n'
);
const kib = (n) => (n / 1024).toFixed(1) + ' KiB';
console.log(`# pkg/mldsa_js_bg.wasm: ${kib(statSync(join(pkg, 'mldsa_js_bg.wasm')).size)}, gzip -9 ${kib(gzipSync(wasm, { level: 9 }).length)}`);
