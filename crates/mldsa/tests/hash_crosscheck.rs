//! Our Keccak sponge (used for SHAKE in ML-DSA and for the SHA-3 / SHAKE pre-hashes) against
//! RustCrypto's independent `sha3` and `shake` crates, on every message length that crosses the
//! rate boundaries of every variant, through the public streaming and one-shot APIs.

use mldsa::{PreHash, PreHashed, PreHasher};
use sha3::Digest;
use shake::digest::{ExtendableOutput, Update, XofReader};

fn reference(alg: PreHash, msg: &[u8]) -> Vec<u8> {
    match alg {
        PreHash::Sha3_224 => sha3::Sha3_224::digest(msg).to_vec(),
        PreHash::Sha3_256 => sha3::Sha3_256::digest(msg).to_vec(),
        PreHash::Sha3_384 => sha3::Sha3_384::digest(msg).to_vec(),
        PreHash::Sha3_512 => sha3::Sha3_512::digest(msg).to_vec(),
        PreHash::Shake128 => {
            let mut h = shake::Shake128::default();
            h.update(msg);
            let mut out = vec![0u8; 32];
            h.finalize_xof().read(&mut out);
            out
        }
        PreHash::Shake256 => {
            let mut h = shake::Shake256::default();
            h.update(msg);
            let mut out = vec![0u8; 64];
            h.finalize_xof().read(&mut out);
            out
        }
        PreHash::Sha2_224 => sha2::Sha224::digest(msg).to_vec(),
        PreHash::Sha2_256 => sha2::Sha256::digest(msg).to_vec(),
        PreHash::Sha2_384 => sha2::Sha384::digest(msg).to_vec(),
        PreHash::Sha2_512 => sha2::Sha512::digest(msg).to_vec(),
        PreHash::Sha2_512_224 => sha2::Sha512_224::digest(msg).to_vec(),
        PreHash::Sha2_512_256 => sha2::Sha512_256::digest(msg).to_vec(),
        _ => unreachable!("PreHash::ALL has twelve members"),
    }
}

#[test]
fn every_prehash_matches_an_independent_implementation() {
    let msg: Vec<u8> = (0..700u32).map(|i| (i * 131 + 7) as u8).collect();
    let mut checked = 0;
    for alg in PreHash::ALL {
        // Every length up to 700 crosses each rate (72 to 168 bytes) several times.
        for len in 0..=msg.len() {
            let m = &msg[..len];
            let ours = PreHashed::hash(alg, m);
            assert_eq!(
                ours.digest(),
                reference(alg, m).as_slice(),
                "{alg} len {len}"
            );
            checked += 1;
        }
        // Streaming in odd-sized chunks gives the same digest.
        let mut h = PreHasher::new(alg);
        for chunk in msg.chunks(13) {
            h.update(chunk);
        }
        assert_eq!(
            h.finalize().digest(),
            reference(alg, &msg).as_slice(),
            "{alg} streamed"
        );
    }
    println!("{checked} digests cross-checked");
    assert_eq!(checked, 12 * 701);
}
