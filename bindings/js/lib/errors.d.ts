/** A key or document the core rejected; `kind` says which check ("malformed", "pkix", ...). */
export declare class MlDsaError extends Error {
  readonly kind: string;
}
