//! Montgomery's reduction of the 2-way kernel's `2·D` columns, two digits
//! per step (separated operand scanning, Koç, 000_be478b6750af4540.txt
//! §2.2; no final subtraction, 004_b65c74827168229f.txt Alg. 1): the second
//! half of its squaring (`square.rs`) and of its product for wide pairs
//! (`sos.rs`), which both fill the columns first.
#![allow(unsafe_code)]

use super::normalize::normalize;
use super::{Pair, Pairs, digits, to_upper};
use crate::engine::ifma::lanes::square::carry_out;
use crate::engine::ifma::lanes::{V, Vector, Y};
use core::arch::x86_64::{_mm256_maskz_permutexvar_epi64, _mm256_set_epi64x};
use core::mem::MaybeUninit;

/// The lower two lanes of a vector: digit `2k` of both numbers.
const LOWER: u8 = 0b0011;

/// `t·R^-1 mod n` in each half, below `2n`, digits below `2^52`, from the
/// `4H` columns `t` (`2H` vectors of 64-bit sums of 52-bit pieces, each
/// half `t < n·R`, as `a·b` is for `a, b < 2n` and `4n < R`): [`reduce`],
/// then the carries ([`normalize`]).
///
/// The columns take four pieces per reduction step for at most `H` steps,
/// with carries, beside what the caller put there: the caller keeps them
/// below `2^62` (the squaring's and the product's bounds).
///
/// # Safety
///
/// The CPU must have AVX-512F, VL and IFMA (callers hold a `Token`); every
/// column was written.
#[inline(always)]
pub(super) unsafe fn montgomery<const H: usize>(wide: &mut [[MaybeUninit<Y>; H]; 2], k: &Pairs<H>) -> Pair<H> {
    // SAFETY: the caller's contract.
    unsafe {
        let cols = &mut *core::ptr::from_mut(wide).cast::<[[Y; H]; 2]>();
        reduce(cols, k);
        normalize(&mut cols[1]);
        // SAFETY: `V<Y>` is `repr(transparent)` over `Y`.
        Pair(core::ptr::from_ref(&cols[1]).cast::<[V<Y>; H]>().read())
    }
}

/// Montgomery's reduction of the columns, two digits per step, in place:
/// step `s` finds `m0`, which clears the lowest column of vector `s` in
/// each half, and `m1`, which clears the next one (with `m0`'s terms and
/// the carry out of the first, read from the column itself,
/// [`carry_out`]), then adds both times `n` to vectors `s + 1` to `s + H`.
/// The next step's vector is kept in a register. `H` steps leave the
/// result, carries not propagated, in `cols[1]`.
///
/// # Safety
///
/// As [`montgomery`], which it is inlined into.
#[inline(always)]
unsafe fn reduce<const H: usize>(cols: &mut [[Y; H]; 2], k: &Pairs<H>) {
    // SAFETY: the caller's contract: the CPU has AVX-512F, VL and IFMA.
    unsafe {
        let zero = Y::default();
        let (n, n_up, n_top, k0) = (vectors(&k.n), vectors(&k.n_up), k.n_top.0, k.k0.0);
        let t = cols.as_flattened_mut();
        let mut low = t[0];
        for s in 0..H {
            let m0 = digits(Y::madd_lo(zero, low, k0)).0;
            // The second column (upper lanes): m0's terms and the carry
            // out of the first.
            let t1 = Y::add(
                Y::madd_lo(low, m0, n[0]),
                Y::madd_hi(to_upper(carry_out(low)), m0, n_up[0]),
            );
            let m1 = digits(Y::madd_lo(zero, t1, k0)).1;
            // Its carry, into the third column (lower lanes of vector s + 1).
            let carry = Y(_mm256_maskz_permutexvar_epi64(
                LOWER,
                _mm256_set_epi64x(0, 0, 3, 2),
                carry_out(t1).0,
            ));
            // The next step's vector waits on m1 for one multiply-add.
            let x = Y::madd_hi(Y::madd_lo(t[s + 1], m0, n[1]), m0, n_up[1]);
            low = Y::add(Y::madd_lo(x, m1, n_up[1]), Y::madd_hi(carry, m1, n[0]));
            t[s + 1] = low;
            for j in 2..H {
                let x = Y::madd_hi(Y::madd_lo(t[s + j], m0, n[j]), m0, n_up[j]);
                t[s + j] = Y::madd_hi(Y::madd_lo(x, m1, n_up[j]), m1, n[j - 1]);
            }
            let x = Y::madd_lo(Y::madd_hi(t[s + H], m0, n_top), m1, n_top);
            t[s + H] = Y::madd_hi(x, m1, n[H - 1]);
        }
    }
}

/// The vectors of a pair, read in place.
#[inline(always)]
pub(super) fn vectors<const H: usize>(p: &Pair<H>) -> &[Y; H] {
    // SAFETY: `V<Y>` is `repr(transparent)` over `Y`.
    unsafe { &*core::ptr::from_ref(&p.0).cast::<[Y; H]>() }
}
