//! Greatest common divisor and modular inverse, by Euclid's algorithm with
//! the magnitude of the Bézout coefficient tracked (its sign alternates).
//! Variable-time: for public values and key generation.

use super::Nat;
use crate::word::Word;

impl<W: Word> Nat<W> {
    /// `gcd(self, other)` (`gcd(0, 0) = 0`).
    pub fn gcd(&self, other: &Self) -> Self {
        let (mut a, mut b) = (self.clone(), other.clone());
        while let Some((_, r)) = a.divrem(&b) {
            a = b;
            b = r;
        }
        a
    }

    /// `self^-1 mod m`, or `None` if `gcd(self, m) != 1` or `m < 2`.
    pub fn inv_mod(&self, m: &Self) -> Option<Self> {
        if *m <= Self::one() {
            return None;
        }
        // Invariants: r0 ≡ ±x0·self, r1 ≡ ∓x1·self (mod m). The Bézout
        // coefficients of Euclid's algorithm alternate in sign, so only
        // their magnitudes are kept, |x2| = |x0| + q·|x1| (never above m):
        // no reduction modulo m inside the loop.
        let (mut r0, mut r1) = (m.clone(), self.rem(m)?);
        let (mut x0, mut x1) = (Self::zero(), Self::one());
        // Whether the coefficient of r0 is negative (x0 = 0 at the start).
        let mut x0_negative = true;
        while !r1.is_zero() {
            let (q, r) = r0.divrem(&r1)?;
            let x2 = x0.add(&q.mul(&x1));
            (r0, r1) = (r1, r);
            (x0, x1) = (x1, x2);
            x0_negative = !x0_negative;
        }
        if !r0.is_one() {
            return None;
        }
        if x0_negative {
            m.checked_sub(&x0)?.rem(m)
        } else {
            x0.rem(m)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_cases() {
        let n = |x: u64| Nat::<u8>::from_u64(x);
        assert_eq!(n(12).gcd(&n(18)), n(6));
        assert_eq!(n(0).gcd(&n(5)), n(5));
        assert_eq!(n(5).gcd(&n(0)), n(5));
        assert_eq!(n(3).inv_mod(&n(7)), Some(n(5)));
        assert_eq!(n(6).inv_mod(&n(9)), None);
        assert_eq!(n(1).inv_mod(&n(1)), None);
        let e = n(65537);
        let phi = n(1_000_000_006);
        let d = e.inv_mod(&phi).unwrap();
        assert_eq!(e.mul(&d).rem(&phi).unwrap(), n(1));
    }
}
