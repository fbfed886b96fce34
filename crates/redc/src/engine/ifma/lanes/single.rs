//! The 1-way horizontal IFMA kernel: one exponentiation spread across the
//! four lanes of 256-bit vectors, for a lone job (a DH or DSA operation, a
//! public RSA operation or check, one modular exponentiation). Vector `k`
//! holds digits `4k` to `4k + 3`, so a `D`-digit number fills `D/4`
//! vectors, where the 2-way kernel (`pairs.rs`) would give it `D/2`
//! vectors with every other lane idle.
//!
//! The product is the 2-way kernel's interleaved almost-Montgomery CIOS
//! (000_be478b6750af4540.txt §2.2; no final subtraction,
//! 004_b65c74827168229f.txt Alg. 1) on one number: step `i` adds `b_i·a`
//! and `m·n`, the high halves through copies of `a` and `n` shifted up one
//! digit (one lane), then moves the accumulator down one lane. `D` steps of
//! `4·D/4 + 4` multiply-adds, and one before them. The squaring is the
//! product. Carries stay in the 64-bit columns until the end, where one
//! pass and a carry-lookahead on bit masks (one bit per digit) propagate
//! them in constant time.
#![allow(unsafe_code)]

use super::{DIGIT, Exponents, Horizontal, Input, LANES, MASK, Token, V, Vector, Y, exponentiate, reduce_out};
use crate::kernel::{Kernel, select};
use crate::nat::limbs;
use core::arch::x86_64::{
    __m256i, _mm256_alignr_epi64, _mm256_broadcastq_epi64, _mm256_castsi256_si128, _mm256_cmpeq_epi64_mask,
    _mm256_cmpgt_epu64_mask, _mm256_mask_add_epi64, _mm256_maskz_broadcastq_epi64, _mm256_permute4x64_epi64,
    _mm256_set1_epi64x,
};
use zeroize::Zeroize;

/// The digit counts the 1-way kernel takes: whole vectors of four digits,
/// from 20 (1,038-bit moduli) to 80 (4,158 bits, a carry-lookahead of at
/// most 128 digits in one `u128`).
pub(in crate::engine::ifma) fn takes(digits: usize) -> bool {
    digits.is_multiple_of(4) && (20..=80).contains(&digits)
}

/// A number alone, its `4Q` digits in `Q` vectors.
#[derive(Clone, Copy)]
pub(in crate::engine::ifma) struct Lone<const Q: usize>([V<Y>; Q]);

impl<const Q: usize> AsRef<[V<Y>]> for Lone<Q> {
    fn as_ref(&self) -> &[V<Y>] {
        &self.0
    }
}

impl<const Q: usize> Zeroize for Lone<Q> {
    fn zeroize(&mut self) {
        self.0.iter_mut().for_each(Zeroize::zeroize);
    }
}

/// The modulus with its constants: the 1-way [`Kernel`] (`n_top` holds
/// the top digit in lane 0; `k0` is in every lane).
type Single<const Q: usize> = Horizontal<Lone<Q>>;

/// `base^exp mod n` for lane 0 of `input`, fully reduced, digit-major in
/// `out` (lane 0; the others zero). Pre: as the parent's `pow`, and `D` a
/// class the kernel [`takes`]; only those classes are compiled.
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
            20 => pow_avx512::<20, 5>(token, input, exps, out.try_into().expect("20 digits")),
            40 => pow_avx512::<40, 10>(token, input, exps, out.try_into().expect("40 digits")),
            60 => pow_avx512::<60, 15>(token, input, exps, out.try_into().expect("60 digits")),
            80 => pow_avx512::<80, 20>(token, input, exps, out.try_into().expect("80 digits")),
            _ => panic!("1-way classes: 20, 40, 60 or 80 digits, not {D}"),
        }
    }
}

#[target_feature(enable = "avx512f,avx512vl,avx512ifma")]
fn pow_avx512<const D: usize, const Q: usize>(
    token: Token,
    input: &Input<'_>,
    exps: &Exponents<'_>,
    out: &mut [[u64; LANES]; D],
) {
    let mut k = Single::<Q>::new(token, input);
    let b = Lone(gather(|j| limbs::window(input.base[0], j * DIGIT, DIGIT)).map(V));
    let r2 = k.r2;
    let mut x = exponentiate(&mut k, b, r2, exps);
    // SAFETY: this function runs only with AVX-512F, VL and IFMA.
    unsafe {
        let mut y = amm(&x.0, &unit(), &k);
        // One digit per vector (lane 0) for the shared final subtraction.
        // The modulus's copy is wiped too (it may be a secret prime).
        let mut n = vertical::<D, Q>(&k.n.0);
        reduce_out(vertical::<D, Q>(&y), &n, out);
        n.zeroize();
        y.zeroize();
    }
    x.zeroize();
}

impl<const Q: usize> Single<Q> {
    #[target_feature(enable = "avx512f,avx512vl,avx512ifma")]
    fn new(token: Token, input: &Input<'_>) -> Single<Q> {
        let n = gather(|j| input.n[0][j]);
        // SAFETY: this function runs only with AVX-512F, VL and IFMA.
        unsafe {
            let (n_up, n_top) = shift_up(&n);
            let mut k = Single {
                _token: token,
                n: Lone(n.map(V)),
                n_up: Lone(n_up.map(V)),
                n_top: V(n_top),
                k0: V(Y::splat(input.k0[0])),
                r2: Lone(gather(|j| input.r2[0][j]).map(V)),
                one: Lone([V::default(); Q]),
            };
            k.one = Lone(amm(&k.r2.0, &unit(), &k));
            k
        }
    }
}

impl<const Q: usize> Kernel for Single<Q> {
    const LANES: usize = 1;
    type Elem = Lone<Q>;
    type Index = [u64; LANES];

    #[inline(always)]
    fn one(&self) -> Lone<Q> {
        self.one
    }

    #[inline(always)]
    fn mul(&mut self, x: &mut Lone<Q>, y: &Lone<Q>) {
        // SAFETY: a `Single` is made only with a `Token`.
        x.0 = unsafe { amm(&x.0, &y.0, self) };
    }

    #[inline(always)]
    fn sqr(&mut self, x: &mut Lone<Q>) {
        // SAFETY: a `Single` is made only with a `Token`.
        x.0 = unsafe { amm(&x.0, &x.0, self) };
    }

    #[inline(always)]
    fn select(&self, out: &mut Lone<Q>, table: &[Lone<Q>], idx: [u64; LANES]) {
        // SAFETY: a `Single` is made only with a `Token`.
        unsafe { select_one(out, table, idx[0]) }
    }
}

/// The shared select, every lane with the one index.
#[target_feature(enable = "avx512f,avx512vl,avx512ifma")]
fn select_one<const Q: usize>(out: &mut Lone<Q>, table: &[Lone<Q>], idx: u64) {
    // SAFETY: this function runs only with AVX-512F, VL and IFMA.
    select::select(&mut out.0, table, V(unsafe { Y::splat(idx) }));
}

/// The `4Q`-digit number `digit(j)` in `Q` vectors.
#[target_feature(enable = "avx512f,avx512vl,avx512ifma")]
fn gather<const Q: usize>(digit: impl Fn(usize) -> u64) -> [Y; Q] {
    core::array::from_fn(|k| {
        let lanes = core::array::from_fn(|l| if l < 4 { digit(4 * k + l) } else { 0 });
        // SAFETY: this function runs only with AVX-512F, VL and IFMA.
        unsafe { Y::load(&lanes) }
    })
}

/// The number as `D` vertical digits: vector `j` is `[x_j, 0, 0, 0]`.
///
/// # Safety
///
/// The CPU must have AVX-512F, VL and IFMA.
#[inline(always)]
unsafe fn vertical<const D: usize, const Q: usize>(x: &[V<Y>; Q]) -> [V<Y>; D] {
    core::array::from_fn(|j| {
        // SAFETY: the caller's contract.
        unsafe {
            let v = x[j / 4].0.store();
            V(Y::load(&[v[j % 4], 0, 0, 0, 0, 0, 0, 0]))
        }
    })
}

/// The number 1.
#[inline(always)]
unsafe fn unit<const Q: usize>() -> [V<Y>; Q] {
    let mut u = [V::default(); Q];
    // SAFETY: the caller's contract: the CPU has AVX-512F, VL and IFMA.
    u[0] = V(unsafe { Y::load(&[1, 0, 0, 0, 0, 0, 0, 0]) });
    u
}

/// `x` shifted up one digit (one lane), and the top digit shifted out, in
/// lane 0 of the extra vector.
#[inline(always)]
unsafe fn shift_up<const Q: usize>(x: &[Y; Q]) -> ([Y; Q], Y) {
    let zero = Y::default().0;
    let mut up = [Y::default(); Q];
    let mut below = zero;
    // SAFETY: the caller's contract: the CPU has AVX-512F and VL.
    unsafe {
        for k in 0..Q {
            up[k] = Y(_mm256_alignr_epi64::<3>(x[k].0, below));
            below = x[k].0;
        }
        (up, Y(_mm256_alignr_epi64::<3>(zero, below)))
    }
}

/// Digit `r` of a vector in every lane.
///
/// # Safety
///
/// The CPU must have AVX-512F and VL.
#[inline(always)]
unsafe fn broadcast(v: Y, r: usize) -> Y {
    // SAFETY: the caller's contract.
    unsafe {
        Y(match r {
            0 => _mm256_permute4x64_epi64::<0x00>(v.0),
            1 => _mm256_permute4x64_epi64::<0x55>(v.0),
            2 => _mm256_permute4x64_epi64::<0xAA>(v.0),
            _ => _mm256_permute4x64_epi64::<0xFF>(v.0),
        })
    }
}

/// Lane 0 of `v` in every lane.
///
/// # Safety
///
/// The CPU must have AVX2.
#[inline(always)]
unsafe fn low(v: Y) -> Y {
    // SAFETY: the caller's contract.
    unsafe { Y(_mm256_broadcastq_epi64(_mm256_castsi256_si128(v.0))) }
}

/// Almost-Montgomery product `a·b·R^-1 mod n`, `R = 2^(52·4Q)`.
///
/// Pre: digits below `2^52`; `a, b < 2n`; `4n < R`; `n` odd. Post: digits
/// below `2^52`, value `< 2n` and `≡ a·b·R^-1 (mod n)`.
///
/// Step `i`: `t += b_i·a`, `m = t_0·k0 mod 2^52`, `t += m·n`, then `t /=
/// 2^52` by moving every column down one lane, the lowest column's carry
/// first moved into the next. The high halves go in through `a↑` and `n↑`
/// before the move. A column takes at most four 52-bit pieces and a carry
/// per step: below `2^62` for `4Q <= 80`.
///
/// # Safety
///
/// The CPU must have AVX-512F, VL and IFMA (callers hold a [`Token`]).
#[inline(always)]
unsafe fn amm<const Q: usize>(a: &[V<Y>; Q], b: &[V<Y>; Q], k: &Single<Q>) -> [V<Y>; Q] {
    // SAFETY: the caller's contract: the CPU has AVX-512F, VL and IFMA.
    unsafe {
        let (a, b) = (a.map(|v| v.0), b.map(|v| v.0));
        // The modulus is read in place (it may be a secret prime).
        let (n, n_up, n_top, k0) = (&k.n.0, &k.n_up.0, k.n_top.0, k.k0.0);
        let zero = Y::default();
        let (a_up, a_top) = shift_up(&a);
        // a_0·k0 mod 2^52 (lane 0), so that m = t_0·k0 + b_i·(a_0·k0) takes
        // one multiply-add once the accumulator is known.
        let ak0 = Y::madd_lo(zero, a[0], k0);
        let mut acc = [zero; Q];
        let mut top = zero;
        for i in 0..4 * Q {
            let bi = broadcast(b[i / 4], i % 4);
            let m = low(Y::madd_lo(Y::madd_lo(zero, ak0, bi), acc[0], k0));
            for j in 0..Q {
                acc[j] = Y::madd_lo(acc[j], a[j], bi);
            }
            for j in 0..Q {
                acc[j] = Y::madd_hi(acc[j], a_up[j], bi);
            }
            top = Y::madd_hi(top, a_top, bi);
            acc[0] = Y::madd_lo(acc[0], n[0].0, m);
            // Lane 0: the lowest column, now a multiple of 2^52; its carry
            // goes to lane 1 before the move.
            let carry = Y(_mm256_maskz_broadcastq_epi64(
                0b0010,
                _mm256_castsi256_si128(Y::shr52(acc[0]).0),
            ));
            for j in 1..Q {
                acc[j] = Y::madd_lo(acc[j], n[j].0, m);
            }
            for j in 0..Q {
                acc[j] = Y::madd_hi(acc[j], n_up[j].0, m);
            }
            acc[0] = Y::add(acc[0], carry);
            top = Y::madd_hi(top, n_top, m);
            for j in 0..Q - 1 {
                acc[j] = Y(_mm256_alignr_epi64::<1>(acc[j + 1].0, acc[j].0));
            }
            acc[Q - 1] = Y(_mm256_alignr_epi64::<1>(top.0, acc[Q - 1].0));
            top = zero;
        }
        normalize(&mut acc);
        acc.map(V)
    }
}

/// Carries out of 64-bit columns, so every digit is below `2^52`, in
/// constant time: one pass moves each column's excess to the next digit
/// (one lane up); then a digit is above `2^52 - 1` by at most one carry,
/// and the carries that ripple through digits equal to `2^52 - 1` are found
/// at once on bit masks (digit `j` is bit `j`): `c = ((g << 1) + p) ^ p`.
/// Pre: the value fits in `4Q <= 128` digits.
///
/// # Safety
///
/// The CPU must have AVX-512F, VL and IFMA.
#[inline(always)]
unsafe fn normalize<const Q: usize>(acc: &mut [Y; Q]) {
    // SAFETY: the caller's contract: the CPU has AVX-512F, VL and IFMA.
    unsafe {
        let mask: __m256i = _mm256_set1_epi64x(MASK as i64);
        let mut below = Y::default().0;
        for v in acc.iter_mut() {
            let c = Y::shr52(*v).0;
            *v = Y::add(Y::and(*v, Y(mask)), Y(_mm256_alignr_epi64::<3>(c, below)));
            below = c;
        }
        let (mut g, mut p) = (0u128, 0u128);
        for (k, v) in acc.iter().enumerate() {
            g |= u128::from(_mm256_cmpgt_epu64_mask(v.0, mask)) << (4 * k);
            p |= u128::from(_mm256_cmpeq_epi64_mask(v.0, mask)) << (4 * k);
        }
        let c = ((g << 1).wrapping_add(p)) ^ p;
        let one = _mm256_set1_epi64x(1);
        for (k, v) in acc.iter_mut().enumerate() {
            let m = ((c >> (4 * k)) & 0xf) as u8;
            *v = Y::and(Y(_mm256_mask_add_epi64(v.0, m, v.0, one)), Y(mask));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::ifma::lanes::plain::rippled;

    /// [`normalize`] on the columns `cols` (`4Q` digits).
    #[target_feature(enable = "avx512f,avx512vl,avx512ifma")]
    fn normalized<const Q: usize>(cols: &[u64]) -> Vec<u64> {
        // SAFETY: this function runs only with AVX-512F, VL and IFMA.
        unsafe {
            let mut acc = gather::<Q>(|j| cols[j]);
            normalize(&mut acc);
            acc.iter().flat_map(|v| v.store().into_iter().take(4)).collect()
        }
    }

    /// Carries that ripple through digits equal to `2^52 - 1` across
    /// vectors, large columns, and at 80 digits a carry made by digit 63
    /// (the top bit of the mask's low word, so that `g << 1` moves it into
    /// the high word) rippling on, and one from digit 0 through every
    /// digit.
    #[test]
    fn carries_ripple_through_full_digits() {
        if Token::detect().is_none() {
            return;
        }
        let mut cases = vec![
            [1 << 52, MASK, MASK, MASK, MASK, MASK, MASK, 5].repeat(3),
            [
                MASK,
                MASK << 4,
                MASK,
                MASK,
                3 << 52,
                MASK,
                MASK,
                0,
                1 << 60,
                MASK,
                0,
                MASK,
            ]
            .repeat(2),
            [0; 24].to_vec(),
            [MASK; 24].to_vec(),
        ];
        for cols in &mut cases {
            cols.truncate(20);
            // SAFETY: the token was detected above.
            assert_eq!(unsafe { normalized::<5>(cols) }, rippled(cols), "{cols:x?}");
        }
        let mut at_word = vec![7; 80];
        at_word[62] = 1 << 52;
        at_word[63..72].fill(MASK);
        let mut through = vec![MASK; 80];
        through[0] = 1 << 52;
        through[70] = 4;
        for wide in [at_word, through] {
            // SAFETY: the token was detected above.
            assert_eq!(unsafe { normalized::<20>(&wide) }, rippled(&wide));
        }
    }
}
