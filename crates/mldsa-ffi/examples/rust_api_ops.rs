//! Boundary overhead, Rust side, for instruction counting: `N` repetitions of one operation of
//! one ML-DSA set through the Rust API, with the inputs of `bench/boundary_ops.c` (the same
//! operation through the C ABI). `bash crates/mldsa-ffi/bench/boundary_ir.sh` runs both under
//! callgrind.
//!
//! usage: rust_api_ops keygen|sign|verify 44|65|87 N

use std::hint::black_box;

use mldsa_core::{
    MlDsa44, MlDsa65, MlDsa87, ParameterSet, Parameters, Signature, SigningKey, VerifyingKey,
};

/// Keygen from a seed into pk and expanded-sk buffers, deterministic signing with the expanded
/// key bytes into a signature buffer, verification of the encoded key and signature: what a
/// Rust caller holding bytes does, and what each C call does behind the boundary.
fn run<P: ParameterSet>(op: &str, n: u32) {
    let mut seed = [1u8; 32];
    let mut msg = [2u8; 64];
    let mut pk = vec![0u8; <P as Parameters>::PK_LEN];
    let mut sk = vec![0u8; <P as Parameters>::SK_LEN];
    let mut sig = vec![0u8; <P as Parameters>::SIG_LEN];
    let keygen = |seed: &[u8; 32], pk: &mut [u8], sk: &mut [u8]| {
        let key = SigningKey::<P>::from_seed(seed);
        pk.copy_from_slice(key.verifying_key().as_bytes());
        key.write_expanded_bytes(sk).unwrap();
    };
    let sign = |msg: &[u8], sk: &[u8], sig: &mut [u8]| {
        let s = SigningKey::<P>::sign_with_expanded(sk, msg, &[], &[0; 32]).unwrap();
        sig.copy_from_slice(s.as_bytes());
    };
    keygen(&seed, &mut pk, &mut sk);
    sign(&msg, &sk, &mut sig);
    for i in 0..n {
        match op {
            "keygen" => {
                seed[0] = i as u8;
                keygen(black_box(&seed), &mut pk, &mut sk);
            }
            "sign" => {
                msg[0] = i as u8;
                sign(black_box(&msg), &sk, &mut sig);
            }
            _ => {
                let vk = VerifyingKey::<P>::from_bytes(black_box(&pk)).unwrap();
                vk.verify(&msg, &[], &Signature::from_bytes(&sig).unwrap())
                    .unwrap();
            }
        }
        black_box((&pk, &sk, &sig));
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (op, set, n) = match args.as_slice() {
        [_, op, set, n] => (op.as_str(), set.as_str(), n.parse().expect("N")),
        _ => panic!("usage: rust_api_ops keygen|sign|verify 44|65|87 N"),
    };
    match set {
        "44" => run::<MlDsa44>(op, n),
        "65" => run::<MlDsa65>(op, n),
        "87" => run::<MlDsa87>(op, n),
        _ => panic!("set: 44, 65 or 87"),
    }
}
