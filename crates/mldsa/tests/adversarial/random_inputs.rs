//! Random and mutated inputs to every decoder and verifier never panic.

use std::fmt::Debug;
use std::panic::{AssertUnwindSafe, catch_unwind};

use mldsa::{Error, Input, Malformed, ParameterSet, SEED_LEN, Signature, SigningKey, VerifyingKey};

use crate::helpers::*;

#[derive(Default, Debug)]
pub(crate) struct Tally {
    pub(crate) tried: usize,
    pub(crate) accepted: usize,
}

/// Runs `f`, turning a panic into a test failure that names the input.
pub(crate) fn no_panic<T>(what: &str, iteration: usize, input: &[u8], f: impl FnOnce() -> T) -> T {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|_| {
        panic!(
            "{what} panicked at iteration {iteration} on {} bytes: {}",
            input.len(),
            hex(&input[..input.len().min(256)])
        )
    })
}

/// A length for a decoder whose correct length is `len`: exact half the time, otherwise just
/// off or anywhere up to twice the length.
pub(crate) fn pick_len(rng: &mut XorShift, len: usize) -> usize {
    match rng.below(4) {
        0 | 1 => len,
        2 => (len + rng.below(9)).saturating_sub(4),
        _ => rng.below(2 * len + 1),
    }
}

/// One to four random byte changes of `base`.
pub(crate) fn mutate(rng: &mut XorShift, base: &[u8]) -> Vec<u8> {
    let mut out = base.to_vec();
    for _ in 0..1 + rng.below(4) {
        let i = rng.below(out.len());
        out[i] ^= (rng.below(255) + 1) as u8;
    }
    out
}

pub(crate) fn random_inputs_never_panic<P: ParameterSet>(iterations: usize, seed: u64) {
    let mut rng = XorShift::new(seed);
    let sk = SigningKey::<P>::from_seed(&[8; SEED_LEN]);
    let vk = *sk.verifying_key();
    let msg = b"fuzz";
    let sig = sk.sign_deterministic(msg, b"").unwrap();
    let expanded = sk.to_expanded_bytes().as_ref().to_vec();
    let (mut t_vk, mut t_sig, mut t_sk, mut t_sku, mut t_seed) = Default::default();
    let mut malformed_seen = std::collections::HashSet::new();
    let mut signed_with_random_keys = 0;

    for it in 0..iterations {
        match it % 5 {
            0 => {
                let t: &mut Tally = &mut t_vk;
                let len = pick_len(&mut rng, P::PK_LEN);
                let bytes = if len == P::PK_LEN && rng.below(2) == 0 {
                    mutate(&mut rng, vk.as_bytes())
                } else {
                    rng.bytes(len)
                };
                t.tried += 1;
                let r = no_panic("VerifyingKey::from_bytes", it, &bytes, || {
                    VerifyingKey::<P>::from_bytes(&bytes)
                });
                match r {
                    Ok(k) => {
                        t.accepted += 1;
                        assert_eq!(k.as_bytes(), &bytes[..]);
                        let v = no_panic("verify", it, &bytes, || k.verify(msg, b"", &sig));
                        if bytes == vk.as_bytes() {
                            assert_eq!(v, Ok(()));
                        } else {
                            assert_eq!(v, Err(Error::InvalidSignature));
                        }
                    }
                    Err(e) => assert_eq!(
                        e,
                        Error::Length {
                            input: Input::VerifyingKey,
                            expected: P::PK_LEN,
                            got: len
                        }
                    ),
                }
            }
            1 => {
                let t: &mut Tally = &mut t_sig;
                let len = pick_len(&mut rng, P::SIG_LEN);
                let bytes = if len == P::SIG_LEN {
                    match rng.below(5) {
                        0 => mutate(&mut rng, sig.as_bytes()),
                        1 => random_decodable_signature::<P>(&mut rng),
                        2 => {
                            // One z coefficient with |z| in [gamma1 - beta, gamma1].
                            let mut b = random_decodable_signature::<P>(&mut rng);
                            let z = P::GAMMA1 - rng.below(P::BETA as usize + 1) as i32;
                            let z = if rng.below(2) == 0 { z } else { 1 - z };
                            set_z::<P>(&mut b, rng.below(P::L), rng.below(256), z);
                            b
                        }
                        3 => {
                            // One byte of the hint section changed: any byte to any
                            // value, or a cut point to a value up to omega.
                            let mut b = random_decodable_signature::<P>(&mut rng);
                            if rng.below(2) == 0 {
                                let i = hint_offset::<P>() + rng.below(P::OMEGA + P::K);
                                b[i] = rng.below(256) as u8;
                            } else {
                                let i = hint_offset::<P>() + P::OMEGA + rng.below(P::K);
                                b[i] = rng.below(P::OMEGA + 1) as u8;
                            }
                            b
                        }
                        _ => rng.bytes(len),
                    }
                } else {
                    rng.bytes(len)
                };
                t.tried += 1;
                let r = no_panic("Signature::from_bytes", it, &bytes, || {
                    Signature::<P>::from_bytes(&bytes)
                });
                match r {
                    Ok(s) => {
                        t.accepted += 1;
                        assert_eq!(s.as_bytes(), &bytes[..]);
                        let v = no_panic("verify", it, &bytes, || vk.verify(msg, b"", &s));
                        if bytes == sig.as_bytes() {
                            assert_eq!(v, Ok(()));
                        } else {
                            assert_eq!(v, Err(Error::InvalidSignature));
                        }
                    }
                    Err(Error::Malformed {
                        input: Input::Signature,
                        what,
                    }) => {
                        assert_eq!(len, P::SIG_LEN);
                        malformed_seen.insert(what);
                    }
                    Err(e) => assert_eq!(
                        e,
                        Error::Length {
                            input: Input::Signature,
                            expected: P::SIG_LEN,
                            got: len
                        }
                    ),
                }
            }
            2 | 3 => {
                let strict = it % 5 == 2;
                let t: &mut Tally = if strict { &mut t_sk } else { &mut t_sku };
                let len = pick_len(&mut rng, P::SK_LEN);
                let bytes = if len == P::SK_LEN {
                    match rng.below(4) {
                        0 => mutate(&mut rng, &expanded),
                        1 => {
                            // Only K changed: a valid key.
                            let mut b = expanded.clone();
                            rng.fill(&mut b[32..64]);
                            b
                        }
                        2 => {
                            // In-range s1 and s2, everything else random.
                            let mut b = rng.bytes(len);
                            let eta2 = 2 * P::ETA as usize + 1;
                            for i in 0..(P::L + P::K) * 256 {
                                let v = rng.below(eta2) as u32;
                                write_bits(&mut b, 8 * 128 + i * P::ETA_BITS, P::ETA_BITS, v);
                            }
                            b
                        }
                        _ => rng.bytes(len),
                    }
                } else {
                    rng.bytes(len)
                };
                t.tried += 1;
                let r = no_panic("SigningKey::from_expanded", it, &bytes, || {
                    if strict {
                        SigningKey::<P>::from_expanded(&bytes)
                    } else {
                        SigningKey::<P>::from_expanded_unverified(&bytes)
                    }
                });
                match r {
                    Ok(k) => {
                        t.accepted += 1;
                        assert_eq!(k.seed(), None);
                        assert_eq!(k.to_expanded_bytes().as_ref(), &bytes[..]);
                        // Strictly imported keys are consistent: their signatures verify.
                        // Others must at least sign without panicking (now and then, to keep
                        // the test fast).
                        if strict || signed_with_random_keys < 100 {
                            let s = no_panic("sign", it, &bytes, || k.sign_deterministic(msg, b""));
                            let s = s.unwrap();
                            signed_with_random_keys += usize::from(!strict);
                            let v = k.verifying_key().verify(msg, b"", &s);
                            if strict {
                                assert_eq!(v, Ok(()));
                            }
                        }
                    }
                    Err(Error::Malformed {
                        input: Input::SigningKey,
                        what,
                    }) => {
                        assert_eq!(len, P::SK_LEN);
                        malformed_seen.insert(what);
                        if !strict {
                            assert!(
                                matches!(what, Malformed::S1OutOfRange | Malformed::S2OutOfRange),
                                "{what:?}"
                            );
                        }
                    }
                    Err(e) => assert_eq!(
                        e,
                        Error::Length {
                            input: Input::SigningKey,
                            expected: P::SK_LEN,
                            got: len
                        }
                    ),
                }
            }
            _ => {
                let t: &mut Tally = &mut t_seed;
                let len = pick_len(&mut rng, SEED_LEN);
                let bytes = rng.bytes(len);
                t.tried += 1;
                let r = no_panic("SigningKey::from_seed_slice", it, &bytes, || {
                    SigningKey::<P>::from_seed_slice(&bytes)
                });
                match r {
                    Ok(k) => {
                        t.accepted += 1;
                        assert_eq!(k.seed().map(|s| &s[..]), Some(&bytes[..]));
                    }
                    Err(e) => assert_eq!(
                        e,
                        Error::Length {
                            input: Input::Seed,
                            expected: SEED_LEN,
                            got: len
                        }
                    ),
                }
            }
        }
    }

    println!(
        "{}: {iterations} random inputs; accepted: verifying keys {}/{}, signatures {}/{}, \
         expanded keys (strict) {}/{}, expanded keys (unverified) {}/{}, seeds {}/{}; \
         signed with {signed_with_random_keys} random keys; malformed kinds seen: {:?}",
        P::NAME,
        t_vk.accepted,
        t_vk.tried,
        t_sig.accepted,
        t_sig.tried,
        t_sk.accepted,
        t_sk.tried,
        t_sku.accepted,
        t_sku.tried,
        t_seed.accepted,
        t_seed.tried,
        malformed_seen
    );
    let tried = t_vk.tried + t_sig.tried + t_sk.tried + t_sku.tried + t_seed.tried;
    assert_eq!(tried, iterations);
    // The generators reach the interesting paths: some of everything is accepted, and both
    // signature and key decoding reject for several reasons.
    for t in [&t_vk, &t_sig, &t_sk, &t_sku, &t_seed] {
        assert!(t.accepted > 0 && t.accepted < t.tried, "{t:?}");
    }
    assert_eq!(
        malformed_seen.len(),
        9,
        "every Malformed kind: {malformed_seen:?}"
    );
}
