//! The Jacobi symbol `(a/n)`, by the binary reciprocity algorithm (Cohen,
//! *A Course in Computational Algebraic Number Theory*, Alg. 1.4.10, with
//! Euclid's remainder in place of subtraction).
//!
//! For a prime `p` it is the Legendre symbol, and Euler's criterion makes it
//! equal to `a^((p-1)/2) mod p`: for a safe prime `p = 2q + 1`, `(y/p) = 1`
//! exactly when `y^q = 1 (mod p)`, the subgroup check of SP 800-56A
//! §5.6.2.3.1 step 3, for a few divisions instead of a full exponentiation.
//! Variable-time: for public values only (a peer's public key).

use redc::Nat;

/// `(a/n)` for an odd `n >= 3`: `1`, `-1`, or `0` when `gcd(a, n) > 1`.
/// `None` when `n` is even or below 3.
pub fn jacobi(a: &Nat<u64>, n: &Nat<u64>) -> Option<i8> {
    if !n.is_odd() || n.bits() < 2 {
        return None;
    }
    let mut n = n.clone();
    let mut a = a.rem(&n)?;
    let mut t = 1i8;
    while let Some(z) = a.trailing_zeros() {
        a = a.shr(z);
        let n8 = n.digits()[0] & 7;
        // (2/n) = -1 exactly when n = 3 or 5 (mod 8).
        if z % 2 == 1 && (n8 == 3 || n8 == 5) {
            t = -t;
        }
        // Quadratic reciprocity for odd a, n: a sign change when both are 3 mod 4.
        if a.digits()[0] & 3 == 3 && n8 & 3 == 3 {
            t = -t;
        }
        core::mem::swap(&mut a, &mut n);
        a = a.rem(&n)?;
    }
    Some(if n.is_one() { t } else { 0 })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Euler's criterion on small primes, every residue: the symbol against
    /// `a^((p-1)/2) mod p` by repeated multiplication.
    #[test]
    fn legendre_symbol_is_eulers_criterion_for_small_primes() {
        for p in [3u64, 5, 7, 11, 13, 17, 19, 23, 101, 103, 65537] {
            for a in 0..p.min(400) {
                let mut e = 1u64;
                for _ in 0..(p - 1) / 2 {
                    e = e * a % p;
                }
                let want = match e {
                    0 => 0,
                    1 => 1,
                    _ => -1,
                };
                assert_eq!(jacobi(&Nat::from_u64(a), &Nat::from_u64(p)), Some(want), "({a}/{p})");
            }
        }
    }

    /// The Jacobi symbol is multiplicative in n: (a/15) = (a/3)(a/5).
    #[test]
    fn jacobi_symbol_of_a_composite_is_the_product_over_its_factors() {
        for a in 0..60u64 {
            let a = Nat::from_u64(a);
            let [j3, j5, j15] = [3u64, 5, 15].map(|n| jacobi(&a, &Nat::from_u64(n)).unwrap());
            assert_eq!(j15, j3 * j5);
        }
    }

    #[test]
    fn even_or_tiny_moduli_are_refused() {
        for n in [0u64, 1, 2, 4, 10] {
            assert_eq!(jacobi(&Nat::from_u64(3), &Nat::from_u64(n)), None);
        }
    }
}
