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
unsafe fn normalize<W: Vector, const D: usize>(acc: &mut [W; D]) {
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
    use crate::engine::ifma::lanes::{DIGIT, LANES};
    use core::cell::Cell;

    std::thread_local! {
        /// Multiply-adds made by [`Counted`] on this thread.
        static MADDS: Cell<usize> = const { Cell::new(0) };
    }

    /// Four lanes in plain integers that count their multiply-adds: the
    /// product's code run as written, to count what [`Layout::madds`]
    /// states.
    #[derive(Clone, Copy, Default)]
    struct Counted([u64; 4]);

    impl Counted {
        fn map2(a: Self, b: Self, f: impl Fn(u64, u64) -> u64) -> Self {
            Counted(core::array::from_fn(|l| f(a.0[l], b.0[l])))
        }
        fn madd(acc: Self, a: Self, b: Self, hi: bool) -> Self {
            MADDS.with(|c| c.set(c.get() + 1));
            Counted(core::array::from_fn(|l| {
                let p = u128::from(a.0[l] & MASK) * u128::from(b.0[l] & MASK);
                acc.0[l].wrapping_add(if hi { (p >> DIGIT) as u64 } else { p as u64 & MASK })
            }))
        }
    }

    // SAFETY (every method): plain integer arithmetic, no CPU feature.
    impl Vector for Counted {
        const LANES: usize = 4;
        unsafe fn splat(x: u64) -> Self {
            Counted([x; 4])
        }
        unsafe fn load(x: &[u64; LANES]) -> Self {
            Counted(core::array::from_fn(|l| x[l]))
        }
        unsafe fn store(self) -> [u64; LANES] {
            core::array::from_fn(|l| self.0.get(l).copied().unwrap_or(0))
        }
        unsafe fn add(a: Self, b: Self) -> Self {
            Counted::map2(a, b, u64::wrapping_add)
        }
        unsafe fn sub(a: Self, b: Self) -> Self {
            Counted::map2(a, b, u64::wrapping_sub)
        }
        unsafe fn and(a: Self, b: Self) -> Self {
            Counted::map2(a, b, |x, y| x & y)
        }
        unsafe fn andnot(a: Self, b: Self) -> Self {
            Counted::map2(a, b, |x, y| !x & y)
        }
        unsafe fn shr52(a: Self) -> Self {
            Counted(a.0.map(|x| x >> 52))
        }
        unsafe fn shr63(a: Self) -> Self {
            Counted(a.0.map(|x| x >> 63))
        }
        unsafe fn madd_lo(acc: Self, a: Self, b: Self) -> Self {
            Counted::madd(acc, a, b, false)
        }
        unsafe fn madd_hi(acc: Self, a: Self, b: Self) -> Self {
            Counted::madd(acc, a, b, true)
        }
        unsafe fn eq(a: Self, b: Self) -> u8 {
            (0..4).fold(0, |m, l| m | (u8::from(a.0[l] == b.0[l]) << l))
        }
        unsafe fn blend(mask: u8, a: Self, b: Self) -> Self {
            Counted(core::array::from_fn(
                |l| if mask >> l & 1 == 1 { a.0[l] } else { b.0[l] },
            ))
        }
    }

    /// One vertical product of `D` digits makes the multiply-adds
    /// [`Layout::madds`] states for the vertical layouts (the count does
    /// not depend on the values; these are `n = 2^(52·D - 3) + 1` and `a`
    /// of mixed digits below it).
    fn count<const D: usize>() {
        let digit = |j: usize, top: u64, low: u64| V(Counted([if j == D - 1 { top } else { low }; 4]));
        let n: [V<Counted>; D] = core::array::from_fn(|j| digit(j, 1 << (DIGIT - 3), u64::from(j == 0)));
        let a: [V<Counted>; D] = core::array::from_fn(|j| digit(j, 0, (j as u64).wrapping_mul(0x9e37_79b9) & MASK));
        // k0 = -n^-1 mod 2^52 = -1 for n ≡ 1.
        let k0 = V(Counted([MASK; 4]));
        MADDS.with(|c| c.set(0));
        // SAFETY: `Counted` needs no CPU feature.
        let out = unsafe { amm(&a, &a, &n, k0) };
        let madds = MADDS.with(Cell::get);
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
