//! CIHS — Coarsely Integrated Hybrid Scanning (Koç, Acar, Kaliski 1996;
//! 000_be478b6750af4540.txt §2.2).
//!
//! Schedule: a hybrid of operand and product scanning. First the low half of
//! `a·b` — the products `a[j]·b[i]` with `i + j < s` — by operand scanning.
//! Then `s` reduction steps `t := (t + m·n) / 2^w`; after step `i` the
//! column `s + i` of `a·b` has moved down to digit `s - 1`, and its products
//! `a[s+i-j]·b[j]` (`j = i+1..s-1`) are added there.
//!
//! Loop structure: a triangular multiplication loop (`s(s+1)/2` products),
//! then per reduction step one `s`-long loop and one triangular loop for the
//! high half (`s(s-1)/2` products in all); `2s² + s` multiplications.
//!
//! Scratch: `t` of `s + g` digits, where the top region of `g = top_len(s)`
//! digits absorbs the carries of the upper columns: two digits (Koç's
//! `t[s]`, `t[s+1]`) while `4s < 2^w`, three at `w = 8` from 512 bits. Koç's
//! text stores the carry into `t[s+1]` with `:=`; a carry may arrive there on
//! every row, so here it is added. Carries run through the whole top region,
//! a fixed number of digits, so the schedule is constant-time.

use super::rows::{mac_row, reduce_shift_row};
use crate::kernel::meter::{Meter, add_fixed, add2, ld, mac, st};
use crate::word::Word;

/// Digits above `t[s-1]` that hold the carries.
pub(crate) fn top_len<W: Word>(s: usize) -> usize {
    let growth_bits = usize::BITS - (4 * s).leading_zeros();
    1 + (growth_bits as usize).div_ceil(W::BITS as usize)
}

/// Scratch digits for `s`-digit operands.
pub(crate) fn scratch_len<W: Word>(s: usize) -> usize {
    s + top_len::<W>(s)
}

/// `u = a·b·2^(-sw)`, `u < 2n`, before the final subtraction.
///
/// Pre: `a`, `b`, `n`, `u` have `s` digits, `a, b < n`, `n` odd,
/// `n0 = -n^-1 mod 2^w`, `t.len() >= scratch_len(s)`.
/// Post: `u` holds the low `s` digits; returns the top digit (0 or 1).
pub(crate) fn mont_mul<W: Word, M: Meter>(m: &M, u: &mut [W], a: &[W], b: &[W], n: &[W], n0: W, t: &mut [W]) -> W {
    let s = n.len();
    let end = scratch_len::<W>(s);
    let t = &mut t[..end];
    t.fill(W::ZERO);
    // Low half of a·b: columns 0..s-1, carries into the top region.
    for i in 0..s {
        let bi = ld(m, b, i);
        let c = mac_row(m, &mut t[i..], &a[..s - i], bi);
        add_fixed(m, t, s, end, c);
    }
    for i in 0..s {
        // One reduction step: t := (t + q·n) / 2^w.
        let mut c = reduce_shift_row(m, t, n, n0);
        for k in s..end {
            let (sum, hi) = add2(m, ld(m, t, k), c);
            st(m, t, k - 1, sum);
            c = hi;
        }
        st(m, t, end - 1, c);
        // Column s + i of a·b, now at digit s - 1.
        for j in i + 1..s {
            let (sum, hi) = mac(m, ld(m, t, s - 1), ld(m, b, j), ld(m, a, s + i - j), W::ZERO);
            st(m, t, s - 1, sum);
            add_fixed(m, t, s, end, hi);
        }
    }
    for j in 0..s {
        st(m, u, j, ld(m, t, j));
    }
    ld(m, t, s)
}
