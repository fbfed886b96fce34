//! The almost-Montgomery squaring of the IFMA lanes, one number per lane:
//! the square's cross products once each, then Montgomery's reduction, the
//! separated operand scanning (SOS) of Koç (000_be478b6750af4540.txt §2.2),
//! with carries left in the 64-bit columns (the carry-save idea of
//! 003_4c508dab9c4d2fd2.txt) and no final subtraction
//! (004_b65c74827168229f.txt Alg. 1). It makes `3·D² + D` multiply-adds
//! where the product makes `4·D² + D`.
//!
//! Both passes take two rows at a time, so that each column they touch
//! takes four multiply-adds for one load and one store of its accumulator
//! and one load of a digit, as the product's step does, and each column's
//! four form a chain independent of its neighbours'. (Two earlier forms
//! were slower than the product: one row at a time with the columns in
//! memory, and each column summed in registers as one dependent chain.)
#![allow(unsafe_code)]

use super::product::normalize;
use super::{MASK, V, Vector};
use core::mem::MaybeUninit;

/// Almost-Montgomery square `a·a·R^-1 mod n`, `R = 2^(52·D)`, per lane.
///
/// Pre: `D` even and at least 4 (checked at compile time); digits of `a`
/// and `n` below `2^52`; `a < 2n`; `4n < R`;
/// `n` odd; `k0 = -n^-1 mod 2^52`. Post: digits below `2^52`, value `< 2n`
/// and `≡ a·a·R^-1 (mod n)` (the product's contract with `b = a`).
///
/// The `2·D` columns `t` are 64-bit sums of 52-bit pieces: at most `D`
/// cross pieces, doubled, one of the diagonal and `2·D` of the reduction,
/// with one carry: below `(4·D + 3)·2^52 < 2^62` for `D <= 160`. Each
/// column is written before it is read (no clearing of the `2·D`
/// columns), and the operands are read in place.
///
/// # Safety
///
/// The CPU must have AVX-512F, VL and IFMA (callers hold a `Token`).
#[inline(always)]
pub(super) unsafe fn ams<W: Vector, const D: usize>(a: &[V<W>; D], n: &[V<W>; D], k0: V<W>) -> [V<W>; D] {
    const { assert!(D.is_multiple_of(2) && D >= 4, "an even digit count, at least 4") };
    // SAFETY: the caller's contract: the CPU has AVX-512F, VL and IFMA;
    // `V<W>` is `repr(transparent)` over `W`, so the casts keep the layout.
    unsafe {
        let a = &*core::ptr::from_ref(a).cast::<[W; D]>();
        let n = &*core::ptr::from_ref(n).cast::<[W; D]>();
        let mut wide = [[MaybeUninit::<W>::uninit(); D]; 2];
        let mut t = Cols(wide.as_flattened_mut());
        cross(a, &mut t, 0);
        for i in (2..D).step_by(2) {
            cross(a, &mut t, i);
        }
        // Doubled, with the diagonal; columns 0 and 2·D - 1 take no cross
        // product.
        let zero = W::default();
        for (i, &ai) in a.iter().enumerate() {
            let low = if i == 0 { zero } else { t.get(2 * i) };
            let high = if i == D - 1 { zero } else { t.get(2 * i + 1) };
            t.set(2 * i, W::madd_lo(W::add(low, low), ai, ai));
            t.set(2 * i + 1, W::madd_hi(W::add(high, high), ai, ai));
        }
        reduce(n, k0.0, &mut t);
        // Columns D to 2·D - 1, every one written by the reduction.
        let mut out = core::ptr::from_ref(&wide[1]).cast::<[V<W>; D]>().read();
        normalize(&mut *core::ptr::from_mut(&mut out).cast::<[W; D]>());
        out
    }
}

/// The `2·D` columns of a square, each written before it is read.
pub(super) struct Cols<'a, W>(pub(super) &'a mut [MaybeUninit<W>]);

impl<W: Vector> Cols<'_, W> {
    /// Column `c`.
    ///
    /// # Safety
    ///
    /// Column `c` was written.
    #[inline(always)]
    pub(super) unsafe fn get(&self, c: usize) -> W {
        // SAFETY: the caller's contract.
        unsafe { self.0[c].assume_init() }
    }

    #[inline(always)]
    pub(super) fn set(&mut self, c: usize, v: W) {
        self.0[c].write(v);
    }
}

/// `t += Σ a_i·a_j·2^(52·(i+j))` over the rows `i` and `i + 1` of the
/// pairs `i < j` (`i` even), in one pass: column `c` takes `a_i·a_(c-i)`
/// (low half), `a_i·a_(c-i-1)` and `a_(i+1)·a_(c-i-1)` (high, low) and
/// `a_(i+1)·a_(c-i-2)` (high), where those pairs exist. Columns `i + D` and
/// `i + D + 1` are new to this pass (every column is, for `i = 0`): they
/// are written, not added to.
///
/// # Safety
///
/// As [`ams`], which it is inlined into; the passes run for `i = 0, 2, …`
/// in order.
#[inline(always)]
unsafe fn cross<W: Vector, const D: usize>(a: &[W; D], t: &mut Cols<'_, W>, i: usize) {
    // SAFETY: the caller's contract: the CPU has AVX-512F, VL and IFMA; a
    // column is read only after an earlier pass wrote it.
    unsafe {
        let zero = W::default();
        let first = i == 0;
        let old = |t: &Cols<'_, W>, c: usize| if first { zero } else { t.get(c) };
        let (x, y) = (a[i], a[i + 1]);
        t.set(2 * i + 1, W::madd_lo(old(t, 2 * i + 1), x, y));
        if i + 2 == D {
            // The last pass: its column 2·i + 2 is column i + D, new.
            t.set(2 * i + 2, W::madd_hi(zero, x, y));
            return;
        }
        t.set(2 * i + 2, W::madd_lo(W::madd_hi(old(t, 2 * i + 2), x, y), x, a[i + 2]));
        let s = W::madd_lo(W::madd_hi(old(t, 2 * i + 3), x, a[i + 2]), y, a[i + 2]);
        t.set(2 * i + 3, W::madd_lo(s, x, a[i + 3]));
        let (mut p2, mut p1) = (a[i + 2], a[i + 3]);
        for (c, &aj) in (2 * i + 4..i + D).zip(&a[i + 4..]) {
            let s = W::madd_hi(
                W::madd_lo(W::madd_hi(W::madd_lo(old(t, c), x, aj), x, p1), y, p1),
                y,
                p2,
            );
            t.set(c, s);
            (p2, p1) = (p1, aj);
        }
        t.set(
            i + D,
            W::madd_hi(W::madd_lo(W::madd_hi(zero, x, a[D - 1]), y, a[D - 1]), y, a[D - 2]),
        );
        t.set(i + D + 1, W::madd_hi(zero, y, a[D - 1]));
    }
}

/// Montgomery's reduction of the `2·D` columns `t`, two digits per pass:
/// the multiples `m0`, `m1` of `n` that clear columns `i` and `i + 1`,
/// then one pass adding both, its first two columns (the next pass's `i`
/// and `i + 1`) kept in registers; the carries out of the cleared columns
/// go into column `i + 2`. The result is in `t[D..]`, carries not
/// propagated.
///
/// The chain from one pass to the next is short: a cleared column's carry
/// is read from the column itself ([`carry_out`]), not from `m·n_0`, and
/// the next pass's columns take their `m0` terms before their `m1` ones.
///
/// # Safety
///
/// As [`ams`], which it is inlined into; every column of `t` written.
#[inline(always)]
unsafe fn reduce<W: Vector, const D: usize>(n: &[W; D], k0: W, t: &mut Cols<'_, W>) {
    // SAFETY: the caller's contract: the CPU has AVX-512F, VL and IFMA;
    // every column was written.
    unsafe {
        let zero = W::default();
        let (mut carry, mut low, mut high) = (zero, t.get(0), t.get(1));
        for i in (0..D).step_by(2) {
            let t0 = W::add(low, carry);
            let m0 = W::madd_lo(zero, t0, k0);
            let t1 = W::add(
                W::madd_hi(W::add(high, carry_out(t0)), m0, n[0]),
                W::madd_lo(zero, m0, n[1]),
            );
            let m1 = W::madd_lo(zero, t1, k0);
            carry = carry_out(t1);
            let x = W::madd_hi(W::madd_lo(t.get(i + 2), m0, n[2]), m0, n[1]);
            low = W::madd_hi(W::madd_lo(x, m1, n[1]), m1, n[0]);
            let x = W::madd_hi(W::madd_lo(t.get(i + 3), m0, n[3]), m0, n[2]);
            high = W::madd_hi(W::madd_lo(x, m1, n[2]), m1, n[1]);
            let (mut p2, mut p1) = (n[2], n[3]);
            for (c, &nj) in (i + 4..i + D).zip(&n[4..]) {
                let x = W::madd_hi(W::madd_lo(t.get(c), m0, nj), m0, p1);
                t.set(c, W::madd_hi(W::madd_lo(x, m1, p1), m1, p2));
                (p2, p1) = (p1, nj);
            }
            let x = W::madd_hi(t.get(i + D), m0, n[D - 1]);
            t.set(i + D, W::madd_hi(W::madd_lo(x, m1, n[D - 1]), m1, n[D - 2]));
            t.set(i + D + 1, W::madd_hi(t.get(i + D + 1), m1, n[D - 1]));
        }
        t.set(D, W::add(low, carry));
        t.set(D + 1, high);
    }
}

/// `(c + (-c mod 2^52)) / 2^52`: what a column `c` carries up once a
/// multiple of `n` has cleared its low 52 bits (`⌊c / 2^52⌋`, plus one
/// unless those bits were zero), without waiting for that multiple.
///
/// # Safety
///
/// As [`ams`], which it is inlined into.
#[inline(always)]
pub(super) unsafe fn carry_out<W: Vector>(c: W) -> W {
    // SAFETY: the caller's contract: the CPU has AVX-512F, VL and IFMA.
    unsafe {
        let mask = W::splat(MASK);
        W::add(W::shr52(c), W::shr52(W::add(W::and(c, mask), mask)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::ifma::Layout;
    use crate::engine::ifma::lanes::DIGIT;
    use crate::engine::ifma::lanes::plain::{Plain, counted, digits, value};
    use num_bigint::BigUint;

    /// [`ams`] on four different lanes (the largest modulus, a sparse one,
    /// random ones; bases `2n - 1`, `0`, `n - 1`, random) for `seeds`
    /// pairs, against num-bigint: digits below `2^52`, value below `2n`,
    /// `≡ a²·R^-1`; and its multiply-adds as `Layout::square_madds`
    /// states.
    fn squares_like_the_oracle<const D: usize>(seeds: u64) {
        let r = BigUint::from(1u8) << (DIGIT * D);
        for seed in 0..seeds {
            let (n, k0) = Plain::modulus::<D>(seed);
            let a = Plain::below(&n, seed);
            // SAFETY: `Plain` needs no CPU feature.
            let (out, madds) = counted(|| unsafe { ams(&digits::<D>(&a), &digits(&n), k0) });
            assert_eq!(madds, Layout::Four.square_madds(D), "{D} digits");
            assert_eq!(madds, Layout::Eight.square_madds(D), "{D} digits");
            assert!(out.iter().all(|v| v.0.0.iter().all(|&d| d <= MASK)), "{D} digits");
            for (l, x) in value(&out).iter().enumerate() {
                assert!(x < &(2u8 * &n[l]), "{D} digits, lane {l}, seed {seed}");
                assert_eq!(
                    (x * &r) % &n[l],
                    (&a[l] * &a[l]) % &n[l],
                    "{D} digits, lane {l}, seed {seed}: a = {:x}, n = {:x}",
                    a[l],
                    n[l]
                );
            }
        }
    }

    #[test]
    fn vertical_squares_match_num_bigint_in_every_class() {
        squares_like_the_oracle::<10>(8);
        squares_like_the_oracle::<20>(8);
        squares_like_the_oracle::<30>(4);
        squares_like_the_oracle::<40>(4);
        squares_like_the_oracle::<60>(2);
        squares_like_the_oracle::<80>(2);
        squares_like_the_oracle::<120>(1);
        squares_like_the_oracle::<160>(1);
    }
}
