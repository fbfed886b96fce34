//! Sliding-window exponentiation (Menezes, van Oorschot, Vanstone, Handbook
//! of Applied Cryptography, Alg. 14.85) — for public exponents only.
//!
//! Only odd powers `X, X^3, ..., X^(2^k - 1)` are tabulated; the exponent is
//! scanned from the top, a zero bit costs one squaring, and a window of at
//! most `k` bits that starts and ends with 1 costs one squaring per bit and
//! one multiplication. Fewer multiplications than the fixed window, but the
//! sequence of operations and the table index reveal the exponent:
//! variable-time, hence `_vartime`.

use super::trace::{Trace, note};
use super::window::window_value;
use crate::mont::{Meter, MontElem, Multiplier};
use crate::nat::Nat;
use crate::word::Word;

/// `base^exp` in Montgomery form with windows of at most `k` bits
/// (`1 <= k <= 8`).
///
/// Pre: `base` belongs to `mm`'s modulus. Post: the result is `< n`;
/// `exp = 0` gives 1. One trace row per zero bit or window.
pub fn pow_vartime<W: Word, M: Meter>(
    mm: &mut Multiplier<'_, W, M>,
    base: &MontElem<W>,
    exp: &Nat<W>,
    k: u32,
    mut trace: Option<&mut Trace<W>>,
) -> MontElem<W> {
    let k = k.clamp(1, 8);
    // odd[j] = base^(2j + 1)
    let square = mm.mul(base, base);
    let mut odd = vec![base.clone()];
    for j in 1..1usize << (k - 1) {
        let next = mm.mul(&odd[j - 1], &square);
        odd.push(next);
    }
    let mut x = mm.modulus().one();
    let mut tmp = x.clone();
    note(&mut trace, mm, None, 0, "init", &[("x", &x)]);
    let mut i = exp.bits();
    while i > 0 {
        let top = i - 1;
        if !exp.bit(top) {
            mm.square_assign(&mut x, &mut tmp);
            note(&mut trace, mm, Some(top), 0, "square", &[("x", &x)]);
            i -= 1;
            continue;
        }
        // Longest window exp[top..=lo] of at most k bits ending in a 1.
        let mut lo = top.saturating_sub(k as usize - 1);
        while !exp.bit(lo) {
            lo += 1;
        }
        let len = (top - lo + 1) as u32;
        let d = window_value(exp, lo, len);
        for _ in 0..len {
            mm.square_assign(&mut x, &mut tmp);
        }
        mm.mul_assign(&mut x, &odd[(d as usize - 1) / 2], &mut tmp);
        note(&mut trace, mm, Some(lo), d, "square^len, multiply", &[("x", &x)]);
        i = lo;
    }
    x
}
