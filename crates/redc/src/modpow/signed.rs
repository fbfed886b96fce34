//! Python's `pow(base, exp, mod)` on signed integers, as the unsigned
//! problem [`modpow`](super::modpow) (or an engine's batch) answers:
//! a negative base is reduced into `[0, |mod|)`, a negative exponent raises
//! the base's inverse modulo `|mod|` (an error without one), and a negative
//! modulus gives the result in `(mod, 0]` (Python's language reference,
//! "Power operator", and `pow`'s documentation). The CLI's `redc modexp`
//! and the Python package's `modexp_batch` share it; neither parses here.

use crate::nat::Nat;
use crate::word::Word;

/// Why `pow(base, exp, mod)` has no answer (Python raises `ValueError`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum SignedPowError {
    /// `mod = 0` ("pow() 3rd argument cannot be 0").
    #[error("modulus is zero")]
    ZeroModulus,
    /// `exp < 0` and `gcd(base, |mod|) != 1` with `|mod| > 1` ("base is
    /// not invertible for the given modulus").
    #[error("base is not invertible for the given modulus")]
    NotInvertible,
}

/// `pow(base, exp, mod)` on signed integers, each given as `(negative,
/// magnitude)`, turned into non-negative operands: `base^exp mod modulus`,
/// then [`SignedPow::signed`] gives Python's result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignedPow<W: Word> {
    /// The base to raise: as given when non-negative (so a trace shows it;
    /// it may be `>= modulus`), reduced into `[0, modulus)` when negative,
    /// its inverse modulo `modulus` when the exponent is negative (unless
    /// `modulus = 1`).
    pub base: Nat<W>,
    /// `|exp|`.
    pub exp: Nat<W>,
    /// `|mod|`, at least 1.
    pub modulus: Nat<W>,
    /// Whether `mod < 0`.
    pub negative_modulus: bool,
}

impl<W: Word> SignedPow<W> {
    /// The unsigned problem for `pow(base, exp, modulus)`, or why Python's
    /// `pow` raises (a zero modulus first).
    pub fn new(base: (bool, Nat<W>), exp: (bool, Nat<W>), modulus: (bool, Nat<W>)) -> Result<Self, SignedPowError> {
        let (negative_modulus, n) = modulus;
        if n.is_zero() {
            return Err(SignedPowError::ZeroModulus);
        }
        let (negative_base, mut b) = base;
        if negative_base {
            let r = b.rem(&n).unwrap_or_else(Nat::zero);
            b = n.checked_sub(&r).filter(|_| !r.is_zero()).unwrap_or(r);
        }
        if exp.0 && !n.is_one() {
            b = b.inv_mod(&n).ok_or(SignedPowError::NotInvertible)?;
        }
        Ok(SignedPow {
            base: b,
            exp: exp.1,
            modulus: n,
            negative_modulus,
        })
    }

    /// Python's result from `r = base^exp mod modulus` (`r < modulus`):
    /// `(negative, magnitude)`, `r - modulus` for a negative modulus and
    /// `r != 0`, else `r`.
    pub fn signed(&self, r: Nat<W>) -> (bool, Nat<W>) {
        if self.negative_modulus && !r.is_zero() {
            (true, self.modulus.checked_sub(&r).unwrap_or_default())
        } else {
            (false, r)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::modpow::{PowOptions, modpow};
    use num_bigint::{BigInt, Sign};

    fn nat(x: i64) -> (bool, Nat<u16>) {
        (x < 0, Nat::from_u64(x.unsigned_abs()))
    }

    /// Python's `pow(b, e, m)` by num-bigint: `None` where Python raises.
    fn python(b: i64, e: i64, m: i64) -> Option<BigInt> {
        let (b, m) = (BigInt::from(b), BigInt::from(m));
        if m == BigInt::from(0) {
            return None;
        }
        if m.magnitude() == &1u32.into() {
            return Some(BigInt::from(0));
        }
        let b = if e < 0 {
            b.modinv(&BigInt::from(m.magnitude().clone()))?
        } else {
            b
        };
        Some(b.modpow(&BigInt::from(e.unsigned_abs()), &m))
    }

    fn ours(b: i64, e: i64, m: i64) -> Option<BigInt> {
        let p = SignedPow::new(nat(b), nat(e), nat(m)).ok()?;
        let r = modpow(&p.base, &p.exp, &p.modulus, PowOptions::default(), None).ok()?;
        assert!(r < p.modulus);
        let (negative, r) = p.signed(r);
        let sign = if negative { Sign::Minus } else { Sign::Plus };
        Some(BigInt::from_bytes_be(sign, &r.to_be_bytes()))
    }

    #[test]
    fn agrees_with_num_bigint_on_signed_arguments() {
        let edges = [(-1, 2, 5), (2, -1, 5), (4, -1, 8), (0, -1, 1), (-7, 0, -1), (3, 5, -1)];
        let mut cases: Vec<(i64, i64, i64)> = edges.to_vec();
        cases.extend([(0, -1, 7), (5, 3, 0), (-12, -3, -35), (1 << 40, -2, 97), (-6, 0, 4)]);
        let mut x: u64 = 0x0051_67ed;
        let mut next = |bound: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let v = (x % bound) as i64;
            if x >> 63 == 1 { -v } else { v }
        };
        for _ in 0..2000 {
            cases.push((next(1 << 40), next(50), next(1000)));
        }
        for (b, e, m) in cases {
            assert_eq!(ours(b, e, m), python(b, e, m), "pow({b}, {e}, {m})");
        }
    }

    #[test]
    fn names_why_python_raises() {
        let p = |b, e, m| SignedPow::<u16>::new(nat(b), nat(e), nat(m)).map(|_| ());
        assert_eq!(p(3, -1, 0), Err(SignedPowError::ZeroModulus));
        assert_eq!(p(4, -1, 8), Err(SignedPowError::NotInvertible));
        assert_eq!(p(4, -1, -1), Ok(()));
    }

    #[test]
    fn keeps_a_non_negative_base_as_given() {
        let p = SignedPow::<u16>::new(nat(300), nat(2), nat(-7)).unwrap();
        assert_eq!(
            (p.base, p.modulus, p.negative_modulus),
            (Nat::from_u64(300), Nat::from_u64(7), true)
        );
    }
}
