//! Fixed-window (`2^k`-ary) exponentiation for secret exponents
//! (000_be478b6750af4540.txt Fig. 1 with `k`-bit digits of the exponent;
//! Menezes et al., Handbook of Applied Cryptography, Alg. 14.82).
//!
//! ```text
//! table[v] = X^v                      v < 2^k
//! x = table[top window]
//! for each lower k-bit window d:  x = x^(2^k) · table[d]
//! ```
//!
//! Constant time in the exponent: the number of windows depends only on the
//! public bound `exp_bits`, every window costs `k` squarings and one product
//! (also for `d = 0`), and `table[d]` is read by scanning every entry with a
//! mask, so neither a branch nor a memory address depends on `d`.

use super::Mont;
use super::arith::Size;
use crate::engine::{Num, bits_at};
use crate::exp::default_window;
use zeroize::{Zeroize, Zeroizing};

/// The widest window (64 table entries); [`default_window`] gives at most 6.
const MAX_WINDOW: usize = 6;

/// `base^exp` in Montgomery form, windows of [`default_window`]`(exp_bits)`
/// bits.
///
/// Pre: `base` is a residue `< n` in Montgomery form; `exp < 2^exp_bits`.
/// Post: the result is `< n`; `exp = 0` (and `exp_bits = 0`) gives 1.
pub(super) fn pow<S: Size>(m: &mut Mont<'_, S>, base: &S::Buf, exp: &Num, exp_bits: usize) -> Zeroizing<S::Buf> {
    let k = (default_window(exp_bits) as usize).min(MAX_WINDOW);
    let table = power_table(m, base, k);
    let windows = exp_bits.div_ceil(k).max(1);
    let digit = |w: usize| bits_at(exp.digits(), w * k, k);
    let mut x = Zeroizing::new(m.sz.buf());
    select::<S>(&mut x, &table, digit(windows - 1));
    let mut entry = Zeroizing::new(m.sz.buf());
    for w in (0..windows - 1).rev() {
        for _ in 0..k {
            m.sqr(&mut x);
        }
        select::<S>(&mut entry, &table, digit(w));
        m.mul(&mut x, &entry);
    }
    x
}

/// `table[v] = base^v` for `v < 2^k` (`k >= 1`): even powers by squaring
/// `table[v/2]`, odd ones by a product with `base`.
fn power_table<S: Size>(m: &mut Mont<'_, S>, base: &S::Buf, k: usize) -> Zeroizing<Vec<S::Buf>> {
    let mut table = Zeroizing::new(Vec::with_capacity(1 << k));
    table.push(m.one());
    table.push(base.clone());
    for v in 2..1usize << k {
        let e = if v % 2 == 0 {
            let mut e = table[v / 2].clone();
            m.sqr(&mut e);
            e
        } else {
            let mut e = table[v - 1].clone();
            m.mul(&mut e, base);
            e
        };
        table.push(e);
    }
    table
}

/// `out := table[d]`, touching every entry: each is ANDed with a mask that
/// is all ones for `v = d` only, computed without a branch and hidden from
/// the optimiser. Pre: `table.len() <= 2^MAX_WINDOW`.
///
/// The result is gathered eight digits at a time in registers, so every
/// entry costs one load, AND and OR per digit and no store.
fn select<S: Size>(out: &mut S::Buf, table: &[S::Buf], d: u64) {
    const CHUNK: usize = 8;
    let mut masks = [0u64; 1 << MAX_WINDOW];
    for (v, mask) in masks.iter_mut().enumerate() {
        // x = v ^ d is zero only for v = d; for any other x, x | -x has its
        // top bit set. Arithmetic only, as subtle's ct_eq.
        let x = v as u64 ^ d;
        *mask = ((x | x.wrapping_neg()) >> 63).wrapping_sub(1);
    }
    // One optimisation barrier for all masks (subtle puts one in every
    // Choice): the loop below cannot be specialised on their values.
    core::hint::black_box(&mut masks);
    for (c, o) in out.as_mut().chunks_mut(CHUNK).enumerate() {
        let mut acc = [0u64; CHUNK];
        for (entry, &mask) in table.iter().zip(&masks) {
            for (a, &y) in acc.iter_mut().zip(&entry.as_ref()[c * CHUNK..]) {
                *a |= y & mask;
            }
        }
        o.copy_from_slice(&acc[..o.len()]);
        acc.zeroize();
    }
    masks.zeroize();
}
