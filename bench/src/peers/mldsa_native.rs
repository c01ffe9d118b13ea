//! mldsa-native (PQ Code Package; C with AVX2 assembly) through its Rust binding
//! mldsa-native-rs, built with the `native` feature (AVX2 arithmetic and Keccak backends).

use super::{Keys, Lib, ParamSet, Peer};
use mldsa_native_rs::ffi;
use mldsa_native_rs::parameter_sets::{ML_DSA_44, ML_DSA_65, ML_DSA_87};
use mldsa_native_rs::{MlDsaSeed, ParameterSet as P, Signature, SigningKey, VerifyingKey};

pub const LIB: Lib = Lib {
    name: "mldsa-native",
    krate: "mldsa-native-rs",
    seeded_keygen: true,
    deterministic: true,
    note: "warm: the binding's SigningKey / VerifyingKey (byte arrays); cold: the C functions \
           on the key bytes, as C callers use them (the binding's SigningKey::try_from would \
           add a pk_from_sk check)",
    load,
};

/// The C functions of one parameter set.
struct CApi {
    keypair: unsafe extern "C" fn(*mut u8, *mut u8, *const u8) -> ffi::c_int,
    sign: unsafe extern "C" fn(
        *mut u8,
        *mut usize,
        *const u8,
        usize,
        *const u8,
        usize,
        *const u8,
        *const u8,
        ffi::c_int,
    ) -> ffi::c_int,
    verify: unsafe extern "C" fn(
        *const u8,
        usize,
        *const u8,
        usize,
        *const u8,
        usize,
        *const u8,
    ) -> ffi::c_int,
    pk_len: usize,
}

const C44: CApi = CApi {
    keypair: ffi::mldsa44_keypair_internal,
    sign: ffi::mldsa44_signature_internal,
    verify: ffi::mldsa44_verify,
    pk_len: ffi::MLDSA44_PUBLICKEYBYTES as usize,
};
const C65: CApi = CApi {
    keypair: ffi::mldsa65_keypair_internal,
    sign: ffi::mldsa65_signature_internal,
    verify: ffi::mldsa65_verify,
    pk_len: ffi::MLDSA65_PUBLICKEYBYTES as usize,
};
const C87: CApi = CApi {
    keypair: ffi::mldsa87_keypair_internal,
    sign: ffi::mldsa87_signature_internal,
    verify: ffi::mldsa87_verify,
    pk_len: ffi::MLDSA87_PUBLICKEYBYTES as usize,
};

fn load(ps: ParamSet, keys: &Keys) -> Box<dyn Peer> {
    match ps {
        ParamSet::P44 => Box::new(Native::<ML_DSA_44>::new(keys, C44)),
        ParamSet::P65 => Box::new(Native::<ML_DSA_65>::new(keys, C65)),
        ParamSet::P87 => Box::new(Native::<ML_DSA_87>::new(keys, C87)),
        ps => super::not_mldsa(ps),
    }
}

struct Native<Ps: P> {
    sk: SigningKey<Ps>,
    vk: VerifyingKey<Ps>,
    c: CApi,
}

impl<Ps: P> Native<Ps> {
    fn new(keys: &Keys, c: CApi) -> Self {
        let (sk, vk) = mldsa_native_rs::keygen_from_seed::<Ps>(MlDsaSeed::from_slice(&keys.seed))
            .expect("mldsa-native keygen");
        assert_eq!(sk.as_ref(), &keys.sk[..], "mldsa-native keygen");
        Native { sk, vk, c }
    }
}

/// FIPS 204 Algorithm 2's M' prefix for pure ML-DSA with an empty context.
const PURE_EMPTY_CTX: [u8; 2] = [0, 0];

impl<Ps: P> Peer for Native<Ps> {
    fn keygen(&self, seed: &[u8; 32]) {
        let mut pk = [0u8; 2592];
        let mut sk = [0u8; 4896];
        // SAFETY: the buffers are at least the largest parameter set's key sizes.
        let rc = unsafe { (self.c.keypair)(pk.as_mut_ptr(), sk.as_mut_ptr(), seed.as_ptr()) };
        assert_eq!(rc, 0);
        std::hint::black_box((&pk, &sk));
    }

    fn sign(&self, msg: &[u8], sig: &mut [u8]) {
        let s = self
            .sk
            .try_sign_with_ctx_seeded(msg, &[], &MlDsaSeed::default());
        sig.copy_from_slice(s.expect("mldsa-native sign").as_ref());
    }

    fn sign_cold(&self, sk: &[u8], msg: &[u8], sig: &mut [u8]) {
        let mut len = 0usize;
        // SAFETY: `sk` is this parameter set's secret key and `sig` its signature length.
        let rc = unsafe {
            (self.c.sign)(
                sig.as_mut_ptr(),
                &mut len,
                msg.as_ptr(),
                msg.len(),
                PURE_EMPTY_CTX.as_ptr(),
                PURE_EMPTY_CTX.len(),
                [0u8; 32].as_ptr(),
                sk.as_ptr(),
                0,
            )
        };
        assert!(rc == 0 && len == sig.len(), "mldsa-native sign");
    }

    fn verify(&self, msg: &[u8], sig: &[u8]) -> bool {
        let Ok(sig) = Signature::<Ps>::try_from(sig) else {
            return false;
        };
        self.vk.verify_with_ctx(msg, &[], &sig).is_ok()
    }

    fn verify_cold(&self, pk: &[u8], msg: &[u8], sig: &[u8]) -> bool {
        assert_eq!(pk.len(), self.c.pk_len);
        // SAFETY: `pk` has this parameter set's public key length; lengths are passed.
        let rc = unsafe {
            (self.c.verify)(
                sig.as_ptr(),
                sig.len(),
                msg.as_ptr(),
                msg.len(),
                [0u8; 0].as_ptr(),
                0,
                pk.as_ptr(),
            )
        };
        rc == 0
    }
}
