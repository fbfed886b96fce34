//! The arguments of `redc modexp` and `redc counts`, and the value enums of
//! redc's Montgomery products, exponentiation schedules and digit widths.

use crate::backend::BackendArg;
use crate::number::Integer;
use clap::ValueEnum;
use redc::{Product, Schedule};
use std::path::PathBuf;

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
            self.product.unwrap_or(ProductArg(Product::Cios)),
            self.schedule.unwrap_or(ScheduleArg(Schedule::Window)),
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

library_value_enum!(
    /// `--product`: a [`Product`] by its name.
    ProductArg => Product
);

library_value_enum!(
    /// `--schedule`: a [`Schedule`] by its name.
    ScheduleArg => Schedule
);

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
