//! fips204 (IntegrityChain, pure Rust).

use super::{Keys, Lib, ParamSet, Peer};
use fips204::traits::{KeyGen, SerDes, Signer, Verifier};
use std::hint::black_box;

pub const LIB: Lib = Lib {
    name: "fips204",
    krate: "fips204",
    seeded_keygen: true,
    deterministic: true,
    note: "warm: PrivateKey / PublicKey (precomputed NTT forms); cold: try_from_bytes, which \
           expands them",
    load,
};

fn load(ps: ParamSet, keys: &Keys) -> Box<dyn Peer> {
    match ps {
        ParamSet::P44 => Box::new(p44::Fips204::new(keys)),
        ParamSet::P65 => Box::new(p65::Fips204::new(keys)),
        ParamSet::P87 => Box::new(p87::Fips204::new(keys)),
        ps => super::not_mldsa(ps),
    }
}

macro_rules! fips204_peer {
    ($modname:ident, $m:ident) => {
        mod $modname {
            use super::*;
            use fips204::$m::{KG, PrivateKey, PublicKey};

            pub struct Fips204 {
                sk: PrivateKey,
                pk: PublicKey,
            }

            impl Fips204 {
                pub fn new(keys: &Keys) -> Self {
                    let (pk, sk) = KG::keygen_from_seed(&keys.seed);
                    assert_eq!(&pk.clone().into_bytes()[..], &keys.pk[..], "fips204 keygen");
                    Fips204 { sk, pk }
                }
            }

            fn sign_with(sk: &PrivateKey, msg: &[u8], sig: &mut [u8]) {
                let s = sk
                    .try_sign_with_seed(&[0; 32], msg, &[])
                    .expect("fips204 sign");
                sig.copy_from_slice(&s);
            }

            fn verify_with(pk: &PublicKey, msg: &[u8], sig: &[u8]) -> bool {
                sig.try_into().is_ok_and(|sig| pk.verify(msg, sig, &[]))
            }

            impl Peer for Fips204 {
                fn keygen(&self, seed: &[u8; 32]) {
                    black_box(KG::keygen_from_seed(seed));
                }
                fn sign(&self, msg: &[u8], sig: &mut [u8]) {
                    sign_with(&self.sk, msg, sig)
                }
                fn sign_cold(&self, sk: &[u8], msg: &[u8], sig: &mut [u8]) {
                    let sk = PrivateKey::try_from_bytes(sk.try_into().expect("sk length"));
                    sign_with(&sk.expect("fips204 sk"), msg, sig)
                }
                fn verify(&self, msg: &[u8], sig: &[u8]) -> bool {
                    verify_with(&self.pk, msg, sig)
                }
                fn verify_cold(&self, pk: &[u8], msg: &[u8], sig: &[u8]) -> bool {
                    let Ok(pk) = pk.try_into() else { return false };
                    PublicKey::try_from_bytes(pk).is_ok_and(|pk| verify_with(&pk, msg, sig))
                }
            }
        }
    };
}

fips204_peer!(p44, ml_dsa_44);
fips204_peer!(p65, ml_dsa_65);
fips204_peer!(p87, ml_dsa_87);
