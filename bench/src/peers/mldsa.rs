//! mldsa, this repository's library: the reference, its portable-backend column, and the
//! mldsa-only measurements.

use super::{Keys, Lib, ParamSet, Peer};
use mldsa::backend::{BackendKind, active_backend, force_portable};
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
           PreparedVerifyingKey (keeps A-hat and NTT(t1*2^d)); cold: SigningKey::from_expanded \
           (strict: recomputes t0 and tr, about one keygen) / VerifyingKey::from_bytes (hashes \
           tr), unprepared",
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

fn load(ps: ParamSet, keys: &Keys) -> Box<dyn Peer> {
    match ps {
        ParamSet::P44 => Box::new(Mldsa::<MlDsa44>::new(keys)),
        ParamSet::P65 => Box::new(Mldsa::<MlDsa65>::new(keys)),
        ParamSet::P87 => Box::new(Mldsa::<MlDsa87>::new(keys)),
        ps => super::not_mldsa(ps),
    }
}

fn load_portable(ps: ParamSet, keys: &Keys) -> Box<dyn Peer> {
    Box::new(Portable(load(ps, keys)))
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

/// An mldsa peer whose every operation runs on the portable backend.
struct Portable(Box<dyn Peer>);

impl Peer for Portable {
    fn keygen(&self, seed: &[u8; 32]) {
        on_portable(|| self.0.keygen(seed))
    }

    fn sign(&self, msg: &[u8], sig: &mut [u8]) {
        on_portable(|| self.0.sign(msg, sig))
    }

    fn sign_cold(&self, sk: &[u8], msg: &[u8], sig: &mut [u8]) {
        on_portable(|| self.0.sign_cold(sk, msg, sig))
    }

    fn verify(&self, msg: &[u8], sig: &[u8]) -> bool {
        on_portable(|| self.0.verify(msg, sig))
    }

    fn verify_cold(&self, pk: &[u8], msg: &[u8], sig: &[u8]) -> bool {
        on_portable(|| self.0.verify_cold(pk, msg, sig))
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
        let sk = SigningKey::<P>::from_expanded(sk).expect("mldsa sk");
        sig.copy_from_slice(
            sk.sign_deterministic(msg, &[])
                .expect("mldsa sign")
                .as_bytes(),
        );
    }

    fn verify(&self, msg: &[u8], sig: &[u8]) -> bool {
        Signature::<P>::from_bytes(sig).is_ok_and(|s| self.vk.verify(msg, &[], &s).is_ok())
    }

    fn verify_cold(&self, pk: &[u8], msg: &[u8], sig: &[u8]) -> bool {
        let Ok(vk) = VerifyingKey::<P>::from_bytes(pk) else {
            return false;
        };
        Signature::<P>::from_bytes(sig).is_ok_and(|s| vk.verify(msg, &[], &s).is_ok())
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
    /// "sign (cold)" with the expanded key imported by `from_expanded_unverified`, which skips
    /// the consistency check: the difference to "sign (cold)" is what that check costs.
    fn sign_cold_unverified(&self, sk: &[u8], msg: &[u8], sig: &mut [u8]);
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

    fn sign_cold_unverified(&self, sk: &[u8], msg: &[u8], sig: &mut [u8]) {
        let sk = SigningKey::<P>::from_expanded_unverified(sk).expect("mldsa sk");
        sig.copy_from_slice(
            sk.sign_deterministic(msg, &[])
                .expect("mldsa sign")
                .as_bytes(),
        );
    }
}
