//! The operations under test: key generation, every signing path, export and import, for
//! ML-DSA and legacy Dilithium.

use crate::counting_rng::CountingRng;
use std::hint::black_box;

use mldsa::{ParameterSet, SigningKey};

use crate::secrets::*;

pub(crate) const MSG: &[u8] = b"Z-1 zeroisation message";
pub(crate) const CTX: &[u8] = b"zeroize";

/// Hedged signing's rnd: what `CountingRng` yields (1, 2, ..., 32).
pub(crate) const HEDGED_RND: [u8; 32] = {
    let mut r = [0u8; 32];
    let mut i = 0;
    while i < 32 {
        r[i] = i as u8 + 1;
        i += 1;
    }
    r
};

/// The seed of each parameter set's test key, on the heap (the harness's own copies are kept
/// off the worker's stack).
pub(crate) fn seed_for(name: &str) -> Wiped<[u8; 32]> {
    let mut xi = Wiped(vec![[0u8; 32]]);
    shake256(&[b"Z-1 seed ", name.as_bytes()], &mut xi.0[0]);
    xi
}

/// The mu given to the external-mu one-shot signer.
pub(crate) const EXTERNAL_MU: [u8; 64] = [0x5A; 64];

/// rho'' = H(K || rnd || mu) of pure ML-DSA on (MSG, CTX) (FIPS 204 Algorithms 2 and 7).
pub(crate) fn mldsa_rho_pp(sk: &[u8], rnd: &[u8; 32]) -> [u8; 64] {
    let mut mu = [0u8; 64];
    shake256(&[&sk[64..128], &[0, CTX.len() as u8], CTX, MSG], &mut mu);
    rho_pp_of_mu(sk, rnd, &mu)
}

/// rho'' = H(K || rnd || mu) (FIPS 204 Algorithm 7 step 7).
pub(crate) fn rho_pp_of_mu(sk: &[u8], rnd: &[u8; 32], mu: &[u8; 64]) -> [u8; 64] {
    let mut rho_pp = [0u8; 64];
    shake256(&[&sk[32..64], rnd, mu], &mut rho_pp);
    rho_pp
}

/// The operations on ML-DSA set `P`, by name; every key an operation makes or is given is
/// dropped in it.
pub(crate) fn mldsa_ops<P: ParameterSet + 'static>() -> Vec<(&'static str, OpFn)> {
    vec![
        ("keygen", op_keygen::<P>),
        ("sign-det", op_sign_det::<P>),
        ("sign-hedged", op_sign_hedged::<P>),
        ("prepare", op_prepare::<P>),
        ("sign-prepared", op_sign_prepared::<P>),
        ("sign-expanded", op_sign_expanded::<P>),
        ("to-expanded", op_to_expanded::<P>),
        ("write-expanded", op_write_expanded::<P>),
        ("from-expanded", op_from_expanded::<P>),
        ("from-expanded-unverified", op_from_expanded_unverified::<P>),
        ("all", op_all::<P>),
    ]
}

/// Builds (on the worker, unchecked) the operation to check, from the seed and the expanded key.
pub(crate) type OpFn = for<'a> fn(&'a [u8; 32], &'a [u8]) -> Box<dyn FnOnce() + 'a>;

pub(crate) fn op_keygen<'a, P: ParameterSet>(
    xi: &'a [u8; 32],
    _: &'a [u8],
) -> Box<dyn FnOnce() + 'a> {
    Box::new(move || {
        let sk = SigningKey::<P>::from_seed(xi);
        black_box(&sk);
    })
}

pub(crate) fn boxed_key<P: ParameterSet>(xi: &[u8; 32]) -> Box<SigningKey<P>> {
    Box::new(SigningKey::<P>::from_seed(xi))
}

pub(crate) fn op_sign_det<'a, P: ParameterSet>(
    xi: &'a [u8; 32],
    _: &'a [u8],
) -> Box<dyn FnOnce() + 'a> {
    let sk = boxed_key::<P>(xi);
    Box::new(move || {
        black_box(sk.sign_deterministic(MSG, CTX).expect("sign"));
    })
}

pub(crate) fn op_sign_hedged<'a, P: ParameterSet>(
    xi: &'a [u8; 32],
    _: &'a [u8],
) -> Box<dyn FnOnce() + 'a> {
    let sk = boxed_key::<P>(xi);
    Box::new(move || {
        let sig = sk.sign_with_rng(&mut CountingRng(0), MSG, CTX);
        black_box(sig.expect("sign"));
    })
}

pub(crate) fn op_prepare<'a, P: ParameterSet>(
    xi: &'a [u8; 32],
    _: &'a [u8],
) -> Box<dyn FnOnce() + 'a> {
    let mut sk = boxed_key::<P>(xi);
    Box::new(move || {
        sk.prepare();
        black_box(&sk);
    })
}

pub(crate) fn op_sign_prepared<'a, P: ParameterSet>(
    xi: &'a [u8; 32],
    _: &'a [u8],
) -> Box<dyn FnOnce() + 'a> {
    let mut sk = boxed_key::<P>(xi);
    sk.prepare();
    Box::new(move || {
        black_box(sk.sign_deterministic(MSG, CTX).expect("sign"));
        let sig = sk.sign_with_rng(&mut CountingRng(0), MSG, CTX);
        black_box(sig.expect("sign"));
    })
}

pub(crate) fn op_sign_expanded<'a, P: ParameterSet>(
    _: &'a [u8; 32],
    sk: &'a [u8],
) -> Box<dyn FnOnce() + 'a> {
    Box::new(move || {
        let sig = SigningKey::<P>::sign_with_expanded(sk, MSG, CTX, &[0; 32]);
        black_box(sig.expect("sign"));
        let sig = SigningKey::<P>::sign_with_expanded(sk, MSG, CTX, &HEDGED_RND);
        black_box(sig.expect("sign"));
        // The external-mu one-shot (the Python drop-in's path); mu is public.
        let sig = SigningKey::<P>::sign_mu_with_expanded(sk, &EXTERNAL_MU, &HEDGED_RND);
        black_box(sig.expect("sign"));
    })
}

pub(crate) fn op_to_expanded<'a, P: ParameterSet>(
    xi: &'a [u8; 32],
    expected: &'a [u8],
) -> Box<dyn FnOnce() + 'a> {
    let sk = boxed_key::<P>(xi);
    Box::new(move || {
        let bytes = sk.to_expanded_bytes();
        assert!(bytes.as_ref() == expected);
    })
}

pub(crate) fn op_write_expanded<'a, P: ParameterSet>(
    xi: &'a [u8; 32],
    expected: &'a [u8],
) -> Box<dyn FnOnce() + 'a> {
    let sk = boxed_key::<P>(xi);
    Box::new(move || {
        let mut bytes = Wiped(vec![0u8; P::SK_LEN]);
        sk.write_expanded_bytes(&mut bytes.0).expect("length");
        assert!(bytes[..] == *expected);
    })
}

pub(crate) fn op_from_expanded<'a, P: ParameterSet>(
    _: &'a [u8; 32],
    bytes: &'a [u8],
) -> Box<dyn FnOnce() + 'a> {
    Box::new(move || {
        let sk = SigningKey::<P>::from_expanded(bytes).expect("decode");
        black_box(sk.sign_deterministic(MSG, CTX).expect("sign"));
    })
}

pub(crate) fn op_from_expanded_unverified<'a, P: ParameterSet>(
    _: &'a [u8; 32],
    bytes: &'a [u8],
) -> Box<dyn FnOnce() + 'a> {
    Box::new(move || {
        let sk = SigningKey::<P>::from_expanded_unverified(bytes).expect("decode");
        black_box(sk.sign_deterministic(MSG, CTX).expect("sign"));
    })
}

/// The scenario in one go: keygen, deterministic and hedged signing, prepared signing,
/// one-shot signing from the expanded bytes, export and import, then every key dropped.
pub(crate) fn op_all<'a, P: ParameterSet>(
    xi: &'a [u8; 32],
    bytes: &'a [u8],
) -> Box<dyn FnOnce() + 'a> {
    Box::new(move || {
        let mut sk = SigningKey::<P>::from_seed(xi);
        black_box(sk.sign_deterministic(MSG, CTX).expect("sign"));
        let sig = sk.sign_with_rng(&mut CountingRng(0), MSG, CTX);
        black_box(sig.expect("sign"));
        sk.prepare();
        black_box(sk.sign_deterministic(MSG, CTX).expect("sign"));
        let sig = SigningKey::<P>::sign_with_expanded(bytes, MSG, CTX, &[0; 32]);
        black_box(sig.expect("sign"));
        let mut exported = Wiped(vec![0u8; P::SK_LEN]);
        sk.write_expanded_bytes(&mut exported.0).expect("length");
        let imported = SigningKey::<P>::from_expanded(&exported).expect("decode");
        black_box(imported.sign_deterministic(MSG, CTX).expect("sign"));
        drop(imported);
        drop(exported);
        drop(sk);
    })
}
