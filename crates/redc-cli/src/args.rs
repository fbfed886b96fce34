//! The command line, declared with clap, and its parsing.

use crate::failure::{BAD_INPUT, one_line};
use crate::number::Number;
use clap::{Parser, Subcommand, ValueEnum};
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
}

/// The commands.
#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// BASE^EXP mod MOD, like Python's pow(BASE, EXP, MOD), for any MOD >= 1.
    Modexp(ModexpArgs),
    /// A short showcase of redc on built-in values.
    Demo,
    /// Word operations per Montgomery product for each schedule (Koç's analysis).
    Counts(CountsArgs),
}

/// Arguments of `redc modexp`.
#[derive(Debug, clap::Args)]
#[command(allow_negative_numbers = true)]
pub(crate) struct ModexpArgs {
    /// The base: decimal, or hexadecimal with 0x.
    #[arg(value_name = "BASE", required_unless_present = "batch")]
    pub(crate) base: Option<Number>,
    /// The exponent: decimal, or hexadecimal with 0x.
    #[arg(value_name = "EXP", required_unless_present = "batch")]
    pub(crate) exp: Option<Number>,
    /// The modulus (>= 1, odd or even): decimal, or hexadecimal with 0x.
    #[arg(value_name = "MOD", required_unless_present = "batch")]
    pub(crate) modulus: Option<Number>,
    /// Read JSON Lines {"base": .., "exp": .., "mod": ..} from FILE (- for stdin).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["base", "exp", "modulus", "trace"])]
    pub(crate) batch: Option<PathBuf>,
    /// With --batch: write the answers to FILE instead of stdout.
    #[arg(short = 'o', long, value_name = "FILE", requires = "batch")]
    pub(crate) output: Option<PathBuf>,
    /// Print results in hexadecimal with 0x.
    #[arg(long)]
    pub(crate) hex: bool,
    /// The Montgomery product schedule.
    #[arg(long, value_enum, default_value_t = ProductArg::Cios)]
    pub(crate) product: ProductArg,
    /// The exponentiation schedule.
    #[arg(long, value_enum, default_value_t = ScheduleArg::Window)]
    pub(crate) schedule: ScheduleArg,
    /// Digit width w in bits.
    #[arg(long, value_enum, default_value_t = WordArg::W64)]
    pub(crate) word: WordArg,
    /// Print the intermediate values per exponent bit, in and out of
    /// Montgomery form, as a table before the result.
    #[arg(long)]
    pub(crate) trace: bool,
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
}

/// `--product`.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub(crate) enum ProductArg {
    /// Separated Operand Scanning (000 Fig. 3).
    Sos,
    /// Coarsely Integrated Operand Scanning.
    Cios,
    /// Finely Integrated Operand Scanning.
    Fios,
    /// Finely Integrated Product Scanning.
    Fips,
    /// Coarsely Integrated Hybrid Scanning.
    Cihs,
    /// Radix-2^w digit-serial form (001 Alg. 1).
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

/// Parse the command line. Help and version go to stdout with status 0; a
/// usage error is one line on stderr with status 2.
pub(crate) fn parse(argv: impl IntoIterator<Item = OsString>) -> Result<Cli, ExitCode> {
    Cli::try_parse_from(argv).map_err(|e| {
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
            ErrorKind::MissingRequiredArgument => {
                let missing = match e.get(clap::error::ContextKind::InvalidArg) {
                    Some(clap::error::ContextValue::Strings(names)) => names.join(", "),
                    _ => "an argument".to_owned(),
                };
                let _ = writeln!(
                    std::io::stderr(),
                    "redc: missing required argument {missing} (see 'redc --help')"
                );
                ExitCode::from(BAD_INPUT)
            }
            _ => {
                let text = e.render().to_string();
                let first = text.lines().next().unwrap_or("invalid arguments");
                let first = first.strip_prefix("error: ").unwrap_or(first);
                let valid = match e.get(clap::error::ContextKind::ValidValue) {
                    Some(clap::error::ContextValue::Strings(v)) => {
                        format!("; possible values: {}", v.join(", "))
                    }
                    _ => String::new(),
                };
                let _ = writeln!(
                    std::io::stderr(),
                    "redc: {}{valid} (see 'redc --help')",
                    one_line(first)
                );
                ExitCode::from(BAD_INPUT)
            }
        }
    })
}
