// Types of the noble-compatible module: the same exported names and shapes as
// @noble/post-quantum 0.7's ml-dsa.d.ts (test/noble.test.mjs compares them), self-contained so
// that the package needs no type dependency.

/** A hash function as @noble/hashes makes them: callable, with `create`, `outputLen` and `oid`. */
type CHash = {
  (msg: Uint8Array): Uint8Array;
  create(...args: any[]): unknown;
  outputLen: number;
  blockLen?: number;
  oid?: Uint8Array;
};
type CryptoKeys = {
  info?: { type?: string };
  lengths: { seed?: number; publicKey?: number; secretKey?: number };
  keygen: (seed?: Uint8Array) => { secretKey: Uint8Array; publicKey: Uint8Array };
  getPublicKey: (secretKey: Uint8Array) => Uint8Array;
};
type VerOpts = {
  /** Application context string, at most 255 bytes. */
  context?: Uint8Array;
};
type SigOpts = VerOpts & {
  /** 32 bytes of signing randomness, or `false` for deterministic signing; absent: fresh randomness. */
  extraEntropy?: Uint8Array | false;
};
type Signer = CryptoKeys & {
  lengths: { signRand?: number; signature?: number };
  sign: (msg: Uint8Array, secretKey: Uint8Array, opts?: SigOpts) => Uint8Array;
  verify: (sig: Uint8Array, msg: Uint8Array, publicKey: Uint8Array, opts?: VerOpts) => boolean;
};

/** Internal ML-DSA options. */
export type DSAInternalOpts = {
  /** `msg` is the 64-byte mu rather than M'. */
  externalMu?: boolean;
};
/** ML-DSA.Sign_internal / Verify_internal on a caller-formatted M' (or mu). */
export type DSAInternal = CryptoKeys & {
  lengths: Signer['lengths'];
  sign: (msg: Uint8Array, secretKey: Uint8Array, opts?: Omit<SigOpts, 'context'> & DSAInternalOpts) => Uint8Array;
  verify: (sig: Uint8Array, msg: Uint8Array, pubKey: Uint8Array, opts?: DSAInternalOpts) => boolean;
};
/** One ML-DSA parameter set. */
export type DSA = Signer & {
  internal: DSAInternal;
  securityLevel: number;
  /** HashML-DSA (FIPS 204 section 5.4) with `hash` (a NIST hash from @noble/hashes). */
  prehash: (hash: CHash) => Signer;
};
/** FIPS 204 Table 1 parameters. */
export type DSAParam = {
  K: number;
  L: number;
  D: number;
  GAMMA1: number;
  GAMMA2: number;
  TAU: number;
  ETA: number;
  OMEGA: number;
};
/** FIPS 204 Table 1, keyed by NIST security category (2, 3, 5). */
export declare const PARAMS: Record<string, DSAParam>;
/** ML-DSA-44. */
export declare const ml_dsa44: DSA;
/** ML-DSA-65. */
export declare const ml_dsa65: DSA;
/** ML-DSA-87. */
export declare const ml_dsa87: DSA;
export {};
