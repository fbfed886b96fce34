//! Greatest common divisor, by Stein's binary algorithm, and modular
//! inverse, by Euclid's algorithm with the magnitude of the Bézout
//! coefficient tracked (its sign alternates). Variable-time: for public
//! values and key generation.

use super::Nat;
use super::limbs::{cmp, sub_assign, trim};
use crate::word::Word;
use core::cmp::Ordering;

impl<W: Word> Nat<W> {
    /// `gcd(self, other)` (`gcd(0, 0) = 0`), by Stein's binary algorithm
    /// on 64-bit digits in place (no division: for 2048-bit operands about
    /// a third of Euclid's time with Knuth's division).
    pub fn gcd(&self, other: &Self) -> Self {
        let a = self.to_width::<u64>().digits().to_vec();
        let b = other.to_width::<u64>().digits().to_vec();
        Nat::<u64>::from_digits(binary_gcd(a, b)).to_width()
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

/// The number of trailing zero bits of `d` (nonzero).
fn trailing_zeros(d: &[u64]) -> usize {
    let i = d.iter().position(|&x| x != 0).unwrap_or(0);
    i * 64 + d.get(i).map_or(0, |x| x.trailing_zeros() as usize)
}

/// `d >>= k` in place.
fn shr_assign(d: &mut Vec<u64>, k: usize) {
    d.drain(..(k / 64).min(d.len()));
    let bits = k % 64;
    if bits > 0 {
        for i in 0..d.len() {
            let next = d.get(i + 1).map_or(0, |&x| x << (64 - bits));
            d[i] = (d[i] >> bits) | next;
        }
    }
    trim(d);
}

/// Stein's binary gcd of two digit vectors: the common power of two set
/// aside, then, both odd, the larger replaced by the difference with its
/// factors of two removed, until they are equal.
fn binary_gcd(mut a: Vec<u64>, mut b: Vec<u64>) -> Vec<u64> {
    trim(&mut a);
    trim(&mut b);
    if a.is_empty() {
        return b;
    }
    if b.is_empty() {
        return a;
    }
    let (za, zb) = (trailing_zeros(&a), trailing_zeros(&b));
    shr_assign(&mut a, za);
    shr_assign(&mut b, zb);
    loop {
        match cmp(&a, &b) {
            Ordering::Equal => break,
            Ordering::Less => core::mem::swap(&mut a, &mut b),
            Ordering::Greater => {}
        }
        // a > b, both odd: a - b is even and nonzero.
        sub_assign(&mut a, &b);
        let z = trailing_zeros(&a);
        shr_assign(&mut a, z);
    }
    Nat::<u64>::from_digits(a).shl(za.min(zb)).digits().to_vec()
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
