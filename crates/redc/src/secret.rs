//! Secret numbers: a fixed, public number of 64-bit digits, never trimmed.
//!
//! A [`Nat`] drops its high zero digits, so its length is its value's
//! length; that is right for public numbers and wrong for secrets, whose
//! length must not leak (a private exponent, a prime, a CRT half, a
//! blinding factor, a decrypted block). A [`SecretNat`] keeps the length it
//! was given — its modulus's digit count — whatever its value; every
//! operation on it runs in time that depends on lengths only; it is wiped
//! on drop; and `Debug` shows its length, never its digits. It has no
//! `PartialEq`: compare with [`SecretNat::ct_eq`].
//!
//! Every secret is marked for the taint check when it is made and unmarked
//! when it is revealed (module [`taint`]); [`declassify`] turns a
//! secret-derived [`Choice`] into a public decision.

pub mod taint;

use crate::nat::{Nat, limbs};
use rand_core::CryptoRngCore;
use subtle::{Choice, ConstantTimeEq};
use zeroize::{Zeroize, Zeroizing};

/// Why [`SecretNat::random_below`] drew nothing.
#[derive(Debug, thiserror::Error)]
pub enum RandomError {
    /// `[1, n)` is empty: `n` is 0 or 1.
    #[error("no number in [1, n) for n < 2")]
    Empty,
    /// The random generator failed.
    #[error("random generator failed")]
    Rng,
}

/// The public decision of a secret-derived `choice` (a check whose outcome
/// is revealed on purpose: a key that fails its checks, a result that
/// fails the e-check, a rejected random candidate): the way a secret bit
/// may steer a branch; the taint check sees it as public from here on.
pub fn declassify(choice: Choice) -> bool {
    taint::declassified(choice.unwrap_u8()) != 0
}

/// A secret natural number of a fixed, public number of 64-bit digits
/// (little-endian; high digits may be zero).
#[derive(Clone, Default)]
pub struct SecretNat {
    limbs: Vec<u64>,
}

impl SecretNat {
    /// Zero in `len` digits.
    pub fn zero(len: usize) -> Self {
        Self { limbs: vec![0; len] }
    }

    /// The number with exactly the little-endian digits `limbs`.
    pub fn from_limbs(mut limbs: Vec<u64>) -> Self {
        taint::classify(&mut limbs[..]);
        Self { limbs }
    }

    /// `x` in `len` digits, or `None` when it needs more. `x` is a public
    /// number becoming a secret (a value just parsed): its digit count is
    /// read, once.
    pub fn from_nat(x: &Nat<u64>, len: usize) -> Option<Self> {
        (x.digits().len() <= len).then(|| Self::from_limbs(x.to_digits_padded(len)))
    }

    /// The big-endian `bytes` in `len` digits, or `None` when the value
    /// needs more. Constant time in the bytes' values: excess leading bytes
    /// are checked with one OR.
    pub fn from_be_bytes(bytes: &[u8], len: usize) -> Option<Self> {
        let mut limbs = vec![0u64; len];
        let mut excess = 0u8;
        for (i, &b) in bytes.iter().rev().enumerate() {
            match limbs.get_mut(i / 8) {
                Some(d) => *d |= u64::from(b) << (8 * (i % 8)),
                None => excess |= b,
            }
        }
        let out = Self::from_limbs(limbs);
        declassify(excess.ct_eq(&0)).then_some(out)
    }

    /// The number of digits (public).
    pub fn len(&self) -> usize {
        self.limbs.len()
    }

    /// Has it no digits at all?
    pub fn is_empty(&self) -> bool {
        self.limbs.is_empty()
    }

    /// The digits, exactly [`SecretNat::len`] of them.
    pub fn limbs(&self) -> &[u64] {
        &self.limbs
    }

    /// The value as a public [`Nat`]: for a result that leaves the private
    /// path (a signature, a key being written out). Trims the digits, so
    /// its time depends on the value.
    pub fn reveal(&self) -> Nat<u64> {
        let mut limbs = self.limbs.clone();
        taint::declassify(&mut limbs[..]);
        Nat::from_digits(limbs)
    }

    /// [`SecretNat::reveal`] that hands its buffer over instead of copying
    /// it: for a batch's results, one allocation fewer each.
    pub fn into_revealed(mut self) -> Nat<u64> {
        taint::declassify(&mut self.limbs[..]);
        Nat::from_digits(core::mem::take(&mut self.limbs))
    }

    /// The value as exactly `len` big-endian bytes, or `None` when it needs
    /// more (I2OSP of RFC 8017 §4.1). Every digit is written and the excess
    /// bytes are checked with one OR, so the work depends on the lengths
    /// only (the timing signal of the Marvin attack); buffers are wiped.
    pub fn to_be_bytes(&self, len: usize) -> Option<Zeroizing<Vec<u8>>> {
        let width = 8 * self.limbs.len().max(len.div_ceil(8));
        let mut out = Zeroizing::new(vec![0u8; width]);
        for (i, limb) in self.limbs.iter().enumerate() {
            let pos = width - 8 * (i + 1);
            out[pos..pos + 8].copy_from_slice(&limb.to_be_bytes());
        }
        let extra = width - len;
        let overflow = out[..extra].iter().fold(0u8, |acc, &b| acc | b);
        if !declassify(overflow.ct_eq(&0)) {
            return None;
        }
        out.drain(..extra);
        Some(out)
    }

    /// The same value in `len` digits, or `None` when a dropped digit is
    /// not zero (checked with one OR).
    pub fn resize(&self, len: usize) -> Option<Self> {
        let dropped = self.limbs.iter().skip(len).fold(0u64, |acc, &d| acc | d);
        let mut limbs = vec![0u64; len];
        for (d, &v) in limbs.iter_mut().zip(&self.limbs) {
            *d = v;
        }
        let out = Self { limbs };
        declassify(dropped.ct_eq(&0)).then_some(out)
    }

    /// `self < other`, by one borrow chain over the longer length.
    pub fn ct_lt(&self, other: &Self) -> Choice {
        Choice::from(limbs::ct_lt(&self.limbs, &other.limbs) as u8)
    }

    /// `self < n` for a public `n`.
    pub fn ct_lt_nat(&self, n: &Nat<u64>) -> Choice {
        Choice::from(limbs::ct_lt(&self.limbs, n.digits()) as u8)
    }

    /// Is it zero?
    pub fn ct_is_zero(&self) -> Choice {
        self.limbs.iter().fold(0u64, |acc, &d| acc | d).ct_eq(&0)
    }

    /// Is `self < 2^bits`? (No digit bit at or above `bits` is set.)
    pub fn ct_below_pow2(&self, bits: usize) -> Choice {
        let mut high = 0u64;
        for (i, &d) in self.limbs.iter().enumerate() {
            let lo = 64 * i;
            high |= if lo >= bits {
                d
            } else if bits - lo < 64 {
                d >> (bits - lo)
            } else {
                0
            };
        }
        high.ct_eq(&0)
    }

    /// `self - k mod 2^(64·len)` in the same digit count, by one borrow
    /// chain (the Fermat exponent `p - 2` of a prime `p`).
    pub fn wrapping_sub_small(&self, k: u64) -> Self {
        let mut limbs = self.limbs.clone();
        limbs::sub_assign(&mut limbs, &[k]);
        Self { limbs }
    }

    /// `self · other` in `self.len() + other.len()` digits (schoolbook).
    pub fn mul(&self, other: &Self) -> Self {
        Self {
            limbs: limbs::mul(&self.limbs, &other.limbs),
        }
    }

    /// `self + other` in one digit more than the longer of the two.
    pub fn add(&self, other: &Self) -> Self {
        Self {
            limbs: limbs::add(&self.limbs, &other.limbs),
        }
    }

    /// A uniform number in `[1, n)` in `n`'s digit count, for a public
    /// `n`: rejection sampling on `bits(n)` random bits, each candidate
    /// compared in constant time (only whether it was taken is known).
    /// Errors when `n < 2` or `rng` fails.
    pub fn random_below(n: &Nat<u64>, rng: &mut impl CryptoRngCore) -> Result<Self, RandomError> {
        if n.bits() < 2 {
            return Err(RandomError::Empty);
        }
        let bits = n.bits();
        let len = n.digits().len();
        let mut buf = Zeroizing::new(vec![0u8; 8 * len]);
        loop {
            rng.try_fill_bytes(&mut buf[8 * len - bits.div_ceil(8)..])
                .map_err(|_| RandomError::Rng)?;
            let first = 8 * len - bits.div_ceil(8);
            buf[first] &= 0xff >> (bits.div_ceil(8) * 8 - bits);
            let x = Self::from_be_bytes(&buf, len).unwrap_or_else(|| Self::zero(len));
            let ok = x.ct_lt_nat(n) & !x.ct_is_zero();
            if declassify(ok) {
                return Ok(x);
            }
        }
    }
}

/// Digit `i` of `x`, zero beyond its length.
fn get(x: &[u64], i: usize) -> u64 {
    x.get(i).copied().unwrap_or(0)
}

impl ConstantTimeEq for SecretNat {
    /// Equal values, whatever the two lengths (the shorter one is read as
    /// zero-extended).
    fn ct_eq(&self, other: &Self) -> Choice {
        let len = self.len().max(other.len());
        let diff = (0..len).fold(0u64, |acc, i| acc | (get(&self.limbs, i) ^ get(&other.limbs, i)));
        diff.ct_eq(&0)
    }
}

impl Zeroize for SecretNat {
    /// Overwrite the digits with zeros (the length stays).
    fn zeroize(&mut self) {
        self.limbs.zeroize();
    }
}

impl Drop for SecretNat {
    fn drop(&mut self) {
        self.limbs.zeroize();
    }
}

impl core::fmt::Debug for SecretNat {
    /// The length only: `SecretNat(16 digits)`.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "SecretNat({} digits)", self.limbs.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_core::OsRng;

    #[test]
    fn fixed_length_conversions_and_comparisons() {
        let x = SecretNat::from_nat(&Nat::from_u64(0x0102), 3).unwrap();
        assert_eq!(x.limbs(), &[0x0102, 0, 0]);
        assert_eq!(format!("{x:?}"), "SecretNat(3 digits)");
        assert!(SecretNat::from_nat(&Nat::pow2(64), 1).is_none());
        assert_eq!(&x.to_be_bytes(2).unwrap()[..], &[1, 2]);
        assert!(x.to_be_bytes(1).is_none());
        assert_eq!(&x.to_be_bytes(30).unwrap()[..28], &[0; 28]);
        let y = SecretNat::from_be_bytes(&[0, 0, 0, 1, 2], 1).unwrap();
        assert!(bool::from(x.ct_eq(&y)));
        assert!(SecretNat::from_be_bytes(&[1; 9], 1).is_none());
        assert_eq!(x.resize(1).unwrap().limbs(), &[0x0102]);
        assert!(SecretNat::from_limbs(vec![1, 1]).resize(1).is_none());
        assert!(bool::from(y.ct_lt(&SecretNat::from_limbs(vec![0, 1]))));
        assert!(!bool::from(y.ct_lt(&y)));
        assert!(bool::from(y.ct_below_pow2(9)) && !bool::from(y.ct_below_pow2(8)));
        assert!(bool::from(SecretNat::zero(2).ct_is_zero()));
        assert_eq!(y.mul(&y).reveal(), Nat::from_u64(0x0102 * 0x0102));
        assert_eq!(y.add(&y).reveal(), Nat::from_u64(0x0204));
        assert_eq!(y.wrapping_sub_small(2).reveal(), Nat::from_u64(0x0100));
        assert_eq!(SecretNat::zero(1).wrapping_sub_small(1).limbs(), &[u64::MAX]);
        for tiny in [0, 1] {
            let r = SecretNat::random_below(&Nat::from_u64(tiny), &mut OsRng);
            assert!(matches!(r, Err(RandomError::Empty)), "n = {tiny}");
        }
        assert_eq!(
            SecretNat::random_below(&Nat::from_u64(2), &mut OsRng).unwrap().limbs(),
            &[1]
        );
        let n = Nat::from_u64(1000);
        for _ in 0..100 {
            let r = SecretNat::random_below(&n, &mut OsRng).unwrap();
            assert_eq!(r.len(), 1);
            assert!(!r.reveal().is_zero() && r.reveal() < n);
        }
    }
}
