//! Prepared keys (A-hat and NTT(t1 * 2^d) kept) sign and verify exactly as plain keys do.

use mldsa::{
    MlDsa44, MlDsa65, MlDsa87, ParameterSet, PreHash, PreHashed, PublicMatrix, Signature,
    SigningKey, VerifyingKey,
};

fn same_results<P: ParameterSet>() {
    for i in 0..40u8 {
        let sk = SigningKey::<P>::from_seed(&[i; 32]);
        let prepared = sk.clone().prepared();
        let msg = [i; 33];
        let ctx = &[i; 5][..(i as usize % 6)];
        // Deterministic and fixed-rnd signatures are identical with and without the matrix.
        assert_eq!(
            sk.sign_deterministic(&msg, ctx).unwrap(),
            prepared.sign_deterministic(&msg, ctx).unwrap()
        );
        let mu = sk.verifying_key().compute_mu(&msg, ctx).unwrap();
        let sig = prepared.sign_mu(&mu, &[i ^ 0x5A; 32]).unwrap();
        assert_eq!(sig, sk.sign_mu(&mu, &[i ^ 0x5A; 32]).unwrap());

        let vk = sk.verifying_key().prepare();
        assert_eq!(vk.verifying_key(), sk.verifying_key());
        vk.verify(&msg, ctx, &sig).unwrap();
        vk.verify_mu(&mu, &sig).unwrap();
        let ph = PreHashed::hash(PreHash::Sha2_256, &msg);
        let ph_sig = prepared.sign_prehashed_deterministic(&ph, ctx).unwrap();
        vk.verify_prehashed(&ph, ctx, &ph_sig).unwrap();
        // A wrong message or a flipped bit fails on both forms alike.
        assert!(vk.verify(&[i ^ 1; 33], ctx, &sig).is_err());
        let mut bad = sig.as_bytes().to_vec();
        bad[i as usize] ^= 0x10;
        if let Ok(bad) = Signature::<P>::from_bytes(&bad) {
            assert!(vk.verify(&msg, ctx, &bad).is_err());
            assert!(sk.verifying_key().verify(&msg, ctx, &bad).is_err());
        }
        // Preparing twice, and cloning, keep the same key.
        let mut twice = prepared.clone();
        twice.prepare();
        assert_eq!(
            twice.sign_deterministic(&msg, ctx).unwrap(),
            sk.sign_deterministic(&msg, ctx).unwrap()
        );
        vk.clone().verify(&msg, ctx, &sig).unwrap();
    }
}

#[test]
fn prepared_keys_44() {
    same_results::<MlDsa44>();
}

#[test]
fn prepared_keys_65() {
    same_results::<MlDsa65>();
}

#[test]
fn prepared_keys_87() {
    same_results::<MlDsa87>();
}

fn prepared_legacy_signs_the_same<P: mldsa::legacy::DilithiumParameterSet>() {
    use mldsa::legacy::SigningKey;
    let sk = SigningKey::<P>::from_seed(&[3; 32]);
    let mut prepared = sk.clone();
    prepared.prepare();
    let sig = prepared.sign_deterministic(b"firmware").unwrap();
    assert_eq!(sig, sk.sign_deterministic(b"firmware").unwrap());
    sk.verifying_key().verify(b"firmware", &sig).unwrap();
}

#[test]
fn prepared_legacy_key_signs_the_same() {
    prepared_legacy_signs_the_same::<mldsa::legacy::Dilithium3>();
    // The AES sets keep an A-hat expanded with AES-256-CTR (v3.1 section 5.3).
    prepared_legacy_signs_the_same::<mldsa::legacy::Dilithium2Aes>();
    prepared_legacy_signs_the_same::<mldsa::legacy::Dilithium3Aes>();
    prepared_legacy_signs_the_same::<mldsa::legacy::Dilithium5Aes>();
}

#[cfg(feature = "parallel")]
#[test]
fn batches_give_the_single_item_results_in_order() {
    use mldsa::batch::{VerifyItem, verify_batch};
    let sk = SigningKey::<MlDsa65>::from_seed(&[9; 32]).prepared();
    let msgs: Vec<Vec<u8>> = (0..24u8).map(|i| vec![i; i as usize]).collect();
    let refs: Vec<&[u8]> = msgs.iter().map(|m| &m[..]).collect();
    let sigs = sk.sign_batch_deterministic(&refs, b"ctx").unwrap();
    for (m, s) in refs.iter().zip(&sigs) {
        assert_eq!(*s, sk.sign_deterministic(m, b"ctx").unwrap());
    }
    let hedged = sk.sign_batch(&refs, b"ctx").unwrap();
    // Every third item gets the wrong message: exactly those fail, in place.
    let vk = sk.verifying_key();
    let items: Vec<VerifyItem<'_, MlDsa65>> = (0..24)
        .map(|i| VerifyItem {
            key: vk,
            msg: refs[if i % 3 == 0 { (i + 1) % 24 } else { i }],
            ctx: b"ctx",
            sig: &hedged[i],
        })
        .collect();
    let verdicts = verify_batch(&items);
    for (i, v) in verdicts.iter().enumerate() {
        assert_eq!(v.is_ok(), i % 3 != 0, "item {i}");
    }
    let pairs: Vec<(&[u8], &Signature<MlDsa65>)> =
        refs.iter().copied().zip(sigs.iter().rev()).collect();
    let verdicts = vk.prepare().verify_batch(b"ctx", &pairs);
    for (i, v) in verdicts.iter().enumerate() {
        assert_eq!(v.is_ok(), i == 23 - i, "reversed item {i}");
    }
}

/// One-shot signing from expanded bytes equals signing with the imported key, and rejects
/// what the strict decoder rejects.
#[test]
fn sign_with_expanded_matches_the_key_object() {
    fn check<P: ParameterSet>() {
        for i in 0..10u8 {
            let sk = SigningKey::<P>::from_seed(&[i; 32]);
            let bytes = sk.to_expanded_bytes();
            let rnd = [i.wrapping_mul(31); 32];
            let one_shot = SigningKey::<P>::sign_with_expanded(bytes.as_ref(), b"msg", b"c", &rnd);
            let mu = sk.verifying_key().compute_mu(b"msg", b"c").unwrap();
            assert_eq!(one_shot.unwrap(), sk.sign_mu(&mu, &rnd).unwrap());
            let det = SigningKey::<P>::sign_with_expanded(bytes.as_ref(), b"m", b"", &[0; 32]);
            assert_eq!(det.unwrap(), sk.sign_deterministic(b"m", b"").unwrap());
            let from_mu = SigningKey::<P>::sign_mu_with_expanded(bytes.as_ref(), &mu, &rnd);
            assert_eq!(from_mu.unwrap(), sk.sign_mu(&mu, &rnd).unwrap());
            // With the key's kept matrix, with another key's (not used), and with one made
            // for a rho that differs in its last byte only.
            let rho: [u8; 32] = bytes.as_ref()[..32].try_into().unwrap();
            let mut near = rho;
            near[31] ^= 1;
            for (matrix, own) in [
                (PublicMatrix::<P>::expand(&rho), true),
                (PublicMatrix::<P>::expand(&[i.wrapping_add(100); 32]), false),
                (PublicMatrix::<P>::expand(&near), false),
            ] {
                assert_eq!(matrix.rho() == &rho, own);
                let with = SigningKey::<P>::sign_mu_with_expanded_matrix(
                    bytes.as_ref(),
                    &mu,
                    &rnd,
                    &matrix,
                );
                assert_eq!(with.unwrap(), sk.sign_mu(&mu, &rnd).unwrap());
            }
        }
        let bytes = SigningKey::<P>::from_seed(&[1; 32]).to_expanded_bytes();
        let short = &bytes.as_ref()[..P::SK_LEN - 1];
        assert!(matches!(
            SigningKey::<P>::sign_with_expanded(short, b"m", b"", &[0; 32]),
            Err(mldsa::Error::Length { .. })
        ));
        // s1's first byte all ones: coefficients eta - 7 or eta - 15, outside [-eta, eta].
        let mut bad = bytes.as_ref().to_vec();
        bad[128] = 0xFF;
        assert!(matches!(
            SigningKey::<P>::sign_with_expanded(&bad, b"m", b"", &[0; 32]),
            Err(mldsa::Error::Malformed { .. })
        ));
        assert!(matches!(
            SigningKey::<P>::sign_mu_with_expanded(short, &[0; 64], &[0; 32]),
            Err(mldsa::Error::Length { .. })
        ));
        assert!(matches!(
            SigningKey::<P>::sign_mu_with_expanded(&bad, &[0; 64], &[0; 32]),
            Err(mldsa::Error::Malformed { .. })
        ));
        let matrix = PublicMatrix::<P>::expand(bytes.as_ref()[..32].try_into().unwrap());
        assert!(matches!(
            SigningKey::<P>::sign_mu_with_expanded_matrix(short, &[0; 64], &[0; 32], &matrix),
            Err(mldsa::Error::Length { .. })
        ));
        assert!(matches!(
            SigningKey::<P>::sign_mu_with_expanded_matrix(&bad, &[0; 64], &[0; 32], &matrix),
            Err(mldsa::Error::Malformed { .. })
        ));
        assert!(
            SigningKey::<P>::sign_with_expanded(bytes.as_ref(), b"m", &[0; 256], &[0; 32]).is_err()
        );
    }
    check::<MlDsa44>();
    check::<MlDsa65>();
    check::<MlDsa87>();
}

/// One-shot verification from the encodings (tr hashed alongside ExpandA) gives what
/// `VerifyingKey::from_bytes`, `Signature::from_bytes` and `verify` give, error for error: on
/// good signatures, on every single-bit flip of a few positions in each part of the signature
/// and the key, on wrong lengths and on a context of 256 bytes.
#[test]
fn verify_with_bytes_matches_the_key_object() {
    fn objects<P: ParameterSet>(
        pk: &[u8],
        msg: &[u8],
        ctx: &[u8],
        sig: &[u8],
    ) -> Result<(), mldsa::Error> {
        let vk = VerifyingKey::<P>::from_bytes(pk)?;
        vk.verify(msg, ctx, &Signature::<P>::from_bytes(sig)?)
    }
    fn check<P: ParameterSet>() {
        for i in 0..12u8 {
            let sk = SigningKey::<P>::from_seed(&[i; 32]);
            let pk = sk.verifying_key().to_bytes();
            let msg = vec![i; 7 * i as usize];
            let ctx = &[i; 9][..(i as usize % 10)];
            let sig = sk.sign_deterministic(&msg, ctx).unwrap();
            let one_shot = |pk: &[u8], msg: &[u8], ctx: &[u8], sig: &[u8]| {
                let got = VerifyingKey::<P>::verify_with_bytes(pk, msg, ctx, sig);
                assert_eq!(got, objects::<P>(pk, msg, ctx, sig));
                got
            };
            assert_eq!(one_shot(pk.as_ref(), &msg, ctx, sig.as_bytes()), Ok(()));
            assert!(one_shot(pk.as_ref(), b"other", ctx, sig.as_bytes()).is_err());
            assert!(one_shot(pk.as_ref(), &msg, b"other", sig.as_bytes()).is_err());
            // Flips in c-tilde, z, the hint section (its last bytes are the counts), rho and t1.
            let (s, k) = (P::SIG_LEN, P::PK_LEN);
            for at in [0, 40, 200, s / 2, s - 90, s - 5, s - 1] {
                let mut bad = sig.as_bytes().to_vec();
                bad[at] ^= 1 << (i % 8);
                assert!(
                    one_shot(pk.as_ref(), &msg, ctx, &bad).is_err(),
                    "sig byte {at}"
                );
            }
            for at in [0, 31, 32, k / 2, k - 1] {
                let mut bad = pk.as_ref().to_vec();
                bad[at] ^= 1 << (i % 8);
                assert!(
                    one_shot(&bad, &msg, ctx, sig.as_bytes()).is_err(),
                    "pk byte {at}"
                );
            }
        }
        let sk = SigningKey::<P>::from_seed(&[3; 32]);
        let (pk, sig) = (
            sk.verifying_key().to_bytes(),
            sk.sign_deterministic(b"m", b"").unwrap(),
        );
        let (pk, sig) = (pk.as_ref(), sig.as_bytes());
        let verify = VerifyingKey::<P>::verify_with_bytes;
        assert!(matches!(
            verify(&pk[1..], b"m", b"", sig),
            Err(mldsa::Error::Length { .. })
        ));
        assert!(matches!(
            verify(pk, b"m", b"", &sig[1..]),
            Err(mldsa::Error::Length { .. })
        ));
        assert!(matches!(
            verify(pk, b"m", &[0; 256], sig),
            Err(mldsa::Error::ContextTooLong { len: 256 })
        ));
        // A hint count past omega: a malformed encoding, not merely a wrong signature.
        let mut bad = sig.to_vec();
        bad[P::SIG_LEN - 1] = 0xFF;
        assert_eq!(
            verify(pk, b"m", b"", &bad),
            objects::<P>(pk, b"m", b"", &bad)
        );
        assert!(matches!(
            verify(pk, b"m", b"", &bad),
            Err(mldsa::Error::Malformed { .. })
        ));
    }
    check::<MlDsa44>();
    check::<MlDsa65>();
    check::<MlDsa87>();
}
