// Error classes and argument checks shared by the package's modules. Every bad argument is
// rejected here, before it reaches the wasm instance, with the argument's name in the message:
// a TypeError for a wrong type, a RangeError for a wrong length or value. What only the core
// can judge (a malformed key, a bad DER or PEM document) arrives from wasm as an Error named
// MlDsaError and is re-thrown as the MlDsaError class below.

/** A key or document the core rejected; `kind` says which check ("malformed", "pkix", ...). */
export class MlDsaError extends Error {
  constructor(message, kind) {
    super(message);
    this.name = 'MlDsaError';
    this.kind = kind;
  }
}

function rethrow(e) {
  if (e && e.name === 'MlDsaError' && !(e instanceof MlDsaError)) throw new MlDsaError(e.message, e.kind);
  throw e;
}

/** Runs a wasm call, turning the core's named errors into MlDsaError instances. */
export function call(f) {
  try {
    return f();
  } catch (e) {
    rethrow(e);
  }
}

function typeName(v) {
  if (v === null) return 'null';
  if (ArrayBuffer.isView(v)) return v.constructor.name;
  if (typeof v === 'object') return (v.constructor && v.constructor.name) || 'object';
  return typeof v;
}

// Uint8Array from this realm or another (an iframe, a Node vm context), as noble accepts.
export function isBytes(a) {
  return a instanceof Uint8Array || (ArrayBuffer.isView(a) && a.constructor.name === 'Uint8Array');
}

/** Checks that `value` is a Uint8Array (of `length` bytes, if given) and returns it. */
export function abytes(value, length, name) {
  if (!isBytes(value)) throw new TypeError(`"${name}" expected Uint8Array, got ${typeName(value)}`);
  if (length !== undefined && value.length !== length)
    throw new RangeError(`"${name}" expected ${length} bytes, got ${value.length}`);
  return value;
}

/** A FIPS 204 context string: bytes, at most 255 of them. */
export function acontext(ctx, name = 'opts.context') {
  if (ctx === undefined) return EMPTY;
  abytes(ctx, undefined, name);
  if (ctx.length > 255) throw new RangeError(`"${name}" must be at most 255 bytes, got ${ctx.length}`);
  return ctx;
}

/** An options argument: undefined or a plain object with only `allowed` keys. */
export function aopts(opts, allowed) {
  if (opts === undefined) return {};
  if (opts === null || typeof opts !== 'object' || isBytes(opts))
    throw new TypeError(`"opts" expected a plain object, got ${typeName(opts)}`);
  const proto = Object.getPrototypeOf(opts);
  if (proto !== null && proto !== Object.prototype) throw new TypeError('"opts" expected a plain object');
  for (const [k, v] of Object.entries(opts)) {
    if (v !== undefined && !allowed.includes(k))
      throw new TypeError(`unexpected option "${k}"; expected one of: ${allowed.join(', ')}`);
  }
  return opts;
}

/**
 * rnd for signing from `extraEntropy`: undefined draws fresh randomness inside the instance
 * (hedged), false is 32 zero bytes (deterministic), otherwise exactly 32 caller bytes.
 */
export function arnd(extraEntropy) {
  if (extraEntropy === undefined) return undefined;
  if (extraEntropy === false) return new Uint8Array(32);
  return abytes(extraEntropy, 32, 'opts.extraEntropy');
}

export function abool(v, name) {
  if (typeof v !== 'boolean') throw new TypeError(`"${name}" expected boolean, got ${typeName(v)}`);
  return v;
}

export const EMPTY = new Uint8Array(0);
