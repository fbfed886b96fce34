//! One digit position of a residue in every lane of a kernel: a machine
//! word (one lane: the teaching digits `u8`..`u64` and the scalar kernels'
//! `u64`) or a SIMD vector holding that digit of several numbers (the IFMA
//! lanes). The final subtraction and the table select are written once over
//! [`Limb`].

use crate::word::Word;
use subtle::Choice;
use zeroize::Zeroize;

/// The few digit operations the shared constant-time code needs, per lane.
///
/// Every method is branch-free in the values.
pub trait Limb: Copy + Zeroize {
    /// A per-lane selection mask.
    type Mask: Copy + Default + Zeroize;
    /// A per-lane table index (a window digit of each lane's exponent).
    type Index: Copy;
    /// Digits the table select gathers per pass, in registers.
    const CHUNK: usize;

    /// The digit 0 in every lane.
    fn zero() -> Self;
    /// `a - b - borrow` per lane, for `borrow` in {0, 1}: the difference
    /// digit and the borrow out (0 or 1).
    fn sub_borrow(a: Self, b: Self, borrow: Self) -> (Self, Self);
    /// The mask of the lanes where `borrow` is 1 and `top` is 0 (both in
    /// {0, 1} per lane): where `top·R + u - n` went negative, so `u < n`.
    fn borrow_without_top(borrow: Self, top: Self) -> Self::Mask;
    /// `a` in the lanes of `mask`, `b` in the others.
    fn select(mask: Self::Mask, a: Self, b: Self) -> Self;
    /// The mask of the lanes whose index is `v`.
    fn index_is(v: u64, idx: Self::Index) -> Self::Mask;
    /// `x` in the lanes of `mask`, `acc` in the others. Pre: `acc` is zero
    /// in the lanes of `mask` (a word may OR `x` in).
    fn pick(acc: Self, x: Self, mask: Self::Mask) -> Self;
}

impl<W: Word> Limb for W {
    type Mask = W;
    type Index = u64;
    const CHUNK: usize = 8;

    #[inline(always)]
    fn zero() -> Self {
        W::ZERO
    }

    #[inline(always)]
    fn sub_borrow(a: Self, b: Self, borrow: Self) -> (Self, Self) {
        W::sbb(a, b, borrow)
    }

    #[inline(always)]
    fn borrow_without_top(borrow: Self, top: Self) -> W {
        W::mask(Choice::from((borrow & !top).to_u64() as u8 & 1))
    }

    #[inline(always)]
    fn select(mask: W, a: Self, b: Self) -> Self {
        (a & mask) | (b & !mask)
    }

    #[inline(always)]
    fn index_is(v: u64, idx: u64) -> W {
        // x = v ^ idx is zero only for v = idx; for any other x, x | -x has
        // its top bit set. Arithmetic only, as subtle's ct_eq; callers put
        // the masks behind an optimisation barrier before use.
        let x = v ^ idx;
        W::from_u64_truncate(((x | x.wrapping_neg()) >> 63).wrapping_sub(1))
    }

    #[inline(always)]
    fn pick(acc: Self, x: Self, mask: W) -> Self {
        acc | (x & mask)
    }
}
