//! The arguments of `redc sim` and `redc vectors` (the hardware models).

use std::path::PathBuf;

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

library_value_enum!(
    /// `redc vectors --format`.
    VectorFormat => redc_hw::vectors::Format
);
