//! Digit primitives of the scalar backend and the operand sizes its kernels
//! are compiled for.
//!
//! Every kernel is written once over a [`Size`]: [`Fixed<N>`] makes the digit
//! count a compile-time constant (loop bounds known, bounds checks gone,
//! operands in `[u64; N]` arrays), [`Dyn`] takes it at run time for every
//! other modulus length.

use subtle::{Choice, ConditionallySelectable};
use zeroize::Zeroize;

/// The number of 64-bit digits `s` of the operands, and the buffers that hold
/// an `s`-digit residue and the `2s`-digit scratch of a product.
pub(super) trait Size: Copy {
    /// `s` digits.
    type Buf: AsRef<[u64]> + AsMut<[u64]> + Clone + Zeroize;
    /// `2s` digits, contiguous (see [`Size::wide_mut`]).
    type Wide: Zeroize;
    /// `s`.
    fn len(self) -> usize;
    /// `s` zero digits.
    fn buf(self) -> Self::Buf;
    /// `2s` zero digits.
    fn wide(self) -> Self::Wide;
    /// The `2s` digits of `w` as one slice.
    fn wide_mut(w: &mut Self::Wide) -> &mut [u64];
}

/// `N` digits, known when compiling.
#[derive(Debug, Clone, Copy)]
pub(super) struct Fixed<const N: usize>;

impl<const N: usize> Size for Fixed<N> {
    type Buf = [u64; N];
    type Wide = [[u64; N]; 2];
    #[inline(always)]
    fn len(self) -> usize {
        N
    }
    fn buf(self) -> [u64; N] {
        [0; N]
    }
    fn wide(self) -> [[u64; N]; 2] {
        [[0; N]; 2]
    }
    #[inline(always)]
    fn wide_mut(w: &mut [[u64; N]; 2]) -> &mut [u64] {
        w.as_flattened_mut()
    }
}

/// Any number of digits (`>= 1`), known at run time.
#[derive(Debug, Clone, Copy)]
pub(super) struct Dyn(pub(super) usize);

impl Size for Dyn {
    type Buf = Vec<u64>;
    type Wide = Vec<u64>;
    #[inline(always)]
    fn len(self) -> usize {
        self.0
    }
    fn buf(self) -> Vec<u64> {
        vec![0; self.0]
    }
    fn wide(self) -> Vec<u64> {
        vec![0; 2 * self.0]
    }
    #[inline(always)]
    fn wide_mut(w: &mut Vec<u64>) -> &mut [u64] {
        w
    }
}

/// `(S, C) := t + a·b + c` (the inner step of every schedule in
/// 000_be478b6750af4540.txt Fig. 3): low and high digit. Never overflows:
/// `(2^64 - 1) + (2^64 - 1)^2 + (2^64 - 1) = 2^128 - 1`.
#[inline(always)]
pub(super) fn mac(t: u64, a: u64, b: u64, c: u64) -> (u64, u64) {
    let w = u128::from(t) + u128::from(a) * u128::from(b) + u128::from(c);
    (w as u64, (w >> 64) as u64)
}

/// `a + b + c` for digits `a`, `b`, `c`: low digit and carry (`<= 2`).
#[inline(always)]
pub(super) fn add3(a: u64, b: u64, c: u64) -> (u64, u64) {
    let w = u128::from(a) + u128::from(b) + u128::from(c);
    (w as u64, (w >> 64) as u64)
}

/// Step 4 of 000 Fig. 2, branch-free: `out := u - n` if `u >= n`, else
/// `out := u`, for `u = hi·2^(64s) + t`.
///
/// Pre: `out`, `t`, `n` have `s` digits; `hi` in {0, 1}; `u < 2n`.
/// Post: `out = u mod n < n`. The subtraction always runs; the choice
/// between `t` and `t - n` is a mask, not a branch.
#[inline(always)]
pub(super) fn sub_if_not_less(out: &mut [u64], t: &[u64], hi: u64, n: &[u64]) {
    let mut borrow = false;
    for ((o, &x), &y) in out.iter_mut().zip(t).zip(n) {
        let (d, b1) = x.overflowing_sub(y);
        let (d, b2) = d.overflowing_sub(u64::from(borrow));
        *o = d;
        borrow = b1 | b2;
    }
    // u < n exactly when the subtraction borrowed and there is no top digit.
    let keep_t = Choice::from((u64::from(borrow) & !hi & 1) as u8);
    for (o, &x) in out.iter_mut().zip(t) {
        *o = u64::conditional_select(o, &x, keep_t);
    }
}
