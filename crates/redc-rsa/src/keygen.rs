//! Key generation (FIPS 186-5 §A.1.3 in spirit): random probable primes from
//! the operating system's generator, trial division by the small primes, then
//! Miller–Rabin with random bases — at least the rounds of FIPS 186-5
//! Table B.1 — searched on every core; `|p - q|` large, and
//! `d = e^-1 mod lcm(p - 1, q - 1)`.

use crate::Num;
use crate::error::{Error, Result};
use crate::key::{MAX_BITS, RsaPrivateKey};
use rand_core::{OsRng, RngCore};
use rayon::prelude::*;
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

pub use redc::prime::{is_probable_prime, miller_rabin_rounds};

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
            Ok(is_probable_prime(&p, rounds, &mut rng)
                .map_err(|_| Error::Rng)?
                .then_some(p))
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
    fn the_small_primes() {
        let primes = small_primes();
        assert_eq!(&primes[..5], &[3, 5, 7, 11, 13]);
        assert_eq!(*primes.last().unwrap(), 16381);
    }
}
