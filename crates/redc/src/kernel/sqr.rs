//! The dedicated Montgomery squaring `x := x^2·R^-1 mod n`: the square by
//! separated operand scanning (000_be478b6750af4540.txt Fig. 3 a) with every
//! off-diagonal product computed once and doubled, then the reduction of
//! Fig. 3 b.
//!
//! `x^2 = 2·sum_{i<j} x_i·x_j·2^(64(i+j)) + sum_i x_i^2·2^(128i)`: `s(s-1)/2`
//! digit products for the triangle and `s` for the diagonal, against `s^2`
//! for a general product; with the `s^2 + s` of the reduction (its quotient
//! digits included) a squaring takes `1.5·s^2 + 1.5·s` multiplications
//! instead of `2s^2 + s`. The triangle runs
//! two rows per loop (two independent carry chains); the reduction is the
//! multi-row pass of [`super::fios`].
//!
//! On x86-64 with BMI2 and ADX the scalar kernel takes [`super::adx`]'s
//! squaring instead (its triangle as rows, this file's doubling).
//!
//! Measured on the project's Zen 5 (best of 200 runs, ns at 1024/2048/4096
//! bits, compile-time sizes): 253 / 868 / 3065 against 265 / 1029 / 3745
//! for the product and 256 / 1194 / 4697 for the same squaring with one
//! row per loop in both halves.

use super::fios::reduce;
use super::size::Size;
use super::subtract::sub_if_not_less;
use crate::kernel::meter::NoMeter;
use crate::word::Word;

/// `x := x^2·R^-1 mod n`, `R = 2^(64s)`.
///
/// Pre: `x`, `n` have at least `s = sz.len()` digits (the first `s` are
/// used); `x < n`; `n` odd, `n0 = -n^-1 mod 2^64`; `t.len() >= 2s`.
/// Post: `x < n`, equal to `MonPro(x, x)` (000 Fig. 2). Constant time.
#[inline(always)]
pub(crate) fn mont_sqr<S: Size>(sz: S, x: &mut [u64], n: &[u64], n0: u64, t: &mut [u64]) {
    let s = sz.len();
    let (x, n, t) = (&mut x[..s], &n[..s], &mut t[..2 * s]);
    t.fill(0);
    off_diagonal(t, x);
    double_add_diagonal(t, x);
    let hi = reduce(t, n, n0);
    sub_if_not_less(&NoMeter, x, &t[s..], hi, n);
}

/// `t := sum_{i<j} a_i·a_j·2^(64(i+j))`, rows `i` and `i + 1` in one loop.
///
/// Pre: `t` is `2s` zero digits, `a` has `s` digits. Row `i` covers digits
/// `2i+1 .. i+s` (its carry lands on digit `i + s`, which no earlier row
/// has reached), row `i+1` starts two digits later and ends one later.
#[inline(always)]
fn off_diagonal(t: &mut [u64], a: &[u64]) {
    let s = a.len();
    let mut i = 0;
    while i + 1 < s {
        let r = [a[i], a[i + 1]];
        let mut c = [0u64; 2];
        // Digits 2i+1, 2i+2: row i only.
        for p in 2 * i + 1..(2 * i + 3).min(i + s) {
            (t[p], c[0]) = u64::mac(t[p], r[0], a[p - i], c[0]);
        }
        for p in 2 * i + 3..i + s {
            let mut x = t[p];
            for q in 0..2 {
                (x, c[q]) = u64::mac(x, r[q], a[p - i - q], c[q]);
            }
            t[p] = x;
        }
        // Digit i+s: row i's carry, row i+1's last product; then its carry.
        if i + 2 < s {
            (t[i + s], c[1]) = u64::mac(c[0], r[1], a[s - 1], c[1]);
            t[i + s + 1] = c[1];
        } else {
            t[i + s] = c[0];
        }
        i += 2;
    }
}

/// `t := 2·t + sum_i a_i^2·2^(128i)`. Pre: `t` holds the off-diagonal sum
/// of `a` (so the result, `a^2`, fits in `2s` digits).
#[inline(always)]
pub(super) fn double_add_diagonal(t: &mut [u64], a: &[u64]) {
    let (mut shifted_out, mut carry) = (0u64, 0u64);
    for (i, &ai) in a.iter().enumerate() {
        let sq = u128::from(ai) * u128::from(ai);
        let (lo, hi) = (t[2 * i], t[2 * i + 1]);
        let (d0, d1) = ((lo << 1) | shifted_out, (hi << 1) | (lo >> 63));
        shifted_out = hi >> 63;
        (t[2 * i], carry) = add3(d0, sq as u64, carry);
        (t[2 * i + 1], carry) = add3(d1, (sq >> 64) as u64, carry);
    }
    debug_assert_eq!((shifted_out, carry), (0, 0), "a^2 fits in 2s digits");
}

/// `a + b + c` for digits `a`, `b`, `c`: low digit and carry (`<= 2`).
#[inline(always)]
fn add3(a: u64, b: u64, c: u64) -> (u64, u64) {
    let w = u128::from(a) + u128::from(b) + u128::from(c);
    (w as u64, (w >> 64) as u64)
}
