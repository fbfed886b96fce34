//! SOS — Separated Operand Scanning (Koç, Acar, Kaliski 1996; the reference
//! host schedule of 000_be478b6750af4540.txt §3.1, Fig. 3).
//!
//! Schedule: first the whole product `t = a·b` (Fig. 3 a), then the whole
//! reduction (Fig. 3 b): for each row `i` a quotient digit
//! `m = t[i]·n0' mod 2^w` and `t += m·n·2^(iw)`, so `t[i]` becomes zero.
//! The result is the upper half `t[s..2s]`, less `n` once if needed.
//!
//! Loop structure: two separate `s × s` double loops (operands scanned by
//! rows), `2s² + s` multiplications.
//!
//! Scratch: `t` of `2s` digits; the carry out of the top digit stays in a
//! one-bit register.
//!
//! Where the paper's text differs from Koç: Fig. 3 b as extracted reads
//! `m·n[i]` in the inner loop and stores `t[i + S]`; the schedule needs
//! `n[j]` and `t[i + s]` (`tests::fig3_literal_reading_is_wrong` shows the
//! literal reading fails). The reduction is `rows::reduce_rows`, which keeps
//! Koç's `ADD(t[i+s], C)` carry in a one-bit register (constant-time).

use super::rows::{mac_row, reduce_rows};
use crate::kernel::meter::{Meter, ld, st};
use crate::word::Word;

/// Scratch digits for `s`-digit operands.
pub(crate) const fn scratch_len(s: usize) -> usize {
    2 * s
}

/// `u = a·b·2^(-sw)`, `u < 2n`, before the final subtraction.
///
/// Pre: `a`, `b`, `n`, `u` have `s` digits, `a, b < n`, `n` odd,
/// `n0 = -n^-1 mod 2^w`, `t.len() >= scratch_len(s)`.
/// Post: `u` holds the low `s` digits; returns the top digit (0 or 1).
pub(crate) fn mont_mul<W: Word, M: Meter>(m: &M, u: &mut [W], a: &[W], b: &[W], n: &[W], n0: W, t: &mut [W]) -> W {
    let s = n.len();
    t[..scratch_len(s)].fill(W::ZERO);
    // Fig. 3 a: t := a·b.
    for i in 0..s {
        let bi = ld(m, b, i);
        let c = mac_row(m, &mut t[i..], a, bi);
        st(m, t, i + s, c);
    }
    // Fig. 3 b: interleaved Steps 2 and 3 of Fig. 2, one row at a time.
    let top = reduce_rows(m, t, n, n0);
    for j in 0..s {
        st(m, u, j, ld(m, t, j + s));
    }
    top
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::meter::NoMeter;

    /// 000 Fig. 3 b read literally (`m·n[i]` in the inner loop) does not
    /// compute a Montgomery product: with n = 0xfb1d (w = 8, s = 2) and
    /// a = b = 0x0102 it differs from the schedule above.
    #[test]
    fn fig3_literal_reading_is_wrong() {
        let n = [0x1du8, 0xfb];
        let n0 = n[0].neg_inv();
        let a = [0x02u8, 0x01];
        let mut t = [0u8; 5];
        let mut u = [0u8; 2];
        let top = mont_mul(&NoMeter, &mut u, &a, &a, &n, n0, &mut t);
        let good = (u32::from(top) << 16) | (u32::from(u[1]) << 8) | u32::from(u[0]);
        // Literal reading.
        let mut lt = [0u32; 5];
        let (av, nv) = ([2u32, 1], [0x1du32, 0xfb]);
        for i in 0..2 {
            for j in 0..2 {
                lt[i + j] += av[j] * av[i];
            }
        }
        let mut x: u64 = lt.iter().enumerate().map(|(k, &d)| u64::from(d) << (8 * k)).sum();
        for (i, &ni) in nv.iter().enumerate() {
            let digit = (x >> (8 * i)) & 0xff;
            let q = (digit * u64::from(n0)) & 0xff;
            for j in 0..2 {
                x += (q * u64::from(ni)) << (8 * (i + j)); // n[i] where n[j] belongs, as printed
            }
        }
        let literal = x >> 16;
        // Montgomery: good·2^16 ≡ a·a (mod n); the literal value is not.
        let nn = 0xfb1d_u64;
        assert_eq!((u64::from(good) << 16) % nn, (0x0102 * 0x0102) % nn);
        assert_ne!((literal << 16) % nn, (0x0102 * 0x0102) % nn);
    }
}
