// Two builds of this package, A and B, side by side in one Node process: keygen, sign
// (deterministic, so both run the same attempts) and verify of each set, the two builds'
// samples alternated (300 samples of 4 calls, the order swapped every sample), reported as the
// 10th percentile and the minimum (load on a shared machine only adds time).
//
// Usage: node bench/ab.mjs DIR_A DIR_B   (each a copy of this package with its lib/ and pkg/)
import { performance } from 'node:perf_hooks';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const dirs = process.argv.slice(2, 4);
if (dirs.length !== 2) throw new Error('usage: node bench/ab.mjs DIR_A DIR_B');
const [a, b] = ['A', 'B'];
const libs = {};
for (const [name, dir] of [[a, dirs[0]], [b, dirs[1]]]) {
  libs[name] = await import(pathToFileURL(resolve(dir, 'lib/index.js')).href);
}
const msg = new Uint8Array(64).map((_, i) => i);
const pct = (xs, p) => xs.slice().sort((x, y) => x - y)[Math.floor(p * (xs.length - 1))];
for (const set of ['ml_dsa44', 'ml_dsa65', 'ml_dsa87']) {
  const ops = {};
  for (const [n, m] of Object.entries(libs)) {
    const api = m[set];
    const { publicKey, secretKey } = api.keygen(new Uint8Array(32).fill(7));
    const sig = api.sign(msg, secretKey);
    ops[n] = {
      keygen: () => api.keygen(),
      sign: () => api.sign(msg, secretKey, { extraEntropy: false }),
      verify: () => api.verify(sig, msg, publicKey),
    };
  }
  for (const op of ['keygen', 'sign', 'verify']) {
    const xs = { [a]: [], [b]: [] };
    for (let w = 0; w < 50; w++) {
      ops[a][op]();
      ops[b][op]();
    }
    for (let s = 0; s < 300; s++) {
      for (const n of s % 2 ? [a, b] : [b, a]) {
        const t = performance.now();
        for (let i = 0; i < 4; i++) ops[n][op]();
        xs[n].push((performance.now() - t) * 250);
      }
    }
    const [pa, pb] = [pct(xs[a], 0.1), pct(xs[b], 0.1)];
    console.log(
      `${set} ${op}: p10 A ${pa.toFixed(1)} B ${pb.toFixed(1)} µs (A/B ${(pa / pb).toFixed(3)}); ` +
        `min ${Math.min(...xs[a]).toFixed(1)} / ${Math.min(...xs[b]).toFixed(1)}`,
    );
  }
}
