// The benchmark in Chromium: the same cases as in Node, libraries loaded through the page's
// import map. liboqs-js loads its own wasm relative to its modules.
import * as ours from 'mldsa-rs/ml-dsa.js';
import * as noble from '@noble/post-quantum/ml-dsa.js';
import * as oqs from '@oqs/liboqs-js';
import { nobleAdapter, oqsAdapter, runBench } from '/bench/cases.js';

(async () => {
  const libs = { 'mldsa-rs': nobleAdapter(ours), noble: nobleAdapter(noble), 'liboqs-js': await oqsAdapter(oqs) };
  return { ok: true, rows: runBench(libs, () => performance.now()), userAgent: navigator.userAgent, isolated: crossOriginIsolated };
})().then(
  (r) => (window.__result = r),
  (e) => (window.__result = { ok: false, error: String(e && e.stack ? e.stack : e) })
);
