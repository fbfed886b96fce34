//! The arithmetic the models are checked against, computed with redc's
//! natural numbers and no circuit structure at all.

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

/// `base^exp mod n` by redc's own Montgomery exponentiation (the reference
/// the exponentiators are checked against).
pub fn modpow(base: &Big, exp: &Big, n: &Big) -> Big {
    redc::modpow(base, exp, n, redc::PowOptions::default(), None).expect("nonzero modulus")
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
}
