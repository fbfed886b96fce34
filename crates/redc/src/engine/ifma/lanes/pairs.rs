//! The 2-way horizontal IFMA kernel: two exponentiations (the CRT halves of
//! one RSA operation) side by side, each spread across the lanes of 256-bit
//! vectors, as OpenSSL's `rsaz-2k-avx512` lays them out. Vector `k` holds
//! digits `2k` and `2k+1` of both numbers, `[x_2k, y_2k, x_2k+1, y_2k+1]`,
//! so a `D`-digit pair fills `D/2` vectors: below 30 digits a product is
//! `D·(4·D/2 + 4) + 1` multiply-adds for the two numbers, against `D·(4·D +
//! 1)` for up to four in the vertical layout of the parent module
//! (`Layout::madds` of `ifma.rs`). The product is the same almost-Montgomery CIOS
//! (000_be478b6750af4540.txt §2.2; no final subtraction,
//! 004_b65c74827168229f.txt Alg. 1): step `i` adds `b_i·a` and `m·n`, then
//! shifts the accumulator down one digit (two lanes). From [`SOS_DIGITS`]
//! digits on, products and squarings fill all `2·D` columns first and
//! reduce them after (`pairs/sos.rs`, `pairs/square.rs`, `pairs/reduce.rs`).
//!
//! Two things keep a step short: the high halves of `b_i·a` and `m·n` are
//! added through copies of `a` and `n` shifted up one digit (`a↑`, `n↑`), so
//! they land before the shift and do not wait for it; and the carries are
//! left in the 64-bit columns until the end of the product, where they are
//! propagated with a carry-lookahead on bit masks (one bit per digit), in
//! constant time.
//!
//! Measured on the project's Xeon (Sapphire Rapids class, one thread, with
//! 6-bit windows; `ifma.rs::window` has the figures of today's widths): two
//! secret 1024-bit exponentiations in 253 µs (1.20x faster than four
//! vertical lanes, which take 304 µs), two 2048-bit ones in 1.48 ms (2.04x:
//! at 1024 bits the end of each product, the carry pass, weighs more). The
//! step is bound by its latency, not by the multiply-adds (`4·D/2 + 4` per
//! step on two ports): `redc bench`'s per-product table measures the
//! product at 55% of the port limit at 1024 bits and 71% at 2048, where
//! four vertical lanes reach 96% at 1024.
#![allow(unsafe_code)]

use super::{DIGIT, Exponents, Horizontal, Input, LANES, Token, V, Vector, Y, exponentiate, reduce_out};
use crate::kernel::limb::Limb;
use crate::kernel::{Kernel, select};
use crate::nat::limbs;
use core::arch::x86_64::{
    _mm256_alignr_epi64, _mm256_maskz_permutexvar_epi64, _mm256_permute4x64_epi64, _mm256_set_epi64x,
};
use normalize::normalize;
use zeroize::Zeroize;

mod normalize;
mod reduce;
mod sos;
mod square;

/// The fewest digits a pair takes: at 10 digits (512 bits) one job runs
/// faster on four 256-bit vertical lanes (the window table of
/// `super::super::window` measures 53.5 µs against 42.7 µs for four jobs).
pub(in crate::engine::ifma) const MIN_DIGITS: usize = 20;

/// The most digits a pair may have: the carry pass (`pairs/normalize.rs`)
/// keeps one bit per lane, `2·D` bits, in three 64-bit words.
pub(in crate::engine::ifma) const MAX_DIGITS: usize = 80;

/// The fewest digits from which the pair multiplies and squares by
/// separated operand scanning (`pairs/sos.rs`, `pairs/square.rs`); below,
/// both are the interleaved product ([`amm`]). Measured on the project's
/// Zen 4 (one thread, `Ifma::chain`, 3,000 in a row, best of 31), ns for
/// the interleaved product / the separated product / the squaring: 20
/// digits 181 / 197 / 190, 30 digits 382 / 337 / 323, 40 digits 699 / 589
/// / 521, 60 digits 1,464 / 1,208 / 1,015, 80 digits 4,878 / 2,084 /
/// 1,717. At 20 digits the interleaved product's steps, which interleave
/// its two halves, hide more of their latency than the reduction and the
/// carries that follow it; above, its accumulator, moved down a digit on
/// every step, fills the registers, and at 80 digits no longer fits.
pub(in crate::engine::ifma) const SOS_DIGITS: usize = 30;

/// A pair of `2H`-digit numbers in `H` vectors.
#[derive(Clone, Copy)]
pub(in crate::engine::ifma) struct Pair<const H: usize>([V<Y>; H]);

impl<const H: usize> AsRef<[V<Y>]> for Pair<H> {
    fn as_ref(&self) -> &[V<Y>] {
        &self.0
    }
}

impl<const H: usize> Zeroize for Pair<H> {
    fn zeroize(&mut self) {
        self.0.iter_mut().for_each(Zeroize::zeroize);
    }
}

/// The two moduli with their constants: the pair [`Kernel`] (`n_top`
/// holds the top digit pair; `k0` is `[k0_x, k0_y, k0_x, k0_y]`).
type Pairs<const H: usize> = Horizontal<Pair<H>>;

/// `base^exp mod n` for lanes 0 and 1 of `input`, fully reduced, digit-major
/// in `out` (lanes 0 and 1; the others zero). Pre: as the parent's `pow`,
/// and `D` a class of [`MIN_DIGITS`] to [`MAX_DIGITS`] digits; only those
/// classes are compiled.
pub(in crate::engine::ifma) fn pow<const D: usize>(
    token: Token,
    input: &Input<'_>,
    exps: &Exponents<'_>,
    out: &mut [[u64; LANES]; D],
) {
    let out = out.as_mut_slice();
    // SAFETY: `token` proves AVX-512F, VL and IFMA.
    unsafe {
        match D {
            20 => pow_avx512::<20, 10>(token, input, exps, out.try_into().expect("20 digits")),
            30 => pow_avx512::<30, 15>(token, input, exps, out.try_into().expect("30 digits")),
            40 => pow_avx512::<40, 20>(token, input, exps, out.try_into().expect("40 digits")),
            60 => pow_avx512::<60, 30>(token, input, exps, out.try_into().expect("60 digits")),
            80 => pow_avx512::<80, 40>(token, input, exps, out.try_into().expect("80 digits")),
            _ => panic!("pair classes: {MIN_DIGITS} to {MAX_DIGITS} digits, not {D}"),
        }
    }
}

#[target_feature(enable = "avx512f,avx512vl,avx512ifma")]
fn pow_avx512<const D: usize, const H: usize>(
    token: Token,
    input: &Input<'_>,
    exps: &Exponents<'_>,
    out: &mut [[u64; LANES]; D],
) {
    let mut k = Pairs::<H>::new(token, input);
    let b = gather::<H>(|l, j| limbs::window(input.base[l], j * DIGIT, DIGIT));
    let r2 = k.r2;
    let mut x = exponentiate(&mut k, b, r2, exps);
    // SAFETY: this function runs only with AVX-512F, VL and IFMA.
    unsafe {
        let mut y = amm(&x, &unit(), &k);
        // Vertical again (digit j of both numbers in lanes 0 and 1) for the
        // shared final subtraction.
        // The moduli's copy is wiped too (they may be secret primes).
        let mut n = vertical::<D, H>(&k.n);
        reduce_out(vertical::<D, H>(&y), &n, out);
        n.zeroize();
        y.zeroize();
    }
    x.zeroize();
}

impl<const H: usize> Pairs<H> {
    #[target_feature(enable = "avx512f,avx512vl,avx512ifma")]
    fn new(token: Token, input: &Input<'_>) -> Pairs<H> {
        let n = gather::<H>(|l, j| input.n[l][j]);
        // SAFETY: this function runs only with AVX-512F, VL and IFMA.
        unsafe {
            let (n_up, n_top) = shift_up(&n);
            let k0 = V(Y::load(&[
                input.k0[0],
                input.k0[1],
                input.k0[0],
                input.k0[1],
                0,
                0,
                0,
                0,
            ]));
            let r2 = gather::<H>(|l, j| input.r2[l][j]);
            let mut k = Pairs {
                _token: token,
                n,
                n_up,
                n_top,
                k0,
                r2,
                one: Pair([V::zero(); H]),
            };
            k.one = amm(&k.r2, &unit(), &k);
            k
        }
    }
}

impl<const H: usize> Kernel for Pairs<H> {
    const LANES: usize = 2;
    type Elem = Pair<H>;
    type Index = [u64; LANES];

    #[inline(always)]
    fn one(&self) -> Pair<H> {
        self.one
    }

    #[inline(always)]
    fn mul(&mut self, x: &mut Pair<H>, y: &Pair<H>) {
        // SAFETY: a `Pairs` is made only with a `Token`.
        *x = unsafe {
            if 2 * H >= SOS_DIGITS {
                sos::amm(x, y, self)
            } else {
                amm(x, y, self)
            }
        };
    }

    #[inline(always)]
    fn sqr(&mut self, x: &mut Pair<H>) {
        // SAFETY: a `Pairs` is made only with a `Token`.
        *x = unsafe {
            if 2 * H >= SOS_DIGITS {
                square::ams(x, self)
            } else {
                amm(x, x, self)
            }
        };
    }

    #[inline(always)]
    fn select(&self, out: &mut Pair<H>, table: &[Pair<H>], idx: [u64; LANES]) {
        // SAFETY: a `Pairs` is made only with a `Token`.
        unsafe { select_pairs(out, table, idx) }
    }
}

/// The shared select, each lane with its number's index.
#[target_feature(enable = "avx512f,avx512vl,avx512ifma")]
fn select_pairs<const H: usize>(out: &mut Pair<H>, table: &[Pair<H>], idx: [u64; LANES]) {
    // SAFETY: this function runs only with AVX-512F, VL and IFMA.
    let idx = V(unsafe { Y::load(&[idx[0], idx[1], idx[0], idx[1], 0, 0, 0, 0]) });
    select::select(&mut out.0, table, idx);
}

/// The pair of `2H`-digit numbers `digit(l, j)` for lanes `l` = 0, 1.
#[target_feature(enable = "avx512f,avx512vl,avx512ifma")]
fn gather<const H: usize>(digit: impl Fn(usize, usize) -> u64) -> Pair<H> {
    let mut p = Pair([V::zero(); H]);
    for k in 0..H {
        let lanes = [
            digit(0, 2 * k),
            digit(1, 2 * k),
            digit(0, 2 * k + 1),
            digit(1, 2 * k + 1),
            0,
            0,
            0,
            0,
        ];
        // SAFETY: this function runs only with AVX-512F, VL and IFMA.
        p.0[k] = V(unsafe { Y::load(&lanes) });
    }
    p
}

/// The pair as `D` vertical digits: vector `j` is `[x_j, y_j, 0, 0]`.
///
/// # Safety
///
/// The CPU must have AVX-512F, VL and IFMA.
#[inline(always)]
unsafe fn vertical<const D: usize, const H: usize>(p: &Pair<H>) -> [V<Y>; D] {
    core::array::from_fn(|j| {
        // SAFETY: the caller's contract.
        unsafe {
            let v = p.0[j / 2].0.store();
            let h = 2 * (j % 2);
            V(Y::load(&[v[h], v[h + 1], 0, 0, 0, 0, 0, 0]))
        }
    })
}

/// The number 1 in both halves of a pair.
#[inline(always)]
unsafe fn unit<const H: usize>() -> Pair<H> {
    let mut u = Pair([V::zero(); H]);
    // SAFETY: the caller's contract: the CPU has AVX-512F, VL and IFMA.
    u.0[0] = V(unsafe { Y::load(&[1, 1, 0, 0, 0, 0, 0, 0]) });
    u
}

/// `x` shifted up one digit (two lanes), and the top digit pair shifted
/// out, in lanes 0 and 1 of the extra vector.
#[inline(always)]
unsafe fn shift_up<const H: usize>(x: &Pair<H>) -> (Pair<H>, V<Y>) {
    let zero = Y::default().0;
    let mut up = Pair([V::zero(); H]);
    let mut below = zero;
    // SAFETY: the caller's contract: the CPU has AVX-512F and VL.
    unsafe {
        for k in 0..H {
            up.0[k] = V(Y(_mm256_alignr_epi64::<2>(x.0[k].0.0, below)));
            below = x.0[k].0.0;
        }
        (up, V(Y(_mm256_alignr_epi64::<2>(zero, below))))
    }
}

/// Almost-Montgomery product of two pairs, `a·b·R^-1 mod n` in each half,
/// `R = 2^(52·2H)`.
///
/// Pre: digits below `2^52`; `a, b < 2n`; `4n < R`; `n` odd; `k0` holds
/// `-n^-1 mod 2^52` of each half. Post: digits below `2^52`, each half
/// `< 2n` and `≡ a·b·R^-1 (mod n)`.
///
/// Step `i` (for each half, in its lanes): `t += b_i·a`, `m = t_0·k0 mod
/// 2^52`, `t += m·n`, then `t /= 2^52` by moving every column down two
/// lanes and the lowest column's carry into the new lowest. The high
/// halves of the products go in through `a↑` and `n↑` before the move. A
/// column takes at most four 52-bit pieces and a carry per step: below
/// `2^62` for `2H <= 80`.
///
/// # Safety
///
/// The CPU must have AVX-512F, VL and IFMA (callers hold a [`Token`]).
#[inline(always)]
#[allow(
    clippy::needless_range_loop,
    reason = "the loops walk the accumulator and the operand copies side by side"
)]
unsafe fn amm<const H: usize>(a: &Pair<H>, b: &Pair<H>, k: &Pairs<H>) -> Pair<H> {
    let h = H;
    // SAFETY: the caller's contract: the CPU has AVX-512F, VL and IFMA.
    unsafe {
        let zero = Y::default();
        let (a_up, a_top) = shift_up(a);
        // a_0·k0 mod 2^52, so that m = t_0·k0 + b_i·(a_0·k0) needs only one
        // multiply-add after the accumulator is known (its bits above 52
        // are ignored where m is used).
        let ak0 = Y::madd_lo(zero, a.0[0].0, k.k0.0);
        let mut acc = [zero; H];
        let mut top = zero;
        for i in 0..2 * H {
            // b_i of each half in every lane pair.
            let (even, odd) = digits(b.0[i / 2].0);
            let bi = if i % 2 == 0 { even } else { odd };
            let m = digits(Y::madd_lo(Y::madd_lo(zero, ak0, bi), acc[0], k.k0.0)).0;
            acc[0] = Y::madd_lo(acc[0], a.0[0].0, bi);
            for j in 1..h {
                acc[j] = Y::madd_lo(acc[j], a.0[j].0, bi);
            }
            for j in 0..h {
                acc[j] = Y::madd_hi(acc[j], a_up.0[j].0, bi);
            }
            top = Y::madd_hi(top, a_top.0, bi);
            acc[0] = Y::madd_lo(acc[0], k.n.0[0].0, m);
            // Lanes 0 and 1: the lowest column, now a multiple of 2^52; its
            // carry goes to the next column (lanes 2 and 3) before the move.
            let carry = to_upper(Y::shr52(acc[0]));
            for j in 1..h {
                acc[j] = Y::madd_lo(acc[j], k.n.0[j].0, m);
            }
            for j in 0..h {
                acc[j] = Y::madd_hi(acc[j], k.n_up.0[j].0, m);
            }
            acc[0] = Y::add(acc[0], carry);
            top = Y::madd_hi(top, k.n_top.0, m);
            for j in 0..h - 1 {
                acc[j] = Y(_mm256_alignr_epi64::<2>(acc[j + 1].0, acc[j].0));
            }
            acc[h - 1] = Y(_mm256_alignr_epi64::<2>(top.0, acc[h - 1].0));
            top = zero;
        }
        normalize(&mut acc);
        Pair(acc.map(V))
    }
}

/// Digits `2k` and `2k + 1` of both numbers, each in both lane pairs, from
/// vector `k` (`[x_2k, y_2k, x_2k, y_2k]` and `[x_2k+1, y_2k+1, x_2k+1,
/// y_2k+1]`).
///
/// # Safety
///
/// The CPU must have AVX-512F and VL.
#[inline(always)]
unsafe fn digits(v: Y) -> (Y, Y) {
    // SAFETY: the caller's contract.
    unsafe {
        (
            Y(_mm256_permute4x64_epi64::<0x44>(v.0)),
            Y(_mm256_permute4x64_epi64::<0xEE>(v.0)),
        )
    }
}

/// The upper two lanes of a vector: digit `2k + 1` of both numbers.
const UPPER: u8 = 0b1100;

/// Each number's lower lane moved to its upper lane, the lower lanes
/// cleared: what digit `2k` carries into digit `2k + 1`.
///
/// # Safety
///
/// The CPU must have AVX-512F and VL.
#[inline(always)]
unsafe fn to_upper(c: Y) -> Y {
    // SAFETY: the caller's contract.
    unsafe {
        Y(_mm256_maskz_permutexvar_epi64(
            UPPER,
            _mm256_set_epi64x(1, 0, 0, 0),
            c.0,
        ))
    }
}
