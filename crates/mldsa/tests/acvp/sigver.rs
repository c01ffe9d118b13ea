//! ACVP sigVer: every case of the sigVer file.

use std::str::FromStr;

use crate::common::hex_array;
use mldsa::{MlDsa44, MlDsa65, MlDsa87, ParameterSet, PreHash, PreHashed, Signature, VerifyingKey};
use serde_json::Value;

use crate::harness::*;
use crate::siggen::*;

// ---------------------------------------------------------------------------------------------
// sigVer
// ---------------------------------------------------------------------------------------------

/// Returns Ok(accepted?) or Err(test-harness problem).
pub(crate) fn sigver_case<P: ParameterSet>(
    interface: Interface,
    t: &Value,
    notes: &mut Vec<&'static str>,
) -> Result<bool, String> {
    let pkb = hex_field(t, "pk")?;
    let sigb = hex_field(t, "signature")?;
    let vk = VerifyingKey::<P>::from_bytes(&pkb).map_err(err("VerifyingKey::from_bytes"))?;
    check_eq(
        "VerifyingKey::from_bytes(pk).to_bytes()",
        vk.to_bytes().as_ref(),
        &pkb,
    )?;
    if sigb.len() != P::SIG_LEN {
        return Err(format!(
            "vector signature has {} bytes, SIG_LEN is {}",
            sigb.len(),
            P::SIG_LEN
        ));
    }
    let sig = match Signature::<P>::from_bytes(&sigb) {
        Ok(s) => s,
        Err(e) => {
            notes.push("signature rejected by Signature::from_bytes");
            // The one-shot path decodes the same bytes and must reject them the same way.
            if interface == Interface::Pure {
                let msg = hex_field(t, "message")?;
                let ctx = hex_field(t, "context")?;
                let one_shot = VerifyingKey::<P>::verify_with_bytes(&pkb, &msg, &ctx, &sigb);
                if one_shot != Err(e) {
                    return Err(format!(
                        "Signature::from_bytes says {e:?} but verify_with_bytes says {one_shot:?}"
                    ));
                }
            }
            return Ok(false);
        }
    };
    Ok(match interface {
        Interface::Pure => {
            let msg = hex_field(t, "message")?;
            let ctx = hex_field(t, "context")?;
            let ok = vk.verify(&msg, &ctx, &sig).is_ok();
            // Cross-check: the external-mu path must agree.
            let mu = vk.compute_mu(&msg, &ctx).map_err(err("compute_mu"))?;
            let ok_mu = vk.verify_mu(&mu, &sig).is_ok();
            if ok != ok_mu {
                return Err(format!(
                    "verify says {ok} but verify_mu(compute_mu(..)) says {ok_mu}"
                ));
            }
            // And the one-shot path from the encodings (tr hashed alongside ExpandA).
            let one_shot = VerifyingKey::<P>::verify_with_bytes(&pkb, &msg, &ctx, &sigb).is_ok();
            if ok != one_shot {
                return Err(format!(
                    "verify says {ok} but verify_with_bytes says {one_shot}"
                ));
            }
            ok
        }
        Interface::PreHash => {
            let msg = hex_field(t, "message")?;
            let ctx = hex_field(t, "context")?;
            let alg = str_field(t, "hashAlg")?;
            let ph = PreHash::from_str(alg)
                .map_err(|e| format!("PreHash::from_str({alg:?}) returned Err({e:?})"))?;
            vk.verify_prehashed(&PreHashed::hash(ph, &msg), &ctx, &sig)
                .is_ok()
        }
        Interface::InternalMessage => {
            let m_prime = hex_field(t, "message")?;
            vk.verify_internal(&m_prime, &sig).is_ok()
        }
        Interface::InternalMu => {
            let mu: [u8; 64] = hex_array(str_field(t, "mu")?, "mu");
            vk.verify_mu(&mu, &sig).is_ok()
        }
    })
}

#[test]
fn acvp_sigver() {
    let folder = "ML-DSA-sigVer-FIPS204";
    let mut report = Report::new(folder);
    let vf = load(folder, &mut report);
    assert_eq!(vf.prompt["mode"], "sigVer");
    let (mut valid, mut invalid) = (0usize, 0usize);
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
        let kind = interface.name();
        let mut n = 0;
        for t in tests(g) {
            let id = tc_id(t);
            let Some(exp) = vf.expected.get(&id) else {
                report.fail(format!("tcId {id}: no expected result"));
                continue;
            };
            let Some(want) = bool_value(&exp["testPassed"]) else {
                report.fail(format!("tcId {id}: bad testPassed {:?}", exp["testPassed"]));
                continue;
            };
            if want {
                valid += 1
            } else {
                invalid += 1
            }
            n += 1;
            report.count(ps, kind);
            let mut notes = Vec::new();
            let r = guarded(|| {
                let got = dispatch!(ps, sigver_case(interface, t, &mut notes))?;
                if got == want {
                    Ok(())
                } else if want {
                    Err("valid signature REJECTED (testPassed = true)".into())
                } else {
                    Err("invalid signature ACCEPTED (testPassed = false)".into())
                }
            });
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
    println!("{folder}: {valid} valid, {invalid} invalid");
    if (valid, invalid) != (36, 144) {
        report.fail(format!(
            "{valid} valid / {invalid} invalid, README says 36 / 144"
        ));
    }
    report.finish(180, 4);
}
