//! The command line, declared with clap, and its parsing; each command's
//! arguments live in a child module named for its group.

/// A clap value enum over one of redc's own enums (`$lib` with `ALL`,
/// `name` and `describe`): the values, their names and their help come
/// from the library, so a new variant there is a new value here.
macro_rules! library_value_enum {
    ($(#[$doc:meta])* $arg:ident => $lib:ty) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub(crate) struct $arg(pub(crate) $lib);

        impl clap::ValueEnum for $arg {
            fn value_variants<'a>() -> &'a [Self] {
                const ALL: [$arg; <$lib>::ALL.len()] = {
                    let mut out = [$arg(<$lib>::ALL[0]); <$lib>::ALL.len()];
                    let mut i = 1;
                    while i < out.len() {
                        out[i] = $arg(<$lib>::ALL[i]);
                        i += 1;
                    }
                    out
                };
                &ALL
            }

            fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
                Some(clap::builder::PossibleValue::new(self.0.name()).help(self.0.describe()))
            }
        }

        impl From<$arg> for $lib {
            fn from(a: $arg) -> Self {
                a.0
            }
        }
    };
}

mod batch;
mod bench;
mod ffc;
mod hw;
mod keys;
mod numbers;
mod rsa;

pub(crate) use batch::*;
pub(crate) use bench::*;
pub(crate) use ffc::*;
pub(crate) use hw::*;
pub(crate) use keys::*;
pub(crate) use numbers::*;
pub(crate) use rsa::*;

use crate::failure::{BAD_INPUT, one_line};
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use std::ffi::OsString;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// redc — Montgomery multiplication engine.
#[derive(Debug, Parser)]
#[command(name = "redc", version, about, propagate_version = true)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
    /// Security level of the keys, 0 to 5, as OpenSSL's [default: 2, or REDC_SECURITY_LEVEL]:
    /// at 2, RSA keys of at least 2048 bits (and OpenSSL's prime counts) for signing and
    /// decryption, 1024 for verification and encryption, DSA and DH primes of 2048 bits for
    /// new signatures and secrets; 1 accepts 1024-bit keys, 0 any size.
    #[arg(long, global = true, value_name = "N", value_parser = clap::value_parser!(u8).range(0..=5))]
    pub(crate) security_level: Option<u8>,
}

impl Cli {
    /// A positional input file (`redc decrypt --key k.pem big.redc`, as
    /// openssl and age take one) in the place of `--in`.
    fn positional_input(mut self) -> Cli {
        let (file, input) = match &mut self.command {
            Command::Sign(a) => (a.opts.file.take(), &mut a.opts.input),
            Command::Verify(a) => (a.opts.file.take(), &mut a.opts.input),
            Command::Encrypt(a) | Command::Decrypt(a) => (a.file.take(), &mut a.input),
            _ => return self,
        };
        if let Some(file) = file {
            *input = file;
        }
        self
    }
}

/// The commands.
#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// BASE^EXP mod MOD, like Python's pow(BASE, EXP, MOD): any MOD but 0, negatives too.
    Modexp(ModexpArgs),
    /// A short showcase of redc on built-in values.
    Demo,
    /// Word operations per Montgomery product for each schedule (Koç's analysis).
    Counts(CountsArgs),
    /// Generate a private key: RSA (PKCS#8 PEM by default; PKCS#1, DER, multi-prime on
    /// request) or DSA (--algorithm dsa: new FIPS 186-4 parameters and a key, PKCS#8).
    Keygen(KeygenArgs),
    /// Print the public key (SPKI PEM by default) of a private or public key file.
    Pubkey(PubkeyArgs),
    /// Sign a file with an RSA key (RSASSA-PSS by default) or a DSA key (hedged RFC 6979 nonce by
    /// default); the raw signature bytes, as `openssl dgst -sign` writes them.
    Sign(SignArgs),
    /// Verify a signature: exit status 0 if valid, 1 if not, 2 for bad input.
    Verify(VerifyArgs),
    /// Encrypt a file of any size for one or more public keys (AES-256-GCM, key wrapped with
    /// RSA-OAEP-SHA256 for each, under its key id).
    Encrypt(EnvelopeArgs),
    /// Decrypt a file made by `redc encrypt`. With -o FILE nothing is written unless the whole
    /// file authenticates; to stdout (-o -) each chunk is written once it authenticated.
    Decrypt(EnvelopeArgs),
    /// One RSA operation per message, as `openssl pkeyutl` does, and batches with one key.
    #[command(subcommand)]
    Rsa(RsaCommand),
    /// Finite-field Diffie-Hellman over the RFC 7919 and RFC 3526 groups.
    #[command(subcommand)]
    Dh(DhCommand),
    /// DSA batches with one key (single signatures: `redc sign` and `redc verify`).
    #[command(subcommand)]
    Dsa(DsaCommand),
    /// Run a golden model of a paper's multiplier circuit: result checked against redc, cycles,
    /// time, utilization; or (--table PAPER) print a paper's tables beside the model's figures.
    Sim(SimArgs),
    /// Testbench vectors from a circuit model: operands, results and per-iteration state.
    Vectors(VectorsArgs),
    /// Speed of redc's backends beside `openssl speed` and GMP's mpz_powm, in the same run:
    /// RSA private and public operations and raw modexp, latency and batched throughput.
    Bench(BenchArgs),
    /// Print the completion script of SHELL, generated from these arguments (e.g.
    /// `redc completions bash > ~/.local/share/bash-completion/completions/redc`).
    Completions(CompletionsArgs),
    /// Print the manual page redc.1 (roff), or write one page per command into --dir.
    Man(ManArgs),
}

/// Arguments of `redc completions`.
#[derive(Debug, clap::Args)]
pub(crate) struct CompletionsArgs {
    /// The shell.
    #[arg(value_name = "SHELL", value_enum)]
    pub(crate) shell: clap_complete::Shell,
}

/// Arguments of `redc man`.
#[derive(Debug, clap::Args)]
pub(crate) struct ManArgs {
    /// Write redc.1, redc-keygen.1, redc-rsa-encrypt.1, … into DIR (created if missing)
    /// instead of redc.1 to stdout.
    #[arg(long, value_name = "DIR")]
    pub(crate) dir: Option<PathBuf>,
}

/// Where a key file's password comes from.
#[derive(Debug, clap::Args)]
pub(crate) struct PasswordArgs {
    /// Read the password of an encrypted PKCS#8 key (or, for keygen, the password to
    /// encrypt with) from the first line of FILE; otherwise from env REDC_KEY_PASSWORD; otherwise,
    /// when stderr is a terminal, it is asked there (echo off; twice for keygen).
    #[arg(long, value_name = "FILE")]
    pub(crate) password_file: Option<PathBuf>,
}

library_value_enum!(
    /// Key file encodings, as `openssl -outform`.
    OutForm => redc_rsa::encoding::Form
);

/// The clap command of [`Cli`] (for completions, manual pages and parsing).
pub(crate) fn command() -> clap::Command {
    Cli::command()
}

/// Parse the command line with `command` ([`command`], perhaps with a
/// long version added). Help and version go to stdout with status 0; a
/// usage error is one line on stderr with status 2: clap's whole message
/// (every conflicting argument), its tips ("a similar argument exists"),
/// the possible values, and the help of the subcommand that was used.
pub(crate) fn parse(command: clap::Command, argv: impl IntoIterator<Item = OsString>) -> Result<Cli, ExitCode> {
    let argv = crate::spellings::rewrite(argv.into_iter().collect());
    let parsed = command
        .try_get_matches_from(&argv)
        .and_then(|mut m| Cli::from_arg_matches_mut(&mut m))
        .map(Cli::positional_input);
    parsed.map_err(|e| {
        use clap::error::ErrorKind;
        match e.kind() {
            ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
                let _ = e.print();
                ExitCode::SUCCESS
            }
            ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
                let _ = e.print();
                ExitCode::from(BAD_INPUT)
            }
            _ => {
                let _ = writeln!(std::io::stderr(), "redc: {}", usage_error(&e, &argv));
                ExitCode::from(BAD_INPUT)
            }
        }
    })
}

/// clap's error as one line: the message (all of its lines up to the
/// usage), the possible values, the tips, and which help to read.
fn usage_error(e: &clap::Error, argv: &[OsString]) -> String {
    let text = e.render().to_string();
    let mut message = Vec::new();
    let mut tips = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.starts_with("Usage: ") || line.starts_with("For more information") {
            break;
        } else if let Some(tip) = line.strip_prefix("tip: ") {
            tips.push(tip.to_owned());
        } else if !line.is_empty() && tips.is_empty() {
            message.push(line.strip_prefix("error: ").unwrap_or(line).to_owned());
        }
    }
    let mut out = one_line(&message.join(" "));
    if let Some(clap::error::ContextValue::Strings(v)) = e.get(clap::error::ContextKind::ValidValue)
        && !v.is_empty()
        && !out.contains("possible values")
    {
        out.push_str(&format!("; possible values: {}", v.join(", ")));
    }
    for tip in tips {
        out.push_str(&format!("; {tip}"));
    }
    format!("{out} (see '{} --help')", command_path(argv))
}

/// The subcommands named at the start of `argv` ("redc rsa encrypt"), for
/// pointing at the right help.
fn command_path(argv: &[OsString]) -> String {
    let mut command = Cli::command();
    let mut path = vec!["redc".to_owned()];
    for word in argv.iter().skip(1).filter_map(|w| w.to_str()) {
        let Some(sub) = command.find_subcommand(word).cloned() else {
            break;
        };
        path.push(sub.get_name().to_owned());
        command = sub;
    }
    path.join(" ")
}
