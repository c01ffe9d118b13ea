export { ml_dsa44, ml_dsa65, ml_dsa87, PARAMS } from './ml-dsa.js';
export type { DSA, DSAInternal, DSAInternalOpts, DSAParam } from './ml-dsa.js';
export * from './keys.js';
export * from './dilithium.js';
export { MlDsaError } from './errors.js';
