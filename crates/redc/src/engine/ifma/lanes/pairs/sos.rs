//! The almost-Montgomery product of the 2-way kernel for wide pairs, in
//! separated operand scanning (Koç, 000_be478b6750af4540.txt §2.2): the
//! full `2·D`-digit product first, two rows of `b` per pass, then the
//! reduction of `reduce.rs` that the squaring shares; no final subtraction
//! (004_b65c74827168229f.txt Alg. 1). `D² + D` multiply-adds for the rows
//! and `D² + 3·D/2` for the reduction, against the interleaved product's
//! `2·D² + 4·D + 1` (`pairs.rs`, `amm`); what it wins is data movement:
//! that product moves its whole accumulator down a digit on every step
//! (it takes 1.13x this one's time at 30 digits, 1.19x at 40, 1.21x at 60
//! and 2.34x at 80, where the accumulator no longer fits in the
//! registers), where this one reads and writes each column once per pass.
//! The squaring takes its rows above the diagonal from here ([`rows`]).
//!
//! The rows land on whole vectors as the squaring's do: row `i = 2p` adds
//! `lo(b_i·a[q])` and `hi(b_i·a↑[q])` to vector `p + q`, row `i = 2p + 1`
//! adds `lo(b_i·a↑[q])` to vector `p + q` and `hi(b_i·a[q])` to vector
//! `p + q + 1`.
#![allow(unsafe_code)]

use super::reduce::{montgomery, vectors};
use super::{Pair, Pairs, digits, shift_up};
use crate::engine::ifma::lanes::square::Cols;
use crate::engine::ifma::lanes::{Vector, Y};
use core::mem::MaybeUninit;

/// Almost-Montgomery product of two pairs, `a·b·R^-1 mod n` in each half,
/// `R = 2^(52·2H)`: the contract of the interleaved product (`amm`).
///
/// The `4H` columns, in `2H` vectors, are 64-bit sums of 52-bit pieces: at
/// most `4H` from the rows and four per reduction step for at most `H`
/// steps, with carries: below `(8H + 2)·2^52 < 2^62` for `2H <= 80`.
///
/// # Safety
///
/// The CPU must have AVX-512F, VL and IFMA (callers hold a `Token`).
#[inline(always)]
pub(super) unsafe fn amm<const H: usize>(a: &Pair<H>, b: &Pair<H>, k: &Pairs<H>) -> Pair<H> {
    const { assert!(H >= 2, "at least two vectors") };
    // SAFETY: the caller's contract: the CPU has AVX-512F, VL and IFMA.
    unsafe {
        let (up, top) = shift_up(a);
        let (a, up, top, b) = (vectors(a), vectors(&up), top.0, vectors(b));
        let mut wide = [[MaybeUninit::<Y>::uninit(); H]; 2];
        let mut t = Cols(wide.as_flattened_mut());
        for (p, &v) in b.iter().enumerate() {
            // Rows 2p and 2p + 1 in one pass; column p takes no high half
            // from below.
            let (e, o) = digits(v);
            let c = Y::madd_hi(Y::madd_lo(before::<H>(&t, p, p), e, a[0]), e, up[0]);
            t.set(p, Y::madd_lo(c, o, up[0]));
            rows(&mut t, p, 1, (e, o), a, up, top);
        }
        // SAFETY: every column was written above.
        montgomery(&mut wide, k)
    }
}

/// Column `c` as pass `p` finds it: zero where the pass is the first to
/// write it (every column for `p = 0`, column `p + H` for the others).
///
/// # Safety
///
/// Pass `p - 1` wrote the column, unless it is zero.
#[inline(always)]
pub(super) unsafe fn before<const H: usize>(t: &Cols<'_, Y>, p: usize, c: usize) -> Y {
    if p == 0 || c == p + H {
        Y::default()
    } else {
        // SAFETY: the caller's contract.
        unsafe { t.get(c) }
    }
}

/// Rows `2p` and `2p + 1` of `b·a` (`e` and `o`: digits `2p` and `2p + 1`
/// of `b`, in both lane pairs) on columns `p + from` to `p + H`, in one
/// pass: column `p + q` takes `lo(e·a[q])`, `hi(e·a↑[q])`, `lo(o·a↑[q])`
/// and `hi(o·a[q - 1])`, the last column the top digit's `hi(e·top)`,
/// `lo(o·top)` and `hi(o·a[H - 1])`. Pre: `from >= 1`.
///
/// # Safety
///
/// The CPU must have AVX-512F, VL and IFMA; the passes run for `p = 0, 1,
/// …` in order, each writing every column from `p` to `p + H`.
#[inline(always)]
pub(super) unsafe fn rows<const H: usize>(
    t: &mut Cols<'_, Y>,
    p: usize,
    from: usize,
    (e, o): (Y, Y),
    a: &[Y; H],
    up: &[Y; H],
    top: Y,
) {
    // SAFETY: the caller's contract.
    unsafe {
        for q in from..H {
            let c = Y::madd_hi(Y::madd_lo(before::<H>(t, p, p + q), e, a[q]), e, up[q]);
            t.set(p + q, Y::madd_hi(Y::madd_lo(c, o, up[q]), o, a[q - 1]));
        }
        let c = Y::madd_lo(Y::madd_hi(before::<H>(t, p, p + H), e, top), o, top);
        t.set(p + H, Y::madd_hi(c, o, a[H - 1]));
    }
}
