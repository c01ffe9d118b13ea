//! Runs every operation per parameter set and backend, and the verdict over all runs (with the
//! known leaks' allowance).

use crate::counting_rng::CountingRng;
use std::hint::black_box;
use std::sync::Mutex;

use mldsa::backend::{BackendKind, active_backend, force_avx2, force_portable};
use mldsa::legacy::{self, DilithiumParameterSet};
use mldsa::{ParameterSet, SigningKey};

use crate::needles::*;
use crate::operations::*;
use crate::scanner::*;
use crate::secrets::*;
use crate::worker::*;

/// One checked run, for the table and the verdict.
pub(crate) struct Run {
    pub(crate) set: &'static str,
    pub(crate) backend: BackendKind,
    pub(crate) op: &'static str,
    pub(crate) needles: usize,
    /// Needles per kind.
    pub(crate) counts: [usize; KINDS],
    pub(crate) depth: usize,
    pub(crate) findings: Findings,
}

/// The backends to check: the one the CPU picks, AVX2 without its AVX-512 variants if that is
/// another, and the portable one if that is another. The switch is process-wide: callers hold
/// `LOCK`.
pub(crate) fn backends() -> Vec<BackendKind> {
    force_portable(false);
    let mut v = vec![active_backend()];
    if active_backend() == BackendKind::Avx512 {
        v.push(BackendKind::Avx2);
    }
    if active_backend() != BackendKind::Portable {
        v.push(BackendKind::Portable);
    }
    v
}

/// Makes `backend` (one of [`backends`]) the active one.
pub(crate) fn force(backend: BackendKind) {
    match backend {
        BackendKind::Portable => force_portable(true),
        BackendKind::Avx2 => force_avx2(true),
        _ => force_portable(false),
    }
    assert_eq!(active_backend(), backend);
}

/// Serialises the tests: the allocator's arming and `force_portable` are process-wide.
pub(crate) static LOCK: Mutex<()> = Mutex::new(());

/// Every ML-DSA operation on set `P`, on every backend.
pub(crate) fn check_mldsa<P: ParameterSet + 'static>(shape: Shape, runs: &mut Vec<Run>) {
    let xi = seed_for(P::NAME);
    let xi = &xi[0];
    let sk_bytes = Wiped(
        SigningKey::<P>::from_seed(xi)
            .to_expanded_bytes()
            .as_ref()
            .to_vec(),
    );
    let rho_pps = [
        mldsa_rho_pp(&sk_bytes, &[0; 32]),
        mldsa_rho_pp(&sk_bytes, &HEDGED_RND),
        rho_pp_of_mu(&sk_bytes, &HEDGED_RND, &EXTERNAL_MU),
    ];
    let needles = needles(shape, xi, &sk_bytes, &rho_pps);
    run_on_every_backend(P::NAME, &needles, &mldsa_ops::<P>(), xi, &sk_bytes, runs);
}

/// Runs and scans each of `ops` of set `set` on every backend, appending one `Run` per pair.
pub(crate) fn run_on_every_backend(
    set: &'static str,
    needles: &Needles,
    ops: &[(&'static str, OpFn)],
    xi: &[u8; 32],
    sk_bytes: &[u8],
    runs: &mut Vec<Run>,
) {
    for backend in backends() {
        force(backend);
        for &(op, make) in ops {
            let (findings, depth) = run_checked(needles, || make(xi, sk_bytes));
            runs.push(Run {
                set,
                backend,
                op,
                needles: needles.bytes.len() + needles.words.len(),
                counts: needles.counts,
                depth,
                findings,
            });
        }
    }
    force_portable(false);
}

/// Every legacy (Dilithium v3.1) operation on set `P`, on every backend.
pub(crate) fn check_legacy<P: DilithiumParameterSet + 'static>(
    name: &'static str,
    shape: Shape,
    runs: &mut Vec<Run>,
) {
    let xi = seed_for(name);
    let xi = &xi[0];
    let sk_bytes = Wiped(
        legacy::SigningKey::<P>::from_seed(xi)
            .to_bytes()
            .as_ref()
            .to_vec(),
    );
    // Deterministic v3.1 signing: rho'' = H(K || mu), mu = H(tr || M).
    let mut mu = [0u8; 64];
    shake256(&[&sk_bytes[64..96], MSG], &mut mu);
    let mut rho_pp = [0u8; 64];
    shake256(&[&sk_bytes[32..64], &mu], &mut rho_pp);
    let needles = needles(shape, xi, &sk_bytes, &[rho_pp]);
    let ops: [(&'static str, OpFn); 6] = [
        ("keygen", |xi, _| {
            Box::new(move || {
                black_box(&legacy::SigningKey::<P>::from_seed(xi));
            })
        }),
        ("sign-det", |xi, _| {
            let sk = Box::new(legacy::SigningKey::<P>::from_seed(xi));
            Box::new(move || {
                black_box(sk.sign_deterministic(MSG).expect("sign"));
                let sig = sk.sign_randomized_with_rng(&mut CountingRng(0), MSG);
                black_box(sig.expect("sign"));
            })
        }),
        ("to-bytes", |xi, expected| {
            let sk = Box::new(legacy::SigningKey::<P>::from_seed(xi));
            Box::new(move || {
                assert!(sk.to_bytes().as_ref() == expected);
            })
        }),
        ("write-bytes", |xi, expected| {
            let sk = Box::new(legacy::SigningKey::<P>::from_seed(xi));
            Box::new(move || {
                let mut bytes = Wiped(vec![0u8; P::SK_LEN]);
                sk.write_bytes(&mut bytes.0).expect("length");
                assert!(bytes[..] == *expected);
            })
        }),
        ("from-bytes", |_, bytes| {
            Box::new(move || {
                let sk = legacy::SigningKey::<P>::from_bytes(bytes).expect("decode");
                black_box(sk.sign_deterministic(MSG).expect("sign"));
            })
        }),
        // One-shot signing from the key bytes (the Python drop-in's path).
        ("sign-bytes", |_, bytes| {
            Box::new(move || {
                let sig = legacy::SigningKey::<P>::sign_deterministic_with_bytes(bytes, MSG);
                black_box(sig.expect("sign"));
            })
        }),
    ];
    run_on_every_backend(name, &needles, &ops, xi, &sk_bytes, runs);
}

pub(crate) const ML_DSA_44: Shape = Shape {
    k: 4,
    l: 4,
    eta: 2,
    tr_len: 64,
    legacy: false,
};
pub(crate) const ML_DSA_65: Shape = Shape {
    k: 6,
    l: 5,
    eta: 4,
    tr_len: 64,
    legacy: false,
};
pub(crate) const ML_DSA_87: Shape = Shape {
    k: 8,
    l: 7,
    eta: 2,
    tr_len: 64,
    legacy: false,
};

pub(crate) fn legacy_shape(s: Shape) -> Shape {
    Shape {
        tr_len: 32,
        legacy: true,
        ..s
    }
}

/// Leaks found by this test and not fixed. A run may leave these hits and nothing else,
/// at most one copy of each: anything beyond, or of another kind, fails. `known_leaks_are_fixed`
/// (ignored) checks every run with no allowance; remove an entry once it passes.
///
/// - `to_expanded_bytes` / legacy `to_bytes` return the `[u8; SK_LEN]` encoding by value
///   (`Zeroizing<P::SkBytes>`): one stale copy of it (K and packed s1, s2, t0) stays in the
///   dead frame the value was returned from. That is inherent in returning an array by value,
///   and documented on both methods; `write_expanded_bytes` / `write_bytes` write into the
///   caller's buffer instead and are checked here with no allowance (and by the "all" run).
pub(crate) fn allowance(r: &Run, kind: Kind, needles: usize) -> u32 {
    let export = matches!(r.op, "to-expanded" | "to-bytes");
    match (kind.secret, kind.form) {
        (Secret::K, Form::Whole) if export => 1,
        (Secret::K, Form::Lane) if export => 4,
        (Secret::S1 | Secret::S2 | Secret::T0, Form::Packed) if export => needles as u32,
        _ => 0,
    }
}

/// Prints the runs and fails, naming every hit, if any run left a secret behind beyond the
/// known leaks (none at all if `strict`).
pub(crate) fn verdict(runs: &[Run], strict: bool) {
    println!(
        "{:<12} {:<9} {:<26} {:>7} {:>7} {:>5}",
        "set", "backend", "operation", "needles", "stack", "hits"
    );
    for r in runs {
        println!(
            "{:<12} {:<9} {:<26} {:>7} {:>7} {:>5}",
            r.set,
            format!("{:?}", r.backend),
            r.op,
            r.needles,
            r.depth,
            r.findings.total()
        );
    }
    let failures: Vec<String> = runs
        .iter()
        .filter(|r| {
            (0..KINDS).any(|i| {
                let allowed = if strict {
                    0
                } else {
                    allowance(r, Kind::from_index(i), r.counts[i])
                };
                r.findings.hits[i] > allowed
            })
        })
        .map(|r| {
            let per_kind: Vec<String> = (0..KINDS)
                .filter(|&i| r.findings.hits[i] != 0)
                .map(|i| format!("{} x{}", Kind::from_index(i), r.findings.hits[i]))
                .collect();
            format!(
                "{} on {:?}, {}: {} hits ({})\n      {}",
                r.set,
                r.backend,
                r.op,
                r.findings.total(),
                per_kind.join(", "),
                r.findings.details.join("\n      ")
            )
        })
        .collect();
    assert!(
        failures.is_empty(),
        "secrets left behind after the keys were dropped:\n  {}",
        failures.join("\n  ")
    );
}
