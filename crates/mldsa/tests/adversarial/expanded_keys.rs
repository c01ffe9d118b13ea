//! Strict import of expanded signing keys.

use mldsa::{Error, Input, Malformed, MuBuilder, ParameterSet, SEED_LEN, Signature, SigningKey};

use crate::helpers::*;

pub(crate) fn expanded_key_strictness<P: ParameterSet>() {
    let sk = SigningKey::<P>::from_seed(&[5; SEED_LEN]);
    let vk = *sk.verifying_key();
    let good = sk.to_expanded_bytes().as_ref().to_vec();
    let eta = P::ETA as u32;
    let bits = P::ETA_BITS;
    assert_eq!(t0_offset::<P>() + P::K * 32 * 13, P::SK_LEN);

    // Our reading of the layout: every s1, s2 field of a real key is in [0, 2 eta].
    for i in 0..(P::L + P::K) * 256 {
        assert!(read_bits(&good, 8 * s1_offset() + i * bits, bits) <= 2 * eta);
    }

    let out_of_range: Vec<u32> = (2 * eta + 1..1 << bits).collect();
    assert_eq!(out_of_range.len(), if eta == 2 { 3 } else { 7 });
    let s1_fields = [0, 1, 255, P::L * 256 - 1];
    let s2_fields = [0, 77, P::K * 256 - 1];
    for (region, fields, what) in [
        (s1_offset(), &s1_fields[..], Malformed::S1OutOfRange),
        (s2_offset::<P>(), &s2_fields[..], Malformed::S2OutOfRange),
    ] {
        for &field in fields {
            for &v in &out_of_range {
                let mut bad = good.clone();
                write_bits(&mut bad, 8 * region + field * bits, bits, v);
                assert_eq!(
                    SigningKey::<P>::from_expanded(&bad).err(),
                    Some(malformed_sk(what)),
                    "{}: {what:?} field {field} = {v}",
                    P::NAME
                );
                assert_eq!(
                    SigningKey::<P>::from_expanded_unverified(&bad).err(),
                    Some(malformed_sk(what)),
                    "{}: unverified, {what:?} field {field} = {v}",
                    P::NAME
                );
            }
            // The extreme in-range values pass the range check (and then fail consistency,
            // unless the field already had that value).
            let original = read_bits(&good, 8 * region + field * bits, bits);
            for v in [0, 2 * eta] {
                let mut edge = good.clone();
                write_bits(&mut edge, 8 * region + field * bits, bits, v);
                let strict = SigningKey::<P>::from_expanded(&edge).err();
                if v == original {
                    assert_eq!(strict, None);
                } else {
                    assert!(
                        matches!(
                            strict,
                            Some(Error::Malformed {
                                input: Input::SigningKey,
                                what: Malformed::TrMismatch | Malformed::T0Mismatch
                            })
                        ),
                        "{}: {what:?} field {field} = {v}: {strict:?}",
                        P::NAME
                    );
                }
                let k = SigningKey::<P>::from_expanded_unverified(&edge).unwrap();
                assert_eq!(k.to_expanded_bytes().as_ref(), &edge[..]);
            }
        }
    }

    // Out of range in both s1 and s2: an S1 or S2 error, never anything else.
    let mut both = good.clone();
    write_bits(&mut both, 8 * s1_offset(), bits, (1 << bits) - 1);
    write_bits(&mut both, 8 * s2_offset::<P>(), bits, (1 << bits) - 1);
    let err = SigningKey::<P>::from_expanded(&both).err();
    assert!(
        err == Some(malformed_sk(Malformed::S1OutOfRange))
            || err == Some(malformed_sk(Malformed::S2OutOfRange)),
        "{err:?}"
    );

    let msg = b"inconsistent key";
    // tr: strict import refuses; unverified import signs exactly as FIPS 204 would with that
    // tr, which the real verifying key rejects (mu differs), but a mu built with the bogus tr
    // accepts.
    for pos in [64, 64 + 31, 127] {
        let mut bad = good.clone();
        bad[pos] ^= 0x01;
        assert_eq!(
            SigningKey::<P>::from_expanded(&bad).err(),
            Some(malformed_sk(Malformed::TrMismatch))
        );
        let k = SigningKey::<P>::from_expanded_unverified(&bad).unwrap();
        assert_eq!(k.verifying_key(), &vk);
        assert_eq!(k.to_expanded_bytes().as_ref(), &bad[..]);
        let s = k.sign_deterministic(msg, b"").unwrap();
        assert_eq!(vk.verify(msg, b"", &s), Err(Error::InvalidSignature));
        let bogus_tr: [u8; 64] = bad[64..128].try_into().unwrap();
        assert_eq!(k.tr(), &bogus_tr, "the tr the key signs with is its bytes'");
        assert_ne!(k.tr(), vk.tr());
        let mut b = MuBuilder::pure(&bogus_tr, b"").unwrap();
        b.update(msg);
        assert_eq!(vk.verify_mu(&b.finalize(), &s), Ok(()));
    }

    // rho: changes A, hence t1, hence tr.
    let mut bad = good.clone();
    bad[0] ^= 0x80;
    assert_eq!(
        SigningKey::<P>::from_expanded(&bad).err(),
        Some(malformed_sk(Malformed::TrMismatch))
    );

    // t0: strict import refuses; unverified import still signs. Whether the real verifying key
    // accepts depends on how far t0 is off: t0 only feeds the hint computation, and a t0 off by
    // a few units gives the right hints almost always (a one-unit change of t0[0][0] in
    // ML-DSA-65 gave 100 verifying signatures out of 100), so either outcome is allowed.
    for field in [0, 1, 256, P::K * 256 - 1] {
        for bit in [0, 6, 12] {
            let mut bad = good.clone();
            let at = 8 * t0_offset::<P>() + field * 13 + bit;
            bad[at / 8] ^= 1 << (at % 8);
            assert_eq!(
                SigningKey::<P>::from_expanded(&bad).err(),
                Some(malformed_sk(Malformed::T0Mismatch)),
                "{}: t0 field {field} bit {bit}",
                P::NAME
            );
            let k = SigningKey::<P>::from_expanded_unverified(&bad).unwrap();
            assert_eq!(k.verifying_key(), &vk);
            assert_eq!(k.to_expanded_bytes().as_ref(), &bad[..]);
            let s = k.sign_deterministic(msg, b"").unwrap();
            assert_eq!(Signature::<P>::from_bytes(s.as_bytes()), Ok(s));
            let r = vk.verify(msg, b"", &s);
            assert!(r == Ok(()) || r == Err(Error::InvalidSignature));
        }
    }

    // K is not checkable: any K makes a valid key, with the same verifying key and
    // different deterministic signatures that verify.
    let mut other_k = good.clone();
    other_k[32] ^= 0xFF;
    let k = SigningKey::<P>::from_expanded(&other_k).unwrap();
    assert_eq!(k.verifying_key(), &vk);
    let s = k.sign_deterministic(msg, b"").unwrap();
    assert_ne!(s, sk.sign_deterministic(msg, b"").unwrap());
    assert_eq!(vk.verify(msg, b"", &s), Ok(()));
}
