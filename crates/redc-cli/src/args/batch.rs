//! The JSON Lines input and output every batch command shares, and its
//! engine.

use super::PasswordArgs;
use crate::backend::BackendArg;
use clap::ValueEnum;
use std::path::PathBuf;

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
