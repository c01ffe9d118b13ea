//! Degenerate public keys: all-zero and all-0xFF keys, and a genuine key with t1 = 0.

use mldsa::{
    Error, ParameterSet, PreHash, PreHashed, SEED_LEN, Signature, SigningKey, VerifyingKey,
};

use crate::helpers::*;

pub(crate) fn degenerate_public_keys<P: ParameterSet>() {
    let mut rng = XorShift::new(0xD15EA5E ^ P::PK_LEN as u64);
    let real = SigningKey::<P>::from_seed(&[6; SEED_LEN]);
    let real_sig = real.sign_deterministic(b"msg", b"").unwrap();

    let mut zero_t1 = vec![0u8; P::PK_LEN];
    rng.fill(&mut zero_t1[..32]);
    let keys = [zero_t1, vec![0u8; P::PK_LEN], vec![0xFF; P::PK_LEN]];
    let mut verified = 0;
    for pk in &keys {
        let vk = VerifyingKey::<P>::from_bytes(pk).unwrap();
        assert_eq!(vk.as_bytes(), &pk[..]);
        assert_eq!(
            vk.verify(b"msg", b"", &real_sig),
            Err(Error::InvalidSignature)
        );
        for i in 0..100u32 {
            let bytes = random_decodable_signature::<P>(&mut rng);
            let sig = Signature::<P>::from_bytes(&bytes).unwrap();
            let msg = i.to_le_bytes();
            assert_eq!(vk.verify(&msg, b"", &sig), Err(Error::InvalidSignature));
            let mu = vk.compute_mu(&msg, b"").unwrap();
            assert_eq!(vk.verify_mu(&mu, &sig), Err(Error::InvalidSignature));
            assert_eq!(vk.verify_internal(&msg, &sig), Err(Error::InvalidSignature));
            let ph = PreHashed::hash(PreHash::Sha2_512, &msg);
            assert_eq!(
                vk.verify_prehashed(&ph, b"", &sig),
                Err(Error::InvalidSignature)
            );
            verified += 4;
        }
        // The all-zero signature (no hints, z = 0, c-tilde = 0) decodes and fails.
        let mut zero = vec![0u8; P::SIG_LEN];
        for poly in 0..P::L {
            for coef in 0..256 {
                set_z::<P>(&mut zero, poly, coef, 0);
            }
        }
        let sig = Signature::<P>::from_bytes(&zero).unwrap();
        assert_eq!(vk.verify(b"", b"", &sig), Err(Error::InvalidSignature));
    }
    assert_eq!(verified, 3 * 400);
}

/// F-8 / bug class 12 (Wycheproof `ZeroPublicKey`): a public key with t1 = 0 is valid and its
/// signatures verify. Such a key comes from s1 = 0 and s2 with every coefficient in [0, eta]:
/// then t = A s1 + s2 = s2 lies in [0, 2^12], so Power2Round gives t1 = 0 and t0 = s2. The
/// expanded key rho || K || tr || s1 || s2 || t0, with tr = H(rho || 0...0), is built by hand and
/// goes through the strict import, which recomputes t and tr and would refuse an inconsistent
/// key; its signatures must verify under pk = rho || 0...0. Two keys: s2 = 0 (t = 0) and s2
/// pseudorandom in [0, eta].
pub(crate) fn zero_t1_key_verifies<P: ParameterSet>() {
    let mut rng = XorShift::new(0x7E40 ^ P::SK_LEN as u64);
    for random_s2 in [false, true] {
        let mut pk = vec![0u8; P::PK_LEN];
        rng.fill(&mut pk[..32]);
        let vk = VerifyingKey::<P>::from_bytes(&pk).unwrap();
        let eta = P::ETA as u32;
        let mut sk = vec![0u8; P::SK_LEN];
        sk[..32].copy_from_slice(&pk[..32]); // rho
        rng.fill(&mut sk[32..64]); // K
        sk[64..128].copy_from_slice(vk.tr()); // tr = H(pk, 64)
        for i in 0..P::L * 256 {
            write_bits(&mut sk, 8 * s1_offset() + i * P::ETA_BITS, P::ETA_BITS, eta); // s1 = 0
        }
        for i in 0..P::K * 256 {
            let s2 = if random_s2 {
                rng.below(P::ETA as usize + 1) as u32
            } else {
                0
            };
            write_bits(
                &mut sk,
                8 * s2_offset::<P>() + i * P::ETA_BITS,
                P::ETA_BITS,
                eta - s2,
            );
            write_bits(&mut sk, 8 * t0_offset::<P>() + i * 13, 13, (1 << 12) - s2); // t0 = s2
        }
        let key = SigningKey::<P>::from_expanded(&sk)
            .unwrap_or_else(|e| panic!("{}: the t1 = 0 key is consistent: {e}", P::NAME));
        assert_eq!(key.verifying_key().as_bytes(), &pk[..]);
        assert_eq!(key.to_expanded_bytes().as_ref(), &sk[..]);
        for i in 0..5u8 {
            let msg = [i; 17];
            let sig = key.sign_deterministic(&msg, b"t1 = 0").unwrap();
            assert_eq!(vk.verify(&msg, b"t1 = 0", &sig), Ok(()), "{}", P::NAME);
            let hedged = key
                .sign_with_rng(&mut TestRng::new(u64::from(i)), &msg, b"")
                .unwrap();
            assert_eq!(vk.verify(&msg, b"", &hedged), Ok(()), "{}", P::NAME);
            let parsed = VerifyingKey::<P>::from_bytes(&pk).unwrap();
            assert_eq!(
                parsed.verify(&msg, b"", &sig),
                Err(Error::InvalidSignature),
                "{}: wrong context",
                P::NAME
            );
        }
    }
}
