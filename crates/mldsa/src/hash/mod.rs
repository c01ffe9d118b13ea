//! Hashing and sampling: Keccak-f[1600] and the SHAKE sponges (`keccak`), AES-256-CTR for the
//! Dilithium v3.1 AES sets (`aes_ctr`), and the samplers (`sample`, FIPS 204 Algorithms 14-15
//! and 29-34). Imports: `support`, `math`, `params`, `error`, `encoding`.

pub(crate) mod aes_ctr;
pub(crate) mod keccak;
pub(crate) mod sample;
