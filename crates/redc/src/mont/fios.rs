//! FIOS — Finely Integrated Operand Scanning (Koç, Acar, Kaliski 1996;
//! 000_be478b6750af4540.txt §2.2).
//!
//! Schedule: one inner loop does both products for digit `j`: it adds
//! `a[j]·b[i]` and `m·n[j]` and writes the sum one digit lower, so
//! multiplication and reduction are fused at the digit level. The quotient
//! digit `m` is formed right after the first column of row `i`.
//!
//! Loop structure: one outer loop over `i`, one inner loop over `j` with two
//! multiplications each; `2s² + s` multiplications.
//!
//! Scratch: `t` of `s + 2` digits.
//!
//! Not constant-time: as Koç writes it, the carry of `a[j]·b[i]` goes through
//! `ADD(t[j+1], C)`, which ripples upward until it is absorbed — the number of
//! steps depends on the data. Use it to study the schedule; use CIOS, SOS,
//! FIPS, CIHS or radix for secrets.

use crate::kernel::meter::{Meter, add_ripple_vartime, add2, ld, mac, quotient, st};
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
    let t = &mut t[..scratch_len(s)];
    t.fill(W::ZERO);
    for i in 0..s {
        let bi = ld(m, b, i);
        let (sum, c) = mac(m, ld(m, t, 0), ld(m, a, 0), bi, W::ZERO);
        add_ripple_vartime(m, t, 1, c);
        let q = quotient(m, sum, n0);
        let (_, mut c) = mac(m, sum, q, ld(m, n, 0), W::ZERO);
        for j in 1..s {
            let (sum, hi) = mac(m, ld(m, t, j), ld(m, a, j), bi, c);
            add_ripple_vartime(m, t, j + 1, hi);
            let (sum, hi) = mac(m, sum, q, ld(m, n, j), W::ZERO);
            st(m, t, j - 1, sum);
            c = hi;
        }
        let (sum, hi) = add2(m, ld(m, t, s), c);
        st(m, t, s - 1, sum);
        let (top, _) = add2(m, ld(m, t, s + 1), hi);
        st(m, t, s, top);
        st(m, t, s + 1, W::ZERO);
    }
    for j in 0..s {
        st(m, u, j, ld(m, t, j));
    }
    ld(m, t, s)
}
