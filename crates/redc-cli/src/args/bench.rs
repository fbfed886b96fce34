//! The arguments of `redc bench`.

use crate::backend::BackendArg;
use std::path::PathBuf;

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
    /// Load Intel's crypto_mb (the RSA private batch anchor) from DIR, where `pip install
    /// ipp-crypto ipp-crypto-include intel-cmplr-lib-rt` put it (<prefix>/lib). [default: the
    /// loader's search path]
    #[arg(long, value_name = "DIR", conflicts_with = "no_crypto_mb")]
    pub(crate) crypto_mb: Option<PathBuf>,
    /// Do not load crypto_mb.
    #[arg(long)]
    pub(crate) no_crypto_mb: bool,
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
