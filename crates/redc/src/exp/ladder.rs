//! The Montgomery powering ladder (Joye and Yen, CHES 2002), suggested by
//! 004_b65c74827168229f.txt §6 as the parallel exponentiation that takes
//! exactly `n` product times on hardware with two multipliers.
//!
//! ```text
//! R0 = 1, R1 = X
//! for i = k-1 downto 0:
//!     if e_i = 0: R1 = R0·R1, R0 = R0^2
//!     else:       R0 = R0·R1, R1 = R1^2
//! ```
//!
//! Invariant `R1 = R0·X`. Every step does one multiplication and one
//! squaring, and the two are independent. Constant-time: the branch is
//! replaced by a masked swap of `R0` and `R1` before and after a fixed step.

use super::trace::{Trace, note};
use crate::mont::{Meter, MontElem, Multiplier};
use crate::nat::Nat;
use crate::word::Word;
use subtle::Choice;

/// `base^exp` in Montgomery form, in constant time for `exp_bits` bits.
///
/// Pre: `base` belongs to `mm`'s modulus. `exp_bits` is a public bound: the
/// work is the same for every exponent below `2^exp_bits`; a longer
/// (public, teaching) exponent extends the steps to its own length. Post: the result
/// is `< n`; `exp = 0` gives 1. One trace row per exponent bit.
pub fn pow<W: Word, M: Meter>(
    mm: &mut Multiplier<'_, W, M>,
    base: &MontElem<W>,
    exp: &Nat<W>,
    exp_bits: usize,
    mut trace: Option<&mut Trace<W>>,
) -> MontElem<W> {
    let mut r0 = mm.modulus().one();
    let mut r1 = base.clone();
    let mut tmp = r0.clone();
    note(&mut trace, mm, None, 0, "init", &[("R0", &r0), ("R1", &r1)]);
    for i in (0..exp_bits.max(exp.bits())).rev() {
        let bit = exp.bit(i);
        let swap = Choice::from(u8::from(bit));
        // With the swap, both cases become: R1 = R0·R1, R0 = R0^2.
        MontElem::conditional_swap(&mut r0, &mut r1, swap);
        mm.mul_into(&mut tmp, &r0, &r1);
        core::mem::swap(&mut r1, &mut tmp);
        mm.square_assign(&mut r0, &mut tmp);
        MontElem::conditional_swap(&mut r0, &mut r1, swap);
        note(
            &mut trace,
            mm,
            Some(i),
            u64::from(bit),
            "multiply ‖ square",
            &[("R0", &r0), ("R1", &r1)],
        );
    }
    r0
}
