//! The key objects of the idiomatic API (lib/keys.js): a signing or verifying key decoded once
//! and kept in wasm memory, optionally prepared (the core's cached matrix A-hat), with RFC 9881
//! SPKI / PKCS#8 import and export and streaming (the message absorbed into mu in chunks).
//! Dropping a signing key (`free()`, or the glue's FinalizationRegistry) zeroises it: the core's
//! `SigningKey` wipes itself on drop.

use js_sys::Uint8Array;
use mldsa::pkix::{AnySigningKey, AnyVerifyingKey, KeyForm};
use mldsa::{
    MlDsa44, MlDsa65, MlDsa87, MuBuilder, PreHash, PreHashed, PreparedVerifyingKey, Signature,
    SigningKey, VerifyingKey,
};
use wasm_bindgen::prelude::*;
use zeroize::Zeroizing;

use crate::bytes::{self, out};
use crate::error::{IntoJs, freed, range};
use crate::level::by_level;
use crate::wipe::wiped;

// Held by value in a heap-allocated wasm-bindgen object, one key each.
#[allow(clippy::large_enum_variant)]
enum Sk {
    L44(SigningKey<MlDsa44>),
    L65(SigningKey<MlDsa65>),
    L87(SigningKey<MlDsa87>),
}

#[allow(clippy::large_enum_variant)]
enum Vk {
    L44(VerifyingKey<MlDsa44>),
    L65(VerifyingKey<MlDsa65>),
    L87(VerifyingKey<MlDsa87>),
    P44(Box<PreparedVerifyingKey<MlDsa44>>),
    P65(Box<PreparedVerifyingKey<MlDsa65>>),
    P87(Box<PreparedVerifyingKey<MlDsa87>>),
}

macro_rules! each_sk {
    ($sk:expr, $k:ident => $body:expr) => {
        match $sk {
            Sk::L44($k) => $body,
            Sk::L65($k) => $body,
            Sk::L87($k) => $body,
        }
    };
}

/// `$k` is the plain key, `$v` the object to verify with (the prepared one where there is one).
macro_rules! each_vk {
    ($vk:expr, $k:ident, $v:ident => $body:expr) => {
        match $vk {
            Vk::L44($v) => {
                let $k = &*$v;
                $body
            }
            Vk::L65($v) => {
                let $k = &*$v;
                $body
            }
            Vk::L87($v) => {
                let $k = &*$v;
                $body
            }
            Vk::P44($v) => {
                let $k = $v.verifying_key();
                $body
            }
            Vk::P65($v) => {
                let $k = $v.verifying_key();
                $body
            }
            Vk::P87($v) => {
                let $k = $v.verifying_key();
                $body
            }
        }
    };
}

macro_rules! from_typed {
    ($($P:ident => $v:ident),*) => {$(
        impl From<SigningKey<$P>> for Sk {
            fn from(k: SigningKey<$P>) -> Self {
                Sk::$v(k)
            }
        }
        impl From<VerifyingKey<$P>> for Vk {
            fn from(k: VerifyingKey<$P>) -> Self {
                Vk::$v(k)
            }
        }
    )*};
}

from_typed!(MlDsa44 => L44, MlDsa65 => L65, MlDsa87 => L87);

impl From<AnySigningKey> for Sk {
    fn from(k: AnySigningKey) -> Self {
        match k {
            AnySigningKey::MlDsa44(k) => k.into(),
            AnySigningKey::MlDsa65(k) => k.into(),
            AnySigningKey::MlDsa87(k) => k.into(),
        }
    }
}

impl From<AnyVerifyingKey> for Vk {
    fn from(k: AnyVerifyingKey) -> Self {
        match k {
            AnyVerifyingKey::MlDsa44(k) => k.into(),
            AnyVerifyingKey::MlDsa65(k) => k.into(),
            AnyVerifyingKey::MlDsa87(k) => k.into(),
        }
    }
}

fn key_form(form: &str) -> Result<KeyForm, JsValue> {
    match form {
        "seed" => Ok(KeyForm::Seed),
        "expanded" => Ok(KeyForm::Expanded),
        "both" => Ok(KeyForm::Both),
        other => Err(range(&format!(
            "PKCS#8 form must be \"seed\", \"expanded\" or \"both\", got {other:?}"
        ))),
    }
}

fn form_name(form: KeyForm) -> &'static str {
    match form {
        KeyForm::Seed => "seed",
        KeyForm::Expanded => "expanded",
        KeyForm::Both => "both",
    }
}

fn prehash_arg(name: &str) -> Result<PreHash, JsValue> {
    name.parse::<PreHash>().map_err(|_| {
        range(&format!(
            "unknown pre-hash {name:?}: expected one of SHA2-224, SHA2-256, SHA2-384, \
             SHA2-512, SHA2-512/224, SHA2-512/256, SHA3-224, SHA3-256, SHA3-384, SHA3-512, \
             SHAKE-128, SHAKE-256"
        ))
    })
}

/// A text document (PEM) the JS layer encoded as UTF-8 bytes; wiped when dropped.
fn text(doc: &Uint8Array) -> Result<Zeroizing<Vec<u8>>, JsValue> {
    let b = bytes::secret(doc);
    if core::str::from_utf8(&b).is_err() {
        return Err(crate::error::type_error("PEM document is not valid UTF-8"));
    }
    Ok(b)
}

fn as_str(b: &[u8]) -> &str {
    // Checked by `text`.
    core::str::from_utf8(b).unwrap_or_default()
}

/// An ML-DSA signing key.
#[wasm_bindgen(js_name = MlDsaSigningKeyHandle)]
pub struct JsSigningKey {
    // None once destroy() has wiped it (the JS class then drops its handle).
    inner: Option<Sk>,
}

impl JsSigningKey {
    fn sk(&self) -> Result<&Sk, JsValue> {
        self.inner.as_ref().ok_or_else(freed)
    }

    fn sk_mut(&mut self) -> Result<&mut Sk, JsValue> {
        self.inner.as_mut().ok_or_else(freed)
    }
}

#[wasm_bindgen(js_class = MlDsaSigningKeyHandle)]
impl JsSigningKey {
    #[wasm_bindgen(js_name = fromSeed)]
    pub fn from_seed(level: u32, seed: &Uint8Array) -> Result<JsSigningKey, JsValue> {
        wiped(|| {
            let seed = bytes::secret_array::<32>(seed, "seed")?;
            let inner = by_level!(level, P => Sk::from(SigningKey::<P>::from_seed(&seed)));
            Ok(JsSigningKey { inner: Some(inner) })
        })
    }

    /// A new key from a seed drawn from crypto.getRandomValues inside the instance.
    pub fn generate(level: u32) -> Result<JsSigningKey, JsValue> {
        wiped(|| {
            let seed = bytes::random32()?;
            let inner = by_level!(level, P => Sk::from(SigningKey::<P>::from_seed(&seed)));
            Ok(JsSigningKey { inner: Some(inner) })
        })
    }

    #[wasm_bindgen(js_name = fromExpanded)]
    pub fn from_expanded(
        level: u32,
        sk: &Uint8Array,
        check: bool,
    ) -> Result<JsSigningKey, JsValue> {
        wiped(|| {
            let sk = bytes::secret(sk);
            let inner = by_level!(level, P => Sk::from(if check {
                SigningKey::<P>::from_expanded(&sk)
            } else {
                SigningKey::<P>::from_expanded_unverified(&sk)
            }.js()?));
            Ok(JsSigningKey { inner: Some(inner) })
        })
    }

    /// A DER (`pem` false) or PEM PKCS#8 document; the form it held is `form` afterwards.
    #[wasm_bindgen(js_name = fromPkcs8)]
    pub fn from_pkcs8(doc: &Uint8Array, pem: bool) -> Result<JsSigningKey, JsValue> {
        wiped(|| {
            let (key, _form) = if pem {
                AnySigningKey::from_pkcs8_pem(as_str(&text(doc)?))
            } else {
                AnySigningKey::from_pkcs8_der(&bytes::secret(doc))
            }
            .js()?;
            Ok(JsSigningKey {
                inner: Some(key.into()),
            })
        })
    }

    /// The PKCS#8 form (`seed`, `expanded`, `both`) a document holds, without keeping the key.
    #[wasm_bindgen(js_name = pkcs8Form)]
    pub fn pkcs8_form(doc: &Uint8Array, pem: bool) -> Result<String, JsValue> {
        wiped(|| {
            let (_key, form) = if pem {
                AnySigningKey::from_pkcs8_pem(as_str(&text(doc)?))
            } else {
                AnySigningKey::from_pkcs8_der(&bytes::secret(doc))
            }
            .js()?;
            Ok(form_name(form).into())
        })
    }

    /// Drops the key (the core zeroises it) and wipes the stack the drop used: what the JS
    /// `free()` calls. (The glue's own `free`, which the FinalizationRegistry uses for keys
    /// the program forgot, zeroises the key too, but leaves the stack to the next wiped call.)
    pub fn destroy(&mut self) -> Result<(), JsValue> {
        wiped(|| {
            self.inner = None;
            Ok(())
        })
    }

    #[wasm_bindgen(getter)]
    pub fn level(&self) -> Result<u32, JsValue> {
        Ok(match self.sk()? {
            Sk::L44(_) => 44,
            Sk::L65(_) => 65,
            Sk::L87(_) => 87,
        })
    }

    /// The 32-byte seed, or `undefined` for a key imported from its expanded form.
    pub fn seed(&self) -> Result<Option<Uint8Array>, JsValue> {
        Ok(each_sk!(self.sk()?, k => k.seed().map(|s| out(s))))
    }

    /// The FIPS 204 expanded encoding.
    pub fn expanded(&self) -> Result<Uint8Array, JsValue> {
        wiped(|| {
            each_sk!(self.sk()?, k => {
                let mut buf = Zeroizing::new(vec![0u8; expanded_len(self.level()?)]);
                k.write_expanded_bytes(&mut buf).js()?;
                Ok(out(&buf))
            })
        })
    }

    #[wasm_bindgen(js_name = publicKey)]
    pub fn public_key(&self) -> Result<JsVerifyingKey, JsValue> {
        Ok(JsVerifyingKey {
            inner: each_sk!(self.sk()?, k => Vk::from(*k.verifying_key())),
        })
    }

    /// Expands and keeps A-hat (16-56 KiB) so later signatures skip ExpandA.
    pub fn prepare(&mut self) -> Result<(), JsValue> {
        wiped(|| {
            each_sk!(self.sk_mut()?, k => k.prepare());
            Ok(())
        })
    }

    pub fn sign(
        &self,
        msg: &[u8],
        ctx: &[u8],
        rnd: Option<Uint8Array>,
    ) -> Result<Uint8Array, JsValue> {
        wiped(|| {
            let rnd = bytes::rnd(rnd)?;
            each_sk!(self.sk()?, k => {
                let mu = MuBuilder::pure(k.tr(), ctx).js()?;
                let mut mu = mu;
                mu.update(msg);
                Ok(out(k.sign_mu(&mu.finalize(), &rnd).js()?.as_bytes()))
            })
        })
    }

    /// HashML-DSA: `data` is the message (`is_digest` false) or its digest under `alg`.
    #[wasm_bindgen(js_name = signPrehashed)]
    pub fn sign_prehashed(
        &self,
        alg: &str,
        data: &[u8],
        is_digest: bool,
        ctx: &[u8],
        rnd: Option<Uint8Array>,
    ) -> Result<Uint8Array, JsValue> {
        wiped(|| {
            let ph = prehashed(alg, data, is_digest)?;
            let rnd = bytes::rnd(rnd)?;
            each_sk!(self.sk()?, k => {
                let mu = MuBuilder::prehashed(k.tr(), ctx, &ph).js()?;
                Ok(out(k.sign_mu(&mu, &rnd).js()?.as_bytes()))
            })
        })
    }

    /// Starts streaming a message to sign (pure ML-DSA with context `ctx`).
    pub fn stream(&self, ctx: &[u8]) -> Result<MuStream, JsValue> {
        each_sk!(self.sk()?, k => Ok(MuStream { mu: Some(MuBuilder::pure(k.tr(), ctx).js()?), tr: *k.tr() }))
    }

    /// Signs what `stream` absorbed; the stream is used up.
    #[wasm_bindgen(js_name = signStream)]
    pub fn sign_stream(
        &self,
        stream: &mut MuStream,
        rnd: Option<Uint8Array>,
    ) -> Result<Uint8Array, JsValue> {
        wiped(|| {
            let rnd = bytes::rnd(rnd)?;
            each_sk!(self.sk()?, k => {
                if &stream.tr != k.tr() {
                    return Err(range("this stream was started by another key"));
                }
                let mu = stream.finish()?;
                Ok(out(k.sign_mu(&mu, &rnd).js()?.as_bytes()))
            })
        })
    }

    /// PKCS#8 (RFC 9881) as DER, or as PEM text encoded in UTF-8 (`pem`): returned as bytes so
    /// that no secret string is left in wasm memory by the glue.
    #[wasm_bindgen(js_name = toPkcs8)]
    pub fn to_pkcs8(&self, form: &str, pem: bool) -> Result<Uint8Array, JsValue> {
        wiped(|| {
            let form = key_form(form)?;
            each_sk!(self.sk()?, k => if pem {
                Ok(out(k.to_pkcs8_pem(form).js()?.as_bytes()))
            } else {
                Ok(out(&k.to_pkcs8_der(form).js()?))
            })
        })
    }
}

fn expanded_len(level: u32) -> usize {
    match level {
        44 => MlDsa44::SK_LEN,
        65 => MlDsa65::SK_LEN,
        _ => MlDsa87::SK_LEN,
    }
}

fn prehashed(alg: &str, data: &[u8], is_digest: bool) -> Result<PreHashed, JsValue> {
    let alg = prehash_arg(alg)?;
    if is_digest {
        PreHashed::from_digest(alg, data).js()
    } else {
        Ok(PreHashed::hash(alg, data))
    }
}

/// mu being absorbed for a streamed signature or verification.
#[wasm_bindgen]
pub struct MuStream {
    mu: Option<MuBuilder>,
    tr: [u8; 64],
}

#[wasm_bindgen]
impl MuStream {
    pub fn update(&mut self, chunk: &[u8]) -> Result<(), JsValue> {
        match &mut self.mu {
            Some(mu) => {
                mu.update(chunk);
                Ok(())
            }
            None => Err(used_up()),
        }
    }
}

impl MuStream {
    fn finish(&mut self) -> Result<[u8; 64], JsValue> {
        self.mu.take().map(MuBuilder::finalize).ok_or_else(used_up)
    }
}

fn used_up() -> JsValue {
    crate::error::named("state", "this stream has already been signed or verified")
}

/// An ML-DSA verifying (public) key.
#[wasm_bindgen(js_name = MlDsaVerifyingKeyHandle)]
pub struct JsVerifyingKey {
    inner: Vk,
}

#[wasm_bindgen(js_class = MlDsaVerifyingKeyHandle)]
impl JsVerifyingKey {
    #[wasm_bindgen(js_name = fromBytes)]
    pub fn from_bytes(level: u32, pk: &[u8]) -> Result<JsVerifyingKey, JsValue> {
        let inner = by_level!(level, P => Vk::from(VerifyingKey::<P>::from_bytes(pk).js()?));
        Ok(JsVerifyingKey { inner })
    }

    /// A DER or PEM SubjectPublicKeyInfo.
    #[wasm_bindgen(js_name = fromSpki)]
    pub fn from_spki(doc: &[u8], pem: bool) -> Result<JsVerifyingKey, JsValue> {
        let key = if pem {
            let text = core::str::from_utf8(doc)
                .map_err(|_| crate::error::type_error("PEM document is not valid UTF-8"))?;
            AnyVerifyingKey::from_public_key_pem(text)
        } else {
            AnyVerifyingKey::from_public_key_der(doc)
        }
        .js()?;
        Ok(JsVerifyingKey { inner: key.into() })
    }

    #[wasm_bindgen(getter)]
    pub fn level(&self) -> u32 {
        match self.inner {
            Vk::L44(_) | Vk::P44(_) => 44,
            Vk::L65(_) | Vk::P65(_) => 65,
            Vk::L87(_) | Vk::P87(_) => 87,
        }
    }

    #[wasm_bindgen(getter)]
    pub fn prepared(&self) -> bool {
        matches!(self.inner, Vk::P44(_) | Vk::P65(_) | Vk::P87(_))
    }

    #[wasm_bindgen(js_name = toBytes)]
    pub fn to_bytes(&self) -> Uint8Array {
        each_vk!(&self.inner, k, _v => out(k.as_bytes()))
    }

    #[wasm_bindgen(js_name = toSpkiDer)]
    pub fn to_spki_der(&self) -> Uint8Array {
        each_vk!(&self.inner, k, _v => out(&k.to_public_key_der()))
    }

    #[wasm_bindgen(js_name = toSpkiPem)]
    pub fn to_spki_pem(&self) -> String {
        each_vk!(&self.inner, k, _v => k.to_public_key_pem())
    }

    /// Expands and keeps A-hat and NTT(t1 * 2^d) so later verifications skip them.
    pub fn prepare(&mut self) {
        self.inner = match &self.inner {
            Vk::L44(k) => Vk::P44(Box::new(k.prepare())),
            Vk::L65(k) => Vk::P65(Box::new(k.prepare())),
            Vk::L87(k) => Vk::P87(Box::new(k.prepare())),
            _ => return,
        };
    }

    pub fn verify(&self, msg: &[u8], ctx: &[u8], sig: &[u8]) -> Result<bool, JsValue> {
        each_vk!(&self.inner, k, v => {
            let mut mu = MuBuilder::pure(k.tr(), ctx).js()?;
            mu.update(msg);
            Ok(verify_mu(v, &mu.finalize(), sig))
        })
    }

    #[wasm_bindgen(js_name = verifyPrehashed)]
    pub fn verify_prehashed(
        &self,
        alg: &str,
        data: &[u8],
        is_digest: bool,
        ctx: &[u8],
        sig: &[u8],
    ) -> Result<bool, JsValue> {
        let ph = prehashed(alg, data, is_digest)?;
        each_vk!(&self.inner, k, v => {
            let mu = MuBuilder::prehashed(k.tr(), ctx, &ph).js()?;
            Ok(verify_mu(v, &mu, sig))
        })
    }

    pub fn stream(&self, ctx: &[u8]) -> Result<MuStream, JsValue> {
        each_vk!(&self.inner, k, _v => Ok(MuStream { mu: Some(MuBuilder::pure(k.tr(), ctx).js()?), tr: *k.tr() }))
    }

    #[wasm_bindgen(js_name = verifyStream)]
    pub fn verify_stream(&self, stream: &mut MuStream, sig: &[u8]) -> Result<bool, JsValue> {
        each_vk!(&self.inner, k, v => {
            if &stream.tr != k.tr() {
                return Err(range("this stream was started by another key"));
            }
            let mu = stream.finish()?;
            Ok(verify_mu(v, &mu, sig))
        })
    }
}

/// Verifies with a plain or prepared key; a signature of the wrong length or encoding is
/// simply invalid.
fn verify_mu<K: VerifyMu>(k: &K, mu: &[u8; 64], sig: &[u8]) -> bool {
    k.verify_mu_bytes(mu, sig)
}

trait VerifyMu {
    fn verify_mu_bytes(&self, mu: &[u8; 64], sig: &[u8]) -> bool;
}

macro_rules! verify_mu_impl {
    ($($P:ident),*) => {$(
        impl VerifyMu for VerifyingKey<$P> {
            fn verify_mu_bytes(&self, mu: &[u8; 64], sig: &[u8]) -> bool {
                Signature::<$P>::from_bytes(sig).is_ok_and(|s| self.verify_mu(mu, &s).is_ok())
            }
        }
        impl VerifyMu for Box<PreparedVerifyingKey<$P>> {
            fn verify_mu_bytes(&self, mu: &[u8; 64], sig: &[u8]) -> bool {
                Signature::<$P>::from_bytes(sig).is_ok_and(|s| self.verify_mu(mu, &s).is_ok())
            }
        }
    )*};
}

verify_mu_impl!(MlDsa44, MlDsa65, MlDsa87);
