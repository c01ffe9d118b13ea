//! `--loop LIB,SET,OP[,N]`: one library's one operation, N times in a row and nothing else, for
//! a sampling profiler (`perf record`) to say where its time goes; `perf-side-by-side.py` runs
//! it for several libraries and sorts their samples into the same groups.
//!
//! The inputs are those of the interleaved rows (the shared key pair, the same messages and
//! signatures); the difference is that the operation runs back to back, so caches and branch
//! predictors stay warm for it: the times it prints are a little below the report's.

use crate::peers::{self, ParamSet, Peer};
use crate::{Op, VERIFY_POOL, bytes32, fail};
use std::time::Instant;

/// What `--loop` asked for.
pub struct HotLoop {
    lib: &'static peers::Lib,
    /// Signs the verification inputs: mldsa on the set's scheme (the first of its libraries).
    reference: &'static peers::Lib,
    ps: ParamSet,
    op: Op,
    n: usize,
}

impl HotLoop {
    /// Parses `LIB,SET,OP[,N]`, e.g. `libcrux,ML-DSA-44,keygen,20000`; exits with the usage on
    /// anything else.
    pub fn parse(spec: &str) -> HotLoop {
        let parts: Vec<&str> = spec.split(',').collect();
        if !(3..=4).contains(&parts.len()) {
            fail(&format!("--loop {spec}: want LIB,SET,OP[,N]"));
        }
        let ps = ParamSet::ALL
            .into_iter()
            .chain(ParamSet::LEGACY)
            .find(|ps| ps.name() == parts[1])
            .unwrap_or_else(|| fail(&format!("--loop: no parameter set {}", parts[1])));
        // The legacy sets have libraries of their own (mldsa's among them, by the same name).
        let libs = if ps.is_legacy() {
            peers::LEGACY_LIBS
        } else {
            peers::LIBS
        };
        let lib = libs.iter().find(|l| l.name == parts[0]).unwrap_or_else(|| {
            fail(&format!(
                "--loop: no library {} for {}",
                parts[0],
                ps.name()
            ))
        });
        let op = Op::ALL
            .into_iter()
            .find(|op| op.arg() == parts[2])
            .unwrap_or_else(|| {
                let names: Vec<&str> = Op::ALL.iter().map(|op| op.arg()).collect();
                fail(&format!(
                    "--loop: no operation {} (one of {})",
                    parts[2],
                    names.join(", ")
                ))
            });
        let n = match parts.get(3) {
            None => 20_000,
            Some(n) => match n.parse() {
                Ok(n) if n > 0 => n,
                _ => fail(&format!("--loop: bad count {n}")),
            },
        };
        HotLoop {
            lib,
            reference: &libs[0],
            ps,
            op,
            n,
        }
    }

    /// Runs the loop (after a warm-up of a tenth of it) and prints one line: the library, set,
    /// operation, count and the median µs (the mean for signing, as in the report).
    pub fn run(&self) {
        let keys = peers::mldsa::keys(self.ps, bytes32(self.ps as u64, u64::MAX));
        let peer: Box<dyn Peer> = (self.lib.load)(self.ps, &keys);
        let reference = (self.reference.load)(self.ps, &keys);
        let msgs: Vec<[u8; 32]> = (0..VERIFY_POOL as u64)
            .map(|i| bytes32(10 + self.ps as u64, i))
            .collect();
        // Signatures to verify, by mldsa, only for verification (in the profile otherwise).
        let verifying = matches!(self.op, Op::Verify | Op::VerifyCold);
        let sigs: Vec<Vec<u8>> = msgs
            .iter()
            .take(if verifying { VERIFY_POOL } else { 0 })
            .map(|m| {
                let mut s = vec![0u8; self.ps.sig_len()];
                reference.sign(m, &mut s);
                s
            })
            .collect();
        let mut sig = vec![0u8; self.ps.sig_len()];
        let mut once = |r: usize| {
            let m = &msgs[r % VERIFY_POOL];
            let s = || &sigs[r % VERIFY_POOL];
            match self.op {
                Op::Keygen => peer.keygen(&bytes32(30, r as u64)),
                Op::Sign => peer.sign(m, &mut sig),
                Op::SignCold => peer.sign_cold(&keys.sk, m, &mut sig),
                Op::Verify => assert!(peer.verify(m, s()), "{} rejects", self.lib.name),
                Op::VerifyCold => {
                    assert!(
                        peer.verify_cold(&keys.pk, m, s()),
                        "{} rejects",
                        self.lib.name
                    )
                }
            }
        };
        for r in 0..self.n / 10 {
            once(r);
        }
        // Timed with the clock alone: the report's `Series` also asks the kernel for context
        // switches around each sample, which a profile would count in.
        let mut nanos: Vec<u64> = Vec::with_capacity(self.n);
        for r in 0..self.n {
            let start = Instant::now();
            once(r);
            nanos.push(start.elapsed().as_nanos() as u64);
        }
        nanos.sort_unstable();
        let (what, us) = if self.op.by_mean() {
            let sum: u64 = nanos.iter().sum();
            ("mean", sum as f64 / self.n as f64 / 1e3)
        } else {
            ("median", nanos[self.n / 2] as f64 / 1e3)
        };
        println!(
            "{} {} {} x{}: {what} {us:.2} us",
            self.lib.name,
            self.ps.name(),
            self.op.arg(),
            self.n
        );
    }
}
