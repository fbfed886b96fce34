//! The command line, declared with clap, and its parsing.

use crate::backend::BackendArg;
use crate::failure::{BAD_INPUT, one_line};
use crate::number::{Integer, Number};
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};
use redc::{Product, Schedule};
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

/// Key algorithms of `redc keygen`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum Algorithm {
    /// RSA.
    Rsa,
    /// RSASSA-PSS: an RSA key for PSS signatures only (id-RSASSA-PSS, PKCS#8), restricted by
    /// --hash (and --mgf1-hash, --salt-len) as openssl genpkey -algorithm RSA-PSS.
    RsaPss,
    /// DSA (FIPS 186-4): --bits is L (2048 or 3072), --qbits N.
    Dsa,
}

/// Arguments of `redc keygen`.
#[derive(Debug, clap::Args)]
pub(crate) struct KeygenArgs {
    /// The key's algorithm.
    #[arg(long, value_enum, default_value_t = Algorithm::Rsa)]
    pub(crate) algorithm: Algorithm,
    /// Modulus size in bits: RSA 1024..=16384; DSA's p, 2048 or 3072.
    #[arg(long, default_value_t = 3072)]
    pub(crate) bits: usize,
    /// DSA only: the size of q, 224 or 256 with --bits 2048, 256 with 3072. [default: 256,
    /// or 224 with --bits 2048, as OpenSSL]
    #[arg(long, value_name = "N")]
    pub(crate) qbits: Option<usize>,
    /// RSA only: public exponent (odd, >= 3). [default: 65537]
    #[arg(long)]
    pub(crate) e: Option<Number>,
    /// RSA only: number of primes (multi-prime RSA, RFC 8017): 2, or up to 3 from 1024 bits,
    /// 4 from 4096, 5 from 8192 (OpenSSL's limits). [default: 2]
    #[arg(long)]
    pub(crate) primes: Option<usize>,
    /// RSA-PSS only: restrict the key to this hash. [default: no restriction]
    #[arg(long, value_name = "HASH")]
    pub(crate) hash: Option<String>,
    /// RSA-PSS only, with --hash: the MGF1 hash. [default: --hash]
    #[arg(long, value_name = "HASH", requires = "hash")]
    pub(crate) mgf1_hash: Option<String>,
    /// RSA-PSS only, with --hash: the least salt length in bytes. [default: the hash's length]
    #[arg(long, value_name = "N", requires = "hash")]
    pub(crate) salt_len: Option<usize>,
    /// Write the private key here (default stdout).
    #[arg(short = 'o', long, value_name = "FILE")]
    pub(crate) output: Option<PathBuf>,
    /// Also write the public key (SPKI PEM) here.
    #[arg(long = "pub", value_name = "FILE")]
    pub(crate) public: Option<PathBuf>,
    /// Private key format (PKCS#1 for RSA only).
    #[arg(long, value_enum, default_value_t = KeyFormat::Pkcs8)]
    pub(crate) format: KeyFormat,
    /// Encoding of both key files (DER is binary: never written to a terminal).
    #[arg(long, value_enum, default_value_t = OutForm::Pem)]
    pub(crate) outform: OutForm,
    /// RSA only: encrypt the private key (PKCS#8 PBES2) with the password from
    /// --password-file, REDC_KEY_PASSWORD or the terminal.
    #[arg(long)]
    pub(crate) encrypt: bool,
    /// Replace key files that already exist (without it, keygen refuses to overwrite a key).
    #[arg(long)]
    pub(crate) force: bool,
    #[command(flatten)]
    pub(crate) password: PasswordArgs,
}

/// Key file encodings, as `openssl -outform`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum OutForm {
    /// PEM text.
    Pem,
    /// DER bytes.
    Der,
}

/// Private key file formats.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub(crate) enum KeyFormat {
    /// PKCS#8 PEM ("PRIVATE KEY").
    Pkcs8,
    /// PKCS#1 PEM ("RSA PRIVATE KEY").
    Pkcs1,
}

/// Arguments of `redc pubkey`.
#[derive(Debug, clap::Args)]
pub(crate) struct PubkeyArgs {
    /// A private or public key file (PEM or DER; PKCS#1, PKCS#8, SPKI).
    #[arg(value_name = "KEY")]
    pub(crate) key: PathBuf,
    /// Public key format.
    #[arg(long, value_enum, default_value_t = PubFormat::Spki)]
    pub(crate) format: PubFormat,
    /// Encoding (DER is binary: never written to a terminal).
    #[arg(long, value_enum, default_value_t = OutForm::Pem)]
    pub(crate) outform: OutForm,
    /// Write the public key here (- for stdout, the default).
    #[arg(short = 'o', long, value_name = "FILE", default_value = "-")]
    pub(crate) output: PathBuf,
    #[command(flatten)]
    pub(crate) password: PasswordArgs,
}

/// Public key file formats.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub(crate) enum PubFormat {
    /// SubjectPublicKeyInfo PEM ("PUBLIC KEY"), as `openssl pkey -pubout`.
    Spki,
    /// PKCS#1 PEM ("RSA PUBLIC KEY").
    Pkcs1,
}

/// Signature schemes.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub(crate) enum SigScheme {
    /// RSASSA-PSS (RFC 8017 §8.1).
    Pss,
    /// RSASSA-PKCS1-v1_5 (RFC 8017 §8.2).
    Pkcs1v15,
}

/// Options shared by sign and verify.
#[derive(Debug, clap::Args)]
pub(crate) struct SigOptions {
    /// Key file, RSA or DSA (the command follows the key): private for sign; private or
    /// public for verify.
    #[arg(long, value_name = "KEY")]
    pub(crate) key: PathBuf,
    /// RSA only: signature scheme. [default: pss]
    #[arg(long, value_enum)]
    pub(crate) scheme: Option<SigScheme>,
    /// Hash: sha1, sha224, sha256, sha384, sha512, sha512-224, sha512-256, sha3-224..sha3-512 (RSA),
    /// shake128, shake256 (PSS). [default: sha256, or a restricted RSASSA-PSS key's own]
    #[arg(long)]
    pub(crate) hash: Option<String>,
    /// RSA PSS only: the MGF1 hash. [default: --hash, or a restricted RSASSA-PSS key's own]
    #[arg(long, value_name = "HASH")]
    pub(crate) mgf1_hash: Option<String>,
    /// RSA PSS only: salt length in bytes (sign: default the hash length, or a restricted
    /// RSASSA-PSS key's; verify: default auto-detect).
    #[arg(long, value_name = "N")]
    pub(crate) salt_len: Option<usize>,
    /// DSA only: the signature's encoding. [default: der]
    #[arg(long, value_enum)]
    pub(crate) sig_format: Option<SigFormat>,
    /// The message file (- for stdin, the default).
    #[arg(short = 'i', long = "in", value_name = "FILE", default_value = "-")]
    pub(crate) input: PathBuf,
    /// The message file, as a positional argument (instead of --in).
    #[arg(value_name = "FILE", conflicts_with = "input")]
    pub(crate) file: Option<PathBuf>,
    #[command(flatten)]
    pub(crate) password: PasswordArgs,
}

/// DSA signature encodings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum SigFormat {
    /// DER `Dss-Sig-Value` (RFC 3279), as `openssl dgst -sign` writes.
    Der,
    /// IEEE P1363: r || s, each as long as q.
    P1363,
}

/// How a DSA signature's nonce is chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum NonceArg {
    /// RFC 6979 with fresh random bytes mixed in (its §3.6): a new nonce
    /// every time, from the key and the hash even if the generator is weak.
    Hedged,
    /// RFC 6979: from the key and the message's hash (the same signature
    /// every time; checked before release, about twice the time).
    Deterministic,
    /// From the operating system's random generator.
    Random,
}

/// Arguments of `redc sign`.
#[derive(Debug, clap::Args)]
pub(crate) struct SignArgs {
    #[command(flatten)]
    pub(crate) opts: SigOptions,
    /// DSA only: the nonce k. [default: hedged]
    #[arg(long, value_enum)]
    pub(crate) nonce: Option<NonceArg>,
    /// Write the signature here (- for stdout, the default).
    #[arg(short = 'o', long, value_name = "SIG", default_value = "-")]
    pub(crate) output: PathBuf,
}

/// Arguments of `redc verify`.
#[derive(Debug, clap::Args)]
pub(crate) struct VerifyArgs {
    #[command(flatten)]
    pub(crate) opts: SigOptions,
    /// The signature file (raw bytes).
    #[arg(long, value_name = "SIG")]
    pub(crate) sig: PathBuf,
}

/// Arguments of `redc encrypt` and `redc decrypt`.
#[derive(Debug, clap::Args)]
pub(crate) struct EnvelopeArgs {
    /// Key file: to encrypt, a public (or private) key per recipient (repeat --key: any one of
    /// them opens the file); to decrypt, one private key. age's spellings work too: -r and
    /// --recipient to encrypt, --identity to decrypt (redc's -i stays the input file).
    #[arg(
        long = "key",
        short = 'r',
        visible_alias = "recipient",
        alias = "identity",
        value_name = "KEY",
        required = true
    )]
    pub(crate) keys: Vec<PathBuf>,
    /// Input file (- for stdin, the default).
    #[arg(short = 'i', long = "in", value_name = "IN", default_value = "-")]
    pub(crate) input: PathBuf,
    /// The input file, as a positional argument (instead of --in).
    #[arg(value_name = "FILE", conflicts_with = "input")]
    pub(crate) file: Option<PathBuf>,
    /// Output file (- for stdout, the default); a file appears only when complete.
    #[arg(short = 'o', long = "out", value_name = "OUT", default_value = "-")]
    pub(crate) output: PathBuf,
    /// INSECURE textbook RSA, block by block, to reproduce the experiment of §5 of paper 000
    /// (a dataflow-based implementation of RSA on the Maxeler platform): the data is cut into blocks smaller than the
    /// modulus and each block is exponentiated. No padding, no integrity, leaks
    /// equal blocks: never use it to protect data.
    #[arg(long)]
    pub(crate) raw_blocks: bool,
    #[command(flatten)]
    pub(crate) password: PasswordArgs,
}

/// `redc rsa ...`.
#[derive(Debug, Subcommand)]
pub(crate) enum RsaCommand {
    /// Encrypt one message (raw ciphertext bytes, as `openssl pkeyutl -encrypt` writes).
    Encrypt(RsaMessageArgs),
    /// Decrypt one message (as `openssl pkeyutl -decrypt` reads).
    Decrypt(RsaMessageArgs),
    /// Many private-key operations with one key: JSON Lines {"in": HEX} in, {"out": HEX} out.
    PrivateBatch(BatchArgs<PrivateOp>),
    /// Many public-key operations with one key: JSON Lines {"in": HEX[, "sig": HEX]} in.
    PublicBatch(BatchArgs<PublicOp>),
}

/// `redc dh ...`.
#[derive(Debug, Subcommand)]
pub(crate) enum DhCommand {
    /// Generate a Diffie-Hellman private key of a named group (PKCS#8, as `openssl genpkey
    /// -algorithm DH -pkeyopt group:NAME` writes).
    Genkey(DhGenkeyArgs),
    /// Print the public key (SPKI) of a Diffie-Hellman key file.
    Pubkey(DhPubkeyArgs),
    /// The shared secret with a peer's public key (as `openssl pkeyutl -derive -pkeyopt
    /// dh_pad:1`: as long as p), raw bytes.
    Derive(DhDeriveArgs),
    /// Many derivations with one key: JSON Lines {"peer": HEX} (the peer's public value y,
    /// big-endian) in, {"out": HEX} out.
    DeriveBatch(DhBatchArgs),
}

/// Arguments of `redc dh genkey`.
#[derive(Debug, clap::Args)]
pub(crate) struct DhGenkeyArgs {
    /// The group: ffdhe2048, ffdhe3072, ffdhe4096, ffdhe6144, ffdhe8192 (RFC 7919),
    /// modp_1536, modp_2048, modp_3072, modp_4096, modp_6144, modp_8192 (RFC 3526).
    #[arg(long, default_value = "ffdhe2048")]
    pub(crate) group: String,
    /// The private exponent's length in bits, from the group's (RFC 7919 §5.2: 225 for
    /// ffdhe2048 .. 400 for ffdhe8192) to the size of q (p's bits - 1, a full-size exponent).
    /// [default: the group's]
    #[arg(long, value_name = "BITS")]
    pub(crate) exponent_bits: Option<usize>,
    /// Write the private key here (default stdout).
    #[arg(short = 'o', long, value_name = "FILE")]
    pub(crate) output: Option<PathBuf>,
    /// Also write the public key (SPKI) here.
    #[arg(long = "pub", value_name = "FILE")]
    pub(crate) public: Option<PathBuf>,
    /// Encoding of both key files (DER is binary: never written to a terminal).
    #[arg(long, value_enum, default_value_t = OutForm::Pem)]
    pub(crate) outform: OutForm,
    /// Replace key files that already exist.
    #[arg(long)]
    pub(crate) force: bool,
}

/// Arguments of `redc dh pubkey`.
#[derive(Debug, clap::Args)]
pub(crate) struct DhPubkeyArgs {
    /// A Diffie-Hellman private or public key file (PEM or DER).
    #[arg(value_name = "KEY")]
    pub(crate) key: PathBuf,
    /// Encoding (DER is binary: never written to a terminal).
    #[arg(long, value_enum, default_value_t = OutForm::Pem)]
    pub(crate) outform: OutForm,
    /// Write the public key here (- for stdout, the default).
    #[arg(short = 'o', long, value_name = "FILE", default_value = "-")]
    pub(crate) output: PathBuf,
}

/// Arguments of `redc dh derive`.
#[derive(Debug, clap::Args)]
pub(crate) struct DhDeriveArgs {
    /// Our private key.
    #[arg(long, value_name = "KEY")]
    pub(crate) key: PathBuf,
    /// The peer's public key (or a private key, whose public half is used), of the same group.
    #[arg(long, value_name = "PEERKEY")]
    pub(crate) peer: PathBuf,
    /// Leave out the leading zero bytes of the secret, as `openssl pkeyutl -derive` does
    /// without `-pkeyopt dh_pad:1`. The secret's length then tells its leading zeros (the
    /// Raccoon attack's leak): for compatibility with such peers only.
    #[arg(long)]
    pub(crate) unpadded: bool,
    /// Write the secret here (- for stdout, the default; never to a terminal).
    #[arg(short = 'o', long, value_name = "FILE", default_value = "-")]
    pub(crate) output: PathBuf,
}

/// Arguments of `redc dh derive-batch`.
#[derive(Debug, clap::Args)]
pub(crate) struct DhBatchArgs {
    /// Our private key.
    #[arg(long, value_name = "KEY")]
    pub(crate) key: PathBuf,
    #[command(flatten)]
    pub(crate) io: BatchIo,
}

/// `redc dsa ...`.
#[derive(Debug, Subcommand)]
pub(crate) enum DsaCommand {
    /// Many signatures with one private key: JSON Lines {"in": HEX} (the message) in,
    /// {"sig": HEX} out.
    SignBatch(DsaBatchArgs),
    /// Many verifications with one key: JSON Lines {"in": HEX, "sig": HEX} in,
    /// {"valid": true|false} out.
    VerifyBatch(DsaBatchArgs),
}

/// Arguments of `redc dsa sign-batch|verify-batch`.
#[derive(Debug, clap::Args)]
pub(crate) struct DsaBatchArgs {
    /// Key file (private to sign; private or public to verify).
    #[arg(long, value_name = "KEY")]
    pub(crate) key: PathBuf,
    /// Hash of the messages: sha1, sha224, sha256, sha384, sha512, sha512-224, sha512-256.
    #[arg(long, default_value = "sha256")]
    pub(crate) hash: String,
    /// The signatures' encoding.
    #[arg(long, value_enum, default_value_t = SigFormat::Der)]
    pub(crate) sig_format: SigFormat,
    /// Signing only: the nonce k. [default: hedged]
    #[arg(long, value_enum)]
    pub(crate) nonce: Option<NonceArg>,
    #[command(flatten)]
    pub(crate) io: BatchIo,
}

/// Encryption schemes.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub(crate) enum EncScheme {
    /// RSAES-OAEP (RFC 8017 §7.1).
    Oaep,
    /// RSAES-PKCS1-v1_5 (RFC 8017 §7.2); decryption uses implicit rejection.
    Pkcs1v15,
}

/// Arguments of `redc rsa encrypt|decrypt`.
#[derive(Debug, clap::Args)]
pub(crate) struct RsaMessageArgs {
    /// Key file.
    #[arg(long, value_name = "KEY")]
    pub(crate) key: PathBuf,
    /// Scheme.
    #[arg(long, value_enum, default_value_t = EncScheme::Oaep)]
    pub(crate) scheme: EncScheme,
    /// OAEP label hash.
    #[arg(long, default_value = "sha256")]
    pub(crate) hash: String,
    /// OAEP MGF1 hash (default: the --hash).
    #[arg(long)]
    pub(crate) mgf1_hash: Option<String>,
    /// OAEP label, in hexadecimal (default empty).
    #[arg(long, value_name = "HEX")]
    pub(crate) label: Option<String>,
    /// Input file (- for stdin, the default).
    #[arg(short = 'i', long = "in", value_name = "IN", default_value = "-")]
    pub(crate) input: PathBuf,
    /// Output file (- for stdout, the default).
    #[arg(short = 'o', long = "out", value_name = "OUT", default_value = "-")]
    pub(crate) output: PathBuf,
    #[command(flatten)]
    pub(crate) password: PasswordArgs,
}

/// Private-key batch operations.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub(crate) enum PrivateOp {
    /// Raw RSA (hazardous): in^d mod n.
    Raw,
    /// RSASSA-PSS signature of the message `in`.
    SignPss,
    /// RSASSA-PKCS1-v1_5 signature of the message `in`.
    SignPkcs1v15,
    /// RSAES-OAEP decryption.
    DecryptOaep,
    /// RSAES-PKCS1-v1_5 decryption (implicit rejection).
    DecryptPkcs1v15,
}

/// Public-key batch operations.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub(crate) enum PublicOp {
    /// Raw RSA (hazardous): in^e mod n.
    Raw,
    /// RSASSA-PSS verification of `sig` over the message `in`.
    VerifyPss,
    /// RSASSA-PKCS1-v1_5 verification of `sig` over the message `in`.
    VerifyPkcs1v15,
    /// RSAES-OAEP encryption.
    EncryptOaep,
    /// RSAES-PKCS1-v1_5 encryption.
    EncryptPkcs1v15,
}

/// The JSON Lines input and output of a batch command, and its engine.
#[derive(Debug, clap::Args)]
pub(crate) struct BatchIo {
    /// JSON Lines input (- for stdin, the default).
    #[arg(short = 'i', long = "in", value_name = "FILE", default_value = "-")]
    pub(crate) input: PathBuf,
    /// Output (- for stdout, the default).
    #[arg(short = 'o', long = "out", value_name = "FILE")]
    pub(crate) output: Option<PathBuf>,
    /// The engine: auto (the GPU if usable, else the fastest CPU backend) or a backend by name.
    /// [default: REDC_BACKEND, else auto]
    #[arg(long, value_enum, value_name = "BACKEND")]
    pub(crate) backend: Option<BackendArg>,
}

/// Arguments of the batch commands.
#[derive(Debug, clap::Args)]
pub(crate) struct BatchArgs<Op: ValueEnum + Clone + Send + Sync + 'static> {
    /// Key file.
    #[arg(long, value_name = "KEY")]
    pub(crate) key: PathBuf,
    /// The operation.
    #[arg(long, value_enum)]
    pub(crate) op: Op,
    /// Hash for the signature and OAEP operations. [default: sha256, or a restricted
    /// RSASSA-PSS key's own]
    #[arg(long)]
    pub(crate) hash: Option<String>,
    /// MGF1 hash of the PSS and OAEP operations. [default: --hash, or a restricted
    /// RSASSA-PSS key's own]
    #[arg(long, value_name = "HASH")]
    pub(crate) mgf1_hash: Option<String>,
    #[command(flatten)]
    pub(crate) io: BatchIo,
    #[command(flatten)]
    pub(crate) password: PasswordArgs,
}

/// Arguments of `redc modexp`.
#[derive(Debug, clap::Args)]
#[command(allow_negative_numbers = true)]
pub(crate) struct ModexpArgs {
    /// The base: decimal, or hexadecimal with 0x; negative as in Python's pow.
    #[arg(value_name = "BASE", required_unless_present = "batch")]
    pub(crate) base: Option<Integer>,
    /// The exponent: decimal, or hexadecimal with 0x; negative for a power of the base's
    /// inverse modulo MOD (when it has one), as in Python's pow.
    #[arg(value_name = "EXP", required_unless_present = "batch")]
    pub(crate) exp: Option<Integer>,
    /// The modulus (not 0; odd or even; negative gives a result in (MOD, 0], as Python's pow):
    /// decimal, or hexadecimal with 0x.
    #[arg(value_name = "MOD", required_unless_present = "batch")]
    pub(crate) modulus: Option<Integer>,
    /// Read JSON Lines {"base": .., "exp": .., "mod": ..} from FILE (- for stdin).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["base", "exp", "modulus", "trace"])]
    pub(crate) batch: Option<PathBuf>,
    /// The engine of a --batch: auto (the GPU if usable, else the fastest CPU backend) or a
    /// backend by name. [default: REDC_BACKEND, else auto; --product, --schedule or --word run
    /// each line on the reference modpow instead]
    #[arg(long, value_enum, value_name = "BACKEND",
          conflicts_with_all = ["product", "schedule", "word"])]
    pub(crate) backend: Option<BackendArg>,
    /// Write the output (the result, or the batch answers) to FILE instead of
    /// stdout; the file appears only when complete.
    #[arg(short = 'o', long, value_name = "FILE")]
    pub(crate) output: Option<PathBuf>,
    /// Print results in hexadecimal with 0x.
    #[arg(long)]
    pub(crate) hex: bool,
    /// Print the result as one JSON object {"result": ..}, as a --batch line is answered.
    #[arg(long, conflicts_with_all = ["batch", "trace"])]
    pub(crate) json: bool,
    /// The Montgomery product schedule of the reference modpow. [default: cios]
    #[arg(long, value_enum)]
    pub(crate) product: Option<ProductArg>,
    /// The exponentiation schedule of the reference modpow. [default: window]
    #[arg(long, value_enum)]
    pub(crate) schedule: Option<ScheduleArg>,
    /// Digit width w in bits of the reference modpow. [default: 64]
    #[arg(long, value_enum)]
    pub(crate) word: Option<WordArg>,
    /// Print the intermediate values per exponent bit, in and out of
    /// Montgomery form, as a table before the result.
    #[arg(long)]
    pub(crate) trace: bool,
}

impl ModexpArgs {
    /// `--product`, `--schedule` and `--word` with their defaults.
    pub(crate) fn reference(&self) -> (ProductArg, ScheduleArg, WordArg) {
        (
            self.product.unwrap_or(ProductArg::Cios),
            self.schedule.unwrap_or(ScheduleArg::Window),
            self.word.unwrap_or(WordArg::W64),
        )
    }

    /// Was the reference modpow asked for by one of its options?
    pub(crate) fn reference_asked(&self) -> bool {
        self.product.is_some() || self.schedule.is_some() || self.word.is_some()
    }
}

/// Arguments of `redc counts`.
#[derive(Debug, clap::Args)]
pub(crate) struct CountsArgs {
    /// Operand sizes in digits.
    #[arg(long, value_delimiter = ',', default_values_t = [8u64, 16, 32],
          value_parser = clap::value_parser!(u64).range(1..=4096))]
    pub(crate) digits: Vec<u64>,
    /// Digit width w in bits.
    #[arg(long, value_enum, default_value_t = WordArg::W32)]
    pub(crate) word: WordArg,
    /// Print JSON Lines, one object per size and schedule, instead of the table.
    #[arg(long)]
    pub(crate) json: bool,
}

/// The help of an ARCH argument: the registry's names, so a new
/// architecture appears without an edit here.
fn arch_help() -> String {
    let names: Vec<&str> = redc_hw::Arch::ALL.iter().map(|a| a.name()).collect();
    format!("The architecture: {}", names.join(", "))
}

/// Arguments of `redc sim`.
#[derive(Debug, clap::Args)]
pub(crate) struct SimArgs {
    #[arg(value_name = "ARCH", help = arch_help(), required_unless_present = "table", conflicts_with = "table")]
    pub(crate) arch: Option<String>,
    /// Print the tables of PAPER (fdfm, blum-paar, carry-save, perin, dataflow, or all)
    /// beside the models' figures.
    #[arg(long, value_name = "PAPER")]
    pub(crate) table: Option<String>,
    /// Modulus size R in bits (a random odd modulus of exactly R bits; with --crt, p·q), up to 4096.
    #[arg(long, default_value_t = 1024, value_parser = clap::value_parser!(u64).range(2..=4096))]
    pub(crate) bits: u64,
    /// Digit width in bits where the architecture has a choice (blum-paar k, perin 16|32, dataflow w).
    #[arg(long, value_name = "K")]
    pub(crate) radix: Option<u32>,
    /// The exponent: worst (all R bits 1), random (R random bits), f4 (65537), or hexadecimal.
    /// [default: worst]. With --crt: key (the random key's d, the default) or worst (fdfm: also
    /// 001 Eq. 10's worst case, both half exponents all ones, which sets the time and throughput)
    #[arg(long, value_name = "worst|random|f4|HEX")]
    pub(crate) exp: Option<String>,
    /// Number of cores for the throughput figure.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub(crate) cores: u32,
    /// Clock in MHz (default: the paper's clock for the architecture).
    #[arg(long, value_name = "F")]
    pub(crate) mhz: Option<f64>,
    /// Write the checked product's trace as a VCD: every clock where the model has a clock-level
    /// schedule (fdfm), else every iteration.
    #[arg(long, value_name = "FILE")]
    pub(crate) vcd: Option<PathBuf>,
    /// The exponentiation by the Montgomery powering ladder where the paper proposes one
    /// (perin-systolic, perin-multiplexed: 004 §6, two multipliers at once).
    #[arg(long, conflicts_with = "crt")]
    pub(crate) ladder: bool,
    /// CRT decryption with a random key of R bits instead of a plain exponentiation.
    #[arg(long)]
    pub(crate) crt: bool,
    /// With --crt, run the two halves on two circuits at once (where the paper allows it).
    #[arg(long, requires = "crt")]
    pub(crate) parallel: bool,
    /// Seed of the random modulus, operands and key.
    #[arg(long, default_value_t = 1)]
    pub(crate) seed: u64,
    /// Print JSON instead of text.
    #[arg(long)]
    pub(crate) json: bool,
}

/// Arguments of `redc vectors`.
#[derive(Debug, clap::Args)]
pub(crate) struct VectorsArgs {
    /// The architecture (as for `redc sim`).
    #[arg(value_name = "ARCH")]
    pub(crate) arch: String,
    /// Number of cases (each a random modulus and two random operands; for
    /// the carry-save multipliers each operand a random pair).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=1_000_000), required_unless_present = "n", conflicts_with = "n")]
    pub(crate) count: Option<u64>,
    /// Modulus size in bits, up to 4096 (with --n: its own).
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(2..=4096), conflicts_with = "n")]
    pub(crate) bits: u64,
    /// Exponentiations instead of products: each case a random base below n and a random
    /// exponent of exactly B bits, through the paper's exponentiator.
    #[arg(long, value_name = "B", value_parser = clap::value_parser!(u64).range(1..=4096), conflicts_with = "n")]
    pub(crate) exponent_bits: Option<u64>,
    /// RSA CRT decryptions instead of products, for the architectures with a CRT model (fdfm,
    /// blum-paar, blum-paar-radix2): each case a random key of --bits bits (at least 32, e = 65537) and a random
    /// cipher text, decrypted as the paper does (p, q, d, what the host loads, each phase's cycles).
    #[arg(long, conflicts_with_all = ["n", "exponent_bits"])]
    pub(crate) crt: bool,
    /// One case of your own instead of random ones: the modulus, in hexadecimal.
    #[arg(long, value_name = "HEX", requires = "a")]
    pub(crate) n: Option<String>,
    /// With --n: an exponentiation a^e mod n by the paper's exponentiator instead of a product
    /// (a the base, below n; --b not taken), in hexadecimal.
    #[arg(long, value_name = "HEX", requires = "n", conflicts_with_all = ["b", "a2", "b2"])]
    pub(crate) e: Option<String>,
    /// With --n: the first operand (for carry-save, A1), in hexadecimal.
    #[arg(long, value_name = "HEX", requires = "n")]
    pub(crate) a: Option<String>,
    /// With --n: the second operand (for carry-save, B1), in hexadecimal.
    #[arg(long, value_name = "HEX", requires = "n")]
    pub(crate) b: Option<String>,
    /// With --n, carry-save multipliers only: A2, the pair's second word (default 0).
    #[arg(long, value_name = "HEX", requires = "n")]
    pub(crate) a2: Option<String>,
    /// With --n, carry-save multipliers only: B2 (default 0).
    #[arg(long, value_name = "HEX", requires = "n")]
    pub(crate) b2: Option<String>,
    /// Digit width in bits where the architecture has a choice.
    #[arg(long, value_name = "K")]
    pub(crate) radix: Option<u32>,
    /// Seed: the same seed gives the same files.
    #[arg(long, default_value_t = 1)]
    pub(crate) seed: u64,
    /// File layout.
    #[arg(long, value_enum)]
    pub(crate) format: VectorFormat,
    /// Output directory (created if missing; files in it with the same names are replaced).
    #[arg(short = 'o', long, value_name = "DIR")]
    pub(crate) output: PathBuf,
}

/// `redc vectors --format`.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub(crate) enum VectorFormat {
    /// vectors.txt: name = 0x… lines per case, then the trace.
    Hex,
    /// One $readmemh file per memory (n, r2, a, b, result, constants, cycles, trace_<reg>, clock_<reg>), manifest.json and vectors.vh.
    Readmemh,
    /// vectors.json.
    Json,
}

/// Arguments of `redc bench`.
#[derive(Debug, clap::Args)]
#[command(allow_negative_numbers = true)]
pub(crate) struct BenchArgs {
    /// RSA modulus sizes in bits (1024..=16384); raw modexp runs at the same sizes.
    /// [default: 1024,2048,3072,4096; with --quick: 2048]
    #[arg(long, value_name = "BITS", value_delimiter = ',', num_args = 1..,
          value_parser = clap::value_parser!(u64).range(1024..=16384))]
    pub(crate) sizes: Vec<u64>,
    /// The redc backends to measure: auto (or all: every one this machine can run, the GPU
    /// included when usable), or one by name (cuda: the GPU beside every CPU backend).
    #[arg(long, value_enum, default_value_t = BackendArg::Auto)]
    pub(crate) backend: BackendArg,
    /// Time per measurement in seconds, fractions allowed (OpenSSL takes whole seconds, at
    /// least 1). [default: 1; with --quick: 0.2]
    #[arg(long, value_name = "S", value_parser = parse_seconds)]
    pub(crate) seconds: Option<f64>,
    /// Threads for the all-cores figures. [default: rayon's, one per core]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=4096))]
    pub(crate) threads: Option<u32>,
    /// Do not run `openssl speed`.
    #[arg(long)]
    pub(crate) no_openssl: bool,
    /// Do not load GMP.
    #[arg(long)]
    pub(crate) no_gmp: bool,
    /// Do not measure Diffie-Hellman (ffdhe groups of the --sizes) and DSA (at 2048 bits).
    #[arg(long)]
    pub(crate) no_ffc: bool,
    /// Write every figure, with the machine's description, as JSON to FILE.
    #[arg(long, value_name = "FILE")]
    pub(crate) json: Option<PathBuf>,
    /// Draw ops/s per core as an SVG bar chart in FILE (SVG only: another extension is refused).
    #[arg(long, value_name = "FILE.svg")]
    pub(crate) plot: Option<PathBuf>,
    /// A short run: RSA-2048 only and 0.2 s per measurement, unless --sizes or --seconds say otherwise.
    #[arg(long)]
    pub(crate) quick: bool,
    /// With --backend cuda: measure the GPU alone (no CPU backend, OpenSSL, GMP, DH or DSA).
    #[arg(long)]
    pub(crate) gpu_only: bool,
    /// Operations per GPU batch call. [default: the device's batch size, every SM filled]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=16_777_216))]
    pub(crate) gpu_batch: Option<u32>,
}

/// The longest `--seconds` accepted.
const MAX_SECONDS: f64 = 3600.0;

/// `--seconds`: a number of seconds in (0, [`MAX_SECONDS`]].
fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if s > 0.0 && s <= MAX_SECONDS => Ok(s),
        _ => Err(format!(
            "expected a number of seconds above 0 and at most {MAX_SECONDS}"
        )),
    }
}

/// `--product`.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub(crate) enum ProductArg {
    /// Separated Operand Scanning (Koç, Acar, Kaliski; the dataflow RSA paper 000, Fig. 3).
    Sos,
    /// Coarsely Integrated Operand Scanning.
    Cios,
    /// Finely Integrated Operand Scanning.
    Fios,
    /// Finely Integrated Product Scanning.
    Fips,
    /// Coarsely Integrated Hybrid Scanning.
    Cihs,
    /// Radix-2^w digit-serial form (Ito, Nakano, Song, 001 Alg. 1).
    Radix,
}

impl From<ProductArg> for Product {
    fn from(p: ProductArg) -> Self {
        match p {
            ProductArg::Sos => Product::Sos,
            ProductArg::Cios => Product::Cios,
            ProductArg::Fios => Product::Fios,
            ProductArg::Fips => Product::Fips,
            ProductArg::Cihs => Product::Cihs,
            ProductArg::Radix => Product::Radix,
        }
    }
}

/// `--schedule`.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub(crate) enum ScheduleArg {
    /// Left-to-right square-and-multiply.
    Ltr,
    /// Right-to-left, independent squaring and multiplying chains.
    Rtl,
    /// Montgomery powering ladder.
    Ladder,
    /// Fixed 2^k window, constant-time table selection.
    Window,
    /// Sliding window (public exponents).
    Sliding,
}

impl From<ScheduleArg> for Schedule {
    fn from(s: ScheduleArg) -> Self {
        match s {
            ScheduleArg::Ltr => Schedule::Ltr,
            ScheduleArg::Rtl => Schedule::Rtl,
            ScheduleArg::Ladder => Schedule::Ladder,
            ScheduleArg::Window => Schedule::Window,
            ScheduleArg::Sliding => Schedule::Sliding,
        }
    }
}

/// `--word`.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub(crate) enum WordArg {
    /// 8-bit digits.
    #[value(name = "8")]
    W8,
    /// 16-bit digits.
    #[value(name = "16")]
    W16,
    /// 32-bit digits.
    #[value(name = "32")]
    W32,
    /// 64-bit digits.
    #[value(name = "64")]
    W64,
}

/// Call `$f::<W>($args)` with the digit type chosen by a [`WordArg`].
macro_rules! with_word {
    ($word:expr, $f:ident ( $($arg:expr),* $(,)? )) => {
        match $word {
            $crate::args::WordArg::W8 => $f::<u8>($($arg),*),
            $crate::args::WordArg::W16 => $f::<u16>($($arg),*),
            $crate::args::WordArg::W32 => $f::<u32>($($arg),*),
            $crate::args::WordArg::W64 => $f::<u64>($($arg),*),
        }
    };
}
pub(crate) use with_word;

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
