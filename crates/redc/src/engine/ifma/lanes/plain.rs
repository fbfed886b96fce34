//! For the kernels' unit tests: [`Plain`], four lanes in plain integers
//! that count their multiply-adds and check that no column reaches
//! `2^62` (the kernels' stated bound), so that the IFMA kernels' code runs
//! as written on any CPU, against num-bigint, and the multiply-adds that
//! `Layout::madds` and `Layout::square_madds` state for the vertical
//! layouts are counted on it (the horizontal kernels, written with AVX-512
//! instructions, state counts read from their code); and the oracle of the
//! horizontal kernels' carry passes, [`rippled`].
#![allow(unsafe_code)]

use super::{DIGIT, LANES, MASK, V, Vector};
use crate::testing::Rng;
use core::cell::Cell;
use num_bigint::BigUint;

std::thread_local! {
    /// Multiply-adds made by [`Plain`] on this thread.
    static MADDS: Cell<usize> = const { Cell::new(0) };
}

/// Four lanes of 64-bit integers.
#[derive(Clone, Copy, Default)]
pub(super) struct Plain(pub(super) [u64; 4]);

/// `f()` and the multiply-adds it made.
pub(super) fn counted<T>(f: impl FnOnce() -> T) -> (T, usize) {
    MADDS.with(|c| c.set(0));
    let out = f();
    (out, MADDS.with(Cell::get))
}

/// Lane `l` of `x[l]` as `D` digits of 52 bits. Pre: each below `2^(52·D)`.
pub(super) fn digits<const D: usize>(x: &[BigUint; 4]) -> [V<Plain>; D] {
    let x = x.clone().map(|x| x.to_u64_digits());
    core::array::from_fn(|j| {
        V(Plain(core::array::from_fn(|l| {
            crate::nat::limbs::window(&x[l], j * DIGIT, DIGIT)
        })))
    })
}

/// The columns `cols` (64-bit sums of 52-bit pieces) carried in sequence,
/// every digit below `2^52`, the carry out of the top dropped: the oracle
/// of the horizontal kernels' carry passes.
pub(super) fn rippled(cols: &[u64]) -> Vec<u64> {
    let mut carry = 0u128;
    cols.iter()
        .map(|&c| {
            let t = u128::from(c) + carry;
            carry = t >> 52;
            (t as u64) & MASK
        })
        .collect()
}

/// The lanes of `D` digits as numbers.
pub(super) fn value<const D: usize>(x: &[V<Plain>; D]) -> [BigUint; 4] {
    core::array::from_fn(|l| x.iter().rev().fold(BigUint::ZERO, |acc, v| (acc << DIGIT) + v.0.0[l]))
}

impl Plain {
    /// Four different odd moduli with `4n < 2^(52·D)` (the largest, one
    /// of the top bit only plus one, two pseudo-random ones from `seed`),
    /// and their `k0 = -n^-1 mod 2^52`.
    pub(super) fn modulus<const D: usize>(seed: u64) -> ([BigUint; 4], V<Plain>) {
        let bits = DIGIT * D - 2;
        let top = BigUint::from(1u8) << (bits - 1);
        let rng = &mut Rng(seed + 1);
        let n = [
            (BigUint::from(1u8) << bits) - 1u8,
            &top + 1u8,
            rng.bits(bits) | &top | BigUint::from(1u8),
            rng.bits(bits - 7) | BigUint::from(1u8),
        ];
        let k0 = n.clone().map(|n| {
            let n0 = n.to_u64_digits()[0];
            crate::kernel::neg_inv(n0, DIGIT as u32)
        });
        (n, V(Plain(k0)))
    }

    /// A value below `2n` in each lane, of a kind that moves one lane on
    /// with `seed` (so that every modulus of [`Plain::modulus`] meets every
    /// kind): `2n - 1`, `0`, `n - 1` or a pseudo-random one.
    pub(super) fn below(n: &[BigUint; 4], seed: u64) -> [BigUint; 4] {
        let rng = &mut Rng(seed + 7);
        core::array::from_fn(|l| match (l as u64 + seed) % 4 {
            0 => 2u8 * &n[l] - 1u8,
            1 => BigUint::ZERO,
            2 => &n[l] - 1u8,
            _ => rng.below(&(2u8 * &n[l])),
        })
    }

    fn map2(a: Self, b: Self, f: impl Fn(u64, u64) -> u64) -> Self {
        Plain(core::array::from_fn(|l| f(a.0[l], b.0[l])))
    }

    fn madd(acc: Self, a: Self, b: Self, hi: bool) -> Self {
        MADDS.with(|c| c.set(c.get() + 1));
        Plain(core::array::from_fn(|l| {
            let p = u128::from(a.0[l] & MASK) * u128::from(b.0[l] & MASK);
            bounded(acc.0[l].wrapping_add(if hi { (p >> DIGIT) as u64 } else { p as u64 & MASK }))
        }))
    }
}

/// `x`, checked below `2^62`: the bound the kernels state for their
/// columns (a sum that reached it would be on its way to wrapping).
fn bounded(x: u64) -> u64 {
    assert!(x < 1 << 62, "a column reached 2^62: {x:#x}");
    x
}

// SAFETY (every method): plain integer arithmetic, no CPU feature.
impl Vector for Plain {
    const LANES: usize = 4;
    unsafe fn splat(x: u64) -> Self {
        Plain([x; 4])
    }
    unsafe fn load(x: &[u64; LANES]) -> Self {
        Plain(core::array::from_fn(|l| x[l]))
    }
    unsafe fn store(self) -> [u64; LANES] {
        core::array::from_fn(|l| self.0.get(l).copied().unwrap_or(0))
    }
    unsafe fn add(a: Self, b: Self) -> Self {
        Plain::map2(a, b, |x, y| bounded(x.wrapping_add(y)))
    }
    unsafe fn sub(a: Self, b: Self) -> Self {
        Plain::map2(a, b, u64::wrapping_sub)
    }
    unsafe fn and(a: Self, b: Self) -> Self {
        Plain::map2(a, b, |x, y| x & y)
    }
    unsafe fn andnot(a: Self, b: Self) -> Self {
        Plain::map2(a, b, |x, y| !x & y)
    }
    unsafe fn shr52(a: Self) -> Self {
        Plain(a.0.map(|x| x >> 52))
    }
    unsafe fn shr63(a: Self) -> Self {
        Plain(a.0.map(|x| x >> 63))
    }
    unsafe fn madd_lo(acc: Self, a: Self, b: Self) -> Self {
        Plain::madd(acc, a, b, false)
    }
    unsafe fn madd_hi(acc: Self, a: Self, b: Self) -> Self {
        Plain::madd(acc, a, b, true)
    }
    unsafe fn eq(a: Self, b: Self) -> u8 {
        (0..4).fold(0, |m, l| m | (u8::from(a.0[l] == b.0[l]) << l))
    }
    unsafe fn blend(mask: u8, a: Self, b: Self) -> Self {
        Plain(core::array::from_fn(
            |l| if mask >> l & 1 == 1 { a.0[l] } else { b.0[l] },
        ))
    }
}
