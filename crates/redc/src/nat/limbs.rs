//! Kernels on little-endian digit slices, shared by [`Nat`](super::Nat) and
//! the Montgomery code. Slices may carry high zero digits.

use crate::word::Word;
use core::cmp::Ordering;

/// `a < b` as 1 or 0, by one borrow chain over the longer length (missing
/// digits are zero): constant time in the values for given lengths.
pub(crate) fn ct_lt(a: &[u64], b: &[u64]) -> u64 {
    let at = |x: &[u64], i: usize| x.get(i).copied().unwrap_or(0);
    (0..a.len().max(b.len())).fold(0, |borrow, i| u64::sbb(at(a, i), at(b, i), borrow).1)
}

/// Drop high zero digits.
pub(crate) fn trim<W: Word>(d: &mut Vec<W>) {
    while d.last() == Some(&W::ZERO) {
        d.pop();
    }
}

/// Significant bits of `d`.
pub(crate) fn bits<W: Word>(d: &[W]) -> usize {
    match d.iter().rposition(|&x| x != W::ZERO) {
        None => 0,
        Some(i) => i * W::BITS as usize + (W::BITS - d[i].leading_zeros()) as usize,
    }
}

/// Bit `i` of `d` (0 beyond the end).
pub(crate) fn bit<W: Word>(d: &[W], i: usize) -> bool {
    let w = W::BITS as usize;
    d.get(i / w).is_some_and(|x| x.bit((i % w) as u32))
}

/// The `width <= 64` bits of the little-endian digits `x` from bit `lo`
/// (bits beyond the digits are zero): a window of an exponent.
///
/// The digits read depend on `lo`, `width` and the digit count only, never
/// on their values, so `x` may be a secret exponent of public length.
#[inline]
pub(crate) fn window<W: Word>(x: &[W], lo: usize, width: usize) -> u64 {
    debug_assert!(width <= 64, "window of {width} bits");
    let w = W::BITS as usize;
    let (mut i, mut shift) = (lo / w, (lo % w) as u32);
    let (mut out, mut got) = (0u64, 0usize);
    while got < width {
        let d = x.get(i).map_or(0, |d| d.to_u64()) >> shift;
        out |= d.checked_shl(got as u32).unwrap_or(0);
        got += w - shift as usize;
        shift = 0;
        i += 1;
    }
    if width >= 64 { out } else { out & ((1 << width) - 1) }
}

/// Numeric comparison; either side may have high zero digits.
pub(crate) fn cmp<W: Word>(a: &[W], b: &[W]) -> Ordering {
    let len = a.len().max(b.len());
    for i in (0..len).rev() {
        let x = a.get(i).copied().unwrap_or(W::ZERO);
        let y = b.get(i).copied().unwrap_or(W::ZERO);
        match x.cmp(&y) {
            Ordering::Equal => {}
            other => return other,
        }
    }
    Ordering::Equal
}

/// `a + b`, one digit longer than the longer operand.
pub(crate) fn add<W: Word>(a: &[W], b: &[W]) -> Vec<W> {
    let (long, short) = if a.len() >= b.len() { (a, b) } else { (b, a) };
    let mut out = Vec::with_capacity(long.len() + 1);
    let mut carry = W::ZERO;
    for (i, &x) in long.iter().enumerate() {
        let y = short.get(i).copied().unwrap_or(W::ZERO);
        let (s, c) = W::adc(x, y, carry);
        out.push(s);
        carry = c;
    }
    out.push(carry);
    out
}

/// `a -= b` over `a.len()` digits (`b` no longer than `a`); returns the
/// borrow out of the top digit (1 if `b > a`). Constant-time in the values.
pub(crate) fn sub_assign<W: Word>(a: &mut [W], b: &[W]) -> W {
    debug_assert!(b.len() <= a.len());
    let mut borrow = W::ZERO;
    for (i, x) in a.iter_mut().enumerate() {
        let y = b.get(i).copied().unwrap_or(W::ZERO);
        let (d, bo) = W::sbb(*x, y, borrow);
        *x = d;
        borrow = bo;
    }
    borrow
}

/// `a · b` by the schoolbook method; `a.len() + b.len()` digits.
pub(crate) fn mul<W: Word>(a: &[W], b: &[W]) -> Vec<W> {
    let mut t = vec![W::ZERO; a.len() + b.len()];
    for (i, &bi) in b.iter().enumerate() {
        let mut c = W::ZERO;
        for (j, &aj) in a.iter().enumerate() {
            let (s, hi) = W::mac(t[i + j], aj, bi, c);
            t[i + j] = s;
            c = hi;
        }
        t[i + a.len()] = c;
    }
    t
}

/// `d · 2^k`.
pub(crate) fn shl<W: Word>(d: &[W], k: usize) -> Vec<W> {
    let w = W::BITS as usize;
    let (whole, part) = (k / w, (k % w) as u32);
    let mut out = vec![W::ZERO; whole];
    out.reserve(d.len() + 1);
    if part == 0 {
        out.extend_from_slice(d);
    } else {
        let mut carry = W::ZERO;
        for &x in d {
            out.push(x.shl(part) | carry);
            carry = x.shr(W::BITS - part);
        }
        out.push(carry);
    }
    out
}

/// `floor(d / 2^k)`.
pub(crate) fn shr<W: Word>(d: &[W], k: usize) -> Vec<W> {
    let w = W::BITS as usize;
    let (whole, part) = (k / w, (k % w) as u32);
    if whole >= d.len() {
        return Vec::new();
    }
    let src = &d[whole..];
    if part == 0 {
        return src.to_vec();
    }
    (0..src.len())
        .map(|i| {
            let hi = src.get(i + 1).copied().unwrap_or(W::ZERO);
            src[i].shr(part) | hi.shl(W::BITS - part)
        })
        .collect()
}
