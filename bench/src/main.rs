//! Side-by-side ML-DSA benchmark: mldsa and its peers in one process, interleaved round by round,
//! pinned to one core; then mldsa's batch throughput on all cores and its peak stack. Prints a
//! markdown report and writes JSON. See README.md.

mod batch;
mod hot_loop;
mod measure;
mod peers;
mod profile;
mod report;
mod stack;

use measure::{Series, Stats, round_robin};
use peers::{Keys, Lib, ParamSet, Peer};
use std::time::Instant;

const USAGE: &str = "\
usage (in bench/): cargo run --release -- [OPTIONS]
  --quick       few samples: a smoke run of well under a minute (for CI)
  --json PATH   where to write the JSON results (default: bench/results/latest.json)
  --cpu N       the core to pin to (default: the last one this process may use)
  --only LIBS   peers to run besides mldsa, comma-separated (default: all; ML-DSA and
                legacy Dilithium round 3 peers alike)
  --loop LIB,SET,OP[,N]
                instead of the report: LIB's OP on SET N times (default 20000) in a row,
                pinned, printing the median, for a profiler (perf-side-by-side.py); OP is
                keygen, sign, sign-cold, verify or verify-cold; e.g. --loop
                libcrux,ML-DSA-44,keygen";

/// How many samples to take of each kind of operation.
struct Plan {
    warmup: usize,
    keygen: usize,
    sign: usize,
    verify: usize,
    /// Samples of streaming sign and verify for each of `STREAM_SIZES`.
    stream: [usize; 3],
    /// Timed repetitions of each side (one thread, all cores) of each batch measurement.
    batch_reps: usize,
    /// Samples of each operation in the profile, and calls per timing run of each kernel.
    profile: (usize, u32),
}

const FULL: Plan = Plan {
    warmup: 20,
    keygen: 2000,
    sign: 5000,
    verify: 2000,
    stream: [1000, 40, 4],
    batch_reps: 11,
    profile: (1000, 100),
};
const QUICK: Plan = Plan {
    warmup: 3,
    keygen: 100,
    sign: 300,
    verify: 100,
    stream: [30, 3, 1],
    batch_reps: 3,
    profile: (50, 20),
};

/// Message lengths of the mldsa-only streaming measurements.
const STREAM_SIZES: [usize; 3] = [1 << 10, 1 << 20, 64 << 20];
/// Distinct (message, signature) pairs that verification cycles through.
const VERIFY_POOL: usize = 256;
/// Signatures (and messages) per batch in the batch-throughput section.
const BATCH: usize = 512;

#[derive(Clone, Copy, PartialEq)]
pub enum Op {
    Keygen,
    Sign,
    SignCold,
    Verify,
    VerifyCold,
}

impl Op {
    pub const ALL: [Op; 5] = [
        Op::Keygen,
        Op::Sign,
        Op::SignCold,
        Op::Verify,
        Op::VerifyCold,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Op::Keygen => "keygen",
            Op::Sign => "sign (warm)",
            Op::SignCold => "sign (cold)",
            Op::Verify => "verify (warm)",
            Op::VerifyCold => "verify (cold)",
        }
    }

    /// The operation's name on the command line (`--loop`).
    pub fn arg(self) -> &'static str {
        match self {
            Op::Keygen => "keygen",
            Op::Sign => "sign",
            Op::SignCold => "sign-cold",
            Op::Verify => "verify",
            Op::VerifyCold => "verify-cold",
        }
    }

    /// Signing time depends on the number of rejection-loop iterations, so signers are compared
    /// by their mean (the expected cost); everything else by the median.
    pub fn by_mean(self) -> bool {
        matches!(self, Op::Sign | Op::SignCold)
    }

    fn rounds(self, plan: &Plan) -> usize {
        match self {
            Op::Keygen => plan.keygen,
            Op::Sign | Op::SignCold => plan.sign,
            Op::Verify | Op::VerifyCold => plan.verify,
        }
    }
}

/// What one row of results measured.
#[derive(Clone, Copy, PartialEq)]
pub enum What {
    /// An operation every library does, on 32-byte messages.
    Common(Op),
    /// An mldsa-only operation on a message of this many bytes.
    MldsaOnly(&'static str, usize),
}

/// One measured (parameter set, operation, library).
pub struct Row {
    pub ps: ParamSet,
    pub what: What,
    pub lib: &'static str,
    pub stats: Stats,
}

struct Args {
    quick: bool,
    json: String,
    cpu: Option<usize>,
    only: Option<Vec<String>>,
    hot_loop: Option<hot_loop::HotLoop>,
}

fn parse_args() -> Args {
    let mut args = Args {
        quick: false,
        json: concat!(env!("CARGO_MANIFEST_DIR"), "/results/latest.json").into(),
        cpu: None,
        only: None,
        hot_loop: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        let mut value = || {
            it.next()
                .unwrap_or_else(|| fail(&format!("{a} needs a value")))
        };
        match a.as_str() {
            "--quick" => args.quick = true,
            "--json" => args.json = value(),
            "--cpu" => args.cpu = Some(value().parse().unwrap_or_else(|_| fail("bad --cpu"))),
            "--only" => args.only = Some(value().split(',').map(str::to_owned).collect()),
            "--loop" => args.hot_loop = Some(hot_loop::HotLoop::parse(&value())),
            "-h" | "--help" => {
                println!("{USAGE}");
                std::process::exit(0);
            }
            _ => fail(&format!("unknown argument {a}")),
        }
    }
    if let Some(only) = &args.only {
        for name in only {
            if !peers::LIBS
                .iter()
                .chain(peers::LEGACY_LIBS)
                .any(|l| l.name == name)
            {
                fail(&format!("--only: no library {name}"));
            }
        }
    }
    args
}

fn fail(msg: &str) -> ! {
    eprintln!("{msg}\n{USAGE}");
    std::process::exit(2)
}

/// 32 reproducible pseudo-random bytes (splitmix64), numbered by `stream` and `index`.
fn bytes32(stream: u64, index: u64) -> [u8; 32] {
    let mut x = stream.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ index;
    let mut out = [0u8; 32];
    for chunk in out.chunks_mut(8) {
        x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = x;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        chunk.copy_from_slice(&(z ^ (z >> 31)).to_le_bytes());
    }
    out
}

/// Before timing anything: every library's signatures (warm and cold) verify under mldsa and
/// under itself, deterministic signers agree with mldsa byte for byte, mldsa's signature
/// verifies warm and cold, and a corrupted signature is rejected warm and cold.
fn check_interop(ps: ParamSet, keys: &Keys, libs: &[(&Lib, Box<dyn Peer>)]) {
    let reference = &libs[0].1;
    let msg = bytes32(99, 0);
    let mut expect = vec![0u8; ps.sig_len()];
    reference.sign(&msg, &mut expect);
    let mut bad = expect.clone();
    bad[0] ^= 1;
    for (lib, peer) in libs {
        let check = |ok: bool, what: &str| assert!(ok, "{} {}: {what}", lib.name, ps.name());
        let mut sig = vec![0u8; ps.sig_len()];
        for cold in [false, true] {
            if cold {
                peer.sign_cold(&keys.sk, &msg, &mut sig);
            } else {
                peer.sign(&msg, &mut sig);
            }
            check(reference.verify(&msg, &sig), "mldsa rejects its signature");
            check(peer.verify(&msg, &sig), "rejects its own signature");
            check(
                !lib.deterministic || sig == expect,
                "deterministic signature differs",
            );
        }
        check(peer.verify(&msg, &expect), "rejects mldsa's signature");
        check(
            peer.verify_cold(&keys.pk, &msg, &expect),
            "cold verify rejects",
        );
        check(!peer.verify(&msg, &bad), "accepts a corrupted signature");
        check(
            !peer.verify_cold(&keys.pk, &msg, &bad),
            "cold verify accepts a corrupted one",
        );
    }
}

/// An mldsa-only signing row on 32-byte messages: `sign(r)` signs the message of round `r`.
fn mldsa_only_row(ps: ParamSet, plan: &Plan, op: &'static str, mut sign: impl FnMut(usize)) -> Row {
    let mut series = [Series::default()];
    round_robin(&mut series, plan.warmup, plan.sign, |_, r| sign(r));
    Row {
        ps,
        what: What::MldsaOnly(op, 32),
        lib: "mldsa",
        stats: series[0].stats(),
    }
}

/// Measures every library on parameter set `ps` (`libs`: those of its scheme), then the
/// mldsa-only operations. `big` is scratch for the streamed messages, as long as the longest.
fn run_param_set(ps: ParamSet, plan: &Plan, libs: &[&'static Lib], big: &mut [u8]) -> Vec<Row> {
    let keys = peers::mldsa::keys(ps, bytes32(ps as u64, u64::MAX));
    // The v3.1 AES sets: mldsa alone (no peer here builds them), beside its SHAKE rows.
    let libs: Vec<_> = libs
        .iter()
        .filter(|l| !ps.is_aes() || l.krate == "mldsa")
        .map(|l| (*l, (l.load)(ps, &keys)))
        .collect();
    check_interop(ps, &keys, &libs);

    let mut rows = Vec::new();
    let rounds = plan.warmup + plan.sign.max(plan.keygen).max(plan.verify);
    let msgs: Vec<[u8; 32]> = (0..rounds as u64)
        .map(|i| bytes32(10 + ps as u64, i))
        .collect();
    let pool: Vec<([u8; 32], Vec<u8>)> = (0..VERIFY_POOL as u64)
        .map(|i| {
            let m = bytes32(20 + ps as u64, i);
            let mut s = vec![0u8; ps.sig_len()];
            libs[0].1.sign(&m, &mut s);
            (m, s)
        })
        .collect();
    let mut sig = vec![0u8; ps.sig_len()];

    for op in Op::ALL {
        let started = Instant::now();
        let mut series: Vec<Series> = libs.iter().map(|_| Series::default()).collect();
        round_robin(&mut series, plan.warmup, op.rounds(plan), |i, r| {
            let peer = &libs[i].1;
            let (vm, vs) = &pool[r % VERIFY_POOL];
            match op {
                Op::Keygen => peer.keygen(&msgs[r]),
                Op::Sign => peer.sign(&msgs[r], &mut sig),
                Op::SignCold => peer.sign_cold(&keys.sk, &msgs[r], &mut sig),
                Op::Verify => assert!(peer.verify(vm, vs)),
                Op::VerifyCold => assert!(peer.verify_cold(&keys.pk, vm, vs)),
            }
        });
        for ((lib, _), s) in libs.iter().zip(&series) {
            rows.push(Row {
                ps,
                what: What::Common(op),
                lib: lib.name,
                stats: s.stats(),
            });
        }
        let secs = started.elapsed().as_secs_f64();
        eprintln!("  {} {:<14} {secs:5.1} s", ps.name(), op.name());
    }

    // mldsa only. Signing through a strictly imported key object (on the same messages):
    let started = Instant::now();
    if ps.is_legacy() {
        // Legacy: only this; its streaming is ML-DSA's code with another mu prefix.
        let only = peers::mldsa_legacy::load_only(ps, &keys);
        let label = "sign (cold, from_bytes_unverified)";
        rows.push(mldsa_only_row(ps, plan, label, |r| {
            only.sign_cold_unverified(&keys.sk, &msgs[r], &mut sig)
        }));
        let secs = started.elapsed().as_secs_f64();
        eprintln!("  {} {:<14} {secs:5.1} s", ps.name(), "mldsa only");
        return rows;
    }
    let only = peers::mldsa::load_only(ps, &keys);
    let label = "sign (cold, strict SigningKey::from_expanded)";
    rows.push(mldsa_only_row(ps, plan, label, |r| {
        only.sign_cold_strict(&keys.sk, &msgs[r], &mut sig)
    }));

    // Streaming, sign and verify interleaved. Verification checks the message whose first 8
    // bytes are all-ones; signing writes the round number there, so each signed one is new.
    for (size, rounds) in STREAM_SIZES.into_iter().zip(plan.stream) {
        big[..8].copy_from_slice(&u64::MAX.to_le_bytes());
        let mut vsig = vec![0u8; ps.sig_len()];
        only.stream_sign(&big[..size], &mut vsig);
        let mut series = [Series::default(), Series::default()];
        let warmup = if size < 64 << 20 {
            plan.warmup.min(rounds)
        } else {
            0
        };
        round_robin(&mut series, warmup, rounds, |i, r| {
            if i == 0 {
                big[..8].copy_from_slice(&(r as u64).to_le_bytes());
                only.stream_sign(&big[..size], &mut sig);
            } else {
                big[..8].copy_from_slice(&u64::MAX.to_le_bytes());
                assert!(only.stream_verify(&big[..size], &vsig), "stream verify");
            }
        });
        for (op, s) in ["stream sign", "stream verify"].into_iter().zip(&series) {
            let what = What::MldsaOnly(op, size);
            rows.push(Row {
                ps,
                what,
                lib: "mldsa",
                stats: s.stats(),
            });
        }
    }
    let secs = started.elapsed().as_secs_f64();
    eprintln!("  {} {:<14} {secs:5.1} s", ps.name(), "mldsa only");
    rows
}

/// mldsa's batch throughput, per ML-DSA set: one thread vs a pool on all of `cpus`.
fn batch_rows(plan: &Plan, cpus: &[usize]) -> Vec<batch::BatchRow> {
    let pool = batch::pool(cpus);
    let mut rows = Vec::new();
    for ps in ParamSet::ALL {
        let started = Instant::now();
        let keys = peers::mldsa::keys(ps, bytes32(ps as u64, u64::MAX));
        let msgs = (0..BATCH as u64)
            .map(|i| bytes32(30 + ps as u64, i))
            .collect();
        let data = peers::mldsa::load_batch(ps, &keys, msgs);
        rows.extend(batch::run(ps, plan.batch_reps, &pool, &*data));
        let secs = started.elapsed().as_secs_f64();
        eprintln!("  {} {:<14} {secs:5.1} s", ps.name(), "batch");
    }
    rows
}

/// mldsa's peak stack per ML-DSA set and operation, on the default backend and the portable one.
fn stack_rows() -> Vec<stack::StackRow> {
    let started = Instant::now();
    stack::self_check();
    let default = format!("{:?}", mldsa::backend::active_backend()).to_lowercase();
    let mut rows = Vec::new();
    for ps in ParamSet::ALL {
        let keys = peers::mldsa::keys(ps, bytes32(ps as u64, u64::MAX));
        for portable in [false, true] {
            let backend = if portable {
                "portable".into()
            } else {
                default.clone()
            };
            let mut visit = |op, f: &peers::mldsa::StackOp| {
                let bytes = stack::peak(f);
                rows.push(stack::StackRow {
                    ps,
                    op,
                    backend: backend.clone(),
                    bytes,
                });
            };
            if portable {
                peers::mldsa::on_portable(|| peers::mldsa::stack_ops(ps, &keys, &mut visit));
            } else {
                peers::mldsa::stack_ops(ps, &keys, &mut visit);
            }
        }
    }
    let secs = started.elapsed().as_secs_f64();
    eprintln!("  peak stack           {secs:5.1} s");
    rows
}

fn main() {
    let args = parse_args();
    let plan = if args.quick { QUICK } else { FULL };
    // mldsa, in each of its configurations, always runs; --only picks among the peers.
    let selected = |l: &&Lib| {
        if l.name == peers::mldsa::AVX2_LIB.name {
            return peers::mldsa::has_avx512();
        }
        !peers::is_peer(l.name)
            || args
                .only
                .as_ref()
                .is_none_or(|o| o.iter().any(|n| n == l.name))
    };
    let libs: Vec<&'static Lib> = peers::LIBS.iter().filter(selected).collect();
    let legacy_libs: Vec<&'static Lib> = peers::LEGACY_LIBS.iter().filter(selected).collect();

    // Every core this process may use, before pinning: the batch section runs on all of them.
    let all_cpus = measure::allowed_cpus();
    let cpu = args.cpu.or_else(|| all_cpus.last().copied()).unwrap_or(0);
    if let Err(e) = measure::pin_to_cpu(cpu) {
        eprintln!("warning: could not pin to CPU {cpu}: {e}");
    }
    if let Some(hot_loop) = &args.hot_loop {
        hot_loop.run();
        return;
    }
    let mode = if args.quick { "quick" } else { "full" };
    eprintln!(
        "{mode} run of {} ML-DSA and {} legacy Dilithium round 3 libraries, pinned to CPU {cpu}",
        libs.len(),
        legacy_libs.len()
    );
    let started = Instant::now();

    let mut big: Vec<u8> = (0..STREAM_SIZES[2] as u32)
        .map(|i| (i.wrapping_mul(0x9E37_79B1) >> 24) as u8)
        .collect();
    let mut rows: Vec<Row> = ParamSet::ALL
        .into_iter()
        .flat_map(|ps| run_param_set(ps, &plan, &libs, &mut big))
        .collect();
    drop(big);
    // Legacy CRYSTALS-Dilithium round 3 (v3.1), after ML-DSA, among its own libraries.
    rows.extend(
        ParamSet::LEGACY
            .into_iter()
            .flat_map(|ps| run_param_set(ps, &plan, &legacy_libs, &mut [])),
    );
    let (profile, kernel_costs) = profile::run(plan.profile.0, plan.profile.1);
    let results = report::Results {
        profile,
        kernel_costs,
        portable_switch_ns: peers::mldsa::switch_cost_ns(),
        batch: batch_rows(&plan, &all_cpus),
        stack: stack_rows(),
        rows,
    };

    let seconds = started.elapsed().as_secs_f64();
    let meta = report::Meta::collect(&results.rows, cpu, args.quick, seconds);
    print!("{}", report::markdown(&meta, &libs, &legacy_libs, &results));
    let json = report::json(&meta, &libs, &legacy_libs, &results);
    let json = serde_json::to_string_pretty(&json).expect("json");
    if let Some(dir) = std::path::Path::new(&args.json).parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    match std::fs::write(&args.json, json + "\n") {
        Ok(()) => eprintln!("wrote {}", args.json),
        Err(e) => {
            eprintln!("error: could not write {}: {e}", args.json);
            std::process::exit(1);
        }
    }
}
