//! The arguments of `redc rsa ...`: single operations and batches.

use super::PasswordArgs;
use super::batch::BatchArgs;
use clap::{Subcommand, ValueEnum};
use std::path::PathBuf;

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
