//! The AES-256-CTR stream of the Dilithium v3.1 AES sets (v3.1 section 5.3), which replaces
//! SHAKE128 and SHAKE256 behind ExpandA, ExpandS and ExpandMask.
//!
//! No AES of our own: RustCrypto's `aes` (AES-NI when the CPU has it, detected at run time;
//! otherwise its constant-time fixsliced software AES) under RustCrypto's `ctr`.

use aes::Aes256;
use ctr::cipher::{KeyIvInit, StreamCipher};

/// The keystream of AES-256 in counter mode with the v3.1 layout (section 5.3; the reference
/// code's `dilithium_aes256ctr_init`): the 32-byte key, a 12-byte nonce made of a 16-bit index
/// in little-endian order followed by ten zero bytes, and a 32-bit big-endian block counter in
/// the last four bytes of the counter block, starting at 0. Read in any pieces, it is one
/// contiguous stream (the counter mode keeps its position).
///
/// The expanded key is wiped when the stream is dropped (`aes`'s `zeroize` feature): for ExpandS
/// and ExpandMask it comes from a secret.
pub(crate) struct AesCtrStream(ctr::Ctr32BE<Aes256>);

impl AesCtrStream {
    /// The stream for `key` and the 16-bit index `nonce`.
    pub(crate) fn new(key: &[u8; 32], nonce: u16) -> Self {
        let mut iv = [0u8; 16];
        iv[..2].copy_from_slice(&nonce.to_le_bytes());
        AesCtrStream(ctr::Ctr32BE::<Aes256>::new(key.into(), &iv.into()))
    }

    /// The stream for a sampler seed `key || IntegerToBytes(index, 2)` as the SHAKE sets build
    /// it (34 bytes for ExpandA, 66 for ExpandS and ExpandMask): the AES key is the first 32
    /// bytes of the seed (all of rho; the first half of rho' or rho''), the nonce the index.
    pub(crate) fn for_seed<const LEN: usize>(seed: &[u8; LEN]) -> Self {
        const { assert!(LEN >= 34) };
        let key = seed[..32].try_into().expect("32 bytes");
        Self::new(key, u16::from_le_bytes([seed[LEN - 2], seed[LEN - 1]]))
    }

    /// Overwrites `out` with the next `out.len()` bytes of the stream.
    pub(crate) fn fill(&mut self, out: &mut [u8]) {
        out.fill(0);
        // At most a few KiB per stream: far below the 2^32 blocks the counter allows, so this
        // cannot fail.
        self.0.apply_keystream(out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The stream is AES-256 of the counter blocks nonce || 0^10 || BE32(i), i = 0, 1, ...
    /// (checked against the block cipher itself), read across uneven pieces.
    #[test]
    fn stream_is_aes_of_the_counter_blocks() {
        use aes::cipher::{Array, BlockCipherEncrypt, KeyInit};
        let key: [u8; 32] = core::array::from_fn(|i| i as u8 * 7 + 1);
        let nonce = 0x0201u16;
        let mut got = [0u8; 16 * 5];
        let mut s = AesCtrStream::new(&key, nonce);
        let (a, b) = got.split_at_mut(23);
        s.fill(a);
        s.fill(b);
        let cipher = Aes256::new(&Array::from(key));
        for (i, block) in got.chunks_exact(16).enumerate() {
            let mut ctr = [0u8; 16];
            ctr[0] = 0x01;
            ctr[1] = 0x02;
            ctr[12..].copy_from_slice(&(i as u32).to_be_bytes());
            let mut expect = Array::from(ctr);
            cipher.encrypt_block(&mut expect);
            assert_eq!(block, expect.as_slice(), "block {i}");
        }
        // for_seed: key = the first 32 bytes, nonce = the last two, little-endian.
        let mut seed = [0u8; 66];
        seed[..32].copy_from_slice(&key);
        seed[32..64].fill(0xEE);
        seed[64..].copy_from_slice(&nonce.to_le_bytes());
        let mut again = [0u8; 16 * 5];
        AesCtrStream::for_seed(&seed).fill(&mut again);
        assert_eq!(again, got);
    }
}
