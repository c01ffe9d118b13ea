// Runs in Chromium: the vector suite (test/suite/vectors.js) against the package loaded through
// an import map, the files fetched from the test server. Reports through window.__result.
import * as lib from 'mldsa-rs';
import * as sha2 from '@noble/hashes/sha2.js';
import * as sha3 from '@noble/hashes/sha3.js';
import { makeSuite, FILES } from '/test/suite/vectors.js';

const hex = (b) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
const checks = {
  eq(a, b, label) {
    if (a instanceof Uint8Array) a = hex(a);
    if (b instanceof Uint8Array) b = hex(b);
    if (a !== b) throw new Error(`${label}: got ${String(a).slice(0, 64)}, expected ${String(b).slice(0, 64)}`);
  },
  ok(c, label) {
    if (!c) throw new Error(label);
  },
};
const text = (p) => fetch('/vectors/' + p).then((r) => (r.ok ? r.text() : Promise.reject(new Error(`${p}: ${r.status}`))));
const json = async (p) => JSON.parse(await text(p));

async function main() {
  const suite = makeSuite(lib, { sha2, sha3 }, checks);
  const results = {};
  const t0 = performance.now();
  results.keyGen = suite.keyGen(...(await Promise.all(FILES.keyGen.map(json))));
  results.sigGen = suite.sigGen(...(await Promise.all(FILES.sigGen.map(json)))).n;
  results.sigGenTr1 = suite.sigGen(...(await Promise.all(FILES.sigGenTr1.map(json)))).n;
  results.sigVer = suite.sigVer(...(await Promise.all(FILES.sigVer.map(json)))).n;
  results.refKat = 0;
  for (const [i, set] of ['ML-DSA-44', 'ML-DSA-65', 'ML-DSA-87'].entries()) {
    results.refKat += suite.refKat(await text(FILES.refKat[i]), set);
    results.rspMlDsa = (results.rspMlDsa || 0) + suite.rsp(await text(FILES.rspMlDsa[i]), set);
  }
  results.rspRound3 = 0;
  for (const [i, set] of ['Dilithium2', 'Dilithium3', 'Dilithium5'].entries())
    results.rspRound3 += suite.rsp(await text(FILES.rspRound3[i]), set);
  results.ms = Math.round(performance.now() - t0);
  results.userAgent = navigator.userAgent;
  return results;
}

main().then(
  (r) => (window.__result = { ok: true, ...r }),
  (e) => (window.__result = { ok: false, error: String(e && e.stack ? e.stack : e) })
);
