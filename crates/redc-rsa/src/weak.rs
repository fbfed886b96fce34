//! Checks against weak keys, made when a key is built (loaded or
//! generated), beside the consistency checks of [`crate::key`]:
//!
//! - a modulus with a prime factor below [`TRIAL_BOUND`] (`2^16`) is
//!   refused: found at once as `gcd(n, P)`, `P` the product of the odd
//!   primes below the bound (measured here: 0.23 ms for a 2013-bit modulus,
//!   0.60 ms for 4089 bits; once per key, by [`crate::RsaPublicKey::new`]);
//! - a prime of a private key must have at least half its share of the
//!   modulus (`bits(n) / (2k)` bits for `k` primes): a rule against gross
//!   imbalance, not a security margin of its own. Balanced keys, and
//!   OpenSSL's multi-prime ones, have primes within a bit or two of
//!   `bits(n) / k`; the floor is a 512-bit prime in a 2048-bit two-prime
//!   key (beyond the elliptic-curve method's record factor of about 274
//!   bits), a 128-bit one in a 512-bit key (within its reach, as 512-bit
//!   RSA is within reach of the number field sieve); a 17-bit prime in a
//!   2048-bit key is refused;
//! - a prime of a private key must pass Fermat's test to base 2,
//!   `2^(p-1) ≡ 1 (mod p)`, run in constant time on the prime's own
//!   domain (one exponentiation per prime at load; one of 2048 bits takes
//!   1.6 ms on the scalar kernel here, so about 3 ms for a 4096-bit key): a
//!   composite "prime" is named as such. Base-2 pseudoprimes pass;
//!   those that are Carmichael numbers even compute correct RSA results, so
//!   no later check refuses them. A strong (Miller-Rabin) test in constant
//!   time would catch them too; `redc::prime`'s is variable-time and is not
//!   run on a key in use.
//!
//! The first two look at public values (the modulus, the primes' lengths)
//! and run in variable time.

use crate::Num;
use crate::error::{Error, Result};
use redc::{Domain, SecretNat};
use std::sync::OnceLock;
use subtle::ConstantTimeEq;

/// Moduli with a prime factor below this bound are refused.
pub const TRIAL_BOUND: u64 = 1 << 16;

/// The odd primes below [`TRIAL_BOUND`], and their product.
fn small_primes() -> &'static (Vec<u64>, Num) {
    static PRIMES: OnceLock<(Vec<u64>, Num)> = OnceLock::new();
    PRIMES.get_or_init(|| {
        let bound = TRIAL_BOUND as usize;
        let mut composite = vec![false; bound];
        let mut primes = Vec::new();
        for i in 3..bound {
            if !composite[i] && i % 2 == 1 {
                primes.push(i as u64);
                (i * i..bound).step_by(2 * i).for_each(|j| composite[j] = true);
            }
        }
        // Products of a few primes in one digit, then one long product.
        let mut product = Num::one();
        for chunk in primes.chunks(4) {
            product = product.mul(&Num::from_u64(chunk.iter().product()));
        }
        (primes, product)
    })
}

/// The smallest odd prime factor of `n` below [`TRIAL_BOUND`], if any.
pub fn small_factor(n: &Num) -> Option<u64> {
    let (primes, product) = small_primes();
    let g = n.gcd(&product.rem(n)?);
    if g.is_one() {
        return None;
    }
    primes
        .iter()
        .copied()
        .find(|&p| g.rem(&Num::from_u64(p)).is_some_and(|r| r.is_zero()))
}

/// The prime `i` (from 0) of `k` primes of an `n_bits`-bit modulus, with
/// `bits` bits, has at least half its share of the modulus.
pub(crate) fn check_prime_size(i: usize, bits: usize, k: usize, n_bits: usize) -> Result<()> {
    let share = n_bits / k;
    if 2 * bits < share {
        return Err(Error::InvalidKey(format!(
            "prime {} has {bits} bits, far below its share of the {n_bits}-bit modulus \
             ({share} bits; at least {} are required)",
            i + 1,
            share.div_ceil(2)
        )));
    }
    Ok(())
}

/// Fermat's test to base 2 of the prime `i` (from 0), `p` with its domain,
/// in constant time: `2^(p-1) mod p` with a fixed window over `bound` bits.
pub(crate) fn check_fermat<M>(i: usize, p: &SecretNat, domain: &Domain<M>, bound: usize) -> Result<()> {
    let two = domain.enter(&SecretNat::from_limbs(vec![2]));
    let x = domain.pow(&two, &p.wrapping_sub_small(1), bound);
    if redc::secret::declassify(x.ct_eq(&domain.one())) {
        Ok(())
    } else {
        Err(Error::InvalidKey(format!(
            "prime {} is composite (2^(p-1) mod p is not 1)",
            i + 1
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_primes_are_the_odd_primes_below_the_bound() {
        let (primes, product) = small_primes();
        assert_eq!(primes.len(), 6541, "6542 primes below 2^16, 2 excluded");
        assert_eq!((primes[0], primes[1], *primes.last().unwrap()), (3, 5, 65521));
        let mut p = Num::one();
        primes.iter().for_each(|&q| p = p.mul(&Num::from_u64(q)));
        assert_eq!(*product, p);
    }

    #[test]
    fn small_factors_are_found_and_large_ones_not() {
        // 2^127 - 1 and 2^89 - 1 are prime.
        let m127 = Num::pow2(127).checked_sub(&Num::one()).unwrap();
        let m89 = Num::pow2(89).checked_sub(&Num::one()).unwrap();
        let big = m127.mul(&m89);
        assert_eq!(small_factor(&big), None);
        for p in [3u64, 5, 65521] {
            assert_eq!(small_factor(&big.mul(&Num::from_u64(p))), Some(p));
        }
        // The smallest of several; a product of small primes alone.
        assert_eq!(small_factor(&big.mul(&Num::from_u64(65521 * 7))), Some(7));
        assert_eq!(small_factor(&Num::from_u64(3 * 5 * 7)), Some(3));
        // 65537 is above the bound.
        assert_eq!(small_factor(&big.mul(&Num::from_u64(65537))), None);
    }

    #[test]
    fn prime_sizes_need_half_their_share() {
        assert!(check_prime_size(0, 1024, 2, 2048).is_ok());
        assert!(check_prime_size(0, 512, 2, 2048).is_ok());
        let err = check_prime_size(1, 511, 2, 2048).unwrap_err().to_string();
        assert!(
            err.contains("prime 2 has 511 bits") && err.contains("at least 512"),
            "{err}"
        );
        assert!(check_prime_size(2, 17, 3, 3072).is_err());
        assert!(check_prime_size(2, 1024, 3, 3072).is_ok());
    }
}
