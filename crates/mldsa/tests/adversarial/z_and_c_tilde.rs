//! Strict signature decoding of z (the bound is rejected, one below accepted and verifies) and
//! every byte of c-tilde mattering.

use mldsa::{Error, Malformed, ParameterSet, SEED_LEN, Signature, SigningKey};

use crate::helpers::*;

pub(crate) fn z_range_is_strict<P: ParameterSet>() {
    let sk = SigningKey::<P>::from_seed(&[3; SEED_LEN]);
    let vk = sk.verifying_key();
    let msg = b"z range";
    let sig = sk.sign_deterministic(msg, b"").unwrap();
    let bytes = sig.as_bytes();
    let bound = P::GAMMA1 - P::BETA;

    // Our reading of the layout: every coefficient of a real signature is within the bound,
    // and writing back what we read changes nothing.
    let mut max = 0;
    let mut rewritten = bytes.to_vec();
    for poly in 0..P::L {
        for coef in 0..256 {
            let z = get_z::<P>(bytes, poly, coef);
            max = max.max(z.abs());
            set_z::<P>(&mut rewritten, poly, coef, z);
        }
    }
    assert!(max < bound, "{}: ||z|| = {max}", P::NAME);
    assert!(max > bound / 2, "{}: z looks unpacked wrongly", P::NAME);
    assert_eq!(rewritten, bytes);

    let positions = [(0, 0), (0, 1), (0, 255), (P::L / 2, 128), (P::L - 1, 255)];
    for (poly, coef) in positions {
        let original = get_z::<P>(bytes, poly, coef);
        for z in [
            bound,
            -bound,
            bound + 1,
            -bound - 1,
            P::GAMMA1,
            -(P::GAMMA1 - 1),
        ] {
            let mut bad = bytes.to_vec();
            set_z::<P>(&mut bad, poly, coef, z);
            assert_eq!(
                Signature::<P>::from_bytes(&bad),
                Err(malformed_sig(Malformed::ZOutOfRange)),
                "{}: z[{poly}][{coef}] = {z}",
                P::NAME
            );
        }
        for z in [bound - 1, -(bound - 1), 0, 1, -1] {
            let mut ok = bytes.to_vec();
            set_z::<P>(&mut ok, poly, coef, z);
            let s = Signature::<P>::from_bytes(&ok)
                .unwrap_or_else(|e| panic!("{}: z[{poly}][{coef}] = {z}: {e}", P::NAME));
            let expected = if z == original {
                Ok(())
            } else {
                Err(Error::InvalidSignature)
            };
            assert_eq!(vk.verify(msg, b"", &s), expected, "z = {z}");
        }
    }
}

/// F-8: z one below the bound in a *genuine* signature verifies (Wycheproof's
/// `BoundaryCondition`: z_max = gamma1 - beta - 1 valid), and the same signature with that
/// coefficient moved to the bound is rejected by decoding. Signs messages until some coefficient
/// of z lands exactly on +-(gamma1 - beta - 1): about one signature in 130 (ML-DSA-44) to 400
/// (ML-DSA-65/87) has one.
pub(crate) fn z_at_max_verifies<P: ParameterSet>() {
    let sk = SigningKey::<P>::from_seed(&[0x2A; SEED_LEN]);
    let vk = sk.verifying_key();
    let max = P::GAMMA1 - P::BETA - 1;
    for i in 0..20_000u32 {
        let msg = i.to_le_bytes();
        let sig = sk.sign_deterministic(&msg, b"z max").unwrap();
        let bytes = sig.as_bytes();
        let Some((poly, coef, z)) = (0..P::L)
            .flat_map(|p| (0..256).map(move |c| (p, c)))
            .map(|(p, c)| (p, c, get_z::<P>(bytes, p, c)))
            .find(|&(_, _, z)| z.abs() == max)
        else {
            continue;
        };
        // The accepted signature with a coefficient at gamma1 - beta - 1 decodes and verifies.
        assert_eq!(Signature::<P>::from_bytes(bytes).as_ref(), Ok(&sig));
        assert_eq!(vk.verify(&msg, b"z max", &sig), Ok(()), "{}", P::NAME);
        // One further out, on the same side, is the bound: rejected while decoding.
        let mut bad = bytes.to_vec();
        set_z::<P>(&mut bad, poly, coef, z + z.signum());
        assert_eq!(
            Signature::<P>::from_bytes(&bad),
            Err(malformed_sig(Malformed::ZOutOfRange)),
            "{}: z[{poly}][{coef}] = {}",
            P::NAME,
            z + z.signum()
        );
        return;
    }
    panic!("{}: no signature with ||z|| = gamma1 - beta - 1", P::NAME);
}

// ---------------------------------------------------------------------------------------------
// c-tilde
// ---------------------------------------------------------------------------------------------

pub(crate) fn every_c_tilde_byte_matters<P: ParameterSet>() {
    let sk = SigningKey::<P>::from_seed(&[4; SEED_LEN]);
    let vk = sk.verifying_key();
    let msg = b"c-tilde";
    let sig = sk.sign_deterministic(msg, b"ctx").unwrap();
    assert_eq!(sig.c_tilde().len(), P::LAMBDA / 4);
    for i in 0..P::C_TILDE_LEN {
        for x in [0x01u8, 0x80, 0xFF, 0x5A] {
            let mut bad = sig.as_bytes().to_vec();
            bad[i] ^= x;
            // Any c-tilde decodes; only verification can tell.
            let s = Signature::<P>::from_bytes(&bad).unwrap();
            assert_eq!(s.c_tilde()[i], sig.c_tilde()[i] ^ x);
            assert_eq!(
                vk.verify(msg, b"ctx", &s),
                Err(Error::InvalidSignature),
                "{}: c-tilde byte {i} ^ {x:#04x}",
                P::NAME
            );
        }
    }
}
