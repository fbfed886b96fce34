//! The final subtraction of every Montgomery product in redc: Step 4 of
//! 000_be478b6750af4540.txt Fig. 2, line 6 of 001_24b3bbce8c558126.txt
//! Alg. 1, branch-free.

use super::limb::Limb;
use super::meter::{self, Meter};

/// `out := u - n` if `u >= n`, else `out := u`, for `u = top·R + u_digits`
/// with `R = 2^(digit width · s)`, in every lane.
///
/// Pre: `out`, `u`, `n` have `s` digits; `top` is 0 or 1 per lane;
/// `u < 2n`. Post: `out = u mod n < n`.
///
/// Constant time: the subtraction always runs, and the choice between `u`
/// and `u - n` is a mask (behind an optimisation barrier), not a branch.
/// Metered: `s` additions, `4s` digit loads and `2s` stores.
#[inline(always)]
pub fn sub_if_not_less<L: Limb, M: Meter>(m: &M, out: &mut [L], u: &[L], top: L, n: &[L]) {
    let s = n.len();
    let mut borrow = L::zero();
    for j in 0..s {
        let (d, b) = L::sub_borrow(meter::ld(m, u, j), meter::ld(m, n, j), borrow);
        m.add(1);
        meter::st(m, out, j, d);
        borrow = b;
    }
    // u < n exactly when the subtraction borrowed and there is no top digit.
    let keep_u = core::hint::black_box(L::borrow_without_top(borrow, top));
    for j in 0..s {
        let v = L::select(keep_u, meter::ld(m, u, j), meter::ld(m, out, j));
        meter::st(m, out, j, v);
    }
}
