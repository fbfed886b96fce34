//! The 64-bit Montgomery product `x·b·R^-1 mod n` (000_be478b6750af4540.txt
//! Fig. 2) by finely integrated operand scanning with several rows per pass:
//! the product of the scalar kernels, of the RSA glue and of the constants.
//!
//! Row `i` of the product adds `b[i]·a` and `m_i·n` to the accumulator `t`
//! at digit `i`, where `m_i = t[i]·n0' mod 2^64` clears digit `i` (000 §2.1
//! Eq. 6; Fig. 3 b). Koç's FIOS (000 §2.2) runs both inner products of a row
//! in one loop; here each of them keeps its own carry digit (no rippling
//! `ADD`, so the time is independent of the data), and `K` consecutive rows
//! run in the same loop, row `q` one digit behind row `q - 1`: after its
//! first digit, row `q` only needs digits that rows `< q` have finished in
//! the same step. That gives `2K` independent carry chains per step instead
//! of CIOS's one, which is what an out-of-order core needs to overlap the
//! multiplications (each chain is latency-bound on its add-with-carry).
//!
//! The same pass with the `b·a` half switched off is the reduction of the
//! dedicated squaring (000 Fig. 3 b, `K` rows at a time).
//!
//! On x86-64 with BMI2 and ADX the scalar kernel takes [`super::adx`]'s
//! product instead (the figures below are this portable one's).
//!
//! Measured on the project's 2-core AMD EPYC (Zen 5), one product with
//! run-time sizes, best of 200 runs, ns at 1024/2048/4096 bits:
//!
//! | schedule | ns |
//! |---|---|
//! | CIOS (000 §2.2) | 387 / 1595 / 6507 |
//! | SOS (000 Fig. 3) | 381 / 1551 / 6333 |
//! | FIPS, product scanning | 319 / 1161 / 4367 |
//! | FIOS, one row per pass, two carries | 300 / 1136 / 4113 |
//! | FIOS, two rows per pass, shifting `t` | 265 / 990 / 3588 |
//! | this file: two rows per pass, `t` in place | 282 / 1035 / 3735 |
//!
//! The in-place form is a few per cent behind the shifting one but is the
//! same code as the squaring's reduction (one algorithm, not two); with
//! compile-time sizes it takes 265 / 1029 / 3745 ns (CIOS: 263 / 1517 /
//! 6326).

use super::size::Size;
use super::subtract::sub_if_not_less;
use crate::kernel::meter::NoMeter;
use crate::word::Word;

/// Rows per pass of the product: 2 rows = 4 carry chains (3 rows and more
/// measured slower: register pressure).
const MUL_ROWS: usize = 2;
/// Rows per pass of the reduction alone: 4 rows = 4 carry chains.
const REDUCE_ROWS: usize = 4;

/// One pass of `K` rows on the window `t[0 .. s + K]` at the pass's first
/// digit: adds `sum_q (b[q]·a + m_q·n)·2^(64q)` (the `b·a` terms only when
/// `MUL`), each `m_q` chosen so that digit `q` becomes zero (000 Eq. 6),
/// and `carry_in·2^(64s)`.
///
/// Pre: `K <= s = n.len()`; `t.len() >= s + K`; `a.len() == s` when `MUL`;
/// `carry_in <= 2`; `n` odd and `n0 = -n^-1 mod 2^64`.
/// Post: digits `0 .. K` of the window are zero and the returned carry
/// (`<= 2`) is the window's overflow: window out `+ carry·2^(64(s+K))` =
/// window in `+` everything added.
#[inline(always)]
fn pass<const K: usize, const MUL: bool>(
    t: &mut [u64],
    a: &[u64],
    b: [u64; K],
    n: &[u64],
    n0: u64,
    carry_in: u64,
) -> u64 {
    let s = n.len();
    let t = &mut t[..s + K];
    let mut m = [0u64; K];
    // Per row: the carry of the `b·a` chain and of the `m·n` chain.
    let mut ca = [0u64; K];
    let mut cn = [0u64; K];
    // Digits 0 .. K: row j starts here, after rows < j have added theirs.
    for j in 0..K {
        let mut x = t[j];
        for q in 0..j {
            if MUL {
                (x, ca[q]) = u64::mac(x, a[j - q], b[q], ca[q]);
            }
            (x, cn[q]) = u64::mac(x, m[q], n[j - q], cn[q]);
        }
        if MUL {
            (x, ca[j]) = u64::mac(x, a[0], b[j], 0);
        }
        m[j] = x.wrapping_mul(n0);
        // x + m·n[0] ≡ 0 (mod 2^64): only the carry remains.
        (_, cn[j]) = u64::mac(x, m[j], n[0], 0);
        t[j] = 0;
    }
    // Digits K .. s: every row is inside the operands.
    for j in K..s {
        let mut x = t[j];
        for q in 0..K {
            if MUL {
                (x, ca[q]) = u64::mac(x, a[j - q], b[q], ca[q]);
            }
            (x, cn[q]) = u64::mac(x, m[q], n[j - q], cn[q]);
        }
        t[j] = x;
    }
    // Digits s .. s + K: row r = j - s ends, rows > r still add.
    let mut k = carry_in;
    for j in s..s + K {
        let r = j - s;
        let w = u128::from(t[j]) + u128::from(ca[r]) + u128::from(cn[r]) + u128::from(k);
        let mut x = w as u64;
        k = (w >> 64) as u64;
        for q in r + 1..K {
            if MUL {
                (x, ca[q]) = u64::mac(x, a[j - q], b[q], ca[q]);
            }
            (x, cn[q]) = u64::mac(x, m[q], n[j - q], cn[q]);
        }
        t[j] = x;
    }
    k
}

/// All `s` rows: passes of `K` rows, then single rows for the `s mod K`
/// left. Returns the top carry `t[2s]`.
///
/// Pre: `t.len() == 2s`; as [`pass`]. Post: `t[..s]` is zero, and `t[s..]`
/// with the returned carry as digit `s` holds `(t_in + b·a + m·n) / R`
/// (`R = 2^(64s)`; the `b·a` term only when `MUL`).
#[inline(always)]
fn rows<const K: usize, const MUL: bool>(t: &mut [u64], a: &[u64], b: &[u64], n: &[u64], n0: u64) -> u64 {
    let s = n.len();
    let mut carry = 0;
    let mut i = 0;
    while i + K <= s {
        let bi: [u64; K] = core::array::from_fn(|q| if MUL { b[i + q] } else { 0 });
        carry = pass::<K, MUL>(&mut t[i..], a, bi, n, n0, carry);
        i += K;
    }
    while i < s {
        let bi = [if MUL { b[i] } else { 0 }];
        carry = pass::<1, MUL>(&mut t[i..], a, bi, n, n0, carry);
        i += 1;
    }
    carry
}

/// `x := x·b·R^-1 mod n` with `R = 2^(64s)` (000 Fig. 2, `MonPro`).
///
/// Pre: `x`, `b`, `n` have at least `s = sz.len()` digits (only the first
/// `s` are used); `x·b < n·R` (for instance `x, b < n`, or `x < R` and
/// `b < n`: then `(x·b + m·n) / R < 2n`); `n` odd, `n0 = -n^-1 mod 2^64`;
/// `t.len() >= 2s` (scratch). Post: `x < n` (fully reduced).
/// Constant time: the instruction sequence depends on `s` only.
#[inline(always)]
pub(crate) fn mont_mul<S: Size>(sz: S, x: &mut [u64], b: &[u64], n: &[u64], n0: u64, t: &mut [u64]) {
    let s = sz.len();
    let (x, b, n, t) = (&mut x[..s], &b[..s], &n[..s], &mut t[..2 * s]);
    t.fill(0);
    // (x·b + m·n) / R < (n^2 + R·n) / R < 2n: one conditional subtraction.
    let hi = rows::<MUL_ROWS, true>(t, x, b, n, n0);
    sub_if_not_less(&NoMeter, x, &t[s..], hi, n);
}

/// Montgomery reduction of the `2s` digits `t` (000 Fig. 3 b): afterwards
/// `t[s..]` plus the returned top digit `·R` equals `(t_in + m·n) / R`.
///
/// Pre: `t.len() == 2s`, `t_in < n·R`; `n` odd, `n0 = -n^-1 mod 2^64`.
/// Post: the result is `< 2n` and `≡ t_in·R^-1 (mod n)`.
#[inline(always)]
pub(crate) fn reduce(t: &mut [u64], n: &[u64], n0: u64) -> u64 {
    rows::<REDUCE_ROWS, false>(t, &[], &[], n, n0)
}
