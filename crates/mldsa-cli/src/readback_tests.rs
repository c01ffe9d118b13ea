//! Property test (issue #22): every key and signature file the command writes reads back, even
//! when its bytes look like DER or PEM. Runs the commands in-process (the parsed command line
//! through `run`, exactly as `main` does), so thousands of command runs take seconds.
//!
//! Keys: random seeds, seeds beginning with every DER-looking prefix (`30 xx`, `30 81 xx`,
//! `30 82 xx xx`, `04 xx`, each also with the length that makes the whole file one DER element)
//! and with `-----BEGIN`, and expanded keys and public keys whose rho begins with the same
//! prefixes. Set `MLDSA_READBACK_SEED` (64 hex digits) to replay a failing run.

use crate::alg::{ALL, Alg};
use crate::cli::Cli;
use crate::error::Result;
use clap::Parser;
use std::fs;
use std::path::{Path, PathBuf};

/// A reproducible byte stream: SHA2-256 of (master seed, counter).
struct Bytes {
    master: [u8; 32],
    counter: u64,
}

impl Bytes {
    fn fill(&mut self, out: &mut [u8]) {
        for chunk in out.chunks_mut(32) {
            let mut input = self.master.to_vec();
            input.extend_from_slice(&self.counter.to_le_bytes());
            self.counter += 1;
            let d = mldsa::PreHashed::hash(mldsa::PreHash::Sha2_256, &input);
            chunk.copy_from_slice(&d.digest()[..chunk.len()]);
        }
    }

    fn byte(&mut self) -> u8 {
        let mut b = [0u8];
        self.fill(&mut b);
        b[0]
    }
}

/// Every DER-looking header (and `-----BEGIN`) a raw file of `len` bytes could begin with: each
/// DER form once with the length that makes the whole file one element, once with a random one.
fn prefixes(len: usize, rng: &mut Bytes) -> Vec<Vec<u8>> {
    let mut out = vec![
        vec![0x30, rng.byte()],
        vec![0x30, 0x81, rng.byte()],
        vec![0x30, 0x82, rng.byte(), rng.byte()],
        vec![0x04, rng.byte()],
        b"-----BEGIN PRIVATE KEY-----\n".to_vec(),
        b"-----BEGIN PUBLIC KEY-----\n".to_vec(),
    ];
    if len - 2 < 0x80 {
        out.push(vec![0x30, (len - 2) as u8]);
        out.push(vec![0x04, (len - 2) as u8]);
    }
    if len - 3 < 0x100 {
        out.push(vec![0x30, 0x81, (len - 3) as u8]);
    }
    let n = len - 4;
    out.push(vec![0x30, 0x82, (n >> 8) as u8, n as u8]);
    out
}

/// (k, l, eta, tr length) of a parameter set.
fn shape(alg: Alg) -> (usize, usize, u32, usize) {
    let tr = if alg.is_legacy() { 32 } else { 64 };
    match alg {
        Alg::MlDsa44 | Alg::Dilithium2 | Alg::Dilithium2Aes => (4, 4, 2, tr),
        Alg::MlDsa65 | Alg::Dilithium3 | Alg::Dilithium3Aes => (6, 5, 4, tr),
        Alg::MlDsa87 | Alg::Dilithium5 | Alg::Dilithium5Aes => (8, 7, 2, tr),
    }
}

/// `count` polynomials of 256 coefficients, each the value `v` in `bits` bits, packed
/// little-endian as FIPS 204 BitPack does.
fn pack_constant(count: usize, v: u32, bits: u32) -> Vec<u8> {
    let mut out = Vec::new();
    let (mut acc, mut n) = (0u64, 0u32);
    for _ in 0..count * 256 {
        acc |= u64::from(v) << n;
        n += bits;
        while n >= 8 {
            out.push(acc as u8);
            acc >>= 8;
            n -= 8;
        }
    }
    out
}

/// A key pair whose rho is chosen: s1 = s2 = 0, so t = 0 and the key is consistent (tr and t0
/// are what KeyGen would compute), and the strict importer accepts it. Returns (pk, expanded sk).
fn key_with_rho(alg: Alg, rho: &[u8; 32], key: &[u8; 32]) -> (Vec<u8>, Vec<u8>) {
    let (k, l, eta, tr_len) = shape(alg);
    let mut pk = rho.to_vec();
    pk.resize(alg.sizes().0, 0); // t1 = 0
    let tr = mldsa::PreHashed::hash(mldsa::PreHash::Shake256, &pk);
    let eta_bits = if eta == 2 { 3 } else { 4 };
    let mut sk = rho.to_vec();
    sk.extend_from_slice(key);
    sk.extend_from_slice(&tr.digest()[..tr_len]);
    sk.extend(pack_constant(l + k, eta, eta_bits)); // s1, s2 = 0, stored as eta - 0
    sk.extend(pack_constant(k, 1 << 12, 13)); // t0 = 0, stored as 2^12 - 0
    assert_eq!(sk.len(), alg.sizes().1);
    (pk, sk)
}

/// Runs one command line in-process.
fn mldsa(args: &[&str]) -> Result<()> {
    let cli = Cli::try_parse_from(std::iter::once("mldsa").chain(args.iter().copied()))
        .unwrap_or_else(|e| panic!("{args:?}: {e}"));
    crate::run(cli.command)
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

struct Case<'a> {
    alg: Alg,
    dir: &'a Path,
    msg: &'a Path,
    what: String,
}

impl Case<'_> {
    fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    /// Runs `args` with `-a` (must succeed) and without (must succeed, or ask for -a because the
    /// raw file does not name its algorithm).
    fn both(&self, args: &[&str], needs_alg: bool) {
        let with: Vec<&str> = args
            .iter()
            .copied()
            .chain(["-a", self.alg.name()])
            .collect();
        if let Err(e) = mldsa(&with) {
            panic!("{}: {with:?} failed: {e}", self.what);
        }
        match mldsa(args) {
            Ok(()) => assert!(!needs_alg, "{}: {args:?} guessed the algorithm", self.what),
            Err(e) => assert!(
                needs_alg && e.to_string().contains("add -a"),
                "{}: {args:?} failed: {e}",
                self.what
            ),
        }
    }

    /// Every reader on a private key file `key` (needs_alg: it is a raw seed), whose raw public
    /// key is `pk`, and signatures made with it in each encoding.
    fn private(&self, key: &Path, needs_alg: bool, pk: &[u8]) {
        let (k, m) = (s(key), s(self.msg));
        let out = self.path("out");
        let o = s(&out);
        for (i, enc) in ["raw", "hex", "base64"].into_iter().enumerate() {
            let sig = self.path(&format!("sig{i}"));
            let sign = ["sign", "-k", k, "--deterministic", "--sig-format", enc];
            let sign: Vec<&str> = sign
                .into_iter()
                .chain(["--force", "-o", s(&sig), m])
                .collect();
            self.both(&sign, needs_alg);
            // The private key file verifies too; the public key file is checked by `public`.
            self.both(&["verify", "-p", k, "-s", s(&sig), m], needs_alg);
            let explicit = ["verify", "-p", k, "-s", s(&sig), "--sig-format", enc, m];
            self.both(&explicit, needs_alg);
        }
        self.both(
            &["pubkey", "-k", k, "--format", "raw", "--force", "-o", o],
            needs_alg,
        );
        assert_eq!(fs::read(&out).unwrap(), pk, "{}: pubkey", self.what);
        self.both(&["inspect", k], needs_alg);
        let convert = [
            "convert",
            "-i",
            k,
            "--format",
            "raw",
            "--key-form",
            "expanded",
        ];
        self.both(&[&convert[..], &["--force", "-o", o]].concat(), needs_alg);
        let expanded = fs::read(&out).unwrap();
        assert_eq!(expanded.len(), self.alg.sizes().1, "{}: convert", self.what);
    }

    /// Every reader on a public key file, with a signature made by the matching private key.
    fn public(&self, public: &Path, needs_alg: bool, pk: &[u8]) {
        let (p, m) = (s(public), s(self.msg));
        let out = self.path("out");
        let sig = self.path("sig0");
        self.both(&["verify", "-p", p, "-s", s(&sig), m], needs_alg);
        let raw = [
            "pubkey",
            "-k",
            p,
            "--format",
            "raw",
            "--force",
            "-o",
            s(&out),
        ];
        self.both(&raw, needs_alg);
        assert_eq!(fs::read(&out).unwrap(), pk, "{}: pubkey", self.what);
        self.both(&["inspect", p], needs_alg);
        let convert = [
            "convert",
            "-i",
            p,
            "--format",
            "raw",
            "--force",
            "-o",
            s(&out),
        ];
        self.both(&convert, needs_alg);
        assert_eq!(fs::read(&out).unwrap(), pk, "{}: convert", self.what);
    }
}

fn master_seed() -> [u8; 32] {
    match std::env::var("MLDSA_READBACK_SEED") {
        Ok(hex) => hex::decode(hex.trim()).unwrap().try_into().unwrap(),
        Err(_) => {
            let mut seed = [0u8; 32];
            getrandom::fill(&mut seed).unwrap();
            seed
        }
    }
}

#[test]
fn every_written_key_and_signature_reads_back() {
    let master = master_seed();
    let replay = format!("MLDSA_READBACK_SEED={}", hex::encode(master));
    let mut rng = Bytes { master, counter: 0 };
    let dir = tempfile::TempDir::new().unwrap();
    let msg = dir.path().join("msg");
    fs::write(&msg, b"read me back").unwrap();
    let mut runs = 0;
    for alg in ALL {
        let formats: &[(&str, &[&str])] = if alg.is_legacy() {
            &[("raw", &["seed", "expanded"])]
        } else {
            &[
                ("pem", &["seed", "expanded", "both"]),
                ("der", &["seed", "expanded", "both"]),
                ("raw", &["seed", "expanded"]),
            ]
        };
        // Seeds: two random ones, and one per DER-looking or PEM-looking prefix.
        let mut seeds = vec![vec![], vec![]];
        seeds.extend(prefixes(32, &mut rng));
        for prefix in seeds {
            let mut seed = [0u8; 32];
            rng.fill(&mut seed);
            seed[..prefix.len()].copy_from_slice(&prefix);
            if prefix.starts_with(b"-----") {
                // The rest as text too, so that the whole file is valid UTF-8.
                seed[prefix.len()..].fill(b'A');
            }
            let lib_pk = crate::keys::SecretKey::from_seed(alg, &seed).public();
            let pk = lib_pk.as_bytes();
            let case = Case {
                alg,
                dir: dir.path(),
                msg: &msg,
                what: format!("{alg} seed {} ({replay})", hex::encode(seed)),
            };
            for (format, forms) in formats {
                let public = case.path(&format!("pub.{format}"));
                for form in *forms {
                    let key = case.path(&format!("key.{format}.{form}"));
                    let keygen = [
                        "keygen",
                        "-a",
                        alg.name(),
                        "--seed",
                        &hex::encode(seed),
                        "--format",
                        format,
                        "--key-form",
                        form,
                        "--force",
                        "-o",
                        s(&key),
                        "--pub",
                        s(&public),
                    ];
                    mldsa(&keygen).unwrap_or_else(|e| panic!("{}: {e}", case.what));
                    let raw = *format == "raw";
                    // A raw seed never names its algorithm; a raw round-3 expanded key shares
                    // its length with its AES twin's.
                    case.private(&key, raw && (*form == "seed" || alg.is_legacy()), pk);
                    case.public(&public, raw, pk);
                    runs += 1;
                }
            }
        }
        // Expanded keys and public keys whose rho begins with each prefix (of either length).
        let (pk_len, sk_len, _) = alg.sizes();
        let mut rhos = prefixes(pk_len, &mut rng);
        rhos.extend(prefixes(sk_len, &mut rng));
        for prefix in rhos {
            let (mut rho, mut key) = ([0u8; 32], [0u8; 32]);
            rng.fill(&mut rho);
            rng.fill(&mut key);
            rho[..prefix.len()].copy_from_slice(&prefix);
            if prefix.starts_with(b"-----") {
                // The rest as text too, so that the whole public key is valid UTF-8.
                rho[prefix.len()..].fill(b'A');
            }
            let (pk, sk) = key_with_rho(alg, &rho, &key);
            let case = Case {
                alg,
                dir: dir.path(),
                msg: &msg,
                what: format!("{alg} rho {} ({replay})", hex::encode(rho)),
            };
            let (key_file, pub_file) = (case.path("crafted.sk"), case.path("crafted.pk"));
            fs::write(&key_file, &sk).unwrap();
            fs::write(&pub_file, &pk).unwrap();
            case.private(&key_file, alg.is_legacy(), &pk);
            case.public(&pub_file, true, &pk);
            runs += 1;
        }
    }
    assert!(runs > 100, "{runs} key files");
    println!("read-back: {runs} key files, every reader, with and without -a ({replay})");
}
