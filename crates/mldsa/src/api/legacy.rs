//! Legacy CRYSTALS-Dilithium, round 3 (specification v3.1, February 2021).
//!
//! **For existing deployments only.** New systems should use ML-DSA ([`crate::SigningKey`] with
//! [`crate::MlDsa44`], [`crate::MlDsa65`] or [`crate::MlDsa87`]): FIPS 204 is the standard, and
//! Dilithium v3.1 keys and signatures are not interchangeable with ML-DSA ones.
//!
//! Before FIPS 204, PQClean, liboqs (up to 0.13), firmware signers and blockchains shipped
//! Dilithium v3.1. This module verifies and, during a migration, produces its keys and signatures
//! byte for byte as the round-3 reference implementation does (its NIST KATs pass). It is the
//! same code as ML-DSA; the differences are constants and branches on
//! [`Variant::DilithiumRound3`](crate::Variant), each citing the v3.1 section:
//!
//! | | ML-DSA (FIPS 204) | Dilithium v3.1 |
//! | --- | --- | --- |
//! | key expansion | H(xi \|\| k \|\| l, 128) | H(zeta, 128) (section 5.1) |
//! | tr | H(pk, 64) | H(pk, 32) (CRH, section 5.2) |
//! | mu | H(tr \|\| M', 64), M' with context | H(tr \|\| M, 64), no context (section 5.2) |
//! | rho'' | H(K \|\| rnd \|\| mu, 64) | H(K \|\| mu, 64), or 64 random bytes when randomized (section 5.2) |
//! | c-tilde | lambda/4 bytes (32/48/64) | 32 bytes for every level |
//!
//! Sizes (bytes): Dilithium2 pk 1312, sk 2528, sig 2420; Dilithium3 1952, 4000, 3293;
//! Dilithium5 2592, 4864, 4595.
//!
//! ## The AES variant
//!
//! v3.1 section 5.3 defines a second family, [`Dilithium2Aes`], [`Dilithium3Aes`] and
//! [`Dilithium5Aes`] ("Dilithium2-AES" and so on): the sets above with AES-256 in counter mode
//! instead of SHAKE behind the three samplers, and nothing else changed (same sizes, same
//! hashing of keys, messages and challenges). The parameter set's
//! [`XOF`](crate::Parameters::XOF) chooses the stream; the sampling, signing and verifying code
//! is the same. Each sampler reads the AES-256-CTR keystream under a 32-byte key with a 12-byte
//! nonce holding a 16-bit index in little-endian order (then zeros) and a 32-bit big-endian block
//! counter from 0:
//!
//! | sampler | SHAKE sets | AES sets (v3.1 section 5.3) |
//! | --- | --- | --- |
//! | ExpandA, entry (r, s) | SHAKE128(rho \|\| s \|\| r) | AES-256-CTR, key rho, nonce 256 r + s |
//! | ExpandS, polynomial i | SHAKE256(rho' \|\| i) | key rho'\[0..32\], nonce i |
//! | ExpandMask, polynomial i | SHAKE256(rho'' \|\| kappa + i) | key rho''\[0..32\], nonce kappa + i |
//!
//! The AES sets are a different scheme: their keys and signatures never verify under the SHAKE
//! sets (or ML-DSA), and they have no standard OIDs or key containers.
//!
//! ```
//! use mldsa::legacy::{Dilithium3, SigningKey};
//!
//! # fn main() -> Result<(), mldsa::Error> {
//! let sk = SigningKey::<Dilithium3>::from_seed(&[42; 32]);
//! let sig = sk.sign_deterministic(b"firmware image")?;  // the v3.1 default mode
//! sk.verifying_key().verify(b"firmware image", &sig)?;
//! # Ok(())
//! # }
//! ```

use crate::algorithm::expanded::{ExpandedSecret, OneShotSecret, SecretBox};
use crate::algorithm::keygen::keygen_internal;
use crate::algorithm::mu::MuBuilder;
use crate::algorithm::sign::sign_with_rho_pp;
use crate::algorithm::verify::verify_internal;
use crate::error::{Error, Input, check_len, to_array};
use crate::hash::keccak::shake256_with;
use crate::keys::matrix::expand_a;
use crate::keys::rng;
use crate::params::{ByteArray, MU_LEN, SEED_LEN};
use core::fmt;
use core::marker::PhantomData;
use rand_core::TryCryptoRng;
use zeroize::{ZeroizeOnDrop, Zeroizing};

pub use crate::keys::sig::Signature;
pub use crate::params::{
    Dilithium2, Dilithium2Aes, Dilithium3, Dilithium3Aes, Dilithium5, Dilithium5Aes,
    DilithiumParameterSet,
};

/// Length of tr in Dilithium v3.1: CRH(pk) with 256-bit output (v3.1 section 5.2).
const TR_BYTES: usize = 32;

/// mu = CRH(tr || M), 64 bytes (v3.1 section 5.2, Fig. 4 line 10: no context, no M' prefix).
fn message_representative(tr: &[u8; TR_BYTES], msg: &[u8]) -> [u8; MU_LEN] {
    let mut b = MuBuilder::with_prefix(tr);
    b.update(msg);
    b.finalize()
}

/// A Dilithium v3.1 signing key. Legacy: see the [module docs](self).
pub struct SigningKey<P: DilithiumParameterSet> {
    /// The seed (if any) and the expanded secret, on the heap under `alloc`, so that moving the
    /// key never copies them (see `crate::algorithm::expanded::SecretBox`).
    secret: SecretBox<P>,
    vk: VerifyingKey<P>,
}

// The secret (seed included) is wiped by `ExpandedSecret`'s own `Drop`.
impl<P: DilithiumParameterSet> ZeroizeOnDrop for SigningKey<P> {}

impl<P: DilithiumParameterSet> Clone for SigningKey<P> {
    fn clone(&self) -> Self {
        SigningKey {
            secret: self.secret.clone_boxed(),
            vk: self.vk,
        }
    }
}

impl<P: DilithiumParameterSet> fmt::Debug for SigningKey<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("legacy::SigningKey")
            .field("parameter_set", &P::NAME)
            .field("has_seed", &self.secret.seed.is_some())
            .field("verifying_key", &self.vk)
            .finish_non_exhaustive()
    }
}

impl<P: DilithiumParameterSet> SigningKey<P> {
    /// Length of the encoded secret key in bytes.
    pub const LEN: usize = P::SK_LEN;

    /// Key generation (v3.1 Fig. 4, `Gen`) from the 32-byte seed zeta, as `crypto_sign_keypair`
    /// draws it from `randombytes`.
    pub fn from_seed(zeta: &[u8; SEED_LEN]) -> Self {
        let mut pk = P::PkBytes::zeroed();
        // Built in place in its heap block: returning the key moves only the pointer.
        let mut secret = ExpandedSecret::<P>::boxed();
        secret.seed = Some(*zeta);
        keygen_internal::<P>(zeta, &mut pk, &mut secret);
        SigningKey {
            secret,
            vk: VerifyingKey::from_trusted(pk),
        }
    }

    /// A new key with a seed from `rng`.
    pub fn generate_with_rng<R: TryCryptoRng + ?Sized>(rng: &mut R) -> Result<Self, Error> {
        let mut zeta = Zeroizing::new([0u8; SEED_LEN]);
        rng::fill(rng, zeta.as_mut())?;
        Ok(Self::from_seed(&zeta))
    }

    /// A new key with a seed from the operating system.
    #[cfg(feature = "getrandom")]
    pub fn generate() -> Result<Self, Error> {
        Self::generate_with_rng(&mut rng::OsRng)
    }

    /// The seed zeta, if the key was made from one.
    pub fn seed(&self) -> Option<&[u8; SEED_LEN]> {
        self.secret.seed.as_ref()
    }

    /// Deterministic signing (v3.1 `crypto_sign_signature`) straight from an encoded secret
    /// key, without making a key object: the key is decoded for signing only (length, s1 and
    /// s2 in [-eta, eta]; tr and t0 used as given, as the reference implementation does), so no
    /// public key is derived, which saves about one key generation over
    /// [`SigningKey::from_bytes_unverified`] followed by [`SigningKey::sign_deterministic`].
    /// For bindings whose API passes key bytes on every call (dilithium-py's).
    pub fn sign_deterministic_with_bytes(sk: &[u8], msg: &[u8]) -> Result<Signature<P>, Error> {
        let secret = OneShotSecret::<P>::decode(sk)?;
        let mut tr = [0u8; TR_BYTES];
        tr.copy_from_slice(&secret.tr[..TR_BYTES]);
        let mu = message_representative(&tr, msg);
        let mut rho_pp = Zeroizing::new([0u8; 64]);
        shake256_with(crate::backend::keccak(), &[&secret.k, &mu], rho_pp.as_mut());
        let a_hat = expand_a::<P>(&secret.rho);
        sign_with_rho_pp(&secret.signer(&a_hat), &mu, &rho_pp, &mut |_| {})
            .map(Signature::from_trusted)
    }

    /// Decodes a v3.1 secret key strictly: s1 and s2 in [-eta, eta], and tr and t0 equal to
    /// the values rho, s1 and s2 determine.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        Self::decode(bytes, true)
    }

    /// Decodes a v3.1 secret key checking only the ranges of s1 and s2 (signing then behaves as
    /// the reference implementation does on those bytes).
    pub fn from_bytes_unverified(bytes: &[u8]) -> Result<Self, Error> {
        Self::decode(bytes, false)
    }

    fn decode(bytes: &[u8], check_consistency: bool) -> Result<Self, Error> {
        check_len(Input::SigningKey, bytes, P::SK_LEN)?;
        let mut pk = P::PkBytes::zeroed();
        // Decoded in place, in the key's heap block.
        let mut secret = ExpandedSecret::<P>::boxed();
        secret
            .decode(bytes, check_consistency, &mut pk)
            .map_err(|what| Error::Malformed {
                input: Input::SigningKey,
                what,
            })?;
        Ok(SigningKey {
            secret,
            vk: VerifyingKey::from_trusted(pk),
        })
    }

    /// The v3.1 secret key encoding (rho, K, tr, s1, s2, t0); zeroised when dropped. As with
    /// [`crate::SigningKey::to_expanded_bytes`], the by-value return may leave a copy in a dead
    /// stack frame; [`SigningKey::write_bytes`] does not.
    pub fn to_bytes(&self) -> Zeroizing<P::SkBytes> {
        self.secret.encode()
    }

    /// Writes the v3.1 secret key encoding into `out`, which must be exactly `P::SK_LEN` bytes
    /// ([`Error::Length`] otherwise). Wiping `out` is the caller's.
    pub fn write_bytes(&self, out: &mut [u8]) -> Result<(), Error> {
        check_len(Input::SigningKey, out, P::SK_LEN)?;
        self.secret.encode_into(out);
        Ok(())
    }

    /// The verifying key.
    pub fn verifying_key(&self) -> &VerifyingKey<P> {
        &self.vk
    }

    fn tr(&self) -> &[u8; TR_BYTES] {
        self.secret.tr[..TR_BYTES]
            .try_into()
            .expect("tr is 32 bytes in v3.1")
    }

    /// Expands the matrix A-hat once and keeps it on the heap, so later signatures skip it (as
    /// `mldsa::SigningKey::prepare`).
    #[cfg(feature = "alloc")]
    pub fn prepare(&mut self) {
        self.secret.prepare();
    }

    /// Deterministic signing, the v3.1 default: rho'' = CRH(K || mu) (v3.1 section 5.2).
    pub fn sign_deterministic(&self, msg: &[u8]) -> Result<Signature<P>, Error> {
        self.sign_mu_deterministic(&message_representative(self.tr(), msg))
    }

    /// Starts signing a message that arrives in pieces; the result equals the one-shot methods.
    pub fn message_signer(&self) -> LegacyMessageSigner<'_, P> {
        LegacyMessageSigner {
            key: self,
            mu: MuBuilder::with_prefix(self.tr()),
        }
    }

    fn sign_mu_deterministic(&self, mu: &[u8; MU_LEN]) -> Result<Signature<P>, Error> {
        let mut rho_pp = Zeroizing::new([0u8; 64]);
        shake256_with(
            crate::backend::keccak(),
            &[&self.secret.k, mu],
            rho_pp.as_mut(),
        );
        self.sign_with(mu, &rho_pp)
    }

    /// Randomized signing, the v3.1 `DILITHIUM_RANDOMIZED_SIGNING` mode: rho'' is 64 fresh
    /// random bytes from `rng` (v3.1 section 5.2).
    pub fn sign_randomized_with_rng<R: TryCryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        msg: &[u8],
    ) -> Result<Signature<P>, Error> {
        self.sign_mu_randomized(rng, &message_representative(self.tr(), msg))
    }

    fn sign_mu_randomized<R: TryCryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        mu: &[u8; MU_LEN],
    ) -> Result<Signature<P>, Error> {
        let mut rho_pp = Zeroizing::new([0u8; 64]);
        rng::fill(rng, rho_pp.as_mut())?;
        self.sign_with(mu, &rho_pp)
    }

    /// Randomized signing with randomness from the operating system.
    #[cfg(feature = "getrandom")]
    pub fn sign_randomized(&self, msg: &[u8]) -> Result<Signature<P>, Error> {
        self.sign_randomized_with_rng(&mut rng::OsRng, msg)
    }

    /// `crypto_sign` of the NIST API: the signed message sig || msg (deterministic mode).
    #[cfg(feature = "alloc")]
    pub fn sign_attached(&self, msg: &[u8]) -> Result<alloc::vec::Vec<u8>, Error> {
        let mut sm = alloc::vec::Vec::with_capacity(P::SIG_LEN + msg.len());
        sm.extend_from_slice(self.sign_deterministic(msg)?.as_bytes());
        sm.extend_from_slice(msg);
        Ok(sm)
    }

    fn sign_with(&self, mu: &[u8; MU_LEN], rho_pp: &[u8; 64]) -> Result<Signature<P>, Error> {
        // Deviation: v3.1 loops without bound; we stop after FIPS 204's 814 attempts, which a
        // key made by KeyGen exceeds with probability below 2^-256.
        sign_with_rho_pp(&*self.secret, mu, rho_pp, &mut |_| {}).map(Signature::from_trusted)
    }
}

/// A Dilithium v3.1 verifying key. Legacy: see the [module docs](self).
#[derive(Clone, Copy)]
pub struct VerifyingKey<P: DilithiumParameterSet> {
    bytes: P::PkBytes,
    tr: [u8; TR_BYTES],
    _p: PhantomData<P>,
}

impl<P: DilithiumParameterSet> PartialEq for VerifyingKey<P> {
    fn eq(&self, other: &Self) -> bool {
        self.bytes == other.bytes
    }
}

impl<P: DilithiumParameterSet> Eq for VerifyingKey<P> {}

impl<P: DilithiumParameterSet> fmt::Debug for VerifyingKey<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "legacy::VerifyingKey<{}>(tr ", P::NAME)?;
        for b in &self.tr[..8] {
            write!(f, "{b:02x}")?;
        }
        f.write_str("..)")
    }
}

impl<P: DilithiumParameterSet> VerifyingKey<P> {
    /// Length of the encoded key in bytes.
    pub const LEN: usize = P::PK_LEN;

    fn from_trusted(bytes: P::PkBytes) -> Self {
        let mut tr = [0u8; TR_BYTES];
        shake256_with(crate::backend::keccak(), &[bytes.as_ref()], &mut tr);
        VerifyingKey {
            bytes,
            tr,
            _p: PhantomData,
        }
    }

    /// Decodes a v3.1 public key (only the length can be wrong).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        Ok(Self::from_trusted(to_array(Input::VerifyingKey, bytes)?))
    }

    /// The encoded key.
    pub fn as_bytes(&self) -> &[u8] {
        self.bytes.as_ref()
    }

    /// The encoded key.
    pub fn to_bytes(&self) -> P::PkBytes {
        self.bytes
    }

    /// Verifies a v3.1 signature on `msg` (v3.1 Fig. 4, `Verify`).
    pub fn verify(&self, msg: &[u8], sig: &Signature<P>) -> Result<(), Error> {
        self.verify_mu(&message_representative(&self.tr, msg), sig)
    }

    fn verify_mu(&self, mu: &[u8; MU_LEN], sig: &Signature<P>) -> Result<(), Error> {
        verify_internal::<P>(self.bytes.as_ref(), mu, sig.as_bytes())
    }

    /// Starts verifying a message that arrives in pieces.
    pub fn message_verifier(&self) -> LegacyMessageVerifier<'_, P> {
        LegacyMessageVerifier {
            key: self,
            mu: MuBuilder::with_prefix(&self.tr),
        }
    }

    /// `crypto_sign_open` of the NIST API: checks a signed message sig || msg and returns msg.
    pub fn open<'m>(&self, signed: &'m [u8]) -> Result<&'m [u8], Error> {
        if signed.len() < P::SIG_LEN {
            return Err(Error::Length {
                input: Input::Signature,
                expected: P::SIG_LEN,
                got: signed.len(),
            });
        }
        let (sig, msg) = signed.split_at(P::SIG_LEN);
        self.verify(msg, &Signature::from_bytes(sig)?)?;
        Ok(msg)
    }
}

/// Deterministic signing (the v3.1 default).
impl<P: DilithiumParameterSet> signature::Signer<Signature<P>> for SigningKey<P> {
    fn try_sign(&self, msg: &[u8]) -> Result<Signature<P>, signature::Error> {
        self.sign_deterministic(msg).map_err(Into::into)
    }
}

/// Randomized signing (`DILITHIUM_RANDOMIZED_SIGNING`).
impl<P: DilithiumParameterSet> signature::RandomizedSigner<Signature<P>> for SigningKey<P> {
    fn try_sign_with_rng<R: TryCryptoRng + ?Sized>(
        &self,
        rng: &mut R,
        msg: &[u8],
    ) -> Result<Signature<P>, signature::Error> {
        self.sign_randomized_with_rng(rng, msg).map_err(Into::into)
    }
}

impl<P: DilithiumParameterSet> signature::Verifier<Signature<P>> for VerifyingKey<P> {
    fn verify(&self, msg: &[u8], sig: &Signature<P>) -> Result<(), signature::Error> {
        VerifyingKey::verify(self, msg, sig).map_err(Into::into)
    }
}

impl<P: DilithiumParameterSet> AsRef<VerifyingKey<P>> for SigningKey<P> {
    fn as_ref(&self) -> &VerifyingKey<P> {
        &self.vk
    }
}

impl<P: DilithiumParameterSet> signature::KeypairRef for SigningKey<P> {
    type VerifyingKey = VerifyingKey<P>;
}

/// Signs a message fed in pieces (legacy mode); made by [`SigningKey::message_signer`].
#[derive(Debug)]
pub struct LegacyMessageSigner<'k, P: DilithiumParameterSet> {
    key: &'k SigningKey<P>,
    mu: MuBuilder,
}

impl<P: DilithiumParameterSet> LegacyMessageSigner<'_, P> {
    /// Absorbs the next piece of the message.
    pub fn update(&mut self, chunk: &[u8]) -> &mut Self {
        self.mu.update(chunk);
        self
    }

    /// Deterministic signature (the v3.1 default).
    pub fn sign_deterministic(self) -> Result<Signature<P>, Error> {
        self.key.sign_mu_deterministic(&self.mu.finalize())
    }

    /// Randomized signature with rho'' from `rng`.
    pub fn sign_randomized_with_rng<R: TryCryptoRng + ?Sized>(
        self,
        rng: &mut R,
    ) -> Result<Signature<P>, Error> {
        self.key.sign_mu_randomized(rng, &self.mu.finalize())
    }
}

/// Verifies a message fed in pieces (legacy mode); made by [`VerifyingKey::message_verifier`].
#[derive(Debug)]
pub struct LegacyMessageVerifier<'k, P: DilithiumParameterSet> {
    key: &'k VerifyingKey<P>,
    mu: MuBuilder,
}

impl<P: DilithiumParameterSet> LegacyMessageVerifier<'_, P> {
    /// Absorbs the next piece of the message.
    pub fn update(&mut self, chunk: &[u8]) -> &mut Self {
        self.mu.update(chunk);
        self
    }

    /// Checks `sig` on everything absorbed.
    pub fn verify(self, sig: &Signature<P>) -> Result<(), Error> {
        self.key.verify_mu(&self.mu.finalize(), sig)
    }
}

write_via_update!([P: DilithiumParameterSet] LegacyMessageSigner<'_, P>);

write_via_update!([P: DilithiumParameterSet] LegacyMessageVerifier<'_, P>);
