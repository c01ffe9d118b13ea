//! Legacy Dilithium v3.1 against an independent implementation: `dilithium-py` 1.5.1 from PyPI
//! (pure Python, by a different author).
//!
//! - Our *randomized* signatures (which no KAT covers) must be accepted by dilithium-py, and a
//!   one-bit change rejected.
//! - dilithium-py's keys and signatures must be accepted by us, its secret keys must import, and
//!   our deterministic signatures with them must be byte-identical to its own.
//!
//! The test installs dilithium-py into `target/pydeps` with pip when it is not importable. Set
//! `MLDSA_OFFLINE=1` to skip it (with a message) on a machine without the package registry.

use mldsa::legacy::{self, Dilithium2, Dilithium3, Dilithium5, DilithiumParameterSet};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::Command;

const PACKAGE: &str = "dilithium-py==1.5.1";

fn pydeps_dir() -> PathBuf {
    // CARGO_TARGET_TMPDIR is inside the target directory, so the install is cached per checkout.
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("pydeps")
}

fn python(args: &[&str]) -> Command {
    let mut cmd = Command::new("python3");
    cmd.args(args).env("PYTHONPATH", pydeps_dir());
    cmd
}

/// Makes `dilithium_py` importable, or returns why it is not (offline skip).
fn ensure_dilithium_py() -> Result<(), String> {
    let importable = |_: ()| {
        python(&["-c", "import dilithium_py"])
            .output()
            .is_ok_and(|o| o.status.success())
    };
    if importable(()) {
        return Ok(());
    }
    if std::env::var_os("MLDSA_OFFLINE").is_some() {
        return Err("MLDSA_OFFLINE is set and dilithium-py is not installed".into());
    }
    let target = pydeps_dir();
    let out = python(&[
        "-m",
        "pip",
        "install",
        "--quiet",
        "--disable-pip-version-check",
    ])
    .args(["--target", target.to_str().unwrap(), PACKAGE])
    .output()
    .expect("python3 must be installed to run the dilithium-py cross-check");
    assert!(
        out.status.success(),
        "pip install {PACKAGE} failed (set MLDSA_OFFLINE=1 to skip):\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        importable(()),
        "dilithium_py still not importable after pip install"
    );
    Ok(())
}

struct Rng(u64);

impl mldsa::rand_core::TryRng for Rng {
    type Error = core::convert::Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        Ok(self.try_next_u64()? as u32)
    }
    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        Ok(self.0)
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        for chunk in dst.chunks_mut(8) {
            let v = self.try_next_u64()?.to_le_bytes();
            chunk.copy_from_slice(&v[..chunk.len()]);
        }
        Ok(())
    }
}

impl mldsa::rand_core::TryCryptoRng for Rng {}

fn level_of<P: DilithiumParameterSet>() -> u64 {
    P::NAME.trim_start_matches("Dilithium").parse().unwrap()
}

fn our_cases<P: DilithiumParameterSet>(rng: &mut Rng, cases: &mut Vec<Value>) {
    for i in 0..4usize {
        let sk = legacy::SigningKey::<P>::generate_with_rng(rng).unwrap();
        let msg: Vec<u8> = (0..i * 29 + 1).map(|j| (j * 7 + i) as u8).collect();
        let sig = sk.sign_randomized_with_rng(rng, &msg).unwrap();
        cases.push(json!({
            "level": level_of::<P>(),
            "pk": hex::encode(sk.verifying_key().as_bytes()),
            "msg": hex::encode(&msg),
            "sig": hex::encode(sig.as_bytes()),
        }));
    }
}

fn check_theirs<P: DilithiumParameterSet>(case: &Value) -> usize {
    let field = |k: &str| hex::decode(case[k].as_str().unwrap()).unwrap();
    let (pk, sk, msg, sig) = (field("pk"), field("sk"), field("msg"), field("sig"));
    let vk = legacy::VerifyingKey::<P>::from_bytes(&pk).unwrap();
    let theirs = legacy::Signature::<P>::from_bytes(&sig).unwrap();
    vk.verify(&msg, &theirs)
        .expect("dilithium-py's signature must verify");
    let ours = legacy::SigningKey::<P>::from_bytes(&sk).expect("dilithium-py's key must import");
    assert_eq!(
        ours.verifying_key().as_bytes(),
        pk.as_slice(),
        "derived public key"
    );
    assert_eq!(
        ours.sign_deterministic(&msg).unwrap().as_bytes(),
        sig.as_slice()
    );
    1
}

#[test]
fn legacy_mode_interoperates_with_dilithium_py() {
    if let Err(why) = ensure_dilithium_py() {
        println!("skipped: {why}");
        return;
    }
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut cases = Vec::new();
    our_cases::<Dilithium2>(&mut rng, &mut cases);
    our_cases::<Dilithium3>(&mut rng, &mut cases);
    our_cases::<Dilithium5>(&mut rng, &mut cases);
    let input = Path::new(env!("CARGO_TARGET_TMPDIR")).join("dilithium_py_cases.json");
    std::fs::write(&input, serde_json::to_vec(&cases).unwrap()).unwrap();

    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/interop/dilithium_py_round3.py");
    let out = python(&[script.to_str().unwrap(), input.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "script failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();

    let verdicts = report["ours"].as_array().unwrap();
    assert_eq!(verdicts.len(), cases.len());
    for (case, v) in cases.iter().zip(verdicts) {
        assert_eq!(
            v["accepted"],
            json!(true),
            "dilithium-py rejected our signature: {case}"
        );
        assert_eq!(
            v["tampered_accepted"],
            json!(false),
            "dilithium-py accepted a tampered one"
        );
    }

    let mut checked = 0;
    for case in report["theirs"].as_array().unwrap() {
        checked += match case["level"].as_u64().unwrap() {
            2 => check_theirs::<Dilithium2>(case),
            3 => check_theirs::<Dilithium3>(case),
            5 => check_theirs::<Dilithium5>(case),
            other => panic!("unexpected level {other}"),
        };
    }
    println!(
        "dilithium-py: accepted {} of our randomized signatures; we accepted and reproduced {checked} of its",
        verdicts.len()
    );
    assert_eq!(checked, 9);
}
