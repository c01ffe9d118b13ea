//! The round-3 Dilithium sets (CRYSTALS-Dilithium v3.1, SHAKE and AES variants: the core's
//! `mldsa::legacy`), for interoperating with keys and signatures made before FIPS 204. Named by
//! their v3.1 names ("Dilithium2" ... "Dilithium5-AES"); no context, no pre-hash.

use js_sys::Uint8Array;
use mldsa::legacy::{
    Dilithium2, Dilithium2Aes, Dilithium3, Dilithium3Aes, Dilithium5, Dilithium5Aes, Signature,
    SigningKey, VerifyingKey,
};
use wasm_bindgen::prelude::*;
use zeroize::Zeroizing;

use crate::bytes::{self, out};
use crate::error::{IntoJs, freed, range};
use crate::wipe::wiped;

macro_rules! sets {
    ($($v:ident: $P:ident = $name:literal),*) => {
        #[allow(clippy::large_enum_variant)]
        enum Sk { $($v(SigningKey<$P>)),* }
        enum Vk { $($v(VerifyingKey<$P>)),* }

        /// Runs `$body` with `$P` the set named `$name`.
        macro_rules! by_name {
            ($n:expr, $T:ident => $body:expr) => {
                match $n {
                    $($name => {
                        type $T = $P;
                        $body
                    })*
                    other => return Err(range(&format!(
                        "Dilithium set must be one of {}, got {other:?}",
                        [$($name),*].join(", ")
                    ))),
                }
            };
        }

        macro_rules! each_sk {
            ($sk:expr, $k:ident => $body:expr) => {
                match $sk { $(Sk::$v($k) => $body),* }
            };
        }

        macro_rules! each_vk {
            ($vk:expr, $k:ident, $T:ident => $body:expr) => {
                match $vk { $(Vk::$v($k) => {
                    type $T = $P;
                    $body
                }),* }
            };
        }

        $(
            impl From<SigningKey<$P>> for Sk {
                fn from(k: SigningKey<$P>) -> Self { Sk::$v(k) }
            }
            impl From<VerifyingKey<$P>> for Vk {
                fn from(k: VerifyingKey<$P>) -> Self { Vk::$v(k) }
            }
        )*

        fn sk_name(sk: &Sk) -> &'static str {
            match sk { $(Sk::$v(_) => $name),* }
        }

        fn vk_name(vk: &Vk) -> &'static str {
            match vk { $(Vk::$v(_) => $name),* }
        }
    };
}

sets!(
    D2: Dilithium2 = "Dilithium2",
    D3: Dilithium3 = "Dilithium3",
    D5: Dilithium5 = "Dilithium5",
    D2Aes: Dilithium2Aes = "Dilithium2-AES",
    D3Aes: Dilithium3Aes = "Dilithium3-AES",
    D5Aes: Dilithium5Aes = "Dilithium5-AES"
);

/// A round-3 Dilithium signing key.
#[wasm_bindgen(js_name = DilithiumSigningKeyHandle)]
pub struct JsDilithiumSigningKey {
    // None once destroy() has wiped it (the JS class then drops its handle).
    inner: Option<Sk>,
}

impl JsDilithiumSigningKey {
    fn sk(&self) -> Result<&Sk, JsValue> {
        self.inner.as_ref().ok_or_else(freed)
    }

    fn sk_mut(&mut self) -> Result<&mut Sk, JsValue> {
        self.inner.as_mut().ok_or_else(freed)
    }
}

#[wasm_bindgen(js_class = DilithiumSigningKeyHandle)]
impl JsDilithiumSigningKey {
    /// v3.1 KeyGen from its 32-byte seed zeta.
    #[wasm_bindgen(js_name = fromSeed)]
    pub fn from_seed(name: &str, seed: &Uint8Array) -> Result<JsDilithiumSigningKey, JsValue> {
        wiped(|| {
            let seed = bytes::secret_array::<32>(seed, "seed")?;
            let inner = by_name!(name, P => Sk::from(SigningKey::<P>::from_seed(&seed)));
            Ok(JsDilithiumSigningKey { inner: Some(inner) })
        })
    }

    pub fn generate(name: &str) -> Result<JsDilithiumSigningKey, JsValue> {
        wiped(|| {
            let seed = bytes::random32()?;
            let inner = by_name!(name, P => Sk::from(SigningKey::<P>::from_seed(&seed)));
            Ok(JsDilithiumSigningKey { inner: Some(inner) })
        })
    }

    /// The v3.1 secret-key encoding; `check` also recomputes tr and t0 (as ML-DSA's strict
    /// import does).
    #[wasm_bindgen(js_name = fromBytes)]
    pub fn from_bytes(
        name: &str,
        sk: &Uint8Array,
        check: bool,
    ) -> Result<JsDilithiumSigningKey, JsValue> {
        wiped(|| {
            let sk = bytes::secret(sk);
            let inner = by_name!(name, P => Sk::from(if check {
                SigningKey::<P>::from_bytes(&sk)
            } else {
                SigningKey::<P>::from_bytes_unverified(&sk)
            }.js()?));
            Ok(JsDilithiumSigningKey { inner: Some(inner) })
        })
    }

    /// Drops the key (zeroised by the core) and wipes the stack the drop used (see the
    /// ML-DSA handle's `destroy`).
    pub fn destroy(&mut self) -> Result<(), JsValue> {
        wiped(|| {
            self.inner = None;
            Ok(())
        })
    }

    #[wasm_bindgen(getter)]
    pub fn algorithm(&self) -> Result<String, JsValue> {
        Ok(sk_name(self.sk()?).into())
    }

    pub fn seed(&self) -> Result<Option<Uint8Array>, JsValue> {
        Ok(each_sk!(self.sk()?, k => k.seed().map(|s| out(s))))
    }

    #[wasm_bindgen(js_name = toBytes)]
    pub fn to_bytes(&self) -> Result<Uint8Array, JsValue> {
        wiped(|| {
            each_sk!(self.sk()?, k => {
                let mut buf = Zeroizing::new(vec![0u8; k.to_bytes().as_ref().len()]);
                k.write_bytes(&mut buf).js()?;
                Ok(out(&buf))
            })
        })
    }

    #[wasm_bindgen(js_name = publicKey)]
    pub fn public_key(&self) -> Result<JsDilithiumVerifyingKey, JsValue> {
        Ok(JsDilithiumVerifyingKey {
            inner: each_sk!(self.sk()?, k => Vk::from(*k.verifying_key())),
        })
    }

    pub fn prepare(&mut self) -> Result<(), JsValue> {
        wiped(|| {
            each_sk!(self.sk_mut()?, k => k.prepare());
            Ok(())
        })
    }

    /// Deterministic signing (v3.1's default), or randomized (`DILITHIUM_RANDOMIZED_SIGNING`)
    /// with rho'' from crypto.getRandomValues.
    pub fn sign(&self, msg: &[u8], randomized: bool) -> Result<Uint8Array, JsValue> {
        wiped(|| {
            each_sk!(self.sk()?, k => {
                let sig = if randomized {
                    k.sign_randomized_with_rng(&mut getrandom::SysRng, msg)
                } else {
                    k.sign_deterministic(msg)
                };
                Ok(out(sig.js()?.as_bytes()))
            })
        })
    }
}

/// A round-3 Dilithium verifying key.
#[wasm_bindgen(js_name = DilithiumVerifyingKeyHandle)]
pub struct JsDilithiumVerifyingKey {
    inner: Vk,
}

#[wasm_bindgen(js_class = DilithiumVerifyingKeyHandle)]
impl JsDilithiumVerifyingKey {
    #[wasm_bindgen(js_name = fromBytes)]
    pub fn from_bytes(name: &str, pk: &[u8]) -> Result<JsDilithiumVerifyingKey, JsValue> {
        let inner = by_name!(name, P => Vk::from(VerifyingKey::<P>::from_bytes(pk).js()?));
        Ok(JsDilithiumVerifyingKey { inner })
    }

    #[wasm_bindgen(getter)]
    pub fn algorithm(&self) -> String {
        vk_name(&self.inner).into()
    }

    #[wasm_bindgen(js_name = toBytes)]
    pub fn to_bytes(&self) -> Uint8Array {
        each_vk!(&self.inner, k, _P => out(k.as_bytes()))
    }

    /// A signature of the wrong length or encoding is simply invalid.
    pub fn verify(&self, msg: &[u8], sig: &[u8]) -> bool {
        each_vk!(&self.inner, k, P => Signature::<P>::from_bytes(sig).is_ok_and(|s| k.verify(msg, &s).is_ok()))
    }
}
