//! Conversions of [`Nat`] to and from big-endian bytes, hexadecimal and
//! decimal text.
//!
//! Decimal conversion goes through 64-bit limbs in chunks of 19 decimal
//! digits, whatever the digit width `w`, so it costs the same at `w = 8` as
//! at `w = 64`.

use super::Nat;
use crate::word::Word;
use core::fmt;

/// Why a text could not be read as a natural number.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseNatError {
    /// The text (after an optional `0x`) has no digits.
    #[error("empty number")]
    Empty,
    /// A leading minus sign: only non-negative numbers are accepted.
    #[error("negative numbers are not accepted")]
    Negative,
    /// A character that is not a digit of the radix.
    #[error("invalid {radix} digit {found:?} at position {position}")]
    InvalidDigit {
        /// `"decimal"` or `"hexadecimal"`.
        radix: &'static str,
        /// The offending character.
        found: char,
        /// Its 0-based character position in the text.
        position: usize,
    },
}

const DEC_CHUNK: usize = 19;
const DEC_CHUNK_POW: u64 = 10_000_000_000_000_000_000;

impl<W: Word> Nat<W> {
    /// The number whose big-endian bytes are `bytes` (leading zeros allowed).
    pub fn from_be_bytes(bytes: &[u8]) -> Self {
        let per = (W::BITS / 8) as usize;
        let digits = bytes
            .rchunks(per)
            .map(|chunk| W::from_u64_truncate(chunk.iter().fold(0u64, |acc, &b| (acc << 8) | u64::from(b))))
            .collect();
        Self::from_digits(digits)
    }

    /// The minimal big-endian bytes (empty for zero).
    pub fn to_be_bytes(&self) -> Vec<u8> {
        let per = (W::BITS / 8) as usize;
        let mut out = Vec::with_capacity(self.digits.len() * per);
        for d in self.digits.iter().rev() {
            let x = d.to_u64();
            for k in (0..per).rev() {
                out.push((x >> (8 * k)) as u8);
            }
        }
        let first = out.iter().position(|&b| b != 0).unwrap_or(out.len());
        out.drain(..first);
        out
    }

    /// The big-endian bytes left-padded with zeros to `len` bytes, or `None`
    /// if the number needs more than `len` bytes.
    pub fn to_be_bytes_padded(&self, len: usize) -> Option<Vec<u8>> {
        let b = self.to_be_bytes();
        let pad = len.checked_sub(b.len())?;
        let mut out = vec![0u8; pad];
        out.extend_from_slice(&b);
        Some(out)
    }

    /// Parse hexadecimal digits (no prefix; either case).
    pub fn from_hex(text: &str) -> Result<Self, ParseNatError> {
        if text.is_empty() {
            return Err(ParseNatError::Empty);
        }
        let mut nibbles = Vec::with_capacity(text.len());
        for (position, found) in text.chars().enumerate() {
            let v = found.to_digit(16).ok_or(ParseNatError::InvalidDigit {
                radix: "hexadecimal",
                found,
                position,
            })?;
            nibbles.push(v as u8);
        }
        let bytes: Vec<u8> = nibbles
            .rchunks(2)
            .rev()
            .map(|c| c.iter().fold(0u8, |acc, &n| (acc << 4) | n))
            .collect();
        Ok(Self::from_be_bytes(&bytes))
    }

    /// Lower-case hexadecimal without prefix (`"0"` for zero).
    pub fn to_hex(&self) -> String {
        let bytes = self.to_be_bytes();
        if bytes.is_empty() {
            return "0".to_owned();
        }
        let mut s: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        if s.starts_with('0') {
            s.remove(0);
        }
        s
    }

    /// Parse decimal digits.
    pub fn from_dec(text: &str) -> Result<Self, ParseNatError> {
        if text.is_empty() {
            return Err(ParseNatError::Empty);
        }
        if let Some((position, found)) = text.chars().enumerate().find(|(_, c)| !c.is_ascii_digit()) {
            return Err(ParseNatError::InvalidDigit {
                radix: "decimal",
                found,
                position,
            });
        }
        // Little-endian 64-bit limbs; the first chunk takes the leftover digits.
        let mut limbs: Vec<u64> = Vec::new();
        let first = match text.len() % DEC_CHUNK {
            0 => DEC_CHUNK,
            r => r,
        };
        let mut start = 0;
        let mut end = first;
        while start < text.len() {
            let chunk = &text[start..end];
            let value: u64 = chunk.bytes().fold(0, |acc, b| acc * 10 + u64::from(b - b'0'));
            let scale = 10u64.pow(chunk.len() as u32);
            let mut carry = u128::from(value);
            for limb in &mut limbs {
                let t = u128::from(*limb) * u128::from(scale) + carry;
                *limb = t as u64;
                carry = t >> 64;
            }
            if carry != 0 {
                limbs.push(carry as u64);
            }
            start = end;
            end += DEC_CHUNK;
        }
        Ok(Nat::<u64>::from_digits(limbs).to_width())
    }

    /// Decimal digits (`"0"` for zero).
    pub fn to_dec(&self) -> String {
        let mut limbs = self.to_width::<u64>().digits().to_vec();
        let mut chunks = Vec::new();
        while !limbs.is_empty() {
            let mut rem = 0u128;
            for limb in limbs.iter_mut().rev() {
                let cur = (rem << 64) | u128::from(*limb);
                *limb = (cur / u128::from(DEC_CHUNK_POW)) as u64;
                rem = cur % u128::from(DEC_CHUNK_POW);
            }
            chunks.push(rem as u64);
            while limbs.last() == Some(&0) {
                limbs.pop();
            }
        }
        let mut s = match chunks.pop() {
            None => return "0".to_owned(),
            Some(top) => top.to_string(),
        };
        for c in chunks.iter().rev() {
            s.push_str(&format!("{c:019}"));
        }
        s
    }

    /// Parse a non-negative number written in decimal or, with a `0x`/`0X`
    /// prefix, in hexadecimal. Surrounding white space and `_` separators
    /// are not accepted: the text must be the number alone.
    pub fn parse(text: &str) -> Result<Self, ParseNatError> {
        if text.starts_with('-') {
            return Err(ParseNatError::Negative);
        }
        match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
            Some(hex) => Self::from_hex(hex).map_err(|e| match e {
                ParseNatError::InvalidDigit { radix, found, position } => ParseNatError::InvalidDigit {
                    radix,
                    found,
                    position: position + 2,
                },
                other => other,
            }),
            None => Self::from_dec(text),
        }
    }
}

impl<W: Word> fmt::Display for Nat<W> {
    /// Decimal.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad_integral(true, "", &self.to_dec())
    }
}

impl<W: Word> fmt::LowerHex for Nat<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad_integral(true, "0x", &self.to_hex())
    }
}

impl<W: Word> core::str::FromStr for Nat<W> {
    type Err = ParseNatError;

    /// Same as [`Nat::parse`]: decimal, or hexadecimal after `0x`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips() {
        let dec = "123456789012345678901234567890123456789";
        let a = Nat::<u8>::from_dec(dec).unwrap();
        assert_eq!(a.to_dec(), dec);
        assert_eq!(Nat::<u16>::parse(&format!("0x{}", a.to_hex())).unwrap().to_dec(), dec);
        assert_eq!(Nat::<u32>::from_dec("0").unwrap(), Nat::zero());
        assert_eq!(
            Nat::<u32>::from_dec("00000000000000000000000000042").unwrap().to_dec(),
            "42"
        );
        assert_eq!(
            Nat::<u64>::from_dec("10000000000000000000").unwrap().to_dec(),
            "10000000000000000000"
        );
        assert_eq!(Nat::<u8>::from_hex("F").unwrap().to_be_bytes(), vec![15]);
        assert_eq!(Nat::<u8>::from_u64(0x10f).to_hex(), "10f");
        assert_eq!(Nat::<u8>::from_u64(7).to_be_bytes_padded(3), Some(vec![0, 0, 7]));
        assert_eq!(Nat::<u8>::from_u64(0x10000).to_be_bytes_padded(2), None);
    }

    #[test]
    fn errors_name_the_problem() {
        assert_eq!(Nat::<u32>::parse(""), Err(ParseNatError::Empty));
        assert_eq!(Nat::<u32>::parse("0x"), Err(ParseNatError::Empty));
        assert_eq!(Nat::<u32>::parse("-5"), Err(ParseNatError::Negative));
        assert_eq!(
            Nat::<u32>::parse("0x1g").unwrap_err().to_string(),
            "invalid hexadecimal digit 'g' at position 3"
        );
        assert!(matches!(
            Nat::<u32>::parse("12a"),
            Err(ParseNatError::InvalidDigit { position: 2, .. })
        ));
        assert!(Nat::<u32>::parse(" 1").is_err());
        assert!(Nat::<u32>::parse("١").is_err());
    }
}
