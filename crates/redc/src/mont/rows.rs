//! Row operations shared by the operand-scanning schedules (SOS, CIOS, CIHS,
//! radix): the inner loops of Koç's pseudo-code, metered like the rest.

use super::meter::{Meter, ld, mac, quotient, st};
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
