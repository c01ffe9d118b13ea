export type MlDsaAlgorithm = 'ML-DSA-44' | 'ML-DSA-65' | 'ML-DSA-87';
export declare const ALGORITHMS: readonly MlDsaAlgorithm[];
/** NIST names: SHA2-224/256/384/512, SHA2-512/224, SHA2-512/256, SHA3-224/256/384/512, SHAKE-128, SHAKE-256. */
export type PreHashName = string;
type Bytes = Uint8Array;
type Chunk = Uint8Array | ArrayBuffer | string;
type ChunkSource = ReadableStream<Uint8Array> | AsyncIterable<Chunk>;
export interface ContextOpts {
  /** At most 255 bytes. */
  context?: Uint8Array;
}
export interface SignOpts extends ContextOpts {
  /** 32 bytes of signing randomness, or `false` for deterministic signing; absent: fresh randomness. */
  extraEntropy?: Uint8Array | false;
}
export interface PrehashOpts {
  /** `message` is already the digest. */
  digest?: boolean;
}
export declare class MessageSigner {
  update(chunk: Chunk): this;
  updateStream(source: ChunkSource): Promise<this>;
  sign(opts?: { extraEntropy?: Uint8Array | false }): Bytes;
}
export declare class MessageVerifier {
  update(chunk: Chunk): this;
  updateStream(source: ChunkSource): Promise<this>;
  verify(signature: Bytes): boolean;
}
export declare class VerifyingKey {
  private constructor();
  static fromBytes(algorithm: MlDsaAlgorithm, bytes: Bytes): VerifyingKey;
  /** DER bytes, or PEM ("PUBLIC KEY") as a string or bytes. */
  static fromSpki(doc: Bytes | string): VerifyingKey;
  readonly algorithm: MlDsaAlgorithm;
  readonly prepared: boolean;
  prepare(): this;
  toBytes(): Bytes;
  toSpki(opts?: { pem?: false }): Bytes;
  toSpki(opts: { pem: true }): string;
  verify(signature: Bytes, message: Bytes, opts?: ContextOpts): boolean;
  verifyPrehashed(hash: PreHashName, signature: Bytes, message: Bytes, opts?: ContextOpts & PrehashOpts): boolean;
  verifier(opts?: ContextOpts): MessageVerifier;
  free(): void;
  [Symbol.dispose](): void;
}
export declare class SigningKey {
  private constructor();
  static generate(algorithm: MlDsaAlgorithm): SigningKey;
  static fromSeed(algorithm: MlDsaAlgorithm, seed: Bytes): SigningKey;
  static fromExpanded(algorithm: MlDsaAlgorithm, bytes: Bytes, opts?: { check?: boolean }): SigningKey;
  /** DER bytes, or PEM ("PRIVATE KEY") as a string or bytes; RFC 9881 seed, expanded or both. */
  static fromPkcs8(doc: Bytes | string): SigningKey;
  readonly algorithm: MlDsaAlgorithm;
  readonly publicKey: VerifyingKey;
  seed(): Bytes | undefined;
  expanded(): Bytes;
  prepare(): this;
  sign(message: Bytes, opts?: SignOpts): Bytes;
  signPrehashed(hash: PreHashName, message: Bytes, opts?: SignOpts & PrehashOpts): Bytes;
  signer(opts?: ContextOpts): MessageSigner;
  signStream(source: ChunkSource, opts?: SignOpts): Promise<Bytes>;
  toPkcs8(opts?: { form?: 'seed' | 'expanded' | 'both'; pem?: false }): Bytes;
  toPkcs8(opts: { form?: 'seed' | 'expanded' | 'both'; pem: true }): string;
  /** Zeroises and releases the key's memory. */
  free(): void;
  [Symbol.dispose](): void;
}
