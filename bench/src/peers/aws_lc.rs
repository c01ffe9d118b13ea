//! aws-lc-rs (AWS-LC, C; its ML-DSA is the stable `signature::PqdsaKeyPair` API since 1.18).

use super::{Keys, Lib, ParamSet, Peer};
use aws_lc_rs::signature::{
    self as sig, KeyPair, ParsedPublicKey, PqdsaKeyPair, PqdsaSigningAlgorithm,
    PqdsaVerificationAlgorithm, UnparsedPublicKey, VerificationAlgorithm,
};
use std::hint::black_box;

pub const LIB: Lib = Lib {
    name: "aws-lc-rs",
    krate: "aws-lc-rs",
    seeded_keygen: true,
    deterministic: false,
    note: "signing is hedged only (no deterministic or context API); warm: PqdsaKeyPair / \
           ParsedPublicKey; cold: PqdsaKeyPair::from_raw_private_key (derives the public key) \
           / UnparsedPublicKey",
    load,
};

fn load(ps: ParamSet, keys: &Keys) -> Box<dyn Peer> {
    let (signing, verifying): (
        &'static PqdsaSigningAlgorithm,
        &'static PqdsaVerificationAlgorithm,
    ) = match ps {
        ParamSet::P44 => (&sig::ML_DSA_44_SIGNING, &sig::ML_DSA_44),
        ParamSet::P65 => (&sig::ML_DSA_65_SIGNING, &sig::ML_DSA_65),
        ParamSet::P87 => (&sig::ML_DSA_87_SIGNING, &sig::ML_DSA_87),
        ps => super::not_mldsa(ps),
    };
    let kp = PqdsaKeyPair::from_seed(signing, &keys.seed).expect("aws-lc keygen");
    assert_eq!(kp.public_key().as_ref(), &keys.pk[..], "aws-lc keygen");
    let pk = ParsedPublicKey::new(verifying, &keys.pk).expect("aws-lc pk");
    Box::new(AwsLc {
        signing,
        verifying,
        kp,
        pk,
    })
}

struct AwsLc {
    signing: &'static PqdsaSigningAlgorithm,
    verifying: &'static dyn VerificationAlgorithm,
    kp: PqdsaKeyPair,
    pk: ParsedPublicKey,
}

impl Peer for AwsLc {
    fn keygen(&self, seed: &[u8; 32]) {
        black_box(PqdsaKeyPair::from_seed(self.signing, seed).expect("aws-lc keygen"));
    }

    fn sign(&self, msg: &[u8], sig: &mut [u8]) {
        let n = self.kp.sign(msg, sig).expect("aws-lc sign");
        assert_eq!(n, sig.len());
    }

    fn sign_cold(&self, sk: &[u8], msg: &[u8], sig: &mut [u8]) {
        let kp = PqdsaKeyPair::from_raw_private_key(self.signing, sk).expect("aws-lc sk");
        let n = kp.sign(msg, sig).expect("aws-lc sign");
        assert_eq!(n, sig.len());
    }

    fn verify(&self, msg: &[u8], sig: &[u8]) -> bool {
        self.pk.verify_sig(msg, sig).is_ok()
    }

    fn verify_cold(&self, pk: &[u8], msg: &[u8], sig: &[u8]) -> bool {
        UnparsedPublicKey::new(self.verifying, pk)
            .verify(msg, sig)
            .is_ok()
    }
}
