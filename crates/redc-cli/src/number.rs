//! Numbers on the command line and in batch files: non-negative integers in
//! decimal or 0x-hexadecimal, at most [`MAX_BITS`] bits.

use redc::{Nat, ParseNatError, Word};
use std::str::FromStr;

/// The largest number accepted, in bits (four times the largest RSA modulus
/// redc is built for).
pub(crate) const MAX_BITS: usize = 65536;

/// The longest number text read (room for `MAX_BITS` in decimal, with
/// leading zeros to spare).
pub(crate) const MAX_CHARS: usize = 4 * MAX_BITS / 3;

/// A parsed input number, stored with 64-bit digits and converted to the
/// requested digit width when used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Number(Nat<u64>);

/// Why a text is not an acceptable number.
#[derive(Debug, thiserror::Error)]
pub(crate) enum NumberError {
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
    pub(crate) fn to_nat<W: Word>(&self) -> Nat<W> {
        self.0.to_width()
    }
}

/// Print `x` in decimal, or in hexadecimal with `0x`.
pub(crate) fn format<W: Word>(x: &Nat<W>, hex: bool) -> String {
    if hex { format!("0x{}", x.to_hex()) } else { x.to_dec() }
}
