//! The AVX-512, AVX2 and portable backends (those this CPU has), and on AArch64 the NEON and
//! portable ones, agree byte for byte (issue #6 F-6, whole operations): keys, expanded keys,
//! deterministic and hedged signatures (with the same rnd) and verify verdicts, for 1000 seeds
//! per parameter set, plus 100 per legacy Dilithium set. Kernel-by-kernel differential tests
//! live beside the kernels (`src/backend/x86_64/`, `src/backend/aarch64/`).
//!
//! `MLDSA_BACKENDS_SEEDS=N` compares N seeds per ML-DSA set (and N / 10, at least 1, per
//! Dilithium set) instead: for runs under an emulator (`scripts/aarch64-tests.sh --lean`). The
//! default is the full count.
//!
//! The backend switch is process-wide, so this file holds a single test.

use mldsa::backend::{BackendKind, active_backend, force_avx2, force_portable};
use mldsa::{MlDsa44, MlDsa65, MlDsa87, ParameterSet, Signature, SigningKey, VerifyingKey};

/// Everything one seed produces on the active backend.
#[derive(PartialEq, Eq, Debug)]
struct Outputs {
    pk: Vec<u8>,
    sk: Vec<u8>,
    deterministic: Vec<u8>,
    hedged: Vec<u8>,
    verdicts: Vec<bool>,
}

fn outputs<P: ParameterSet>(i: u32) -> Outputs {
    let mut seed = [0u8; 32];
    seed[..4].copy_from_slice(&i.to_le_bytes());
    seed[31] = 0xA5;
    let sk = SigningKey::<P>::from_seed(&seed);
    let msg = i.to_be_bytes().repeat(1 + i as usize % 7);
    let ctx = &b"backend differential"[..(i as usize % 21)];
    let deterministic = sk.sign_deterministic(&msg, ctx).unwrap();
    let hedged = sk
        .sign_mu(
            &sk.verifying_key().compute_mu(&msg, ctx).unwrap(),
            &[i as u8; 32],
        )
        .unwrap();
    let vk = VerifyingKey::<P>::from_bytes(sk.verifying_key().as_bytes()).unwrap();
    let mut bad = deterministic.as_bytes().to_vec();
    let bit = (i as usize * 7919) % (bad.len() * 8);
    bad[bit / 8] ^= 1 << (bit % 8);
    let bad_verdict =
        Signature::<P>::from_bytes(&bad).is_ok_and(|s| vk.verify(&msg, ctx, &s).is_ok());
    Outputs {
        pk: vk.as_bytes().to_vec(),
        sk: sk.to_expanded_bytes().as_ref().to_vec(),
        deterministic: deterministic.as_bytes().to_vec(),
        hedged: hedged.as_bytes().to_vec(),
        verdicts: vec![
            vk.verify(&msg, ctx, &deterministic).is_ok(),
            vk.verify(&msg, ctx, &hedged).is_ok(),
            vk.prepare().verify(&msg, ctx, &hedged).is_ok(),
            bad_verdict,
        ],
    }
}

/// Runs `f` on the portable backend, then on each faster one this CPU has (AVX2 without its
/// AVX-512 variants where the CPU has AVX-512, then the default), and returns the portable
/// result after checking that the others equal it.
fn on_every_backend<T: PartialEq>(what: &str, f: impl Fn() -> T) -> T {
    force_portable(true);
    let portable = f();
    force_portable(false);
    if active_backend() == BackendKind::Avx512 {
        force_avx2(true);
        assert!(portable == f(), "{what}: AVX2 differs from portable");
        force_avx2(false);
    }
    assert!(
        portable == f(),
        "{what}: {:?} differs from portable",
        active_backend()
    );
    portable
}

fn agree<P: ParameterSet>(seeds: u32) -> u32 {
    for i in 0..seeds {
        let portable = on_every_backend(&format!("{} seed {i}", P::NAME), || outputs::<P>(i));
        assert_eq!(
            portable.verdicts,
            [true, true, true, false],
            "{} seed {i}",
            P::NAME
        );
    }
    seeds
}

fn agree_legacy<P: mldsa::legacy::DilithiumParameterSet>(seeds: u32) -> u32 {
    use mldsa::legacy::SigningKey;
    for i in 0..seeds {
        let run = || {
            let sk = SigningKey::<P>::from_seed(&[i as u8; 32]);
            let sig = sk.sign_deterministic(&i.to_le_bytes()).unwrap();
            let ok = sk.verifying_key().verify(&i.to_le_bytes(), &sig).is_ok();
            (
                sk.verifying_key().as_bytes().to_vec(),
                sig.as_bytes().to_vec(),
                ok,
            )
        };
        let portable = on_every_backend(&format!("{} seed {i}", P::NAME), run);
        assert!(portable.2);
    }
    seeds
}

/// Seeds per ML-DSA set: 1000, or `MLDSA_BACKENDS_SEEDS`.
fn seeds() -> u32 {
    match std::env::var("MLDSA_BACKENDS_SEEDS") {
        Ok(v) => v
            .parse()
            .ok()
            .filter(|&n| n > 0)
            .unwrap_or_else(|| panic!("MLDSA_BACKENDS_SEEDS={v}: want a positive count")),
        Err(_) => 1000,
    }
}

#[test]
fn backends_agree_byte_for_byte() {
    force_portable(false);
    let fast = active_backend();
    // NEON is part of the base AArch64 architecture: there is always something to compare.
    if cfg!(target_arch = "aarch64") {
        assert_eq!(fast, BackendKind::Neon, "the default backend on AArch64");
    }
    if fast == BackendKind::Portable {
        println!("only the portable backend exists on this CPU: nothing to compare");
        return;
    }
    let seeds = seeds();
    let n = agree::<MlDsa44>(seeds) + agree::<MlDsa65>(seeds) + agree::<MlDsa87>(seeds);
    let few = seeds.div_ceil(10);
    let legacy = agree_legacy::<mldsa::legacy::Dilithium2>(few)
        + agree_legacy::<mldsa::legacy::Dilithium3>(few)
        + agree_legacy::<mldsa::legacy::Dilithium5>(few)
        + agree_legacy::<mldsa::legacy::Dilithium2Aes>(few)
        + agree_legacy::<mldsa::legacy::Dilithium3Aes>(few)
        + agree_legacy::<mldsa::legacy::Dilithium5Aes>(few);
    let also = if fast == BackendKind::Avx512 {
        " and Avx2"
    } else {
        ""
    };
    println!("portable, {fast:?}{also} agree on {n} ML-DSA seeds and {legacy} Dilithium seeds");
}
