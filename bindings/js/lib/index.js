// mldsa-rs: ML-DSA (FIPS 204) and round-3 Dilithium in WebAssembly, from the mldsa crate.
// The noble-compatible functions (also at mldsa-rs/ml-dsa.js), the key objects, and the
// round-3 sets (also at mldsa-rs/dilithium.js).
export { ml_dsa44, ml_dsa65, ml_dsa87, PARAMS } from './ml-dsa.js';
export { ALGORITHMS, SigningKey, VerifyingKey, MessageSigner, MessageVerifier } from './keys.js';
export { DILITHIUM_ALGORITHMS, DilithiumSigningKey, DilithiumVerifyingKey } from './dilithium.js';
export { MlDsaError } from './errors.js';
