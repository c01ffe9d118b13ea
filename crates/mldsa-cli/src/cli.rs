//! The command line: subcommands, options and their help.

use crate::alg::Alg;
use crate::keys::{Form, Format};
use crate::sigfmt::SigFormat;
use clap::{Args, Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "mldsa",
    version,
    about = "ML-DSA (FIPS 204) post-quantum signatures: keys, signing and verification",
    long_about = "ML-DSA (FIPS 204) post-quantum signatures: keys, signing and verification.\n\n\
                  Keys are PEM by default (RFC 9881 PKCS#8 / SubjectPublicKeyInfo, as OpenSSL \
                  writes them); DER and raw FIPS 204 bytes work too. Messages of any size are \
                  streamed.\n\n\
                  Exit status: 0 success or valid signature, 1 invalid signature, 2 usage or \
                  input error.",
    after_help = "Example:\n  mldsa keygen -o key.pem --pub pub.pem\n  mldsa sign -k key.pem -o doc.sig doc.txt\n  mldsa verify -p pub.pem -s doc.sig doc.txt"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

/// Where the passphrase of an encrypted private key comes from (never the command line, where
/// other users could read it).
#[derive(Args)]
pub struct PassphraseArgs {
    /// Passphrase for encrypted private keys: the first line of this file.
    #[arg(long, value_name = "FILE", conflicts_with = "passphrase_env")]
    pub passphrase_file: Option<String>,
    /// Passphrase for encrypted private keys: this environment variable.
    #[arg(long, value_name = "VAR")]
    pub passphrase_env: Option<String>,
}

#[derive(Subcommand)]
pub enum Command {
    /// Generate a key pair.
    #[command(after_help = "Examples:\n  mldsa keygen -o key.pem --pub pub.pem\n  \
                            mldsa keygen -a ML-DSA-87 --format der -o key.der\n  \
                            mldsa keygen --seed 000102...1f --key-form both -o key.pem")]
    Keygen(KeygenArgs),
    /// Write the public key of a private key.
    #[command(after_help = "Example:\n  mldsa pubkey -k key.pem -o pub.pem")]
    Pubkey(PubkeyArgs),
    /// Sign a file (or stdin).
    #[command(
        after_help = "Examples:\n  mldsa sign -k key.pem -o doc.sig doc.txt\n  \
                            mldsa sign -k key.pem --context 'app v1' --sig-format base64 doc.txt\n  \
                            tar c dir | mldsa sign -k key.pem --prehash SHA2-512 - > dir.sig"
    )]
    Sign(SignArgs),
    /// Verify a signature; exit status 0 if valid, 1 if not.
    #[command(
        after_help = "Example:\n  mldsa verify -p pub.pem -s doc.sig doc.txt && echo trusted"
    )]
    Verify(VerifyArgs),
    /// Compute the external mu of a message (for signing with a remote key).
    #[command(after_help = "Example:\n  mldsa mu -p pub.pem doc.txt > doc.mu\n  \
                            mldsa sign -k key.pem --external-mu doc.mu > doc.sig")]
    Mu(MuArgs),
    /// Describe a key or signature file: algorithm, format, form, sizes, fingerprint.
    #[command(after_help = "Example:\n  mldsa inspect key.pem")]
    Inspect(InspectArgs),
    /// Convert a key between formats and forms.
    #[command(
        after_help = "Examples:\n  mldsa convert -i key.pem --format der -o key.der\n  \
                            mldsa convert -i key.pem --key-form expanded -o key-expanded.pem"
    )]
    Convert(ConvertArgs),
    /// Time key generation, signing and verification on this machine.
    #[command(after_help = "Example:\n  mldsa bench -a ML-DSA-65 -n 200")]
    Bench(BenchArgs),
    /// Generate a key, sign a message and verify it, printing each step.
    Demo(DemoArgs),
    /// Print the manual page (roff), to install as mldsa.1 beside the completions.
    #[command(after_help = "Example:\n  mldsa manpage > /usr/local/share/man/man1/mldsa.1")]
    Manpage,
    /// Print a shell completion script.
    #[command(after_help = "Example:\n  mldsa completions bash > /etc/bash_completion.d/mldsa")]
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
}

#[derive(Args)]
pub struct KeygenArgs {
    /// Algorithm.
    #[arg(
        short,
        long,
        value_enum,
        default_value = "ML-DSA-65",
        ignore_case = true
    )]
    pub alg: Alg,
    /// Private key output (default: stdout, which must not be a terminal).
    #[arg(short, long, value_name = "FILE")]
    pub out: Option<String>,
    /// Also write the public key here.
    #[arg(long = "pub", value_name = "FILE")]
    pub public: Option<String>,
    /// Derive the key from this 32-byte seed (64 hex digits) instead of fresh randomness.
    #[arg(long, value_name = "HEX")]
    pub seed: Option<String>,
    /// File format (default: pem; raw for the legacy Dilithium sets, which have no other).
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// What the private key file holds.
    #[arg(long, value_enum, default_value = "seed")]
    pub key_form: Form,
    /// Encrypt the private key (PKCS#8 PBES2: scrypt and AES-256-CBC) under the passphrase from
    /// --passphrase-file or --passphrase-env.
    #[arg(long)]
    pub encrypt: bool,
    /// Replace existing output files.
    #[arg(long)]
    pub force: bool,
    #[command(flatten)]
    pub passphrase: PassphraseArgs,
}

#[derive(Args)]
pub struct PubkeyArgs {
    /// Private key (PEM, DER or raw; `-` for stdin).
    #[arg(short, long, value_name = "FILE")]
    pub key: String,
    /// Key file format: pem, der or raw (default: detected; a file of a raw key's size is raw
    /// unless it reads completely as a PEM or DER key).
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub in_format: Option<Format>,
    /// Output (default: stdout).
    #[arg(short, long, value_name = "FILE")]
    pub out: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value = "pem")]
    pub format: Format,
    /// Algorithm, for raw keys (checked against PEM/DER keys).
    #[arg(short, long, value_enum, ignore_case = true)]
    pub alg: Option<Alg>,
    /// Replace an existing output file.
    #[arg(long)]
    pub force: bool,
    #[command(flatten)]
    pub passphrase: PassphraseArgs,
}

/// How the message is formed (shared by sign, verify and mu).
#[derive(Args)]
pub struct MessageArgs {
    /// Context string (UTF-8, at most 255 bytes).
    #[arg(long, value_name = "TEXT", conflicts_with = "context_hex")]
    pub context: Option<String>,
    /// Context string as hex.
    #[arg(long, value_name = "HEX")]
    pub context_hex: Option<String>,
    /// HashML-DSA: the signature covers the digest of the message under this hash (e.g.
    /// SHA2-512, SHAKE-256).
    #[arg(long, value_name = "HASH")]
    pub prehash: Option<String>,
}

#[derive(Args)]
pub struct SignArgs {
    /// Private key (PEM, DER or raw).
    #[arg(short, long, value_name = "FILE")]
    pub key: String,
    /// Key file format: pem, der or raw (default: detected; a file of a raw key's size is raw
    /// unless it reads completely as a PEM or DER key).
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub in_format: Option<Format>,
    /// The message (`-` for stdin); with --external-mu, the mu.
    #[arg(value_name = "FILE", default_value = "-")]
    pub input: String,
    /// Signature output (default: stdout).
    #[arg(short, long, value_name = "FILE")]
    pub out: Option<String>,
    #[command(flatten)]
    pub message: MessageArgs,
    /// Deterministic signing (no fresh randomness). Hedged signing, the default, resists fault
    /// and side-channel attacks better.
    #[arg(long, conflicts_with = "rnd")]
    pub deterministic: bool,
    /// Use this 32-byte rnd (64 hex digits) instead of fresh randomness.
    #[arg(long, value_name = "HEX")]
    pub rnd: Option<String>,
    /// The input is mu (64 bytes, raw or hex), as `mldsa mu` prints it (mu already binds the
    /// context and any pre-hash, so those options do not go with it).
    #[arg(long, conflicts_with_all = ["prehash", "context", "context_hex"])]
    pub external_mu: bool,
    /// Signature encoding.
    #[arg(long, value_enum, default_value = "raw")]
    pub sig_format: SigFormat,
    /// Algorithm, for raw keys (checked against PEM/DER keys).
    #[arg(short, long, value_enum, ignore_case = true)]
    pub alg: Option<Alg>,
    /// Replace an existing output file.
    #[arg(long)]
    pub force: bool,
    #[command(flatten)]
    pub passphrase: PassphraseArgs,
}

#[derive(Args)]
pub struct VerifyArgs {
    /// Public key (a private key works too).
    #[arg(short, long = "pub", value_name = "FILE")]
    pub public: String,
    /// Key file format: pem, der or raw (default: detected; a file of a raw key's size is raw
    /// unless it reads completely as a PEM or DER key).
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub in_format: Option<Format>,
    /// Signature (raw, hex or base64).
    #[arg(short, long, value_name = "FILE")]
    pub sig: String,
    /// Signature encoding: raw, hex or base64 (default: detected from the length).
    #[arg(long, value_enum, value_name = "ENCODING")]
    pub sig_format: Option<SigFormat>,
    /// The message (`-` for stdin); with --external-mu, the mu.
    #[arg(value_name = "FILE", default_value = "-")]
    pub input: String,
    #[command(flatten)]
    pub message: MessageArgs,
    /// The input is mu (64 bytes, raw or hex; mu already binds the context and any pre-hash).
    #[arg(long, conflicts_with_all = ["prehash", "context", "context_hex"])]
    pub external_mu: bool,
    /// Algorithm, for raw keys (checked against PEM/DER keys).
    #[arg(short, long, value_enum, ignore_case = true)]
    pub alg: Option<Alg>,
    /// Print nothing; report through the exit status only.
    #[arg(short, long)]
    pub quiet: bool,
    #[command(flatten)]
    pub passphrase: PassphraseArgs,
}

#[derive(Args)]
pub struct MuArgs {
    /// Public key (a private key works too).
    #[arg(short, long = "pub", value_name = "FILE")]
    pub public: String,
    /// Key file format: pem, der or raw (default: detected; a file of a raw key's size is raw
    /// unless it reads completely as a PEM or DER key).
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub in_format: Option<Format>,
    /// The message (`-` for stdin).
    #[arg(value_name = "FILE", default_value = "-")]
    pub input: String,
    #[command(flatten)]
    pub message: MessageArgs,
    /// Algorithm, for raw keys.
    #[arg(short, long, value_enum, ignore_case = true)]
    pub alg: Option<Alg>,
    #[command(flatten)]
    pub passphrase: PassphraseArgs,
}

#[derive(Args)]
pub struct InspectArgs {
    /// A key or signature file.
    #[arg(value_name = "FILE")]
    pub file: String,
    /// Key file format: pem, der or raw (default: detected; a file of a raw key's size is raw
    /// unless it reads completely as a PEM or DER key).
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub in_format: Option<Format>,
    /// Algorithm, for raw files whose length fits several.
    #[arg(short, long, value_enum, ignore_case = true)]
    pub alg: Option<Alg>,
    #[command(flatten)]
    pub passphrase: PassphraseArgs,
}

#[derive(Args)]
pub struct ConvertArgs {
    /// Input key (private or public; PEM, DER or raw).
    #[arg(short, long, value_name = "FILE")]
    pub input: String,
    /// Key file format: pem, der or raw (default: detected; a file of a raw key's size is raw
    /// unless it reads completely as a PEM or DER key).
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub in_format: Option<Format>,
    /// Output (default: stdout).
    #[arg(short, long, value_name = "FILE")]
    pub out: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value = "pem")]
    pub format: Format,
    /// Output form for private keys (default: the input's, or seed for raw input).
    #[arg(long, value_enum, conflicts_with = "public")]
    pub key_form: Option<Form>,
    /// Write the public key of a private key instead.
    #[arg(long)]
    pub public: bool,
    /// Encrypt the private key output (see `keygen --encrypt`).
    #[arg(long, conflicts_with = "public")]
    pub encrypt: bool,
    /// Algorithm, for raw keys.
    #[arg(short, long, value_enum, ignore_case = true)]
    pub alg: Option<Alg>,
    /// Replace an existing output file.
    #[arg(long)]
    pub force: bool,
    #[command(flatten)]
    pub passphrase: PassphraseArgs,
}

#[derive(Args)]
pub struct BenchArgs {
    /// Algorithms to time (default: the three ML-DSA sets).
    #[arg(short, long, value_enum, ignore_case = true)]
    pub alg: Vec<Alg>,
    /// Samples per operation (at least 1; each algorithm stops after 60 s).
    #[arg(short = 'n', long, default_value_t = 100,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub samples: u32,
}

#[derive(Args)]
pub struct DemoArgs {
    /// Algorithm.
    #[arg(
        short,
        long,
        value_enum,
        default_value = "ML-DSA-65",
        ignore_case = true
    )]
    pub alg: Alg,
    /// The message to sign.
    #[arg(long, default_value = "Hello, post-quantum world!")]
    pub message: String,
}
