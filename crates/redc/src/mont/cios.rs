//! CIOS — Coarsely Integrated Operand Scanning (Koç, Acar, Kaliski 1996;
//! listed in 000_be478b6750af4540.txt §2.2 as the most efficient of the five).
//!
//! Schedule: for each digit `b[i]`, first `t += a·b[i]` (one inner loop), then
//! one reduction step `t := (t + m·n) / 2^w` with `m = t[0]·n0' mod 2^w`
//! (a second inner loop that also shifts `t` down one digit). Multiplication
//! and reduction alternate row by row, so `t` never exceeds `s + 2` digits.
//!
//! Loop structure: one outer loop over `i`, two inner loops over `j`;
//! `2s² + s` multiplications.
//!
//! Scratch: `t` of `s + 2` digits. Constant-time: every loop bound and index
//! depends on `s` alone. This is redc's default product.

use super::rows::{mac_row, reduce_shift_row};
use crate::kernel::meter::{Meter, add2, ld, st};
use crate::word::Word;

/// Scratch digits for `s`-digit operands.
pub(crate) const fn scratch_len(s: usize) -> usize {
    s + 2
}

/// `u = a·b·2^(-sw)`, `u < 2n`, before the final subtraction.
///
/// Pre: `a`, `b`, `n`, `u` have `s` digits, `a, b < n`, `n` odd,
/// `n0 = -n^-1 mod 2^w`, `t.len() >= scratch_len(s)`.
/// Post: `u` holds the low `s` digits; returns the top digit (0 or 1).
pub(crate) fn mont_mul<W: Word, M: Meter>(m: &M, u: &mut [W], a: &[W], b: &[W], n: &[W], n0: W, t: &mut [W]) -> W {
    let s = n.len();
    t[..scratch_len(s)].fill(W::ZERO);
    for i in 0..s {
        // t := t + a·b[i]
        let bi = ld(m, b, i);
        let c = mac_row(m, t, a, bi);
        let (sum, hi) = add2(m, ld(m, t, s), c);
        st(m, t, s, sum);
        st(m, t, s + 1, hi);
        // t := (t + q·n) / 2^w
        let c = reduce_shift_row(m, t, n, n0);
        let (sum, hi) = add2(m, ld(m, t, s), c);
        st(m, t, s - 1, sum);
        let (top, _) = add2(m, ld(m, t, s + 1), hi);
        st(m, t, s, top);
    }
    for j in 0..s {
        st(m, u, j, ld(m, t, j));
    }
    ld(m, t, s)
}
