//! ACVP keyGen: every case of the keyGen file.

use crate::common::hex_array;
use mldsa::{MlDsa44, MlDsa65, MlDsa87, ParameterSet, SigningKey, VerifyingKey};
use serde_json::Value;

use crate::harness::*;

// ---------------------------------------------------------------------------------------------
// keyGen
// ---------------------------------------------------------------------------------------------

pub(crate) fn keygen_case<P: ParameterSet>(t: &Value, exp: &Value) -> Result<(), String> {
    let seed: [u8; 32] = hex_array(str_field(t, "seed")?, "seed");
    let want_pk = hex_field(exp, "pk")?;
    let want_sk = hex_field(exp, "sk")?;
    if want_pk.len() != P::PK_LEN || want_sk.len() != P::SK_LEN {
        return Err(format!(
            "vector lengths pk {} sk {} do not match {} PK_LEN {} SK_LEN {}",
            want_pk.len(),
            want_sk.len(),
            P::NAME,
            P::PK_LEN,
            P::SK_LEN
        ));
    }
    let sk = SigningKey::<P>::from_seed(&seed);
    let mut errs = Vec::new();
    if let Err(e) = check_eq("pk", sk.verifying_key().to_bytes().as_ref(), &want_pk) {
        errs.push(e);
    }
    if let Err(e) = check_eq("sk", sk.to_expanded_bytes().as_ref(), &want_sk) {
        errs.push(e);
    }
    // Decoding the expected encodings must succeed and round-trip.
    match SigningKey::<P>::from_expanded(&want_sk) {
        Ok(sk2) => {
            if let Err(e) = check_eq(
                "from_expanded(sk).to_expanded_bytes()",
                sk2.to_expanded_bytes().as_ref(),
                &want_sk,
            ) {
                errs.push(e);
            }
            if let Err(e) = check_eq(
                "from_expanded(sk).verifying_key()",
                sk2.verifying_key().to_bytes().as_ref(),
                &want_pk,
            ) {
                errs.push(e);
            }
        }
        Err(e) => errs.push(format!(
            "SigningKey::from_expanded(expected sk) returned Err({e:?})"
        )),
    }
    match VerifyingKey::<P>::from_bytes(&want_pk) {
        Ok(vk) => {
            if let Err(e) = check_eq(
                "VerifyingKey::from_bytes(pk).to_bytes()",
                vk.to_bytes().as_ref(),
                &want_pk,
            ) {
                errs.push(e);
            }
        }
        Err(e) => errs.push(format!(
            "VerifyingKey::from_bytes(expected pk) returned Err({e:?})"
        )),
    }
    if errs.is_empty() {
        Ok(())
    } else {
        Err(errs.join("; "))
    }
}

#[test]
fn acvp_keygen() {
    let mut report = Report::new("ML-DSA-keyGen-FIPS204");
    let vf = load("ML-DSA-keyGen-FIPS204", &mut report);
    assert_eq!(vf.prompt["mode"], "keyGen");
    for g in groups(&vf) {
        let ps = g["parameterSet"].as_str().expect("parameterSet");
        let tg = &g["tgId"];
        let mut n = 0;
        for t in tests(g) {
            let id = tc_id(t);
            let Some(exp) = vf.expected.get(&id) else {
                report.fail(format!("tcId {id}: no expected result"));
                continue;
            };
            n += 1;
            report.count(ps, "keyGen");
            if let Err(e) = guarded(|| dispatch!(ps, keygen_case(t, exp))) {
                report.fail(format!("tcId {id} (tgId {tg}, {ps}): {e}"));
            }
        }
        if n == 0 {
            report.fail(format!("tgId {tg} ({ps}): zero cases"));
        }
    }
    report.finish(75, 1);
}
