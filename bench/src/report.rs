//! The report: a markdown table on stdout and the same numbers as JSON.

use crate::batch::BatchRow;
use crate::measure::{Stats, Summary};
use crate::peers::{self, Lib, ParamSet, Scheme};
use crate::profile::{KernelCosts, ProfileRow};
use crate::stack::{self, StackRow};
use crate::{Op, Row, What};
use mldsa::profile::{Category, Kernel};
use serde_json::{Value, json};
use std::fmt::Write as _;

/// `writeln!` / `write!` into a String, which cannot fail.
macro_rules! out {
    ($o:expr) => {{
        let _ = writeln!($o);
    }};
    ($o:expr, $($a:tt)*) => {{
        let _ = writeln!($o, $($a)*);
    }};
}
macro_rules! put {
    ($o:expr, $($a:tt)*) => {{
        let _ = write!($o, $($a)*);
    }};
}

/// Everything measured.
pub struct Results {
    /// Nanoseconds that forcing the portable backend and restoring it add to an operation.
    pub portable_switch_ns: f64,
    /// The latency rows: every library (and mldsa-only operations), one core.
    pub rows: Vec<Row>,
    /// mldsa's batch throughput, one thread vs all cores.
    pub batch: Vec<BatchRow>,
    /// mldsa's peak stack per operation and backend.
    pub stack: Vec<StackRow>,
    /// Where mldsa's time goes, per set and operation.
    pub profile: Vec<ProfileRow>,
    /// The kernel costs behind it (ns per call), per set.
    pub kernel_costs: Vec<KernelCosts>,
}

/// About the run as a whole.
pub struct Meta {
    date: String,
    /// How to repeat the run (from bench/), with this run's arguments.
    command: String,
    /// The backend of each mldsa column.
    backends: String,
    mode: &'static str,
    seconds: f64,
    cpu_model: String,
    cpu: usize,
    tsc_ghz: f64,
    /// What the CPU offers, and whether the Rust code was compiled to use AVX-512.
    simd: String,
    mldsa_revision: String,
    /// The Rust target CPU and the C flags the benchmark was built with.
    build: String,
}

impl Meta {
    pub fn collect(rows: &[Row], cpu: usize, quick: bool, seconds: f64) -> Meta {
        // TSC ticks per nanosecond over every sample taken.
        let (ticks, micros) = rows.iter().fold((0.0, 0.0), |(t, u), r| {
            let n = r.stats.n as f64;
            (t + r.stats.cycles.mean * n, u + r.stats.micros.mean * n)
        });
        let repo = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
        let rev = command_output("git", &["-C", repo, "rev-parse", "--short", "HEAD"]);
        let changes = command_output(
            "git",
            &["-C", repo, "status", "--porcelain", "--", "crates"],
        );
        let mut mldsa_revision = rev.unwrap_or_else(|| "unknown".into());
        if changes.is_some_and(|c| !c.is_empty()) {
            mldsa_revision += " + uncommitted changes";
        }
        let args: Vec<String> = std::env::args().skip(1).collect();
        // The environment that changes the build (an AVX2-only build sets these: README).
        let env: String = ["RUSTFLAGS", "CFLAGS", "CARGO_TARGET_DIR"]
            .iter()
            .filter_map(|v| Some(format!("{v}=\"{}\" ", std::env::var(v).ok()?)))
            .collect();
        let mut command = format!("cd bench && {env}cargo run --release");
        if !args.is_empty() {
            command += &format!(" -- {}", args.join(" "));
        }
        let default = format!("{:?}", mldsa::backend::active_backend()).to_lowercase();
        Meta {
            date: command_output("date", &["-u", "+%Y-%m-%dT%H:%M:%SZ"]).unwrap_or_default(),
            command,
            backends: format!(
                "column mldsa: the {default} backend (the default on this CPU); column \
                 mldsa (portable): the portable one, forced around each operation{}",
                if default == "avx512" {
                    "; column mldsa (avx2): the AVX2 kernels without their AVX-512 variants, \
                     forced around each operation (built for the target CPU below: with `native` \
                     on a CPU with AVX-512, LLVM may still encode them with AVX-512 instructions)"
                } else {
                    ""
                }
            ),
            mode: if quick { "quick" } else { "full" },
            seconds,
            cpu_model: std::fs::read_to_string("/proc/cpuinfo")
                .ok()
                .and_then(|s| {
                    Some(
                        s.lines()
                            .find(|l| l.starts_with("model name"))?
                            .split(':')
                            .nth(1)?
                            .trim()
                            .to_owned(),
                    )
                })
                .unwrap_or_else(|| "unknown".into()),
            cpu,
            tsc_ghz: ticks / (micros * 1e3).max(1.0),
            simd: format!(
                "CPU has AVX2: {}, AVX-512F: {}; Rust code compiled with AVX-512F: {}",
                yes(std::arch::is_x86_feature_detected!("avx2")),
                yes(std::arch::is_x86_feature_detected!("avx512f")),
                yes(cfg!(target_feature = "avx512f")),
            ),
            mldsa_revision,
            build: format!(
                "built with -C target-cpu={}; C code with CFLAGS={}",
                env!("BENCH_TARGET_CPU"),
                env!("BENCH_CFLAGS")
            ),
        }
    }
}

fn yes(b: bool) -> &'static str {
    if b { "yes" } else { "no" }
}

fn command_output(cmd: &str, args: &[&str]) -> Option<String> {
    let out = std::process::Command::new(cmd).args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_owned())
}

/// The crate version pinned (`version = "=X"`) in bench/Cargo.toml; "path" for mldsa.
fn version(lib: &Lib) -> &'static str {
    let pin = include_str!("../Cargo.toml")
        .lines()
        .find(|l| l.starts_with(&format!("{} =", lib.krate)));
    pin.and_then(|l| l.split("version = \"=").nth(1)?.split('"').next())
        .unwrap_or("path")
}

/// The number libraries are compared by: the mean for signing, else the median (µs).
fn key_value(op: Op, s: &Stats) -> f64 {
    if op.by_mean() {
        s.micros.mean
    } else {
        s.micros.median
    }
}

fn find<'a>(rows: &'a [Row], ps: ParamSet, what: What, lib: &str) -> Option<&'a Row> {
    rows.iter()
        .find(|r| r.ps == ps && r.what == what && r.lib == lib)
}

/// mldsa against the fastest peer: (that peer, mldsa's value, the peer's value, mldsa / peer).
fn ratio(rows: &[Row], ps: ParamSet, op: Op) -> Option<(&'static str, f64, f64, f64)> {
    let value = |r: &Row| key_value(op, &r.stats);
    let here = rows
        .iter()
        .filter(|r| r.ps == ps && r.what == What::Common(op));
    let mine = value(find(rows, ps, What::Common(op), "mldsa")?);
    let best = here
        .filter(|r| peers::is_peer(r.lib))
        .min_by(|a, b| value(a).total_cmp(&value(b)))?;
    Some((best.lib, mine, value(best), mine / value(best)))
}

/// mldsa's portable backend against fips204, the fastest pure-Rust peer:
/// (portable's value, fips204's value, portable / fips204).
fn portable_ratio(rows: &[Row], ps: ParamSet, op: Op) -> Option<(f64, f64, f64)> {
    let value = |lib| Some(key_value(op, &find(rows, ps, What::Common(op), lib)?.stats));
    let mine = value(peers::mldsa::PORTABLE_LIB.name)?;
    let theirs = value(PURE_RUST_PEER)?;
    Some((mine, theirs, mine / theirs))
}

/// The peer the portable backend is compared to.
const PURE_RUST_PEER: &str = "fips204";

fn size_name(b: usize) -> String {
    match b {
        b if b >= 1 << 20 => format!("{} MiB", b >> 20),
        b if b >= 1 << 10 => format!("{} KiB", b >> 10),
        b => format!("{b} B"),
    }
}

pub fn markdown(meta: &Meta, libs: &[&Lib], legacy_libs: &[&Lib], results: &Results) -> String {
    let rows = &results.rows;
    let mut o = String::new();
    out!(o, "# ML-DSA benchmark: mldsa vs peers\n");
    out!(
        o,
        "- date: {} ({} run, {:.0} s of measuring)",
        meta.date,
        meta.mode,
        meta.seconds
    );
    out!(o, "- command: `{}`", meta.command);
    out!(
        o,
        "- machine: {}, pinned to CPU {}, TSC {:.2} GHz (cycles = TSC ticks)",
        meta.cpu_model,
        meta.cpu,
        meta.tsc_ghz
    );
    out!(o, "- {}", meta.simd);
    out!(o, "- mldsa: {}; {}", meta.mldsa_revision, meta.backends);
    out!(o, "- {}", meta.build);
    out!(
        o,
        "- legacy CRYSTALS-Dilithium round 3 (v3.1): its own section at the end\n"
    );

    out!(o, "## Summary\n");
    out!(
        o,
        "µs per operation: median, except sign: mean. Ratio = mldsa / fastest peer (below 1: mldsa is faster); \
         \"mldsa (portable)\" is mldsa on its portable backend, not a peer, and is compared with \
         {PURE_RUST_PEER}, the fastest pure-Rust peer, in the last column (switching to it and \
         back adds {:.1} ns to each of its samples). Warm mldsa rows use prepared keys (made \
         once before timing); cold rows import the encoded key each time.",
        results.portable_switch_ns
    );
    out!(
        o,
        "\\* hedged signing / keygen from the library's own randomness (it has no deterministic / seeded variant).\n"
    );
    summary_table(&mut o, libs, rows, &ParamSet::ALL);

    out!(o, "\n## mldsa only\n");
    out!(
        o,
        "Streaming API (message_signer / message_verifier, {} KiB updates, deterministic signing), \
             and signing from an expanded key imported without the consistency check.\n",
        peers::mldsa::CHUNK >> 10
    );
    only_table(&mut o, rows, false);

    out!(o, "\n## Batch throughput (mldsa, all cores)\n");
    out!(
        o,
        "Signatures per second for N distinct messages under one key: one by one on one thread, \
         against `mldsa::batch` on a rayon pool of every allowed core (its threads not pinned). \
         verify: `PreparedVerifyingKey::verify` in a loop vs `PreparedVerifyingKey::verify_batch`; \
         sign: `sign_deterministic` vs `sign_batch_deterministic`, with a prepared signing key. \
         Median time of the repetitions, the two sides alternating; \"best pair\" is the highest \
         scaling of one (one thread, batch) pair of repetitions, what the code reaches when the \
         host really gives it both cores (on a shared VM host the second core comes and goes).\n"
    );
    batch_table(&mut o, &results.batch);

    out!(o, "\n## Peak stack (mldsa)\n");
    out!(
        o,
        "Bytes of stack each operation used at its deepest, by stack painting on a fresh thread \
         (the measuring code's own frames subtracted), on each backend. Key objects are made \
         before (prepared keys keep A-hat on the heap); \"cold\" includes the key import.\n"
    );
    stack_table(&mut o, &results.stack);

    out!(o, "\n## Where the time goes (mldsa)\n");
    out!(
        o,
        "mldsa on its default backend ({}): µs per operation (median; signing: mean, and per \
         attempt of the rejection loop = per signature / mean attempts) and the share of each \
         group of kernels. Calls of every kernel are counted during the operation (mldsa's \
         `profile` feature, `mldsa::profile`); each kernel is timed alone on the same backend \
         (its own work, without the counted kernels it calls); share = calls x cost / whole. \
         \"other\" is the rest (allocation, copies, zeroisation, the driver code). Check: the \
         kernels' sum must not exceed the whole operation by more than 10 %. Costs of each kernel \
         are in the JSON (`profile_kernels`).\n",
        format!("{:?}", mldsa::backend::active_backend()).to_lowercase()
    );
    profile_table(&mut o, &results.profile);

    out!(o, "\n## Details\n");
    details_table(&mut o, rows, false);

    out!(o, "\n## Libraries\n");
    libraries_table(&mut o, libs, peers::EXCLUDED, "not built");

    out!(o, "\n## Legacy: CRYSTALS-Dilithium round 3 (v3.1)\n");
    out!(
        o,
        "Pre-FIPS 204 Dilithium (specification v3.1, February 2021), for existing deployments: \
         mldsa's `legacy` module against the crates that implement v3.1 itself. Its keys and \
         signatures are not ML-DSA's. Same method as above: one v3.1 key pair per set, made by \
         mldsa from a fixed seed and shared in the v3.1 encodings; the same 32-byte messages; \
         no context (v3.1 has none). Deterministic signing is v3.1's default mode; \\* marks \
         randomized signing (v3.1's optional mode) / keygen from the library's own randomness. \
         Before timing, every library's signatures are checked as for ML-DSA (accepted by mldsa \
         and by itself, mldsa's accepted, a corrupted one rejected, deterministic ones equal to \
         mldsa's byte for byte), and seeded keygen must give mldsa's key pair. The AES sets \
         (Dilithium2-AES and so on, v3.1 section 5.3: AES-256-CTR instead of SHAKE behind \
         ExpandA, ExpandS and ExpandMask) are measured for mldsa only, beside its SHAKE rows: \
         the peers here are built with the SHAKE sets.\n"
    );
    out!(
        o,
        "µs per operation: median, except sign: mean. Ratio = mldsa / fastest peer (below 1: mldsa is faster).\n"
    );
    summary_table(&mut o, legacy_libs, rows, &ParamSet::LEGACY);
    out!(o, "\n### Legacy: mldsa only\n");
    out!(
        o,
        "Signing from a v3.1 secret key imported by `from_bytes_unverified` (ranges of s1 and s2 \
         only): the difference to \"sign (cold)\" is what `from_bytes`'s consistency check costs.\n"
    );
    only_table(&mut o, rows, true);
    out!(o, "\n### Legacy: details\n");
    details_table(&mut o, rows, true);
    out!(o, "\n### Legacy: libraries\n");
    libraries_table(&mut o, legacy_libs, peers::LEGACY_EXCLUDED, "not included");
    o
}

/// The summary of `sets`: one column per library, the key value of each operation.
fn summary_table(o: &mut String, libs: &[&Lib], rows: &[Row], sets: &[ParamSet]) {
    put!(o, "| set | op |");
    for l in libs {
        put!(o, " {} |", l.name);
    }
    // The portable column's ratio, where both it and the pure-Rust peer ran (ML-DSA sets).
    let with_portable = [peers::mldsa::PORTABLE_LIB.name, PURE_RUST_PEER]
        .iter()
        .all(|n| libs.iter().any(|l| l.name == *n));
    put!(o, " fastest peer | mldsa / fastest |");
    if with_portable {
        put!(o, " portable / {PURE_RUST_PEER} |");
    }
    out!(o);
    put!(o, "|---|---|{}---|---:|", "---:|".repeat(libs.len()));
    out!(o, "{}", if with_portable { "---:|" } else { "" });
    for &ps in sets {
        for op in Op::ALL {
            put!(o, "| {} | {} |", ps.name(), op.name());
            for lib in libs {
                let star = match op {
                    Op::Keygen if !lib.seeded_keygen => "\\*",
                    Op::Sign | Op::SignCold if !lib.deterministic => "\\*",
                    _ => "",
                };
                match find(rows, ps, What::Common(op), lib.name) {
                    Some(r) => put!(o, " {:.1}{star} |", key_value(op, &r.stats)),
                    None => put!(o, " - |"),
                }
            }
            match ratio(rows, ps, op) {
                Some((best, _, _, ratio)) => put!(o, " {best} | {ratio:.2} |"),
                None => put!(o, " - | - |"),
            }
            match portable_ratio(rows, ps, op) {
                Some((_, _, ratio)) if with_portable => out!(o, " {ratio:.2} |"),
                _ if with_portable => out!(o, " - |"),
                _ => out!(o),
            }
        }
    }
}

/// The mldsa-only rows of the ML-DSA sets, or of the legacy ones.
fn only_table(o: &mut String, rows: &[Row], legacy: bool) {
    out!(
        o,
        "| set | op | message | n | min µs | median µs | mean µs | max µs | MiB/s (median) |"
    );
    out!(o, "|---|---|---:|---:|---:|---:|---:|---:|---:|");
    for r in rows.iter().filter(|r| r.ps.is_legacy() == legacy) {
        let What::MldsaOnly(op, bytes) = r.what else {
            continue;
        };
        let s = &r.stats.micros;
        let rate = if op.starts_with("stream") {
            format!("{:.0}", bytes as f64 / s.median / 1.048_576)
        } else {
            "-".into()
        };
        out!(
            o,
            "| {} | {op} | {} | {} | {:.1} | {:.1} | {:.1} | {:.1} | {rate} |",
            r.ps.name(),
            size_name(bytes),
            r.stats.n,
            s.min,
            s.median,
            s.mean,
            s.max
        );
    }
}

/// mldsa's batch throughput: one thread vs all cores.
fn batch_table(o: &mut String, batch: &[BatchRow]) {
    out!(
        o,
        "| set | op | N | threads | reps | one thread /s | batch /s | scaling | best pair |"
    );
    out!(o, "|---|---|---:|---:|---:|---:|---:|---:|---:|");
    for b in batch {
        out!(
            o,
            "| {} | {} | {} | {} | {} | {:.0} | {:.0} | {:.2}x | {:.2}x |",
            b.ps.name(),
            b.op,
            b.n,
            b.threads,
            b.reps,
            b.serial_per_s,
            b.batch_per_s,
            b.scaling(),
            b.best_pair_scaling()
        );
    }
}

/// mldsa's peak stack: one row per (set, operation), one column per backend.
fn stack_table(o: &mut String, stack: &[StackRow]) {
    let mut backends: Vec<&str> = Vec::new();
    for r in stack {
        if !backends.contains(&r.backend.as_str()) {
            backends.push(&r.backend);
        }
    }
    put!(o, "| set | op |");
    for b in &backends {
        put!(o, " {b} (bytes) |");
    }
    out!(o);
    out!(o, "|---|---|{}", "---:|".repeat(backends.len()));
    let mut seen: Vec<(ParamSet, &str)> = Vec::new();
    for r in stack {
        if seen.contains(&(r.ps, r.op)) {
            continue;
        }
        seen.push((r.ps, r.op));
        put!(o, "| {} | {} |", r.ps.name(), r.op);
        for b in &backends {
            let cell = stack
                .iter()
                .find(|x| x.ps == r.ps && x.op == r.op && x.backend == *b);
            match cell.map(|x| x.bytes) {
                Some(Some(bytes)) => put!(o, " {bytes} |"),
                Some(None) => put!(o, " > {} |", stack::PAINTED),
                None => put!(o, " - |"),
            }
        }
        out!(o);
    }
}

/// Every common operation of every library, of the ML-DSA sets or of the legacy ones.
fn details_table(o: &mut String, rows: &[Row], legacy: bool) {
    out!(
        o,
        "| set | op | library | n | reruns | min µs | median µs | mean µs | max µs | min cyc | median cyc | mean cyc | max cyc |"
    );
    out!(
        o,
        "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    );
    for r in rows.iter().filter(|r| r.ps.is_legacy() == legacy) {
        let What::Common(op) = r.what else { continue };
        let (u, c) = (&r.stats.micros, &r.stats.cycles);
        out!(
            o,
            "| {} | {} | {} | {} | {} | {:.1} | {:.1} | {:.1} | {:.1} | {:.0} | {:.0} | {:.0} | {:.0} |",
            r.ps.name(),
            op.name(),
            r.lib,
            r.stats.n,
            r.stats.reruns,
            u.min,
            u.median,
            u.mean,
            u.max,
            c.min,
            c.median,
            c.mean,
            c.max
        );
    }
}

/// The libraries run, then those left out (`why_out`: "not built", ...) with the reason.
fn libraries_table(o: &mut String, libs: &[&Lib], excluded: &[(&str, &str)], why_out: &str) {
    out!(o, "| library | crate | keygen | signing | warm / cold |");
    out!(o, "|---|---|---|---|---|");
    for l in libs {
        let keygen = if l.seeded_keygen {
            "from seed"
        } else {
            "random"
        };
        let signing = if l.deterministic {
            "deterministic"
        } else {
            "hedged"
        };
        out!(
            o,
            "| {} | {} {} | {keygen} | {signing} | {} |",
            l.name,
            l.krate,
            version(l),
            l.note
        );
    }
    for (name, why) in excluded {
        out!(o, "| {name} | {why_out} | | | {why} |");
    }
}

/// The "where the time goes" table: one row per set and operation.
fn profile_table(o: &mut String, rows: &[ProfileRow]) {
    let mut head = String::from("| set | op | µs |");
    let mut rule = String::from("|---|---|---:|");
    for c in Category::ALL {
        put!(head, " {} |", c.name());
        rule.push_str("---:|");
    }
    out!(o, "{head} other | kernels / whole |");
    out!(o, "{rule}---:|---|");
    for r in rows {
        let mut line = format!("| {} | {} | {:.1} |", r.ps.name(), r.op, r.whole_us);
        for part in r.parts_us {
            put!(line, " {:.0} % |", 100.0 * part / r.whole_us);
        }
        let coverage = r.coverage();
        out!(
            o,
            "{line} {:.0} % | {:.0} % {} |",
            100.0 * (1.0 - coverage),
            100.0 * coverage,
            if r.check_ok() { "ok" } else { "**over 110 %**" }
        );
    }
}

pub fn json(meta: &Meta, libs: &[&Lib], legacy_libs: &[&Lib], results: &Results) -> Value {
    let rows = &results.rows;
    let summary =
        |s: &Summary| json!({"min": s.min, "median": s.median, "mean": s.mean, "max": s.max});
    let results_json: Vec<Value> = rows
        .iter()
        .map(|r| {
            let (op, bytes) = match r.what {
                What::Common(op) => (op.name(), 32),
                What::MldsaOnly(op, bytes) => (op, bytes),
            };
            json!({
                "scheme": r.ps.scheme().id(),
                "param_set": r.ps.name(), "op": op, "library": r.lib, "message_bytes": bytes,
                "mldsa_only": matches!(r.what, What::MldsaOnly(..)),
                "n": r.stats.n, "reruns": r.stats.reruns,
                "us": summary(&r.stats.micros), "cycles": summary(&r.stats.cycles),
            })
        })
        .collect();
    let ratios: Vec<Value> = ParamSet::ALL
        .into_iter()
        .chain(ParamSet::LEGACY)
        .flat_map(|ps| Op::ALL.map(|op| (ps, op)))
        .filter_map(|(ps, op)| {
            let (best, mine, theirs, ratio) = ratio(rows, ps, op)?;
            Some(json!({
                "scheme": ps.scheme().id(),
                "param_set": ps.name(), "op": op.name(),
                "compared_by": if op.by_mean() { "mean" } else { "median" },
                "mldsa_us": mine, "fastest_peer": best, "fastest_peer_us": theirs, "ratio": ratio,
            }))
        })
        .collect();
    let profile: Vec<Value> = results
        .profile
        .iter()
        .map(|r| {
            let parts: serde_json::Map<String, Value> = Category::ALL
                .iter()
                .zip(r.parts_us)
                .map(|(c, us)| (c.name().to_string(), json!(us)))
                .collect();
            json!({
                "param_set": r.ps.name(), "op": r.op, "n": r.n, "whole_us": r.whole_us,
                "attempts": r.attempts, "parts_us": parts,
                "other_us": r.whole_us - r.parts_us.iter().sum::<f64>(),
                "coverage": r.coverage(), "check_ok": r.check_ok(),
            })
        })
        .collect();
    let profile_kernels: Vec<Value> = results
        .kernel_costs
        .iter()
        .map(|k| {
            let ns: serde_json::Map<String, Value> = Kernel::ALL
                .iter()
                .map(|&kernel| (format!("{kernel:?}"), json!(k.ns[kernel as usize])))
                .collect();
            json!({"param_set": k.ps.name(), "ns_per_call": ns})
        })
        .collect();
    let portable_ratios: Vec<Value> = ParamSet::ALL
        .into_iter()
        .flat_map(|ps| Op::ALL.map(|op| (ps, op)))
        .filter_map(|(ps, op)| {
            let (mine, theirs, ratio) = portable_ratio(rows, ps, op)?;
            Some(json!({
                "scheme": ps.scheme().id(),
                "param_set": ps.name(), "op": op.name(),
                "compared_by": if op.by_mean() { "mean" } else { "median" },
                "portable_us": mine, "peer": PURE_RUST_PEER, "peer_us": theirs, "ratio": ratio,
            }))
        })
        .collect();
    let batch: Vec<Value> = results
        .batch
        .iter()
        .map(|b| {
            json!({
                "scheme": b.ps.scheme().id(), "param_set": b.ps.name(), "op": b.op,
                "n": b.n, "threads": b.threads, "reps": b.reps,
                "serial_per_s": b.serial_per_s, "batch_per_s": b.batch_per_s,
                "scaling": b.scaling(), "pair_scaling": b.pair_scaling,
            })
        })
        .collect();
    let stack: Vec<Value> = results
        .stack
        .iter()
        .map(|r| {
            json!({
                "scheme": r.ps.scheme().id(), "param_set": r.ps.name(), "op": r.op,
                "backend": r.backend, "bytes": r.bytes,
                "exceeds_bytes": r.bytes.is_none().then_some(stack::PAINTED),
            })
        })
        .collect();
    let scheme_libs = [(Scheme::MlDsa, libs), (Scheme::DilithiumR3, legacy_libs)];
    let libraries: Vec<Value> = scheme_libs
        .iter()
        .flat_map(|(scheme, libs)| libs.iter().map(move |l| (scheme, l)))
        .map(|(scheme, l)| {
            json!({
                "scheme": scheme.id(),
                "name": l.name, "crate": l.krate, "version": version(l),
                "keygen": if l.seeded_keygen { "seed" } else { "random" },
                "signing": if l.deterministic { "deterministic" } else { "hedged" },
                "note": l.note,
            })
        })
        .collect();
    let excluded: Vec<Value> = [
        (Scheme::MlDsa, peers::EXCLUDED),
        (Scheme::DilithiumR3, peers::LEGACY_EXCLUDED),
    ]
    .into_iter()
    .flat_map(|(scheme, ex)| ex.iter().map(move |e| (scheme, e)))
    .map(|(scheme, (n, why))| json!({"scheme": scheme.id(), "name": n, "reason": why}))
    .collect();
    json!({
        "meta": {
            "date": meta.date, "mode": meta.mode, "seconds": meta.seconds,
            "command": meta.command, "mldsa_backends": meta.backends,
            "portable_switch_ns": results.portable_switch_ns,
            "cpu_model": meta.cpu_model, "pinned_cpu": meta.cpu, "tsc_ghz": meta.tsc_ghz, "simd": meta.simd,
            "build": meta.build,
            "mldsa_revision": meta.mldsa_revision, "stream_chunk_bytes": peers::mldsa::CHUNK,
            "schemes": {
                "ml-dsa": "ML-DSA (FIPS 204)",
                "dilithium-round3": "CRYSTALS-Dilithium round 3, specification v3.1 (legacy, pre-FIPS 204)",
            },
        },
        "libraries": libraries,
        "excluded": excluded,
        "ratios": ratios,
        "portable_ratios": portable_ratios,
        "batch": batch,
        "stack": stack,
        "profile": profile,
        "profile_kernels": profile_kernels,
        "results": results_json,
    })
}
