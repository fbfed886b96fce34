//! The exact number of 32x32->64-bit digit products the kernels
//! (`kernels/*.cuh`) run for one exponentiation, for cost models and for the
//! tests, which compare it with the host simulator's product counter.
//!
//! Montgomery product, `N` digits, `T` threads per number: CIOS, `N` rows of
//! `N` products for `a * b[i]`, one for the quotient digit (computed by every
//! thread of a group, kept from rank 0) and `N` for `q * n`: `2N^2 + N T`.
//! Squaring with `T = 1` (dedicated): `N(N-1)/2 + N` products for `a^2`, then
//! `N^2 + N` for the reduction; with `T > 1` a squaring is a product.

use crate::Secrecy;

/// Bits per window of the secret kernels (`WINDOW` in `kernels/exp.cuh`).
pub const WINDOW: usize = 4;

/// Products of one Montgomery product.
pub fn multiplies_per_mul(digits: usize, threads: usize) -> u64 {
    let (n, t) = (digits as u64, threads as u64);
    2 * n * n + n * t
}

/// Products of one Montgomery squaring.
pub fn multiplies_per_sqr(digits: usize, threads: usize) -> u64 {
    let n = digits as u64;
    if threads == 1 {
        n * (n - 1) / 2 + n * n + 2 * n
    } else {
        multiplies_per_mul(digits, threads)
    }
}

/// Products of one exponentiation on `threads` threads per number of
/// `digits` digits.
///
/// - [`Secrecy::Secret`]: `exp_bits` is the batch's bound; the count holds
///   for every exponent (`ones` is ignored): a 16-entry table and the
///   conversions (17 products), then `W - 1` windows of 4 squarings and one
///   product, `W = ceil(exp_bits / 4)`.
/// - [`Secrecy::Public`]: `exp_bits` is the exponent's own length (its top set
///   bit plus one, 0 for a zero exponent) and `ones` its number of set bits:
///   3 products (conversions), a squaring per bit below the top one, a product
///   per set bit. The worst case for a bound `b` is `ones = exp_bits = b`.
///   With `threads > 1` the groups of a warp square and multiply together,
///   so the count holds when the exponents of a warp agree (otherwise the warp
///   runs the union of their steps).
pub fn multiplies_per_pow(digits: usize, threads: usize, secrecy: Secrecy, exp_bits: usize, ones: usize) -> u64 {
    let mul = multiplies_per_mul(digits, threads);
    let sqr = multiplies_per_sqr(digits, threads);
    match secrecy {
        Secrecy::Secret => {
            let windows = exp_bits.div_ceil(WINDOW) as u64;
            17 * mul + windows.saturating_sub(1) * (WINDOW as u64 * sqr + mul)
        }
        Secrecy::Public => 3 * mul + (exp_bits as u64).saturating_sub(1) * sqr + ones as u64 * mul,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_thread_squaring_saves_about_a_quarter() {
        assert_eq!(multiplies_per_mul(16, 1), 2 * 256 + 16);
        assert_eq!(multiplies_per_sqr(16, 1), 120 + 256 + 32);
        assert_eq!(multiplies_per_sqr(16, 4), multiplies_per_mul(16, 4));
    }

    #[test]
    fn zero_length_exponents_cost_the_fixed_part() {
        assert_eq!(
            multiplies_per_pow(16, 1, Secrecy::Secret, 0, 0),
            17 * multiplies_per_mul(16, 1)
        );
        assert_eq!(
            multiplies_per_pow(16, 1, Secrecy::Secret, 4, 0),
            17 * multiplies_per_mul(16, 1)
        );
        assert_eq!(
            multiplies_per_pow(16, 8, Secrecy::Public, 0, 0),
            3 * multiplies_per_mul(16, 8)
        );
    }
}
