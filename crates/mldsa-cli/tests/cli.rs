//! The `mldsa` command, run as a user would: key generation, signing and verification in every
//! format, exit codes, error messages, and the rules that protect the user's files.

use assert_cmd::Command;
use predicates::prelude::*;
use std::fs;
use std::path::{Path, PathBuf};
use tempfile::TempDir;

fn mldsa() -> Command {
    Command::cargo_bin("mldsa").unwrap()
}

fn p(dir: &TempDir, name: &str) -> PathBuf {
    dir.path().join(name)
}

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

const SEED: &str = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";

#[test]
fn keygen_sign_verify_every_format_and_algorithm() {
    let dir = TempDir::new().unwrap();
    let msg = p(&dir, "msg.txt");
    fs::write(&msg, b"hello, world\n").unwrap();
    let cases: &[(&str, &[&str])] = &[
        ("ML-DSA-44", &["pem", "der", "raw"]),
        ("ML-DSA-65", &["pem", "der", "raw"]),
        ("ML-DSA-87", &["pem", "der", "raw"]),
        ("Dilithium2", &["raw"]),
        ("Dilithium3", &["raw"]),
        ("Dilithium5", &["raw"]),
        ("Dilithium2-AES", &["raw"]),
        ("Dilithium3-AES", &["raw"]),
        ("Dilithium5-AES", &["raw"]),
    ];
    for (alg, formats) in cases {
        for format in *formats {
            let key = p(&dir, &format!("{alg}.{format}.key"));
            let public = p(&dir, &format!("{alg}.{format}.pub"));
            let sig = p(&dir, &format!("{alg}.{format}.sig"));
            mldsa()
                .args([
                    "keygen",
                    "-a",
                    alg,
                    "--format",
                    format,
                    "-o",
                    s(&key),
                    "--pub",
                    s(&public),
                ])
                .assert()
                .success();
            // Raw keys do not say their algorithm; ML-DSA is assumed unless -a says otherwise.
            let alg_arg: &[&str] = if *format == "raw" { &["-a", alg] } else { &[] };
            mldsa()
                .args(["sign", "-k", s(&key), "-o", s(&sig), s(&msg)])
                .args(alg_arg)
                .assert()
                .success();
            mldsa()
                .args(["verify", "-p", s(&public), "-s", s(&sig), s(&msg)])
                .args(alg_arg)
                .assert()
                .success()
                .stderr(predicate::str::contains("valid"));
            // A different message: exit 1.
            let other = p(&dir, "other.txt");
            fs::write(&other, b"hello, world!\n").unwrap();
            mldsa()
                .args(["verify", "-p", s(&public), "-s", s(&sig), s(&other)])
                .args(alg_arg)
                .assert()
                .code(1)
                .stderr(predicate::str::contains("INVALID"));
        }
    }
}

/// A Dilithium2-AES signature (raw keys, `-a Dilithium2-AES`) is valid only under that set:
/// the same key bytes read as Dilithium2 reject it (exit 1), and a raw AES private key without
/// `-a` is taken as the SHAKE set, whose strict decoding rejects it.
#[test]
fn aes_sets_are_told_apart_from_shake_sets() {
    let dir = TempDir::new().unwrap();
    let msg = p(&dir, "msg.txt");
    fs::write(&msg, b"legacy firmware\n").unwrap();
    let (key, public, sig) = (p(&dir, "k"), p(&dir, "p"), p(&dir, "s"));
    mldsa()
        .args([
            "keygen",
            "-a",
            "Dilithium2-AES",
            "--format",
            "raw",
            "-o",
            s(&key),
        ])
        .args(["--pub", s(&public)])
        .assert()
        .success();
    mldsa()
        .args([
            "sign",
            "-a",
            "Dilithium2-AES",
            "-k",
            s(&key),
            "-o",
            s(&sig),
            s(&msg),
        ])
        .assert()
        .success();
    mldsa()
        .args([
            "verify",
            "-a",
            "Dilithium2-AES",
            "-p",
            s(&public),
            "-s",
            s(&sig),
            s(&msg),
        ])
        .assert()
        .success();
    mldsa()
        .args([
            "verify",
            "-a",
            "Dilithium2",
            "-p",
            s(&public),
            "-s",
            s(&sig),
            s(&msg),
        ])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("INVALID"));
    mldsa()
        .args(["sign", "-k", s(&key), "-o", s(&sig), s(&msg)])
        .assert()
        .failure();
}

#[test]
fn pipes_and_text_signature_formats() {
    let dir = TempDir::new().unwrap();
    let key = p(&dir, "k.pem");
    let public = p(&dir, "p.pem");
    mldsa()
        .args(["keygen", "-o", s(&key), "--pub", s(&public)])
        .assert()
        .success();
    for format in ["raw", "hex", "base64"] {
        let out = mldsa()
            .args(["sign", "-k", s(&key), "--sig-format", format, "-"])
            .write_stdin("piped message")
            .assert()
            .success()
            .get_output()
            .stdout
            .clone();
        let sig = p(&dir, &format!("sig.{format}"));
        fs::write(&sig, &out).unwrap();
        mldsa()
            .args(["verify", "-p", s(&public), "-s", s(&sig), "-"])
            .write_stdin("piped message")
            .assert()
            .success();
    }
}

#[test]
fn seed_keys_match_the_library_and_deterministic_signatures_are_reproducible() {
    let dir = TempDir::new().unwrap();
    let key = p(&dir, "k.raw");
    mldsa()
        .args([
            "keygen",
            "-a",
            "ML-DSA-44",
            "--seed",
            SEED,
            "--format",
            "raw",
            "--key-form",
            "expanded",
            "-o",
            s(&key),
        ])
        .assert()
        .success();
    let seed: [u8; 32] = hex::decode(SEED).unwrap().try_into().unwrap();
    let lib = mldsa::SigningKey::<mldsa::MlDsa44>::from_seed(&seed);
    assert_eq!(fs::read(&key).unwrap(), lib.to_expanded_bytes().to_vec());

    let msg = p(&dir, "m");
    fs::write(&msg, b"abc").unwrap();
    let sign = |extra: &[&str]| {
        mldsa()
            .args(["sign", "-k", s(&key), "--context", "ctx"])
            .args(extra)
            .arg(s(&msg))
            .assert()
            .success()
            .get_output()
            .stdout
            .clone()
    };
    let expected = lib.sign_deterministic(b"abc", b"ctx").unwrap();
    assert_eq!(sign(&["--deterministic"]), expected.as_bytes());
    let rnd = "11".repeat(32);
    let with_rnd = lib
        .sign_mu(
            &lib.verifying_key().compute_mu(b"abc", b"ctx").unwrap(),
            &[0x11; 32],
        )
        .unwrap();
    assert_eq!(sign(&["--rnd", &rnd]), with_rnd.as_bytes());
    // Hedged (default) signatures differ from run to run.
    assert_ne!(sign(&[]), sign(&[]));
}

#[test]
fn context_prehash_and_external_mu() {
    let dir = TempDir::new().unwrap();
    let key = p(&dir, "k.pem");
    let public = p(&dir, "p.pem");
    let msg = p(&dir, "m");
    let sig = p(&dir, "s");
    fs::write(&msg, vec![7u8; 100_000]).unwrap();
    mldsa()
        .args([
            "keygen",
            "-a",
            "ML-DSA-87",
            "-o",
            s(&key),
            "--pub",
            s(&public),
        ])
        .assert()
        .success();

    // Context: must match.
    mldsa()
        .args([
            "sign",
            "-k",
            s(&key),
            "--context",
            "v1",
            "-o",
            s(&sig),
            s(&msg),
        ])
        .assert()
        .success();
    mldsa()
        .args([
            "verify",
            "-p",
            s(&public),
            "-s",
            s(&sig),
            "--context",
            "v1",
            s(&msg),
        ])
        .assert()
        .success();
    mldsa()
        .args([
            "verify",
            "-p",
            s(&public),
            "-s",
            s(&sig),
            "--context-hex",
            "7631",
            s(&msg),
        ])
        .assert()
        .success();
    mldsa()
        .args([
            "verify",
            "-p",
            s(&public),
            "-s",
            s(&sig),
            "--context",
            "v2",
            s(&msg),
        ])
        .assert()
        .code(1);
    mldsa()
        .args(["verify", "-p", s(&public), "-s", s(&sig), s(&msg)])
        .assert()
        .code(1);

    // HashML-DSA: must match the pre-hash; pure verification rejects it.
    mldsa()
        .args([
            "sign",
            "-k",
            s(&key),
            "--prehash",
            "SHA2-512",
            "--force",
            "-o",
            s(&sig),
            s(&msg),
        ])
        .assert()
        .success();
    mldsa()
        .args([
            "verify",
            "-p",
            s(&public),
            "-s",
            s(&sig),
            "--prehash",
            "sha2-512",
            s(&msg),
        ])
        .assert()
        .success();
    mldsa()
        .args([
            "verify",
            "-p",
            s(&public),
            "-s",
            s(&sig),
            "--prehash",
            "SHA3-512",
            s(&msg),
        ])
        .assert()
        .code(1);
    mldsa()
        .args(["verify", "-p", s(&public), "-s", s(&sig), s(&msg)])
        .assert()
        .code(1);
    mldsa()
        .args(["sign", "-k", s(&key), "--prehash", "MD5", s(&msg)])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("unknown pre-hash"));

    // External mu: compute with the public key, sign with the private key, verify the message.
    let mu = mldsa()
        .args(["mu", "-p", s(&public), "--context", "x", s(&msg)])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let mu_file = p(&dir, "mu");
    fs::write(&mu_file, &mu).unwrap();
    mldsa()
        .args([
            "sign",
            "-k",
            s(&key),
            "--external-mu",
            "--force",
            "-o",
            s(&sig),
            s(&mu_file),
        ])
        .assert()
        .success();
    mldsa()
        .args([
            "verify",
            "-p",
            s(&public),
            "-s",
            s(&sig),
            "--context",
            "x",
            s(&msg),
        ])
        .assert()
        .success();
    mldsa()
        .args([
            "verify",
            "-p",
            s(&public),
            "-s",
            s(&sig),
            "--external-mu",
            s(&mu_file),
        ])
        .assert()
        .success();

    // A context over 255 bytes is a usage error.
    mldsa()
        .args([
            "sign",
            "-k",
            s(&key),
            "--context",
            &"x".repeat(256),
            s(&msg),
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("at most 255 bytes"));
}

#[test]
fn never_overwrites_without_force_and_protects_private_keys() {
    let dir = TempDir::new().unwrap();
    let key = p(&dir, "k.pem");
    mldsa().args(["keygen", "-o", s(&key)]).assert().success();
    let before = fs::read(&key).unwrap();
    mldsa()
        .args(["keygen", "-o", s(&key)])
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("already exists").and(predicate::str::contains("--force")),
        );
    assert_eq!(
        fs::read(&key).unwrap(),
        before,
        "the existing key must be untouched"
    );
    mldsa()
        .args(["keygen", "-o", s(&key), "--force"])
        .assert()
        .success();
    assert_ne!(fs::read(&key).unwrap(), before);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = fs::metadata(&key).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "private keys are created 0600");
    }
    // No temporary files are left behind.
    let names: Vec<_> = fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 1, "{names:?}");
}

#[test]
fn errors_name_the_file_and_what_is_wrong() {
    let dir = TempDir::new().unwrap();
    let key = p(&dir, "k44.pem");
    let garbage = p(&dir, "garbage.bin");
    let msg = p(&dir, "m");
    fs::write(&garbage, b"definitely not a key").unwrap();
    fs::write(&msg, b"m").unwrap();
    mldsa()
        .args(["keygen", "-a", "ML-DSA-44", "-o", s(&key)])
        .assert()
        .success();

    mldsa()
        .args(["sign", "-k", s(&key), "-a", "ML-DSA-65", s(&msg)])
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("k44.pem")
                .and(predicate::str::contains("ML-DSA-44 but -a ML-DSA-65")),
        );
    mldsa()
        .args(["sign", "-k", s(&garbage), s(&msg)])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("garbage.bin"));
    mldsa()
        .args(["sign", "-k", s(&p(&dir, "missing.pem")), s(&msg)])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("missing.pem"));
    let public = p(&dir, "p.pem");
    mldsa()
        .args(["pubkey", "-k", s(&key), "-o", s(&public)])
        .assert()
        .success();
    mldsa()
        .args(["verify", "-p", s(&public), "-s", s(&garbage), s(&msg)])
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("garbage.bin")
                .and(predicate::str::contains("expected 2420 bytes")),
        );
    mldsa()
        .args(["keygen", "--seed", "abcd"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--seed must be 32 bytes"));
    mldsa().args(["keygen", "-a", "RSA"]).assert().code(2);
    // Never a panic or a Rust debug dump.
    mldsa()
        .args(["sign", "-k", s(&garbage), s(&msg)])
        .assert()
        .stderr(predicate::str::contains("panicked").not());
}

#[test]
fn inspect_and_convert() {
    let dir = TempDir::new().unwrap();
    let key = p(&dir, "k.pem");
    mldsa()
        .args(["keygen", "-a", "ML-DSA-65", "--seed", SEED, "-o", s(&key)])
        .assert()
        .success();
    mldsa()
        .args(["inspect", s(&key)])
        .assert()
        .success()
        .stdout(
            predicate::str::contains("private key")
                .and(predicate::str::contains("ML-DSA-65"))
                .and(predicate::str::contains("seed")),
        );

    // Every form and format converts back to the same public key.
    let public = p(&dir, "p.pem");
    mldsa()
        .args(["convert", "-i", s(&key), "--public", "-o", s(&public)])
        .assert()
        .success();
    let expected = fs::read(&public).unwrap();
    for (format, form) in [
        ("der", "seed"),
        ("der", "expanded"),
        ("pem", "both"),
        ("raw", "expanded"),
        ("raw", "seed"),
    ] {
        let out = p(&dir, &format!("k.{format}.{form}"));
        mldsa()
            .args([
                "convert",
                "-i",
                s(&key),
                "--format",
                format,
                "--key-form",
                form,
                "-o",
                s(&out),
            ])
            .assert()
            .success();
        let back = p(&dir, &format!("p.{format}.{form}"));
        mldsa()
            .args(["pubkey", "-a", "ML-DSA-65", "-k", s(&out), "-o", s(&back)])
            .assert()
            .success();
        assert_eq!(fs::read(&back).unwrap(), expected, "{format} {form}");
        mldsa()
            .args(["inspect", "-a", "ML-DSA-65", s(&out)])
            .assert()
            .success()
            .stdout(predicate::str::contains("ML-DSA-65"));
    }
    // An expanded-only key cannot be written as a seed.
    let expanded = p(&dir, "k.der.expanded");
    mldsa()
        .args([
            "convert",
            "-i",
            s(&expanded),
            "--format",
            "pem",
            "--key-form",
            "seed",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no seed"));
    mldsa()
        .args(["inspect", s(&public)])
        .assert()
        .success()
        .stdout(predicate::str::contains("public key"));
}

#[test]
fn legacy_dilithium_has_no_context_or_prehash() {
    let dir = TempDir::new().unwrap();
    let key = p(&dir, "k");
    let msg = p(&dir, "m");
    fs::write(&msg, b"m").unwrap();
    mldsa()
        .args([
            "keygen",
            "-a",
            "Dilithium3",
            "--format",
            "raw",
            "-o",
            s(&key),
        ])
        .assert()
        .success();
    mldsa()
        .args([
            "sign",
            "-a",
            "Dilithium3",
            "-k",
            s(&key),
            "--context",
            "x",
            s(&msg),
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("legacy"));
    mldsa()
        .args(["keygen", "-a", "Dilithium3", "--format", "pem"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("raw"));
}

#[test]
fn demo_and_bench_run() {
    mldsa()
        .args(["demo"])
        .assert()
        .success()
        .stdout(predicate::str::contains("INVALID (as it should be)"));
    mldsa()
        .args(["bench", "-a", "ML-DSA-44", "-n", "5"])
        .assert()
        .success()
        .stdout(predicate::str::contains("| ML-DSA-44 | sign |"));
    mldsa()
        .args(["completions", "bash"])
        .assert()
        .success()
        .stdout(predicate::str::contains("mldsa"));
}

#[test]
fn refuses_to_print_private_keys_to_a_terminal_but_pipes_them() {
    // Under the test harness stdout is a pipe, so writing the key to stdout works.
    mldsa()
        .args(["keygen"])
        .assert()
        .success()
        .stdout(predicate::str::contains("BEGIN PRIVATE KEY"));
}

#[test]
fn encrypted_private_keys() {
    let dir = TempDir::new().unwrap();
    let pass = p(&dir, "pass.txt");
    let wrong = p(&dir, "wrong.txt");
    fs::write(&pass, "correct horse battery staple\n").unwrap();
    fs::write(&wrong, "incorrect\n").unwrap();
    let key = p(&dir, "k.pem");
    let msg = p(&dir, "m");
    fs::write(&msg, b"m").unwrap();
    mldsa()
        .args(["keygen", "--encrypt", "-o", s(&key)])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--passphrase-file"));
    mldsa()
        .args([
            "keygen",
            "--encrypt",
            "--passphrase-file",
            s(&pass),
            "-o",
            s(&key),
        ])
        .assert()
        .success();
    assert!(
        fs::read_to_string(&key)
            .unwrap()
            .starts_with("-----BEGIN ENCRYPTED PRIVATE KEY-----")
    );
    mldsa()
        .args(["inspect", s(&key)])
        .assert()
        .success()
        .stdout(predicate::str::contains("encrypted private key"));
    mldsa()
        .args(["sign", "-k", s(&key), s(&msg)])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("k.pem").and(predicate::str::contains("encrypted")));
    mldsa()
        .args([
            "sign",
            "-k",
            s(&key),
            "--passphrase-file",
            s(&wrong),
            s(&msg),
        ])
        .assert()
        .code(2);
    let sig = p(&dir, "sig");
    mldsa()
        .args([
            "sign",
            "-k",
            s(&key),
            "--passphrase-file",
            s(&pass),
            "-o",
            s(&sig),
            s(&msg),
        ])
        .assert()
        .success();
    // Decrypt by converting, then verify with the derived public key.
    let plain = p(&dir, "plain.pem");
    mldsa()
        .args(["convert", "-i", s(&key), "-o", s(&plain)])
        .env("PW", "correct horse battery staple")
        .args(["--passphrase-env", "PW"])
        .assert()
        .success();
    assert!(
        fs::read_to_string(&plain)
            .unwrap()
            .starts_with("-----BEGIN PRIVATE KEY-----")
    );
    mldsa()
        .args(["verify", "-p", s(&plain), "-s", s(&sig), s(&msg)])
        .assert()
        .success();
}

#[cfg(unix)]
#[test]
fn special_files_and_symlinks_are_written_through_not_replaced() {
    let dir = TempDir::new().unwrap();
    // A FIFO stands in for /dev/null: writing into it must not replace it with a regular file.
    let fifo = p(&dir, "fifo");
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || fs::read(&fifo).unwrap())
    };
    mldsa()
        .args(["keygen", "-o", s(&fifo), "--force"])
        .assert()
        .success();
    assert!(
        String::from_utf8(reader.join().unwrap())
            .unwrap()
            .contains("BEGIN PRIVATE KEY")
    );
    use std::os::unix::fs::FileTypeExt;
    assert!(
        fs::metadata(&fifo).unwrap().file_type().is_fifo(),
        "the FIFO must still be a FIFO"
    );

    // A symlink to a key: --force replaces the file it points to and keeps the link.
    let target = p(&dir, "real.pem");
    let link = p(&dir, "link.pem");
    mldsa()
        .args(["keygen", "-o", s(&target)])
        .assert()
        .success();
    std::os::unix::fs::symlink(&target, &link).unwrap();
    mldsa().args(["keygen", "-o", s(&link)]).assert().code(2);
    let before = fs::read(&target).unwrap();
    mldsa()
        .args(["keygen", "-o", s(&link), "--force"])
        .assert()
        .success();
    assert!(
        fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_ne!(fs::read(&target).unwrap(), before);

    // pubkey accepts a public key too.
    let public = p(&dir, "pub.der");
    mldsa()
        .args([
            "pubkey",
            "-k",
            s(&target),
            "--format",
            "der",
            "-o",
            s(&public),
        ])
        .assert()
        .success();
    mldsa()
        .args(["pubkey", "-k", s(&public)])
        .assert()
        .success()
        .stdout(predicate::str::contains("BEGIN PUBLIC KEY"));
}

#[test]
fn pem_with_text_around_the_block_is_read() {
    let dir = TempDir::new().unwrap();
    let key = p(&dir, "k.pem");
    let public = p(&dir, "p.pem");
    mldsa()
        .args(["keygen", "-o", s(&key), "--pub", s(&public)])
        .assert()
        .success();
    // As `openssl pkey -text` writes it: a description after the END line; and a subject line
    // before BEGIN, as in certificate bundles.
    let wrapped_key = p(&dir, "k-text.pem");
    fs::write(
        &wrapped_key,
        format!(
            "{}ML-DSA-65 Private-Key:\nseed:\n    00:01\n",
            fs::read_to_string(&key).unwrap()
        ),
    )
    .unwrap();
    let wrapped_pub = p(&dir, "p-text.pem");
    fs::write(
        &wrapped_pub,
        format!(
            "subject=CN=example\n{}",
            fs::read_to_string(&public).unwrap()
        ),
    )
    .unwrap();
    let msg = p(&dir, "m");
    let sig = p(&dir, "s");
    fs::write(&msg, b"m").unwrap();
    mldsa()
        .args(["sign", "-k", s(&wrapped_key), "-o", s(&sig), s(&msg)])
        .assert()
        .success();
    mldsa()
        .args(["verify", "-p", s(&wrapped_pub), "-s", s(&sig), s(&msg)])
        .assert()
        .success();
}

#[test]
fn inspect_explains_why_a_private_key_does_not_load() {
    let dir = TempDir::new().unwrap();
    let pass = p(&dir, "pass");
    let wrong = p(&dir, "wrong");
    fs::write(&pass, "right\n").unwrap();
    fs::write(&wrong, "wrong\n").unwrap();
    let key = p(&dir, "k.pem");
    mldsa()
        .args([
            "keygen",
            "--encrypt",
            "--passphrase-file",
            s(&pass),
            "-o",
            s(&key),
        ])
        .assert()
        .success();
    mldsa()
        .args(["inspect", "--passphrase-file", s(&wrong), s(&key)])
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("k.pem").and(predicate::str::contains("recognises").not()),
        );
    mldsa()
        .args(["inspect", "--passphrase-file", s(&pass), s(&key)])
        .assert()
        .success()
        .stdout(predicate::str::contains("ML-DSA-65"));
}

/// Issue #22's reproduction: a raw seed beginning `30 1e` (one DER SEQUENCE of 30 bytes, in
/// form) was written and then refused as malformed DER. It must sign and verify.
#[test]
fn raw_seed_that_looks_like_der_signs_and_verifies() {
    let dir = TempDir::new().unwrap();
    let (sk, pk, m, sig) = (p(&dir, "sk"), p(&dir, "pk"), p(&dir, "m"), p(&dir, "m.sig"));
    let seed = "301e000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d";
    mldsa()
        .args([
            "keygen",
            "-a",
            "ML-DSA-44",
            "--seed",
            seed,
            "--format",
            "raw",
        ])
        .args(["--key-form", "seed", "-o", s(&sk), "--pub", s(&pk)])
        .assert()
        .success();
    fs::write(&m, b"").unwrap();
    mldsa()
        .args(["sign", "-a", "ML-DSA-44", "-k", s(&sk), "--deterministic"])
        .args(["-o", s(&sig), s(&m)])
        .assert()
        .success();
    mldsa()
        .args([
            "verify",
            "-a",
            "ML-DSA-44",
            "-p",
            s(&pk),
            "-s",
            s(&sig),
            s(&m),
        ])
        .assert()
        .success();
    // Said explicitly, the format is not guessed at all; the wrong one is an error.
    mldsa()
        .args([
            "sign",
            "-a",
            "ML-DSA-44",
            "-k",
            s(&sk),
            "--in-format",
            "der",
            s(&m),
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("DER"));
}

/// `--in-format` settles what detection would guess: a PEM public key with explanatory text
/// around it, padded to the size of a raw ML-DSA-65 public key, is PEM unless told otherwise.
#[test]
fn in_format_and_sig_format_say_how_to_read() {
    let dir = TempDir::new().unwrap();
    let (key, public, m, sig) = (
        p(&dir, "k.pem"),
        p(&dir, "p.pem"),
        p(&dir, "m"),
        p(&dir, "m.sig"),
    );
    mldsa()
        .args([
            "keygen",
            "-a",
            "ML-DSA-44",
            "-o",
            s(&key),
            "--pub",
            s(&public),
        ])
        .assert()
        .success();
    let mut padded = fs::read_to_string(&public).unwrap();
    while padded.len() < 1952 {
        padded.insert(0, '#');
    }
    fs::write(&public, &padded).unwrap();
    mldsa()
        .args(["inspect", s(&public)])
        .assert()
        .success()
        .stdout(predicate::str::contains("ML-DSA-44").and(predicate::str::contains("PEM")));
    mldsa()
        .args([
            "inspect",
            "--in-format",
            "raw",
            "-a",
            "ML-DSA-65",
            s(&public),
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains("ML-DSA-65").and(predicate::str::contains("raw")));
    // With -a naming another set, the PEM reading does not fit and the raw one is taken.
    mldsa()
        .args(["inspect", "-a", "ML-DSA-65", s(&public)])
        .assert()
        .success()
        .stdout(predicate::str::contains("raw"));
    fs::write(&m, b"msg").unwrap();
    mldsa()
        .args([
            "sign",
            "-k",
            s(&key),
            "--sig-format",
            "hex",
            "-o",
            s(&sig),
            s(&m),
        ])
        .assert()
        .success();
    mldsa()
        .args([
            "verify",
            "-p",
            s(&public),
            "-s",
            s(&sig),
            "--sig-format",
            "hex",
            s(&m),
        ])
        .assert()
        .success();
    mldsa()
        .args([
            "verify",
            "-p",
            s(&public),
            "-s",
            s(&sig),
            "--sig-format",
            "base64",
            s(&m),
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("as base64"));
}

/// Issue #18 (5): a raw public key whose length fits ML-DSA-44 and Dilithium2 gets no verdict
/// under a scheme the user did not choose.
#[test]
fn raw_public_key_of_a_shared_length_needs_a() {
    let dir = TempDir::new().unwrap();
    let (key, public, m, sig) = (p(&dir, "k"), p(&dir, "p"), p(&dir, "m"), p(&dir, "s"));
    mldsa()
        .args([
            "keygen",
            "-a",
            "Dilithium2",
            "--format",
            "raw",
            "-o",
            s(&key),
        ])
        .args(["--pub", s(&public)])
        .assert()
        .success();
    fs::write(&m, b"msg").unwrap();
    mldsa()
        .args([
            "sign",
            "-a",
            "Dilithium2",
            "-k",
            s(&key),
            "-o",
            s(&sig),
            s(&m),
        ])
        .assert()
        .success();
    for cmd in [
        &["verify", "-p", s(&public), "-s", s(&sig), s(&m)][..],
        &["inspect", s(&public)],
        &["pubkey", "-k", s(&public)],
        &["convert", "-i", s(&public), "--format", "raw"],
    ] {
        mldsa()
            .args(cmd)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(
                "raw key of 1312 bytes: add -a ML-DSA-44 or -a Dilithium2",
            ));
    }
    mldsa()
        .args([
            "verify",
            "-a",
            "Dilithium2",
            "-p",
            s(&public),
            "-s",
            s(&sig),
            s(&m),
        ])
        .assert()
        .success();
}

/// The names in `dir`, sorted.
fn listing(dir: &TempDir) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}

/// Issue #18 (1): all outputs of a command are checked before any is written; on failure
/// nothing new is left behind.
#[test]
fn outputs_are_checked_together_and_nothing_is_left_on_failure() {
    let dir = TempDir::new().unwrap();
    let (key, public) = (p(&dir, "key.pem"), p(&dir, "pub.pem"));
    fs::write(&key, b"precious").unwrap();
    // The private key exists: exit 2, and no public key appears.
    mldsa()
        .args(["keygen", "-o", s(&key), "--pub", s(&public)])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("already exists"));
    assert_eq!(listing(&dir), ["key.pem"]);
    assert_eq!(fs::read(&key).unwrap(), b"precious");
    // The private key's directory does not exist: no public key either.
    let missing = p(&dir, "no/such/dir/key.pem");
    mldsa()
        .args(["keygen", "-o", s(&missing), "--pub", s(&public)])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no/such/dir"));
    assert_eq!(listing(&dir), ["key.pem"]);
    // The same file for both, even with --force, and under two spellings.
    let same = p(&dir, "same.pem");
    mldsa()
        .args(["keygen", "-o", s(&same), "--pub", s(&same), "--force"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("two outputs"));
    let other_spelling = dir.path().join(".").join("same.pem");
    mldsa()
        .args(["keygen", "-o", s(&same), "--pub", s(&other_spelling)])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("same output"));
    // Two outputs on stdout.
    mldsa().args(["keygen", "--pub", "-"]).assert().code(2);
    assert_eq!(listing(&dir), ["key.pem"]);
    // An unwritable directory for the public key: no private key is left.
    #[cfg(unix)]
    if !is_root() {
        use std::os::unix::fs::PermissionsExt;
        let locked = p(&dir, "locked");
        fs::create_dir(&locked).unwrap();
        fs::set_permissions(&locked, fs::Permissions::from_mode(0o500)).unwrap();
        let fresh = p(&dir, "fresh.pem");
        mldsa()
            .args([
                "keygen",
                "-o",
                s(&fresh),
                "--pub",
                s(&locked.join("pub.pem")),
            ])
            .assert()
            .code(2);
        assert!(!fresh.exists());
        fs::set_permissions(&locked, fs::Permissions::from_mode(0o700)).unwrap();
    }
}

#[cfg(unix)]
fn is_root() -> bool {
    std::process::Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.stdout.trim_ascii() == b"0")
}

/// Issue #18 (2): no output replaces an input of the same command, even with --force.
#[test]
fn an_output_never_replaces_an_input() {
    let dir = TempDir::new().unwrap();
    let (key, m, public) = (p(&dir, "key.pem"), p(&dir, "m"), p(&dir, "pub.pem"));
    mldsa()
        .args(["keygen", "-o", s(&key), "--pub", s(&public)])
        .assert()
        .success();
    fs::write(&m, b"message").unwrap();
    let key_before = fs::read(&key).unwrap();
    let link = p(&dir, "link.pem");
    std::os::unix::fs::symlink(&key, &link).unwrap();
    for (out, what) in [(&key, "key"), (&m, "message"), (&link, "key behind a link")] {
        mldsa()
            .args(["sign", "-k", s(&key), "-o", s(out), "--force", s(&m)])
            .assert()
            .code(2)
            .stderr(predicate::str::contains("refusing to write over it"));
        assert_eq!(fs::read(&key).unwrap(), key_before, "{what}");
        assert_eq!(fs::read(&m).unwrap(), b"message", "{what}");
    }
    for cmd in [
        &["pubkey", "-k", s(&key), "-o", s(&key), "--force"][..],
        &[
            "convert",
            "-i",
            s(&key),
            "-o",
            s(&key),
            "--force",
            "--format",
            "der",
        ],
        &["convert", "-i", s(&public), "-o", s(&public), "--force"],
    ] {
        mldsa()
            .args(cmd)
            .assert()
            .code(2)
            .stderr(predicate::str::contains("refusing to write over it"));
    }
    assert_eq!(fs::read(&key).unwrap(), key_before);
    let pass = p(&dir, "pass");
    fs::write(&pass, b"secret words\n").unwrap();
    mldsa()
        .args(["keygen", "--encrypt", "--passphrase-file", s(&pass)])
        .args(["-o", s(&pass), "--force"])
        .assert()
        .code(2);
    assert_eq!(fs::read(&pass).unwrap(), b"secret words\n");
}

/// Issue #18 (3): /dev/stdout, /dev/stderr and `-` are the streams; a special file is written
/// into, never renamed over, so a private key never ends in a deleted file.
#[test]
fn dev_stdout_is_the_stream() {
    let dir = TempDir::new().unwrap();
    let out = p(&dir, "out.txt");
    let run = |args: &[&str]| {
        let file = fs::File::create(&out).unwrap();
        std::process::Command::new(env!("CARGO_BIN_EXE_mldsa"))
            .args(args)
            .stdout(file)
            .status()
            .unwrap()
    };
    // Private key to stdout and public key to /dev/stdout: two outputs on one stream.
    let status = run(&["keygen", "--pub", "/dev/stdout", "--force"]);
    assert_eq!(status.code(), Some(2));
    assert!(!fs::read_to_string(&out).unwrap().contains("PRIVATE"));
    // Private key to a file, public key to /dev/stdout: the public key lands in out.txt, which
    // stays the same file (not replaced by a rename).
    let key = p(&dir, "key.pem");
    #[cfg(unix)]
    let inode = {
        use std::os::unix::fs::MetadataExt;
        || fs::metadata(&out).unwrap().ino()
    };
    let status = run(&["keygen", "-o", s(&key), "--pub", "/dev/stdout", "--force"]);
    assert!(status.success());
    let before = inode();
    assert!(
        fs::read_to_string(&out)
            .unwrap()
            .contains("BEGIN PUBLIC KEY")
    );
    assert!(
        fs::read_to_string(&key)
            .unwrap()
            .contains("BEGIN PRIVATE KEY")
    );
    assert_eq!(inode(), before);
    let status = run(&["pubkey", "-k", s(&key), "-o", "/dev/stderr"]);
    assert!(status.success());
    assert!(fs::read(&out).unwrap().is_empty(), "stdout got nothing");
    // A FIFO is written into and stays a FIFO (see special_files_and_symlinks_...), and
    // so is /dev/null.
    mldsa()
        .args(["pubkey", "-k", s(&key), "-o", "/dev/null", "--force"])
        .assert()
        .success();
    assert!(!fs::metadata("/dev/null").unwrap().is_file());
}

/// Issue #18 (4): an option that would have no effect is an error, never silently ignored.
#[test]
fn options_without_effect_are_errors() {
    let dir = TempDir::new().unwrap();
    let (key, public, m, mu) = (
        p(&dir, "k.pem"),
        p(&dir, "p.pem"),
        p(&dir, "m"),
        p(&dir, "mu"),
    );
    mldsa()
        .args(["keygen", "-o", s(&key), "--pub", s(&public)])
        .assert()
        .success();
    fs::write(&m, b"m").unwrap();
    fs::write(&mu, [7u8; 64]).unwrap();
    let pass = p(&dir, "pass");
    fs::write(&pass, b"pw\n").unwrap();
    let no_effect: &[&[&str]] = &[
        &[
            "sign",
            "-k",
            s(&key),
            "--external-mu",
            "--context",
            "x",
            s(&mu),
        ],
        &[
            "sign",
            "-k",
            s(&key),
            "--external-mu",
            "--context-hex",
            "00",
            s(&mu),
        ],
        &[
            "sign",
            "-k",
            s(&key),
            "--external-mu",
            "--prehash",
            "SHA2-512",
            s(&mu),
        ],
        &[
            "verify",
            "-p",
            s(&public),
            "-s",
            s(&m),
            "--external-mu",
            "--context",
            "x",
            s(&mu),
        ],
        &[
            "sign",
            "-k",
            s(&key),
            "--rnd",
            SEED,
            "--deterministic",
            s(&m),
        ],
        &[
            "convert",
            "-i",
            s(&public),
            "--encrypt",
            "--passphrase-file",
            s(&pass),
        ],
        &["convert", "-i", s(&public), "--key-form", "seed"],
        &["convert", "-i", s(&key), "--public", "--key-form", "seed"],
        &["sign", "-k", s(&key), "--passphrase-file", s(&pass), s(&m)],
        &["pubkey", "-k", s(&key), "--passphrase-file", s(&pass)],
        &["inspect", s(&key), "--passphrase-file", s(&pass)],
        &["sign", "-k", s(&key), "--force", s(&m)],
    ];
    for args in no_effect {
        mldsa().args(*args).assert().code(2);
    }
    // keygen with a passphrase but no --encrypt: exit 2, and no (unencrypted) key written.
    let out = p(&dir, "plain.pem");
    mldsa()
        .args(["keygen", "--passphrase-file", s(&pass), "-o", s(&out)])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--encrypt"));
    assert!(!out.exists());
}

/// Issue #18, should-fix: quiet means silent, honest help, warnings about readable private
/// keys, consistent messages, `bench` limits, legacy keygen defaults.
#[test]
fn quiet_help_warnings_and_defaults() {
    let dir = TempDir::new().unwrap();
    let (key, public, m, sig) = (
        p(&dir, "k.pem"),
        p(&dir, "p.pem"),
        p(&dir, "m"),
        p(&dir, "s"),
    );
    mldsa()
        .args(["keygen", "-o", s(&key), "--pub", s(&public)])
        .assert()
        .success();
    fs::write(&m, b"m").unwrap();
    mldsa()
        .args(["sign", "-k", s(&key), "-o", s(&sig), s(&m)])
        .assert()
        .success()
        .stderr(predicate::str::contains("warning").not());
    fs::write(&m, b"other").unwrap();
    mldsa()
        .args(["verify", "-q", "-p", s(&public), "-s", s(&sig), s(&m)])
        .assert()
        .code(1)
        .stderr(predicate::str::is_empty());
    // A private key in a file others can read: a warning, as ssh gives (it refuses).
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(&key, fs::Permissions::from_mode(0o644)).unwrap();
        mldsa()
            .args(["sign", "-k", s(&key), "-o", s(&p(&dir, "s2")), s(&m)])
            .assert()
            .success()
            .stderr(predicate::str::contains("readable by others"));
        let redirected = p(&dir, "redirected.pem");
        let file = fs::File::create(&redirected).unwrap();
        fs::set_permissions(&redirected, fs::Permissions::from_mode(0o644)).unwrap();
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_mldsa"))
            .arg("keygen")
            .stdout(file)
            .output()
            .unwrap();
        assert!(out.status.success());
        assert!(String::from_utf8_lossy(&out.stderr).contains("readable by others"));
    }
    // Help that tells the truth.
    let help = |cmd: &str| {
        String::from_utf8(mldsa().args([cmd, "--help"]).output().unwrap().stdout).unwrap()
    };
    assert!(!help("verify").contains("sign the digest"));
    for cmd in ["sign", "verify"] {
        let h = help(cmd);
        assert!(
            !h.contains("; the default)") && !h.contains("[default: ML-DSA"),
            "{cmd} -a claims a default"
        );
    }
    for cmd in ["bench", "demo", "completions"] {
        assert!(
            !help(cmd).contains("passphrase"),
            "{cmd} offers a passphrase"
        );
    }
    // Legacy keygen picks raw itself.
    let legacy = p(&dir, "d2.key");
    mldsa()
        .args(["keygen", "-a", "Dilithium2", "-o", s(&legacy)])
        .assert()
        .success();
    assert_eq!(fs::read(&legacy).unwrap().len(), 32);
    // inspect says what sign says about a raw seed; a PEM of another kind names its label.
    for cmd in [
        &["inspect", s(&legacy)][..],
        &["sign", "-k", s(&legacy), s(&m)],
    ] {
        mldsa().args(cmd).assert().code(2).stderr(
            predicate::str::contains("raw 32-byte seed").and(predicate::str::contains("add -a")),
        );
    }
    let cert = p(&dir, "cert.pem");
    fs::write(
        &cert,
        "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n",
    )
    .unwrap();
    for cmd in [
        &["inspect", s(&cert)][..],
        &["sign", "-k", s(&cert), s(&m)],
        &["pubkey", "-k", s(&cert)],
    ] {
        mldsa()
            .args(cmd)
            .assert()
            .code(2)
            .stderr(predicate::str::contains("CERTIFICATE"));
    }
    // bench: -n 0 is refused, the backend is named, an unknown MLDSA_BACKEND is an error.
    mldsa().args(["bench", "-n", "0"]).assert().code(2);
    mldsa()
        .args(["bench", "-a", "ML-DSA-44", "-n", "1"])
        .assert()
        .success()
        .stdout(predicate::str::contains("backend:"));
    mldsa()
        .env("MLDSA_BACKEND", "avx9")
        .args(["bench", "-n", "1"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("MLDSA_BACKEND"));
}

/// Output into a pipe whose reader has gone (`mldsa bench | head -1`) ends the command quietly
/// with status 0, not with a panic about a broken pipe.
#[test]
fn closed_stdout_pipe_ends_quietly() {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_mldsa"))
        .args(["bench", "-n", "300"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("start mldsa");
    drop(child.stdout.take()); // the reader goes away before the first line
    let out = child.wait_with_output().expect("wait for mldsa");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(out.status.code(), Some(0), "{stderr}");
}

/// Issue #18, packaging: the man page is generated from the same definitions as --help.
#[test]
fn manpage_lists_every_command() {
    let out = mldsa()
        .arg("manpage")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let page = String::from_utf8(out).unwrap();
    assert!(page.contains(".TH mldsa 1"), "{page}");
    for cmd in [
        "keygen",
        "sign",
        "verify",
        "inspect",
        "convert",
        "completions",
    ] {
        assert!(page.contains(cmd), "{cmd} missing from the man page");
    }
}

/// Runs `args` on a pseudo-terminal (util-linux `script`), typing `input`; None without `script`.
fn on_terminal(dir: &TempDir, args: &[&str], input: &str) -> Option<(i32, String)> {
    let bin = env!("CARGO_BIN_EXE_mldsa");
    let quoted: Vec<String> = args.iter().map(|a| format!("'{a}'")).collect();
    let command = format!("{bin} {}", quoted.join(" "));
    let mut child = std::process::Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .current_dir(dir.path())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .ok()?;
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    Some((
        out.status.code()?,
        String::from_utf8_lossy(&out.stdout).into_owned(),
    ))
}

/// Issue #18, should-fix: on a terminal, the command asks for a passphrase (twice to encrypt),
/// refuses to print a binary signature, and says that it reads the message from stdin.
#[test]
fn terminal_prompts_and_refusals() {
    let dir = TempDir::new().unwrap();
    let Some((code, out)) = on_terminal(&dir, &["keygen", "--encrypt", "-o", "k.pem"], "pw\npw\n")
    else {
        eprintln!("skipped: util-linux `script` is not installed");
        return;
    };
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("Passphrase for the new key"), "{out}");
    let key = fs::read_to_string(p(&dir, "k.pem")).unwrap();
    assert!(key.contains("ENCRYPTED PRIVATE KEY"));
    let (code, out) =
        on_terminal(&dir, &["keygen", "--encrypt", "-o", "k2.pem"], "pw\npx\n").unwrap();
    assert_eq!(code, 2, "{out}");
    assert!(
        out.contains("differ") && !p(&dir, "k2.pem").exists(),
        "{out}"
    );
    // Reading the encrypted key asks once.
    let (code, out) = on_terminal(&dir, &["pubkey", "-k", "k.pem"], "pw\n").unwrap();
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("BEGIN PUBLIC KEY"), "{out}");
    fs::write(p(&dir, "m"), b"m").unwrap();
    let (code, out) = on_terminal(&dir, &["sign", "-k", "k.pem", "m"], "pw\n").unwrap();
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("binary signature to the terminal"), "{out}");
    let (code, out) = on_terminal(
        &dir,
        &["sign", "-k", "k.pem", "--sig-format", "hex"],
        "pw\nmessage\n\x04",
    )
    .unwrap();
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("reading the message from stdin"), "{out}");
}

/// Runs a shell command line on a terminal (util-linux `script`), so that redirections work;
/// returns the exit code and what the terminal showed, or None without `script`.
fn shell_on_terminal(dir: &TempDir, line: &str) -> Option<(i32, String)> {
    let out = std::process::Command::new("script")
        .args(["-qec", line, "/dev/null"])
        .current_dir(dir.path())
        .stdin(std::process::Stdio::null())
        .output()
        .ok()?;
    Some((
        out.status.code()?,
        String::from_utf8_lossy(&out.stdout).into_owned(),
    ))
}

/// Issue #18, should-fix: a progress bar on a terminal for a large message, also when it comes
/// on stdin redirected from a file (its size is known), none with `verify -q`, and one for a
/// long `bench`.
#[test]
fn progress_bars_on_a_terminal() {
    let dir = TempDir::new().unwrap();
    let bin = env!("CARGO_BIN_EXE_mldsa");
    mldsa()
        .current_dir(dir.path())
        .args(["keygen", "-o", "k.pem", "--pub", "p.pem"])
        .assert()
        .success();
    // 64 MiB: well above the 4 MiB threshold, and long enough for the bar to be drawn.
    fs::write(p(&dir, "big"), vec![0x5a; 64 << 20]).unwrap();
    let Some((code, out)) = shell_on_terminal(&dir, &format!("{bin} sign -k k.pem -o s1 big"))
    else {
        eprintln!("skipped: util-linux `script` is not installed");
        return;
    };
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("64.00 MiB"),
        "no progress bar for a file: {out:?}"
    );
    let (code, out) =
        shell_on_terminal(&dir, &format!("{bin} sign -k k.pem -o s2 - < big")).unwrap();
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("64.00 MiB"),
        "no progress bar for stdin: {out:?}"
    );
    let (code, out) =
        shell_on_terminal(&dir, &format!("{bin} verify -q -p p.pem -s s2 - < big")).unwrap();
    assert_eq!(code, 0, "{out}");
    assert!(out.trim().is_empty(), "verify -q printed {out:?}");
    let (code, out) =
        shell_on_terminal(&dir, &format!("{bin} bench -a ML-DSA-44 -n 1001")).unwrap();
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("/1001"),
        "no progress bar for bench -n 1001: {out:?}"
    );
}
