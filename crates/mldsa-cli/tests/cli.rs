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
