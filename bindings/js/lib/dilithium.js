// The round-3 CRYSTALS-Dilithium sets (v3.1: Dilithium2/3/5 and their AES variants), for keys
// and signatures made before FIPS 204. Not interoperable with ML-DSA: no context, a 32-byte tr,
// different hashing. Signing is deterministic unless `{ randomized: true }`.
import * as native from './wasm.js';
import { abool, abytes, aopts, call } from './errors.js';
import { KeyObject } from './handle.js';

/** The round-3 parameter sets by name. */
export const DILITHIUM_ALGORITHMS = Object.freeze([
  'Dilithium2', 'Dilithium3', 'Dilithium5', 'Dilithium2-AES', 'Dilithium3-AES', 'Dilithium5-AES',
]);

function name(algorithm) {
  if (!DILITHIUM_ALGORITHMS.includes(algorithm))
    throw new RangeError(`"algorithm" must be one of ${DILITHIUM_ALGORITHMS.join(', ')}, got ${String(algorithm)}`);
  return algorithm;
}

/** A round-3 Dilithium verifying key. */
export class DilithiumVerifyingKey extends KeyObject {
  constructor(handle) {
    super(handle, native.DilithiumVerifyingKeyHandle, 'use DilithiumVerifyingKey.fromBytes or DilithiumSigningKey.publicKey');
  }
  static fromBytes(algorithm, bytes) {
    const n = name(algorithm);
    abytes(bytes, undefined, 'publicKey');
    return new DilithiumVerifyingKey(call(() => native.DilithiumVerifyingKeyHandle.fromBytes(n, bytes)));
  }
  get algorithm() {
    return this._handle().algorithm;
  }
  toBytes() {
    return this._handle().toBytes();
  }
  /** `false` for any invalid signature. */
  verify(signature, message) {
    abytes(signature, undefined, 'signature');
    abytes(message, undefined, 'message');
    return this._handle().verify(message, signature);
  }
}

/** A round-3 Dilithium signing key. */
export class DilithiumSigningKey extends KeyObject {
  constructor(handle) {
    super(handle, native.DilithiumSigningKeyHandle, 'use DilithiumSigningKey.generate, fromSeed or fromBytes');
  }
  static generate(algorithm) {
    const n = name(algorithm);
    return new DilithiumSigningKey(call(() => native.DilithiumSigningKeyHandle.generate(n)));
  }
  /** v3.1 KeyGen from its 32-byte seed. */
  static fromSeed(algorithm, seed) {
    const n = name(algorithm);
    abytes(seed, 32, 'seed');
    return new DilithiumSigningKey(call(() => native.DilithiumSigningKeyHandle.fromSeed(n, seed)));
  }
  /** The v3.1 secret-key encoding; `{ check: false }` skips recomputing tr and t0. */
  static fromBytes(algorithm, bytes, opts) {
    const n = name(algorithm);
    opts = aopts(opts, ['check']);
    const check = opts.check === undefined ? true : abool(opts.check, 'opts.check');
    abytes(bytes, undefined, 'secretKey');
    return new DilithiumSigningKey(call(() => native.DilithiumSigningKeyHandle.fromBytes(n, bytes, check)));
  }
  get algorithm() {
    return this._handle().algorithm;
  }
  get publicKey() {
    return new DilithiumVerifyingKey(this._handle().publicKey());
  }
  seed() {
    return this._handle().seed();
  }
  toBytes() {
    return call(() => this._handle().toBytes());
  }
  prepare() {
    this._handle().prepare();
    return this;
  }
  /** Deterministic v3.1 signature, or randomized with `{ randomized: true }`. */
  sign(message, opts) {
    opts = aopts(opts, ['randomized']);
    const randomized = opts.randomized === undefined ? false : abool(opts.randomized, 'opts.randomized');
    abytes(message, undefined, 'message');
    return call(() => this._handle().sign(message, randomized));
  }
}
