//! The sliding-window exponentiation driver, for public exponents only
//! (Handbook of Applied Cryptography, Alg. 14.85): RSA's `e`, the e-check
//! of every private operation, Miller–Rabin.
//!
//! Only the odd powers `X, X^3, ..., X^(2^k - 1)` are tabulated; a zero bit
//! of the exponent costs one squaring, a window of at most `k` bits that
//! starts and ends with a one costs a squaring per bit and one product; the
//! first window loads its table entry instead of multiplying 1 by it. The
//! sequence of operations and the table index reveal the exponent:
//! variable time, hence `_vartime`.

use super::{Kernel, Observer, Step};
use crate::nat::limbs;
use crate::word::Word;
use zeroize::{Zeroize, Zeroizing};

/// `base^exp` in Montgomery form with windows of at most `width` bits, the
/// same exponent (little-endian digits of any width) in every lane.
///
/// Pre: `1 <= width <= 8`; `base` is a residue of the kernel. Post:
/// `base^exp` in the kernel's range; `exp = 0` gives 1. The observer sees
/// [`Step::Init`], then a [`Step::Square`] per zero bit and a
/// [`Step::Window`] per window, from the top. Always inlined (see
/// [`super::window::pow`]).
#[inline(always)]
pub fn pow_vartime<K: Kernel, W: Word>(
    k: &mut K,
    base: &K::Elem,
    exp: &[W],
    width: u32,
    obs: &mut impl Observer<K>,
) -> K::Elem {
    debug_assert!((1..=8).contains(&width), "window width {width}");
    let width = width as usize;
    // higher[j] = base^(2j + 3): the odd powers above `base` itself (none,
    // and no allocation, for one-bit windows such as RSA's `e` takes).
    // Room for the whole table first: a reallocation would free a buffer
    // of powers of a base that may be secret without wiping it.
    let mut higher = Zeroizing::new(Vec::with_capacity((1 << (width - 1)) - 1));
    if width > 1 {
        let mut square = base.clone();
        k.sqr(&mut square);
        let mut power = base.clone();
        for _ in 1..1usize << (width - 1) {
            k.mul(&mut power, &square);
            higher.push(power.clone());
        }
        square.zeroize();
        power.zeroize();
    }
    let one = k.one();
    obs.step(k, Step::Init, &one);
    let mut x: Option<K::Elem> = None;
    let mut i = limbs::bits(exp);
    while i > 0 {
        let top = i - 1;
        if !limbs::bit(exp, top) {
            // The top bit is a one: x is set by the first window.
            if let Some(x) = x.as_mut() {
                k.sqr(x);
                obs.step(k, Step::Square { bit: top }, x);
            }
            i = top;
            continue;
        }
        // The longest window exp[lo..=top] of at most `width` bits ending in a 1.
        let mut lo = top.saturating_sub(width - 1);
        while !limbs::bit(exp, lo) {
            lo += 1;
        }
        let len = top - lo + 1;
        let entry = match (limbs::window(exp, lo, len) as usize - 1) / 2 {
            0 => base,
            j => &higher[j - 1],
        };
        let x = match x.as_mut() {
            Some(x) => {
                for _ in 0..len {
                    k.sqr(x);
                }
                k.mul(x, entry);
                x
            }
            None => x.insert(entry.clone()),
        };
        obs.step(k, Step::Window { lo, len: len as u32 }, x);
        i = lo;
    }
    x.unwrap_or(one)
}
