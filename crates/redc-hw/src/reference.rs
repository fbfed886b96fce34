//! The arithmetic the models are checked against, computed with redc's
//! natural numbers (schoolbook products, Knuth division, Euclid's inverse):
//! no circuit structure and no Montgomery code at all.

use crate::Big;

/// The exact output of a Montgomery product *without* final subtraction:
/// `(a·b + q·m) / 2^r` with `q = -a·b·m^(-1) mod 2^r`, the unique `q` in
/// `[0, 2^r)` that makes the sum divisible by `2^r`.
///
/// Every digit-serial form that picks each quotient digit to clear the
/// low digit (001 Alg. 1 and Alg. 3, 002 Alg. 3.2 with m = M~, 003 Alg. I
/// and II, 004 Alg. 1) computes exactly this value, whatever its radix, as
/// long as its digits together span r bits: the quotient digits form q.
///
/// Preconditions: `m` odd. The result is below `(a·b)/2^r + m`.
pub fn mont_product_exact(a: &Big, b: &Big, m: &Big, r: usize) -> Big {
    let ab = a.mul(b);
    let r_mask_mod = Big::pow2(r);
    let m_inv = m
        .low_bits(r)
        .inv_mod(&r_mask_mod)
        .expect("odd modulus is invertible mod 2^r");
    // q = (-(ab) · m^-1) mod 2^r = (2^r - (ab·m^-1 mod 2^r)) mod 2^r.
    let t = ab.low_bits(r).mul(&m_inv).low_bits(r);
    let q = if t.is_zero() {
        t
    } else {
        r_mask_mod.checked_sub(&t).expect("t < 2^r")
    };
    ab.add(&q.mul(m)).shr(r)
}

/// `x mod n`.
pub fn reduce(x: &Big, n: &Big) -> Big {
    x.rem(n).expect("nonzero modulus")
}

/// `2^k mod n`, the constant the pre-computations multiply by.
pub fn pow2_mod(k: usize, n: &Big) -> Big {
    reduce(&Big::pow2(k), n)
}

/// `base^exp mod n` by left-to-right square-and-multiply on plain natural
/// numbers: each step a schoolbook product ([`Big::mul`]) reduced by Knuth's
/// division ([`Big::rem`]). No Montgomery arithmetic at all, so it shares
/// nothing with the models or with redc's own exponentiation: the reference
/// the exponentiators and the CRT decryptions are checked against.
///
/// Preconditions: `n > 0`. Postcondition: the result is below `n`
/// (`0` for `n = 1`; `1 mod n` for `exp = 0`). Variable-time: public data only.
pub fn modpow(base: &Big, exp: &Big, n: &Big) -> Big {
    let base = reduce(base, n);
    let mut acc = reduce(&Big::one(), n);
    for i in (0..exp.bits()).rev() {
        acc = reduce(&acc.mul(&acc), n);
        if exp.bit(i) {
            acc = reduce(&acc.mul(&base), n);
        }
    }
    acc
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_product_is_congruent_and_divides() {
        let m = Big::from_u64(0xF123_4567);
        let a = Big::from_u64(0x1234_5678);
        let b = Big::from_u64(0xDEAD_BEEF);
        let r = 34;
        let t = mont_product_exact(&a, &b, &m, r);
        // t·2^r ≡ a·b (mod m).
        assert_eq!(reduce(&t.shl(r), &m), reduce(&a.mul(&b), &m));
        assert!(t.checked_sub(&m.add(&a.mul(&b).shr(r))).is_none());
    }

    /// `base^exp mod n` by repeated multiplication in `u128`.
    fn naive(base: u64, exp: u64, n: u64) -> u64 {
        (0..exp).fold(1 % u128::from(n), |acc, _| acc * u128::from(base) % u128::from(n)) as u64
    }

    #[test]
    fn modpow_is_repeated_multiplication() {
        for n in [1u64, 2, 3, 10, 97, 0xFFFF_FFFB, 0xF123_4567] {
            for base in [0u64, 1, 2, 5, 96, 0xDEAD_BEEF] {
                for exp in [0u64, 1, 2, 3, 17, 64, 255] {
                    let got = modpow(&Big::from_u64(base), &Big::from_u64(exp), &Big::from_u64(n));
                    assert_eq!(got, Big::from_u64(naive(base, exp, n)), "{base}^{exp} mod {n}");
                }
            }
        }
    }

    #[test]
    fn modpow_follows_fermat_on_a_large_prime() {
        // 2^127 − 1 is prime: a^(p−1) ≡ 1 and a^p ≡ a.
        let p = Big::pow2(127).checked_sub(&Big::one()).expect("p > 1");
        let p1 = p.checked_sub(&Big::one()).expect("p > 1");
        let a = Big::from_u64(0x1234_5678_9ABC_DEF1);
        assert!(modpow(&a, &p1, &p).is_one());
        assert_eq!(modpow(&a, &p, &p), a);
    }
}
