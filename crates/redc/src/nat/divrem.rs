//! Division with remainder: Knuth, TAOCP vol. 2, §4.3.1, Algorithm D, over
//! digits of any width `w` (the quotient digit is estimated from a two-by-one
//! digit division and corrected at most twice).
//!
//! Variable-time: used outside Montgomery form (conversions, `C mod p`,
//! computing `R^2 mod n` once per modulus), never inside the product.

use super::limbs;
use crate::word::Word;
use core::cmp::Ordering;

/// `(u / v, u mod v)` for `v != 0`; operands may carry high zero digits.
pub(crate) fn divrem<W: Word>(u: &[W], v: &[W]) -> (Vec<W>, Vec<W>) {
    let mut v = v.to_vec();
    limbs::trim(&mut v);
    assert!(!v.is_empty(), "divrem: division by zero");
    let mut u = u.to_vec();
    limbs::trim(&mut u);
    if limbs::cmp(&u, &v) == Ordering::Less {
        return (Vec::new(), u);
    }
    if v.len() == 1 {
        return divrem_digit(&u, v[0]);
    }
    let n = v.len();
    let m = u.len() - n;
    // D1: normalise so the divisor's top bit is set.
    let shift = v[n - 1].leading_zeros();
    let vn = limbs::shl(&v, shift as usize);
    let vn = &vn[..n];
    let mut un = limbs::shl(&u, shift as usize);
    un.resize(u.len() + 1, W::ZERO);
    let vtop = vn[n - 1];
    let vnext = vn[n - 2];
    let mut q = vec![W::ZERO; m + 1];
    for j in (0..=m).rev() {
        // D3: estimate q̂ from the top two digits of the current remainder.
        let (mut qhat, mut rhat, mut rhat_big) = if un[j + n] == vtop {
            let (r, c) = W::adc(un[j + n - 1], vtop, W::ZERO);
            (W::MAX, r, c != W::ZERO)
        } else {
            let (qh, r) = W::div_wide(un[j + n], un[j + n - 1], vtop);
            (qh, r, false)
        };
        while !rhat_big {
            let (plo, phi) = W::mac(W::ZERO, qhat, vnext, W::ZERO);
            if (phi, plo) <= (rhat, un[j + n - 2]) {
                break;
            }
            qhat = qhat.wrapping_sub(W::ONE);
            let (r, c) = W::adc(rhat, vtop, W::ZERO);
            rhat = r;
            rhat_big = c != W::ZERO;
        }
        // D4: multiply and subtract.
        let mut carry = W::ZERO;
        let mut borrow = W::ZERO;
        for i in 0..n {
            let (plo, phi) = W::mac(W::ZERO, qhat, vn[i], carry);
            let (d, b) = W::sbb(un[i + j], plo, borrow);
            un[i + j] = d;
            carry = phi;
            borrow = b;
        }
        let (d, b) = W::sbb(un[j + n], carry, borrow);
        un[j + n] = d;
        // D6: add back when q̂ was one too large.
        if b != W::ZERO {
            qhat = qhat.wrapping_sub(W::ONE);
            let mut c = W::ZERO;
            for i in 0..n {
                let (s, c2) = W::adc(un[i + j], vn[i], c);
                un[i + j] = s;
                c = c2;
            }
            un[j + n] = un[j + n].wrapping_add(c);
        }
        q[j] = qhat;
    }
    // D8: unnormalise the remainder.
    let r = limbs::shr(&un[..n], shift as usize);
    (q, r)
}

/// Division by a single non-zero digit.
fn divrem_digit<W: Word>(u: &[W], d: W) -> (Vec<W>, Vec<W>) {
    let mut q = vec![W::ZERO; u.len()];
    let mut r = W::ZERO;
    for i in (0..u.len()).rev() {
        let (qi, ri) = W::div_wide(r, u[i], d);
        q[i] = qi;
        r = ri;
    }
    (q, vec![r])
}
