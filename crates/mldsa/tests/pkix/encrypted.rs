//! Encrypted PKCS#8 (the `pkcs8-encryption` feature): PBES2 with scrypt or PBKDF2, as OpenSSL
//! and Bouncy Castle write it.

use mldsa::pkix::{Algorithm, AnySigningKey, Field, KeyForm, PemLabel, PkixError, der_kind};
use mldsa::{MlDsa44, MlDsa65, MlDsa87, SigningKey, VerifyingKey};

use crate::helpers::*;

const PASSWORD: &[u8] = b"correct horse battery staple";

/// PBKDF2 with the HMAC-SHA1 PRF (Bouncy Castle's and OpenSSL 1.x's default) is read.
#[test]
fn reads_pbkdf2_hmac_sha1_from_openssl() {
    let pem = String::from_utf8(data("mldsa44-openssl-pbkdf2-sha1.priv.enc.pem")).unwrap();
    let public = String::from_utf8(data("mldsa44-openssl-pbkdf2-sha1.pub.pem")).unwrap();
    let sk = SigningKey::<MlDsa44>::from_pkcs8_encrypted_pem(&pem, b"pw").unwrap();
    let vk = VerifyingKey::<MlDsa44>::from_public_key_pem(&public).unwrap();
    assert_eq!(sk.verifying_key().as_bytes(), vk.as_bytes());
    assert!(SigningKey::<MlDsa44>::from_pkcs8_encrypted_pem(&pem, b"wrong").is_err());
}

/// A counter "RNG", for reproducible salts and IVs.
struct Counter(u8);

impl mldsa::rand_core::TryRng for Counter {
    type Error = core::convert::Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        Ok(u32::from(self.next()))
    }
    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        Ok(u64::from(self.next()))
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        dst.iter_mut().for_each(|b| *b = self.next());
        Ok(())
    }
}

impl mldsa::rand_core::TryCryptoRng for Counter {}

impl Counter {
    fn next(&mut self) -> u8 {
        self.0 = self.0.wrapping_add(1);
        self.0
    }
}

#[test]
fn reads_the_peers_pbkdf2_aes256cbc_keys() {
    let sk = SigningKey::<MlDsa65>::from_seed(&seed_rfc());
    let k = SigningKey::<MlDsa65>::from_pkcs8_encrypted_pem(
        &text("mldsa65-rfc.priv.enc.pem"),
        PASSWORD,
    )
    .unwrap();
    assert_eq!(k.seed(), Some(&seed_rfc()));
    let k = SigningKey::<MlDsa65>::from_pkcs8_encrypted_der(
        &data("mldsa65-rfc.priv.enc.der"),
        PASSWORD,
    )
    .unwrap();
    assert_eq!(k.verifying_key(), sk.verifying_key());
    let (any, form) =
        AnySigningKey::from_pkcs8_encrypted_pem(&text("mldsa65-rfc.priv.enc.pem"), PASSWORD)
            .unwrap();
    assert_eq!((any.algorithm(), form), ("ML-DSA-65", KeyForm::Seed));

    // Wrong password, wrong set, unencrypted reader.
    let e = SigningKey::<MlDsa65>::from_pkcs8_encrypted_der(
        &data("mldsa65-rfc.priv.enc.der"),
        b"wrong",
    )
    .unwrap_err();
    assert_eq!(pkix(e), PkixError::Decryption);
    let e = SigningKey::<MlDsa44>::from_pkcs8_encrypted_der(
        &data("mldsa65-rfc.priv.enc.der"),
        PASSWORD,
    )
    .unwrap_err();
    assert_eq!(
        pkix(e),
        PkixError::WrongAlgorithm {
            expected: Algorithm::MlDsa44,
            found: Algorithm::MlDsa65
        }
    );
    let e = SigningKey::<MlDsa65>::from_pkcs8_pem(&text("mldsa65-rfc.priv.enc.pem")).unwrap_err();
    assert_eq!(pkix(e), PkixError::Encrypted);
    // An unencrypted document given to the encrypted reader.
    let e =
        SigningKey::<MlDsa65>::from_pkcs8_encrypted_pem(&text("mldsa65-rfc.priv.pem"), PASSWORD)
            .unwrap_err();
    assert_eq!(
        pkix(e),
        PkixError::PemLabel {
            expected: PemLabel::EncryptedPrivateKey,
            found: PemLabel::PrivateKey
        }
    );
    let e =
        SigningKey::<MlDsa65>::from_pkcs8_encrypted_der(&data("mldsa65-rfc.priv.der"), PASSWORD)
            .unwrap_err();
    assert!(matches!(
        pkix(e),
        PkixError::Der {
            at: Field::EncryptedPrivateKeyInfo,
            ..
        }
    ));
}

#[test]
fn round_trips_with_scrypt() {
    let sk = SigningKey::<MlDsa87>::from_seed(&seed_ff());
    for form in [KeyForm::Seed, KeyForm::Both] {
        let pem = sk
            .to_pkcs8_encrypted_pem_with_rng(form, PASSWORD, &mut Counter(0))
            .unwrap();
        assert!(pem.starts_with("-----BEGIN ENCRYPTED PRIVATE KEY-----\n"));
        let (k, got) = AnySigningKey::from_pkcs8_encrypted_pem(&pem, PASSWORD).unwrap();
        assert_eq!(
            (k.verifying_key().as_bytes(), got),
            (sk.verifying_key().as_bytes(), form)
        );
        assert_eq!(
            pkix(SigningKey::<MlDsa87>::from_pkcs8_encrypted_pem(&pem, b"").unwrap_err()),
            PkixError::Decryption
        );
        // The same salt and IV give the same document.
        assert_eq!(
            sk.to_pkcs8_encrypted_pem_with_rng(form, PASSWORD, &mut Counter(0))
                .unwrap(),
            pem
        );
    }
    let der = sk
        .to_pkcs8_encrypted_der(KeyForm::Expanded, "pässword")
        .unwrap();
    assert_eq!(der_kind(&der), Some(PemLabel::EncryptedPrivateKey));
    let k = SigningKey::<MlDsa87>::from_pkcs8_encrypted_der(&der, "pässword").unwrap();
    assert_eq!(k.seed(), None);
    assert_eq!(k.verifying_key(), sk.verifying_key());
}

#[test]
fn refuses_unaffordable_key_derivation() {
    use mldsa::pkix::pkcs8::EncryptedPrivateKeyInfoRef;
    use mldsa::pkix::pkcs8::der::Encode;
    use mldsa::pkix::pkcs8::der::asn1::OctetStringRef;
    use mldsa::pkix::pkcs8::pkcs5::{pbes2, scrypt};

    let wrap = |params: pbes2::Parameters| {
        EncryptedPrivateKeyInfoRef {
            encryption_algorithm: params.into(),
            encrypted_data: OctetStringRef::new(&[0u8; 64]).unwrap(),
        }
        .to_der()
        .unwrap()
    };
    let salt = [1u8; 16];
    let iv = [2u8; 16];
    let pbkdf2 = |iterations: u32| {
        let mut params =
            pbes2::Parameters::generate_pbkdf2_sha256_aes256cbc(1000, &salt, iv).unwrap();
        let pbes2::Kdf::Pbkdf2(kdf) = &mut params.kdf else {
            unreachable!()
        };
        kdf.iteration_count = iterations;
        wrap(params)
    };
    let expensive = [
        pbkdf2(u32::MAX),
        pbkdf2(10_000_001),
        wrap(
            pbes2::Parameters::generate_scrypt_aes256cbc(
                scrypt::Params::new(30, 8, 1).unwrap(),
                &salt,
                iv,
            )
            .unwrap(),
        ),
        wrap(
            pbes2::Parameters::generate_scrypt_aes256cbc(
                scrypt::Params::new(17, 8, 1).unwrap(),
                &salt,
                iv,
            )
            .unwrap(),
        ),
        wrap(
            pbes2::Parameters::generate_scrypt_aes256cbc(
                scrypt::Params::new(10, 8, 64).unwrap(),
                &salt,
                iv,
            )
            .unwrap(),
        ),
    ];
    for der in expensive {
        let e = AnySigningKey::from_pkcs8_encrypted_der(&der, PASSWORD).unwrap_err();
        assert_eq!(pkix(e), PkixError::EncryptionTooExpensive);
    }
    // Within the limits, the work is done (and the garbage ciphertext refused).
    let cheap = wrap(
        pbes2::Parameters::generate_scrypt_aes256cbc(
            scrypt::Params::new(16, 8, 1).unwrap(),
            &salt,
            iv,
        )
        .unwrap(),
    );
    assert_eq!(
        pkix(AnySigningKey::from_pkcs8_encrypted_der(&cheap, PASSWORD).unwrap_err()),
        PkixError::Decryption
    );
}

#[test]
fn no_panics_on_mutated_encrypted_documents() {
    let base = data("mldsa65-rfc.priv.enc.der");
    let mut rng = XorShift(42);
    for _ in 0..300 {
        let mut doc = base.clone();
        let k = rng.below(doc.len());
        doc[k] ^= 1 << rng.below(8);
        if rng.below(3) == 0 {
            doc.truncate(rng.below(doc.len()));
        }
        let _ = AnySigningKey::from_pkcs8_encrypted_der(&doc, PASSWORD);
    }
}
