//! PEM: lax reading where RFC 7468 allows it, rejections, and document kinds.

use mldsa::pkix::{
    Algorithm, AnySigningKey, AnyVerifyingKey, DerProblem, Field, KeyForm, PemLabel, PemProblem,
    PkixError, der_algorithm, der_kind, pem_label,
};
use mldsa::{MlDsa44, MlDsa65, MlDsa87, SigningKey, VerifyingKey};

use crate::helpers::*;

#[test]
fn pem_reading_is_lax_where_rfc7468_allows() {
    let sk = SigningKey::<MlDsa65>::from_seed(&seed_ff());
    let vk = *sk.verifying_key();
    let spki_der = vk.to_public_key_der();
    let both_der = sk.to_pkcs8_der(KeyForm::Both).unwrap();
    for width in [64, 76, 4, 48, 100, 10_000] {
        for eol in ["\n", "\r\n"] {
            let pem = pem_wrap("PUBLIC KEY", &spki_der, width, eol);
            assert_eq!(
                VerifyingKey::<MlDsa65>::from_public_key_pem(&pem).unwrap(),
                vk,
                "width {width}"
            );
            assert_eq!(pem_label(&pem), Some("PUBLIC KEY"));
            let pem = pem_wrap("PRIVATE KEY", &both_der, width, eol);
            let (k, form) = AnySigningKey::from_pkcs8_pem(&pem).unwrap();
            assert_eq!(
                (k.verifying_key().as_bytes(), form),
                (vk.as_bytes(), KeyForm::Both)
            );
        }
    }
    // Explanatory text before, whitespace around, no final newline.
    let pem = vk.to_public_key_pem();
    let decorated = format!("Subject: test key\nIssuer: nobody\n{pem}\n\n  ");
    assert_eq!(
        VerifyingKey::<MlDsa65>::from_public_key_pem(&decorated).unwrap(),
        vk
    );
    assert_eq!(
        VerifyingKey::<MlDsa65>::from_public_key_pem(pem.trim_end()).unwrap(),
        vk
    );
    assert_eq!(
        VerifyingKey::<MlDsa65>::from_public_key_pem(&format!("\r\n  {pem}")).unwrap(),
        vk
    );
}

#[test]
fn pem_rejections() {
    let sk = SigningKey::<MlDsa44>::from_seed(&seed_rfc());
    let sk_pem: String = sk.to_pkcs8_pem(KeyForm::Seed).unwrap().to_string();
    let vk_pem = sk.verifying_key().to_public_key_pem();

    // Wrong labels.
    assert_eq!(
        pkix(SigningKey::<MlDsa44>::from_pkcs8_pem(&vk_pem).unwrap_err()),
        PkixError::PemLabel {
            expected: PemLabel::PrivateKey,
            found: PemLabel::PublicKey
        }
    );
    assert_eq!(
        pkix(AnyVerifyingKey::from_public_key_pem(&sk_pem).unwrap_err()),
        PkixError::PemLabel {
            expected: PemLabel::PublicKey,
            found: PemLabel::PrivateKey
        }
    );
    let der = sk.to_pkcs8_der(KeyForm::Seed).unwrap();
    for label in [
        "RSA PRIVATE KEY",
        "ML-DSA-44 PRIVATE KEY",
        "CERTIFICATE",
        "private key",
    ] {
        let pem = pem_wrap(label, &der, 64, "\n");
        let e = pkix(SigningKey::<MlDsa44>::from_pkcs8_pem(&pem).unwrap_err());
        assert_eq!(
            e,
            PkixError::PemLabel {
                expected: PemLabel::PrivateKey,
                found: PemLabel::Other
            },
            "{label}"
        );
        assert_eq!(pem_label(&pem), Some(label));
    }
    let enc = pem_wrap("ENCRYPTED PRIVATE KEY", &der, 64, "\n");
    assert_eq!(
        pkix(SigningKey::<MlDsa44>::from_pkcs8_pem(&enc).unwrap_err()),
        PkixError::Encrypted
    );
    assert_eq!(
        pkix(AnySigningKey::from_pkcs8_pem(&enc).unwrap_err()),
        PkixError::Encrypted
    );

    // Malformed PEM.
    let body_start = sk_pem.find('\n').unwrap() + 1;
    let cases: Vec<(String, PemProblem)> = vec![
        (String::new(), PemProblem::BeginLine),
        ("not pem at all".into(), PemProblem::BeginLine),
        (
            sk_pem.replace("-----END PRIVATE KEY-----\n", ""),
            PemProblem::EndLine,
        ),
        (
            sk_pem.replace("-----END PRIVATE KEY-----", "-----END PUBLIC KEY-----"),
            PemProblem::EndLine,
        ),
        (
            format!(
                "{}Proc-Type: 4,ENCRYPTED\n\n{}",
                &sk_pem[..body_start],
                &sk_pem[body_start..]
            ),
            PemProblem::Headers,
        ),
        (sk_pem.replacen("MDQC", "MD*C", 1), PemProblem::Base64),
        (sk_pem.replacen("MDQC", "MDQ", 1), PemProblem::Base64),
    ];
    for (pem, want) in cases {
        let e = pkix(SigningKey::<MlDsa44>::from_pkcs8_pem(&pem).unwrap_err());
        assert_eq!(e, PkixError::Pem(want), "{pem:?}");
    }
    // Text after the END line (`openssl pkey -text` output) or before BEGIN is not part of the
    // document (RFC 7468 section 2): the key inside is read.
    let expected = SigningKey::<MlDsa44>::from_pkcs8_pem(&sk_pem)
        .unwrap()
        .to_expanded_bytes();
    for wrapped in [
        format!("{sk_pem}ML-DSA-44 Private-Key:\nseed:\n    00:01:02\n"),
        format!("subject=CN=test\n{sk_pem}trailing text\n"),
    ] {
        let k = SigningKey::<MlDsa44>::from_pkcs8_pem(&wrapped).unwrap();
        assert_eq!(k.to_expanded_bytes().as_ref(), expected.as_ref());
    }
    // Lines of different widths: 64 then 128, or 128 then 64.
    let lines: Vec<&str> = vk_pem.lines().collect();
    let joined_second = [
        &lines[..2],
        &[&format!("{}{}", lines[2], lines[3])],
        &lines[4..],
    ]
    .concat()
    .join("\n");
    let joined_first = [
        &lines[..1],
        &[&format!("{}{}", lines[1], lines[2])],
        &lines[3..],
    ]
    .concat()
    .join("\n");
    for pem in [joined_second, joined_first] {
        assert_eq!(
            pkix(AnyVerifyingKey::from_public_key_pem(&pem).unwrap_err()),
            PkixError::Pem(PemProblem::Base64)
        );
    }
    assert_eq!(pem_label("-----BEGIN PUBLIC KEY-----\n"), None);
    assert_eq!(
        pem_label(&vk_pem.replace("END PUBLIC", "END PRIVATE")),
        None
    );
    // Valid PEM, valid label, but the DER inside is not a key.
    let pem = pem_wrap("PRIVATE KEY", b"\x30\x00", 64, "\n");
    assert_eq!(
        pkix(SigningKey::<MlDsa44>::from_pkcs8_pem(&pem).unwrap_err()),
        PkixError::Der {
            at: Field::Version,
            problem: DerProblem::Truncated
        }
    );
}

#[test]
fn document_kinds() {
    let sk = SigningKey::<MlDsa87>::from_seed(&seed_rfc());
    assert_eq!(
        der_kind(&sk.to_pkcs8_der(KeyForm::Expanded).unwrap()),
        Some(PemLabel::PrivateKey)
    );
    // The test's Base64 agrees with the library's PEM.
    let vk_pem = sk.verifying_key().to_public_key_pem();
    assert_eq!(
        pem_wrap(
            "PUBLIC KEY",
            &sk.verifying_key().to_public_key_der(),
            64,
            "\n"
        ),
        vk_pem
    );
    assert_eq!(pem_der(&vk_pem), sk.verifying_key().to_public_key_der());
    assert_eq!(
        der_kind(&sk.verifying_key().to_public_key_der()),
        Some(PemLabel::PublicKey)
    );
    assert_eq!(
        der_algorithm(&sk.to_pkcs8_der(KeyForm::Both).unwrap()),
        Ok(Algorithm::MlDsa87)
    );
    assert_eq!(der_kind(b""), None);
    assert_eq!(der_kind(b"\x30\x00"), None);
    assert_eq!(
        der_kind(&data("mldsa65-rfc.priv.enc.der")),
        Some(PemLabel::EncryptedPrivateKey)
    );
    assert_eq!(
        pem_label(&text("mldsa65-rfc.priv.enc.pem")),
        Some("ENCRYPTED PRIVATE KEY")
    );
    assert_eq!(
        pkix(der_algorithm(&data("mldsa65-rfc.priv.enc.der")).unwrap_err()),
        PkixError::Encrypted
    );
}
