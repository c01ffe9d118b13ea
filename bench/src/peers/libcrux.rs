//! libcrux-ml-dsa (Cryspen; formally verified with hax; AVX2 via the `simd256` feature, chosen
//! at run time).

use super::{Keys, Lib, ParamSet, Peer};
use std::hint::black_box;

pub const LIB: Lib = Lib {
    name: "libcrux",
    krate: "libcrux-ml-dsa",
    seeded_keygen: true,
    deterministic: true,
    note: "keys are byte arrays: warm and cold differ only by a copy of the key",
    load,
};

fn load(ps: ParamSet, keys: &Keys) -> Box<dyn Peer> {
    match ps {
        ParamSet::P44 => Box::new(p44::Libcrux::new(keys)),
        ParamSet::P65 => Box::new(p65::Libcrux::new(keys)),
        ParamSet::P87 => Box::new(p87::Libcrux::new(keys)),
        ps => super::not_mldsa(ps),
    }
}

macro_rules! libcrux_peer {
    ($modname:ident, $m:ident, $Sk:ident, $Vk:ident, $Sig:ident) => {
        mod $modname {
            use super::*;
            use libcrux_ml_dsa::$m::{self as m, $Sig as Sig, $Sk as Sk, $Vk as Vk};

            pub struct Libcrux {
                sk: Sk,
                vk: Vk,
            }

            impl Libcrux {
                pub fn new(keys: &Keys) -> Self {
                    let kp = m::generate_key_pair(keys.seed);
                    assert_eq!(kp.signing_key.as_slice(), &keys.sk[..], "libcrux keygen");
                    Libcrux {
                        sk: kp.signing_key,
                        vk: kp.verification_key,
                    }
                }
            }

            fn sign_with(sk: &Sk, msg: &[u8], sig: &mut [u8]) {
                let s = m::sign(sk, msg, &[], [0; 32]).expect("libcrux sign");
                sig.copy_from_slice(s.as_slice());
            }

            fn verify_with(vk: &Vk, msg: &[u8], sig: &[u8]) -> bool {
                let Ok(sig) = sig.try_into() else {
                    return false;
                };
                m::verify(vk, msg, &[], &Sig::new(sig)).is_ok()
            }

            impl Peer for Libcrux {
                fn keygen(&self, seed: &[u8; 32]) {
                    black_box(m::generate_key_pair(*seed));
                }
                fn sign(&self, msg: &[u8], sig: &mut [u8]) {
                    sign_with(&self.sk, msg, sig)
                }
                fn sign_cold(&self, sk: &[u8], msg: &[u8], sig: &mut [u8]) {
                    sign_with(&Sk::new(sk.try_into().expect("sk length")), msg, sig)
                }
                fn verify(&self, msg: &[u8], sig: &[u8]) -> bool {
                    verify_with(&self.vk, msg, sig)
                }
                fn verify_cold(&self, pk: &[u8], msg: &[u8], sig: &[u8]) -> bool {
                    let Ok(pk) = pk.try_into() else { return false };
                    verify_with(&Vk::new(pk), msg, sig)
                }
            }
        }
    };
}

libcrux_peer!(
    p44,
    ml_dsa_44,
    MLDSA44SigningKey,
    MLDSA44VerificationKey,
    MLDSA44Signature
);
libcrux_peer!(
    p65,
    ml_dsa_65,
    MLDSA65SigningKey,
    MLDSA65VerificationKey,
    MLDSA65Signature
);
libcrux_peer!(
    p87,
    ml_dsa_87,
    MLDSA87SigningKey,
    MLDSA87VerificationKey,
    MLDSA87Signature
);
