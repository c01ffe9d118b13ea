// The idiomatic API: key objects decoded once and kept in wasm memory (optionally prepared:
// the matrix A-hat expanded once for many signatures or verifications), RFC 9881 SPKI and
// PKCS#8 import and export (DER or PEM), and streaming of large messages. A signing key's
// memory is zeroised by free() (or `using`, or when the garbage collector finalises it).
import * as native from './wasm.js';
import { abool, abytes, acontext, aopts, arnd, call } from './errors.js';
import { KeyObject } from './handle.js';

const LEVELS = { 'ML-DSA-44': 44, 'ML-DSA-65': 65, 'ML-DSA-87': 87 };

/** The ML-DSA parameter sets by name. */
export const ALGORITHMS = Object.freeze(Object.keys(LEVELS));

function level(algorithm) {
  const l = LEVELS[typeof algorithm === 'string' ? algorithm.toUpperCase() : algorithm];
  if (l === undefined)
    throw new RangeError(`"algorithm" must be one of ${ALGORITHMS.join(', ')}, got ${String(algorithm)}`);
  return l;
}

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder();

// A key document: a PEM string, or bytes holding DER or PEM text.
function document(doc, name) {
  if (typeof doc === 'string') return { bytes: utf8.encode(doc), pem: true };
  abytes(doc, undefined, name);
  let i = 0;
  while (i < doc.length && (doc[i] === 0x20 || doc[i] === 0x0a || doc[i] === 0x0d || doc[i] === 0x09)) i++;
  const pem = doc.length - i >= 5 && doc.subarray(i, i + 5).every((b) => b === 0x2d); // "-----"
  return { bytes: doc, pem };
}

function messageChunk(chunk) {
  if (typeof chunk === 'string') return utf8.encode(chunk);
  if (chunk instanceof ArrayBuffer) return new Uint8Array(chunk);
  return abytes(chunk, undefined, 'chunk');
}

// Absorbs a message arriving in pieces into mu (FIPS 204's H(tr || M')); the wasm side holds
// the SHAKE256 state, so memory use does not grow with the message.
class MuStreamBase {
  constructor(stream) {
    this._stream = stream;
  }
  /** Absorbs the next chunk (Uint8Array, ArrayBuffer or a string, as UTF-8). */
  update(chunk) {
    const c = messageChunk(chunk);
    call(() => this._live().update(c));
    return this;
  }
  /** Absorbs every chunk of a ReadableStream (or any async iterable) of bytes. */
  async updateStream(source) {
    if (source && typeof source.getReader === 'function') {
      const reader = source.getReader();
      try {
        for (;;) {
          this._live();
          const { done, value } = await reader.read();
          if (done) break;
          this.update(value);
        }
      } finally {
        reader.releaseLock();
      }
    } else if (source && typeof source[Symbol.asyncIterator] === 'function') {
      for await (const chunk of source) this.update(chunk);
    } else {
      throw new TypeError('"source" expected a ReadableStream or an async iterable of Uint8Array');
    }
    return this;
  }
  _live() {
    if (!this._stream) throw new TypeError('this stream has already been signed or verified');
    return this._stream;
  }
  _finish(f) {
    const s = this._live();
    try {
      return call(() => f(s));
    } finally {
      this._stream = undefined;
      s.free();
    }
  }
}

/** Streaming signer from SigningKey.signer(). */
export class MessageSigner extends MuStreamBase {
  constructor(key, stream) {
    super(stream);
    this._key = key;
  }
  /** Signs what was absorbed; `extraEntropy` as in SigningKey.sign. The signer is used up. */
  sign(opts) {
    opts = aopts(opts, ['extraEntropy']);
    const rnd = arnd(opts.extraEntropy);
    return this._finish((s) => this._key._handle().signStream(s, rnd));
  }
}

/** Streaming verifier from VerifyingKey.verifier(). */
export class MessageVerifier extends MuStreamBase {
  constructor(key, stream) {
    super(stream);
    this._key = key;
  }
  /** Verifies `signature` over what was absorbed. The verifier is used up. */
  verify(signature) {
    abytes(signature, undefined, 'signature');
    return this._finish((s) => this._key._handle().verifyStream(s, signature));
  }
}

/** An ML-DSA verifying (public) key. */
export class VerifyingKey extends KeyObject {
  constructor(handle) {
    super(handle, native.MlDsaVerifyingKeyHandle, 'use VerifyingKey.fromBytes, VerifyingKey.fromSpki or SigningKey.publicKey');
  }
  /** A key from its FIPS 204 encoding. */
  static fromBytes(algorithm, bytes) {
    const l = level(algorithm);
    abytes(bytes, undefined, 'publicKey');
    return new VerifyingKey(call(() => native.MlDsaVerifyingKeyHandle.fromBytes(l, bytes)));
  }
  /** A key from a SubjectPublicKeyInfo: DER bytes, or PEM ("PUBLIC KEY") as a string or bytes. */
  static fromSpki(doc) {
    const { bytes, pem } = document(doc, 'spki');
    return new VerifyingKey(call(() => native.MlDsaVerifyingKeyHandle.fromSpki(bytes, pem)));
  }
  /** "ML-DSA-44", "ML-DSA-65" or "ML-DSA-87". */
  get algorithm() {
    return `ML-DSA-${this._handle().level}`;
  }
  /** Whether prepare() has run. */
  get prepared() {
    return this._handle().prepared;
  }
  /** Keeps the expanded matrix and t1 so that later verifications are faster. Returns this. */
  prepare() {
    this._handle().prepare();
    return this;
  }
  /** The FIPS 204 encoding. */
  toBytes() {
    return this._handle().toBytes();
  }
  /** SubjectPublicKeyInfo as DER bytes, or as a PEM string with `{ pem: true }`. */
  toSpki(opts) {
    opts = aopts(opts, ['pem']);
    return opts.pem === undefined || !abool(opts.pem, 'opts.pem') ? this._handle().toSpkiDer() : this._handle().toSpkiPem();
  }
  /** Verifies ML-DSA (pure) `signature` over `message`; `false` for any invalid signature. */
  verify(signature, message, opts) {
    opts = aopts(opts, ['context']);
    const ctx = acontext(opts.context);
    abytes(signature, undefined, 'signature');
    abytes(message, undefined, 'message');
    return call(() => this._handle().verify(message, ctx, signature));
  }
  /** HashML-DSA: `hash` is a NIST name ("SHA2-512", "SHAKE-256", ...); `digest: true` when `message` is already the digest. */
  verifyPrehashed(hash, signature, message, opts) {
    opts = aopts(opts, ['context', 'digest']);
    const ctx = acontext(opts.context);
    if (typeof hash !== 'string') throw new TypeError('"hash" expected a hash name such as "SHA2-512"');
    abytes(signature, undefined, 'signature');
    abytes(message, undefined, 'message');
    const digest = opts.digest === undefined ? false : abool(opts.digest, 'opts.digest');
    return call(() => this._handle().verifyPrehashed(hash, message, digest, ctx, signature));
  }
  /** A streaming verifier for a message given in chunks. */
  verifier(opts) {
    opts = aopts(opts, ['context']);
    const ctx = acontext(opts.context);
    return new MessageVerifier(this, call(() => this._handle().stream(ctx)));
  }
}

/** An ML-DSA signing (secret) key. */
export class SigningKey extends KeyObject {
  constructor(handle) {
    super(handle, native.MlDsaSigningKeyHandle, 'use SigningKey.generate, SigningKey.fromSeed, SigningKey.fromExpanded or SigningKey.fromPkcs8');
  }
  /** A new key (its seed from crypto.getRandomValues, drawn inside the wasm instance). */
  static generate(algorithm) {
    const l = level(algorithm);
    return new SigningKey(call(() => native.MlDsaSigningKeyHandle.generate(l)));
  }
  /** ML-DSA.KeyGen_internal from a 32-byte seed. */
  static fromSeed(algorithm, seed) {
    const l = level(algorithm);
    abytes(seed, 32, 'seed');
    return new SigningKey(call(() => native.MlDsaSigningKeyHandle.fromSeed(l, seed)));
  }
  /**
   * A key from the FIPS 204 expanded encoding. By default it is checked to be one KeyGen
   * could have made (tr and t0 recomputed); `{ check: false }` only checks s1 and s2's ranges.
   */
  static fromExpanded(algorithm, bytes, opts) {
    const l = level(algorithm);
    opts = aopts(opts, ['check']);
    const check = opts.check === undefined ? true : abool(opts.check, 'opts.check');
    abytes(bytes, undefined, 'secretKey');
    return new SigningKey(call(() => native.MlDsaSigningKeyHandle.fromExpanded(l, bytes, check)));
  }
  /** A key from a PKCS#8 OneAsymmetricKey (RFC 9881; seed, expanded or both): DER bytes, or PEM ("PRIVATE KEY") as a string or bytes. */
  static fromPkcs8(doc) {
    const { bytes, pem } = document(doc, 'pkcs8');
    return new SigningKey(call(() => native.MlDsaSigningKeyHandle.fromPkcs8(bytes, pem)));
  }
  get algorithm() {
    return `ML-DSA-${this._handle().level}`;
  }
  /** The verifying key. */
  get publicKey() {
    return new VerifyingKey(this._handle().publicKey());
  }
  /** The 32-byte seed, or undefined for a key imported from its expanded form. */
  seed() {
    return this._handle().seed();
  }
  /** The FIPS 204 expanded encoding. */
  expanded() {
    return call(() => this._handle().expanded());
  }
  /** Keeps the expanded matrix A-hat so later signatures skip it. Returns this. */
  prepare() {
    this._handle().prepare();
    return this;
  }
  /**
   * ML-DSA (pure) signature over `message`. `extraEntropy`: absent for hedged signing with
   * fresh randomness, `false` for deterministic, or 32 bytes of your own.
   */
  sign(message, opts) {
    opts = aopts(opts, ['context', 'extraEntropy']);
    const ctx = acontext(opts.context);
    const rnd = arnd(opts.extraEntropy);
    abytes(message, undefined, 'message');
    return call(() => this._handle().sign(message, ctx, rnd));
  }
  /** HashML-DSA signature; `hash` a NIST name ("SHA2-512", ...), `digest: true` if `message` is the digest. */
  signPrehashed(hash, message, opts) {
    opts = aopts(opts, ['context', 'extraEntropy', 'digest']);
    const ctx = acontext(opts.context);
    const rnd = arnd(opts.extraEntropy);
    if (typeof hash !== 'string') throw new TypeError('"hash" expected a hash name such as "SHA2-512"');
    abytes(message, undefined, 'message');
    const digest = opts.digest === undefined ? false : abool(opts.digest, 'opts.digest');
    return call(() => this._handle().signPrehashed(hash, message, digest, ctx, rnd));
  }
  /** A streaming signer for a message given in chunks. */
  signer(opts) {
    opts = aopts(opts, ['context']);
    const ctx = acontext(opts.context);
    return new MessageSigner(this, call(() => this._handle().stream(ctx)));
  }
  /** Signs a whole ReadableStream (or async iterable) of bytes. */
  async signStream(source, opts) {
    opts = aopts(opts, ['context', 'extraEntropy']);
    const signer = this.signer({ context: opts.context });
    await signer.updateStream(source);
    return signer.sign({ extraEntropy: opts.extraEntropy });
  }
  /**
   * PKCS#8 (RFC 9881) as DER bytes, or PEM text with `{ pem: true }`; `form` "seed" (the
   * default, RFC 9881's recommendation), "expanded" or "both".
   */
  toPkcs8(opts) {
    opts = aopts(opts, ['form', 'pem']);
    const form = opts.form === undefined ? 'seed' : opts.form;
    if (typeof form !== 'string') throw new TypeError('"opts.form" expected "seed", "expanded" or "both"');
    const pem = opts.pem === undefined ? false : abool(opts.pem, 'opts.pem');
    const out = call(() => this._handle().toPkcs8(form, pem));
    if (!pem) return out;
    const text = fromUtf8.decode(out);
    out.fill(0);
    return text;
  }
}
