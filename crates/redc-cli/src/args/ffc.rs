//! The arguments of `redc dh ...` and `redc dsa ...`.

use super::OutForm;
use super::batch::BatchIo;
use super::keys::{NonceArg, SigFormat};
use clap::Subcommand;
use redc_rsa::encoding::Form;
use std::path::PathBuf;

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
    #[arg(long, value_enum, default_value_t = OutForm(Form::Pem))]
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
    #[arg(long, value_enum, default_value_t = OutForm(Form::Pem))]
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
    #[arg(long, value_enum, default_value_t = SigFormat(redc_ffc::dsa::SigEncoding::Der))]
    pub(crate) sig_format: SigFormat,
    /// Signing only: the nonce k. [default: hedged]
    #[arg(long, value_enum)]
    pub(crate) nonce: Option<NonceArg>,
    #[command(flatten)]
    pub(crate) io: BatchIo,
}
