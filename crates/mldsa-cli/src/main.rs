//! `mldsa`: ML-DSA (FIPS 204) keys, signatures and verification from the shell.

#[macro_use]
mod out; // first: its `outln!` is used by the modules below

mod alg;
mod bench;
mod cli;
mod error;
mod files;
mod keys;
mod ops;
#[cfg(test)]
mod readback_tests;
mod sigfmt;

use crate::alg::Alg;
use crate::cli::{Cli, Command, MessageArgs};
use crate::error::{CliError, EXIT_USAGE, Result};
use crate::files::{Output, read_small, write_outputs};
use crate::keys::{Form, Format, KeyFile, PublicKey, SecretKey, format_name};
use crate::ops::{MessageOptions, Randomness};
use clap::{CommandFactory, Parser};
use std::io::IsTerminal;
use std::process::ExitCode;
use zeroize::Zeroizing;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = check_backend_variable().and_then(|()| run(cli.command));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            // An empty message: `verify -q` on an invalid signature says nothing.
            if !e.message.is_empty() {
                eprintln!("mldsa: {e}");
            }
            ExitCode::from(e.code)
        }
    }
}

thread_local! {
    /// The passphrase given with --passphrase-file / --passphrase-env, if any.
    static PASSPHRASE: std::cell::RefCell<Option<Zeroizing<Vec<u8>>>> =
        const { std::cell::RefCell::new(None) };
    /// Which option gave the passphrase, and its file (an input no output may replace).
    static PASSPHRASE_SOURCE: std::cell::RefCell<Option<(&'static str, Option<String>)>> =
        const { std::cell::RefCell::new(None) };
}

/// The passphrase file, if any: an input of every command.
fn passphrase_file() -> Option<String> {
    PASSPHRASE_SOURCE.with(|s| s.borrow().as_ref().and_then(|(_, f)| f.clone()))
}

/// A passphrase that would have no effect is an error (the user meant something to happen):
/// `reads_encrypted` says whether the command reads an encrypted key, `encrypts` whether it
/// writes one.
fn passphrase_must_be_used(key: &str, reads_encrypted: bool, encrypts: bool) -> Result<()> {
    match PASSPHRASE_SOURCE.with(|s| s.borrow().as_ref().map(|(o, _)| *o)) {
        Some(option) if !reads_encrypted && !encrypts => Err(CliError::usage(match key {
            "" => format!("{option} was given, but nothing is encrypted: add --encrypt"),
            "-" => format!("{option} was given, but <stdin> is not an encrypted key"),
            _ => format!("{option} was given, but {key} is not an encrypted key"),
        })),
        _ => Ok(()),
    }
}

/// Reads the passphrase from the file or environment variable named on the command line.
fn passphrase(a: &cli::PassphraseArgs) -> Result<Option<Zeroizing<Vec<u8>>>> {
    if let Some(path) = &a.passphrase_file {
        let text = Zeroizing::new(read_small(path)?);
        let line = text.split(|&b| b == b'\n').next().unwrap_or(&[]);
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.is_empty() {
            return Err(CliError::input(path, "the passphrase is empty"));
        }
        return Ok(Some(Zeroizing::new(line.to_vec())));
    }
    if let Some(var) = &a.passphrase_env {
        let value = std::env::var_os(var)
            .ok_or_else(|| CliError::usage(format!("--passphrase-env: {var} is not set")))?;
        let bytes = Zeroizing::new(value.into_encoded_bytes());
        if bytes.is_empty() {
            return Err(CliError::usage(format!("--passphrase-env: {var} is empty")));
        }
        return Ok(Some(bytes));
    }
    Ok(None)
}

/// Runs `f` with the passphrase, if one was given.
fn with_passphrase<T>(f: impl FnOnce(Option<&[u8]>) -> T) -> T {
    PASSPHRASE.with(|p| f(p.borrow().as_ref().map(|z| z.as_slice())))
}

/// The passphrase for --encrypt, which must have been given.
fn encryption_passphrase(encrypt: bool) -> Result<Option<Zeroizing<Vec<u8>>>> {
    if !encrypt {
        return Ok(None);
    }
    match PASSPHRASE.with(|p| p.borrow().clone()) {
        Some(pass) => Ok(Some(pass)),
        None if std::io::stdin().is_terminal() => {
            Ok(Some(prompt_passphrase("for the new key", true)?))
        }
        None => Err(CliError::usage(
            "--encrypt needs --passphrase-file or --passphrase-env (or a terminal to ask on)",
        )),
    }
}

/// Asks for a passphrase on the terminal without echo; `twice` when it will encrypt, so that a
/// typing mistake does not lock the key away.
fn prompt_passphrase(what: &str, twice: bool) -> Result<Zeroizing<Vec<u8>>> {
    let ask = |prompt: &str| {
        rpassword::prompt_password(prompt)
            .map(|s| Zeroizing::new(s.into_bytes()))
            .map_err(|e| {
                CliError::usage(format!("cannot read a passphrase from the terminal: {e}"))
            })
    };
    let first = ask(&format!("Passphrase {what}: "))?;
    if first.is_empty() {
        return Err(CliError::usage("the passphrase is empty"));
    }
    if twice && *ask("The same passphrase again: ")? != *first {
        return Err(CliError::usage("the two passphrases differ"));
    }
    Ok(first)
}

/// For an encrypted key file and no passphrase option, asks on the terminal (if stdin is one).
fn prompt_if_encrypted(
    path: &str,
    bytes: &[u8],
    alg: Option<Alg>,
    format: Option<Format>,
) -> Result<()> {
    if keys::encrypted_format(bytes, alg, format).is_some()
        && with_passphrase(|p| p.is_none())
        && std::io::stdin().is_terminal()
    {
        let pass = prompt_passphrase(&format!("for {path}"), false)?;
        PASSPHRASE.with(|p| *p.borrow_mut() = Some(pass));
    }
    Ok(())
}

/// `MLDSA_BACKEND` set to anything but `portable` or `avx2` (the library's overrides, which
/// ignore other values) is a mistake the command reports rather than ignores.
fn check_backend_variable() -> Result<()> {
    match std::env::var_os("MLDSA_BACKEND") {
        Some(v) if v != "portable" && v != "avx2" => Err(CliError::usage(format!(
            "MLDSA_BACKEND={}: unknown backend; the values are `portable` and `avx2` ({}); unset \
             it for the fastest one",
            v.to_string_lossy(),
            if cfg!(target_arch = "x86_64") {
                "AVX2 without its AVX-512 variants"
            } else {
                "on this CPU the portable backend too: avx2 is an x86-64 backend"
            }
        ))),
        _ => Ok(()),
    }
}

/// Takes in the passphrase options of the commands that have them.
fn set_passphrase(a: Option<&cli::PassphraseArgs>) -> Result<()> {
    let (pass, source) = match a {
        Some(a) => (
            passphrase(a)?,
            match (&a.passphrase_file, &a.passphrase_env) {
                (Some(file), _) => Some(("--passphrase-file", Some(file.clone()))),
                (None, Some(_)) => Some(("--passphrase-env", None)),
                (None, None) => None,
            },
        ),
        None => (None, None),
    };
    PASSPHRASE.with(|p| *p.borrow_mut() = pass);
    PASSPHRASE_SOURCE.with(|s| *s.borrow_mut() = source);
    Ok(())
}

fn run(command: Command) -> Result<()> {
    set_passphrase(match &command {
        Command::Keygen(a) => Some(&a.passphrase),
        Command::Pubkey(a) => Some(&a.passphrase),
        Command::Sign(a) => Some(&a.passphrase),
        Command::Verify(a) => Some(&a.passphrase),
        Command::Mu(a) => Some(&a.passphrase),
        Command::Inspect(a) => Some(&a.passphrase),
        Command::Convert(a) => Some(&a.passphrase),
        Command::Bench(_) | Command::Demo(_) | Command::Completions { .. } | Command::Manpage => {
            None
        }
    })?;
    match command {
        Command::Keygen(a) => keygen(a),
        Command::Pubkey(a) => pubkey(a),
        Command::Sign(a) => sign(a),
        Command::Verify(a) => verify(a),
        Command::Mu(a) => mu(a),
        Command::Inspect(a) => inspect(a),
        Command::Convert(a) => convert(a),
        Command::Bench(a) => bench::run(&a),
        Command::Demo(a) => demo(a),
        Command::Manpage => clap_mangen::Man::new(Cli::command())
            .render(&mut std::io::stdout())
            .map_err(|e| CliError::usage(format!("stdout: {e}"))),
        Command::Completions { shell } => {
            clap_complete::generate(shell, &mut Cli::command(), "mldsa", &mut std::io::stdout());
            Ok(())
        }
    }
}

/// Parses `n` bytes of hex given on the command line for `what`.
fn hex_arg<const N: usize>(what: &str, text: &str) -> Result<Zeroizing<[u8; N]>> {
    let bytes = Zeroizing::new(
        hex::decode(text.trim()).map_err(|e| CliError::usage(format!("{what}: not hex: {e}")))?,
    );
    let mut out = Zeroizing::new([0u8; N]);
    if bytes.len() != N {
        return Err(CliError::usage(format!(
            "{what} must be {N} bytes ({} hex digits), got {}",
            2 * N,
            bytes.len()
        )));
    }
    out.copy_from_slice(&bytes);
    Ok(out)
}

fn random_seed() -> Result<Zeroizing<[u8; 32]>> {
    let mut seed = Zeroizing::new([0u8; 32]);
    getrandom::fill(seed.as_mut())
        .map_err(|e| CliError::usage(format!("the OS random number generator failed: {e}")))?;
    Ok(seed)
}

fn read_secret(path: &str, alg: Option<Alg>, format: Option<Format>) -> Result<SecretKey> {
    let bytes = Zeroizing::new(read_small(path)?);
    prompt_if_encrypted(path, &bytes, alg, format)?;
    let key = with_passphrase(|pass| SecretKey::decode(path, &bytes, alg, pass, format))?.0;
    let encrypted = keys::encrypted_format(&bytes, alg, format).is_some();
    passphrase_must_be_used(path, encrypted, false)?;
    if path != "-" {
        files::warn_if_readable_by_others(path, std::fs::metadata(path).ok());
    }
    Ok(key)
}

fn read_public(path: &str, alg: Option<Alg>, format: Option<Format>) -> Result<PublicKey> {
    let bytes = Zeroizing::new(read_small(path)?);
    prompt_if_encrypted(path, &bytes, alg, format)?;
    let key = with_passphrase(|pass| PublicKey::decode(path, &bytes, alg, pass, format))?.0;
    let encrypted = keys::encrypted_format(&bytes, alg, format).is_some();
    passphrase_must_be_used(path, encrypted, false)?;
    Ok(key)
}

/// The command's inputs other than stdin that no output may replace.
fn inputs<'a>(paths: &[&'a str], pass_file: &'a Option<String>) -> Vec<&'a str> {
    paths.iter().copied().chain(pass_file.as_deref()).collect()
}

fn keygen(a: cli::KeygenArgs) -> Result<()> {
    let seed = match &a.seed {
        Some(hex) => hex_arg::<32>("--seed", hex)?,
        None => random_seed()?,
    };
    let sk = SecretKey::from_seed(a.alg, &seed);
    passphrase_must_be_used("", false, a.encrypt)?;
    let pass = encryption_passphrase(a.encrypt)?;
    let format = a.format.unwrap_or(if a.alg.is_legacy() {
        Format::Raw
    } else {
        Format::Pem
    });
    let encoded = sk.encode(format, a.key_form, pass.as_ref().map(|p| p.as_slice()))?;
    let private = Output {
        path: a.out.as_deref(),
        force: a.force,
        private: true,
    };
    let mut outputs = vec![(private, encoded.as_slice())];
    let public = match &a.public {
        Some(_) => sk.public().encode(format)?,
        None => Vec::new(),
    };
    if let Some(path) = &a.public {
        let out = Output {
            path: Some(path),
            force: a.force,
            private: false,
        };
        outputs.push((out, public.as_slice()));
    }
    // Both or neither: a public key without its private key (or the reverse) is never left.
    let pass_file = passphrase_file();
    write_outputs(&outputs, &inputs(&[], &pass_file))?;
    if let Some(path) = &a.out {
        eprintln!(
            "mldsa: wrote {} private key ({}, {}) to {path}",
            a.alg,
            format_name(format),
            a.key_form.name()
        );
    }
    Ok(())
}

fn pubkey(a: cli::PubkeyArgs) -> Result<()> {
    // A public key is accepted too (and rewritten in the requested format).
    let pk = read_public(&a.key, a.alg, a.in_format)?;
    let out = Output {
        path: a.out.as_deref(),
        force: a.force,
        private: false,
    };
    let pass_file = passphrase_file();
    write_outputs(
        &[(out, &pk.encode(a.format)?)],
        &inputs(&[&a.key], &pass_file),
    )
}

fn message_options(m: &MessageArgs, external_mu: bool) -> Result<MessageOptions> {
    let ctx = match (&m.context, &m.context_hex) {
        (Some(text), _) => text.as_bytes().to_vec(),
        (None, Some(hex)) => hex::decode(hex.trim())
            .map_err(|e| CliError::usage(format!("--context-hex: not hex: {e}")))?,
        (None, None) => Vec::new(),
    };
    if ctx.len() > mldsa::MAX_CONTEXT_LEN {
        return Err(CliError::usage(format!(
            "the context must be at most 255 bytes, got {}",
            ctx.len()
        )));
    }
    let prehash = match &m.prehash {
        Some(name) => Some(
            name.parse()
                .map_err(|e| CliError::usage(format!("--prehash {name}: {e}")))?,
        ),
        None => None,
    };
    Ok(MessageOptions {
        ctx,
        prehash,
        external_mu,
    })
}

fn sign(a: cli::SignArgs) -> Result<()> {
    if a.key == "-" && a.input == "-" {
        return Err(CliError::usage(
            "the key and the message cannot both come from stdin",
        ));
    }
    let sk = read_secret(&a.key, a.alg, a.in_format)?;
    let options = message_options(&a.message, a.external_mu)?;
    let randomness = match (&a.rnd, a.deterministic) {
        (Some(hex), _) => Randomness::Fixed(*hex_arg::<32>("--rnd", hex)?),
        (None, true) => Randomness::Deterministic,
        (None, false) => Randomness::Hedged,
    };
    if matches!(a.out.as_deref(), None | Some("-"))
        && a.sig_format == sigfmt::SigFormat::Raw
        && std::io::IsTerminal::is_terminal(&std::io::stdout())
    {
        return Err(CliError::usage(
            "refusing to print a binary signature to the terminal; use -o FILE, a pipe, or \
             --sig-format hex or base64",
        ));
    }
    let sig = ops::sign(&sk, &a.input, &options, randomness)?;
    let out = Output {
        path: a.out.as_deref(),
        force: a.force,
        private: false,
    };
    let pass_file = passphrase_file();
    write_outputs(
        &[(out, &sigfmt::encode(&sig, a.sig_format))],
        &inputs(&[&a.key, &a.input], &pass_file),
    )
}

fn verify(a: cli::VerifyArgs) -> Result<()> {
    if [&a.public, &a.sig]
        .iter()
        .filter(|p| p.as_str() == "-")
        .count()
        + (a.input == "-") as usize
        > 1
    {
        return Err(CliError::usage(
            "only one of the key, the signature and the message can come from stdin",
        ));
    }
    if a.quiet {
        files::set_quiet();
    }
    let pk = read_public(&a.public, a.alg, a.in_format)?;
    let sig = sigfmt::decode(
        &a.sig,
        &read_small(&a.sig)?,
        pk.alg().sizes().2,
        a.sig_format,
    )?;
    let options = message_options(&a.message, a.external_mu)?;
    if ops::verify(&pk, &a.input, &options, &sig)? {
        if !a.quiet {
            eprintln!("mldsa: signature valid ({})", pk.alg());
        }
        Ok(())
    } else {
        Err(CliError::invalid(if a.quiet {
            String::new()
        } else {
            format!("signature INVALID ({})", pk.alg())
        }))
    }
}

fn mu(a: cli::MuArgs) -> Result<()> {
    let pk = read_public(&a.public, a.alg, a.in_format)?;
    let options = message_options(&a.message, false)?;
    outln!("{}", hex::encode(ops::mu(&pk, &a.input, &options)?));
    Ok(())
}

fn inspect(a: cli::InspectArgs) -> Result<()> {
    let bytes = Zeroizing::new(read_small(&a.file)?);
    let encrypted = keys::encrypted_format(&bytes, a.alg, a.in_format);
    passphrase_must_be_used(&a.file, encrypted.is_some(), false)?;
    if let Some(format) = encrypted
        && with_passphrase(|p| p.is_none())
    {
        outln!("file:        {}", a.file);
        outln!(
            "type:        encrypted private key (PKCS#8 PBES2, {})",
            format_name(format)
        );
        outln!(
            "algorithm:   unknown without the passphrase (--passphrase-file or --passphrase-env)"
        );
        return Ok(());
    }
    let key_err = match with_passphrase(|pass| {
        KeyFile::decode(&a.file, &bytes, a.alg, pass, a.in_format)
    }) {
        Ok(KeyFile::Secret(sk, format, form)) => {
            let (pk_len, sk_len, sig_len) = sk.alg().sizes();
            outln!("file:        {}", a.file);
            outln!("type:        private key");
            outln!("algorithm:   {}{}", sk.alg(), legacy_note(sk.alg()));
            outln!("format:      {} ({})", format_name(format), form.name());
            outln!("file size:   {} bytes", bytes.len());
            outln!(
                "sizes:       public key {pk_len}, expanded private key {sk_len}, signature {sig_len} bytes"
            );
            outln!("fingerprint: SHA2-256:{}", sk.public().fingerprint());
            return Ok(());
        }
        Ok(KeyFile::Public(pk, format)) => {
            let (pk_len, _, sig_len) = pk.alg().sizes();
            outln!("file:        {}", a.file);
            outln!("type:        public key");
            outln!("algorithm:   {}{}", pk.alg(), legacy_note(pk.alg()));
            outln!("format:      {}", format_name(format));
            outln!("sizes:       public key {pk_len}, signature {sig_len} bytes");
            outln!("fingerprint: SHA2-256:{}", pk.fingerprint());
            return Ok(());
        }
        Err(e) => e,
    };
    // A signature: raw, hex or base64, of one of the known lengths (never a key's length).
    if a.in_format.is_none() {
        for alg in alg::ALL.iter().filter(|x| a.alg.is_none_or(|w| w == **x)) {
            if let Ok(sig) = sigfmt::decode(&a.file, &bytes, alg.sizes().2, None) {
                let same_len: Vec<&str> = alg::ALL
                    .iter()
                    .filter(|x| x.sizes().2 == sig.len())
                    .map(|x| x.name())
                    .collect();
                outln!("file:        {}", a.file);
                outln!("type:        signature ({} bytes)", sig.len());
                outln!("algorithm:   {}", same_len.join(" or "));
                outln!(
                    "encoding:    {}",
                    if sig.len() == bytes.len() {
                        "raw"
                    } else {
                        "text (hex or base64)"
                    }
                );
                return Ok(());
            }
        }
    }
    if keys::looks_like_key(&bytes, a.alg, a.in_format) {
        return Err(key_err);
    }
    Err(CliError::input(
        &a.file,
        "not a key or signature this tool recognises",
    ))
}

fn legacy_note(alg: Alg) -> &'static str {
    if alg.is_legacy() {
        " (legacy CRYSTALS-Dilithium round 3, not ML-DSA)"
    } else {
        ""
    }
}

fn convert(a: cli::ConvertArgs) -> Result<()> {
    let bytes = Zeroizing::new(read_small(&a.input)?);
    prompt_if_encrypted(&a.input, &bytes, a.alg, a.in_format)?;
    let key = with_passphrase(|pass| KeyFile::decode(&a.input, &bytes, a.alg, pass, a.in_format))?;
    let encrypted_input = keys::encrypted_format(&bytes, a.alg, a.in_format).is_some();
    passphrase_must_be_used(&a.input, encrypted_input, a.encrypt)?;
    let pass = encryption_passphrase(a.encrypt)?;
    let (data, private): (Zeroizing<Vec<u8>>, bool) = match key {
        KeyFile::Secret(sk, _, _) if a.public => {
            (Zeroizing::new(sk.public().encode(a.format)?), false)
        }
        KeyFile::Secret(sk, _, form) => {
            let form = a
                .key_form
                .unwrap_or(if a.format == Format::Raw && form == Form::Both {
                    Form::Seed
                } else {
                    form
                });
            (
                sk.encode(a.format, form, pass.as_ref().map(|p| p.as_slice()))?,
                true,
            )
        }
        KeyFile::Public(pk, _) => {
            if a.key_form.is_some() || a.encrypt {
                return Err(CliError::input(
                    &a.input,
                    "is a public key: --key-form and --encrypt apply to private keys only",
                ));
            }
            (Zeroizing::new(pk.encode(a.format)?), false)
        }
    };
    let out = Output {
        path: a.out.as_deref(),
        force: a.force,
        private,
    };
    let pass_file = passphrase_file();
    write_outputs(&[(out, &data)], &inputs(&[&a.input], &pass_file))
}

fn demo(a: cli::DemoArgs) -> Result<()> {
    let seed = random_seed()?;
    let sk = SecretKey::from_seed(a.alg, &seed);
    let pk = sk.public();
    let (pk_len, sk_len, sig_len) = a.alg.sizes();
    outln!(
        "1. keygen   {}: public key {pk_len} bytes, expanded private key {sk_len} bytes",
        a.alg
    );
    outln!("            seed        {}", hex::encode(*seed));
    outln!("            fingerprint SHA2-256:{}", pk.fingerprint());
    let dir = std::env::temp_dir().join(format!("mldsa-demo-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| CliError::usage(format!("temp dir: {e}")))?;
    let msg_path = dir.join("message.txt");
    std::fs::write(&msg_path, &a.message)
        .map_err(|e| CliError::usage(format!("temp file: {e}")))?;
    let msg = msg_path.to_string_lossy().into_owned();
    let plain = MessageOptions {
        ctx: Vec::new(),
        prehash: None,
        external_mu: false,
    };
    let sig = ops::sign(&sk, &msg, &plain, Randomness::Hedged)?;
    outln!(
        "2. sign     {:?} ({} bytes): signature {sig_len} bytes, hedged",
        a.message,
        a.message.len()
    );
    outln!("            {}...", hex::encode(&sig[..32]));
    let ok = ops::verify(&pk, &msg, &plain, &sig)?;
    outln!(
        "3. verify   original message: {}",
        if ok { "valid" } else { "INVALID" }
    );
    std::fs::write(&msg_path, format!("{}!", a.message))
        .map_err(|e| CliError::usage(e.to_string()))?;
    let tampered = ops::verify(&pk, &msg, &plain, &sig)?;
    outln!(
        "4. verify   message with one more byte: {}",
        if tampered {
            "valid"
        } else {
            "INVALID (as it should be)"
        }
    );
    let _ = std::fs::remove_dir_all(&dir);
    if ok && !tampered {
        Ok(())
    } else {
        Err(CliError {
            code: EXIT_USAGE,
            message: "demo failed".into(),
        })
    }
}
