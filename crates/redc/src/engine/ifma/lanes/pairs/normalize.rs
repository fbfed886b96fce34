//! The carry pass of the 2-way kernel's products and squarings: their
//! columns are 64-bit sums of 52-bit pieces until the end, where this moves
//! the carries up, with a carry-lookahead on bit masks (one bit per digit)
//! for the carries that ripple, in constant time.
#![allow(unsafe_code)]

use super::MAX_DIGITS;
use crate::engine::ifma::lanes::{MASK, Vector, Y};
use core::arch::x86_64::{
    _mm256_alignr_epi64, _mm256_cmpeq_epi64_mask, _mm256_cmpgt_epu64_mask, _mm256_mask_add_epi64, _mm256_set1_epi64x,
};

/// Carries out of 64-bit columns, so every digit is below `2^52`, in
/// constant time. One pass moves each column's excess to the next digit
/// (two lanes up); then a digit is above `2^52 - 1` by at most one carry,
/// and the carries that ripple through digits equal to `2^52 - 1` are found
/// at once on bit masks (lane `4k + l` is bit `4k + l`): `c = ((g << 2) +
/// p) ^ p` per half, with the other half's bits set in `p` so that a carry
/// steps over them. Pre: each half fits in `2H` digits; `2H <= MAX_DIGITS`.
///
/// # Safety
///
/// The CPU must have AVX-512F, VL and IFMA (callers hold a `Token`).
#[inline(always)]
pub(super) unsafe fn normalize<const H: usize>(acc: &mut [Y; H]) {
    let h = H;
    // SAFETY: the caller's contract: the CPU has AVX-512F, VL and IFMA.
    unsafe {
        let mask = _mm256_set1_epi64x(MASK as i64);
        let mut below = Y::default().0;
        for v in acc.iter_mut().take(h) {
            let c = Y::shr52(*v).0;
            *v = Y::and(*v, Y(mask));
            *v = Y::add(*v, Y(_mm256_alignr_epi64::<2>(c, below)));
            below = c;
        }
        let (mut g, mut p) = (Bits::default(), Bits::default());
        for (k, v) in acc.iter().take(h).enumerate() {
            g.insert(4 * k, _mm256_cmpgt_epu64_mask(v.0, mask));
            p.insert(4 * k, _mm256_cmpeq_epi64_mask(v.0, mask));
        }
        let c = g.carries(p);
        let one = _mm256_set1_epi64x(1);
        for (k, v) in acc.iter_mut().take(h).enumerate() {
            let m = c.nibble(4 * k);
            *v = Y::and(Y(_mm256_mask_add_epi64(v.0, m, v.0, one)), Y(mask));
        }
    }
}

/// One bit per lane of a pair's vectors (lane `4k + l` is bit `4k + l`),
/// in little-endian words: the carry masks of [`normalize`].
#[derive(Clone, Copy, Default)]
struct Bits([u64; BITS_WORDS]);

/// Words of [`Bits`]: one bit per lane of `MAX_DIGITS / 2` vectors.
const BITS_WORDS: usize = (2 * MAX_DIGITS).div_ceil(64);

impl Bits {
    /// Set the four bits from `at` (a multiple of 4) to `nibble`'s.
    #[inline(always)]
    fn insert(&mut self, at: usize, nibble: u8) {
        self.0[at / 64] |= u64::from(nibble & 0xf) << (at % 64);
    }

    /// The four bits from `at` (a multiple of 4).
    #[inline(always)]
    fn nibble(&self, at: usize) -> u8 {
        ((self.0[at / 64] >> (at % 64)) & 0xf) as u8
    }

    /// `op` of the words of `self` and `other`, word by word.
    #[inline(always)]
    fn zip(self, other: Bits, op: impl Fn(u64, u64) -> u64) -> Bits {
        Bits(core::array::from_fn(|i| op(self.0[i], other.0[i])))
    }

    /// Every bit flipped.
    #[inline(always)]
    fn not(self) -> Bits {
        Bits(self.0.map(|x| !x))
    }

    /// `self·4 + other`, dropping what leaves the top word (a carry out of
    /// the last lane of the pair).
    #[inline(always)]
    fn shl2_add(self, other: Bits) -> Bits {
        let mut out = Bits::default();
        let (mut below, mut carry) = (0u64, false);
        for i in 0..BITS_WORDS {
            let shifted = (self.0[i] << 2) | (below >> 62);
            below = self.0[i];
            let (s, c1) = shifted.overflowing_add(other.0[i]);
            let (s, c2) = s.overflowing_add(u64::from(carry));
            out.0[i] = s;
            carry = c1 | c2;
        }
        out
    }

    /// The lanes that take a carry, from those that make one (`g`, here
    /// `self`) and those that pass one on (`p`, digits equal to `2^52 -
    /// 1`), each number separately (its digits are every other lane):
    /// `((g << 2) + p) ^ p` with the other number's bits set in `p`, so that
    /// a carry steps over them.
    #[inline(always)]
    fn carries(self, p: Bits) -> Bits {
        let even = Bits([0x5555_5555_5555_5555; BITS_WORDS]);
        let carry_in = |half: Bits| {
            let pp = p.zip(half, |x, y| x & y).zip(half.not(), |x, y| x | y);
            let g = self.zip(half, |x, y| x & y);
            g.shl2_add(pp).zip(pp, |x, y| x ^ y).zip(half, |x, y| x & y)
        };
        carry_in(even).zip(carry_in(even.not()), |x, y| x | y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::ifma::lanes::{Token, plain};

    /// [`normalize`] on columns `cols[half][digit]` (`2H` digits a half).
    #[target_feature(enable = "avx512f,avx512vl,avx512ifma")]
    fn normalized<const H: usize>(cols: &[Vec<u64>; 2]) -> [Vec<u64>; 2] {
        // SAFETY: this function runs only with AVX-512F, VL and IFMA.
        unsafe {
            let mut acc: [Y; H] = core::array::from_fn(|k| {
                Y::load(&[
                    cols[0][2 * k],
                    cols[1][2 * k],
                    cols[0][2 * k + 1],
                    cols[1][2 * k + 1],
                    0,
                    0,
                    0,
                    0,
                ])
            });
            normalize(&mut acc);
            let mut out = [vec![0u64; 2 * H], vec![0u64; 2 * H]];
            for (k, v) in acc.iter().enumerate() {
                let l = v.store();
                (out[0][2 * k], out[1][2 * k], out[0][2 * k + 1], out[1][2 * k + 1]) = (l[0], l[1], l[2], l[3]);
            }
            out
        }
    }

    /// The sequential carry of each half ([`plain::rippled`]).
    fn rippled(cols: &[Vec<u64>; 2]) -> [Vec<u64>; 2] {
        cols.clone().map(|half| plain::rippled(&half))
    }

    /// Carries that ripple through digits equal to `2^52 - 1`, across
    /// vectors, in one half and not the other (digit 0 generates a carry
    /// that runs up to digit 7), and large columns; at 80 digits, carries
    /// that cross the words of [`Bits`] (lanes 64 and 128: digits 32 and
    /// 64).
    #[test]
    fn carries_ripple_through_full_digits() {
        if Token::detect().is_none() {
            return;
        }
        let cases: [[[u64; 8]; 2]; 3] = [
            [
                [1 << 52, MASK, MASK, MASK, MASK, MASK, MASK, 5],
                [7, MASK, MASK, 1, 2, 3, 4, 5],
            ],
            [
                [MASK, MASK << 4, MASK, MASK, 3 << 52, MASK, MASK, 0],
                [1 << 60, MASK, 0, MASK, MASK, MASK, MASK, 9],
            ],
            [[0; 8], [MASK; 8]],
        ];
        for cols in cases {
            let cols = cols.map(|half| half.to_vec());
            // SAFETY: the token was detected above.
            assert_eq!(unsafe { normalized::<4>(&cols) }, rippled(&cols), "{cols:x?}");
        }
        // A carry made at digit 31 (lane 62) or 63 (lane 127), at the top of
        // a word, rippling on; and one from digit 0 through every digit.
        let mut at_words = [vec![7; 80], vec![9; 80]];
        at_words[0][30] = 1 << 52;
        at_words[0][31..40].fill(MASK);
        at_words[1][62] = 1 << 52;
        at_words[1][63..70].fill(MASK);
        let mut through = [vec![MASK; 80], vec![MASK; 80]];
        through[0][0] = 1 << 52;
        through[1][31] = 5 << 52;
        through[1][70] = 4;
        for wide in [at_words, through] {
            // SAFETY: the token was detected above.
            assert_eq!(unsafe { normalized::<40>(&wide) }, rippled(&wide));
        }
    }
}
