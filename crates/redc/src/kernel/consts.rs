//! Modulus constants, computed in one place for every digit width and every
//! path: the teaching schedules (`w` = 8..64), the scalar kernels (64-bit
//! digits), the IFMA lanes (52-bit digits), the GPU kernels (32-bit digits)
//! and the hardware models (17-, 16-, 32- and k-bit digits).
//!
//! `R mod n` and `R^2 mod n` (000_be478b6750af4540.txt Fig. 1 Step 3, the
//! constant of 001_24b3bbce8c558126.txt Alg. 2) come from [`pow2_mod`],
//! which takes no division and runs in time independent of `n`'s value, so
//! a secret prime is prepared like a public modulus.

use super::fios::mont_mul;
use super::meter::NoMeter;
use super::size::{Size, with_size};
use super::sqr::mont_sqr;
use super::subtract::sub_if_not_less;
use crate::secret::declassify;
use crate::word::Word;
use subtle::ConstantTimeEq;
use zeroize::{Zeroize, Zeroizing};

/// Why a number cannot be a Montgomery modulus.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ModulusError {
    /// `n = 0`.
    #[error("modulus is zero")]
    Zero,
    /// `n = 1`: every residue is 0 and `n0'` is meaningless.
    #[error("modulus is one")]
    One,
    /// `n` even: `n` has no inverse modulo `2^w`, so Montgomery reduction
    /// does not apply (use [`crate::modpow()`] for any modulus).
    #[error("modulus is even (Montgomery reduction needs an odd modulus)")]
    Even,
    /// The top digit given is zero: a modulus is given in exactly its
    /// digits (their number is its public length).
    #[error("modulus has a zero top digit (give it in exactly its digits)")]
    TopDigitZero,
}

/// `-x^-1 mod 2^bits` for odd `x` and `1 <= bits <= 64`: `n0'` of
/// 000_be478b6750af4540.txt §2.1 Eq. 6 (only the low digit of `n` is
/// needed, §3.1) and `-M^-1 mod 2^r` of 001_24b3bbce8c558126.txt Alg. 1.
///
/// The 64-bit `n0'` of [`Word::neg_inv`] (Hensel lifting) cut to `bits`
/// bits: `-x^-1 mod 2^64` is also `-x^-1` modulo every smaller power of 2.
/// Only the low `bits` bits of `x` matter. Pre: `x` odd (for even `x` the
/// result is meaningless).
pub fn neg_inv(x: u64, bits: u32) -> u64 {
    debug_assert!((1..=64).contains(&bits), "neg_inv: {bits} bits");
    let mask = if bits >= 64 { u64::MAX } else { (1u64 << bits) - 1 };
    x.neg_inv() & mask
}

/// Check that the little-endian 64-bit digits `n` are a Montgomery
/// modulus given in exactly its digits: odd, at least 3, top digit
/// non-zero. Reads the low bit, the top digit and whether `n = 1`, each
/// in constant time and revealed only as the outcome (a secret prime's
/// domain is made here too: see [`declassify`]); meant for preparing a
/// modulus, once.
pub fn check_modulus(n: &[u64]) -> Result<(), ModulusError> {
    let (Some(&low), Some(&top)) = (n.first(), n.last()) else {
        return Err(ModulusError::Zero);
    };
    if declassify(top.ct_eq(&0)) {
        Err(ModulusError::TopDigitZero)
    } else if n.len() == 1 && declassify(low.ct_eq(&1)) {
        Err(ModulusError::One)
    } else if declassify((low & 1).ct_eq(&0)) {
        Err(ModulusError::Even)
    } else {
        Ok(())
    }
}

/// `2^k mod n`, as exactly `n.len()` digits.
///
/// Pre: [`check_modulus`]`(n)` holds. Constant time in `n`'s value (the
/// work depends on `k` and `n.len()`), no division:
///
/// 1. `x = 2^(64(s-1)) < n` (the top digit of `n` is not zero), doubled 64
///    times modulo `n` (each doubling a shift and the shared final
///    subtraction): `x = R mod n`, the Montgomery form of 1 with `R = 2^(64s)`;
/// 2. with `k = c·2^m` (`m` the trailing zeros of `k`), `c` more doublings
///    give the Montgomery form of `2^c`, and `m` Montgomery squarings that
///    of `2^(c·2^m) = 2^k`;
/// 3. one Montgomery product by 1 leaves Montgomery form.
pub fn pow2_mod(k: usize, n: &[u64]) -> Zeroizing<Vec<u64>> {
    with_size!(n.len(), sz => pow2_mod_sized(sz, k, n, &mont_one(sz, n)))
}

/// `R mod n` for `R = 2^(64s)` (step 1 of [`pow2_mod`]). Pre as there.
fn mont_one<S: Size>(sz: S, n: &[u64]) -> Zeroizing<S::Buf> {
    let s = sz.len();
    let mut x = Zeroizing::new(sz.buf());
    x.as_mut()[s - 1] = 1;
    let mut spare = Zeroizing::new(sz.buf());
    for _ in 0..64 {
        double(x.as_mut(), spare.as_mut(), n);
    }
    x
}

/// Steps 2 and 3 of [`pow2_mod`] from `one = R mod n`.
fn pow2_mod_sized<S: Size>(sz: S, k: usize, n: &[u64], one: &S::Buf) -> Zeroizing<Vec<u64>> {
    let n0 = neg_inv(n[0], 64);
    let mut x = Zeroizing::new(one.clone());
    let mut spare = Zeroizing::new(sz.buf());
    let (c, m) = match k {
        0 => (0, 0),
        k => (k >> k.trailing_zeros(), k.trailing_zeros()),
    };
    for _ in 0..c {
        double(x.as_mut(), spare.as_mut(), n);
    }
    let mut t = sz.wide();
    for _ in 0..m {
        mont_sqr(sz, x.as_mut(), n, n0, S::wide_mut(&mut t));
    }
    let mut unit = Zeroizing::new(sz.buf());
    unit.as_mut()[0] = 1;
    mont_mul(sz, x.as_mut(), unit.as_ref(), n, n0, S::wide_mut(&mut t));
    t.zeroize();
    Zeroizing::new(x.as_ref().to_vec())
}

/// `x := 2x mod n`. Pre: `x < n`, `spare` has `x`'s length. A shift by one
/// bit into `spare`, then the shared final subtraction (`2x < 2n`).
fn double(x: &mut [u64], spare: &mut [u64], n: &[u64]) {
    let mut carry = 0;
    for (d, &v) in spare.iter_mut().zip(x.iter()) {
        *d = (v << 1) | carry;
        carry = v >> 63;
    }
    sub_if_not_less(&NoMeter, x, spare, carry, n);
}

/// A modulus with the constants of the 64-bit kernels: `n` in `s` digits,
/// `n0' = -n^-1 mod 2^64`, `R mod n` and `R^2 mod n` for `R = 2^(64s)`.
/// Made once per modulus (an RSA key's primes, a batch's moduli) and shared
/// by the scalar kernels, the RSA glue and the engine. Every value may be
/// secret (a prime): wiped on drop, and `Debug` shows only `s`.
#[derive(Clone)]
pub struct Consts {
    n: Zeroizing<Vec<u64>>,
    n0: u64,
    r1: Zeroizing<Vec<u64>>,
    r2: Zeroizing<Vec<u64>>,
}

impl Consts {
    /// The constants of `n`, in constant time in `n`'s value (see
    /// [`pow2_mod`]); an error names why `n` is not a modulus.
    pub fn new(n: &[u64]) -> Result<Consts, ModulusError> {
        check_modulus(n)?;
        let s = n.len();
        let (r1, r2) = with_size!(s, sz => {
            let one = mont_one(sz, n);
            (Zeroizing::new(AsRef::<[u64]>::as_ref(&*one).to_vec()), pow2_mod_sized(sz, 128 * s, n, &one))
        });
        Ok(Consts {
            n: Zeroizing::new(n.to_vec()),
            n0: neg_inv(n[0], 64),
            r1,
            r2,
        })
    }

    /// The digits of `n` (exactly `s`).
    pub fn n(&self) -> &[u64] {
        &self.n
    }

    /// `s`, the number of 64-bit digits (public).
    pub fn len(&self) -> usize {
        self.n.len()
    }

    /// Always false: a modulus has at least one digit.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// `n0' = -n^-1 mod 2^64`.
    pub fn n0(&self) -> u64 {
        self.n0
    }

    /// `R mod n` (1 in Montgomery form), `s` digits.
    pub fn r1(&self) -> &[u64] {
        &self.r1
    }

    /// `R^2 mod n` (the conversion constant into Montgomery form), `s` digits.
    pub fn r2(&self) -> &[u64] {
        &self.r2
    }

    /// `2^k mod n`, as [`pow2_mod`]. When `k` lies at most 256 (`CLOSE`) above
    /// `128s` (the `R^2` of the IFMA and GPU digit widths for a modulus of
    /// whole 64-bit digits), it is the stored `R^2 mod n` doubled `k - 128s`
    /// times, several times cheaper than [`pow2_mod`]'s start from 1; a
    /// batch of many moduli makes this once per modulus. Constant time in
    /// `n` for given `s` and `k`.
    pub fn pow2(&self, k: usize) -> Zeroizing<Vec<u64>> {
        match k.checked_sub(128 * self.len()) {
            Some(extra) if extra <= CLOSE => {
                let mut x = self.r2.clone();
                let mut spare = Zeroizing::new(vec![0u64; self.len()]);
                for _ in 0..extra {
                    double(&mut x, &mut spare, &self.n);
                }
                x
            }
            _ => pow2_mod(k, &self.n),
        }
    }
}

/// How far above `R^2 = 2^(128s)` [`Consts::pow2`] doubles instead of
/// starting afresh.
const CLOSE: usize = 256;

impl Drop for Consts {
    /// `n0'` gives away `n mod 2^64` (the rest wipes itself).
    fn drop(&mut self) {
        self.n0.zeroize();
    }
}

impl core::fmt::Debug for Consts {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Consts")
            .field("digits", &self.n.len())
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nat::Nat;

    #[test]
    fn neg_inv_every_width() {
        for x in [1u64, 3, 5, 0xfb, 0x1_0001, 0xffff_fff1, 0x8000_0000_0000_0001, u64::MAX] {
            for bits in [1u32, 8, 16, 17, 32, 52, 63, 64] {
                let m = if bits == 64 { u64::MAX } else { (1 << bits) - 1 };
                assert_eq!(x.wrapping_mul(neg_inv(x, bits)) & m, m, "x = {x:#x}, {bits} bits");
            }
        }
    }

    /// 001_24b3bbce8c558126.txt §3.1 worked example: for M = 251 and R = 8,
    /// (-M^-1) = 205 (binary 11001101), since 205·251 = 51455 ≡ -1 (mod 2^8).
    #[test]
    fn fdfm_worked_example() {
        assert_eq!(neg_inv(251, 8), 205);
    }

    /// `pow2_mod` against Knuth division, for every size class of the
    /// kernels and odd sizes, small and large `k`, and the edge moduli.
    #[test]
    fn pow2_mod_matches_division() {
        let mut seed = 0x1234_5678_9abc_def1u64;
        let mut digit = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for s in [1usize, 2, 3, 16, 17, 24, 32, 48, 64, 65] {
            let mut random: Vec<u64> = (0..s).map(|_| digit()).collect();
            random[0] |= 1;
            random[s - 1] |= 1;
            let mut top_one = vec![0u64; s];
            top_one[0] = 1;
            top_one[s - 1] |= 1;
            for n in [random, vec![u64::MAX; s], top_one] {
                if check_modulus(&n).is_err() {
                    continue;
                }
                let nat = Nat::from_digits(n.clone());
                for k in [0usize, 1, 63, 64, 65, 64 * s, 128 * s, 104 * 40, 7 * 64 * s + 3] {
                    let want = Nat::<u64>::pow2(k).rem(&nat).unwrap().to_digits_padded(s);
                    assert_eq!(&pow2_mod(k, &n)[..], &want[..], "s = {s}, k = {k}");
                }
                let c = Consts::new(&n).unwrap();
                for k in [
                    0,
                    128 * s - 1,
                    128 * s,
                    128 * s + 1,
                    128 * s + 96,
                    128 * s + CLOSE,
                    128 * s + CLOSE + 1,
                ] {
                    assert_eq!(c.pow2(k), pow2_mod(k, &n), "s = {s}, k = {k}");
                }
                assert_eq!(
                    c.r1(),
                    &Nat::<u64>::pow2(64 * s).rem(&nat).unwrap().to_digits_padded(s)[..]
                );
                assert_eq!(
                    c.r2(),
                    &Nat::<u64>::pow2(128 * s).rem(&nat).unwrap().to_digits_padded(s)[..]
                );
            }
        }
        assert_eq!(check_modulus(&[3]), Ok(()));
        assert_eq!(check_modulus(&[]), Err(ModulusError::Zero));
        assert_eq!(check_modulus(&[1]), Err(ModulusError::One));
        assert_eq!(check_modulus(&[4]), Err(ModulusError::Even));
        assert_eq!(check_modulus(&[3, 0]), Err(ModulusError::TopDigitZero));
    }
}
