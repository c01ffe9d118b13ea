//! Boundary overhead, Rust side: the operations of `bench/boundary.c` (ML-DSA-65 deterministic
//! sign on the expanded key bytes, verify on the encoded key and signature) through the Rust
//! API, timed the same way. `bash crates/mldsa-ffi/bench/boundary.sh` runs both.

use std::time::Instant;

use mldsa_core::{MlDsa65, Signature, SigningKey, VerifyingKey};

const BATCHES: usize = 15;

fn main() {
    let n: u32 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(200);
    let key = SigningKey::<MlDsa65>::from_seed(&[1; 32]);
    let sk = key.to_expanded_bytes();
    let pk = key.verifying_key().to_bytes();
    let mut msg = [2u8; 64];
    let mut sig = [0u8; 3309];
    let (mut sign_ns, mut verify_ns) = (Vec::new(), Vec::new());
    for _ in 0..BATCHES {
        let t = Instant::now();
        for i in 0..n {
            msg[0] = i as u8;
            let s = SigningKey::<MlDsa65>::sign_with_expanded(sk.as_ref(), &msg, &[], &[0; 32])
                .unwrap();
            sig.copy_from_slice(s.as_bytes());
        }
        sign_ns.push(t.elapsed().as_nanos() as f64 / f64::from(n));
        let t = Instant::now();
        for _ in 0..n {
            let vk = VerifyingKey::<MlDsa65>::from_bytes(pk.as_ref()).unwrap();
            vk.verify(&msg, &[], &Signature::from_bytes(&sig).unwrap())
                .unwrap();
        }
        verify_ns.push(t.elapsed().as_nanos() as f64 / f64::from(n));
    }
    sign_ns.sort_by(f64::total_cmp);
    verify_ns.sort_by(f64::total_cmp);
    println!(
        "Rust API sign {:.1} us  verify {:.1} us  (ML-DSA-65, median of {BATCHES} x {n})",
        sign_ns[BATCHES / 2] / 1e3,
        verify_ns[BATCHES / 2] / 1e3
    );
}
