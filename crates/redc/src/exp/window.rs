//! Fixed-window (2^k-ary) exponentiation with constant-time table selection
//! — redc's default schedule for secret exponents.
//!
//! ```text
//! table[v] = X^v for v = 0 .. 2^k - 1
//! x = 1
//! for each k-bit window d of e, from the top:
//!     x = x^(2^k)                 (k squarings)
//!     x = x·table[d]              (always, also for d = 0)
//! ```
//!
//! Constant-time in the exponent: the number of windows depends only on the
//! public bound `exp_bits`, every window does `k` squarings and one
//! multiplication, and `table[d]` is read by scanning the whole table and
//! keeping entry `d` with a mask — no branch and no memory index depends on
//! `d` (the defence against cache-timing attacks on the table).

use super::trace::{Trace, note};
use crate::mont::{Meter, MontElem, Multiplier};
use crate::nat::Nat;
use crate::word::Word;
use subtle::ConstantTimeEq;

/// The `k`-bit window of `exp` whose lowest bit is `lo`.
pub(crate) fn window_value<W: Word>(exp: &Nat<W>, lo: usize, k: u32) -> u64 {
    (0..k as usize).fold(0u64, |acc, b| acc | (u64::from(exp.bit(lo + b)) << b))
}

/// `table[v] = base^v`, `v < 2^k`.
pub(crate) fn power_table<W: Word, M: Meter>(
    mm: &mut Multiplier<'_, W, M>,
    base: &MontElem<W>,
    k: u32,
) -> Vec<MontElem<W>> {
    let mut table = vec![mm.modulus().one(), base.clone()];
    for v in 2..1usize << k {
        let next = mm.mul(&table[v - 1], base);
        table.push(next);
    }
    table.truncate(1 << k);
    table
}

/// `table[d]`, read in constant time: every entry is touched.
fn select<W: Word>(table: &[MontElem<W>], d: u64) -> MontElem<W> {
    let mut out = table[0].clone();
    for (v, entry) in table.iter().enumerate() {
        out.conditional_assign(entry, (v as u64).ct_eq(&d));
    }
    out
}

/// `base^exp` in Montgomery form with `k`-bit windows (`1 <= k <= 8`).
///
/// Pre: `base` belongs to `mm`'s modulus; `exp < 2^exp_bits` (a public
/// bound). Post: the result is `< n`; `exp = 0` gives 1. One trace row per
/// window, labelled with the window's lowest bit.
pub fn pow<W: Word, M: Meter>(
    mm: &mut Multiplier<'_, W, M>,
    base: &MontElem<W>,
    exp: &Nat<W>,
    exp_bits: usize,
    k: u32,
    mut trace: Option<&mut Trace<W>>,
) -> MontElem<W> {
    let k = k.clamp(1, 8);
    let table = power_table(mm, base, k);
    let mut x = mm.modulus().one();
    let mut tmp = x.clone();
    note(&mut trace, mm, None, 0, "init", &[("x", &x)]);
    let windows = exp_bits.max(exp.bits()).div_ceil(k as usize);
    for win in (0..windows).rev() {
        let lo = win * k as usize;
        for _ in 0..k {
            mm.square_assign(&mut x, &mut tmp);
        }
        let d = window_value(exp, lo, k);
        let entry = select(&table, d);
        mm.mul_assign(&mut x, &entry, &mut tmp);
        note(&mut trace, mm, Some(lo), d, "square^k, multiply", &[("x", &x)]);
    }
    x
}
