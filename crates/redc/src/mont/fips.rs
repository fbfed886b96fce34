//! FIPS — Finely Integrated Product Scanning (Koç, Acar, Kaliski 1996;
//! 000_be478b6750af4540.txt §2.2).
//!
//! Schedule: product (column) scanning. Column `i` of `a·b + m·n` is summed
//! in a short accumulator: all `a[j]·b[i-j]` and `m[j]·n[i-j]`; for the low
//! `s` columns the quotient digit `m[i]` is then chosen to clear the column,
//! for the high `s` columns the column's low digit is a result digit. The
//! accumulator shifts down one digit per column.
//!
//! Loop structure: two outer loops over the `2s` columns, each with an inner
//! loop of two multiplications; `2s² + s` multiplications.
//!
//! Scratch: the quotient digits `m[0..s]` (overwritten by the result) and an
//! accumulator of `acc_len(s)` digits.
//!
//! Where Koç's text needs care: his accumulator is three digits `t[0..3]`.
//! A column sums up to `2s` double-digit products plus the previous column's
//! carry, about `2s·2^(2w)`, which no longer fits three digits once `2s`
//! nears `2^w` — at `w = 8` that is `s` near 128, a 1024-bit modulus, well
//! inside the sizes redc supports. Here the accumulator has `acc_len(s)`
//! digits (a margin of `4s`): three while `4s < 2^w`, four at `w = 8` from
//! 512 bits up to 16384 bits. `ADD(t[1], C)` carries through the whole accumulator, a fixed
//! number of digits, so the schedule is constant-time.

use crate::kernel::meter::{Meter, add_fixed, ld, mac, quotient, st};
use crate::word::Word;

/// Accumulator digits for `s`-digit operands: two for the double-digit
/// product plus enough for the growth of a column of `2s` products.
pub(crate) fn acc_len<W: Word>(s: usize) -> usize {
    let growth_bits = usize::BITS - (4 * s).leading_zeros();
    2 + (growth_bits as usize).div_ceil(W::BITS as usize)
}

/// Scratch digits for `s`-digit operands.
pub(crate) fn scratch_len<W: Word>(s: usize) -> usize {
    s + acc_len::<W>(s)
}

/// `u = a·b·2^(-sw)`, `u < 2n`, before the final subtraction.
///
/// Pre: `a`, `b`, `n`, `u` have `s` digits, `a, b < n`, `n` odd,
/// `n0 = -n^-1 mod 2^w`, `scratch.len() >= scratch_len(s)`.
/// Post: `u` holds the low `s` digits; returns the top digit (0 or 1).
pub(crate) fn mont_mul<W: Word, M: Meter>(
    m: &M,
    u: &mut [W],
    a: &[W],
    b: &[W],
    n: &[W],
    n0: W,
    scratch: &mut [W],
) -> W {
    let s = n.len();
    let l = acc_len::<W>(s);
    let (qd, acc) = scratch[..s + l].split_at_mut(s);
    acc.fill(W::ZERO);
    // Add a[j]·b[k] + q[j]·n[k] into the accumulator.
    let column_term = |m: &M, acc: &mut [W], qd: &[W], j: usize, k: usize| {
        let (sum, c) = mac(m, ld(m, acc, 0), ld(m, a, j), ld(m, b, k), W::ZERO);
        add_fixed(m, acc, 1, l, c);
        let (sum, c) = mac(m, sum, ld(m, qd, j), ld(m, n, k), W::ZERO);
        st(m, acc, 0, sum);
        add_fixed(m, acc, 1, l, c);
    };
    let shift = |m: &M, acc: &mut [W]| {
        for k in 0..l - 1 {
            st(m, acc, k, ld(m, acc, k + 1));
        }
        st(m, acc, l - 1, W::ZERO);
    };
    for i in 0..s {
        for j in 0..i {
            column_term(m, acc, qd, j, i - j);
        }
        let (sum, c) = mac(m, ld(m, acc, 0), ld(m, a, i), ld(m, b, 0), W::ZERO);
        add_fixed(m, acc, 1, l, c);
        let q = quotient(m, sum, n0);
        st(m, qd, i, q);
        let (_, c) = mac(m, sum, q, ld(m, n, 0), W::ZERO);
        add_fixed(m, acc, 1, l, c);
        shift(m, acc);
    }
    for i in s..2 * s {
        for j in i - s + 1..s {
            column_term(m, acc, qd, j, i - j);
        }
        st(m, qd, i - s, ld(m, acc, 0));
        shift(m, acc);
    }
    for j in 0..s {
        st(m, u, j, ld(m, qd, j));
    }
    ld(m, acc, 0)
}
