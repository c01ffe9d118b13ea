//! The libraries, each behind [`Peer`], as in bench/src/peers (the same calls where the
//! library has them on AArch64).


#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamSet {
    P44 = 0,
    P65 = 1,
    P87 = 2,
}

impl ParamSet {
    pub fn name(self) -> &'static str {
        match self {
            ParamSet::P44 => "ML-DSA-44",
            ParamSet::P65 => "ML-DSA-65",
            ParamSet::P87 => "ML-DSA-87",
        }
    }

    /// (public key, expanded secret key) lengths.
    pub fn key_lens(self) -> (usize, usize) {
        match self {
            ParamSet::P44 => (1312, 2560),
            ParamSet::P65 => (1952, 4032),
            ParamSet::P87 => (2592, 4896),
        }
    }

    pub fn sig_len(self) -> usize {
        match self {
            ParamSet::P44 => 2420,
            ParamSet::P65 => 3309,
            ParamSet::P87 => 4627,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Keygen,
    SignCold,
    SignWarm,
    VerifyCold,
    VerifyWarm,
}

impl Op {
    pub const ALL: [Op; 5] = [
        Op::Keygen,
        Op::SignCold,
        Op::SignWarm,
        Op::VerifyCold,
        Op::VerifyWarm,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Op::Keygen => "keygen",
            Op::SignCold => "sign-cold",
            Op::SignWarm => "sign-warm",
            Op::VerifyCold => "verify-cold",
            Op::VerifyWarm => "verify-warm",
        }
    }

    pub fn parse(s: &str) -> Option<Op> {
        Op::ALL.into_iter().find(|op| op.name() == s)
    }
}

/// The shared key pair: FIPS 204 encodings, the expanded secret key.
pub struct Keys {
    pub seed: [u8; 32],
    pub pk: Vec<u8>,
    pub sk: Vec<u8>,
}

/// One library at one parameter set, holding the shared key pair in its decoded ("warm") form
/// where it has one. Pure ML-DSA, empty context, deterministic signing (rnd = 0^32).
pub trait Peer {
    /// Key generation from a 32-byte seed.
    fn keygen(&self, seed: &[u8; 32]);
    /// The key pair from a seed (pk, expanded sk), for the check only.
    fn keypair(&self, seed: &[u8; 32]) -> (Vec<u8>, Vec<u8>);
    /// Signs with the decoded key (only where [`Peer::lacks`] gives None for `SignWarm`).
    fn sign(&self, msg: &[u8], sig: &mut [u8]);
    /// Signs from the expanded secret key bytes, as a C API is used.
    fn sign_cold(&self, sk: &[u8], msg: &[u8], sig: &mut [u8]);
    /// Verifies with the decoded public key (where the library has one).
    fn verify(&self, msg: &[u8], sig: &[u8]) -> bool;
    /// Verifies from the public key bytes.
    fn verify_cold(&self, pk: &[u8], msg: &[u8], sig: &[u8]) -> bool;
    /// Why this library has no distinct form of `op`, or None if it has one.
    fn lacks(&self, op: Op) -> Option<&'static str>;
    /// What warm and cold call.
    fn note(&self) -> &'static str;
}

pub fn names() -> Vec<&'static str> {
    let mut v = vec!["mldsa", "mldsa-portable", "libcrux", "mldsa-native"];
    if cfg!(feature = "aws-lc") {
        v.push("aws-lc-rs");
    }
    v
}

/// The library `lib` at `ps`, with its warm key objects made from `keys` if `warm`.
pub fn load(lib: &str, ps: ParamSet, keys: &Keys, warm: bool) -> Option<Box<dyn Peer>> {
    Some(match lib {
        "mldsa" => mldsa::load(ps, keys, false, warm),
        "mldsa-portable" => mldsa::load(ps, keys, true, warm),
        "libcrux" => libcrux::load(ps),
        "mldsa-native" => native::load(ps, keys),
        #[cfg(feature = "aws-lc")]
        "aws-lc-rs" => aws_lc::load(ps, keys, warm),
        _ => return None,
    })
}

/// A key object that is the encoded key itself: "warm" would be the cold call.
const BYTES_ONLY: &str = "its key object is the encoded key (a byte array): warm = cold";

pub mod mldsa {
    use super::*;
    use ::mldsa::backend::{BackendKind, active_backend, force_portable};
    use ::mldsa::{
        MlDsa44, MlDsa65, MlDsa87, ParameterSet, PreparedVerifyingKey, Signature, SigningKey,
        VerifyingKey,
    };
    use std::hint::black_box;

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
        }
    }

    /// mldsa's deterministic signature of `msg` (the reference the peers are checked against).
    pub fn sign(ps: ParamSet, keys: &Keys, msg: &[u8]) -> Vec<u8> {
        fn s<P: ParameterSet>(keys: &Keys, msg: &[u8]) -> Vec<u8> {
            let sig = SigningKey::<P>::sign_with_expanded(&keys.sk, msg, &[], &[0; 32]);
            sig.expect("mldsa sign").as_bytes().to_vec()
        }
        match ps {
            ParamSet::P44 => s::<MlDsa44>(keys, msg),
            ParamSet::P65 => s::<MlDsa65>(keys, msg),
            ParamSet::P87 => s::<MlDsa87>(keys, msg),
        }
    }

    /// `portable`: `force_portable(true)` once, before anything runs (not around each
    /// operation, as the x86 bench must do in its interleaved rounds).
    pub fn load(ps: ParamSet, keys: &Keys, portable: bool, warm: bool) -> Box<dyn Peer> {
        force_portable(portable);
        let want = if portable { BackendKind::Portable } else { BackendKind::Neon };
        assert_eq!(active_backend(), want, "mldsa backend");
        match ps {
            ParamSet::P44 => Box::new(Mldsa::<MlDsa44>::new(keys, warm)),
            ParamSet::P65 => Box::new(Mldsa::<MlDsa65>::new(keys, warm)),
            ParamSet::P87 => Box::new(Mldsa::<MlDsa87>::new(keys, warm)),
        }
    }

    /// The warm key objects, if made.
    struct Mldsa<P: ParameterSet>(Option<(SigningKey<P>, PreparedVerifyingKey<P>)>);

    impl<P: ParameterSet> Mldsa<P> {
        fn new(keys: &Keys, warm: bool) -> Self {
            Mldsa(warm.then(|| {
                let sk = SigningKey::<P>::from_seed(&keys.seed).prepared();
                let vk = sk.verifying_key().prepare();
                (sk, vk)
            }))
        }

        fn warm(&self) -> &(SigningKey<P>, PreparedVerifyingKey<P>) {
            self.0.as_ref().expect("loaded with warm = true")
        }
    }

    impl<P: ParameterSet> Peer for Mldsa<P> {
        fn keygen(&self, seed: &[u8; 32]) {
            black_box(SigningKey::<P>::from_seed(seed));
        }
        fn keypair(&self, seed: &[u8; 32]) -> (Vec<u8>, Vec<u8>) {
            let sk = SigningKey::<P>::from_seed(seed);
            let pk = sk.verifying_key().as_bytes().to_vec();
            (pk, sk.to_expanded_bytes().as_ref().to_vec())
        }
        fn sign(&self, msg: &[u8], sig: &mut [u8]) {
            let s = self.warm().0.sign_deterministic(msg, &[]).expect("mldsa sign");
            sig.copy_from_slice(s.as_bytes());
        }
        fn sign_cold(&self, sk: &[u8], msg: &[u8], sig: &mut [u8]) {
            let s = SigningKey::<P>::sign_with_expanded(sk, msg, &[], &[0; 32]);
            sig.copy_from_slice(s.expect("mldsa sign").as_bytes());
        }
        fn verify(&self, msg: &[u8], sig: &[u8]) -> bool {
            let vk = &self.warm().1;
            Signature::<P>::from_bytes(sig).is_ok_and(|s| vk.verify(msg, &[], &s).is_ok())
        }
        fn verify_cold(&self, pk: &[u8], msg: &[u8], sig: &[u8]) -> bool {
            VerifyingKey::<P>::verify_with_bytes(pk, msg, &[], sig).is_ok()
        }
        fn lacks(&self, _: Op) -> Option<&'static str> {
            None
        }
        fn note(&self) -> &'static str {
            "warm: SigningKey::prepared() (keeps A-hat) / PreparedVerifyingKey; cold: \
             SigningKey::sign_with_expanded / VerifyingKey::verify_with_bytes (one call from \
             the encodings, as crypto_sign_verify)"
        }
    }
}

mod libcrux {
    use super::*;
    use std::hint::black_box;

    pub fn load(ps: ParamSet) -> Box<dyn Peer> {
        match ps {
            ParamSet::P44 => Box::new(p44::Libcrux),
            ParamSet::P65 => Box::new(p65::Libcrux),
            ParamSet::P87 => Box::new(p87::Libcrux),
        }
    }

    macro_rules! libcrux_peer {
        ($modname:ident, $m:ident, $Sk:ident, $Vk:ident, $Sig:ident) => {
            mod $modname {
                use super::*;
                use libcrux_ml_dsa::$m::{self as m, $Sig as Sig, $Sk as Sk, $Vk as Vk};

                pub struct Libcrux;

                impl Peer for Libcrux {
                    fn keygen(&self, seed: &[u8; 32]) {
                        black_box(m::generate_key_pair(*seed));
                    }
                    fn keypair(&self, seed: &[u8; 32]) -> (Vec<u8>, Vec<u8>) {
                        let kp = m::generate_key_pair(*seed);
                        let pk = kp.verification_key.as_slice().to_vec();
                        (pk, kp.signing_key.as_slice().to_vec())
                    }
                    fn sign(&self, _: &[u8], _: &mut [u8]) {
                        unreachable!("{BYTES_ONLY}")
                    }
                    fn sign_cold(&self, sk: &[u8], msg: &[u8], sig: &mut [u8]) {
                        let sk = Sk::new(sk.try_into().expect("sk length"));
                        let s = m::sign(&sk, msg, &[], [0; 32]).expect("libcrux sign");
                        sig.copy_from_slice(s.as_slice());
                    }
                    fn verify(&self, _: &[u8], _: &[u8]) -> bool {
                        unreachable!("{BYTES_ONLY}")
                    }
                    fn verify_cold(&self, pk: &[u8], msg: &[u8], sig: &[u8]) -> bool {
                        let Ok(pk) = pk.try_into() else { return false };
                        let Ok(sig) = sig.try_into() else { return false };
                        m::verify(&Vk::new(pk), msg, &[], &Sig::new(sig)).is_ok()
                    }
                    fn lacks(&self, op: Op) -> Option<&'static str> {
                        matches!(op, Op::SignWarm | Op::VerifyWarm).then_some(BYTES_ONLY)
                    }
                    fn note(&self) -> &'static str {
                        "feature simd128 (NEON 2-way Keccak; portable arithmetic): \
                         generate_key_pair / sign / verify on the key bytes"
                    }
                }
            }
        };
    }

    libcrux_peer!(p44, ml_dsa_44, MLDSA44SigningKey, MLDSA44VerificationKey, MLDSA44Signature);
    libcrux_peer!(p65, ml_dsa_65, MLDSA65SigningKey, MLDSA65VerificationKey, MLDSA65Signature);
    libcrux_peer!(p87, ml_dsa_87, MLDSA87SigningKey, MLDSA87VerificationKey, MLDSA87Signature);
}

mod native {
    use super::*;
    use mldsa_native_rs::ffi;

    /// The C functions of one parameter set.
    pub struct CApi {
        keypair: unsafe extern "C" fn(*mut u8, *mut u8, *const u8) -> ffi::c_int,
        #[allow(clippy::type_complexity)]
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
        #[allow(clippy::type_complexity)]
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
        sk_len: usize,
    }

    const C44: CApi = CApi {
        keypair: ffi::mldsa44_keypair_internal,
        sign: ffi::mldsa44_signature_internal,
        verify: ffi::mldsa44_verify,
        pk_len: ffi::MLDSA44_PUBLICKEYBYTES as usize,
        sk_len: ffi::MLDSA44_SECRETKEYBYTES as usize,
    };
    const C65: CApi = CApi {
        keypair: ffi::mldsa65_keypair_internal,
        sign: ffi::mldsa65_signature_internal,
        verify: ffi::mldsa65_verify,
        pk_len: ffi::MLDSA65_PUBLICKEYBYTES as usize,
        sk_len: ffi::MLDSA65_SECRETKEYBYTES as usize,
    };
    const C87: CApi = CApi {
        keypair: ffi::mldsa87_keypair_internal,
        sign: ffi::mldsa87_signature_internal,
        verify: ffi::mldsa87_verify,
        pk_len: ffi::MLDSA87_PUBLICKEYBYTES as usize,
        sk_len: ffi::MLDSA87_SECRETKEYBYTES as usize,
    };

    pub fn load(ps: ParamSet, keys: &Keys) -> Box<dyn Peer> {
        let c = match ps {
            ParamSet::P44 => C44,
            ParamSet::P65 => C65,
            ParamSet::P87 => C87,
        };
        assert_eq!((c.pk_len, c.sk_len), (keys.pk.len(), keys.sk.len()));
        Box::new(Native(c))
    }

    /// FIPS 204 Algorithm 2's M' prefix for pure ML-DSA with an empty context.
    const PURE_EMPTY_CTX: [u8; 2] = [0, 0];

    pub struct Native(CApi);

    impl Peer for Native {
        fn keygen(&self, seed: &[u8; 32]) {
            let mut pk = [0u8; 2592];
            let mut sk = [0u8; 4896];
            // SAFETY: the buffers are at least the largest parameter set's key sizes.
            let rc = unsafe { (self.0.keypair)(pk.as_mut_ptr(), sk.as_mut_ptr(), seed.as_ptr()) };
            assert_eq!(rc, 0);
            std::hint::black_box((&pk, &sk));
        }
        fn keypair(&self, seed: &[u8; 32]) -> (Vec<u8>, Vec<u8>) {
            let (mut pk, mut sk) = (vec![0u8; self.0.pk_len], vec![0u8; self.0.sk_len]);
            // SAFETY: the buffers have this parameter set's key sizes.
            let rc = unsafe { (self.0.keypair)(pk.as_mut_ptr(), sk.as_mut_ptr(), seed.as_ptr()) };
            assert_eq!(rc, 0);
            (pk, sk)
        }
        fn sign(&self, _: &[u8], _: &mut [u8]) {
            unreachable!("{BYTES_ONLY}")
        }
        fn sign_cold(&self, sk: &[u8], msg: &[u8], sig: &mut [u8]) {
            assert_eq!(sk.len(), self.0.sk_len);
            let mut len = 0usize;
            // SAFETY: `sk` is this parameter set's secret key and `sig` its signature length.
            let rc = unsafe {
                (self.0.sign)(
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
        fn verify(&self, _: &[u8], _: &[u8]) -> bool {
            unreachable!("{BYTES_ONLY}")
        }
        fn verify_cold(&self, pk: &[u8], msg: &[u8], sig: &[u8]) -> bool {
            assert_eq!(pk.len(), self.0.pk_len);
            // SAFETY: `pk` has this parameter set's public key length; lengths are passed.
            let rc = unsafe {
                (self.0.verify)(
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
        fn lacks(&self, op: Op) -> Option<&'static str> {
            matches!(op, Op::SignWarm | Op::VerifyWarm).then_some(BYTES_ONLY)
        }
        fn note(&self) -> &'static str {
            "feature native (AArch64 assembly arithmetic and Keccak, chosen at run time): the \
             C functions mldsaNN_keypair_internal / mldsaNN_signature_internal / mldsaNN_verify \
             on the key bytes"
        }
    }
}

#[cfg(feature = "aws-lc")]
mod aws_lc {
    use super::*;
    use aws_lc_rs::encoding::AsRawBytes;
    use aws_lc_rs::signature::{
        self as sig, KeyPair, ParsedPublicKey, PqdsaKeyPair, PqdsaSigningAlgorithm,
        PqdsaVerificationAlgorithm, UnparsedPublicKey, VerificationAlgorithm,
    };
    use std::hint::black_box;

    /// AWS-LC's own deterministic entry point (`crypto/fipsmodule/ml_dsa/ml_dsa.h`,
    /// OPENSSL_EXPORT), in the static library aws-lc-sys 0.47.0 builds, whose symbols carry
    /// the prefix `aws_lc_0_47_0_`. aws-lc-rs itself signs hedged only (fresh rnd per
    /// signature, so a random number of attempts); this is the same signing core with
    /// rnd = 0^32 and M' = (0, 0, message): pure ML-DSA, empty context.
    type SignInternal = unsafe extern "C" fn(
        *const u8,
        *mut u8,
        *mut usize,
        *const u8,
        usize,
        *const u8,
        usize,
        *const u8,
    ) -> core::ffi::c_int;

    unsafe extern "C" {
        #[link_name = "aws_lc_0_47_0_ml_dsa_44_sign_internal"]
        fn ml_dsa_44_sign_internal(
            sk: *const u8,
            sig: *mut u8,
            sig_len: *mut usize,
            msg: *const u8,
            msg_len: usize,
            pre: *const u8,
            pre_len: usize,
            rnd: *const u8,
        ) -> core::ffi::c_int;
        #[link_name = "aws_lc_0_47_0_ml_dsa_65_sign_internal"]
        fn ml_dsa_65_sign_internal(
            sk: *const u8,
            sig: *mut u8,
            sig_len: *mut usize,
            msg: *const u8,
            msg_len: usize,
            pre: *const u8,
            pre_len: usize,
            rnd: *const u8,
        ) -> core::ffi::c_int;
        #[link_name = "aws_lc_0_47_0_ml_dsa_87_sign_internal"]
        fn ml_dsa_87_sign_internal(
            sk: *const u8,
            sig: *mut u8,
            sig_len: *mut usize,
            msg: *const u8,
            msg_len: usize,
            pre: *const u8,
            pre_len: usize,
            rnd: *const u8,
        ) -> core::ffi::c_int;
    }

    pub fn load(ps: ParamSet, keys: &Keys, warm: bool) -> Box<dyn Peer> {
        let (signing, verifying, sign_internal): (
            &'static PqdsaSigningAlgorithm,
            &'static PqdsaVerificationAlgorithm,
            SignInternal,
        ) = match ps {
            ParamSet::P44 => (&sig::ML_DSA_44_SIGNING, &sig::ML_DSA_44, ml_dsa_44_sign_internal),
            ParamSet::P65 => (&sig::ML_DSA_65_SIGNING, &sig::ML_DSA_65, ml_dsa_65_sign_internal),
            ParamSet::P87 => (&sig::ML_DSA_87_SIGNING, &sig::ML_DSA_87, ml_dsa_87_sign_internal),
        };
        let pk = warm.then(|| ParsedPublicKey::new(verifying, &keys.pk).expect("aws-lc pk"));
        Box::new(AwsLc {
            signing,
            verifying,
            sign_internal,
            pk,
        })
    }

    struct AwsLc {
        signing: &'static PqdsaSigningAlgorithm,
        verifying: &'static dyn VerificationAlgorithm,
        sign_internal: SignInternal,
        /// The warm public key, if made.
        pk: Option<ParsedPublicKey>,
    }

    impl Peer for AwsLc {
        fn keygen(&self, seed: &[u8; 32]) {
            black_box(PqdsaKeyPair::from_seed(self.signing, seed).expect("aws-lc keygen"));
        }
        fn keypair(&self, seed: &[u8; 32]) -> (Vec<u8>, Vec<u8>) {
            let kp = PqdsaKeyPair::from_seed(self.signing, seed).expect("aws-lc keygen");
            let sk = kp.private_key().as_raw_bytes().expect("aws-lc raw sk");
            (kp.public_key().as_ref().to_vec(), sk.as_ref().to_vec())
        }
        fn sign(&self, _: &[u8], _: &mut [u8]) {
            unreachable!("aws-lc-rs: no deterministic warm signing")
        }
        fn sign_cold(&self, sk: &[u8], msg: &[u8], sig: &mut [u8]) {
            let pre = [0u8, 0];
            let mut len = 0usize;
            // SAFETY: `sk` is this parameter set's expanded secret key (checked by the `check`
            // mode against mldsa's signatures), `sig` has its signature length, lengths passed.
            let rc = unsafe {
                (self.sign_internal)(
                    sk.as_ptr(),
                    sig.as_mut_ptr(),
                    &mut len,
                    msg.as_ptr(),
                    msg.len(),
                    pre.as_ptr(),
                    pre.len(),
                    [0u8; 32].as_ptr(),
                )
            };
            assert!(rc == 1 && len == sig.len(), "aws-lc sign");
        }
        fn verify(&self, msg: &[u8], sig: &[u8]) -> bool {
            let pk = self.pk.as_ref().expect("loaded with warm = true");
            pk.verify_sig(msg, sig).is_ok()
        }
        fn verify_cold(&self, pk: &[u8], msg: &[u8], sig: &[u8]) -> bool {
            UnparsedPublicKey::new(self.verifying, pk).verify(msg, sig).is_ok()
        }
        fn lacks(&self, op: Op) -> Option<&'static str> {
            (op == Op::SignWarm).then_some(
                "aws-lc-rs signs hedged only (PqdsaKeyPair::sign: a random number of attempts); \
                 its key object holds the key bytes, so warm would be the cold call anyway",
            )
        }
        fn note(&self) -> &'static str {
            "keygen: PqdsaKeyPair::from_seed; sign cold: AWS-LC's exported \
             ml_dsa_NN_sign_internal (rnd = 0, M' prefix 0,0) on the key bytes, since \
             aws-lc-rs signs hedged only; verify warm: ParsedPublicKey; cold: UnparsedPublicKey"
        }
    }
}
