export type DilithiumAlgorithm =
  | 'Dilithium2' | 'Dilithium3' | 'Dilithium5'
  | 'Dilithium2-AES' | 'Dilithium3-AES' | 'Dilithium5-AES';
export declare const DILITHIUM_ALGORITHMS: readonly DilithiumAlgorithm[];
export declare class DilithiumVerifyingKey {
  private constructor();
  static fromBytes(algorithm: DilithiumAlgorithm, bytes: Uint8Array): DilithiumVerifyingKey;
  readonly algorithm: DilithiumAlgorithm;
  toBytes(): Uint8Array;
  verify(signature: Uint8Array, message: Uint8Array): boolean;
  free(): void;
  [Symbol.dispose](): void;
}
export declare class DilithiumSigningKey {
  private constructor();
  static generate(algorithm: DilithiumAlgorithm): DilithiumSigningKey;
  static fromSeed(algorithm: DilithiumAlgorithm, seed: Uint8Array): DilithiumSigningKey;
  static fromBytes(algorithm: DilithiumAlgorithm, bytes: Uint8Array, opts?: { check?: boolean }): DilithiumSigningKey;
  readonly algorithm: DilithiumAlgorithm;
  readonly publicKey: DilithiumVerifyingKey;
  seed(): Uint8Array | undefined;
  toBytes(): Uint8Array;
  prepare(): this;
  sign(message: Uint8Array, opts?: { randomized?: boolean }): Uint8Array;
  free(): void;
  [Symbol.dispose](): void;
}
