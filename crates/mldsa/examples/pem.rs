//! Keys as PEM files (RFC 9881 PKCS#8 and SubjectPublicKeyInfo), as OpenSSL writes them: the
//! README's PEM example (needs the `pkcs8` feature).

use mldsa::pkix::KeyForm;
use mldsa::{MlDsa65, SigningKey, VerifyingKey};

fn main() -> Result<(), mldsa::Error> {
    let sk = SigningKey::<MlDsa65>::generate()?;
    let private_pem = sk.to_pkcs8_pem(KeyForm::Seed)?; // "-----BEGIN PRIVATE KEY-----", wiped on drop
    let public_pem = sk.verifying_key().to_public_key_pem(); // "-----BEGIN PUBLIC KEY-----"

    let sk = SigningKey::<MlDsa65>::from_pkcs8_pem(&private_pem)?;
    let vk = VerifyingKey::<MlDsa65>::from_public_key_pem(&public_pem)?;
    let sig = sk.sign(b"message", b"")?;
    vk.verify(b"message", b"", &sig)?;
    println!("{public_pem}");
    Ok(())
}
