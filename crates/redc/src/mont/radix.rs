//! Radix-2^r digit-serial Montgomery multiplication,
//! 001_24b3bbce8c558126.txt Alg. 1 (Ito, Nakano, Song), with `r = w`.
//!
//! ```text
//! S_0 = 0
//! for i = 0 .. d-1:
//!     q_i     = ((S_i + X·Y_i) · (-M^-1)) mod 2^r
//!     S_{i+1} = (X·Y_i + q_i·M + S_i) / 2^r
//! if M <= S_d: S_d = S_d - M
//! ```
//!
//! Schedule: the multiplier `Y` enters one digit per step; each step is three
//! whole-width operations on the running sum — add `X·Y_i`, add `q_i·M`,
//! shift right one digit — the way a digit-serial datapath sees it, not
//! fused into one loop as in CIOS. `q_i` needs only the low digit of
//! `S_i + X·Y_i`.
//!
//! Loop structure: one outer loop over the `d = s` digits of `Y`, three inner
//! loops (multiply-add, multiply-add, shift); `2s² + s` multiplications.
//!
//! Scratch: the running sum `S` of `s + 2` digits. `S_i < 2M` holds
//! throughout, and before the shift `S_i + X·Y_i + q_i·M < 2M + 2·2^w·M`,
//! which fits `s + 2` digits. Constant-time.
//!
//! Here `r = w`: one digit of `Y` per step is one word. The paper's circuit
//! uses `r = 17` with its own carry registers (Alg. 3); that golden model
//! belongs to the hardware models, not to this word-level reference.

use super::rows::mac_row;
use crate::kernel::meter::{Meter, add2, ld, quotient, st};
use crate::word::Word;

/// Scratch digits for `s`-digit operands.
pub(crate) const fn scratch_len(s: usize) -> usize {
    s + 2
}

/// `acc[0..s+2] += x·d` (`x` of `s` digits).
fn add_mul_digit<W: Word, M: Meter>(m: &M, acc: &mut [W], x: &[W], d: W) {
    let s = x.len();
    let c = mac_row(m, acc, x, d);
    let (sum, hi) = add2(m, ld(m, acc, s), c);
    st(m, acc, s, sum);
    let (sum, _) = add2(m, ld(m, acc, s + 1), hi);
    st(m, acc, s + 1, sum);
}

/// `u = X·Y·2^(-dr)`, `u < 2M`, before the final subtraction (Alg. 1 lines 1-5).
///
/// Pre: `x`, `y`, `n`, `u` have `s` digits, `x, y < n`, `n` odd,
/// `n0 = -n^-1 mod 2^w`, `acc.len() >= scratch_len(s)`.
/// Post: `u` holds the low `s` digits; returns the top digit (0 or 1).
pub(crate) fn mont_mul<W: Word, M: Meter>(m: &M, u: &mut [W], x: &[W], y: &[W], n: &[W], n0: W, acc: &mut [W]) -> W {
    let s = n.len();
    let acc = &mut acc[..scratch_len(s)];
    acc.fill(W::ZERO);
    for i in 0..s {
        let yi = ld(m, y, i);
        add_mul_digit(m, acc, x, yi);
        let q = quotient(m, ld(m, acc, 0), n0);
        add_mul_digit(m, acc, n, q);
        for k in 0..s + 1 {
            st(m, acc, k, ld(m, acc, k + 1));
        }
        st(m, acc, s + 1, W::ZERO);
    }
    for j in 0..s {
        st(m, u, j, ld(m, acc, j));
    }
    ld(m, acc, s)
}
