//! Bookkeeping shared by every vector file: the per-file `Report`, loading a vector file
//! with its expected results, field accessors, panic capture and the `dispatch!` macro.

use std::collections::{BTreeMap, HashMap};
use std::panic::{AssertUnwindSafe, catch_unwind};

use crate::common::{describe_diff, hex_decode, read_vector_file};
use serde_json::Value;

// ---------------------------------------------------------------------------------------------
// Bookkeeping
// ---------------------------------------------------------------------------------------------

/// Case counts and failures for one vector file.
pub(crate) struct Report {
    pub(crate) file: &'static str,
    pub(crate) failures: Vec<String>,
    pub(crate) per_param: BTreeMap<String, usize>,
    pub(crate) per_kind: BTreeMap<String, usize>,
    pub(crate) per_param_kind: BTreeMap<(String, String), usize>,
    pub(crate) notes: BTreeMap<String, usize>,
    pub(crate) total: usize,
}

impl Report {
    pub(crate) fn new(file: &'static str) -> Self {
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

    pub(crate) fn fail(&mut self, msg: String) {
        self.failures.push(msg);
    }

    pub(crate) fn note(&mut self, what: &str) {
        *self.notes.entry(what.to_string()).or_default() += 1;
    }

    pub(crate) fn count(&mut self, param: &str, kind: &str) {
        self.total += 1;
        *self.per_param.entry(param.to_string()).or_default() += 1;
        *self.per_kind.entry(kind.to_string()).or_default() += 1;
        *self
            .per_param_kind
            .entry((param.to_string(), kind.to_string()))
            .or_default() += 1;
    }

    /// Prints the counts, checks them against the README and panics with every failure.
    pub(crate) fn finish(mut self, expected_total: usize, expected_kinds: usize) {
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
pub(crate) struct VectorFile {
    pub(crate) prompt: Value,
    /// tcId -> expected-results test object
    pub(crate) expected: HashMap<u64, Value>,
}

pub(crate) fn tc_id(t: &Value) -> u64 {
    match &t["tcId"] {
        Value::Number(n) => n.as_u64().expect("tcId is not an unsigned integer"),
        Value::String(s) => s.parse().expect("tcId string is not an integer"),
        other => panic!("bad tcId {other:?}"),
    }
}

pub(crate) fn load(folder: &str, report: &mut Report) -> VectorFile {
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

pub(crate) fn groups(v: &VectorFile) -> &Vec<Value> {
    v.prompt["testGroups"]
        .as_array()
        .expect("prompt: no testGroups")
}

pub(crate) fn tests(g: &Value) -> &Vec<Value> {
    g["tests"].as_array().expect("prompt: group without tests")
}

pub(crate) fn str_field<'a>(t: &'a Value, name: &str) -> Result<&'a str, String> {
    t[name]
        .as_str()
        .ok_or_else(|| format!("missing string field `{name}`"))
}

pub(crate) fn hex_field(t: &Value, name: &str) -> Result<Vec<u8>, String> {
    Ok(hex_decode(str_field(t, name)?))
}

pub(crate) fn bool_value(v: &Value) -> Option<bool> {
    match v {
        Value::Bool(b) => Some(*b),
        Value::String(s) if s.eq_ignore_ascii_case("true") => Some(true),
        Value::String(s) if s.eq_ignore_ascii_case("false") => Some(false),
        _ => None,
    }
}

/// Runs one case, turning a panic inside the library into an `Err`.
pub(crate) fn guarded(f: impl FnOnce() -> Result<(), String>) -> Result<(), String> {
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

pub(crate) fn check_eq(what: &str, got: &[u8], want: &[u8]) -> Result<(), String> {
    if got == want {
        Ok(())
    } else {
        Err(format!("{what} differs: {}", describe_diff(got, want)))
    }
}

pub(crate) fn err<E: core::fmt::Debug>(what: &'static str) -> impl Fn(E) -> String {
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
