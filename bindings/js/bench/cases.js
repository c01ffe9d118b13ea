// The benchmark body, shared by Node (bench.mjs) and Chromium (page.js): keygen, sign and
// verify of each set for each library, timed one call at a time, medians reported. Each
// library is given the same kind of work: random keys, hedged signing of a 64-byte message.

const SAMPLES = 101;

function median(xs) {
  const s = xs.slice().sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

// Calls per sample so that a sample lasts long enough for the clock (browsers coarsen
// performance.now()), after warm-up.
function calibrate(f, now) {
  for (let i = 0; i < 5; i++) f();
  let batch = 1;
  for (;;) {
    const t = now();
    for (let i = 0; i < batch; i++) f();
    if (now() - t > 2 || batch >= 1024) return batch;
    batch *= 2;
  }
}

// Median microseconds per call of each of `fs` ({ lib: f }). The libraries' samples are
// interleaved (one of each in turn), so that load from other processes on a shared machine
// falls on all of them alike rather than on whichever ran during a busy spell.
function timeAll(fs, now) {
  const batches = Object.fromEntries(Object.entries(fs).map(([k, f]) => [k, calibrate(f, now)]));
  const xs = Object.fromEntries(Object.keys(fs).map((k) => [k, []]));
  for (let s = 0; s < SAMPLES; s++) {
    for (const [k, f] of Object.entries(fs)) {
      const b = batches[k];
      const t = now();
      for (let i = 0; i < b; i++) f();
      xs[k].push(((now() - t) * 1000) / b);
    }
  }
  return Object.fromEntries(Object.entries(xs).map(([k, v]) => [k, median(v)]));
}

/**
 * libs: { name: { [set]: { keygen(), sign(msg, sk), verify(sig, msg, pk) } } }, the same
 * adapter shape for every library. Returns rows { set, op, [lib]: microseconds }.
 */
export function runBench(libs, now, sets = ['ML-DSA-44', 'ML-DSA-65', 'ML-DSA-87']) {
  const rows = [];
  const msg = new Uint8Array(64).map((_, i) => i);
  for (const set of sets) {
    const ops = { keygen: {}, sign: {}, verify: {} };
    for (const [name, lib] of Object.entries(libs)) {
      const api = lib[set];
      const { publicKey, secretKey } = api.keygen();
      const sig = api.sign(msg, secretKey);
      if (!api.verify(sig, msg, publicKey)) throw new Error(`${name} ${set}: own signature does not verify`);
      ops.keygen[name] = () => api.keygen();
      ops.sign[name] = () => api.sign(msg, secretKey);
      ops.verify[name] = () => api.verify(sig, msg, publicKey);
    }
    for (const [op, fs] of Object.entries(ops)) rows.push({ set, op, ...timeAll(fs, now) });
  }
  return rows;
}

/** Adapters: the noble-style API (ours and noble's) and liboqs-js's. */
export function nobleAdapter(mod) {
  return { 'ML-DSA-44': mod.ml_dsa44, 'ML-DSA-65': mod.ml_dsa65, 'ML-DSA-87': mod.ml_dsa87 };
}

export async function oqsAdapter(oqs) {
  const out = {};
  for (const [set, make] of [['ML-DSA-44', oqs.createMLDSA44], ['ML-DSA-65', oqs.createMLDSA65], ['ML-DSA-87', oqs.createMLDSA87]]) {
    const s = await make();
    out[set] = {
      keygen: () => s.generateKeyPair(),
      sign: (m, sk) => s.sign(m, sk),
      verify: (sig, m, pk) => s.verify(m, sig, pk),
    };
  }
  return out;
}

/** A Markdown table: microseconds per library, and our speed-up over each other library. */
export function table(rows, ours = 'mldsa-rs') {
  const libs = Object.keys(rows[0]).filter((k) => k !== 'set' && k !== 'op');
  const others = libs.filter((l) => l !== ours);
  const fmt = (us) => (us >= 1000 ? (us / 1000).toFixed(2) + ' ms' : us.toFixed(0) + ' µs');
  const head = ['set', 'op', ...libs, ...others.map((o) => `vs ${o}`)];
  const lines = [`| ${head.join(' | ')} |`, `|${head.map(() => ' --- ').join('|')}|`];
  for (const r of rows)
    lines.push(`| ${[r.set, r.op, ...libs.map((l) => fmt(r[l])), ...others.map((o) => (r[o] / r[ours]).toFixed(1) + 'x')].join(' | ')} |`);
  return lines.join('\n');
}
