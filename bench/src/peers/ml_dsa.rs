//! ml-dsa (RustCrypto, pure Rust).

use super::{Keys, Lib, ParamSet, Peer};
use ml_dsa::{
    ExpandedSigningKey, ExpandedSigningKeyBytes, MlDsa44, MlDsa65, MlDsa87, MlDsaParams, Seed,
    Signature, SigningKey, VerifyingKey,
};
use std::hint::black_box;

pub const LIB: Lib = Lib {
    name: "ml-dsa",
    krate: "ml-dsa",
    seeded_keygen: true,
    deterministic: true,
    note: "warm: ExpandedSigningKey / VerifyingKey (both cache A-hat); cold: the deprecated \
           ExpandedSigningKey::from_expanded (no validation) / VerifyingKey::decode",
    load,
};

fn load(ps: ParamSet, keys: &Keys) -> Box<dyn Peer> {
    match ps {
        ParamSet::P44 => Box::new(RustCrypto::<MlDsa44>::new(keys)),
        ParamSet::P65 => Box::new(RustCrypto::<MlDsa65>::new(keys)),
        ParamSet::P87 => Box::new(RustCrypto::<MlDsa87>::new(keys)),
        ps => super::not_mldsa(ps),
    }
}

struct RustCrypto<P: MlDsaParams> {
    sk: ExpandedSigningKey<P>,
    vk: VerifyingKey<P>,
}

impl<P: MlDsaParams> RustCrypto<P> {
    fn new(keys: &Keys) -> Self {
        let kp = SigningKey::<P>::from_seed(&Seed::from(keys.seed));
        let vk = decode_vk(&keys.pk).expect("ml-dsa pk");
        assert!(vk == *kp.as_ref(), "ml-dsa keygen");
        RustCrypto {
            sk: ExpandedSigningKey::from_seed(&Seed::from(keys.seed)),
            vk,
        }
    }
}

fn decode_vk<P: MlDsaParams>(pk: &[u8]) -> Option<VerifyingKey<P>> {
    Some(VerifyingKey::decode(pk.try_into().ok()?))
}

fn sign_with<P: MlDsaParams>(sk: &ExpandedSigningKey<P>, msg: &[u8], sig: &mut [u8]) {
    let s = sk.sign_deterministic(msg, &[]).expect("ml-dsa sign");
    sig.copy_from_slice(&s.encode());
}

fn verify_with<P: MlDsaParams>(vk: &VerifyingKey<P>, msg: &[u8], sig: &[u8]) -> bool {
    Signature::<P>::try_from(sig).is_ok_and(|s| vk.verify_with_context(msg, &[], &s))
}

impl<P: MlDsaParams> Peer for RustCrypto<P> {
    fn keygen(&self, seed: &[u8; 32]) {
        black_box(SigningKey::<P>::from_seed(&Seed::from(*seed)));
    }

    fn sign(&self, msg: &[u8], sig: &mut [u8]) {
        sign_with(&self.sk, msg, sig)
    }

    #[allow(deprecated)]
    fn sign_cold(&self, sk: &[u8], msg: &[u8], sig: &mut [u8]) {
        let bytes = ExpandedSigningKeyBytes::<P>::try_from(sk).expect("ml-dsa sk length");
        sign_with(&ExpandedSigningKey::<P>::from_expanded(&bytes), msg, sig)
    }

    fn verify(&self, msg: &[u8], sig: &[u8]) -> bool {
        verify_with(&self.vk, msg, sig)
    }

    fn verify_cold(&self, pk: &[u8], msg: &[u8], sig: &[u8]) -> bool {
        decode_vk::<P>(pk).is_some_and(|vk| verify_with(&vk, msg, sig))
    }
}
