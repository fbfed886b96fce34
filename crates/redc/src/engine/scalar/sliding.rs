//! Sliding-window exponentiation for public exponents (Handbook of Applied
//! Cryptography, Alg. 14.85), variable time.
//!
//! Only the odd powers `X, X^3, ..., X^(2^k - 1)` are tabulated; a zero bit
//! of the exponent costs one squaring, a window of at most `k` bits that
//! starts and ends with a one costs a squaring per bit and one product. The
//! first window loads its table entry instead of multiplying 1 by it.

use super::Mont;
use super::arith::Size;
use crate::engine::Num;
use crate::exp::default_window;
use crate::exp::window::window_value;
use zeroize::Zeroizing;

/// `base^exp` in Montgomery form, windows of at most
/// [`default_window`]`(exp.bits())` bits.
///
/// Pre: `base` is a residue `< n` in Montgomery form. Post: the result is
/// `< n`; `exp = 0` gives 1.
pub(super) fn pow_vartime<S: Size>(m: &mut Mont<'_, S>, base: &S::Buf, exp: &Num) -> Zeroizing<S::Buf> {
    let k = default_window(exp.bits()) as usize;
    // odd[j] = base^(2j + 1)
    let mut square = Zeroizing::new(base.clone());
    m.sqr(&mut square);
    let mut odd = Zeroizing::new(Vec::with_capacity(1 << (k - 1)));
    odd.push(base.clone());
    for j in 1..1usize << (k - 1) {
        let mut e = odd[j - 1].clone();
        m.mul(&mut e, &square);
        odd.push(e);
    }
    let mut x: Option<Zeroizing<S::Buf>> = None;
    let mut i = exp.bits();
    while i > 0 {
        let top = i - 1;
        if !exp.bit(top) {
            if let Some(x) = x.as_mut() {
                m.sqr(x);
            }
            i = top;
            continue;
        }
        // The longest window exp[lo..=top] of at most k bits ending in a 1.
        let mut lo = top.saturating_sub(k - 1);
        while !exp.bit(lo) {
            lo += 1;
        }
        let len = top - lo + 1;
        let entry = &odd[(window_value(exp, lo, len as u32) as usize - 1) / 2];
        match x.as_mut() {
            Some(x) => {
                for _ in 0..len {
                    m.sqr(x);
                }
                m.mul(x, entry);
            }
            None => x = Some(Zeroizing::new(entry.clone())),
        }
        i = lo;
    }
    x.unwrap_or_else(|| Zeroizing::new(m.one()))
}
