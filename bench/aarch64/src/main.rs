//! One operation of one library, N times, between two marker functions, for counting the
//! AArch64 instructions it executes under qemu (`scripts/aarch64-insns.sh` does the counting:
//! qemu logs every executed instruction with the name of its function, and the lines between
//! the last instruction of [`mldsa_insns_begin`] and the first of [`mldsa_insns_end`] are the
//! region's instructions).
//!
//! ```text
//! mldsa-aarch64-insns inputs SET FILE           the key pair and mldsa's signatures, to FILE
//! mldsa-aarch64-insns count LIB SET OP N FILE   warm-up once, begin marker, N ops, end marker
//! mldsa-aarch64-insns check LIB SET             interop checks against mldsa (not counted)
//! mldsa-aarch64-insns calib N              a loop of exactly 2N + 1 instructions, for the method
//! mldsa-aarch64-insns libs                 the libraries of this build
//! ```
//!
//! LIB: mldsa, mldsa-portable, libcrux, mldsa-native, aws-lc-rs; SET: 44, 65, 87;
//! OP: keygen, sign-cold, sign-warm, verify-cold, verify-warm. Operation i works on input
//! i mod [`INPUTS`] (seeds for keygen, messages otherwise), so N = [`INPUTS`] is one pass over
//! the fixed inputs and every library signs the same messages with the same key. An operation a
//! library has no form of exits with status 3 ("n/a"). Everything is printed on stderr: qemu's
//! instruction log may go to stdout.

mod peers;

use peers::{Keys, Op, ParamSet};
use std::hint::black_box;
use std::process::exit;

/// The fixed inputs every operation cycles through: seeds (keygen) or messages (sign, verify).
pub const INPUTS: usize = 8;

/// The counted region starts after this function's last instruction. Never inlined, exported
/// under its own name (qemu prints the symbol of every logged instruction); its body differs
/// from [`mldsa_insns_end`]'s so that the two are never merged.
#[unsafe(no_mangle)]
#[inline(never)]
pub extern "C" fn mldsa_insns_begin() {
    // SAFETY: a no-op instruction.
    unsafe { std::arch::asm!("nop", options(nomem, nostack, preserves_flags)) };
}

/// The counted region ends before this function's first instruction.
#[unsafe(no_mangle)]
#[inline(never)]
pub extern "C" fn mldsa_insns_end() {
    // SAFETY: no-op instructions.
    unsafe { std::arch::asm!("nop", "nop", options(nomem, nostack, preserves_flags)) };
}

/// A deterministic 32-byte string (SplitMix64), as bench/src/main.rs makes its inputs.
pub fn bytes32(stream: u64, index: u64) -> [u8; 32] {
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

/// The shared inputs of a parameter set: the key pair (made by mldsa from a fixed seed), the
/// keygen seeds, the messages and mldsa's deterministic signatures of them.
pub struct Inputs {
    pub keys: Keys,
    pub seeds: Vec<[u8; 32]>,
    pub msgs: Vec<[u8; 32]>,
    pub sigs: Vec<Vec<u8>>,
}

impl Inputs {
    /// Makes them (mldsa's keygen and 9 signatures): `inputs` mode and `check`.
    fn new(ps: ParamSet) -> Self {
        let keys = peers::mldsa::keys(ps, bytes32(ps as u64, u64::MAX));
        let sigs = Self::msgs(ps)
            .iter()
            .map(|m| peers::mldsa::sign(ps, &keys, m))
            .collect();
        Self::with(ps, keys, sigs)
    }

    // One more of each than a counted pass uses: the warm-up input.
    fn msgs(ps: ParamSet) -> Vec<[u8; 32]> {
        (0..=INPUTS as u64).map(|i| bytes32(50 + ps as u64, i)).collect()
    }

    fn with(ps: ParamSet, keys: Keys, sigs: Vec<Vec<u8>>) -> Self {
        Inputs {
            keys,
            seeds: (0..=INPUTS as u64).map(|i| bytes32(40 + ps as u64, i)).collect(),
            msgs: Self::msgs(ps),
            sigs,
        }
    }

    /// The file `inputs` writes: seed, pk, expanded sk, then the signatures, back to back (their
    /// lengths follow from the parameter set). Reading it keeps mldsa's keygen and signing out
    /// of the instruction log of `count` (qemu logs the whole process; only the marked region
    /// counts, but logging is what takes the time).
    fn encode(&self) -> Vec<u8> {
        let mut out = self.keys.seed.to_vec();
        out.extend_from_slice(&self.keys.pk);
        out.extend_from_slice(&self.keys.sk);
        self.sigs.iter().for_each(|s| out.extend_from_slice(s));
        out
    }

    fn decode(ps: ParamSet, bytes: &[u8]) -> Self {
        let (pk_len, sk_len) = ps.key_lens();
        let want = 32 + pk_len + sk_len + (INPUTS + 1) * ps.sig_len();
        assert_eq!(bytes.len(), want, "inputs file of {}: wrong length", ps.name());
        let (seed, rest) = bytes.split_at(32);
        let (pk, rest) = rest.split_at(pk_len);
        let (sk, rest) = rest.split_at(sk_len);
        let keys = Keys {
            seed: seed.try_into().expect("32 bytes"),
            pk: pk.to_vec(),
            sk: sk.to_vec(),
        };
        let sigs = rest.chunks(ps.sig_len()).map(<[u8]>::to_vec).collect();
        Self::with(ps, keys, sigs)
    }
}

fn usage() -> ! {
    eprintln!(
        "usage: mldsa-aarch64-insns count LIB SET OP N FILE | inputs SET FILE | check LIB SET | \
         calib N | libs\n\
         LIB: {}; SET: 44, 65, 87; OP: {}",
        peers::names().join(", "),
        Op::ALL.map(Op::name).join(", ")
    );
    exit(2)
}

fn parse_set(s: &str) -> ParamSet {
    match s.trim_start_matches("ML-DSA-") {
        "44" => ParamSet::P44,
        "65" => ParamSet::P65,
        "87" => ParamSet::P87,
        _ => usage(),
    }
}

fn parse_n(s: &str) -> usize {
    s.parse().unwrap_or_else(|_| usage())
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    match args[..] {
        ["libs"] => eprintln!("{}", peers::names().join(" ")),
        ["calib", n] => calib(parse_n(n)),
        ["check", lib, set] => check(lib, parse_set(set)),
        ["inputs", set, file] => {
            let ps = parse_set(set);
            std::fs::write(file, Inputs::new(ps).encode()).expect("write the inputs file");
        }
        ["count", lib, set, op, n, file] => {
            let op = Op::parse(op).unwrap_or_else(|| usage());
            let ps = parse_set(set);
            let inputs = Inputs::decode(ps, &std::fs::read(file).expect("read the inputs file"));
            count(lib, ps, op, parse_n(n), &inputs)
        }
        _ => usage(),
    }
}

/// The method's check: a region of exactly 2n + 1 instructions (`mov`, then n times `subs` +
/// `b.ne`), whatever the marker calls add around it.
fn calib(n: usize) {
    mldsa_insns_begin();
    // SAFETY: a counted loop on a scratch register.
    unsafe {
        std::arch::asm!(
            "mov {x}, {n}",
            "2:",
            "subs {x}, {x}, #1",
            "b.ne 2b",
            n = in(reg) n.max(1),
            x = out(reg) _,
            options(nomem, nostack)
        )
    };
    mldsa_insns_end();
}

fn load_or_exit(lib: &str, ps: ParamSet, inputs: &Inputs, warm: bool) -> Box<dyn peers::Peer> {
    match peers::load(lib, ps, &inputs.keys, warm) {
        Some(p) => p,
        None => {
            eprintln!("unknown library {lib} (this build has: {})", peers::names().join(", "));
            exit(2)
        }
    }
}

fn count(lib: &str, ps: ParamSet, op: Op, n: usize, inputs: &Inputs) {
    // Warm key objects only for the warm operations (making them is not counted, but logged).
    let peer = load_or_exit(lib, ps, inputs, matches!(op, Op::SignWarm | Op::VerifyWarm));
    if let Some(why) = peer.lacks(op) {
        eprintln!("n/a: {why}");
        exit(3)
    }
    let mut sig = vec![0u8; ps.sig_len()];
    let mut run = |i: usize| match op {
        Op::Keygen => peer.keygen(&inputs.seeds[i]),
        Op::SignCold => peer.sign_cold(&inputs.keys.sk, &inputs.msgs[i], &mut sig),
        Op::SignWarm => peer.sign(&inputs.msgs[i], &mut sig),
        Op::VerifyCold => {
            assert!(peer.verify_cold(&inputs.keys.pk, &inputs.msgs[i], &inputs.sigs[i]))
        }
        Op::VerifyWarm => assert!(peer.verify(&inputs.msgs[i], &inputs.sigs[i])),
    };
    // Warm-up on the spare input: first-call costs (feature detection, self tests, lazy
    // tables) stay out of the region.
    run(INPUTS);
    mldsa_insns_begin();
    for i in 0..n {
        run(black_box(i % INPUTS));
    }
    mldsa_insns_end();
    black_box(&sig);
    eprintln!("ok: {lib} {} {} x{n}", ps.name(), op.name());
}

/// Before counting: the library derives mldsa's key pair from the seed (if it has seeded
/// keygen), its deterministic signatures equal mldsa's byte for byte, and it accepts mldsa's
/// signatures and rejects a corrupted one, on every form it has (warm, cold).
fn check(lib: &str, ps: ParamSet) {
    let inputs = Inputs::new(ps);
    let back = Inputs::decode(ps, &inputs.encode());
    assert!(back.keys.sk == inputs.keys.sk && back.sigs == inputs.sigs, "inputs file round trip");
    let peer = load_or_exit(lib, ps, &inputs, true);
    let (pk, sk) = peer.keypair(&inputs.keys.seed);
    assert!(pk == inputs.keys.pk && sk == inputs.keys.sk, "{lib} {}: keygen differs", ps.name());
    let mut sig = vec![0u8; ps.sig_len()];
    for i in 0..=INPUTS {
        let (m, want) = (&inputs.msgs[i], &inputs.sigs[i]);
        peer.sign_cold(&inputs.keys.sk, m, &mut sig);
        assert_eq!(&sig, want, "{lib} {}: cold signature {i} differs from mldsa's", ps.name());
        if peer.lacks(Op::SignWarm).is_none() {
            sig.fill(0);
            peer.sign(m, &mut sig);
            assert_eq!(&sig, want, "{lib} {}: warm signature {i} differs", ps.name());
        }
        let mut bad = want.clone();
        let at = i * 7 % bad.len();
        bad[at] ^= 1;
        assert!(peer.verify_cold(&inputs.keys.pk, m, want), "{lib}: cold verify rejects");
        assert!(!peer.verify_cold(&inputs.keys.pk, m, &bad), "{lib}: cold verify accepts bad");
        if peer.lacks(Op::VerifyWarm).is_none() {
            assert!(peer.verify(m, want), "{lib}: warm verify rejects");
            assert!(!peer.verify(m, &bad), "{lib}: warm verify accepts a bad signature");
        }
    }
    eprintln!("check ok: {lib} {} ({})", ps.name(), peer.note());
}
