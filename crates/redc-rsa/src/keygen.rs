//! Key generation (FIPS 186-5 §A.1.3 in spirit): random probable primes from
//! the operating system's generator, trial division by the small primes, then
//! Miller–Rabin with random bases — at least the rounds of FIPS 186-5
//! Table B.1 — searched on every core; `|p - q|` large, and
//! `d = e^-1 mod lcm(p - 1, q - 1)`.

use crate::Num;
use crate::error::{Error, Result};
use crate::key::{MAX_BITS, RsaPrivateKey};
use rand_core::{CryptoRngCore, OsRng, RngCore};
use rayon::prelude::*;
use redc::exp::window;
use redc::{Modulus, Product, default_window};
use std::sync::atomic::{AtomicU64, Ordering};

/// Smallest key generated, in bits.
pub const MIN_KEYGEN_BITS: usize = 1024;

/// The default public exponent, F4 = 65537.
pub const DEFAULT_E: u64 = 65537;

/// The odd primes below 2^14 for trial division.
fn small_primes() -> Vec<u64> {
    const LIMIT: usize = 1 << 14;
    let mut composite = vec![false; LIMIT];
    let mut primes = Vec::new();
    for i in 3..LIMIT {
        if !composite[i] && i % 2 == 1 {
            primes.push(i as u64);
            for j in (i * i..LIMIT).step_by(2 * i) {
                composite[j] = true;
            }
        }
    }
    primes
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

/// Is `n` (odd, > 2^14) a probable prime after `rounds` Miller–Rabin
/// rounds with random bases? Works in Montgomery form throughout.
pub fn is_probable_prime(n: &Num, rounds: usize, rng: &mut impl CryptoRngCore) -> Result<bool> {
    let Ok(modulus) = Modulus::new(n) else {
        return Ok(false);
    };
    let n_minus_1 = n.checked_sub(&Num::one()).unwrap_or_default();
    let s = n_minus_1.trailing_zeros().unwrap_or(0);
    let d = n_minus_1.shr(s);
    let mut mm = modulus.multiplier(Product::Cios);
    let one = modulus.one();
    let minus_one = mm.to_mont(&n_minus_1);
    let bits = d.bits();
    let three = Num::from_u64(3);
    for _ in 0..rounds {
        // a uniform in [2, n - 2]
        let a = loop {
            let a = crate::key::random_below(&n_minus_1, rng)?;
            if a >= Num::from_u64(2) {
                break a;
            }
            if n_minus_1 <= three {
                return Ok(true);
            }
        };
        let am = mm.to_mont(&a);
        let mut x = window::pow(&mut mm, &am, &d, bits, default_window(bits), None);
        if x == one || x == minus_one {
            continue;
        }
        let mut witness = true;
        for _ in 1..s {
            let mut tmp = x.clone();
            mm.square_assign(&mut x, &mut tmp);
            if x == minus_one {
                witness = false;
                break;
            }
            if x == one {
                break;
            }
        }
        if witness {
            return Ok(false);
        }
    }
    Ok(true)
}

/// A random probable prime of exactly `bits` bits with its two top bits set
/// (so two of them multiply to exactly `2·bits` bits) and `gcd(e, p-1) = 1`.
/// Candidates are tried on every core; `tried` counts them.
fn random_prime(bits: usize, e: &Num, primes: &[u64], tried: &AtomicU64) -> Result<Num> {
    let rounds = miller_rabin_rounds(bits);
    let found = rayon::iter::repeat(())
        .map(|()| -> Result<Option<Num>> {
            let mut rng = OsRng;
            let mut bytes = vec![0u8; bits.div_ceil(8)];
            rng.try_fill_bytes(&mut bytes).map_err(|_| Error::Rng)?;
            let extra = bytes.len() * 8 - bits;
            bytes[0] &= 0xff >> extra;
            bytes[0] |= 0xc0 >> extra;
            if extra == 7 {
                bytes[1] |= 0x80;
            }
            let last = bytes.len() - 1;
            bytes[last] |= 1;
            let p = Num::from_be_bytes(&bytes);
            tried.fetch_add(1, Ordering::Relaxed);
            // Trial division (a small divisor is never the prime itself: p > 2^14).
            let has_small_factor = primes
                .iter()
                .any(|&sp| p.rem(&Num::from_u64(sp)).is_some_and(|r| r.is_zero()));
            if has_small_factor {
                return Ok(None);
            }
            let pm1 = p.checked_sub(&Num::one()).unwrap_or_default();
            if !e.gcd(&pm1).is_one() {
                return Ok(None);
            }
            Ok(is_probable_prime(&p, rounds, &mut rng)?.then_some(p))
        })
        .find_map_any(|r| match r {
            Ok(Some(p)) => Some(Ok(p)),
            Ok(None) => None,
            Err(err) => Some(Err(err)),
        });
    found.unwrap_or(Err(Error::Rng))
}

/// Generate a two-prime key of `bits` bits (1024..=16384) with public
/// exponent `e` (odd, at least 3). `progress` is called with the number of
/// prime candidates tried so far (from several threads).
pub fn generate(bits: usize, e: &Num, progress: &(dyn Fn(u64) + Sync)) -> Result<RsaPrivateKey> {
    if !(MIN_KEYGEN_BITS..=MAX_BITS).contains(&bits) {
        return Err(Error::InvalidParameters(format!(
            "key size {bits} bits; redc generates {MIN_KEYGEN_BITS} to {MAX_BITS}"
        )));
    }
    if !e.is_odd() || *e < Num::from_u64(3) || e.bits() > 256 {
        return Err(Error::InvalidParameters(
            "public exponent must be odd, at least 3 and at most 256 bits".into(),
        ));
    }
    let primes = small_primes();
    let tried = AtomicU64::new(0);
    let (pbits, qbits) = (bits.div_ceil(2), bits / 2);
    loop {
        let report = || progress(tried.load(Ordering::Relaxed));
        let p = random_prime(pbits, e, &primes, &tried)?;
        report();
        let q = random_prime(qbits, e, &primes, &tried)?;
        report();
        // |p - q| > 2^(bits/2 - 100) (FIPS 186-5 A.1.3 step 5.4).
        let diff = if p > q { p.checked_sub(&q) } else { q.checked_sub(&p) }.unwrap_or_default();
        if diff.bits() <= bits / 2 - 100 {
            continue;
        }
        let (p, q) = if p > q { (p, q) } else { (q, p) };
        let pm1 = p.checked_sub(&Num::one()).unwrap_or_default();
        let qm1 = q.checked_sub(&Num::one()).unwrap_or_default();
        let g = pm1.gcd(&qm1);
        let lambda = pm1.mul(&qm1).divrem(&g).map(|(l, _)| l).unwrap_or_default();
        let Some(d) = e.inv_mod(&lambda) else { continue };
        // d > 2^(bits/2) (FIPS 186-5 A.1.1).
        if d.bits() <= bits / 2 {
            continue;
        }
        let n = p.mul(&q);
        return RsaPrivateKey::from_components(n, e.clone(), d, vec![p, q]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_primes_and_miller_rabin() {
        let primes = small_primes();
        assert_eq!(&primes[..5], &[3, 5, 7, 11, 13]);
        assert_eq!(*primes.last().unwrap(), 16381);
        let mut rng = OsRng;
        // 2^127 - 1 is prime; 2^128 + 1 = 59649589127497217 · 5704689200685129054721.
        let m127 = Num::pow2(127).checked_sub(&Num::one()).unwrap();
        assert!(is_probable_prime(&m127, 20, &mut rng).unwrap());
        let f7 = Num::pow2(128).add(&Num::one());
        assert!(!is_probable_prime(&f7, 20, &mut rng).unwrap());
        // A Carmichael number: 561 · 2^64 + ... use 3215031751 = 151·751·28351 (a strong pseudoprime to bases 2, 3, 5, 7).
        assert!(!is_probable_prime(&Num::from_u64(3_215_031_751), 20, &mut rng).unwrap());
    }
}
