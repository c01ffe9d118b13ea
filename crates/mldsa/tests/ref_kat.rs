//! Known-answer tests in the ML-DSA reference implementation's formats
//! (`../shared/vectors/ml-dsa-ref-kat`):
//!
//! - `itzmeanjan-ml-dsa/ml_dsa_{44,65,87}.kat`: KeyGen from seed, hedged pure signing with a
//!   non-empty context and a given `rnd`, verification.
//! - `pq-crystals-nistkat/PQCsignKAT_ML-DSA-{44,65,87}.rsp`: the NIST `PQCsignKAT` layout. The
//!   main AES-256-CTR DRBG (seeded with 00..2F) must reproduce every entry's `seed` and `msg`; a
//!   per-entry DRBG seeded with `seed` gives xi then rnd; signing is pure ML-DSA with an empty
//!   context; `sm = sig || msg`.
//!
//! One `#[test]` per file (so they run in parallel); failures are gathered and reported together.
//! Run with `-- --nocapture` to see the per-file counts.

mod common;

use std::panic::{AssertUnwindSafe, catch_unwind};

use common::{
    Entry, FixedRng, NistDrbg, describe_diff, drbg_self_test, parse_entries, read_vector_file,
};
use mldsa::{MlDsa44, MlDsa65, MlDsa87, ParameterSet, Signature, SigningKey};

const ENTRIES_PER_FILE: usize = 100;

fn guarded(f: impl FnOnce() -> Result<(), String>) -> Result<(), String> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(p) => Err(format!(
            "PANIC: {}",
            p.downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "<non-string panic>".into())
        )),
    }
}

fn check_eq(errs: &mut Vec<String>, what: &str, got: &[u8], want: &[u8]) {
    if got != want {
        errs.push(format!("{what} differs: {}", describe_diff(got, want)));
    }
}

fn finish(file: &str, entries: usize, failures: Vec<String>) {
    println!("{file}: {entries} entries, {} failures", failures.len());
    let mut failures = failures;
    if entries != ENTRIES_PER_FILE {
        failures.push(format!("{entries} entries, expected {ENTRIES_PER_FILE}"));
    }
    if !failures.is_empty() {
        let shown = failures.len().min(100);
        panic!(
            "{file}: {} failure(s):\n  {}",
            failures.len(),
            failures[..shown].join("\n  ")
        );
    }
}

/// Hedged pure signing through the public RNG API, checking that exactly `rnd` was consumed.
fn sign_pure<P: ParameterSet>(
    sk: &SigningKey<P>,
    rnd: &[u8],
    msg: &[u8],
    ctx: &[u8],
) -> Result<Signature<P>, String> {
    let mut rng = FixedRng::new(rnd);
    let sig = sk
        .sign_with_rng(&mut rng, msg, ctx)
        .map_err(|e| format!("sign_with_rng returned Err({e:?})"))?;
    if rng.remaining() != 0 {
        return Err(format!(
            "the signer drew only {} of the 32 rnd bytes",
            rnd.len() - rng.remaining()
        ));
    }
    Ok(sig)
}

// ---------------------------------------------------------------------------------------------
// itzmeanjan/ml-dsa .kat files
// ---------------------------------------------------------------------------------------------

fn itzmeanjan_entry<P: ParameterSet>(e: &Entry) -> Result<(), String> {
    let seed: [u8; 32] = e
        .hex("seed")?
        .try_into()
        .map_err(|v: Vec<u8>| format!("seed has {} bytes", v.len()))?;
    let want_pk = e.hex("pkey")?;
    let want_sk = e.hex("skey")?;
    let msg = e.hex("msg")?;
    let ctx = e.hex("ctx")?;
    let rnd = e.hex("rnd")?;
    let want_sig = e.hex("sig")?;
    if msg.len() != e.num("mlen")? || ctx.len() != e.num("ctx_len")? || rnd.len() != 32 {
        return Err("inconsistent mlen / ctx_len / rnd length in the file".into());
    }

    let mut errs = Vec::new();
    let sk = SigningKey::<P>::from_seed(&seed);
    let vk = sk.verifying_key();
    check_eq(&mut errs, "pk", vk.to_bytes().as_ref(), &want_pk);
    check_eq(&mut errs, "sk", sk.to_expanded_bytes().as_ref(), &want_sk);

    let sig = sign_pure(&sk, &rnd, &msg, &ctx)?;
    check_eq(&mut errs, "sig", sig.to_bytes().as_ref(), &want_sig);
    if let Err(err) = vk.verify(&msg, &ctx, &sig) {
        errs.push(format!("verify(own sig) returned Err({err:?})"));
    }
    match Signature::<P>::from_bytes(&want_sig) {
        Ok(s) => {
            if let Err(err) = vk.verify(&msg, &ctx, &s) {
                errs.push(format!("verify(expected sig) returned Err({err:?})"));
            }
            if vk.verify(&msg, &[], &s).is_ok() {
                errs.push("verify accepted the signature with the context removed".into());
            }
        }
        Err(err) => errs.push(format!(
            "Signature::from_bytes(expected sig) returned Err({err:?})"
        )),
    }
    if errs.is_empty() {
        Ok(())
    } else {
        Err(errs.join("; "))
    }
}

fn run_itzmeanjan<P: ParameterSet>(file: &str) {
    let rel = format!("ml-dsa-ref-kat/itzmeanjan-ml-dsa/{file}");
    let entries = parse_entries(&read_vector_file(&rel));
    let mut failures = Vec::new();
    for (i, e) in entries.iter().enumerate() {
        if let Err(err) = guarded(|| itzmeanjan_entry::<P>(e)) {
            failures.push(format!("entry {i} ({}): {err}", P::NAME));
        }
    }
    finish(&rel, entries.len(), failures);
}

#[test]
fn itzmeanjan_ml_dsa_44() {
    run_itzmeanjan::<MlDsa44>("ml_dsa_44.kat");
}

#[test]
fn itzmeanjan_ml_dsa_65() {
    run_itzmeanjan::<MlDsa65>("ml_dsa_65.kat");
}

#[test]
fn itzmeanjan_ml_dsa_87() {
    run_itzmeanjan::<MlDsa87>("ml_dsa_87.kat");
}

// ---------------------------------------------------------------------------------------------
// pq-crystals nistkat .rsp files
// ---------------------------------------------------------------------------------------------

#[test]
fn nist_drbg_self_test() {
    drbg_self_test();
}

/// `drbg_seed` / `drbg_msg`: what the main DRBG produced for this count (the harness reads
/// 48 bytes then `mlen = 33 * (count + 1)` bytes).
fn nistkat_entry<P: ParameterSet>(
    e: &Entry,
    count: usize,
    drbg_seed: &[u8],
    drbg_msg: &[u8],
) -> Result<(), String> {
    let mut errs = Vec::new();
    if e.num("count")? != count {
        return Err(format!(
            "count field is {}, expected {count}",
            e.get("count")?
        ));
    }
    let seed = e.hex("seed")?;
    let mlen = e.num("mlen")?;
    let msg = e.hex("msg")?;
    let want_pk = e.hex("pk")?;
    let want_sk = e.hex("sk")?;
    let smlen = e.num("smlen")?;
    let sm = e.hex("sm")?;
    if msg.len() != mlen || sm.len() != smlen || mlen != 33 * (count + 1) {
        return Err(format!(
            "inconsistent mlen {mlen} / msg {} / smlen {smlen} / sm {}",
            msg.len(),
            sm.len()
        ));
    }
    if smlen != P::SIG_LEN + mlen {
        return Err(format!(
            "smlen {smlen} != SIG_LEN {} + mlen {mlen}",
            P::SIG_LEN
        ));
    }

    // 1. The main DRBG reproduces seed and msg.
    check_eq(&mut errs, "seed (main DRBG)", drbg_seed, &seed);
    check_eq(&mut errs, "msg (main DRBG)", drbg_msg, &msg);

    // 2. Per-entry DRBG: xi then rnd.
    let seed48: [u8; 48] = seed
        .as_slice()
        .try_into()
        .map_err(|_| format!("seed has {} bytes", seed.len()))?;
    let mut drbg = NistDrbg::new(&seed48);
    let xi: [u8; 32] = drbg.array();
    let rnd: [u8; 32] = drbg.array();

    // 3. KeyGen.
    let sk = SigningKey::<P>::from_seed(&xi);
    let vk = sk.verifying_key();
    check_eq(&mut errs, "pk", vk.to_bytes().as_ref(), &want_pk);
    check_eq(&mut errs, "sk", sk.to_expanded_bytes().as_ref(), &want_sk);

    // 4. Sign (pure, empty context); sm = sig || msg.
    let sig = sign_pure(&sk, &rnd, &msg, &[])?;
    let mut got_sm = sig.to_bytes().as_ref().to_vec();
    got_sm.extend_from_slice(&msg);
    check_eq(&mut errs, "sm", &got_sm, &sm);

    // 5. Open the expected sm: split, verify, recover the message.
    let (sig_part, msg_part) = sm.split_at(P::SIG_LEN);
    check_eq(&mut errs, "message recovered from sm", msg_part, &msg);
    match Signature::<P>::from_bytes(sig_part) {
        Ok(s) => {
            if let Err(err) = vk.verify(msg_part, &[], &s) {
                errs.push(format!("verify(signature from sm) returned Err({err:?})"));
            }
        }
        Err(err) => errs.push(format!(
            "Signature::from_bytes(signature from sm) returned Err({err:?})"
        )),
    }
    if let Err(err) = vk.verify(&msg, &[], &sig) {
        errs.push(format!("verify(own sig) returned Err({err:?})"));
    }
    if errs.is_empty() {
        Ok(())
    } else {
        Err(errs.join("; "))
    }
}

fn run_nistkat<P: ParameterSet>(file: &str) {
    let rel = format!("ml-dsa-ref-kat/pq-crystals-nistkat/{file}");
    let entries = parse_entries(&read_vector_file(&rel));
    let mut entropy = [0u8; 48];
    for (i, b) in entropy.iter_mut().enumerate() {
        *b = i as u8;
    }
    let mut main_drbg = NistDrbg::new(&entropy);
    let mut failures = Vec::new();
    for (i, e) in entries.iter().enumerate() {
        // Drawn here, outside the per-entry check, so the stream never gets out of step.
        let drbg_seed = main_drbg.bytes(48);
        let drbg_msg = main_drbg.bytes(33 * (i + 1));
        if let Err(err) = guarded(|| nistkat_entry::<P>(e, i, &drbg_seed, &drbg_msg)) {
            failures.push(format!("count {i} ({}): {err}", P::NAME));
        }
    }
    finish(&rel, entries.len(), failures);
}

#[test]
fn pq_crystals_nistkat_ml_dsa_44() {
    run_nistkat::<MlDsa44>("PQCsignKAT_ML-DSA-44.rsp");
}

#[test]
fn pq_crystals_nistkat_ml_dsa_65() {
    run_nistkat::<MlDsa65>("PQCsignKAT_ML-DSA-65.rsp");
}

#[test]
fn pq_crystals_nistkat_ml_dsa_87() {
    run_nistkat::<MlDsa87>("PQCsignKAT_ML-DSA-87.rsp");
}
