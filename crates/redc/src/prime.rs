//! Probable primes: Miller–Rabin with random bases, in Montgomery form
//! (FIPS 186-5 §B.3.1), and the round counts of FIPS 186-5 Table B.1.
//!
//! Variable-time: for key generation and for the hardware models' seeded
//! keys, never on a secret that is already in use.

use crate::nat::Nat;
use crate::residue::Domain;
use crate::secret::SecretNat;
use rand_core::CryptoRngCore;
use subtle::ConstantTimeEq;

/// The odd primes below 2^14, for trial division (computed once).
fn small_primes() -> &'static [u64] {
    static PRIMES: std::sync::OnceLock<Vec<u64>> = std::sync::OnceLock::new();
    PRIMES.get_or_init(|| {
        const LIMIT: usize = 1 << 14;
        let mut composite = vec![false; LIMIT];
        let mut primes = Vec::new();
        for i in (3..LIMIT).step_by(2) {
            if !composite[i] {
                primes.push(i as u64);
                for j in (i * i..LIMIT).step_by(2 * i) {
                    composite[j] = true;
                }
            }
        }
        primes
    })
}

/// Whether an odd prime below 2^14 other than `n` itself divides `n`: the
/// trial division before Miller–Rabin of every prime search (one pass of
/// single-digit remainders per small prime).
pub fn has_small_factor(n: &Nat<u64>) -> bool {
    small_primes().iter().any(|&sp| {
        let r = n.digits().iter().rev().fold(0u64, |r, &d| {
            ((u128::from(r) << 64 | u128::from(d)) % u128::from(sp)) as u64
        });
        r == 0 && *n != Nat::from_u64(sp)
    })
}

/// Miller–Rabin rounds for a probable prime of `bits` bits: FIPS 186-5
/// Table B.1 asks for 5 rounds at 1024 bits and 4 at 1536 bits and above
/// (error below 2^-100 for RSA primes); redc doubles them.
pub fn miller_rabin_rounds(bits: usize) -> usize {
    match bits {
        0..=511 => 40,
        512..=1023 => 14,
        1024..=1535 => 10,
        _ => 8,
    }
}

/// Residues modulo a candidate prime.
enum Candidate {}

/// Is `n` (odd, > 2^14) a probable prime after `rounds` Miller–Rabin
/// rounds with random bases uniform in `[2, n - 2]`? An even `n` or
/// `n <= 1` is not. Errors only when `rng` fails.
///
/// On the kernel layer's 64-bit kernels: each base is raised to the odd
/// part `d` of `n - 1` by fixed windows over the public length of `n`
/// (the candidate may become a secret prime), then squared until `-1`
/// or `1` appears.
pub fn is_probable_prime(n: &Nat<u64>, rounds: usize, rng: &mut impl CryptoRngCore) -> Result<bool, rand_core::Error> {
    let Ok(domain) = Domain::<Candidate>::public(n) else {
        return Ok(false);
    };
    let len = n.digits().len();
    let n_minus_1 = n.checked_sub(&Nat::one()).unwrap_or_default();
    let s = n_minus_1.trailing_zeros().unwrap_or(0);
    let d = SecretNat::from_nat(&n_minus_1.shr(s), len).unwrap_or_default();
    let one = domain.one();
    let minus_one = domain.enter(&SecretNat::from_nat(&n_minus_1, len).unwrap_or_default());
    let two = Nat::from_u64(2);
    for _ in 0..rounds {
        if n_minus_1 <= Nat::from_u64(3) {
            return Ok(true);
        }
        // a uniform in [2, n - 2]
        let a = loop {
            let a = random_below(&n_minus_1, rng)?;
            if a >= two {
                break a;
            }
        };
        let am = domain.enter(&SecretNat::from_nat(&a, len).unwrap_or_default());
        let mut x = domain.pow(&am, &d, 64 * len);
        if bool::from(x.ct_eq(&one) | x.ct_eq(&minus_one)) {
            continue;
        }
        let mut witness = true;
        for _ in 1..s {
            x = domain.sqr(&x);
            if bool::from(x.ct_eq(&minus_one)) {
                witness = false;
                break;
            }
            if bool::from(x.ct_eq(&one)) {
                break;
            }
        }
        if witness {
            return Ok(false);
        }
    }
    Ok(true)
}

/// A uniform number in `[1, n)` (rejection sampling on `bits(n)` bits).
/// Pre: `n >= 2`.
fn random_below(n: &Nat<u64>, rng: &mut impl CryptoRngCore) -> Result<Nat<u64>, rand_core::Error> {
    let bits = n.bits();
    let mut buf = vec![0u8; bits.div_ceil(8)];
    loop {
        rng.try_fill_bytes(&mut buf)?;
        buf[0] &= 0xff >> (buf.len() * 8 - bits);
        let x = Nat::from_be_bytes(&buf);
        if !x.is_zero() && x < *n {
            return Ok(x);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_core::OsRng;

    #[test]
    fn trial_division_finds_small_factors_only() {
        assert_eq!(small_primes().len(), 1899);
        assert_eq!(small_primes()[..4], [3, 5, 7, 11]);
        assert_eq!(small_primes().last(), Some(&16381));
        assert!(!has_small_factor(&Nat::from_u64(16381)));
        assert!(has_small_factor(&Nat::from_u64(16381 * 3)));
        let mersenne = Nat::pow2(127).checked_sub(&Nat::one()).unwrap();
        assert!(!has_small_factor(&mersenne));
        assert!(has_small_factor(&mersenne.mul(&Nat::from_u64(16363))));
    }

    #[test]
    fn mersenne_fermat_and_a_strong_pseudoprime() {
        let mut rng = OsRng;
        // 2^127 - 1 is prime; 2^128 + 1 = 59649589127497217 · 5704689200685129054721.
        let m127 = Nat::<u64>::pow2(127).checked_sub(&Nat::one()).unwrap();
        assert!(is_probable_prime(&m127, 20, &mut rng).unwrap());
        let f7 = Nat::<u64>::pow2(128).add(&Nat::one());
        assert!(!is_probable_prime(&f7, 20, &mut rng).unwrap());
        // 3215031751 = 151·751·28351, a strong pseudoprime to bases 2, 3, 5, 7.
        assert!(!is_probable_prime(&Nat::from_u64(3_215_031_751), 20, &mut rng).unwrap());
        assert!(!is_probable_prime(&Nat::from_u64(1 << 20), 20, &mut rng).unwrap());
    }
}
