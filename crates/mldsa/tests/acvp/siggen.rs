//! ACVP sigGen: the FIPS204 and FIPS204-tr1 files, every interface and key format.

use std::str::FromStr;

use crate::common::{FixedRng, hex_array};
use mldsa::{MlDsa44, MlDsa65, MlDsa87, ParameterSet, PreHash, PreHashed, Signature, SigningKey};
use serde_json::Value;

use crate::harness::*;

// ---------------------------------------------------------------------------------------------
// sigGen (FIPS204 and FIPS204-tr1)
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Interface {
    /// External interface, pure ML-DSA (Alg. 2 / 3).
    Pure,
    /// External interface, HashML-DSA (Alg. 4 / 5).
    PreHash,
    /// Internal interface, message is M' (Alg. 7 / 8).
    InternalMessage,
    /// Internal interface, external mu.
    InternalMu,
}

impl Interface {
    pub(crate) fn from_group(g: &Value) -> Result<Self, String> {
        match g["signatureInterface"].as_str() {
            Some("external") => match g["preHash"].as_str() {
                Some("pure") => Ok(Interface::Pure),
                Some("preHash") => Ok(Interface::PreHash),
                other => Err(format!("external group with preHash {other:?}")),
            },
            Some("internal") => match bool_value(&g["externalMu"]) {
                Some(true) => Ok(Interface::InternalMu),
                Some(false) => Ok(Interface::InternalMessage),
                None => Err(format!(
                    "internal group with externalMu {:?}",
                    g["externalMu"]
                )),
            },
            other => Err(format!("unknown signatureInterface {other:?}")),
        }
    }

    pub(crate) fn name(self) -> &'static str {
        match self {
            Interface::Pure => "external/pure",
            Interface::PreHash => "external/preHash",
            Interface::InternalMessage => "internal/message",
            Interface::InternalMu => "internal/externalMu",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum KeyFormat {
    Seed,
    Expanded,
}

pub(crate) struct SigGenGroup {
    pub(crate) interface: Interface,
    pub(crate) deterministic: bool,
    pub(crate) key_format: KeyFormat,
}

/// Independent pre-hash (SHA-2 from the RustCrypto `sha2` crate, a normal dependency of the
/// library) for cross-checking `PreHashed::hash` / `PreHashed::from_digest`. `None` for SHA-3 and
/// SHAKE, for which no independent implementation is at hand; those cases are still covered by
/// the expected signatures (via `PreHashed::hash`) and by the `from_digest(hash(..).digest())`
/// round trip.
pub(crate) fn independent_digest(alg: &str, msg: &[u8]) -> Option<Vec<u8>> {
    use sha2::Digest;
    Some(match alg {
        "SHA2-224" => sha2::Sha224::digest(msg).to_vec(),
        "SHA2-256" => sha2::Sha256::digest(msg).to_vec(),
        "SHA2-384" => sha2::Sha384::digest(msg).to_vec(),
        "SHA2-512" => sha2::Sha512::digest(msg).to_vec(),
        "SHA2-512/224" => sha2::Sha512_224::digest(msg).to_vec(),
        "SHA2-512/256" => sha2::Sha512_256::digest(msg).to_vec(),
        _ => return None,
    })
}

/// PH output length per the ACVP README table.
pub(crate) fn digest_len(alg: &str) -> Option<usize> {
    Some(match alg {
        "SHA2-224" | "SHA2-512/224" | "SHA3-224" => 28,
        "SHA2-256" | "SHA2-512/256" | "SHA3-256" | "SHAKE-128" => 32,
        "SHA2-384" | "SHA3-384" => 48,
        "SHA2-512" | "SHA3-512" | "SHAKE-256" => 64,
        _ => return None,
    })
}

/// Signs with the fixed RNG, checking that exactly the 32 bytes of `rnd` were drawn.
pub(crate) fn with_fixed_rng<T>(
    rnd: &[u8; 32],
    f: impl FnOnce(&mut FixedRng) -> T,
) -> Result<T, String> {
    let mut rng = FixedRng::new(rnd);
    let out = f(&mut rng);
    if rng.remaining() != 0 {
        return Err(format!(
            "the signer drew only {} of the 32 rnd bytes from the RNG",
            32 - rng.remaining()
        ));
    }
    Ok(out)
}

pub(crate) fn siggen_case<P: ParameterSet>(
    g: &SigGenGroup,
    t: &Value,
    exp: &Value,
    report_note: &mut Vec<&'static str>,
) -> Result<(), String> {
    let want = hex_field(exp, "signature")?;
    if want.len() != P::SIG_LEN {
        return Err(format!(
            "expected signature has {} bytes, SIG_LEN is {}",
            want.len(),
            P::SIG_LEN
        ));
    }

    // Key.
    let sk = match g.key_format {
        KeyFormat::Seed => SigningKey::<P>::from_seed(&hex_array(str_field(t, "seed")?, "seed")),
        KeyFormat::Expanded => {
            let skb = hex_field(t, "sk")?;
            let sk =
                SigningKey::<P>::from_expanded(&skb).map_err(err("SigningKey::from_expanded"))?;
            check_eq(
                "from_expanded(sk).to_expanded_bytes()",
                sk.to_expanded_bytes().as_ref(),
                &skb,
            )?;
            sk
        }
    };
    let vk = sk.verifying_key();

    // rnd: absent (and 32 zero bytes) for deterministic groups.
    let rnd: [u8; 32] = if g.deterministic {
        if t.get("rnd").is_some() {
            return Err("deterministic group but the test carries `rnd`".into());
        }
        [0u8; 32]
    } else {
        hex_array(str_field(t, "rnd")?, "rnd")
    };

    let mut errs: Vec<String> = Vec::new();
    let mut push = |r: Result<(), String>| {
        if let Err(e) = r {
            errs.push(e);
        }
    };

    let sig: Signature<P> = match g.interface {
        Interface::Pure => {
            let msg = hex_field(t, "message")?;
            let ctx = hex_field(t, "context")?;
            let sig = if g.deterministic {
                let s = sk
                    .sign_deterministic(&msg, &ctx)
                    .map_err(err("sign_deterministic"))?;
                let s0 = with_fixed_rng(&rnd, |r| sk.sign_with_rng(r, &msg, &ctx))?
                    .map_err(err("sign_with_rng(zero rnd)"))?;
                push(check_eq(
                    "sign_with_rng(zero rnd) vs sign_deterministic",
                    s0.to_bytes().as_ref(),
                    s.to_bytes().as_ref(),
                ));
                s
            } else {
                with_fixed_rng(&rnd, |r| sk.sign_with_rng(r, &msg, &ctx))?
                    .map_err(err("sign_with_rng"))?
            };
            // One-shot signing from the expanded bytes, and a prepared key, give it too.
            if let KeyFormat::Expanded = g.key_format {
                match SigningKey::<P>::sign_with_expanded(&hex_field(t, "sk")?, &msg, &ctx, &rnd) {
                    Ok(s) => push(check_eq(
                        "sign_with_expanded(sk bytes)",
                        s.to_bytes().as_ref(),
                        &want,
                    )),
                    Err(e) => push(Err(format!("sign_with_expanded returned Err({e:?})"))),
                }
            }
            match with_fixed_rng(&rnd, |r| sk.clone().prepared().sign_with_rng(r, &msg, &ctx))? {
                Ok(s) => push(check_eq("prepared key", s.to_bytes().as_ref(), &want)),
                Err(e) => push(Err(format!("prepared sign_with_rng returned Err({e:?})"))),
            }
            // External mu: compute_mu + sign_mu with the same rnd must give the same signature.
            match vk.compute_mu(&msg, &ctx) {
                Ok(mu) => {
                    match sk.sign_mu(&mu, &rnd) {
                        Ok(s) => push(check_eq(
                            "sign_mu(compute_mu(msg, ctx))",
                            s.to_bytes().as_ref(),
                            &want,
                        )),
                        Err(e) => push(Err(format!("sign_mu returned Err({e:?})"))),
                    }
                    push(
                        vk.verify_mu(&mu, &sig)
                            .map_err(err("verify_mu(compute_mu(..), own sig)")),
                    );
                }
                Err(e) => push(Err(format!("compute_mu returned Err({e:?})"))),
            }
            push(vk.verify(&msg, &ctx, &sig).map_err(err("verify(own sig)")));
            // A different context must not verify.
            let mut ctx2 = ctx.clone();
            if ctx2.len() < 255 {
                ctx2.push(0);
            } else {
                ctx2[0] ^= 1;
            }
            if vk.verify(&msg, &ctx2, &sig).is_ok() {
                push(Err(
                    "verify accepted the signature under a different context".into(),
                ));
            }
            sig
        }
        Interface::PreHash => {
            let msg = hex_field(t, "message")?;
            let ctx = hex_field(t, "context")?;
            let alg = str_field(t, "hashAlg")?;
            let ph = PreHash::from_str(alg)
                .map_err(|e| format!("PreHash::from_str({alg:?}) returned Err({e:?})"))?;
            let phd = PreHashed::hash(ph, &msg);
            let sig = if g.deterministic {
                let s = sk
                    .sign_prehashed_deterministic(&phd, &ctx)
                    .map_err(err("sign_prehashed_deterministic"))?;
                let s0 = with_fixed_rng(&rnd, |r| sk.sign_prehashed_with_rng(r, &phd, &ctx))?
                    .map_err(err("sign_prehashed_with_rng(zero rnd)"))?;
                push(check_eq(
                    "sign_prehashed_with_rng(zero rnd) vs sign_prehashed_deterministic",
                    s0.to_bytes().as_ref(),
                    s.to_bytes().as_ref(),
                ));
                s
            } else {
                with_fixed_rng(&rnd, |r| sk.sign_prehashed_with_rng(r, &phd, &ctx))?
                    .map_err(err("sign_prehashed_with_rng"))?
            };
            push(
                vk.verify_prehashed(&phd, &ctx, &sig)
                    .map_err(err("verify_prehashed(own sig)")),
            );
            // The digest has the README's length and, for SHA-2, equals an independent hash.
            let d = phd.digest().to_vec();
            if Some(d.len()) != digest_len(alg) {
                push(Err(format!(
                    "PreHashed::hash({alg}) gave a {}-byte digest",
                    d.len()
                )));
            }
            if let Some(ind) = independent_digest(alg, &msg) {
                report_note.push("preHash digest checked against the sha2 crate");
                push(check_eq("PreHashed::hash digest vs sha2 crate", &d, &ind));
            }
            // from_digest with the same digest must sign identically.
            match PreHashed::from_digest(ph, &d) {
                Ok(phd2) => {
                    match with_fixed_rng(&rnd, |r| sk.sign_prehashed_with_rng(r, &phd2, &ctx)) {
                        Ok(Ok(s)) => push(check_eq(
                            "sign via PreHashed::from_digest",
                            s.to_bytes().as_ref(),
                            &want,
                        )),
                        Ok(Err(e)) => push(Err(format!(
                            "sign_prehashed_with_rng(from_digest) returned Err({e:?})"
                        ))),
                        Err(e) => push(Err(e)),
                    }
                }
                Err(e) => push(Err(format!(
                    "PreHashed::from_digest({alg}, {} bytes) returned Err({e:?})",
                    d.len()
                ))),
            }
            if !d.is_empty() && PreHashed::from_digest(ph, &d[..d.len() - 1]).is_ok() {
                push(Err(format!(
                    "PreHashed::from_digest({alg}) accepted a digest one byte short"
                )));
            }
            // The pure verifier must not accept a HashML-DSA signature.
            if vk.verify(&msg, &ctx, &sig).is_ok() {
                push(Err("pure verify accepted a HashML-DSA signature".into()));
            }
            sig
        }
        Interface::InternalMessage => {
            if t.get("context").is_some() {
                return Err("internal group carries a `context`".into());
            }
            let m_prime = hex_field(t, "message")?;
            let sig = sk
                .sign_internal(&m_prime, &rnd)
                .map_err(err("sign_internal"))?;
            push(
                vk.verify_internal(&m_prime, &sig)
                    .map_err(err("verify_internal(own sig)")),
            );
            sig
        }
        Interface::InternalMu => {
            let mu: [u8; 64] = hex_array(str_field(t, "mu")?, "mu");
            let sig = sk.sign_mu(&mu, &rnd).map_err(err("sign_mu"))?;
            push(vk.verify_mu(&mu, &sig).map_err(err("verify_mu(own sig)")));
            sig
        }
    };

    let got = sig.to_bytes();
    let mut first = check_eq("signature", got.as_ref(), &want)
        .err()
        .into_iter()
        .collect::<Vec<_>>();
    // The expected signature must decode and round-trip.
    match Signature::<P>::from_bytes(&want) {
        Ok(s) => {
            if s.to_bytes().as_ref() != want.as_slice() {
                first.push("Signature::from_bytes(expected).to_bytes() does not round-trip".into());
            }
        }
        Err(e) => first.push(format!(
            "Signature::from_bytes(expected signature) returned Err({e:?})"
        )),
    }
    first.extend(errs);
    if first.is_empty() {
        Ok(())
    } else {
        Err(first.join("; "))
    }
}

pub(crate) fn run_siggen(
    folder: &'static str,
    revision: &str,
    expected_total: usize,
    expected_kinds: usize,
) {
    let mut report = Report::new(folder);
    let vf = load(folder, &mut report);
    assert_eq!(vf.prompt["mode"], "sigGen", "{folder}: mode");
    assert_eq!(vf.prompt["revision"], revision, "{folder}: revision");
    let tr1 = revision == "FIPS204-tr1";
    for g in groups(&vf) {
        let ps = g["parameterSet"].as_str().expect("parameterSet");
        let tg = &g["tgId"];
        let interface = match Interface::from_group(g) {
            Ok(i) => i,
            Err(e) => {
                report.fail(format!("tgId {tg}: {e}"));
                continue;
            }
        };
        let Some(deterministic) = bool_value(&g["deterministic"]) else {
            report.fail(format!(
                "tgId {tg}: bad `deterministic` {:?}",
                g["deterministic"]
            ));
            continue;
        };
        let key_format = match (tr1, g["keyFormat"].as_str()) {
            (false, None) => KeyFormat::Expanded,
            (true, Some("seed")) => KeyFormat::Seed,
            (true, Some("expanded")) => KeyFormat::Expanded,
            (_, other) => {
                report.fail(format!("tgId {tg}: unexpected keyFormat {other:?}"));
                continue;
            }
        };
        let kind = format!(
            "{}{}/{}",
            match (tr1, key_format) {
                (false, _) => "",
                (true, KeyFormat::Seed) => "seed/",
                (true, KeyFormat::Expanded) => "expanded/",
            },
            interface.name(),
            if deterministic {
                "deterministic"
            } else {
                "hedged"
            }
        );
        let group = SigGenGroup {
            interface,
            deterministic,
            key_format,
        };
        let mut n = 0;
        for t in tests(g) {
            let id = tc_id(t);
            let Some(exp) = vf.expected.get(&id) else {
                report.fail(format!("tcId {id}: no expected result"));
                continue;
            };
            n += 1;
            report.count(ps, &kind);
            let mut notes = Vec::new();
            let r = guarded(|| dispatch!(ps, siggen_case(&group, t, exp, &mut notes)));
            for note in notes {
                report.note(note);
            }
            if let Err(e) = r {
                report.fail(format!("tcId {id} (tgId {tg}, {ps}, {kind}): {e}"));
            }
        }
        if n == 0 {
            report.fail(format!("tgId {tg} ({ps}, {kind}): zero cases"));
        }
    }
    report.finish(expected_total, expected_kinds);
}

#[test]
fn acvp_siggen() {
    run_siggen("ML-DSA-sigGen-FIPS204", "FIPS204", 360, 8);
}

#[test]
fn acvp_siggen_tr1() {
    run_siggen("ML-DSA-sigGen-FIPS204-tr1", "FIPS204-tr1", 720, 16);
}
