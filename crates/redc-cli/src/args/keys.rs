//! The arguments of the key and file commands: `redc keygen`, `pubkey`,
//! `sign`, `verify`, `encrypt` and `decrypt`.

use super::{OutForm, PasswordArgs};
use crate::number::Number;
use clap::ValueEnum;
use redc_rsa::encoding::{Form, PrivateFormat, PublicFormat};
use std::path::PathBuf;

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
    #[arg(long, value_enum, default_value_t = KeyFormat(PrivateFormat::Pkcs8))]
    pub(crate) format: KeyFormat,
    /// Encoding of both key files (DER is binary: never written to a terminal).
    #[arg(long, value_enum, default_value_t = OutForm(Form::Pem))]
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

library_value_enum!(
    /// Private key file formats.
    KeyFormat => PrivateFormat
);

/// Arguments of `redc pubkey`.
#[derive(Debug, clap::Args)]
pub(crate) struct PubkeyArgs {
    /// A private or public key file (PEM or DER; PKCS#1, PKCS#8, SPKI).
    #[arg(value_name = "KEY")]
    pub(crate) key: PathBuf,
    /// Public key format.
    #[arg(long, value_enum, default_value_t = PubFormat(PublicFormat::Spki))]
    pub(crate) format: PubFormat,
    /// Encoding (DER is binary: never written to a terminal).
    #[arg(long, value_enum, default_value_t = OutForm(Form::Pem))]
    pub(crate) outform: OutForm,
    /// Write the public key here (- for stdout, the default).
    #[arg(short = 'o', long, value_name = "FILE", default_value = "-")]
    pub(crate) output: PathBuf,
    #[command(flatten)]
    pub(crate) password: PasswordArgs,
}

library_value_enum!(
    /// Public key file formats.
    PubFormat => PublicFormat
);

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

library_value_enum!(
    /// DSA signature encodings.
    SigFormat => redc_ffc::dsa::SigEncoding
);

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
