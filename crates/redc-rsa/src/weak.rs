//! Checks against weak keys, made when a key is built (loaded or
//! generated), beside the consistency checks of [`crate::key`]:
//!
//! - a modulus with a prime factor below [`TRIAL_BOUND`] (`2^20`, 82,024 odd
//!   primes) is refused: found as `gcd(n, P mod n)`, `P` their product,
//!   kept as 46 pieces (made once, about 12 ms with the sieve, on one core), each
//!   reduced modulo `n` by Montgomery's reduction over all its digits on
//!   every core (the powers of `R^-1` this leaves do not change the gcd),
//!   then one binary gcd. Measured on a 2-core Zen 3 (a loaded KVM guest,
//!   five runs of 300 checks each, median): 0.69 ms for a 2048-bit
//!   modulus, against 1.01 ms with the former Montgomery product per
//!   chunk below `n`'s size;
//! - a modulus that is prime (Fermat's test to base 2, which every prime
//!   passes: a prime modulus makes `d` computable from `e`) or a perfect
//!   power `m^k` (`p^2` among them) is refused: `k`-th power residue tests
//!   modulo small primes `q ≡ 1 (mod k)` rule out nearly every modulus at
//!   once, an exact integer root settles the rest;
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
//! The first three look at public values (the modulus, the primes' lengths)
//! and run in variable time. The key's size against a security level is
//! [`crate::policy`]'s.

use crate::Num;
use crate::error::{Error, Result};
use rayon::prelude::*;
use redc::{Domain, SecretNat};
use std::sync::OnceLock;
use subtle::ConstantTimeEq;

/// Moduli with a prime factor below this bound are refused.
pub const TRIAL_BOUND: u64 = 1 << 20;

/// The odd primes below [`TRIAL_BOUND`].
fn small_primes() -> &'static [u64] {
    static PRIMES: OnceLock<Vec<u64>> = OnceLock::new();
    PRIMES.get_or_init(|| {
        let bound = TRIAL_BOUND as usize;
        let mut composite = vec![false; bound];
        let mut primes = Vec::new();
        for i in (3..bound).step_by(2) {
            if !composite[i] {
                primes.push(i as u64);
                (i * i..bound).step_by(2 * i).for_each(|j| composite[j] = true);
            }
        }
        primes
    })
}

/// The product of [`small_primes`] in pieces of at most [`PIECE_WORDS`]
/// digits' worth of primes each (46 of them), made once:
/// the primes packed three to a 64-bit word, each piece the product of its
/// words.
fn pieces() -> &'static [Num] {
    static PIECES: OnceLock<Vec<Num>> = OnceLock::new();
    PIECES.get_or_init(|| {
        let mut words = Vec::new();
        let mut word = 1u64;
        for &p in small_primes() {
            match word.checked_mul(p) {
                Some(w) => word = w,
                None => {
                    words.push(word);
                    word = p;
                }
            }
        }
        words.push(word);
        // Sequentially: a rayon pool inside a `OnceLock`'s initializer could
        // deadlock a caller that is itself a rayon job.
        words
            .chunks(PIECE_WORDS)
            .map(|ws| {
                // The running product, multiplied by each word in place.
                let mut digits = Vec::with_capacity(ws.len());
                digits.push(1u64);
                for &w in ws {
                    let mut carry = 0u64;
                    for d in &mut digits {
                        let x = u128::from(*d) * u128::from(w) + u128::from(carry);
                        *d = x as u64;
                        carry = (x >> 64) as u64;
                    }
                    if carry != 0 {
                        digits.push(carry);
                    }
                }
                Num::from_digits(digits)
            })
            .collect()
    })
}

/// Words of primes per piece: long pieces make the reduction cheap per
/// digit (one Montgomery row) and few products to join them, short ones
/// make them quick to build once.
const PIECE_WORDS: usize = 600;

/// The smallest odd prime factor of `n` below [`TRIAL_BOUND`], if any:
/// `gcd(n, P mod n)` for `P` the product of the primes, each piece of `P`
/// reduced modulo `n` by Montgomery's reduction over all its digits
/// (`Domain::fold_public`, `s` multiply-adds a digit), the pieces on every
/// core, their residues joined by Montgomery products (the powers of
/// `R^-1` this leaves do not change the gcd), then one binary gcd.
pub fn small_factor(n: &Num) -> Option<u64> {
    let primes = small_primes();
    let divides = |p: u64| n.rem(&Num::from_u64(p)).is_some_and(|r| r.is_zero());
    // Below 8 digits (no RSA modulus), plain trial division.
    if n.digits().len() < 8 {
        return primes
            .iter()
            .copied()
            .take_while(|&p| Num::from_u64(p) < *n)
            .find(|&p| divides(p));
    }
    enum Public {}
    let domain: Domain<Public> = Domain::public(n).ok()?;
    let s = n.digits().len();
    let product = pieces()
        .par_iter()
        .map(|piece| SecretNat::from_nat(&domain.fold_public(piece), s))
        .reduce(|| SecretNat::from_nat(&Num::one(), s), |a, b| domain.monpro(&a?, &b?))?;
    let g = n.gcd(&product.reveal());
    if g.is_one() {
        return None;
    }
    primes
        .iter()
        .copied()
        .find(|&p| g.rem(&Num::from_u64(p)).is_some_and(|r| r.is_zero()))
}

/// Why the public modulus `n` (odd, without a factor below
/// [`TRIAL_BOUND`]) cannot be an RSA modulus: it is prime, or a perfect
/// power. `None` for a modulus of two or more distinct primes.
pub fn structure(n: &Num) -> Option<String> {
    enum Public {}
    let domain: Domain<Public> = Domain::public(n).ok()?;
    let two = domain.enter(&SecretNat::from_limbs(vec![2]));
    let nm1 = n.checked_sub(&Num::one())?;
    if redc::secret::declassify(domain.pow_vartime(&two, &nm1).ct_eq(&domain.one())) {
        return Some("the modulus is prime (2^(n-1) mod n is 1)".into());
    }
    // n = m^k with m >= TRIAL_BOUND: k <= bits / 20, k prime suffices.
    let max_k = n.bits() / 20;
    for k in (2..=max_k as u64).filter(|&k| (2..k).take_while(|d| d * d <= k).all(|d| k % d != 0)) {
        if power_residue_everywhere(n, k) && exact_root(n, k).is_some() {
            return Some(format!("the modulus is a perfect power (an integer to the power {k})"));
        }
    }
    None
}

/// Whether `n` is a `k`-th power residue modulo the first small primes
/// `q ≡ 1 (mod k)` (24 of them for `k = 2`, 8 otherwise): a `k`-th power
/// always is; anything else almost never, each test passing with
/// probability `1/k`.
fn power_residue_everywhere(n: &Num, k: u64) -> bool {
    let tests = if k == 2 { 24 } else { 8 };
    small_primes()
        .iter()
        .copied()
        .filter(|q| q % k == 1)
        .take(tests)
        .all(|q| {
            let a = n.digits().iter().rev().fold(0u64, |r, &d| {
                ((u128::from(r) << 64 | u128::from(d)) % u128::from(q)) as u64
            });
            pow_mod(a, (q - 1) / k, q) == 1
        })
}

/// `a^e mod q` for `q < 2^32`.
fn pow_mod(mut a: u64, mut e: u64, q: u64) -> u64 {
    let mut r = 1u64;
    while e > 0 {
        if e & 1 == 1 {
            r = r * a % q;
        }
        a = a * a % q;
        e >>= 1;
    }
    r
}

/// `m` with `m^k = n`, if there is one: Newton's iteration for the
/// integer `k`-th root, from above (`2^ceil(bits/k)`), down to
/// `floor(n^(1/k))`, then one power to compare.
fn exact_root(n: &Num, k: u64) -> Option<Num> {
    let pow = |x: &Num, e: u64| (1..e).fold(x.clone(), |acc, _| acc.mul(x));
    let (k_minus_1, k_num) = (Num::from_u64(k - 1), Num::from_u64(k));
    let mut x = Num::pow2(n.bits().div_ceil(usize::try_from(k).ok()?));
    loop {
        let (q, _) = n.divrem(&pow(&x, k - 1))?;
        let (y, _) = x.mul(&k_minus_1).add(&q).divrem(&k_num)?;
        if y >= x {
            break;
        }
        x = y;
    }
    (pow(&x, k) == *n).then_some(x)
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
        let primes = small_primes();
        assert_eq!(primes.len(), 82_024, "82,025 primes below 2^20, 2 excluded");
        assert_eq!((primes[0], primes[1], *primes.last().unwrap()), (3, 5, 1_048_573));
        // The pieces multiply to the product of the primes: divisible by
        // each (the first hundred and the last), and as long as their sum
        // of logarithms.
        let whole = pieces().iter().fold(Num::one(), |acc, c| acc.mul(c));
        for &p in primes.iter().take(100).chain(primes.last()) {
            assert!(whole.rem(&Num::from_u64(p)).unwrap().is_zero(), "{p}");
        }
        let log2: f64 = primes.iter().map(|&p| (p as f64).log2()).sum();
        assert!(
            (whole.bits() as f64 - log2).abs() < 2.0,
            "{} bits, {log2}",
            whole.bits()
        );
        assert!(
            pieces().iter().all(|c| c.digits().len() <= PIECE_WORDS),
            "pieces of at most PIECE_WORDS digits"
        );
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
        // 65537 and 1048573 are below the raised bound; 1048583 is not.
        let m521 = Num::pow2(521).checked_sub(&Num::one()).unwrap();
        let key_sized = m521.mul(&Num::pow2(1526).checked_sub(&Num::one()).unwrap().add(&Num::pow2(1000)));
        for p in [65537u64, 1_048_573] {
            assert_eq!(small_factor(&big.mul(&Num::from_u64(p))), Some(p));
            let n = m521
                .mul(&Num::from_u64(p))
                .mul(&Num::pow2(1400).add(&Num::from_u64(0x1_0001_0001)));
            if small_factor(&n) != Some(p) {
                assert!(small_factor(&n).is_some_and(|q| q < p));
            }
        }
        assert_eq!(small_factor(&m521.mul(&m89).mul(&Num::from_u64(1_048_583))), None);
        let _ = key_sized;
    }

    #[test]
    fn prime_moduli_and_perfect_powers_are_named() {
        let m521 = Num::pow2(521).checked_sub(&Num::one()).unwrap();
        let m607 = Num::pow2(607).checked_sub(&Num::one()).unwrap();
        let m1279 = Num::pow2(1279).checked_sub(&Num::one()).unwrap();
        assert!(structure(&m1279).unwrap().contains("prime"));
        assert!(structure(&m521.mul(&m521)).unwrap().contains("power 2"));
        assert!(structure(&m521.mul(&m521).mul(&m521)).unwrap().contains("power 3"));
        assert!(
            structure(&m607.mul(&m607).mul(&m607).mul(&m607).mul(&m607))
                .unwrap()
                .contains("power 5")
        );
        assert_eq!(structure(&m521.mul(&m607)), None);
        assert_eq!(
            structure(&m521.mul(&m521).mul(&m607)),
            None,
            "p^2 q is not a perfect power"
        );
        assert_eq!(exact_root(&m607.mul(&m607), 2), Some(m607.clone()));
        assert_eq!(exact_root(&m607.mul(&m607).add(&Num::one()), 2), None);
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
