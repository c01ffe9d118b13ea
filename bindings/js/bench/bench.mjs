// `npm run bench`: mldsa-rs (wasm), @noble/post-quantum and @oqs/liboqs-js side by side in
// one Node process, then the same in headless Chromium (Debian's chromium via puppeteer-core;
// skipped with --node-only). Prints Markdown tables (medians, microseconds per call) with the
// machine and versions, for the package README; and the gzip size of the .wasm.
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import * as ours from 'mldsa-rs/ml-dsa.js';
import * as noble from '@noble/post-quantum/ml-dsa.js';
import * as oqs from '@oqs/liboqs-js';
import { nobleAdapter, oqsAdapter, runBench, table } from './cases.js';

const here = dirname(fileURLToPath(import.meta.url));
const pkg = resolve(here, '..');
const version = (name) => JSON.parse(readFileSync(resolve(pkg, 'node_modules', name, 'package.json'), 'utf8')).version;
const wasm = readFileSync(resolve(pkg, 'pkg/mldsa_js_bg.wasm'));

console.log(`CPU: ${cpus()[0].model} (${cpus().length} logical cores)`);
console.log(`mldsa-rs ${JSON.parse(readFileSync(resolve(pkg, 'package.json'), 'utf8')).version}, ` +
  `@noble/post-quantum ${version('@noble/post-quantum')}, @oqs/liboqs-js ${version('@oqs/liboqs-js')}`);
console.log(`.wasm: ${(wasm.length / 1024).toFixed(1)} KiB, gzip -9 ${(gzipSync(wasm, { level: 9 }).length / 1024).toFixed(1)} KiB\n`);

const libs = { 'mldsa-rs': nobleAdapter(ours), noble: nobleAdapter(noble), 'liboqs-js': await oqsAdapter(oqs) };
console.log(`Node ${process.version}:\n`);
console.log(table(runBench(libs, () => performance.now())));

if (!process.argv.includes('--node-only')) {
  const { default: puppeteer } = await import('puppeteer-core');
  const { serve, page } = await import('../test/browser/server.mjs');
  const server = await serve(
    { '/package/': pkg, '/node_modules/': resolve(pkg, 'node_modules'), '/bench/': here },
    { '/': page('/bench/page.js'), '/favicon.ico': '' }
  );
  const browser = await puppeteer.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu'],
  });
  try {
    const tab = await browser.newPage();
    tab.on('pageerror', (e) => console.error('page error:', e.message));
    await tab.goto(server.url + '/');
    await tab.waitForFunction(() => window.__result, { timeout: 30 * 60_000, polling: 1000 });
    const r = await tab.evaluate(() => window.__result);
    if (!r.ok) throw new Error(r.error);
    console.log(`\nHeadless ${r.userAgent.match(/(Headless)?Chrome\/[\d.]+/)[0]} (cross-origin isolated: ${r.isolated}):\n`);
    console.log(table(r.rows));
  } finally {
    await browser.close();
    server.close();
  }
}
