//! Modular exponentiation for any modulus `n >= 1`, odd or even, answering
//! exactly as Python's `pow(b, e, n)`.
//!
//! Write `n = 2^t·m` with `m` odd. Modulo `m` the chosen Montgomery
//! schedules run; modulo `2^t` plain arithmetic suffices (reduction is
//! truncation); the two residues are joined by the Chinese remainder theorem:
//! `x = a + m·((c - a)·m^-1 mod 2^t)` for `x ≡ a (mod m)`, `x ≡ c (mod 2^t)`,
//! with `m^-1 mod 2^t` by Newton (Hensel) lifting.

use crate::exp::{Schedule, Trace};
use crate::mont::{Modulus, Product};
use crate::nat::Nat;
use crate::word::Word;

pub mod signed;
pub use signed::{SignedPow, SignedPowError};

/// Why `modpow` cannot answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ModpowError {
    /// `n = 0` (Python: "pow() 3rd argument cannot be 0").
    #[error("modulus is zero")]
    ZeroModulus,
}

/// The product and exponentiation schedules to use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PowOptions {
    /// The Montgomery product schedule.
    pub product: Product,
    /// The exponentiation schedule.
    pub schedule: Schedule,
}

/// `base^exp mod n` for any `n >= 1` (`pow(b, 0, 1) = 0`, `pow(0, 0, n) = 1`
/// for `n > 1`).
///
/// With `trace`, the rows of the Montgomery exponentiation modulo the odd
/// part `m` of `n` are recorded (none when `m = 1`).
///
/// Not constant-time as a whole (reducing `base` and the even part are
/// variable-time); RSA uses the Montgomery schedules directly.
pub fn modpow<W: Word>(
    base: &Nat<W>,
    exp: &Nat<W>,
    n: &Nat<W>,
    opts: PowOptions,
    trace: Option<&mut Trace<W>>,
) -> Result<Nat<W>, ModpowError> {
    let t = n.trailing_zeros().ok_or(ModpowError::ZeroModulus)?;
    if n.is_one() {
        return Ok(Nat::zero());
    }
    let m = n.shr(t);
    let c = pow_mod_2k(base, exp, t);
    if m.is_one() {
        return Ok(c);
    }
    let modulus = Modulus::new(&m).expect("odd part of n is odd and at least 3");
    let mut mm = modulus.multiplier(opts.product);
    let b = mm.to_mont(base);
    let x = opts.schedule.pow(&mut mm, &b, exp, trace);
    let a = mm.from_mont(&x);
    if t == 0 {
        return Ok(a);
    }
    // x = a + m·((c - a)·m^-1 mod 2^t)
    let two_t = Nat::pow2(t);
    let diff = c.add(&two_t).checked_sub(&a.low_bits(t)).expect("c + 2^t > a mod 2^t");
    let h = diff.mul(&inv_mod_2k(&m, t)).low_bits(t);
    Ok(a.add(&m.mul(&h)))
}

/// `b^e mod 2^k` by left-to-right square-and-multiply with truncation.
fn pow_mod_2k<W: Word>(b: &Nat<W>, e: &Nat<W>, k: usize) -> Nat<W> {
    if k == 0 {
        return Nat::zero();
    }
    let b = b.low_bits(k);
    let mut x = Nat::one();
    for i in (0..e.bits()).rev() {
        x = x.mul(&x).low_bits(k);
        if e.bit(i) {
            x = x.mul(&b).low_bits(k);
        }
    }
    x
}

/// `m^-1 mod 2^k` for odd `m`: Newton's `y := y·(2 - m·y)` doubles the
/// number of correct low bits, starting from 1 correct bit (`y = 1`).
fn inv_mod_2k<W: Word>(m: &Nat<W>, k: usize) -> Nat<W> {
    let mut y = Nat::one();
    let mut good = 1;
    while good < k {
        good = (2 * good).min(k);
        let two = Nat::from_u64(2).shl(good); // 2 + 2^good ≡ 2 (mod 2^good), keeps the difference non-negative
        let my = m.mul(&y).low_bits(good);
        let two_plus = two.add(&Nat::from_u64(2));
        y = y
            .mul(&two_plus.checked_sub(&my).expect("2^(g+1) + 2 > m·y mod 2^g"))
            .low_bits(good);
    }
    y.low_bits(k)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inverse_mod_power_of_two() {
        for m in [1u64, 3, 5, 7, 255, 12345, 0xffff_ffff] {
            for k in [1usize, 2, 3, 8, 13, 64, 100] {
                let mm = Nat::<u8>::from_u64(m);
                let y = inv_mod_2k(&mm, k);
                assert_eq!(mm.mul(&y).low_bits(k), Nat::one().low_bits(k), "m={m} k={k}");
            }
        }
    }

    #[test]
    fn pythons_corner_cases() {
        let p = |b: u64, e: u64, n: u64| {
            modpow::<u16>(
                &Nat::from_u64(b),
                &Nat::from_u64(e),
                &Nat::from_u64(n),
                PowOptions::default(),
                None,
            )
        };
        assert_eq!(p(5, 0, 1), Ok(Nat::zero()));
        assert_eq!(p(0, 0, 7), Ok(Nat::one()));
        assert_eq!(p(0, 0, 8), Ok(Nat::one()));
        assert_eq!(p(3, 5, 0), Err(ModpowError::ZeroModulus));
        assert_eq!(p(3, 5, 12), Ok(Nat::from_u64(243 % 12)));
        assert_eq!(p(7, 13, 1024), Ok(Nat::from_u64(7u64.pow(13) % 1024)));
    }
}
