//! liboqs (Open Quantum Safe) through the `oqs` crate: oqs 0.11.0 vendors liboqs 0.13.0, the
//! last release with CRYSTALS-Dilithium (v3.1, the pqcrystals round-3 code; the AVX2
//! implementation is picked at run time). Built with only its Dilithium enabled and without
//! OpenSSL (liboqs's own SHA-3, randomness from the OS).

use super::{Keys, Lib, ParamSet, Peer};
use oqs::sig::{Algorithm, PublicKey, SecretKey, Sig};
use std::hint::black_box;

pub const LIB: Lib = Lib {
    name: "liboqs",
    krate: "oqs",
    seeded_keygen: false,
    deterministic: false,
    note: "liboqs 0.13.0 (C, pqcrystals AVX2 code chosen at run time); no seeded keygen \
           (OQS_SIG_keypair draws its own randomness) and randomized signing only (liboqs \
           builds Dilithium with DILITHIUM_RANDOMIZED_SIGNING); keys are byte arrays, so warm \
           and cold differ only by a length check; every sign returns a new Vec",
    load,
};

fn load(ps: ParamSet, keys: &Keys) -> Box<dyn Peer> {
    let alg = match ps {
        ParamSet::D2 => Algorithm::Dilithium2,
        ParamSet::D3 => Algorithm::Dilithium3,
        ParamSet::D5 => Algorithm::Dilithium5,
        ps => unreachable!("{} is not a Dilithium round 3 set", ps.name()),
    };
    oqs::init();
    let sig = Sig::new(alg).expect("liboqs: Dilithium not enabled");
    let lens = (
        sig.length_public_key(),
        sig.length_secret_key(),
        sig.length_signature(),
    );
    assert_eq!(
        lens,
        (keys.pk.len(), keys.sk.len(), ps.sig_len()),
        "liboqs sizes are not v3.1's"
    );
    let sk = sig.secret_key_from_bytes(&keys.sk).expect("liboqs sk");
    let pk = sig.public_key_from_bytes(&keys.pk).expect("liboqs pk");
    Box::new(Liboqs {
        sk: sk.to_owned(),
        pk: pk.to_owned(),
        sig,
    })
}

struct Liboqs {
    sig: Sig,
    sk: SecretKey,
    pk: PublicKey,
}

impl Liboqs {
    fn verify_with<'a>(
        &self,
        pk: impl Into<oqs::sig::PublicKeyRef<'a>>,
        msg: &[u8],
        sig: &[u8],
    ) -> bool {
        let Some(sig) = self.sig.signature_from_bytes(sig) else {
            return false;
        };
        self.sig.verify(msg, sig, pk).is_ok()
    }
}

impl Peer for Liboqs {
    fn keygen(&self, _seed: &[u8; 32]) {
        black_box(self.sig.keypair().expect("liboqs keygen"));
    }

    fn sign(&self, msg: &[u8], sig: &mut [u8]) {
        let s = self.sig.sign(msg, &self.sk).expect("liboqs sign");
        sig.copy_from_slice(s.as_ref());
    }

    fn sign_cold(&self, sk: &[u8], msg: &[u8], sig: &mut [u8]) {
        let sk = self.sig.secret_key_from_bytes(sk).expect("liboqs sk");
        let s = self.sig.sign(msg, sk).expect("liboqs sign");
        sig.copy_from_slice(s.as_ref());
    }

    fn verify(&self, msg: &[u8], sig: &[u8]) -> bool {
        self.verify_with(&self.pk, msg, sig)
    }

    fn verify_cold(&self, pk: &[u8], msg: &[u8], sig: &[u8]) -> bool {
        let Some(pk) = self.sig.public_key_from_bytes(pk) else {
            return false;
        };
        self.verify_with(pk, msg, sig)
    }
}
