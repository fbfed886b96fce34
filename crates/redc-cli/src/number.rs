//! Numbers on the command line and in batch files: non-negative integers in
//! decimal or 0x-hexadecimal, at most [`MAX_BITS`] bits; `Integer` adds
//! a sign, for `redc modexp`'s arguments (Python's `pow` takes negatives).

use redc::{Nat, ParseNatError, Word};
use std::str::FromStr;

/// The largest number accepted, in bits (four times the largest RSA modulus
/// redc is built for).
pub const MAX_BITS: usize = 65536;

/// The longest number text read (room for `MAX_BITS` in decimal, with
/// leading zeros to spare).
pub const MAX_CHARS: usize = 4 * MAX_BITS / 3;

/// A parsed input number, stored with 64-bit digits and converted to the
/// requested digit width when used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Number(Nat<u64>);

/// Why a text is not an acceptable number.
#[derive(Debug, thiserror::Error)]
pub enum NumberError {
    /// Not a number at all.
    #[error(transparent)]
    Parse(#[from] ParseNatError),
    /// Longer than [`MAX_BITS`].
    #[error("number has {0} bits, more than the limit of {MAX_BITS}")]
    TooLarge(usize),
    /// A text too long to be a number within [`MAX_BITS`].
    #[error("number text is {0} characters long, more than the limit of {MAX_CHARS}")]
    TooLong(usize),
}

impl FromStr for Number {
    type Err = NumberError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        if text.len() > MAX_CHARS {
            return Err(NumberError::TooLong(text.len()));
        }
        let n = Nat::parse(text)?;
        match n.bits() {
            b if b > MAX_BITS => Err(NumberError::TooLarge(b)),
            _ => Ok(Self(n)),
        }
    }
}

impl Number {
    /// The value with digits of width `W`.
    pub fn to_nat<W: Word>(&self) -> Nat<W> {
        self.0.to_width()
    }
}

/// A signed [`Number`]: `-` before its text (`-7`, `-0x1f`); `-0` is 0.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Integer {
    /// Whether the value is below zero (never for 0).
    pub(crate) negative: bool,
    /// The absolute value.
    pub(crate) magnitude: Number,
}

impl FromStr for Integer {
    type Err = NumberError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let (negative, digits) = match text.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, text),
        };
        let magnitude: Number = digits.parse()?;
        Ok(Self {
            negative: negative && !magnitude.0.is_zero(),
            magnitude,
        })
    }
}

/// Print `x` in decimal, or in hexadecimal with `0x`.
pub(crate) fn format<W: Word>(x: &Nat<W>, hex: bool) -> String {
    if hex { format!("0x{}", x.to_hex()) } else { x.to_dec() }
}
