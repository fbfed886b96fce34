//! Natural numbers as little-endian vectors of `w`-bit digits.
//!
//! [`Nat`] is the plain (not Montgomery) representation: the operands and
//! results of modular exponentiation, and the arithmetic needed outside
//! Montgomery form — comparison, addition, subtraction, schoolbook
//! multiplication and division with remainder (for example `C mod p`).
//! Text and byte conversions live in [`nat::text`](self::text); the digit-slice
//! kernels shared with the Montgomery code live in `nat::limbs`.
//!
//! None of these operations is constant-time; the Montgomery product and the
//! constant-time exponentiation schedules are where secrets belong.

pub(crate) mod divrem;
mod inverse;
pub(crate) mod limbs;
pub mod text;

use crate::word::Word;
use core::cmp::Ordering;

/// A natural number with 64-bit digits: the public number type of the
/// engine, RSA, DH and DSA (re-exported by `redc-rsa` and `redc-ffc`).
pub type Num = Nat<u64>;

/// A natural number `sum(d[i] · 2^(i·w))` with digits `d` of type `W`.
///
/// Invariant: no zero digit at the top (zero is the empty vector), so the
/// derived equality is numeric equality.
#[derive(Clone, PartialEq, Eq, Hash, Default)]
pub struct Nat<W: Word> {
    digits: Vec<W>,
}

impl<W: Word> Nat<W> {
    /// Zero.
    pub fn zero() -> Self {
        Self { digits: Vec::new() }
    }

    /// One.
    pub fn one() -> Self {
        Self::from_u64(1)
    }

    /// The value `x`.
    pub fn from_u64(x: u64) -> Self {
        let mut digits = Vec::new();
        let mut rest = x;
        while rest != 0 {
            digits.push(W::from_u64_truncate(rest));
            rest = rest.checked_shr(W::BITS).unwrap_or(0);
        }
        Self { digits }
    }

    /// The number whose little-endian digits are `digits` (high zero digits
    /// are allowed and dropped).
    pub fn from_digits(mut digits: Vec<W>) -> Self {
        limbs::trim(&mut digits);
        Self { digits }
    }

    /// The little-endian digits, without high zero digits.
    pub fn digits(&self) -> &[W] {
        &self.digits
    }

    /// The digits, zero-padded (or not) to at least `len` digits.
    pub fn to_digits_padded(&self, len: usize) -> Vec<W> {
        let mut d = self.digits.clone();
        if d.len() < len {
            d.resize(len, W::ZERO);
        }
        d
    }

    /// Is this zero?
    pub fn is_zero(&self) -> bool {
        self.digits.is_empty()
    }

    /// Is this one?
    pub fn is_one(&self) -> bool {
        self.digits.len() == 1 && self.digits[0] == W::ONE
    }

    /// Is this odd?
    pub fn is_odd(&self) -> bool {
        self.digits.first().is_some_and(|d| d.bit(0))
    }

    /// Number of significant bits (0 for zero).
    pub fn bits(&self) -> usize {
        limbs::bits(&self.digits)
    }

    /// Bit `i` (0 = least significant); bits beyond the top are 0.
    pub fn bit(&self, i: usize) -> bool {
        limbs::bit(&self.digits, i)
    }

    /// Number of trailing zero bits, or `None` for zero.
    pub fn trailing_zeros(&self) -> Option<usize> {
        let w = W::BITS as usize;
        let i = self.digits.iter().position(|&d| d != W::ZERO)?;
        let d = self.digits[i];
        (0..w).find(|&b| d.bit(b as u32)).map(|b| i * w + b)
    }

    /// `self + rhs`.
    pub fn add(&self, rhs: &Self) -> Self {
        Self::from_digits(limbs::add(&self.digits, &rhs.digits))
    }

    /// `self - rhs`, or `None` if `rhs > self`.
    pub fn checked_sub(&self, rhs: &Self) -> Option<Self> {
        if *self < *rhs {
            return None;
        }
        let mut d = self.digits.clone();
        let borrow = limbs::sub_assign(&mut d, &rhs.digits);
        debug_assert_eq!(borrow, W::ZERO);
        Some(Self::from_digits(d))
    }

    /// `self · rhs` by the schoolbook method (000 Fig. 3 a, without reduction).
    pub fn mul(&self, rhs: &Self) -> Self {
        Self::from_digits(limbs::mul(&self.digits, &rhs.digits))
    }

    /// `(self / d, self mod d)`, or `None` if `d` is zero (Knuth's Algorithm D).
    pub fn divrem(&self, d: &Self) -> Option<(Self, Self)> {
        if d.is_zero() {
            return None;
        }
        let (q, r) = divrem::divrem(&self.digits, &d.digits);
        Some((Self::from_digits(q), Self::from_digits(r)))
    }

    /// `self mod d`, or `None` if `d` is zero.
    pub fn rem(&self, d: &Self) -> Option<Self> {
        self.divrem(d).map(|(_, r)| r)
    }

    /// `self · 2^k`.
    pub fn shl(&self, k: usize) -> Self {
        Self::from_digits(limbs::shl(&self.digits, k))
    }

    /// `floor(self / 2^k)`.
    pub fn shr(&self, k: usize) -> Self {
        Self::from_digits(limbs::shr(&self.digits, k))
    }

    /// `self mod 2^k`: the low `k` bits.
    pub fn low_bits(&self, k: usize) -> Self {
        let w = W::BITS as usize;
        let mut d: Vec<W> = self.digits.iter().copied().take(k.div_ceil(w)).collect();
        if !k.is_multiple_of(w)
            && let Some(top) = d.get_mut(k / w)
        {
            *top = top.shl(W::BITS - (k % w) as u32).shr(W::BITS - (k % w) as u32);
        }
        Self::from_digits(d)
    }

    /// `2^k`.
    pub fn pow2(k: usize) -> Self {
        Self::one().shl(k)
    }

    /// The same value with digits of another width.
    pub fn to_width<V: Word>(&self) -> Nat<V> {
        Nat::from_be_bytes(&self.to_be_bytes())
    }
}

impl<W: Word> zeroize::Zeroize for Nat<W> {
    /// Overwrite the digits with zeros (and leave the value zero). Secrets
    /// keep `Nat`s inside `zeroize::Zeroizing` so this runs on drop.
    fn zeroize(&mut self) {
        self.digits.zeroize();
        self.digits.clear();
    }
}

impl<W: Word> Ord for Nat<W> {
    fn cmp(&self, other: &Self) -> Ordering {
        limbs::cmp(&self.digits, &other.digits)
    }
}

impl<W: Word> PartialOrd for Nat<W> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<W: Word> core::fmt::Debug for Nat<W> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Nat(0x{})", self.to_hex())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_values() {
        let a = Nat::<u8>::from_u64(0x1234_5678);
        assert_eq!(a.digits(), &[0x78, 0x56, 0x34, 0x12]);
        assert_eq!(a.bits(), 29);
        assert!(!a.is_odd());
        assert_eq!(a.trailing_zeros(), Some(3));
        assert_eq!(Nat::<u8>::zero().trailing_zeros(), None);
        assert_eq!(a.low_bits(12), Nat::from_u64(0x678));
        assert_eq!(a.low_bits(64), a);
        assert_eq!(Nat::<u64>::from_u64(u64::MAX).digits(), &[u64::MAX]);
        assert_eq!(a.checked_sub(&Nat::from_u64(0x1234_5679)), None);
    }
}
