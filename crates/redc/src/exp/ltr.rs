//! Left-to-right binary exponentiation ("square and multiply"):
//! 000_be478b6750af4540.txt Fig. 1, 001_24b3bbce8c558126.txt Alg. 2,
//! 004_b65c74827168229f.txt Alg. 2.
//!
//! ```text
//! x = 1·R mod n
//! for i = k-1 downto 0:
//!     x = MonPro(x, x)
//!     if e_i = 1: x = MonPro(M·R, x)
//! ```
//!
//! `k` squarings and one multiplication per set bit. Variable-time: whether a
//! multiplication happens depends on the exponent bit.

use super::trace::{Trace, note};
use crate::mont::{Meter, MontElem, Multiplier};
use crate::nat::Nat;
use crate::word::Word;

/// `base^exp` in Montgomery form.
///
/// Pre: `base` belongs to `mm`'s modulus. Post: the result is `< n`;
/// `exp = 0` gives 1 (`R mod n`). One trace row per exponent bit.
pub fn pow_vartime<W: Word, M: Meter>(
    mm: &mut Multiplier<'_, W, M>,
    base: &MontElem<W>,
    exp: &Nat<W>,
    mut trace: Option<&mut Trace<W>>,
) -> MontElem<W> {
    let mut x = mm.modulus().one();
    let mut tmp = x.clone();
    note(&mut trace, mm, None, 0, "init", &[("M", base), ("x", &x)]);
    for i in (0..exp.bits()).rev() {
        mm.square_assign(&mut x, &mut tmp);
        let bit = exp.bit(i);
        if bit {
            mm.mul_assign(&mut x, base, &mut tmp);
        }
        let op = if bit { "square, multiply" } else { "square" };
        note(&mut trace, mm, Some(i), u64::from(bit), op, &[("x", &x)]);
    }
    x
}
