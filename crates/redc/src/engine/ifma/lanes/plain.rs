//! For the kernels' unit tests: [`Plain`], four lanes in plain integers
//! that count their multiply-adds, so that the IFMA kernels' code runs as
//! written on any CPU, against num-bigint, and the multiply-adds that
//! `Layout::madds` and `Layout::square_madds` state are counted on it.
#![allow(unsafe_code)]

use super::{DIGIT, LANES, MASK, V, Vector};
use core::cell::Cell;
use num_bigint::BigUint;

std::thread_local! {
    /// Multiply-adds made by [`Plain`] on this thread.
    static MADDS: Cell<usize> = const { Cell::new(0) };
}

/// Four lanes of 64-bit integers.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
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
        let n = [
            (BigUint::from(1u8) << bits) - 1u8,
            &top + 1u8,
            Plain::pseudo(bits, seed) | &top | BigUint::from(1u8),
            Plain::pseudo(bits - 7, seed ^ 0x5555) | BigUint::from(1u8),
        ];
        let k0 = n.clone().map(|n| {
            let n0 = n.to_u64_digits()[0];
            crate::kernel::neg_inv(n0, DIGIT as u32)
        });
        (n, V(Plain(k0)))
    }

    /// A value below `2n` in each lane: `2n - 1`, `0`, `n - 1` and a
    /// pseudo-random one from `seed`.
    pub(super) fn below(n: &[BigUint; 4], seed: u64) -> [BigUint; 4] {
        [
            2u8 * &n[0] - 1u8,
            BigUint::ZERO,
            &n[2] - 1u8,
            Plain::pseudo(n[3].bits() as usize + 1, seed) % (2u8 * &n[3]),
        ]
    }

    /// A pseudo-random number of at most `bits` bits (xorshift from `seed`).
    pub(super) fn pseudo(bits: usize, seed: u64) -> BigUint {
        let mut s = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        let words: Vec<u64> = (0..bits.div_ceil(64))
            .map(|_| {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                s
            })
            .collect();
        BigUint::from_slice(
            &words
                .iter()
                .flat_map(|w| [*w as u32, (*w >> 32) as u32])
                .collect::<Vec<_>>(),
        ) % (BigUint::from(1u8) << bits)
    }

    fn map2(a: Self, b: Self, f: impl Fn(u64, u64) -> u64) -> Self {
        Plain(core::array::from_fn(|l| f(a.0[l], b.0[l])))
    }

    fn madd(acc: Self, a: Self, b: Self, hi: bool) -> Self {
        MADDS.with(|c| c.set(c.get() + 1));
        Plain(core::array::from_fn(|l| {
            let p = u128::from(a.0[l] & MASK) * u128::from(b.0[l] & MASK);
            acc.0[l].wrapping_add(if hi { (p >> DIGIT) as u64 } else { p as u64 & MASK })
        }))
    }
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
        Plain::map2(a, b, u64::wrapping_add)
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
