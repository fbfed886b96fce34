//! Row operations shared by the operand-scanning schedules (SOS, CIOS, CIHS,
//! radix): the inner loops of Koç's pseudo-code, metered like the rest.

use crate::kernel::meter::{Meter, add2, ld, mac, quotient, st};
use crate::word::Word;

/// `t[0..x.len()] += x·d`: for `j` in order, `(C, S) := t[j] + x[j]·d + C`,
/// `t[j] := S`. Returns the final carry `C` (the caller places it).
#[inline(always)]
pub(crate) fn mac_row<W: Word, M: Meter>(m: &M, t: &mut [W], x: &[W], d: W) -> W {
    let mut c = W::ZERO;
    for j in 0..x.len() {
        let (sum, hi) = mac(m, ld(m, t, j), ld(m, x, j), d, c);
        st(m, t, j, sum);
        c = hi;
    }
    c
}

/// Montgomery reduction of a double-length value (000 Fig. 3 b): for each row
/// `i`, `q = t[i]·n0' mod 2^w` and `t += q·n·2^(iw)`, which clears `t[i]`.
/// Koç's `ADD(t[i+s], C)` ripples a carry upward; here the carry out of
/// `t[i+s]` is held in a one-bit register and added at row `i + 1`, the
/// first time that digit is read again — the same value, in constant time.
///
/// Pre: `t` has `2s` digits (`s = n.len()`), `t < n·2^(sw)`.
/// Post: `t·2^(-sw) < 2n` is `top·2^(sw) + t[s..2s]`; returns `top`.
#[inline(always)]
pub(crate) fn reduce_rows<W: Word, M: Meter>(m: &M, t: &mut [W], n: &[W], n0: W) -> W {
    let s = n.len();
    let mut top = W::ZERO;
    for i in 0..s {
        let q = quotient(m, ld(m, t, i), n0);
        let c = mac_row(m, &mut t[i..], n, q);
        let (sum, c1) = add2(m, ld(m, t, i + s), c);
        let (sum, c2) = add2(m, sum, top);
        st(m, t, i + s, sum);
        top = c1 | c2;
    }
    top
}

/// One reduction step that also shifts down one digit:
/// `t[0..s-1] := (t[0..s] + q·n) / 2^w` with `q = t[0]·n0' mod 2^w`, so the
/// low digit of the sum is zero and is dropped. Returns the carry out of
/// digit `s - 1`, which belongs at digit `s - 1` of the shifted `t`.
#[inline(always)]
pub(crate) fn reduce_shift_row<W: Word, M: Meter>(m: &M, t: &mut [W], n: &[W], n0: W) -> W {
    let t0 = ld(m, t, 0);
    let q = quotient(m, t0, n0);
    let (_, mut c) = mac(m, t0, q, ld(m, n, 0), W::ZERO);
    for j in 1..n.len() {
        let (sum, hi) = mac(m, ld(m, t, j), q, ld(m, n, j), c);
        st(m, t, j - 1, sum);
        c = hi;
    }
    c
}
