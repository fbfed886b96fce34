//! The almost-Montgomery product of the IFMA lanes, one number per lane:
//! Koç's CIOS (000_be478b6750af4540.txt §2.2) with carries left in the
//! 64-bit accumulators until the end (the carry-save idea of
//! 003_4c508dab9c4d2fd2.txt, one level up) and without the final
//! subtraction (004_b65c74827168229f.txt Alg. 1). Its unit test counts the
//! multiply-adds that `Layout::madds` states.
#![allow(unsafe_code)]

use super::{MASK, V, Vector};

/// Almost-Montgomery product `a·b·R^-1 mod n`, `R = 2^(52·D)`, per lane.
///
/// Pre: digits of `a`, `b`, `n` below `2^52`; `a, b < 2n`; `4n < R`; `n` odd;
/// `k0 = -n^-1 mod 2^52`. Post: digits below `2^52`, value `< 2n` and
/// `≡ a·b·R^-1 (mod n)`.
///
/// CIOS with lazy carries: `acc[j]` holds a running column as a 64-bit sum
/// of 52-bit pieces. Step `i` first finds `m = (acc[0] + a_i·b_0)·k0 mod
/// 2^52`, the multiple of `n` that clears the lowest digit, then makes one
/// pass that adds `a_i·b` and `m·n` (low halves to their own column, high
/// halves one column up) while dropping the cleared digit and moving its
/// carry up. One pass per step keeps each accumulator to one load and one
/// store when `D` exceeds the register file. A column takes at most four
/// pieces per step, so it stays below `4·D·2^52 < 2^62` for `D <= 160`;
/// carries are normalised once, at the end.
///
/// Always inlined, into the functions compiled with AVX-512 that run the
/// exponentiation (the kernel's `mul` and `sqr` inline into them too): one
/// copy per call site, each scheduled with its neighbours, and no call.
///
/// # Safety
///
/// The CPU must have AVX-512F, VL and IFMA (callers hold a [`Token`]).
#[inline(always)]
pub(super) unsafe fn amm<W: Vector, const D: usize>(
    a: &[V<W>; D],
    b: &[V<W>; D],
    n: &[V<W>; D],
    k0: V<W>,
) -> [V<W>; D] {
    // SAFETY: the caller's contract: the CPU has AVX-512F, VL and IFMA.
    unsafe {
        let zero = W::default();
        let mut acc = [zero; D];
        for &V(ai) in a {
            let t0 = W::madd_lo(acc[0], ai, b[0].0);
            let m = W::madd_lo(zero, t0, k0.0);
            let carry = W::shr52(W::madd_lo(t0, m, n[0].0));
            for j in 0..D - 1 {
                let x = W::madd_hi(W::madd_lo(acc[j + 1], ai, b[j + 1].0), ai, b[j].0);
                acc[j] = W::madd_hi(W::madd_lo(x, m, n[j + 1].0), m, n[j].0);
            }
            acc[D - 1] = W::madd_hi(W::madd_hi(zero, ai, b[D - 1].0), m, n[D - 1].0);
            acc[0] = W::add(acc[0], carry);
        }
        normalize(&mut acc);
        acc.map(V)
    }
}

/// Propagate carries so every digit is below `2^52`. Pre: the value fits
/// in `D` digits.
///
/// # Safety
///
/// As [`amm`], which it is inlined into.
#[inline(always)]
pub(super) unsafe fn normalize<W: Vector, const D: usize>(acc: &mut [W; D]) {
    // SAFETY: the caller's contract: the CPU has AVX-512F, VL and IFMA.
    unsafe {
        let mask = W::splat(MASK);
        let mut carry = W::default();
        for digit in acc.iter_mut() {
            let t = W::add(*digit, carry);
            carry = W::shr52(t);
            *digit = W::and(t, mask);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::ifma::Layout;
    use crate::engine::ifma::lanes::plain::{Plain, counted, digits};

    /// One vertical product of `D` digits makes the multiply-adds
    /// [`Layout::madds`] states for the vertical layouts (the count does
    /// not depend on the values).
    fn count<const D: usize>() {
        let (n, k0) = Plain::modulus::<D>(3);
        let a = digits::<D>(&Plain::below(&n, 5));
        // SAFETY: `Plain` needs no CPU feature.
        let (out, madds) = counted(|| unsafe { amm(&a, &a, &digits(&n), k0) });
        assert_eq!(madds, Layout::Four.madds(D), "{D} digits");
        assert_eq!(madds, Layout::Eight.madds(D), "{D} digits");
        assert!(out.iter().all(|v| v.0.0.iter().all(|&d| d <= MASK)), "{D} digits");
    }

    #[test]
    fn vertical_products_make_the_counted_multiply_adds() {
        count::<10>();
        count::<20>();
        count::<40>();
        count::<160>();
    }
}
