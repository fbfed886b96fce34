//! Right-to-left binary exponentiation with independent squaring and
//! multiplying chains: 002_aa2657bb2bc73547.txt Alg. 3.1 (Blum, Paar) and
//! 003_4c508dab9c4d2fd2.txt Alg. III (Garg, Vig).
//!
//! ```text
//! P_0 = 1, Z_0 = X
//! for i = 0 to n-1:
//!     Z_{i+1} = Z_i^2 mod M
//!     P_{i+1} = P_i·Z_i mod M   if e_i = 1,   else P_i
//! ```
//!
//! Step `i` reads only `Z_i` and `P_i`: the squaring chain `Z` never reads
//! `P`, and the multiplying chain `P` reads `Z_i`, not `Z_{i+1}` — so the two
//! products of a step are independent and hardware runs them in parallel
//! (002 §3.1, "no data dependency"). The code below computes both from the
//! step's inputs before either is stored, to keep that visible.
//!
//! 003's Alg. III writes the loop as `for i in 0 to dk` and returns `R[k]`;
//! read as `i = 0 .. k-1` over the `k` exponent bits, it is this algorithm.
//! Variable-time: the multiplication depends on the exponent bit.

use super::trace::{Trace, note};
use crate::mont::{Meter, MontElem, Multiplier};
use crate::nat::Nat;
use crate::word::Word;

/// `base^exp` in Montgomery form.
///
/// Pre: `base` belongs to `mm`'s modulus. Post: the result is `< n`;
/// `exp = 0` gives 1. One trace row per exponent bit, with both chains.
pub fn pow_vartime<W: Word, M: Meter>(
    mm: &mut Multiplier<'_, W, M>,
    base: &MontElem<W>,
    exp: &Nat<W>,
    mut trace: Option<&mut Trace<W>>,
) -> MontElem<W> {
    let mut z = base.clone();
    let mut p = mm.modulus().one();
    note(&mut trace, mm, None, 0, "init", &[("Z", &z), ("P", &p)]);
    for i in 0..exp.bits() {
        let bit = exp.bit(i);
        // Both products read (Z_i, P_i) only.
        let z_next = mm.mul(&z, &z);
        let p_next = if bit { Some(mm.mul(&p, &z)) } else { None };
        z = z_next;
        if let Some(p_next) = p_next {
            p = p_next;
        }
        let op = if bit { "square ‖ multiply" } else { "square" };
        note(&mut trace, mm, Some(i), u64::from(bit), op, &[("Z", &z), ("P", &p)]);
    }
    p
}
