//! Sliding-window exponentiation (Menezes, van Oorschot, Vanstone, Handbook
//! of Applied Cryptography, Alg. 14.85) — for public exponents only — on the
//! teaching [`Multiplier`]: the kernel layer's driver
//! ([`crate::kernel::sliding`]) with a trace row per step.
//!
//! Only odd powers `X, X^3, ..., X^(2^k - 1)` are tabulated; the exponent is
//! scanned from the top, a zero bit costs one squaring, and a window of at
//! most `k` bits that starts and ends with 1 costs one squaring per bit and
//! one multiplication. Fewer multiplications than the fixed window, but the
//! sequence of operations and the table index reveal the exponent:
//! variable-time, hence `_vartime`.

use super::trace::Trace;
use super::window::Rows;
use crate::kernel::sliding;
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
    trace: Option<&mut Trace<W>>,
) -> MontElem<W> {
    let mut rows = Rows {
        trace,
        exp,
        window_op: "square^len, multiply",
    };
    sliding::pow_vartime(mm, base, exp.digits(), k.clamp(1, 8), &mut rows)
}
