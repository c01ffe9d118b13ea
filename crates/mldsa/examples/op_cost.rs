//! Times, through the Rust API, exactly the operations the Python package performs per call, so
//! that its per-call times can be set against the core's (bindings/python/README.md, "Speed").
//!
//! ```text
//! cargo run --release -p mldsa --example op_cost -- [N] [OP]
//! ```
//!
//! N samples per operation (default 2000); OP limits the run to one operation, which is how
//! `valgrind --tool=callgrind` counts one operation's instructions (run with N and with 0, and
//! subtract). Signing is deterministic over a fixed key and message, so every sample does the
//! same work, rejection iterations included. ML-DSA-65, a 72-byte message, empty context.

use mldsa::{MlDsa65, MuBuilder, PublicMatrix, Signature, SigningKey, VerifyingKey};
use std::hint::black_box;
use std::time::Instant;

type P = MlDsa65;
const MSG: &[u8] = b"benchmark message benchmark message benchmark message benchmark message ";

fn main() {
    let mut args = std::env::args().skip(1);
    let n: usize = args
        .next()
        .map_or(2000, |a| a.parse().expect("N is a number"));
    let only = args.next();
    let sk = SigningKey::<P>::from_seed(&[7; 32]);
    let vk = *sk.verifying_key();
    let expanded = sk.to_expanded_bytes();
    let pk = vk.to_bytes();
    let mu = vk.compute_mu(MSG, b"").expect("short context");
    let sig = sk.sign_mu(&mu, &[0; 32]).expect("signs");
    let sig_bytes = sig.as_bytes().to_vec();
    println!("backend: {:?}", mldsa::backend::active_backend());

    let ops: [(&str, &dyn Fn()); 9] = [
        // MLDSA65PrivateKey.from_seed_bytes / generate (ML-DSA.KeyGen_internal).
        ("keygen", &|| {
            black_box(SigningKey::<P>::from_seed(black_box(&[7; 32])));
        }),
        // MLDSA65PrivateKey.sign: mu from tr and the message, then Sign_internal.
        ("sign", &|| {
            let mu = sk.verifying_key().compute_mu(black_box(MSG), b"").unwrap();
            black_box(sk.sign_mu(&mu, &[0; 32]).unwrap());
        }),
        // MLDSA65PublicKey.verify.
        ("verify", &|| {
            let mu = vk.compute_mu(black_box(MSG), b"").unwrap();
            let s = Signature::<P>::from_bytes(black_box(&sig_bytes)).unwrap();
            vk.verify_mu(&mu, &s).unwrap();
        }),
        // ML_DSA_65.sign(sk, m) now: mu from the key bytes' tr, then decode for signing and sign
        // with the matrix kept for the key's rho (bindings/python/src/matrix_cache.rs).
        ("dropin-sign", &{
            let rho: [u8; 32] = expanded[..32].try_into().expect("rho");
            let matrix = PublicMatrix::<P>::expand(&rho);
            let tr: [u8; 64] = expanded[64..128].try_into().expect("tr");
            let expanded = &expanded;
            move || {
                let mut b = MuBuilder::pure(&tr, b"").unwrap();
                b.update(black_box(MSG));
                let mu = b.finalize();
                let s = SigningKey::<P>::sign_mu_with_expanded_matrix(
                    black_box(&expanded[..]),
                    &mu,
                    &[0; 32],
                    &matrix,
                );
                black_box(s.unwrap());
            }
        }),
        // ML_DSA_65.sign(sk, m) before the kept matrix: decode for signing, ExpandA, then sign.
        ("dropin-sign-expand-a", &|| {
            let s =
                SigningKey::<P>::sign_with_expanded(black_box(&expanded[..]), MSG, b"", &[0; 32]);
            black_box(s.unwrap());
        }),
        // ML_DSA_65.sign before: a key object from the bytes (derives the public key), then sign.
        ("dropin-sign-via-import", &|| {
            let k = SigningKey::<P>::from_expanded_unverified(black_box(&expanded[..])).unwrap();
            black_box(k.sign_deterministic(MSG, b"").unwrap());
        }),
        // ML_DSA_65.verify(pk, m, sig): pkDecode and tr = H(pk), then verify.
        ("dropin-verify", &|| {
            let v = VerifyingKey::<P>::from_bytes(black_box(&pk[..])).unwrap();
            let s = Signature::<P>::from_bytes(black_box(&sig_bytes)).unwrap();
            v.verify(MSG, b"", &s).unwrap();
        }),
        // ML_DSA_65.keygen(): KeyGen, then the expanded encoding (skEncode) and pk bytes.
        ("dropin-keygen", &|| {
            let k = SigningKey::<P>::from_seed(black_box(&[7; 32]));
            black_box((k.to_expanded_bytes(), k.verifying_key().to_bytes()));
        }),
        // A prepared key's sign (A-hat and the NTTs of s2 and t0 kept).
        ("prepared-sign", &{
            let prepared = sk.clone().prepared();
            move || {
                let mu = prepared.verifying_key().compute_mu(MSG, b"").unwrap();
                black_box(prepared.sign_mu(&mu, &[0; 32]).unwrap());
            }
        }),
    ];
    println!("| operation | min µs | median µs | mean µs |");
    println!("| --- | ---: | ---: | ---: |");
    for (name, op) in ops {
        if only.as_deref().is_some_and(|o| o != name) {
            continue;
        }
        let mut t: Vec<f64> = (0..n)
            .map(|_| {
                let start = Instant::now();
                op();
                start.elapsed().as_secs_f64() * 1e6
            })
            .collect();
        if t.is_empty() {
            continue;
        }
        t.sort_by(f64::total_cmp);
        let mean = t.iter().sum::<f64>() / n as f64;
        println!("| {name} | {:.1} | {:.1} | {:.1} |", t[0], t[n / 2], mean);
    }
}
