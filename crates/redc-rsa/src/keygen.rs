//! Key generation (FIPS 186-5 §A.1.3 in spirit): random probable primes from
//! the operating system's generator, trial division by the small primes, then
//! Miller–Rabin with random bases — at least the rounds of FIPS 186-5
//! Table B.1 — searched on every core; `|p - q|` large, and
//! `d = e^-1 mod lcm(p - 1, q - 1)`; multi-prime keys (RFC 8017 §3.2) the
//! same way, within OpenSSL's limits on the number of primes.

use crate::Num;
use crate::error::{Error, Result};
use crate::key::{MAX_BITS, RsaPrivateKey};
use crate::policy::SecurityLevel;
use rand_core::{OsRng, RngCore};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering};
use zeroize::Zeroizing;

/// Smallest key generated, in bits.
pub const MIN_KEYGEN_BITS: usize = 1024;

/// The default public exponent, F4 = 65537.
pub const DEFAULT_E: u64 = 65537;

pub use redc::prime::{has_small_factor, is_probable_prime, miller_rabin_rounds};

/// A random probable prime of exactly `bits` bits with its two top bits set
/// (so two of them multiply to exactly `2·bits` bits) and `gcd(e, p-1) = 1`.
/// Candidates are tried on every core; `tried` counts them.
fn random_prime(bits: usize, e: &Num, tried: &AtomicU64) -> Result<Num> {
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
            if has_small_factor(&p) {
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
    generate_multi(bits, 2, e, progress)
}

/// Whether `e` can be a generated key's public exponent: odd, at least 3,
/// at most 256 bits ([`Error::InvalidParameters`] says so otherwise).
pub fn check_exponent(e: &Num) -> Result<()> {
    if !e.is_odd() || *e < Num::from_u64(3) || e.bits() > 256 {
        return Err(Error::InvalidParameters(
            "public exponent must be odd, at least 3 and at most 256 bits".into(),
        ));
    }
    Ok(())
}

/// The most primes a key of `bits` bits may have (OpenSSL's limits): the
/// rule lives with the other key-size rules, in [`crate::policy`].
pub use crate::policy::openssl_max_primes as max_primes;

/// Why a key generation request's size is refused ([`check_size`]); the
/// text says why without naming the front end's parameter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum SizeError {
    /// The size is outside what redc generates.
    #[error("redc generates keys of {MIN_KEYGEN_BITS} to {MAX_BITS} bits")]
    Bits,
    /// The prime count is outside OpenSSL's limits for the size.
    #[error("a {bits}-bit key has 2 to {max} primes (OpenSSL's limits: 3 from 1024 bits, 4 from 4096, 5 from 8192)")]
    Primes {
        /// The key size.
        bits: usize,
        /// The most primes at that size.
        max: usize,
    },
    /// The security level refuses the size for private operations.
    #[error("a key for private operations needs at least {} bits at {level}", level.private_min_bits())]
    Level {
        /// The level that refuses it.
        level: SecurityLevel,
    },
}

/// Checks, before any work, a request for a `bits`-bit key of `primes`
/// primes that `level` must accept for private operations: the size,
/// then the prime count, then the level (the CLI and the Python package
/// name the parameter at fault).
pub fn check_size(bits: usize, primes: usize, level: SecurityLevel) -> core::result::Result<(), SizeError> {
    let max = max_primes(bits);
    if !(MIN_KEYGEN_BITS..=MAX_BITS).contains(&bits) {
        Err(SizeError::Bits)
    } else if !(2..=max).contains(&primes) {
        Err(SizeError::Primes { bits, max })
    } else if bits < level.private_min_bits() {
        Err(SizeError::Level { level })
    } else {
        Ok(())
    }
}

/// Generate a key of `bits` bits with `count` primes (RFC 8017 multi-prime
/// RSA; 2 to [`max_primes`]) and public exponent `e`, as [`generate`] does
/// for two: the primes share the bits (the first `bits mod count` have one
/// more), the modulus has exactly `bits` bits, every two primes differ in
/// more than their low `size - 100` bits, and `d = e^-1 mod lcm(r_i - 1)`
/// is above `2^(bits/2)`. The primes are stored largest first.
pub fn generate_multi(bits: usize, count: usize, e: &Num, progress: &(dyn Fn(u64) + Sync)) -> Result<RsaPrivateKey> {
    check_size(bits, count, SecurityLevel::NONE)
        .map_err(|err| Error::InvalidParameters(format!("{bits} bits, {count} primes: {err}")))?;
    check_exponent(e)?;
    let tried = AtomicU64::new(0);
    let sizes: Vec<usize> = (0..count)
        .map(|i| bits / count + usize::from(i < bits % count))
        .collect();
    // FIPS 186-5 A.1.3 step 5.4 for two primes, |p - q| > 2^(bits/2 - 100);
    // here for every pair, at the smaller prime's size.
    let min_distance = sizes[count - 1] - 100;
    loop {
        // Every value here is wiped when dropped, on the retry paths too.
        let mut primes = Zeroizing::new(Vec::with_capacity(count));
        for &size in &sizes[..count - 1] {
            primes.push(random_prime(size, e, &tried)?);
            progress(tried.load(Ordering::Relaxed));
        }
        let mut head = Zeroizing::new(Num::one());
        for p in primes.iter() {
            head = Zeroizing::new(head.mul(p));
        }
        // The last prime completes the modulus to exactly `bits` bits. Two
        // primes of b bits with their top two bits set always make 2b bits;
        // with three or more the product may be a bit short: the last
        // prime is drawn again (a few times, then all of them).
        let mut n = Zeroizing::new(Num::zero());
        for _ in 0..8 {
            let last = random_prime(sizes[count - 1], e, &tried)?;
            progress(tried.load(Ordering::Relaxed));
            *n = head.mul(&last);
            if n.bits() == bits {
                primes.push(last);
                break;
            }
        }
        if primes.len() < count {
            continue;
        }
        let close = primes.iter().enumerate().any(|(i, p)| {
            primes[i + 1..].iter().any(|q| {
                let diff = Zeroizing::new(if p > q { p.checked_sub(q) } else { q.checked_sub(p) }.unwrap_or_default());
                diff.bits() <= min_distance
            })
        });
        if close {
            continue;
        }
        primes.sort_by(|a, b| b.cmp(a));
        let mut lambda = Zeroizing::new(Num::one());
        for p in primes.iter() {
            let pm1 = Zeroizing::new(p.checked_sub(&Num::one()).unwrap_or_default());
            let g = Zeroizing::new(lambda.gcd(&pm1));
            let product = Zeroizing::new(lambda.mul(&pm1));
            lambda = Zeroizing::new(product.divrem(&g).map(|(l, _)| l).unwrap_or_default());
        }
        let Some(d) = e.inv_mod(&lambda).map(Zeroizing::new) else {
            continue;
        };
        // d > 2^(bits/2) (FIPS 186-5 A.1.1).
        if d.bits() <= bits / 2 {
            continue;
        }
        return RsaPrivateKey::from_components((*n).clone(), e.clone(), (*d).clone(), primes.to_vec());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Three and four primes: the modulus has exactly `bits` bits, the
    /// primes multiply to it (checked by `from_components`), are largest
    /// first and share the bits; the key signs and verifies.
    #[test]
    fn multi_prime_keys() {
        for (bits, count) in [(1024, 3), (4096, 4)] {
            let key = generate_multi(bits, count, &Num::from_u64(DEFAULT_E), &|_| {})
                .unwrap()
                .with_security_level(SecurityLevel::new(1).unwrap());
            assert_eq!(key.public_key().bits(), bits);
            let primes = key.primes();
            assert_eq!(primes.len(), count);
            let values: Vec<Num> = primes.iter().map(|p| p.reveal()).collect();
            assert!(values.windows(2).all(|w| w[0] > w[1]), "largest first");
            for p in &values {
                assert!(
                    (bits / count..=bits / count + 1).contains(&p.bits()),
                    "{} bits",
                    p.bits()
                );
            }
            let m = [0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc];
            let c = crate::hazmat::raw_public(key.public_key(), &m).unwrap();
            let back = crate::hazmat::raw_private(&key, &c, &mut OsRng).unwrap();
            assert_eq!(Num::from_be_bytes(&back), Num::from_be_bytes(&m));
        }
    }

    #[test]
    fn prime_counts_outside_the_limits_are_refused() {
        let e = Num::from_u64(DEFAULT_E);
        for (bits, count) in [(1024, 1), (1024, 4), (2048, 4), (4096, 5), (8192, 6)] {
            let err = generate_multi(bits, count, &e, &|_| {}).unwrap_err();
            assert!(
                matches!(&err, Error::InvalidParameters(m) if m.contains(&format!("{count} primes: a {bits}-bit key has 2 to"))),
                "{err}"
            );
        }
        assert_eq!([1023, 1024, 4095, 4096, 8191, 8192].map(max_primes), [2, 3, 3, 4, 4, 5]);
    }

    /// The size first, then the prime count, then the level: a request
    /// wrong in several ways names the first.
    #[test]
    fn sizes_are_checked_in_order() {
        let level = SecurityLevel::DEFAULT;
        assert_eq!(check_size(512, 9, level), Err(SizeError::Bits));
        assert_eq!(check_size(MAX_BITS + 1, 2, level), Err(SizeError::Bits));
        assert_eq!(
            check_size(1024, 4, level),
            Err(SizeError::Primes { bits: 1024, max: 3 })
        );
        assert_eq!(check_size(1024, 3, level), Err(SizeError::Level { level }));
        assert_eq!(check_size(1024, 3, SecurityLevel::NONE), Ok(()));
        assert_eq!(check_size(2048, 2, level), Ok(()));
        assert_eq!(
            SizeError::Level { level }.to_string(),
            "a key for private operations needs at least 2048 bits at security level 2"
        );
    }
}
