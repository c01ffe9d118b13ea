//! crystals-dilithium (Quantum Blockchains; pure Rust port of the round-3 reference C code). Its
//! `dilithium2/3/5` modules are v3.1; it also has ML-DSA modules, not measured here. GPL-3.0-only:
//! linked into this unpublished benchmark binary only.

use super::{Keys, Lib, ParamSet, Peer};
use std::hint::black_box;

pub const LIB: Lib = Lib {
    name: "crystals-dilithium",
    krate: "crystals-dilithium",
    seeded_keygen: true,
    deterministic: true,
    note: "pure Rust port of the round-3 reference C code (no SIMD); keys are byte arrays that \
           every sign / verify unpacks, so warm and cold differ only by a copy of the key",
    load,
};

fn load(ps: ParamSet, keys: &Keys) -> Box<dyn Peer> {
    match ps {
        ParamSet::D2 => Box::new(d2::Crystals::new(keys)),
        ParamSet::D3 => Box::new(d3::Crystals::new(keys)),
        ParamSet::D5 => Box::new(d5::Crystals::new(keys)),
        ps => unreachable!("{} is not a Dilithium round 3 set", ps.name()),
    }
}

macro_rules! crystals_peer {
    ($modname:ident, $m:ident) => {
        mod $modname {
            use super::*;
            use crystals_dilithium::$m::{Keypair, PublicKey, SecretKey};

            pub struct Crystals {
                kp: Keypair,
            }

            impl Crystals {
                pub fn new(keys: &Keys) -> Self {
                    let kp = Keypair::generate(Some(&keys.seed)).expect("crystals keygen");
                    assert_eq!(kp.public.to_bytes(), &keys.pk[..], "crystals keygen (pk)");
                    assert_eq!(kp.secret.to_bytes(), &keys.sk[..], "crystals keygen (sk)");
                    Crystals { kp }
                }
            }

            impl Peer for Crystals {
                fn keygen(&self, seed: &[u8; 32]) {
                    black_box(Keypair::generate(Some(seed)).expect("crystals keygen"));
                }
                fn sign(&self, msg: &[u8], sig: &mut [u8]) {
                    sig.copy_from_slice(&self.kp.secret.sign(msg));
                }
                fn sign_cold(&self, sk: &[u8], msg: &[u8], sig: &mut [u8]) {
                    let sk = SecretKey::from_bytes(sk).expect("crystals sk");
                    sig.copy_from_slice(&sk.sign(msg));
                }
                fn verify(&self, msg: &[u8], sig: &[u8]) -> bool {
                    self.kp.public.verify(msg, sig)
                }
                fn verify_cold(&self, pk: &[u8], msg: &[u8], sig: &[u8]) -> bool {
                    PublicKey::from_bytes(pk).is_ok_and(|pk| pk.verify(msg, sig))
                }
            }
        }
    };
}

crystals_peer!(d2, dilithium2);
crystals_peer!(d3, dilithium3);
crystals_peer!(d5, dilithium5);
