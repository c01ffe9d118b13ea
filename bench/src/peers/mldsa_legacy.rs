//! mldsa's legacy CRYSTALS-Dilithium round 3 (v3.1) module, `mldsa::legacy`: the reference of
//! the legacy rows, and its mldsa-only measurement.

use super::{Keys, Lib, ParamSet, Peer};
use mldsa::legacy::{
    Dilithium2, Dilithium2Aes, Dilithium3, Dilithium3Aes, Dilithium5, Dilithium5Aes,
    DilithiumParameterSet, Signature, SigningKey, VerifyingKey,
};
use std::hint::black_box;

pub const LIB: Lib = Lib {
    name: "mldsa",
    krate: "mldsa",
    seeded_keygen: true,
    deterministic: true,
    note: "mldsa::legacy (v3.1; deterministic signing is the v3.1 default); warm: \
           legacy::SigningKey / VerifyingKey; cold: SigningKey::from_bytes (strict: recomputes \
           t0 and tr, about one keygen) / VerifyingKey::from_bytes (hashes tr)",
    load,
};

fn load(ps: ParamSet, keys: &Keys) -> Box<dyn Peer> {
    match ps {
        ParamSet::D2 => Box::new(Legacy::<Dilithium2>::new(keys)),
        ParamSet::D3 => Box::new(Legacy::<Dilithium3>::new(keys)),
        ParamSet::D5 => Box::new(Legacy::<Dilithium5>::new(keys)),
        ParamSet::D2Aes => Box::new(Legacy::<Dilithium2Aes>::new(keys)),
        ParamSet::D3Aes => Box::new(Legacy::<Dilithium3Aes>::new(keys)),
        ParamSet::D5Aes => Box::new(Legacy::<Dilithium5Aes>::new(keys)),
        ps => not_legacy(ps),
    }
}

fn not_legacy(ps: ParamSet) -> ! {
    unreachable!("{} is not a Dilithium round 3 set", ps.name())
}

/// The shared v3.1 key pair of a legacy set, made by mldsa from `seed` (zeta).
pub fn keys(ps: ParamSet, seed: [u8; 32]) -> Keys {
    fn make<P: DilithiumParameterSet>(seed: [u8; 32]) -> Keys {
        let sk = SigningKey::<P>::from_seed(&seed);
        Keys {
            seed,
            pk: sk.verifying_key().as_bytes().to_vec(),
            sk: sk.to_bytes().as_ref().to_vec(),
        }
    }
    let (keys, sizes) = match ps {
        ParamSet::D2 => (make::<Dilithium2>(seed), (1312, 2528, 2420)),
        ParamSet::D3 => (make::<Dilithium3>(seed), (1952, 4000, 3293)),
        ParamSet::D5 => (make::<Dilithium5>(seed), (2592, 4864, 4595)),
        ParamSet::D2Aes => (make::<Dilithium2Aes>(seed), (1312, 2528, 2420)),
        ParamSet::D3Aes => (make::<Dilithium3Aes>(seed), (1952, 4000, 3293)),
        ParamSet::D5Aes => (make::<Dilithium5Aes>(seed), (2592, 4864, 4595)),
        ps => not_legacy(ps),
    };
    // The v3.1 sizes (pk, sk, sig), which tell v3.1 apart from later Dilithium versions.
    assert_eq!(
        (keys.pk.len(), keys.sk.len(), ps.sig_len()),
        sizes,
        "{} sizes",
        ps.name()
    );
    keys
}

struct Legacy<P: DilithiumParameterSet> {
    sk: SigningKey<P>,
    vk: VerifyingKey<P>,
}

impl<P: DilithiumParameterSet> Legacy<P> {
    fn new(keys: &Keys) -> Self {
        let sk = SigningKey::<P>::from_seed(&keys.seed);
        let vk = *sk.verifying_key();
        Legacy { sk, vk }
    }
}

fn verify_with<P: DilithiumParameterSet>(vk: &VerifyingKey<P>, msg: &[u8], sig: &[u8]) -> bool {
    Signature::<P>::from_bytes(sig).is_ok_and(|s| vk.verify(msg, &s).is_ok())
}

impl<P: DilithiumParameterSet> Peer for Legacy<P> {
    fn keygen(&self, seed: &[u8; 32]) {
        black_box(SigningKey::<P>::from_seed(seed));
    }

    fn sign(&self, msg: &[u8], sig: &mut [u8]) {
        let s = self.sk.sign_deterministic(msg).expect("mldsa legacy sign");
        sig.copy_from_slice(s.as_bytes());
    }

    fn sign_cold(&self, sk: &[u8], msg: &[u8], sig: &mut [u8]) {
        let sk = SigningKey::<P>::from_bytes(sk).expect("mldsa legacy sk");
        let s = sk.sign_deterministic(msg).expect("mldsa legacy sign");
        sig.copy_from_slice(s.as_bytes());
    }

    fn verify(&self, msg: &[u8], sig: &[u8]) -> bool {
        verify_with(&self.vk, msg, sig)
    }

    fn verify_cold(&self, pk: &[u8], msg: &[u8], sig: &[u8]) -> bool {
        VerifyingKey::<P>::from_bytes(pk).is_ok_and(|vk| verify_with(&vk, msg, sig))
    }
}

/// The mldsa-only legacy measurement.
pub trait LegacyOnly {
    /// "sign (cold)" with the key imported by `from_bytes_unverified`, which skips the
    /// consistency check: the difference to "sign (cold)" is what that check costs.
    fn sign_cold_unverified(&self, sk: &[u8], msg: &[u8], sig: &mut [u8]);
}

pub fn load_only(ps: ParamSet, keys: &Keys) -> Box<dyn LegacyOnly> {
    match ps {
        ParamSet::D2 => Box::new(Legacy::<Dilithium2>::new(keys)),
        ParamSet::D3 => Box::new(Legacy::<Dilithium3>::new(keys)),
        ParamSet::D5 => Box::new(Legacy::<Dilithium5>::new(keys)),
        ParamSet::D2Aes => Box::new(Legacy::<Dilithium2Aes>::new(keys)),
        ParamSet::D3Aes => Box::new(Legacy::<Dilithium3Aes>::new(keys)),
        ParamSet::D5Aes => Box::new(Legacy::<Dilithium5Aes>::new(keys)),
        ps => not_legacy(ps),
    }
}

impl<P: DilithiumParameterSet> LegacyOnly for Legacy<P> {
    fn sign_cold_unverified(&self, sk: &[u8], msg: &[u8], sig: &mut [u8]) {
        let sk = SigningKey::<P>::from_bytes_unverified(sk).expect("mldsa legacy sk");
        let s = sk.sign_deterministic(msg).expect("mldsa legacy sign");
        sig.copy_from_slice(s.as_bytes());
    }
}
