// Interop driver for @noble/post-quantum (npm, pure JavaScript).
//
// Usage: node driver.mjs NODE_MODULES_DIR JOBS.json  -- prints one JSON result per job, as a JSON
// array. The package is loaded from NODE_MODULES_DIR (installed by interop/run.py into its cache).
//
// noble has seeded keygen, raw FIPS 204 keys (expanded secret keys), pure and HashML-DSA signing
// (deterministic with extraEntropy: false), and external mu through its internal interface. It
// has no SPKI / PKCS#8 codec.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [modules, jobsPath] = process.argv.slice(2);
const load = (p) => import(pathToFileURL(join(modules, p)).href);
const { ml_dsa44, ml_dsa65, ml_dsa87 } = await load('@noble/post-quantum/ml-dsa.js');
const sha2 = await load('@noble/hashes/sha2.js');
const sha3 = await load('@noble/hashes/sha3.js');

const ALGS = { 'ML-DSA-44': ml_dsa44, 'ML-DSA-65': ml_dsa65, 'ML-DSA-87': ml_dsa87 };
// Our pre-hash names -> noble-hashes functions (the SHAKEs with the output length FIPS 204 fixes).
const PREHASH = {
  'SHA2-224': sha2.sha224,
  'SHA2-256': sha2.sha256,
  'SHA2-384': sha2.sha384,
  'SHA2-512': sha2.sha512,
  'SHA2-512/224': sha2.sha512_224,
  'SHA2-512/256': sha2.sha512_256,
  'SHA3-224': sha3.sha3_224,
  'SHA3-256': sha3.sha3_256,
  'SHA3-384': sha3.sha3_384,
  'SHA3-512': sha3.sha3_512,
  'SHAKE-128': sha3.shake128_32,
  'SHAKE-256': sha3.shake256_64,
};

const hex = (u8) => Buffer.from(u8).toString('hex');
const b = (job, k) => new Uint8Array(Buffer.from(job[k] ?? '', 'hex'));

function signer(job) {
  const m = ALGS[job.alg];
  if (!job.prehash) return m;
  const h = PREHASH[job.prehash];
  if (!h) throw new Error(`unknown pre-hash ${job.prehash}`);
  return m.prehash(h);
}

function run(job) {
  const m = ALGS[job.alg];
  switch (job.op) {
    case 'keygen': {
      const { publicKey, secretKey } = m.keygen(b(job, 'seed'));
      return { pk: hex(publicKey), sk: hex(secretKey) };
    }
    case 'sign': {
      // Signs with our expanded secret key (raw FIPS 204 bytes), not a key of its own.
      const opts = { context: b(job, 'ctx') };
      if (job.deterministic) opts.extraEntropy = false;
      else if (job.rnd) opts.extraEntropy = b(job, 'rnd'); // a given rnd (32 bytes)
      return { sig: hex(signer(job).sign(b(job, 'msg'), b(job, 'sk'), opts)) };
    }
    case 'verify':
      return { ok: signer(job).verify(b(job, 'sig'), b(job, 'msg'), b(job, 'pk'), { context: b(job, 'ctx') }) };
    case 'sign_mu': {
      const opts = { externalMu: true };
      if (job.deterministic) opts.extraEntropy = false;
      return { sig: hex(m.internal.sign(b(job, 'mu'), b(job, 'sk'), opts)) };
    }
    case 'verify_mu':
      return { ok: m.internal.verify(b(job, 'sig'), b(job, 'mu'), b(job, 'pk'), { externalMu: true }) };
    case 'mu':
      return { unsupported: 'no API that returns mu' };
    default:
      return { unsupported: `no ${job.op} (noble has no SPKI / PKCS#8 codec)` };
  }
}

const out = [];
for (const job of JSON.parse(readFileSync(jobsPath, 'utf8'))) {
  try {
    out.push(run(job));
  } catch (e) {
    out.push({ error: String(e && e.message ? e.message : e) });
  }
}
process.stdout.write(JSON.stringify(out));
