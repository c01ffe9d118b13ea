//! NIST ACVP conformance: every case of every group of every file in `../shared/vectors/acvp`
//! (ACVP-Server v1.1.0.43): keyGen, sigGen (FIPS204), sigGen (FIPS204-tr1) and sigVer.
//!
//! Each file is one `#[test]`. Failures are gathered (tcId + what differed) and reported together
//! at the end of the test rather than stopping at the first one. A library panic inside one case
//! is caught and recorded as a failure of that case.
//!
//! Run with `cargo test -p mldsa --test acvp -- --nocapture` to see the per-file,
//! per-parameter-set and per-group-kind case counts.

mod common;

use std::collections::{BTreeMap, HashMap};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::str::FromStr;

use common::{FixedRng, describe_diff, hex_array, hex_decode, read_vector_file};
use mldsa::{
    MlDsa44, MlDsa65, MlDsa87, ParameterSet, PreHash, PreHashed, Signature, SigningKey,
    VerifyingKey,
};
use serde_json::Value;

// ---------------------------------------------------------------------------------------------
// Bookkeeping
// ---------------------------------------------------------------------------------------------

/// Case counts and failures for one vector file.
struct Report {
    file: &'static str,
    failures: Vec<String>,
    per_param: BTreeMap<String, usize>,
    per_kind: BTreeMap<String, usize>,
    per_param_kind: BTreeMap<(String, String), usize>,
    notes: BTreeMap<String, usize>,
    total: usize,
}

impl Report {
    fn new(file: &'static str) -> Self {
        Report {
            file,
            failures: Vec::new(),
            per_param: BTreeMap::new(),
            per_kind: BTreeMap::new(),
            per_param_kind: BTreeMap::new(),
            notes: BTreeMap::new(),
            total: 0,
        }
    }

    fn fail(&mut self, msg: String) {
        self.failures.push(msg);
    }

    fn note(&mut self, what: &str) {
        *self.notes.entry(what.to_string()).or_default() += 1;
    }

    fn count(&mut self, param: &str, kind: &str) {
        self.total += 1;
        *self.per_param.entry(param.to_string()).or_default() += 1;
        *self.per_kind.entry(kind.to_string()).or_default() += 1;
        *self
            .per_param_kind
            .entry((param.to_string(), kind.to_string()))
            .or_default() += 1;
    }

    /// Prints the counts, checks them against the README and panics with every failure.
    fn finish(mut self, expected_total: usize, expected_kinds: usize) {
        let per_param_expected = expected_total / 3;
        for ps in ["ML-DSA-44", "ML-DSA-65", "ML-DSA-87"] {
            let n = self.per_param.get(ps).copied().unwrap_or(0);
            println!("{} {ps}: {n} cases", self.file);
            if n == 0 {
                self.fail(format!("parameter set {ps}: zero cases"));
            } else if n != per_param_expected {
                self.fail(format!(
                    "parameter set {ps}: {n} cases, README says {per_param_expected}"
                ));
            }
        }
        for (kind, n) in &self.per_kind {
            println!("{} [{kind}]: {n} cases", self.file);
        }
        if expected_kinds > 1 {
            // Every group kind must appear with every parameter set.
            let kinds: Vec<String> = self.per_kind.keys().cloned().collect();
            for ps in ["ML-DSA-44", "ML-DSA-65", "ML-DSA-87"] {
                for kind in &kinds {
                    if !self
                        .per_param_kind
                        .contains_key(&(ps.to_string(), kind.clone()))
                    {
                        self.failures
                            .push(format!("{ps} has no cases of kind [{kind}]"));
                    }
                }
            }
        }
        if self.per_kind.len() != expected_kinds {
            self.failures.push(format!(
                "{} group kinds seen, expected {expected_kinds}: {:?}",
                self.per_kind.len(),
                self.per_kind.keys().collect::<Vec<_>>()
            ));
        }
        for (what, n) in &self.notes {
            println!("{} note: {what}: {n}", self.file);
        }
        println!(
            "{} total: {} cases, {} failures",
            self.file,
            self.total,
            self.failures.len()
        );
        if self.total != expected_total {
            self.failures.push(format!(
                "{} cases run, README says {expected_total}",
                self.total
            ));
        }
        if !self.failures.is_empty() {
            let shown = self.failures.len().min(200);
            panic!(
                "{}: {} failure(s){}:\n  {}",
                self.file,
                self.failures.len(),
                if shown < self.failures.len() {
                    format!(" (first {shown} shown)")
                } else {
                    String::new()
                },
                self.failures[..shown].join("\n  ")
            );
        }
    }
}

/// Parsed prompt + expectedResults of one ACVP folder.
struct VectorFile {
    prompt: Value,
    /// tcId -> expected-results test object
    expected: HashMap<u64, Value>,
}

fn tc_id(t: &Value) -> u64 {
    match &t["tcId"] {
        Value::Number(n) => n.as_u64().expect("tcId is not an unsigned integer"),
        Value::String(s) => s.parse().expect("tcId string is not an integer"),
        other => panic!("bad tcId {other:?}"),
    }
}

fn load(folder: &str, report: &mut Report) -> VectorFile {
    let prompt: Value =
        serde_json::from_str(&read_vector_file(&format!("acvp/{folder}/prompt.json")))
            .expect("prompt.json is not valid JSON");
    let results: Value = serde_json::from_str(&read_vector_file(&format!(
        "acvp/{folder}/expectedResults.json"
    )))
    .expect("expectedResults.json is not valid JSON");
    assert_eq!(prompt["algorithm"], "ML-DSA", "{folder}: algorithm");
    assert_eq!(
        prompt["vsId"], results["vsId"],
        "{folder}: prompt and results have different vsId"
    );
    let mut expected = HashMap::new();
    for g in results["testGroups"]
        .as_array()
        .expect("expectedResults: no testGroups")
    {
        for t in g["tests"]
            .as_array()
            .expect("expectedResults: group without tests")
        {
            let id = tc_id(t);
            if expected.insert(id, t.clone()).is_some() {
                report.fail(format!("expectedResults: duplicate tcId {id}"));
            }
        }
    }
    VectorFile { prompt, expected }
}

fn groups(v: &VectorFile) -> &Vec<Value> {
    v.prompt["testGroups"]
        .as_array()
        .expect("prompt: no testGroups")
}

fn tests(g: &Value) -> &Vec<Value> {
    g["tests"].as_array().expect("prompt: group without tests")
}

fn str_field<'a>(t: &'a Value, name: &str) -> Result<&'a str, String> {
    t[name]
        .as_str()
        .ok_or_else(|| format!("missing string field `{name}`"))
}

fn hex_field(t: &Value, name: &str) -> Result<Vec<u8>, String> {
    Ok(hex_decode(str_field(t, name)?))
}

fn bool_value(v: &Value) -> Option<bool> {
    match v {
        Value::Bool(b) => Some(*b),
        Value::String(s) if s.eq_ignore_ascii_case("true") => Some(true),
        Value::String(s) if s.eq_ignore_ascii_case("false") => Some(false),
        _ => None,
    }
}

/// Runs one case, turning a panic inside the library into an `Err`.
fn guarded(f: impl FnOnce() -> Result<(), String>) -> Result<(), String> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(p) => {
            let msg = p
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "<non-string panic>".into());
            Err(format!("PANIC: {msg}"))
        }
    }
}

fn check_eq(what: &str, got: &[u8], want: &[u8]) -> Result<(), String> {
    if got == want {
        Ok(())
    } else {
        Err(format!("{what} differs: {}", describe_diff(got, want)))
    }
}

fn err<E: core::fmt::Debug>(what: &'static str) -> impl Fn(E) -> String {
    move |e| format!("{what} returned Err({e:?})")
}

/// Dispatches a generic case function on the ACVP `parameterSet` string.
macro_rules! dispatch {
    ($ps:expr, $f:ident ( $($arg:expr),* )) => {
        match $ps {
            "ML-DSA-44" => $f::<MlDsa44>($($arg),*),
            "ML-DSA-65" => $f::<MlDsa65>($($arg),*),
            "ML-DSA-87" => $f::<MlDsa87>($($arg),*),
            other => Err(format!("unknown parameterSet {other:?}")),
        }
    };
}

// ---------------------------------------------------------------------------------------------
// Parameter-set constants
// ---------------------------------------------------------------------------------------------

#[test]
fn parameter_set_constants() {
    fn check<P: ParameterSet>(name: &str, pk: usize, sk: usize, sig: usize) {
        assert_eq!(P::NAME, name);
        assert_eq!(P::PK_LEN, pk, "{name} PK_LEN");
        assert_eq!(P::SK_LEN, sk, "{name} SK_LEN");
        assert_eq!(P::SIG_LEN, sig, "{name} SIG_LEN");
    }
    check::<MlDsa44>("ML-DSA-44", 1312, 2560, 2420);
    check::<MlDsa65>("ML-DSA-65", 1952, 4032, 3309);
    check::<MlDsa87>("ML-DSA-87", 2592, 4896, 4627);
}

#[test]
fn prehash_names_parse() {
    // Every ACVP hashAlg name parses, and Display gives the ACVP name back.
    for name in [
        "SHA2-224",
        "SHA2-256",
        "SHA2-384",
        "SHA2-512",
        "SHA2-512/224",
        "SHA2-512/256",
        "SHA3-224",
        "SHA3-256",
        "SHA3-384",
        "SHA3-512",
        "SHAKE-128",
        "SHAKE-256",
    ] {
        match PreHash::from_str(name) {
            Ok(ph) => assert_eq!(ph.to_string(), name, "PreHash::from_str({name:?}) Display"),
            Err(e) => panic!("PreHash::from_str({name:?}) returned Err({e:?})"),
        }
    }
    // Names that are not hash functions of FIPS 204 are refused. (The library deliberately
    // accepts case variants and the spellings without "2" / hyphen, e.g. "SHA-256".)
    for bad in [
        "",
        "none",
        "SHA2-256x",
        "SHA2-1024",
        "SHAKE-512",
        "SHA1",
        "MD5",
    ] {
        assert!(
            PreHash::from_str(bad).is_err(),
            "PreHash::from_str({bad:?}) should fail"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// keyGen
// ---------------------------------------------------------------------------------------------

fn keygen_case<P: ParameterSet>(t: &Value, exp: &Value) -> Result<(), String> {
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

// ---------------------------------------------------------------------------------------------
// sigGen (FIPS204 and FIPS204-tr1)
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq)]
enum Interface {
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
    fn from_group(g: &Value) -> Result<Self, String> {
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

    fn name(self) -> &'static str {
        match self {
            Interface::Pure => "external/pure",
            Interface::PreHash => "external/preHash",
            Interface::InternalMessage => "internal/message",
            Interface::InternalMu => "internal/externalMu",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum KeyFormat {
    Seed,
    Expanded,
}

struct SigGenGroup {
    interface: Interface,
    deterministic: bool,
    key_format: KeyFormat,
}

/// Independent pre-hash (SHA-2 from the RustCrypto `sha2` crate, a normal dependency of the
/// library) for cross-checking `PreHashed::hash` / `PreHashed::from_digest`. `None` for SHA-3 and
/// SHAKE, for which no independent implementation is at hand; those cases are still covered by
/// the expected signatures (via `PreHashed::hash`) and by the `from_digest(hash(..).digest())`
/// round trip.
fn independent_digest(alg: &str, msg: &[u8]) -> Option<Vec<u8>> {
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
fn digest_len(alg: &str) -> Option<usize> {
    Some(match alg {
        "SHA2-224" | "SHA2-512/224" | "SHA3-224" => 28,
        "SHA2-256" | "SHA2-512/256" | "SHA3-256" | "SHAKE-128" => 32,
        "SHA2-384" | "SHA3-384" => 48,
        "SHA2-512" | "SHA3-512" | "SHAKE-256" => 64,
        _ => return None,
    })
}

/// Signs with the fixed RNG, checking that exactly the 32 bytes of `rnd` were drawn.
fn with_fixed_rng<T>(rnd: &[u8; 32], f: impl FnOnce(&mut FixedRng) -> T) -> Result<T, String> {
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

fn siggen_case<P: ParameterSet>(
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

fn run_siggen(folder: &'static str, revision: &str, expected_total: usize, expected_kinds: usize) {
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

// ---------------------------------------------------------------------------------------------
// sigVer
// ---------------------------------------------------------------------------------------------

/// Returns Ok(accepted?) or Err(test-harness problem).
fn sigver_case<P: ParameterSet>(
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
        Err(_) => {
            notes.push("signature rejected by Signature::from_bytes");
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
