// Drop-in replacement for `@noble/post-quantum/ml-dsa.js` (0.7.x): the same exports, names,
// argument order, options and results (byte-identical keys and deterministic signatures), with
// the lattice work done by the mldsa crate in WebAssembly. Keys are the FIPS 204 encodings, as
// noble passes them.
import * as native from './wasm.js';
import { abool, abytes, acontext, aopts, arnd, call, MlDsaError } from './errors.js';

// FIPS 204 Table 1, as noble exports it (keyed by NIST security category).
export const PARAMS = Object.freeze({
  2: Object.freeze({ K: 4, L: 4, D: 13, GAMMA1: 2 ** 17, GAMMA2: (8380417 - 1) / 88, TAU: 39, ETA: 2, OMEGA: 80 }),
  3: Object.freeze({ K: 6, L: 5, D: 13, GAMMA1: 2 ** 19, GAMMA2: (8380417 - 1) / 32, TAU: 49, ETA: 4, OMEGA: 55 }),
  5: Object.freeze({ K: 8, L: 7, D: 13, GAMMA1: 2 ** 19, GAMMA2: (8380417 - 1) / 32, TAU: 60, ETA: 2, OMEGA: 75 }),
});

const SIG_OPTS = ['context', 'extraEntropy'];
const VER_OPTS = ['context'];
const INTERNAL_SIG_OPTS = ['extraEntropy', 'externalMu'];
const INTERNAL_VER_OPTS = ['externalMu'];

// The NIST hash-algorithm arc (2.16.840.1.101.3.4.2), DER-encoded with its tag and length:
// HashML-DSA only allows hashes under it (FIPS 204 section 5.4).
const NIST_HASH_OID_PREFIX = [0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02];
// SHAKE128 and SHAKE256 as pre-hashes have fixed output lengths (FIPS 204 section 5.4.1).
const XOF_OUTPUT_LEN = { 11: 32, 12: 64 };

function randomSeed() {
  // The same source the wasm side uses for hedged signing (getrandom's wasm_js backend).
  if (typeof globalThis.crypto?.getRandomValues !== 'function')
    throw new MlDsaError('no globalThis.crypto.getRandomValues to draw a seed from (Node 18 needs --experimental-global-webcrypto)', 'rng');
  return globalThis.crypto.getRandomValues(new Uint8Array(32));
}

function externalMuOpt(opts) {
  return opts.externalMu === undefined ? false : abool(opts.externalMu, 'opts.externalMu');
}

function checkHash(hash, securityLevel) {
  if (typeof hash !== 'function' || typeof hash.create !== 'function')
    throw new TypeError('"hash" expected hash function, got type=' + typeof hash);
  if (!Number.isSafeInteger(hash.outputLen) || hash.outputLen <= 0)
    throw new TypeError('"hash.outputLen" expected a positive integer');
  const oid = abytes(hash.oid, undefined, 'hash.oid');
  if (oid.length !== 11 || NIST_HASH_OID_PREFIX.some((b, i) => oid[i] !== b))
    throw new Error('"hash.oid" is invalid: expected NIST hash');
  const xofLen = XOF_OUTPUT_LEN[oid[10]];
  if (xofLen !== undefined && hash.outputLen !== xofLen)
    throw new Error(`Pre-hash XOF output length must be ${xofLen} bytes for this OID, got: ${hash.outputLen}`);
  const strength = (hash.outputLen * 8) / 2;
  if (securityLevel > strength)
    throw new Error(`Pre-hash security strength too low: ${strength}, required: ${securityLevel}`);
}

// M' = 1 || |ctx| || ctx || OID(PH) || PH(M) (FIPS 204 Algorithm 4), formed here because PH is
// the caller's hash function.
function prehashMessage(hash, msg, ctx) {
  abytes(msg, undefined, 'msg');
  const digest = abytes(hash(msg), hash.outputLen, 'hash(msg)');
  const m = new Uint8Array(2 + ctx.length + hash.oid.length + digest.length);
  m[0] = 1;
  m[1] = ctx.length;
  m.set(ctx, 2);
  m.set(hash.oid, 2 + ctx.length);
  m.set(digest, 2 + ctx.length + hash.oid.length);
  return m;
}

function makeDsa(level, securityLevel, publicKey, secretKey, signature) {
  const lengths = Object.freeze({ secretKey, publicKey, seed: 32, signature, signRand: 32 });
  const skArg = (sk) => abytes(sk, secretKey, 'secretKey');
  const pkArg = (pk) => abytes(pk, publicKey, 'publicKey');

  const keygen = (seed) => {
    const own = seed === undefined;
    const s = own ? randomSeed() : abytes(seed, 32, 'seed');
    try {
      const [pk, sk] = call(() => native.mlKeygen(level, s));
      return { publicKey: pk, secretKey: sk };
    } finally {
      if (own) s.fill(0);
    }
  };
  const getPublicKey = (sk) => call(() => native.mlPublicKey(level, skArg(sk)));

  const internal = Object.freeze({
    info: Object.freeze({ type: 'internal-ml-dsa' }),
    lengths,
    keygen,
    getPublicKey,
    sign: (msg, sk, opts = {}) => {
      opts = aopts(opts, INTERNAL_SIG_OPTS);
      const rnd = arnd(opts.extraEntropy);
      const externalMu = externalMuOpt(opts);
      abytes(msg, externalMu ? 64 : undefined, externalMu ? 'mu' : 'msg');
      return call(() => native.mlSignInternal(level, skArg(sk), msg, externalMu, rnd));
    },
    verify: (sig, msg, pk, opts = {}) => {
      opts = aopts(opts, INTERNAL_VER_OPTS);
      const externalMu = externalMuOpt(opts);
      abytes(msg, externalMu ? 64 : undefined, externalMu ? 'mu' : 'msg');
      abytes(sig, undefined, 'signature');
      return call(() => native.mlVerifyInternal(level, pkArg(pk), msg, externalMu, sig));
    },
  });

  const sign = (msg, sk, opts = {}) => {
    opts = aopts(opts, SIG_OPTS);
    const ctx = acontext(opts.context);
    const rnd = arnd(opts.extraEntropy);
    abytes(msg, undefined, 'msg');
    return call(() => native.mlSign(level, skArg(sk), msg, ctx, rnd));
  };
  const verify = (sig, msg, pk, opts = {}) => {
    opts = aopts(opts, VER_OPTS);
    const ctx = acontext(opts.context);
    abytes(sig, undefined, 'signature');
    abytes(msg, undefined, 'msg');
    return call(() => native.mlVerify(level, pkArg(pk), msg, ctx, sig));
  };

  const prehash = (hash) => {
    checkHash(hash, securityLevel);
    return Object.freeze({
      info: Object.freeze({ type: 'hashml-dsa' }),
      securityLevel,
      lengths,
      keygen,
      getPublicKey,
      sign: (msg, sk, opts = {}) => {
        opts = aopts(opts, SIG_OPTS);
        const rnd = arnd(opts.extraEntropy);
        skArg(sk);
        const m = prehashMessage(hash, msg, acontext(opts.context));
        return call(() => native.mlSignInternal(level, sk, m, false, rnd));
      },
      verify: (sig, msg, pk, opts = {}) => {
        opts = aopts(opts, VER_OPTS);
        abytes(sig, undefined, 'signature');
        pkArg(pk);
        const m = prehashMessage(hash, msg, acontext(opts.context));
        return call(() => native.mlVerifyInternal(level, pk, m, false, sig));
      },
    });
  };

  return Object.freeze({
    info: Object.freeze({ type: 'ml-dsa' }),
    internal,
    securityLevel,
    keygen,
    lengths,
    getPublicKey,
    sign,
    verify,
    prehash,
  });
}

/** ML-DSA-44 (NIST security category 2). */
export const ml_dsa44 = /* @__PURE__ */ makeDsa(44, 128, 1312, 2560, 2420);
/** ML-DSA-65 (NIST security category 3). */
export const ml_dsa65 = /* @__PURE__ */ makeDsa(65, 192, 1952, 4032, 3309);
/** ML-DSA-87 (NIST security category 5). */
export const ml_dsa87 = /* @__PURE__ */ makeDsa(87, 256, 2592, 4896, 4627);
