//! The NIST round-3 KATs of CRYSTALS-Dilithium v3.1
//! (`../shared/vectors/dilithium-round3/PQCsignKAT_Dilithium{2,3,5}.rsp`), and the separation
//! between the legacy mode and ML-DSA.
//!
//! Each entry: a DRBG seeded with `seed` gives zeta (32 bytes); KeyGen(zeta) must give `pk` and
//! `sk`; deterministic signing of `msg` must give `sm = sig || msg`; `open(sm)` must give back
//! `msg`. Run with `-- --nocapture` for the counts.

mod common;

use common::{NistDrbg, describe_diff, parse_entries, read_vector_file};
use mldsa::legacy::{
    self, Dilithium2, Dilithium2Aes, Dilithium3, Dilithium3Aes, Dilithium5, Dilithium5Aes,
    DilithiumParameterSet,
};
use mldsa::{Error, Input, MlDsa44, MlDsa65, MlDsa87, ParameterSet};

fn check_file<P: DilithiumParameterSet>() {
    let file = format!("dilithium-round3/PQCsignKAT_{}.rsp", P::NAME);
    let text = read_vector_file(&file);
    assert!(
        text.starts_with(&format!("# {}", P::NAME)),
        "{file}: unexpected header"
    );
    let entries = parse_entries(&text);
    let mut failures = Vec::new();
    for (i, e) in entries.iter().enumerate() {
        let result = (|| -> Result<(), String> {
            let count = e.num("count")?;
            if count != i {
                return Err(format!("count {count} out of order"));
            }
            let seed: [u8; 48] = e.hex("seed")?.try_into().map_err(|_| "seed length")?;
            let msg = e.hex("msg")?;
            if msg.len() != e.num("mlen")? {
                return Err("mlen".into());
            }
            let zeta: [u8; 32] = NistDrbg::new(&seed).array();
            let sk = legacy::SigningKey::<P>::from_seed(&zeta);
            let vk = sk.verifying_key();
            if vk.as_bytes() != e.hex("pk")?.as_slice() {
                return Err(format!(
                    "pk: {}",
                    describe_diff(vk.as_bytes(), &e.hex("pk")?)
                ));
            }
            let sk_bytes = sk.to_bytes();
            if sk_bytes.as_ref() != e.hex("sk")?.as_slice() {
                return Err(format!(
                    "sk: {}",
                    describe_diff(sk_bytes.as_ref(), &e.hex("sk")?)
                ));
            }
            let sm = e.hex("sm")?;
            if sm.len() != e.num("smlen")? || sm.len() != P::SIG_LEN + msg.len() {
                return Err("smlen".into());
            }
            let ours = sk.sign_attached(&msg).map_err(|e| e.to_string())?;
            if ours != sm {
                return Err(format!("sm: {}", describe_diff(&ours, &sm)));
            }
            if vk.open(&sm).map_err(|e| e.to_string())? != msg.as_slice() {
                return Err("open did not return the message".into());
            }
            // The secret key bytes decode strictly and sign identically.
            let imported = legacy::SigningKey::<P>::from_bytes(&e.hex("sk")?)
                .map_err(|e| format!("from_bytes: {e}"))?;
            let again = imported
                .sign_deterministic(&msg)
                .map_err(|e| e.to_string())?;
            if again.as_bytes() != &sm[..P::SIG_LEN] {
                return Err("imported key signs differently".into());
            }
            Ok(())
        })();
        if let Err(why) = result {
            failures.push(format!("{file} count {i}: {why}"));
        }
    }
    println!(
        "{file}: {} entries, {} failures",
        entries.len(),
        failures.len()
    );
    assert_eq!(entries.len(), 100, "{file}: expected 100 entries");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn kat_dilithium2() {
    check_file::<Dilithium2>();
}

#[test]
fn kat_dilithium3() {
    check_file::<Dilithium3>();
}

#[test]
fn kat_dilithium5() {
    check_file::<Dilithium5>();
}

/// A test RNG: SHAKE-like bytes from a counter, enough to make randomized signatures differ.
struct CounterRng(u64);

impl mldsa::rand_core::TryRng for CounterRng {
    type Error = core::convert::Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        Ok(self.try_next_u64()? as u32)
    }
    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        Ok(self.0 ^ (self.0 >> 29))
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        for chunk in dst.chunks_mut(8) {
            let v = self.try_next_u64()?.to_le_bytes();
            chunk.copy_from_slice(&v[..chunk.len()]);
        }
        Ok(())
    }
}

impl mldsa::rand_core::TryCryptoRng for CounterRng {}

fn randomized_round_trip<P: DilithiumParameterSet>() {
    let mut rng = CounterRng(P::SIG_LEN as u64);
    for i in 0..20u8 {
        let sk = legacy::SigningKey::<P>::generate_with_rng(&mut rng).unwrap();
        let vk = sk.verifying_key();
        let msg = vec![i; i as usize * 7];
        let a = sk.sign_randomized_with_rng(&mut rng, &msg).unwrap();
        let b = sk.sign_randomized_with_rng(&mut rng, &msg).unwrap();
        assert_ne!(a, b, "{}: randomized signatures must differ", P::NAME);
        vk.verify(&msg, &a).unwrap();
        vk.verify(&msg, &b).unwrap();
        assert!(vk.verify(b"other", &a).is_err());
        // Deterministic mode is deterministic and different from the randomized ones.
        let d = sk.sign_deterministic(&msg).unwrap();
        assert_eq!(d, sk.sign_deterministic(&msg).unwrap());
        assert_ne!(d, a);
        // Streaming in two pieces gives the same bytes, and verifies.
        let cut = msg.len() / 3;
        let mut s = sk.message_signer();
        s.update(&msg[..cut]).update(&msg[cut..]);
        assert_eq!(s.sign_deterministic().unwrap(), d);
        // One-shot from the encoded secret key: the same bytes; bad lengths and ranges refused.
        let bytes = sk.to_bytes();
        let one_shot = legacy::SigningKey::<P>::sign_deterministic_with_bytes(bytes.as_ref(), &msg);
        assert_eq!(one_shot.unwrap(), d);
        assert!(matches!(
            legacy::SigningKey::<P>::sign_deterministic_with_bytes(&bytes.as_ref()[1..], &msg),
            Err(mldsa::Error::Length { .. })
        ));
        let mut bad = bytes.as_ref().to_vec();
        bad[96] = 0xFF; // s1's first coefficients out of [-eta, eta] (after rho, K, tr)
        assert!(matches!(
            legacy::SigningKey::<P>::sign_deterministic_with_bytes(&bad, &msg),
            Err(mldsa::Error::Malformed { .. })
        ));
        let mut v = vk.message_verifier();
        v.update(&msg[..cut]).update(&msg[cut..]);
        v.verify(&a).unwrap();
    }
}

#[test]
fn randomized_signing_round_trips() {
    randomized_round_trip::<Dilithium2>();
    randomized_round_trip::<Dilithium3>();
    randomized_round_trip::<Dilithium5>();
    randomized_round_trip::<Dilithium2Aes>();
    randomized_round_trip::<Dilithium3Aes>();
    randomized_round_trip::<Dilithium5Aes>();
}

/// A Dilithium signature never verifies as ML-DSA and vice versa, at every level, for keys made
/// from the same seed and signatures of the same message.
fn separated<L: DilithiumParameterSet, M: ParameterSet>() {
    for seed in 0..5u8 {
        let legacy_sk = legacy::SigningKey::<L>::from_seed(&[seed; 32]);
        let mldsa_sk = mldsa::SigningKey::<M>::from_seed(&[seed; 32]);
        assert_eq!(L::PK_LEN, M::PK_LEN);
        // Same seed, different key expansion: the public keys differ.
        assert_ne!(
            legacy_sk.verifying_key().as_bytes(),
            mldsa_sk.verifying_key().as_bytes()
        );
        let msg = b"migration test message";
        let legacy_sig = legacy_sk.sign_deterministic(msg).unwrap();
        let mldsa_sig = mldsa_sk.sign_deterministic(msg, b"").unwrap();

        // ML-DSA key, legacy signature bytes (and the reverse), through each decoder.
        let as_mldsa = mldsa::Signature::<M>::from_bytes(legacy_sig.as_bytes());
        let as_legacy = legacy::Signature::<L>::from_bytes(mldsa_sig.as_bytes());
        if L::SIG_LEN == M::SIG_LEN {
            // Level 2: same lengths, so decoding may succeed; verification must not.
            if let Ok(s) = as_mldsa {
                assert_eq!(
                    mldsa_sk.verifying_key().verify(msg, b"", &s),
                    Err(Error::InvalidSignature)
                );
            }
            if let Ok(s) = as_legacy {
                assert_eq!(
                    legacy_sk.verifying_key().verify(msg, &s),
                    Err(Error::InvalidSignature)
                );
            }
        } else {
            assert!(matches!(as_mldsa, Err(Error::Length { .. })), "{}", M::NAME);
            assert!(
                matches!(as_legacy, Err(Error::Length { .. })),
                "{}",
                L::NAME
            );
        }
        // Same public key bytes under the other family's rules never accept.
        let vk_as_legacy =
            legacy::VerifyingKey::<L>::from_bytes(mldsa_sk.verifying_key().as_bytes()).unwrap();
        if let Ok(s) = legacy::Signature::<L>::from_bytes(mldsa_sig.as_bytes()) {
            assert!(vk_as_legacy.verify(msg, &s).is_err());
        }
        // Secret keys have different lengths and never decode as the other family.
        assert_ne!(L::SK_LEN, M::SK_LEN);
        assert!(mldsa::SigningKey::<M>::from_expanded(legacy_sk.to_bytes().as_ref()).is_err());
        assert!(
            legacy::SigningKey::<L>::from_bytes(mldsa_sk.to_expanded_bytes().as_ref()).is_err()
        );
    }
}

#[test]
fn legacy_and_mldsa_never_cross_verify() {
    separated::<Dilithium2, MlDsa44>();
    separated::<Dilithium3, MlDsa65>();
    separated::<Dilithium5, MlDsa87>();
    separated::<Dilithium2Aes, MlDsa44>();
    separated::<Dilithium3Aes, MlDsa65>();
    separated::<Dilithium5Aes, MlDsa87>();
}

/// Every legacy decoder rejects lengths 0, 1, L - 1, L + 1 and 2L with `Error::Length` naming the
/// input and both lengths (never a panic), and takes the right length; `write_bytes` leaves a
/// wrong-sized buffer untouched; `open` rejects a signed message shorter than a signature.
fn wrong_lengths<P: DilithiumParameterSet>() {
    let sk = legacy::SigningKey::<P>::from_seed(&[0x5A; 32]);
    let vk = sk.verifying_key();
    let sig = sk.sign_deterministic(b"length test").unwrap();
    let sk_bytes = sk.to_bytes();
    // The error a decoder of `expected`-byte inputs owes a `len`-byte one: none at the right
    // length, else `Error::Length` naming the input and both lengths.
    let length = |input, expected, got| Error::Length {
        input,
        expected,
        got,
    };
    let owed = |input, expected, len| (len != expected).then(|| length(input, expected, len));
    // At the right length, the 0x3C fill may still be malformed (signature, secret key): only
    // the length errors of those decoders are compared.
    let length_only = |e: Option<Error>| e.filter(|e| matches!(e, Error::Length { .. }));
    for l in [P::PK_LEN, P::SIG_LEN, P::SK_LEN] {
        for len in [0, 1, l - 1, l, l + 1, 2 * l] {
            let bytes = vec![0x3C; len];
            // Every PK_LEN-byte string is a public key, so no filter here.
            assert_eq!(
                legacy::VerifyingKey::<P>::from_bytes(&bytes).err(),
                owed(Input::VerifyingKey, P::PK_LEN, len),
                "{}",
                P::NAME
            );
            assert_eq!(
                length_only(legacy::Signature::<P>::from_bytes(&bytes).err()),
                owed(Input::Signature, P::SIG_LEN, len),
                "{}",
                P::NAME
            );
            let sk_owed = owed(Input::SigningKey, P::SK_LEN, len);
            assert_eq!(
                length_only(legacy::SigningKey::<P>::from_bytes(&bytes).err()),
                sk_owed,
                "{}",
                P::NAME
            );
            assert_eq!(
                length_only(legacy::SigningKey::<P>::from_bytes_unverified(&bytes).err()),
                sk_owed,
                "{}",
                P::NAME
            );
            let mut out = vec![0xC3; len];
            let r = sk.write_bytes(&mut out);
            if len == P::SK_LEN {
                assert_eq!(r, Ok(()));
                assert_eq!(&out[..], sk_bytes.as_ref());
            } else {
                assert_eq!(r, Err(length(Input::SigningKey, P::SK_LEN, len)));
                assert!(
                    out.iter().all(|&b| b == 0xC3),
                    "{}: buffer touched",
                    P::NAME
                );
            }
        }
    }
    // The right lengths round-trip.
    assert!(legacy::SigningKey::<P>::from_bytes(sk_bytes.as_ref()).is_ok());
    // open: fewer bytes than a signature is a length error; exactly a signature opens to "".
    for len in [0, 1, P::SIG_LEN - 1] {
        assert_eq!(
            vk.open(&sig.as_bytes()[..len]),
            Err(length(Input::Signature, P::SIG_LEN, len)),
            "{}",
            P::NAME
        );
    }
    let empty = sk.sign_deterministic(b"").unwrap();
    assert_eq!(vk.open(empty.as_bytes()), Ok(&b""[..]));
}

#[test]
fn legacy_wrong_lengths() {
    wrong_lengths::<Dilithium2>();
    wrong_lengths::<Dilithium3>();
    wrong_lengths::<Dilithium5>();
    wrong_lengths::<Dilithium2Aes>();
    wrong_lengths::<Dilithium3Aes>();
    wrong_lengths::<Dilithium5Aes>();
}

// ---------------------------------------------------------------------------------------------
// Property tests of the legacy API, for both families (SHAKE and AES, v3.1 section 5.3): round
// trip of every encoding and signing mode, tampering, strict decoding. `.ci/run` runs this
// file on both backends.
// ---------------------------------------------------------------------------------------------

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

const LEGACY_SIGN_CASES: u32 = 16;
const LEGACY_PARSE_CASES: u32 = 128;

/// Keys and signatures survive their encodings; deterministic, randomized and streamed
/// signatures verify (attached ones open) and re-encode to the same bytes.
fn prop_round_trip<P: DilithiumParameterSet>(
    seed: [u8; 32],
    r: u64,
    msg: &[u8],
) -> Result<(), TestCaseError> {
    let sk = legacy::SigningKey::<P>::from_seed(&seed);
    let vk = sk.verifying_key();
    let sk2 = legacy::SigningKey::<P>::from_bytes(sk.to_bytes().as_ref()).unwrap();
    prop_assert_eq!(sk2.verifying_key(), vk);
    prop_assert!(sk2.seed().is_none());
    let vk2 = legacy::VerifyingKey::<P>::from_bytes(vk.as_bytes()).unwrap();
    prop_assert_eq!(&vk2, vk);
    let det = sk.sign_deterministic(msg).unwrap();
    prop_assert_eq!(&det, &sk2.sign_deterministic(msg).unwrap());
    let rnd = sk
        .sign_randomized_with_rng(&mut CounterRng(r), msg)
        .unwrap();
    for sig in [&det, &rnd] {
        prop_assert_eq!(vk2.verify(msg, sig), Ok(()));
        let again = legacy::Signature::<P>::from_bytes(sig.as_bytes()).unwrap();
        prop_assert_eq!(&again, sig);
    }
    let sm = sk.sign_attached(msg).unwrap();
    prop_assert_eq!(&sm[..P::SIG_LEN], det.as_bytes());
    prop_assert_eq!(vk.open(&sm), Ok(msg));
    let mut s = sk.message_signer();
    for piece in msg.chunks(7) {
        s.update(piece);
    }
    prop_assert_eq!(&s.sign_deterministic().unwrap(), &det);
    let mut v = vk.message_verifier();
    for piece in msg.chunks(5) {
        v.update(piece);
    }
    prop_assert_eq!(v.verify(&rnd), Ok(()));
    Ok(())
}

/// One flipped bit anywhere in the signature, or in the message, and it no longer verifies: a
/// flipped signature either fails to decode (with a typed error) or is rejected.
fn prop_tamper<P: DilithiumParameterSet>(
    seed: [u8; 32],
    msg: &[u8],
    bit: usize,
) -> Result<(), TestCaseError> {
    let sk = legacy::SigningKey::<P>::from_seed(&seed);
    let vk = sk.verifying_key();
    let sig = sk.sign_deterministic(msg).unwrap();
    let mut bytes = sig.as_bytes().to_vec();
    let bit = bit % (8 * bytes.len());
    bytes[bit / 8] ^= 1 << (bit % 8);
    match legacy::Signature::<P>::from_bytes(&bytes) {
        Ok(s) => prop_assert_eq!(vk.verify(msg, &s), Err(Error::InvalidSignature)),
        Err(e) => prop_assert!(
            matches!(
                e,
                Error::Malformed {
                    input: Input::Signature,
                    ..
                }
            ),
            "{e:?}"
        ),
    }
    let mut other = msg.to_vec();
    if other.is_empty() {
        other.push(0);
    } else {
        let bit = bit % (8 * other.len());
        other[bit / 8] ^= 1 << (bit % 8);
    }
    prop_assert_eq!(vk.verify(&other, &sig), Err(Error::InvalidSignature));
    Ok(())
}

/// Arbitrary bytes of the right length never panic a decoder: a signature decodes or names
/// what is malformed (and then never verifies); a secret key made of random bytes is rejected
/// strictly; a decoded signature re-encodes to the same bytes.
fn prop_strict_decoding<P: DilithiumParameterSet>(fill: &[u8]) -> Result<(), TestCaseError> {
    let bytes = |len: usize| -> Vec<u8> { fill.iter().copied().cycle().take(len).collect() };
    let sig_bytes = bytes(P::SIG_LEN);
    let vk = *legacy::SigningKey::<P>::from_seed(&[7; 32]).verifying_key();
    match legacy::Signature::<P>::from_bytes(&sig_bytes) {
        Ok(s) => {
            prop_assert_eq!(s.as_bytes(), &sig_bytes[..]);
            prop_assert_eq!(vk.verify(b"m", &s), Err(Error::InvalidSignature));
        }
        Err(e) => prop_assert!(
            matches!(
                e,
                Error::Malformed {
                    input: Input::Signature,
                    ..
                }
            ),
            "{e:?}"
        ),
    }
    let sk_err = legacy::SigningKey::<P>::from_bytes(&bytes(P::SK_LEN)).err();
    prop_assert!(
        matches!(
            sk_err,
            Some(Error::Malformed {
                input: Input::SigningKey,
                ..
            })
        ),
        "{sk_err:?}"
    );
    prop_assert!(legacy::VerifyingKey::<P>::from_bytes(&bytes(P::PK_LEN)).is_ok());
    Ok(())
}

macro_rules! legacy_properties {
    ($module:ident, $p:ty) => {
        mod $module {
            use super::*;

            proptest! {
                #![proptest_config(ProptestConfig::with_cases(LEGACY_SIGN_CASES))]

                #[test]
                fn round_trip(
                    seed in any::<[u8; 32]>(), r in any::<u64>(),
                    msg in proptest::collection::vec(any::<u8>(), 0..300),
                ) {
                    prop_round_trip::<$p>(seed, r, &msg)?;
                }

                #[test]
                fn tamper(
                    seed in any::<[u8; 32]>(), bit in any::<usize>(),
                    msg in proptest::collection::vec(any::<u8>(), 0..300),
                ) {
                    prop_tamper::<$p>(seed, &msg, bit)?;
                }
            }

            proptest! {
                #![proptest_config(ProptestConfig::with_cases(LEGACY_PARSE_CASES))]

                #[test]
                fn strict_decoding(fill in proptest::collection::vec(any::<u8>(), 1..64)) {
                    prop_strict_decoding::<$p>(&fill)?;
                }
            }
        }
    };
}

legacy_properties!(dilithium2, Dilithium2);
legacy_properties!(dilithium3, Dilithium3);
legacy_properties!(dilithium5, Dilithium5);
legacy_properties!(dilithium2_aes, Dilithium2Aes);
legacy_properties!(dilithium3_aes, Dilithium3Aes);
legacy_properties!(dilithium5_aes, Dilithium5Aes);

/// The `signature` traits on every legacy set (SHAKE and AES): `Signer` is the deterministic
/// v3.1 default, `RandomizedSigner` the randomized mode, `Verifier`, `Keypair` and
/// `SignatureEncoding` as on ML-DSA.
fn signature_traits<P: DilithiumParameterSet>()
where
    legacy::Signature<P>: mldsa::signature::SignatureEncoding,
{
    use mldsa::signature::{Keypair, RandomizedSigner, SignatureEncoding, Signer, Verifier};
    let sk = legacy::SigningKey::<P>::from_seed(&[0x77; 32]);
    let vk: legacy::VerifyingKey<P> = Keypair::verifying_key(&sk);
    assert_eq!(&vk, sk.verifying_key());
    let msg = b"through the traits";
    let sig: legacy::Signature<P> = Signer::try_sign(&sk, msg).unwrap();
    assert_eq!(sig, sk.sign_deterministic(msg).unwrap(), "{}", P::NAME);
    assert_eq!(sig.to_vec(), sig.as_bytes(), "{}", P::NAME);
    assert!(Verifier::verify(&vk, msg, &sig).is_ok());
    assert!(Verifier::verify(&vk, b"other", &sig).is_err());
    let rnd: legacy::Signature<P> = sk.try_sign_with_rng(&mut CounterRng(9), msg).unwrap();
    assert_ne!(rnd, sig, "{}", P::NAME);
    assert!(Verifier::verify(&vk, msg, &rnd).is_ok());
}

#[test]
fn legacy_signature_traits() {
    signature_traits::<Dilithium2>();
    signature_traits::<Dilithium3>();
    signature_traits::<Dilithium5>();
    signature_traits::<Dilithium2Aes>();
    signature_traits::<Dilithium3Aes>();
    signature_traits::<Dilithium5Aes>();
}
