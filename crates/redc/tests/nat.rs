//! Differential tests of [`Nat`] against `num_bigint::BigUint` at every digit
//! width (`u8`, `u16`, `u32`, `u64`): byte, hexadecimal and decimal
//! conversions, addition, subtraction, multiplication, Knuth division,
//! shifts, bit queries and ordering, on random operands of 0..3000 bits.
//!
//! The conversions between `Nat` and `BigUint` used as the oracle go through
//! the digit vectors (`Nat::from_digits` / `Nat::digits`), not through the
//! byte or text code under test.

mod common;
use common::*;
use core::cmp::Ordering;
use num_bigint::BigUint;
use num_traits::{One, Zero};
use proptest::prelude::*;
use redc::{Nat, ParseNatError, Word};

/// Largest operand size, in bits.
const MAX_BITS: usize = 3000;

/// The low `bits` bits of the little-endian `bytes`.
fn from_bytes(bytes: &[u8], bits: usize) -> BigUint {
    BigUint::from_bytes_le(bytes) & ones(bits)
}

/// Random naturals of 0..=max_bits bits, biased toward the shapes that reach
/// the rare paths: bytes from {0, 1, 0x7f, 0x80, 0xfe, 0xff}, all ones
/// (`2^k - 1`), powers of two, and `2^k + 1`.
fn arb_big(max_bits: usize) -> impl Strategy<Value = BigUint> {
    let len = max_bits / 8 + 1;
    prop_oneof![
        4 => (0..=max_bits, prop::collection::vec(any::<u8>(), len))
            .prop_map(|(bits, bytes)| from_bytes(&bytes, bits)),
        3 => (
            0..=max_bits,
            prop::collection::vec(prop::sample::select(vec![0u8, 1, 0x7f, 0x80, 0xfe, 0xff]), len)
        )
            .prop_map(|(bits, bytes)| from_bytes(&bytes, bits)),
        1 => (0..=max_bits).prop_map(ones),
        1 => (0..max_bits).prop_map(pow2),
        1 => (0..max_bits).prop_map(|k| pow2(k) + 1u8),
    ]
}

/// Run `f::<W>` for every digit width.
macro_rules! every_width {
    ($f:ident ( $($arg:expr),* )) => {{
        $f::<u8>($($arg),*);
        $f::<u16>($($arg),*);
        $f::<u32>($($arg),*);
        $f::<u64>($($arg),*);
    }};
}

fn check_bytes<W: Word>(x: &BigUint, pad: usize) {
    let n = to_nat::<W>(x);
    let w = W::BITS;
    // to_be_bytes: minimal, empty for zero (BigUint writes [0] for zero).
    let expect: Vec<u8> = if x.is_zero() { Vec::new() } else { x.to_bytes_be() };
    assert_eq!(n.to_be_bytes(), expect, "w={w} x={x:x}");
    // from_be_bytes, with and without leading zero bytes.
    assert_eq!(Nat::<W>::from_be_bytes(&expect), n, "w={w}");
    let mut padded = vec![0u8; pad];
    padded.extend_from_slice(&expect);
    assert_eq!(Nat::<W>::from_be_bytes(&padded), n, "w={w} pad={pad}");
    // to_be_bytes_padded: exactly `len` bytes, or None when too short.
    assert_eq!(n.to_be_bytes_padded(padded.len()), Some(padded.clone()));
    if !expect.is_empty() {
        assert_eq!(n.to_be_bytes_padded(expect.len() - 1), None);
    }
    // to_width to every other width keeps the value.
    assert_eq!(to_big(&n.to_width::<u8>()), *x);
    assert_eq!(to_big(&n.to_width::<u16>()), *x);
    assert_eq!(to_big(&n.to_width::<u32>()), *x);
    assert_eq!(to_big(&n.to_width::<u64>()), *x);
    // Digit round trip and padding with high zero digits.
    assert_eq!(to_big(&n), *x);
    let mut digits = n.digits().to_vec();
    digits.extend(core::iter::repeat_n(W::ZERO, pad % 5));
    assert_eq!(Nat::from_digits(digits.clone()), n);
    assert_eq!(n.to_digits_padded(digits.len()), digits);
    assert!(n.digits().last().is_none_or(|&d| d != W::ZERO), "top digit zero");
}

fn check_text<W: Word>(x: &BigUint, zeros: usize) {
    let n = to_nat::<W>(x);
    let w = W::BITS;
    let hex = x.to_str_radix(16);
    let dec = x.to_str_radix(10);
    let lead = "0".repeat(zeros);
    // Hexadecimal.
    assert_eq!(n.to_hex(), hex, "w={w}");
    assert_eq!(Nat::<W>::from_hex(&hex), Ok(n.clone()), "w={w} {hex}");
    assert_eq!(Nat::<W>::from_hex(&hex.to_uppercase()), Ok(n.clone()));
    assert_eq!(Nat::<W>::from_hex(&format!("{lead}{hex}")), Ok(n.clone()));
    assert_eq!(format!("{n:x}"), hex);
    assert_eq!(format!("{n:#x}"), format!("0x{hex}"));
    // Decimal.
    assert_eq!(n.to_dec(), dec, "w={w}");
    assert_eq!(format!("{n}"), dec);
    assert_eq!(Nat::<W>::from_dec(&dec), Ok(n.clone()), "w={w} {dec}");
    assert_eq!(Nat::<W>::from_dec(&format!("{lead}{dec}")), Ok(n.clone()));
    // parse / FromStr: decimal, or hexadecimal after 0x / 0X.
    assert_eq!(Nat::<W>::parse(&dec), Ok(n.clone()));
    assert_eq!(Nat::<W>::parse(&format!("{lead}{dec}")), Ok(n.clone()));
    assert_eq!(Nat::<W>::parse(&format!("0x{hex}")), Ok(n.clone()));
    assert_eq!(
        Nat::<W>::parse(&format!("0X{lead}{}", hex.to_uppercase())),
        Ok(n.clone())
    );
    assert_eq!(dec.parse::<Nat<W>>(), Ok(n.clone()));
    assert_eq!(format!("0x{hex}").parse::<Nat<W>>(), Ok(n));
    // A hexadecimal digit is not decimal; a sign is not accepted.
    assert!(matches!(
        Nat::<W>::parse(&format!("{dec}a")),
        Err(ParseNatError::InvalidDigit { position, radix: "decimal", found: 'a' }) if position == dec.len()
    ));
    assert_eq!(Nat::<W>::parse(&format!("-{dec}")), Err(ParseNatError::Negative));
    assert!(Nat::<W>::parse(&format!("+{dec}")).is_err());
}

fn check_arith<W: Word>(a: &BigUint, b: &BigUint) {
    let (x, y) = (to_nat::<W>(a), to_nat::<W>(b));
    let w = W::BITS;
    assert_eq!(to_big(&x.add(&y)), a + b, "w={w} add");
    assert_eq!(to_big(&y.add(&x)), a + b, "w={w} add");
    assert_eq!(to_big(&x.mul(&y)), a * b, "w={w} mul");
    assert_eq!(to_big(&y.mul(&x)), a * b, "w={w} mul");
    assert_eq!(to_big(&x.mul(&x)), a * a, "w={w} square");
    // checked_sub: None exactly when rhs > self.
    let (hi, lo) = if a >= b { (a, b) } else { (b, a) };
    let (xh, xl) = (to_nat::<W>(hi), to_nat::<W>(lo));
    assert_eq!(xh.checked_sub(&xl).as_ref().map(to_big), Some(hi - lo), "w={w} sub");
    assert_eq!(xh.checked_sub(&xh), Some(Nat::zero()));
    if hi != lo {
        assert_eq!(xl.checked_sub(&xh), None, "w={w} sub underflow");
    }
    let bigger = to_nat::<W>(&(hi + 1u8));
    assert_eq!(xh.checked_sub(&bigger), None);
    // Ord and equality, also against a copy with high zero digits.
    assert_eq!(x.cmp(&y), a.cmp(b), "w={w} cmp");
    assert_eq!(y.cmp(&x), b.cmp(a), "w={w} cmp");
    assert_eq!(x.partial_cmp(&y), Some(a.cmp(b)));
    assert_eq!(x == y, a == b);
    let padded = Nat::from_digits(x.to_digits_padded(x.digits().len() + 2));
    assert_eq!(padded.cmp(&x), Ordering::Equal);
    assert_eq!(padded, x);
    // Predicates.
    assert_eq!(x.is_zero(), a.is_zero());
    assert_eq!(x.is_one(), a.is_one());
    assert_eq!(x.is_odd(), a.bit(0));
}

fn check_divrem<W: Word>(u: &BigUint, v: &BigUint) {
    let (x, y) = (to_nat::<W>(u), to_nat::<W>(v));
    if v.is_zero() {
        assert_eq!(x.divrem(&y), None);
        assert_eq!(x.rem(&y), None);
        return;
    }
    let (q, r) = x.divrem(&y).expect("non-zero divisor");
    assert_eq!(
        (to_big(&q), to_big(&r)),
        (u / v, u % v),
        "w={} u={u:x} v={v:x}",
        W::BITS
    );
    assert_eq!(x.rem(&y).as_ref().map(to_big), Some(u % v));
}

/// `u = q·d + r` with `r < d` divides back into exactly `(q, r)`.
fn check_divrem_constructed<W: Word>(q: &BigUint, d: &BigUint, r: &BigUint) {
    if d.is_zero() {
        return;
    }
    let r = r % d;
    let u = q * d + &r;
    let (qq, rr) = to_nat::<W>(&u).divrem(&to_nat(d)).expect("non-zero divisor");
    assert_eq!((to_big(&qq), to_big(&rr)), (q.clone(), r), "w={} d={d:x}", W::BITS);
}

/// Division by one digit, by a divisor whose top digit is all ones, of a
/// smaller dividend, and of the divisor itself.
fn check_divrem_shapes<W: Word>(u: &BigUint, v: &BigUint, digit: u64, len: usize) {
    let w = W::BITS as usize;
    // One-digit divisors: random, 1, and 2^w - 1.
    let d = (BigUint::from(digit) & ones(w)).max(BigUint::one());
    check_divrem::<W>(u, &d);
    check_divrem::<W>(u, &BigUint::one());
    check_divrem::<W>(u, &ones(w));
    // A divisor of `len` digits with the top digit all ones (no normalising
    // shift; q̂ estimates hit MAX).
    let len = len.max(1);
    let top = ones(w) << (w * (len - 1));
    let dv = top | (v & ones(w * (len - 1)));
    check_divrem::<W>(u, &dv);
    check_divrem::<W>(&(u | (ones(w) << (w * (len + 2)))), &dv);
    // Many-digit divisor, dividend smaller than, equal to and just above it.
    check_divrem::<W>(u, v);
    if !v.is_zero() {
        check_divrem::<W>(&(v - 1u8), v);
        check_divrem::<W>(v, v);
        check_divrem::<W>(&(v + 1u8), v);
        check_divrem::<W>(&(v * 2u8 - 1u8), v);
        check_divrem::<W>(&(v << w), v);
    }
    check_divrem::<W>(u, &(u + 1u8));
    // A zero divisor gives None.
    check_divrem::<W>(u, &BigUint::zero());
}

/// Knuth Algorithm D's rare branches, written for any `w` in the shape of
/// Warren's (Hacker's Delight `divmnu`) 16-bit test vectors: q̂ one too large
/// and the add-back of step D6, and a multiply-subtract whose top digit
/// looks negative.
fn check_knuth_vectors<W: Word>() {
    let w = W::BITS;
    let d = |x: u64| W::from_u64_truncate(x);
    let (top, half, max) = (W::ONE.shl(w - 1), W::MAX.shr(1), W::MAX);
    let maxm1 = W::MAX.wrapping_sub(W::ONE);
    let cases: [(Vec<W>, Vec<W>); 6] = [
        (vec![W::ZERO, maxm1, top], vec![max, top]),
        (vec![d(3), W::ZERO, top], vec![d(1), W::ZERO, d(1).shl(w - 3)]),
        (vec![d(3), W::ZERO, top, W::ZERO], vec![d(1), W::ZERO, d(1).shl(w - 3)]),
        (vec![W::ZERO, W::ZERO, top, half], vec![d(1), W::ZERO, top]),
        (vec![W::ZERO, maxm1, W::ZERO, top], vec![max, W::ZERO, top]),
        (vec![W::ZERO, max, max, max, max], vec![max, max, max]),
    ];
    for (u, v) in cases {
        let (u, v) = (Nat::from_digits(u), Nat::from_digits(v));
        check_divrem::<W>(&to_big(&u), &to_big(&v));
    }
    // Warren's expected answers at w = 16, spelled out.
    if w == 16 {
        let n = |x: &[u64]| Nat::<W>::from_digits(x.iter().map(|&v| d(v)).collect());
        let (q, r) = n(&[0, 0, 0x8000, 0x7fff]).divrem(&n(&[1, 0, 0x8000])).unwrap();
        assert_eq!((q, r), (n(&[0xfffe, 0]), n(&[2, 0xffff, 0x7fff])));
        let (q, r) = n(&[3, 0, 0x8000]).divrem(&n(&[1, 0, 0x2000])).unwrap();
        assert_eq!((q, r), (n(&[3]), n(&[0, 0, 0x2000])));
        let (q, r) = n(&[0, 0xfffe, 0x8000]).divrem(&n(&[0xffff, 0x8000])).unwrap();
        assert_eq!((q, r), (n(&[0xffff]), n(&[0xffff, 0x7fff])));
    }
}

fn check_shifts<W: Word>(a: &BigUint, k: usize) {
    let x = to_nat::<W>(a);
    let w = W::BITS;
    for k in [k, 0, 1, w as usize - 1, w as usize, w as usize + 1, k / 3] {
        assert_eq!(to_big(&x.shl(k)), a << k, "w={w} shl {k}");
        assert_eq!(to_big(&x.shr(k)), a >> k, "w={w} shr {k}");
        assert_eq!(to_big(&x.low_bits(k)), a & ones(k), "w={w} low_bits {k}");
        assert_eq!(to_big(&Nat::<W>::pow2(k)), pow2(k), "w={w} pow2 {k}");
    }
    let bits = a.bits() as usize;
    for k in [bits, bits + 1, bits.saturating_sub(1), bits + 3 * w as usize] {
        assert_eq!(to_big(&x.shr(k)), a >> k, "w={w} shr {k}");
        assert_eq!(to_big(&x.low_bits(k)), a & ones(k), "w={w} low_bits {k}");
    }
}

fn check_bits<W: Word>(a: &BigUint, probes: &[usize]) {
    let x = to_nat::<W>(a);
    let w = W::BITS;
    assert_eq!(x.bits() as u64, a.bits(), "w={w} bits");
    assert_eq!(x.trailing_zeros().map(|t| t as u64), a.trailing_zeros(), "w={w} tz");
    let bits = a.bits() as usize;
    let extra = [0, 1, bits.saturating_sub(1), bits, bits + 1, bits + 64, 100_000];
    for &i in probes.iter().chain(&extra) {
        assert_eq!(x.bit(i), a.bit(i as u64), "w={w} bit {i}");
    }
    for i in 0..bits.min(200) {
        assert_eq!(x.bit(i), a.bit(i as u64), "w={w} bit {i}");
    }
}

fn check_gcd_inverse<W: Word>(a: &BigUint, m: &BigUint) {
    use num_integer::Integer;
    let (na, nm) = (to_nat::<W>(a), to_nat::<W>(m));
    assert_eq!(to_big(&na.gcd(&nm)), a.gcd(m), "w={}", W::BITS);
    let expect = if *m > BigUint::one() && a.gcd(m).is_one() {
        a.modinv(m)
    } else {
        None
    };
    assert_eq!(
        na.inv_mod(&nm).map(|x| to_big(&x)),
        expect,
        "w={} a={a:x} m={m:x}",
        W::BITS
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn gcd_and_inverse_agree(a in arb_big(1200), m in arb_big(1200)) {
        every_width!(check_gcd_inverse(&a, &m));
    }

    /// Operands with a common factor (and its powers of two) of any size.
    #[test]
    fn gcd_of_multiples_agrees(a in arb_big(600), b in arb_big(600), g in arb_big(600)) {
        every_width!(check_gcd_inverse(&(&a * &g), &(&b * &g)));
    }

    #[test]
    fn bytes_agree(x in arb_big(MAX_BITS), pad in 0usize..12) {
        every_width!(check_bytes(&x, pad));
    }

    #[test]
    fn text_agrees(x in arb_big(MAX_BITS), zeros in 0usize..25) {
        every_width!(check_text(&x, zeros));
    }

    #[test]
    fn add_sub_mul_cmp_agree(a in arb_big(MAX_BITS), b in arb_big(MAX_BITS)) {
        every_width!(check_arith(&a, &b));
    }

    #[test]
    fn add_sub_mul_cmp_agree_on_close_sizes(a in arb_big(MAX_BITS), delta in arb_big(70)) {
        // Operands of about the same length, equal, or one apart.
        let b = &a + &delta;
        every_width!(check_arith(&a, &b));
        every_width!(check_arith(&a, &a));
    }

    #[test]
    fn divrem_agrees(u in arb_big(MAX_BITS), v in arb_big(MAX_BITS / 2)) {
        every_width!(check_divrem(&u, &v));
        every_width!(check_divrem(&v, &u));
    }

    #[test]
    fn divrem_shapes(
        u in arb_big(MAX_BITS),
        v in arb_big(MAX_BITS / 3),
        digit in any::<u64>(),
        len in 1usize..20,
    ) {
        every_width!(check_divrem_shapes(&u, &v, digit, len));
    }

    #[test]
    fn divrem_recovers_quotient_and_remainder(
        q in arb_big(MAX_BITS / 2),
        d in arb_big(MAX_BITS / 2),
        r in arb_big(MAX_BITS / 2),
    ) {
        every_width!(check_divrem_constructed(&q, &d, &r));
    }

    #[test]
    fn shifts_agree(a in arb_big(MAX_BITS), k in 0usize..3200) {
        every_width!(check_shifts(&a, k));
    }

    #[test]
    fn bits_agree(a in arb_big(MAX_BITS), probes in prop::collection::vec(0usize..3100, 16)) {
        every_width!(check_bits(&a, &probes));
    }
}

#[test]
fn knuth_rare_branches() {
    every_width!(check_knuth_vectors());
}

/// Zero and one in every representation.
fn check_small<W: Word>() {
    let zero = Nat::<W>::zero();
    assert!(zero.digits().is_empty());
    assert_eq!(zero.to_hex(), "0");
    assert_eq!(zero.to_dec(), "0");
    assert_eq!(zero.to_be_bytes(), Vec::<u8>::new());
    assert_eq!(zero.bits(), 0);
    assert_eq!(zero.trailing_zeros(), None);
    assert_eq!(Nat::<W>::from_be_bytes(&[]), zero);
    assert_eq!(Nat::<W>::from_be_bytes(&[0, 0, 0]), zero);
    assert_eq!(Nat::<W>::from_hex("0"), Ok(zero.clone()));
    assert_eq!(Nat::<W>::from_dec("000"), Ok(zero.clone()));
    assert_eq!(Nat::<W>::parse("0x0"), Ok(zero.clone()));
    assert_eq!(Nat::<W>::from_u64(0), zero);
    assert_eq!(Nat::<W>::from_digits(vec![W::ZERO; 4]), zero);
    assert_eq!(Nat::<W>::default(), zero);
    assert!(Nat::<W>::one().is_one());
    assert_eq!(to_big(&Nat::<W>::one()), BigUint::one());
    for x in [1u64, 2, 0xff, 0x100, 0xffff, 0x1_0000, u64::MAX, 1 << 63] {
        assert_eq!(to_big(&Nat::<W>::from_u64(x)), BigUint::from(x), "w={} x={x}", W::BITS);
    }
    assert_eq!(Nat::<W>::parse(""), Err(ParseNatError::Empty));
    assert_eq!(Nat::<W>::parse("0x"), Err(ParseNatError::Empty));
    assert_eq!(Nat::<W>::from_hex(""), Err(ParseNatError::Empty));
    assert_eq!(Nat::<W>::from_dec(""), Err(ParseNatError::Empty));
    assert!(Nat::<W>::parse("0x12 ").is_err());
    assert!(Nat::<W>::parse("1_000").is_err());
    assert!(Nat::<W>::from_hex("0x10").is_err());
}

#[test]
fn zero_one_and_errors() {
    every_width!(check_small());
}
