//! The fixed-window (`2^k`-ary) exponentiation driver, constant time in the
//! exponent: 000_be478b6750af4540.txt Fig. 1 with `k`-bit digits of the
//! exponent; Menezes, van Oorschot, Vanstone, Handbook of Applied
//! Cryptography, Alg. 14.82. Every secret exponent in redc runs here (the
//! teaching schedule, the scalar kernels, the IFMA lanes).
//!
//! ```text
//! table[v] = X^v                      v < 2^k
//! x = table[top window]
//! for each lower k-bit window d:  x = x^(2^k) · table[d]
//! ```
//!
//! The number of windows is a public bound, every window costs `k`
//! squarings and one product (also for `d = 0`), and `table[d]` is read by
//! the kernel's constant-time select, so neither a branch nor a memory
//! address depends on a digit.

use super::{Kernel, Observer, Step};
use zeroize::{Zeroize, Zeroizing};

/// Window width for an exponent of `bits` bits: the break-even points where
/// a wider table starts to pay for itself (the same thresholds OpenSSL uses).
pub fn default_window(bits: usize) -> u32 {
    match bits {
        0..=23 => 1,
        24..=79 => 3,
        80..=239 => 4,
        240..=671 => 5,
        _ => 6,
    }
}

/// `base^e` in Montgomery form, `e` given as `windows` digits of `width`
/// bits: `digit(w)` is digit `w` (bits `w·width ..`) of every lane's
/// exponent.
///
/// Pre: `1 <= width <= 8`; `base` is a residue of the kernel; every lane's
/// exponent is below `2^(width·windows)`. Post: `base^e` in the kernel's
/// range; `windows = 0` gives 1. The observer sees [`Step::Init`] and one
/// [`Step::Window`] per window, from the top.
///
/// Always inlined, so that a SIMD kernel's entry point compiled with its
/// target features runs the whole exponentiation with them.
#[inline(always)]
pub fn pow<K: Kernel>(
    k: &mut K,
    base: &K::Elem,
    width: u32,
    windows: usize,
    digit: impl Fn(usize) -> K::Index,
    obs: &mut impl Observer<K>,
) -> K::Elem {
    debug_assert!((1..=8).contains(&width), "window width {width}");
    let table = power_table(k, base, width);
    obs.step(k, Step::Init, &table[0]);
    let mut x = table[0].clone();
    let Some(top) = windows.checked_sub(1) else {
        return x;
    };
    k.select(&mut x, &table, digit(top));
    obs.step(
        k,
        Step::Window {
            lo: top * width as usize,
            len: width,
        },
        &x,
    );
    let mut entry = x.clone();
    for w in (0..top).rev() {
        for _ in 0..width {
            k.sqr(&mut x);
        }
        k.select(&mut entry, &table, digit(w));
        k.mul(&mut x, &entry);
        obs.step(
            k,
            Step::Window {
                lo: w * width as usize,
                len: width,
            },
            &x,
        );
    }
    entry.zeroize();
    x
}

/// The window width of [`pow_digits`] (the one-lane 64-bit kernels) for
/// an exponent of `bits` bits: 5 from 240 to 1536 bits (where
/// [`default_window`] gives 5 up to 671 bits and 6 above), else
/// [`default_window`]. Measured with the `mulx`/`adx` kernels (the
/// portable ones, slower per product, take the same widths) on the
/// project's Sapphire Rapids guest, exponents as long as the modulus, best
/// of 7 runs, µs for windows 4 / 5 / 6 / 7: 1024 bits 257 / 254 / 261 /
/// 284; 1536 bits 739 / 722 / 727 / 768; 2048 bits 1627 / 1582 / 1586 /
/// 1642; 3072 bits 5218 / 5064 / 4987 / 5082; 4096 bits 12323 / 11867 /
/// 11615 / 11756 (2048 bits a tie, left at 6; the table's products and
/// constant-time reads cost more, against the faster products, than
/// OpenSSL's thresholds assume).
pub fn digits_window(bits: usize) -> u32 {
    match bits {
        240..=1536 => 5,
        _ => default_window(bits),
    }
}

/// [`pow`] of one lane's exponent given as 64-bit digits, `exp <
/// 2^exp_bits`, with the [`digits_window`] for `exp_bits`: constant time
/// in `base` and `exp` for given `exp_bits`.
#[inline(always)]
pub fn pow_digits<K: Kernel<Index = u64>>(k: &mut K, base: &K::Elem, exp: &[u64], exp_bits: usize) -> K::Elem {
    let width = digits_window(exp_bits);
    let digit = |w: usize| crate::nat::limbs::window(exp, w * width as usize, width as usize);
    pow(k, base, width, exp_bits.div_ceil(width as usize), digit, &mut ())
}

/// `table[v] = base^v` for `v < 2^width`: even powers by squaring
/// `table[v/2]`, odd ones by a product with `base`.
#[inline(always)]
fn power_table<K: Kernel>(k: &mut K, base: &K::Elem, width: u32) -> Zeroizing<Vec<K::Elem>> {
    let mut table = Zeroizing::new(Vec::with_capacity(1 << width));
    table.push(k.one());
    table.push(base.clone());
    for v in 2..1usize << width {
        let mut e = table[if v % 2 == 0 { v / 2 } else { v - 1 }].clone();
        if v % 2 == 0 {
            k.sqr(&mut e);
        } else {
            k.mul(&mut e, base);
        }
        table.push(e);
    }
    table
}
