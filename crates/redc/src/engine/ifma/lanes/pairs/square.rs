//! The almost-Montgomery squaring of the 2-way horizontal kernel: both
//! squares first, each cross product once (separated operand scanning,
//! Koç, 000_be478b6750af4540.txt §2.2), then Montgomery's reduction of the
//! `2·D` columns two digits per step; no final subtraction
//! (004_b65c74827168229f.txt Alg. 1). `(3·D² + 8·D)/2 - 1` multiply-adds
//! where the separated product (`sos.rs`) makes `(4·D² + 5·D)/2`: only the
//! rows above the diagonal (the product's passes, `sos::rows`), doubled,
//! then the diagonal and the same reduction (`reduce.rs`).
//!
//! The layout is the parent's: vector `k` holds digits `2k` and `2k + 1`
//! of both numbers. With `a↑` (the number shifted up one digit) and whole
//! vectors, every row of the square lands on whole vectors of the columns:
//! row `i = 2p` adds `lo(a_i·a[k])` and `hi(a_i·a↑[k])` to vector `p + k`,
//! row `i = 2p + 1` adds `lo(a_i·a↑[k])` to vector `p + k` and
//! `hi(a_i·a[k])` to vector `p + k + 1`; where a vector holds both a
//! product of the diagonal (or below it) and one above, a masked
//! multiply-add takes only the upper lanes.
#![allow(unsafe_code)]

use super::reduce::{montgomery, vectors};
use super::sos::{before, rows};
use super::{Pair, Pairs, UPPER, digits, shift_up};
use crate::engine::ifma::lanes::square::Cols;
use crate::engine::ifma::lanes::{MASK, Vector, Y};
use core::arch::x86_64::_mm256_mask_madd52lo_epu64;
use core::mem::MaybeUninit;

/// Almost-Montgomery square of a pair, `a·a·R^-1 mod n` in each half, `R =
/// 2^(52·2H)`: the product's contract with `b = a`.
///
/// Pre: digits below `2^52`; `a < 2n`; `4n < R`; `n` odd; `k0` holds
/// `-n^-1 mod 2^52` of each half; `2H <= MAX_DIGITS`. Post: digits below
/// `2^52`, each half `< 2n` and `≡ a²·R^-1 (mod n)`.
///
/// The `4H` columns, in `2H` vectors, are 64-bit sums of 52-bit pieces: at most
/// `2H` cross pieces, doubled, one of the diagonal, and four per reduction
/// step for at most `H` steps, with carries: below `(8H + 2)·2^52 < 2^62`
/// for `2H <= 80`.
///
/// # Safety
///
/// The CPU must have AVX-512F, VL and IFMA (callers hold a `Token`).
#[inline(always)]
pub(super) unsafe fn ams<const H: usize>(a: &Pair<H>, k: &Pairs<H>) -> Pair<H> {
    const { assert!(H >= 2, "at least two vectors") };
    // SAFETY: the caller's contract: the CPU has AVX-512F, VL and IFMA.
    unsafe {
        let zero = Y::default();
        let (up, top) = shift_up(a);
        let (a, up, top) = (vectors(a), vectors(&up), top.0);
        let mut wide = [[MaybeUninit::<Y>::uninit(); H]; 2];
        let mut t = Cols(wide.as_flattened_mut());
        for p in 0..H {
            // Rows 2p and 2p + 1 in one pass, above the diagonal: columns
            // 2p and 2p + 1 hold the diagonal's vector (only the pairs
            // above it taken), the others are the product's (`rows`).
            let (e, o) = digits(a[p]);
            t.set(
                2 * p,
                Y(_mm256_mask_madd52lo_epu64(
                    before::<H>(&t, p, 2 * p).0,
                    UPPER,
                    e.0,
                    a[p].0,
                )),
            );
            if p + 1 == H {
                t.set(2 * p + 1, Y::madd_hi(zero, e, top));
                break;
            }
            let c = Y::madd_hi(Y::madd_lo(before::<H>(&t, p, 2 * p + 1), e, a[p + 1]), e, up[p + 1]);
            t.set(2 * p + 1, Y(_mm256_mask_madd52lo_epu64(c.0, UPPER, o.0, up[p + 1].0)));
            rows(&mut t, p, p + 2, (e, o), a, up, top);
        }
        // Doubled, with the diagonal a_i² in vector i: its low half in the
        // lower lanes, its high half in the upper ones (the other half of
        // each operand cleared).
        let (lower, upper) = (
            Y::load(&[MASK, MASK, 0, 0, 0, 0, 0, 0]),
            Y::load(&[0, 0, MASK, MASK, 0, 0, 0, 0]),
        );
        for (p, &v) in a.iter().enumerate() {
            let (e, o) = digits(v);
            for (c, d) in [(2 * p, e), (2 * p + 1, o)] {
                let x = t.get(c);
                t.set(
                    c,
                    Y::madd_hi(Y::madd_lo(Y::add(x, x), d, Y::and(d, lower)), d, Y::and(d, upper)),
                );
            }
        }
        // SAFETY: every column was written above.
        montgomery(&mut wide, k)
    }
}
