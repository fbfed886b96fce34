//! Digits: the "stem type" of a big number.
//!
//! 000_be478b6750af4540.txt §2 calls the machine type that stores one digit the
//! *stem type*; it provides `w` bits per digit, and a `k`-bit modulus takes
//! `s = ceil(k / w)` digits (its Eq. 2). The paper debugs at `w = 8` with a
//! 32-bit modulus and runs at `w = 32` with 1024 bits. Every algorithm in this
//! crate is written once, generically over [`Word`], and instantiated for
//! `u8`, `u16`, `u32` and `u64`.
//!
//! A [`Word`] knows its double-width type ([`Word::Double`]) and exposes the
//! few double-width primitives the schedules need: the multiply-accumulate
//! `(C, S) := t + a·b + C` that every inner loop of Koç's schedules is made
//! of, add/subtract with carry, and a two-by-one division for Knuth's long
//! division.

use core::fmt::Debug;
use core::hash::Hash;
use core::ops::{BitAnd, BitOr, BitXor, Not};
use subtle::{Choice, ConditionallySelectable, ConstantTimeEq};
use zeroize::Zeroize;

/// One digit of width `w = Self::BITS` bits (000 §2, "stem type").
///
/// The double-width methods never overflow their intermediate. Their
/// preconditions are stated per method: `div_wide` needs `d != 0` and
/// `hi < d`, the shifts need `k < w`.
pub trait Word:
    Copy
    + Default
    + Eq
    + Ord
    + Hash
    + Debug
    + Send
    + Sync
    + ConditionallySelectable
    + ConstantTimeEq
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + Zeroize
    + 'static
{
    /// The digit width `w`.
    const BITS: u32;
    /// The digit 0.
    const ZERO: Self;
    /// The digit 1.
    const ONE: Self;
    /// The digit `2^w - 1` (all ones).
    const MAX: Self;
    /// The unsigned type of width `2w` that holds any product of two digits.
    type Double: Copy + Debug;

    /// `(C, S) := t + a·b + c` as in Koç's inner loops: returns `(S, C)`, the
    /// low and high digits of the double-width sum. Never overflows, since
    /// `(2^w-1) + (2^w-1)^2 + (2^w-1) = 2^(2w) - 1`.
    fn mac(t: Self, a: Self, b: Self, c: Self) -> (Self, Self);
    /// `a + b + carry` for `carry` in {0, 1}: returns `(sum, carry_out)`.
    fn adc(a: Self, b: Self, carry: Self) -> (Self, Self);
    /// `a - b - borrow` for `borrow` in {0, 1}: returns `(difference, borrow_out)`.
    fn sbb(a: Self, b: Self, borrow: Self) -> (Self, Self);
    /// `(hi·2^w + lo) / d` and the remainder; requires `hi < d` (so the
    /// quotient fits a digit) and `d != 0`.
    fn div_wide(hi: Self, lo: Self, d: Self) -> (Self, Self);
    /// `a·b mod 2^w`.
    fn wrapping_mul(self, rhs: Self) -> Self;
    /// `a + b mod 2^w`.
    fn wrapping_add(self, rhs: Self) -> Self;
    /// `a - b mod 2^w`.
    fn wrapping_sub(self, rhs: Self) -> Self;
    /// Number of leading zero bits.
    fn leading_zeros(self) -> u32;
    /// Shift left by `k < w` bits (bits shifted out are lost).
    fn shl(self, k: u32) -> Self;
    /// Shift right by `k < w` bits.
    fn shr(self, k: u32) -> Self;
    /// The low `w` bits of `x`.
    fn from_u64_truncate(x: u64) -> Self;
    /// The digit as a `u64` (lossless: `w <= 64`).
    fn to_u64(self) -> u64;

    /// Is bit `i` (`i < w`) set?
    #[inline]
    fn bit(self, i: u32) -> bool {
        self.shr(i).to_u64() & 1 == 1
    }

    /// `-self^-1 mod 2^w` for odd `self`, by Hensel (Newton) lifting: the
    /// inverse `y` of an odd `x` is correct to 3 bits for `y = x`, and each
    /// step `y := y·(2 - x·y)` doubles the number of correct bits. The one
    /// computation of `n0'` in redc: [`crate::kernel::consts::neg_inv`]
    /// gives it for any width up to 64 bits from the `u64` one.
    ///
    /// This is `n0'` of 000 §2.1 Eq. 6 (only its low digit is needed, 000
    /// §3.1) and `-M^-1 mod 2^r` of 001 Alg. 1.
    /// Precondition: `self` is odd; for even input the result is meaningless.
    fn neg_inv(self) -> Self {
        let two = Self::ONE.wrapping_add(Self::ONE);
        let mut y = self;
        let mut correct_bits = 3;
        while correct_bits < Self::BITS {
            y = y.wrapping_mul(two.wrapping_sub(self.wrapping_mul(y)));
            correct_bits *= 2;
        }
        Self::ZERO.wrapping_sub(y)
    }

    /// All ones if `choice` is set, else zero.
    #[inline]
    fn mask(choice: Choice) -> Self {
        Self::conditional_select(&Self::ZERO, &Self::MAX, choice)
    }
}

macro_rules! impl_word {
    ($w:ty, $d:ty) => {
        impl Word for $w {
            const BITS: u32 = <$w>::BITS;
            const ZERO: Self = 0;
            const ONE: Self = 1;
            const MAX: Self = <$w>::MAX;
            type Double = $d;

            #[inline(always)]
            fn mac(t: Self, a: Self, b: Self, c: Self) -> (Self, Self) {
                let wide = <$d>::from(t) + <$d>::from(a) * <$d>::from(b) + <$d>::from(c);
                (wide as $w, (wide >> <$w>::BITS) as $w)
            }

            #[inline(always)]
            fn adc(a: Self, b: Self, carry: Self) -> (Self, Self) {
                let wide = <$d>::from(a) + <$d>::from(b) + <$d>::from(carry);
                (wide as $w, (wide >> <$w>::BITS) as $w)
            }

            #[inline(always)]
            fn sbb(a: Self, b: Self, borrow: Self) -> (Self, Self) {
                let wide = <$d>::from(a)
                    .wrapping_sub(<$d>::from(b))
                    .wrapping_sub(<$d>::from(borrow));
                (wide as $w, ((wide >> <$w>::BITS) as $w) & 1)
            }

            #[inline]
            fn div_wide(hi: Self, lo: Self, d: Self) -> (Self, Self) {
                debug_assert!(hi < d, "div_wide: quotient would not fit a digit");
                let n = (<$d>::from(hi) << <$w>::BITS) | <$d>::from(lo);
                let d = <$d>::from(d);
                ((n / d) as $w, (n % d) as $w)
            }

            #[inline(always)]
            fn wrapping_mul(self, rhs: Self) -> Self {
                <$w>::wrapping_mul(self, rhs)
            }

            #[inline(always)]
            fn wrapping_add(self, rhs: Self) -> Self {
                <$w>::wrapping_add(self, rhs)
            }

            #[inline(always)]
            fn wrapping_sub(self, rhs: Self) -> Self {
                <$w>::wrapping_sub(self, rhs)
            }

            #[inline(always)]
            fn leading_zeros(self) -> u32 {
                <$w>::leading_zeros(self)
            }

            #[inline(always)]
            fn shl(self, k: u32) -> Self {
                self << k
            }

            #[inline(always)]
            fn shr(self, k: u32) -> Self {
                self >> k
            }

            #[inline(always)]
            fn from_u64_truncate(x: u64) -> Self {
                x as $w
            }

            #[inline(always)]
            fn to_u64(self) -> u64 {
                u64::from(self)
            }
        }
    };
}

impl_word!(u8, u16);
impl_word!(u16, u32);
impl_word!(u32, u64);
impl_word!(u64, u128);

#[cfg(test)]
mod tests {
    use super::*;

    fn check_neg_inv<W: Word>() {
        for x in [1u64, 3, 5, 0xfb, 0xffff_fff1, u64::MAX] {
            let x = W::from_u64_truncate(x);
            if x.to_u64() & 1 == 0 {
                continue;
            }
            let y = x.neg_inv();
            assert_eq!(x.wrapping_mul(y), W::MAX, "x = {x:?}");
        }
    }

    #[test]
    fn neg_inv_every_width() {
        check_neg_inv::<u8>();
        check_neg_inv::<u16>();
        check_neg_inv::<u32>();
        check_neg_inv::<u64>();
    }

    /// 001_24b3bbce8c558126.txt §3.1 worked example: for M = 251 and R = 8,
    /// (-M^-1) = 205 (binary 11001101), since 205·251 = 51455 ≡ -1 (mod 2^8).
    #[test]
    fn fdfm_worked_example_neg_inverse() {
        assert_eq!(251u8.neg_inv(), 205);
        assert_eq!(205u32 * 251, 51455);
        assert_eq!(51455 % 256, 255);
    }

    #[test]
    fn mac_extremes_do_not_overflow() {
        assert_eq!(u8::mac(255, 255, 255, 255), (255, 255));
        assert_eq!(u64::mac(u64::MAX, u64::MAX, u64::MAX, u64::MAX), (u64::MAX, u64::MAX));
        assert_eq!(u16::sbb(0, 1, 1), (0xfffe, 1));
        assert_eq!(u32::adc(u32::MAX, 1, 1), (1, 1));
        assert_eq!(u8::div_wide(3, 0x10, 7), (112, 0)); // 3·256 + 16 = 784 = 7·112
        assert_eq!(u8::div_wide(6, 0xff, 7), (255, 6)); // 6·256 + 255 = 1791 = 7·255 + 6
    }
}
