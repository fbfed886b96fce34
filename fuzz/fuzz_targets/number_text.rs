//! Number text: `redc::Nat::parse` (decimal, or hexadecimal after `0x`),
//! `from_dec`, `from_hex`, `FromStr`, at every digit width, the redc CLI's
//! `Number` (with its bit and length limits), and big-endian bytes.
//!
//! Checks: no panic; every width parses alike; what parses equals
//! num-bigint's value of the same digits and is accepted exactly when the
//! text is `[0-9]+` or `0x[0-9a-fA-F]+`; errors name the first bad character
//! and its position; round trips parse → `to_dec`/`to_hex`/`Display` →
//! parse give the same number, and the texts equal num-bigint's; the CLI's
//! `Number` accepts exactly the numbers within its limits; bytes →
//! `from_be_bytes` → `to_be_bytes` gives the bytes without leading zeros.
#![no_main]

use libfuzzer_sys::fuzz_target;
use num_bigint::BigUint;
use redc::{Nat, ParseNatError};
use redc_fuzz::cli::{NUMBER_LIMITS, parse_number};

/// What the parser must answer, worked out character by character.
fn expected(text: &str) -> Result<BigUint, ParseNatError> {
    if text.starts_with('-') {
        return Err(ParseNatError::Negative);
    }
    let (digits, radix, skip) = match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        Some(hex) => (hex, 16, 2),
        None => (text, 10, 0),
    };
    if digits.is_empty() {
        return Err(ParseNatError::Empty);
    }
    if let Some((i, c)) = digits.chars().enumerate().find(|(_, c)| !c.is_digit(radix)) {
        return Err(ParseNatError::InvalidDigit {
            radix: if radix == 16 { "hexadecimal" } else { "decimal" },
            found: c,
            position: i + skip,
        });
    }
    Ok(BigUint::parse_bytes(digits.as_bytes(), radix).expect("digits of the radix"))
}

fn big(x: &Nat<u64>) -> BigUint {
    BigUint::from_bytes_be(&x.to_be_bytes())
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let text = text.as_ref();

    let got = Nat::<u64>::parse(text);
    assert_eq!(got, text.parse::<Nat<u64>>());
    assert_eq!(got, Nat::<u8>::parse(text).map(|x| x.to_width::<u64>()));
    assert_eq!(got, Nat::<u16>::parse(text).map(|x| x.to_width::<u64>()));
    assert_eq!(got, Nat::<u32>::parse(text).map(|x| x.to_width::<u64>()));
    let want = expected(text);
    assert_eq!(got.clone().map(|x| big(&x)), want, "{text:?}");

    if let Ok(x) = &got {
        let b = big(x);
        let dec = x.to_dec();
        assert_eq!(dec, b.to_string());
        assert_eq!(format!("{x}"), dec);
        assert_eq!(Nat::<u64>::parse(&dec).as_ref(), Ok(x));
        assert_eq!(Nat::<u32>::from_dec(&dec).map(|y| y.to_width::<u64>()).as_ref(), Ok(x));
        let hex = x.to_hex();
        assert_eq!(hex, format!("{b:x}"));
        assert_eq!(Nat::<u64>::parse(&format!("0x{hex}")).as_ref(), Ok(x));
        assert_eq!(
            Nat::<u8>::from_hex(&hex.to_uppercase())
                .map(|y| y.to_width::<u64>())
                .as_ref(),
            Ok(x)
        );
        assert_eq!(format!("{x:x}"), hex);
    }

    // The CLI's numbers: the same values, within its limits.
    let (max_bits, max_chars) = NUMBER_LIMITS;
    let cli = parse_number(text);
    match &got {
        Ok(x) if text.len() <= max_chars && x.bits() <= max_bits => assert_eq!(cli.as_ref(), Ok(x)),
        _ => assert!(cli.is_err(), "the CLI accepts {text:?}"),
    }

    // Bytes.
    let x = Nat::<u64>::from_be_bytes(data);
    let first = data.iter().position(|&b| b != 0).unwrap_or(data.len());
    assert_eq!(x.to_be_bytes(), &data[first..]);
    assert_eq!(x.to_be_bytes_padded(data.len()).as_deref(), Some(data));
    assert_eq!(Nat::<u8>::from_be_bytes(data).to_width::<u64>(), x);
    assert_eq!(Nat::<u16>::from_be_bytes(data).to_be_bytes(), &data[first..]);
    assert_eq!(big(&x), BigUint::from_bytes_be(data));
});
