//! The byte-array functions behind the noble-compatible API (lib/ml-dsa.js): keys are passed as
//! their FIPS 204 encodings on every call, as `@noble/post-quantum` takes them. The secret key
//! is decoded as FIPS 204 Sign decodes it (s1 and s2 range-checked, tr and t0 used as given),
//! which is what noble signs with.

use core::cell::RefCell;
use js_sys::{Array, Uint8Array};
use mldsa::{
    MlDsa44, MlDsa65, MlDsa87, ParameterSet, PublicMatrix, Signature, SigningKey, VerifyingKey,
};
use wasm_bindgen::prelude::*;

use crate::bytes::{self, out};
use crate::error::IntoJs;
use crate::level::by_level;
use crate::wipe::wiped;

/// ML-DSA.KeyGen_internal(seed): `[publicKey, secretKey]`.
#[wasm_bindgen(js_name = mlKeygen)]
pub fn ml_keygen(level: u32, seed: &Uint8Array) -> Result<Array, JsValue> {
    wiped(|| {
        let seed = bytes::secret_array::<32>(seed, "seed")?;
        by_level!(level, P => {
            let sk = SigningKey::<P>::from_seed(&seed);
            let mut expanded = zeroize::Zeroizing::new(vec![0u8; P::SK_LEN]);
            sk.write_expanded_bytes(&mut expanded).js()?;
            Ok(Array::of2(&out(sk.verifying_key().as_bytes()), &out(&expanded)))
        })
    })
}

/// The public key of an expanded secret key (from rho, s1 and s2, as noble's getPublicKey).
#[wasm_bindgen(js_name = mlPublicKey)]
pub fn ml_public_key(level: u32, sk: &Uint8Array) -> Result<Uint8Array, JsValue> {
    wiped(|| {
        let sk = bytes::secret(sk);
        by_level!(level, P => {
            let key = SigningKey::<P>::from_expanded_unverified(&sk).js()?;
            Ok(out(key.verifying_key().as_bytes()))
        })
    })
}

/// ML-DSA.Sign (pure, with context). `rnd`: the caller's 32 bytes; absent, fresh random ones.
#[wasm_bindgen(js_name = mlSign)]
pub fn ml_sign(
    level: u32,
    sk: &Uint8Array,
    msg: &[u8],
    ctx: &[u8],
    rnd: Option<Uint8Array>,
) -> Result<Uint8Array, JsValue> {
    wiped(|| {
        let sk = bytes::secret(sk);
        let rnd = bytes::rnd(rnd)?;
        by_level!(level, P => {
            let mut mu = mldsa::MuBuilder::pure(&tr_of::<P>(&sk)?, ctx).js()?;
            mu.update(msg);
            Ok(out(sign_mu_cached::<P>(&sk, &mu.finalize(), &rnd)?.as_bytes()))
        })
    })
}

/// ML-DSA.Sign_internal on M' (or on mu when `external_mu`).
#[wasm_bindgen(js_name = mlSignInternal)]
pub fn ml_sign_internal(
    level: u32,
    sk: &Uint8Array,
    m: &[u8],
    external_mu: bool,
    rnd: Option<Uint8Array>,
) -> Result<Uint8Array, JsValue> {
    wiped(|| {
        let sk = bytes::secret(sk);
        let rnd = bytes::rnd(rnd)?;
        by_level!(level, P => {
            let mu = if external_mu {
                mu_arg(m)?
            } else {
                let mut b = mldsa::MuBuilder::internal(&tr_of::<P>(&sk)?);
                b.update(m);
                b.finalize()
            };
            Ok(out(sign_mu_cached::<P>(&sk, &mu, &rnd)?.as_bytes()))
        })
    })
}

/// tr, bytes 64..128 of an expanded secret key (FIPS 204 Algorithm 24), once its length is
/// checked.
fn tr_of<P: ParameterSet>(sk: &[u8]) -> Result<[u8; 64], JsValue> {
    check_sk_len::<P>(sk)?;
    let mut tr = [0u8; 64];
    tr.copy_from_slice(&sk[64..128]);
    Ok(tr)
}

fn check_sk_len<P: ParameterSet>(sk: &[u8]) -> Result<(), JsValue> {
    if sk.len() == P::SK_LEN {
        return Ok(());
    }
    Err(crate::error::to_js(mldsa::Error::Length {
        input: mldsa::Input::SigningKey,
        expected: P::SK_LEN,
        got: sk.len(),
    }))
}

// The matrix A-hat of the key each set last signed with. noble's API passes the secret key's
// bytes on every call, so without this every signature would run ExpandA again (about half the
// work of a signature whose first attempt succeeds); A-hat is derived from rho, which is public
// (it is in the public key), so keeping it keeps no secret. wasm32 here is single-threaded.
thread_local! {
    static MATRICES: RefCell<Matrices> = RefCell::new(Matrices::default());
}

#[derive(Default)]
struct Matrices {
    m44: Option<PublicMatrix<MlDsa44>>,
    m65: Option<PublicMatrix<MlDsa65>>,
    m87: Option<PublicMatrix<MlDsa87>>,
}

trait CachedMatrix: ParameterSet + Sized {
    fn slot(m: &mut Matrices) -> &mut Option<PublicMatrix<Self>>;
}

macro_rules! cached {
    ($($P:ident => $f:ident),*) => {$(
        impl CachedMatrix for $P {
            fn slot(m: &mut Matrices) -> &mut Option<PublicMatrix<Self>> {
                &mut m.$f
            }
        }
    )*};
}

cached!(MlDsa44 => m44, MlDsa65 => m65, MlDsa87 => m87);

/// Sign_internal from mu with the expanded key bytes, reusing the cached A-hat when rho matches.
fn sign_mu_cached<P: CachedMatrix>(
    sk: &[u8],
    mu: &[u8; 64],
    rnd: &[u8; 32],
) -> Result<Signature<P>, JsValue> {
    check_sk_len::<P>(sk)?;
    let mut rho = [0u8; 32];
    rho.copy_from_slice(&sk[..32]);
    MATRICES.with(|m| {
        let mut m = m.borrow_mut();
        let slot = P::slot(&mut m);
        let matrix = match slot {
            Some(matrix) if matrix.rho() == &rho => matrix,
            _ => slot.insert(PublicMatrix::expand(&rho)),
        };
        SigningKey::<P>::sign_mu_with_expanded_matrix(sk, mu, rnd, matrix).js()
    })
}

fn mu_arg(m: &[u8]) -> Result<[u8; 64], JsValue> {
    m.try_into()
        .map_err(|_| crate::error::range(&format!("mu must be 64 bytes, got {}", m.len())))
}

/// ML-DSA.Verify (pure, with context). A public key of the wrong length throws; a signature
/// of the wrong length or encoding, or one that does not verify, gives `false`.
#[wasm_bindgen(js_name = mlVerify)]
pub fn ml_verify(
    level: u32,
    pk: &[u8],
    msg: &[u8],
    ctx: &[u8],
    sig: &[u8],
) -> Result<bool, JsValue> {
    // One call from the encodings (the signature decoded once, tr hashed alongside ExpandA);
    // only a bad key or context throws.
    by_level!(level, P => match VerifyingKey::<P>::verify_with_bytes(pk, msg, ctx, sig) {
        Ok(()) => Ok(true),
        Err(
            e @ (mldsa::Error::Length {
                input: mldsa::Input::VerifyingKey,
                ..
            }
            | mldsa::Error::ContextTooLong { .. }),
        ) => Err(crate::error::to_js(e)),
        Err(_) => Ok(false),
    })
}

/// ML-DSA.Verify_internal on M' (or on mu when `external_mu`).
#[wasm_bindgen(js_name = mlVerifyInternal)]
pub fn ml_verify_internal(
    level: u32,
    pk: &[u8],
    m: &[u8],
    external_mu: bool,
    sig: &[u8],
) -> Result<bool, JsValue> {
    by_level!(level, P => {
        let vk = VerifyingKey::<P>::from_bytes(pk).js()?;
        let Ok(sig) = Signature::<P>::from_bytes(sig) else {
            return Ok(false);
        };
        Ok(if external_mu {
            vk.verify_mu(&mu_arg(m)?, &sig).is_ok()
        } else {
            vk.verify_internal(m, &sig).is_ok()
        })
    })
}
