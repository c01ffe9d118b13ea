//! Error messages are informative, and Debug output shows no secrets.

use mldsa::{
    Error, Malformed, MlDsa44, MlDsa65, MlDsa87, ParameterSet, PreHash, PreHashed, SEED_LEN,
    Signature, SigningKey, VerifyingKey,
};

use crate::helpers::*;

#[test]
fn error_messages_are_informative() {
    let e = VerifyingKey::<MlDsa44>::from_bytes(&[0; 100]).unwrap_err();
    let text = e.to_string();
    assert!(text.contains("verifying key"), "{text}");
    assert!(text.contains("1312"), "{text}");
    assert!(text.contains("100"), "{text}");

    let e = Signature::<MlDsa65>::from_bytes(&[0; 3310]).unwrap_err();
    let text = e.to_string();
    assert!(
        text.contains("signature") && text.contains("3309") && text.contains("3310"),
        "{text}"
    );

    let e = SigningKey::<MlDsa87>::from_expanded(&[]).unwrap_err();
    let text = e.to_string();
    assert!(
        text.contains("signing key") && text.contains("4896") && text.contains(" 0"),
        "{text}"
    );

    let e = SigningKey::<MlDsa44>::from_seed_slice(&[1; 31]).unwrap_err();
    let text = e.to_string();
    assert!(
        text.contains("seed") && text.contains("32") && text.contains("31"),
        "{text}"
    );

    let e = PreHashed::from_digest(PreHash::Sha2_384, &[0; 47]).unwrap_err();
    let text = e.to_string();
    assert!(
        text.contains("digest") && text.contains("48") && text.contains("47"),
        "{text}"
    );

    let sk = SigningKey::<MlDsa44>::from_seed(&[0; 32]);
    let e = sk.sign_deterministic(b"", &[0; 300]).unwrap_err();
    assert_eq!(e, Error::ContextTooLong { len: 300 });
    let text = e.to_string();
    assert!(text.contains("255") && text.contains("300"), "{text}");

    let e = malformed_sig(Malformed::ZOutOfRange);
    let text = e.to_string();
    assert!(
        text.contains("signature") && text.contains("z") && text.contains("gamma1"),
        "{text}"
    );
    let e = malformed_sk(Malformed::TrMismatch);
    assert!(e.to_string().contains("signing key") && e.to_string().contains("tr"));

    let all = [
        Malformed::S1OutOfRange,
        Malformed::S2OutOfRange,
        Malformed::TrMismatch,
        Malformed::T0Mismatch,
        Malformed::HintCountDecreasing,
        Malformed::HintCountAboveOmega,
        Malformed::HintIndicesNotIncreasing,
        Malformed::HintPaddingNonZero,
        Malformed::ZOutOfRange,
    ];
    let texts: std::collections::HashSet<String> = all.iter().map(|m| m.to_string()).collect();
    assert_eq!(
        texts.len(),
        all.len(),
        "every Malformed kind has its own message"
    );

    for e in [
        Error::InvalidSignature,
        Error::Rng,
        Error::SigningAttemptsExhausted { attempts: 814 },
    ] {
        assert!(!e.to_string().is_empty());
    }
    assert!(
        Error::SigningAttemptsExhausted { attempts: 814 }
            .to_string()
            .contains("814")
    );

    // Usable as a std error, and through signature::Error.
    let boxed: Box<dyn std::error::Error> = Box::new(Error::InvalidSignature);
    assert_eq!(boxed.to_string(), Error::InvalidSignature.to_string());
    let se: mldsa::signature::Error = Error::InvalidSignature.into();
    let source = std::error::Error::source(&se).expect("source kept (alloc feature)");
    assert_eq!(
        source.downcast_ref::<Error>(),
        Some(&Error::InvalidSignature)
    );
}

pub(crate) fn debug_output_has_no_secrets<P: ParameterSet>() {
    for seed_byte in [0x11u8, 0xA7, 0xFE] {
        let mut seed = [0u8; SEED_LEN];
        XorShift::new(u64::from(seed_byte)).fill(&mut seed);
        let sk = SigningKey::<P>::from_seed(&seed);
        let expanded = sk.to_expanded_bytes().as_ref().to_vec();
        let secrets = [
            hex(&seed),
            hex(&seed[..8]),
            hex(&expanded[32..64]), // K
            hex(&expanded[32..40]),
            hex(&expanded[128..144]), // start of s1
            hex(&expanded[t0_offset::<P>()..t0_offset::<P>() + 16]),
        ];
        let imported = SigningKey::<P>::from_expanded(&expanded).unwrap();
        let signer = sk.message_signer(b"ctx").unwrap();
        let outputs = [
            format!("{sk:?}"),
            format!("{sk:#?}"),
            format!("{imported:?}"),
            format!("{signer:?}"),
            format!("{:?}", sk.clone()),
        ];
        for out in &outputs {
            assert!(out.contains(P::NAME), "{out}");
            let lower = out.to_lowercase();
            for s in &secrets {
                assert!(
                    !lower.contains(s.as_str()),
                    "{}: Debug leaks {s}: {out}",
                    P::NAME
                );
            }
            // No long runs of hex beyond the 16 digits of the verifying key's tr prefix.
            let longest_hex_run = out
                .split(|c: char| !c.is_ascii_hexdigit())
                .map(str::len)
                .max()
                .unwrap_or(0);
            assert!(longest_hex_run <= 16, "{out}");
        }
        // The error for a malformed key names the problem, not the bytes.
        let mut bad = expanded.clone();
        bad[64] ^= 1;
        let e = SigningKey::<P>::from_expanded(&bad).unwrap_err();
        let text = format!("{e} {e:?}").to_lowercase();
        for s in &secrets {
            assert!(!text.contains(s.as_str()));
        }
    }
}
