//! pqcrypto-mldsa (PQClean's C code; the AVX2 implementation is picked at run time).

use super::{Keys, Lib, ParamSet, Peer};
use pqcrypto_traits::sign::{DetachedSignature as _, PublicKey as _, SecretKey as _};
use std::hint::black_box;

pub const LIB: Lib = Lib {
    name: "pqcrypto",
    krate: "pqcrypto-mldsa",
    seeded_keygen: false,
    deterministic: false,
    note: "no seeded keygen (keypair() draws its own randomness) and hedged signing only; keys \
           are byte arrays, so warm and cold differ only by a copy of the key",
    load,
};

fn load(ps: ParamSet, keys: &Keys) -> Box<dyn Peer> {
    match ps {
        ParamSet::P44 => Box::new(p44::Pqcrypto::new(keys)),
        ParamSet::P65 => Box::new(p65::Pqcrypto::new(keys)),
        ParamSet::P87 => Box::new(p87::Pqcrypto::new(keys)),
        ps => super::not_mldsa(ps),
    }
}

macro_rules! pqcrypto_peer {
    ($modname:ident, $m:ident) => {
        mod $modname {
            use super::*;
            use pqcrypto_mldsa::$m::{self as m, DetachedSignature, PublicKey, SecretKey};

            pub struct Pqcrypto {
                sk: SecretKey,
                pk: PublicKey,
            }

            impl Pqcrypto {
                pub fn new(keys: &Keys) -> Self {
                    Pqcrypto {
                        sk: SecretKey::from_bytes(&keys.sk).expect("pqcrypto sk"),
                        pk: PublicKey::from_bytes(&keys.pk).expect("pqcrypto pk"),
                    }
                }
            }

            fn verify_with(pk: &PublicKey, msg: &[u8], sig: &[u8]) -> bool {
                let Ok(sig) = DetachedSignature::from_bytes(sig) else {
                    return false;
                };
                m::verify_detached_signature(&sig, msg, pk).is_ok()
            }

            impl Peer for Pqcrypto {
                fn keygen(&self, _seed: &[u8; 32]) {
                    black_box(m::keypair());
                }
                fn sign(&self, msg: &[u8], sig: &mut [u8]) {
                    sig.copy_from_slice(m::detached_sign(msg, &self.sk).as_bytes());
                }
                fn sign_cold(&self, sk: &[u8], msg: &[u8], sig: &mut [u8]) {
                    let sk = SecretKey::from_bytes(sk).expect("pqcrypto sk");
                    sig.copy_from_slice(m::detached_sign(msg, &sk).as_bytes());
                }
                fn verify(&self, msg: &[u8], sig: &[u8]) -> bool {
                    verify_with(&self.pk, msg, sig)
                }
                fn verify_cold(&self, pk: &[u8], msg: &[u8], sig: &[u8]) -> bool {
                    let Ok(pk) = PublicKey::from_bytes(pk) else {
                        return false;
                    };
                    verify_with(&pk, msg, sig)
                }
            }
        }
    };
}

pqcrypto_peer!(p44, mldsa44);
pqcrypto_peer!(p65, mldsa65);
pqcrypto_peer!(p87, mldsa87);
