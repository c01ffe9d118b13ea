//! mldsa, this repository's library: the reference, its portable-backend column, and the
//! mldsa-only measurements (streaming, batch throughput, peak stack).

use super::{Keys, Lib, ParamSet, Peer};
use mldsa::backend::{BackendKind, active_backend, force_avx2, force_portable};
use mldsa::{
    MlDsa44, MlDsa65, MlDsa87, ParameterSet, PreparedVerifyingKey, Signature, SigningKey,
    VerifyingKey,
};
use std::hint::black_box;

pub const LIB: Lib = Lib {
    name: "mldsa",
    krate: "mldsa",
    seeded_keygen: true,
    deterministic: true,
    note: "warm: prepared keys, made once before timing: SigningKey::prepared() (keeps A-hat) / \
           PreparedVerifyingKey (keeps A-hat and NTT(t1*2^d)); cold: SigningKey::sign_with_expanded \
           (one call from the expanded bytes, strict ranges, as crypto_sign) / \
           VerifyingKey::verify_with_bytes (one call from the encodings, as crypto_sign_verify)",
    load,
};

/// The same library and calls as [`LIB`], with `force_portable(true)` around each operation:
/// how fast mldsa is without SIMD. Not a peer: the "fastest peer" ratios leave it out.
pub const PORTABLE_LIB: Lib = Lib {
    name: "mldsa (portable)",
    krate: "mldsa",
    seeded_keygen: true,
    deterministic: true,
    note: "as mldsa, on the portable backend: force_portable(true) before each timed operation \
           and the previous backend restored after it (one atomic store each way, a few \
           nanoseconds, inside the timed region)",
    load: load_portable,
};

/// The same library and calls as [`LIB`], with `force_avx2(true)` around each operation: the
/// AVX2 backend without its AVX-512 variants, measured only where the CPU has AVX-512 (elsewhere
/// it would be the `mldsa` column again).
pub const AVX2_LIB: Lib = Lib {
    name: "mldsa (avx2)",
    krate: "mldsa",
    seeded_keygen: true,
    deterministic: true,
    note: "as mldsa, on the AVX2 backend without its AVX-512 variants: force_avx2(true) before \
           each timed operation and the previous backend restored after it (as the portable \
           column); only where the CPU has AVX-512",
    load: load_avx2,
};

fn load(ps: ParamSet, keys: &Keys) -> Box<dyn Peer> {
    match ps {
        ParamSet::P44 => Box::new(Mldsa::<MlDsa44>::new(keys)),
        ParamSet::P65 => Box::new(Mldsa::<MlDsa65>::new(keys)),
        ParamSet::P87 => Box::new(Mldsa::<MlDsa87>::new(keys)),
        ps => super::not_mldsa(ps),
    }
}

fn load_portable(ps: ParamSet, keys: &Keys) -> Box<dyn Peer> {
    Box::new(Forced {
        inner: load(ps, keys),
        around: |f| on_portable(f),
    })
}

fn load_avx2(ps: ParamSet, keys: &Keys) -> Box<dyn Peer> {
    Box::new(Forced {
        inner: load(ps, keys),
        around: |f| on_avx2(f),
    })
}

/// Whether this CPU runs mldsa's AVX-512 variants by default (so the AVX2 column is worth
/// measuring).
pub fn has_avx512() -> bool {
    active_backend() == BackendKind::Avx512
}

/// Runs `f` on the AVX2 backend without its AVX-512 variants, then restores the default.
pub fn on_avx2<T>(f: impl FnOnce() -> T) -> T {
    force_avx2(true);
    let out = f();
    force_avx2(false);
    out
}

/// Runs `f` on the portable backend, then restores the backend that was active before. The
/// switch is process-wide (an atomic), which is fine here: one thread measures at a time.
pub fn on_portable<T>(f: impl FnOnce() -> T) -> T {
    let was_portable = active_backend() == BackendKind::Portable;
    force_portable(true);
    let out = f();
    force_portable(was_portable);
    out
}

/// What [`on_portable`] adds to each timed operation of the portable column, in nanoseconds
/// (TSC-independent: wall clock over many empty switches).
pub fn switch_cost_ns() -> f64 {
    const N: u32 = 1_000_000;
    let start = std::time::Instant::now();
    for _ in 0..N {
        on_portable(|| black_box(()));
    }
    start.elapsed().as_secs_f64() * 1e9 / f64::from(N)
}

/// An mldsa peer whose every operation runs on a forced backend: `around` is [`on_portable`]
/// or [`on_avx2`] (a function pointer: the same for every operation's result type).
struct Forced {
    inner: Box<dyn Peer>,
    around: fn(&mut dyn FnMut()),
}

impl Forced {
    fn run<T: Default>(&self, f: impl FnOnce() -> T) -> T {
        let (mut f, mut out) = (Some(f), T::default());
        (self.around)(&mut || out = f.take().expect("called once")());
        out
    }
}

impl Peer for Forced {
    fn keygen(&self, seed: &[u8; 32]) {
        self.run(|| self.inner.keygen(seed))
    }

    fn sign(&self, msg: &[u8], sig: &mut [u8]) {
        self.run(|| self.inner.sign(msg, sig))
    }

    fn sign_cold(&self, sk: &[u8], msg: &[u8], sig: &mut [u8]) {
        self.run(|| self.inner.sign_cold(sk, msg, sig))
    }

    fn verify(&self, msg: &[u8], sig: &[u8]) -> bool {
        self.run(|| self.inner.verify(msg, sig))
    }

    fn verify_cold(&self, pk: &[u8], msg: &[u8], sig: &[u8]) -> bool {
        self.run(|| self.inner.verify_cold(pk, msg, sig))
    }
}

/// The shared key pair of a parameter set, made by mldsa from `seed` (by `mldsa::legacy` for the
/// Dilithium round 3 sets).
pub fn keys(ps: ParamSet, seed: [u8; 32]) -> Keys {
    fn make<P: ParameterSet>(seed: [u8; 32]) -> Keys {
        let sk = SigningKey::<P>::from_seed(&seed);
        Keys {
            seed,
            pk: sk.verifying_key().as_bytes().to_vec(),
            sk: sk.to_expanded_bytes().as_ref().to_vec(),
        }
    }
    match ps {
        ParamSet::P44 => make::<MlDsa44>(seed),
        ParamSet::P65 => make::<MlDsa65>(seed),
        ParamSet::P87 => make::<MlDsa87>(seed),
        ps => super::mldsa_legacy::keys(ps, seed),
    }
}

/// mldsa's "warm" state: prepared keys, like the peers' decoded key objects made once outside
/// the timed region.
struct Mldsa<P: ParameterSet> {
    sk: SigningKey<P>,
    vk: PreparedVerifyingKey<P>,
}

impl<P: ParameterSet> Mldsa<P> {
    fn new(keys: &Keys) -> Self {
        let sk = SigningKey::<P>::from_seed(&keys.seed).prepared();
        let vk = sk.verifying_key().prepare();
        Mldsa { sk, vk }
    }
}

impl<P: ParameterSet> Peer for Mldsa<P> {
    fn keygen(&self, seed: &[u8; 32]) {
        black_box(SigningKey::<P>::from_seed(seed));
    }

    fn sign(&self, msg: &[u8], sig: &mut [u8]) {
        let s = self.sk.sign_deterministic(msg, &[]).expect("mldsa sign");
        sig.copy_from_slice(s.as_bytes());
    }

    fn sign_cold(&self, sk: &[u8], msg: &[u8], sig: &mut [u8]) {
        // As the C libraries' crypto_sign: straight from the expanded bytes (strict ranges).
        let s = SigningKey::<P>::sign_with_expanded(sk, msg, &[], &[0; 32]).expect("mldsa sign");
        sig.copy_from_slice(s.as_bytes());
    }

    fn verify(&self, msg: &[u8], sig: &[u8]) -> bool {
        Signature::<P>::from_bytes(sig).is_ok_and(|s| self.vk.verify(msg, &[], &s).is_ok())
    }

    fn verify_cold(&self, pk: &[u8], msg: &[u8], sig: &[u8]) -> bool {
        VerifyingKey::<P>::verify_with_bytes(pk, msg, &[], sig).is_ok()
    }
}

/// Streaming: messages are fed to `update` in pieces of this size.
pub const CHUNK: usize = 64 * 1024;

/// mldsa-only operations, for the part of the report no peer takes part in.
pub trait MldsaOnly {
    /// Signs `msg` through the streaming API (`message_signer`, `update` per chunk,
    /// `sign_deterministic`).
    fn stream_sign(&self, msg: &[u8], sig: &mut [u8]);
    /// Verifies through the streaming API (`message_verifier`, `update` per chunk, `verify`).
    fn stream_verify(&self, msg: &[u8], sig: &[u8]) -> bool;
    /// "sign (cold)" through a key object imported by the strict `from_expanded` (recomputes
    /// t0 and tr: about one keygen): what a key object costs over the one-shot call.
    fn sign_cold_strict(&self, sk: &[u8], msg: &[u8], sig: &mut [u8]);
}

pub fn load_only(ps: ParamSet, keys: &Keys) -> Box<dyn MldsaOnly> {
    match ps {
        ParamSet::P44 => Box::new(Mldsa::<MlDsa44>::new(keys)),
        ParamSet::P65 => Box::new(Mldsa::<MlDsa65>::new(keys)),
        ParamSet::P87 => Box::new(Mldsa::<MlDsa87>::new(keys)),
        ps => super::not_mldsa(ps),
    }
}

impl<P: ParameterSet> MldsaOnly for Mldsa<P> {
    fn stream_sign(&self, msg: &[u8], sig: &mut [u8]) {
        let mut s = self.sk.message_signer(&[]).expect("mldsa ctx");
        for chunk in msg.chunks(CHUNK) {
            s.update(chunk);
        }
        sig.copy_from_slice(s.sign_deterministic().expect("mldsa sign").as_bytes());
    }

    fn stream_verify(&self, msg: &[u8], sig: &[u8]) -> bool {
        let Ok(sig) = Signature::<P>::from_bytes(sig) else {
            return false;
        };
        let vk = self.vk.verifying_key();
        let mut v = vk.message_verifier(&[]).expect("mldsa ctx");
        for chunk in msg.chunks(CHUNK) {
            v.update(chunk);
        }
        v.verify(&sig).is_ok()
    }

    fn sign_cold_strict(&self, sk: &[u8], msg: &[u8], sig: &mut [u8]) {
        let sk = SigningKey::<P>::from_expanded(sk).expect("mldsa sk");
        sig.copy_from_slice(
            sk.sign_deterministic(msg, &[])
                .expect("mldsa sign")
                .as_bytes(),
        );
    }
}

/// Batch throughput (the report's batch section): the same `N` operations under one key, one
/// after another on the calling thread, or through `mldsa::batch` on the current rayon pool.
pub trait Batch: Sync {
    /// How many signatures (and messages) a batch holds.
    fn len(&self) -> usize;
    /// Checks that the batch API gives what the one-by-one calls give (call on the pool).
    fn check(&self);
    /// `PreparedVerifyingKey::verify` on each (message, signature), in a loop.
    fn verify_serial(&self);
    /// The same through `PreparedVerifyingKey::verify_batch`.
    fn verify_batch(&self);
    /// `sign_deterministic` with the prepared signing key on each message, in a loop.
    fn sign_serial(&self);
    /// The same through `SigningKey::sign_batch_deterministic`.
    fn sign_batch(&self);
}

/// The batch measurements of parameter set `ps` on `msgs`, which are signed here (serially) to
/// get the signatures to verify: one distinct signature per message.
pub fn load_batch(ps: ParamSet, keys: &Keys, msgs: Vec<[u8; 32]>) -> Box<dyn Batch> {
    match ps {
        ParamSet::P44 => Box::new(Batched::<MlDsa44>::new(keys, msgs)),
        ParamSet::P65 => Box::new(Batched::<MlDsa65>::new(keys, msgs)),
        ParamSet::P87 => Box::new(Batched::<MlDsa87>::new(keys, msgs)),
        ps => super::not_mldsa(ps),
    }
}

struct Batched<P: ParameterSet> {
    keys: Mldsa<P>,
    msgs: Vec<[u8; 32]>,
    sigs: Vec<Signature<P>>,
}

impl<P: ParameterSet> Batched<P> {
    fn new(keys: &Keys, msgs: Vec<[u8; 32]>) -> Self {
        let keys = Mldsa::<P>::new(keys);
        let sigs = msgs
            .iter()
            .map(|m| keys.sk.sign_deterministic(m, &[]).expect("mldsa sign"))
            .collect();
        Batched { keys, msgs, sigs }
    }

    // The argument lists of the batch calls, built inside the timed region: N pointers, which
    // costs well under a microsecond against milliseconds of signing or verifying.
    fn msg_refs(&self) -> Vec<&[u8]> {
        self.msgs.iter().map(|m| &m[..]).collect()
    }

    fn pairs(&self) -> Vec<(&[u8], &Signature<P>)> {
        self.msgs.iter().map(|m| &m[..]).zip(&self.sigs).collect()
    }
}

impl<P: ParameterSet> Batch for Batched<P> {
    fn len(&self) -> usize {
        self.msgs.len()
    }

    fn check(&self) {
        let verdicts = self.keys.vk.verify_batch(&[], &self.pairs());
        assert!(verdicts.iter().all(Result::is_ok), "verify_batch rejects");
        let sigs = (self.keys.sk)
            .sign_batch_deterministic(&self.msg_refs(), &[])
            .expect("sign_batch_deterministic");
        let same = sigs
            .iter()
            .zip(&self.sigs)
            .all(|(a, b)| a.as_bytes() == b.as_bytes());
        assert!(
            same && sigs.len() == self.sigs.len(),
            "sign_batch differs from sign"
        );
    }

    fn verify_serial(&self) {
        for (m, s) in self.msgs.iter().zip(&self.sigs) {
            assert!(self.keys.vk.verify(m, &[], s).is_ok(), "mldsa verify");
        }
    }

    fn verify_batch(&self) {
        let verdicts = self.keys.vk.verify_batch(&[], &self.pairs());
        assert!(verdicts.iter().all(Result::is_ok), "verify_batch rejects");
    }

    fn sign_serial(&self) {
        for m in &self.msgs {
            black_box(self.keys.sk.sign_deterministic(m, &[]).expect("mldsa sign"));
        }
    }

    fn sign_batch(&self) {
        let sigs = self.keys.sk.sign_batch_deterministic(&self.msg_refs(), &[]);
        black_box(sigs.expect("sign_batch_deterministic"));
    }
}

/// Visits every mldsa operation whose peak stack the report gives: `visit(name, op)`, where
/// `op` does the operation once (on whatever backend is active). The key objects are made here,
/// outside `op`, as in the timed rows; each `op` includes its result (and its drop).
pub fn stack_ops(ps: ParamSet, keys: &Keys, visit: &mut dyn FnMut(&'static str, &StackOp)) {
    match ps {
        ParamSet::P44 => stack_ops_of::<MlDsa44>(ps, keys, visit),
        ParamSet::P65 => stack_ops_of::<MlDsa65>(ps, keys, visit),
        ParamSet::P87 => stack_ops_of::<MlDsa87>(ps, keys, visit),
        ps => super::not_mldsa(ps),
    }
}

/// One operation for the stack measurement, run on a thread of its own.
pub type StackOp<'a> = dyn Fn() + Sync + 'a;

fn stack_ops_of<P: ParameterSet>(
    ps: ParamSet,
    keys: &Keys,
    visit: &mut dyn FnMut(&'static str, &StackOp),
) {
    let warm = Mldsa::<P>::new(keys);
    let plain = SigningKey::<P>::from_seed(&keys.seed);
    let vk = *plain.verifying_key();
    let msg = [0x5c; 32];
    let mut sig = vec![0u8; ps.sig_len()];
    warm.sign(&msg, &mut sig);
    // The Peer calls write the signature to a buffer; each op allocates its own (on the heap,
    // so it does not count), since an op is shared with the measuring thread.
    let out = || vec![0u8; ps.sig_len()];

    visit("keygen", &|| warm.keygen(&keys.seed));
    visit("sign (warm: prepared key)", &|| warm.sign(&msg, &mut out()));
    visit("sign (unprepared key)", &|| {
        black_box(plain.sign_deterministic(&msg, &[]).expect("mldsa sign"));
    });
    visit("sign (cold: sign_with_expanded)", &|| {
        warm.sign_cold(&keys.sk, &msg, &mut out())
    });
    visit("verify (warm: prepared key)", &|| {
        assert!(warm.verify(&msg, &sig))
    });
    visit("verify (unprepared key)", &|| {
        let s = Signature::<P>::from_bytes(&sig).expect("mldsa sig");
        assert!(vk.verify(&msg, &[], &s).is_ok());
    });
    visit("verify (cold: verify_with_bytes)", &|| {
        assert!(warm.verify_cold(&keys.pk, &msg, &sig))
    });
}
