//! `rsa_private_batch` / `rsa_public_batch` on every backend this CPU can
//! run, against num-bigint (`c^d mod n`, `m^e mod n`) and against the
//! single-operation `rsadp` / `rsaep`: two-prime keys of 1024, 2048 and 3072
//! bits and an unbalanced three-prime key (its primes fall in different
//! lane classes, the second larger than the first), batches of 0, 1, 3, 8,
//! 9 and 17 inputs (partly filled lane groups), edge inputs (0, 1, n - 1),
//! and inputs out of range in the middle of a batch. (A fault injected into
//! a key's CRT exponent is caught by the unit test in primitive/private.rs,
//! which can reach the key's insides.)

mod scheme_support;

use num_bigint::BigUint;
use rand_core::{OsRng, RngCore};
use redc::engine::default_engine;
use redc_rsa::hazmat::{CrtMode, rsadp_with};
use redc_rsa::keygen::{generate, is_probable_prime};
use redc_rsa::policy::SecurityLevel;
use redc_rsa::{Error, Num, RsaPrivateKey, rsa_private_batch, rsa_public_batch};
use scheme_support::engines;
use std::sync::OnceLock;

const SIZES: [usize; 6] = [0, 1, 3, 8, 9, 17];

fn big(x: &Num) -> BigUint {
    BigUint::from_bytes_be(&x.to_be_bytes())
}

/// A random prime of exactly `bits` bits with `gcd(e, p - 1) = 1`.
fn prime(bits: usize, e: &Num) -> Num {
    loop {
        let mut bytes = vec![0u8; bits.div_ceil(8)];
        OsRng.fill_bytes(&mut bytes);
        let top = Num::pow2(bits - 1);
        let p = Num::from_be_bytes(&bytes).low_bits(bits - 1).add(&top);
        let p = if p.is_odd() { p } else { p.add(&Num::one()) };
        if p.bits() != bits || !is_probable_prime(&p, 40, &mut OsRng).unwrap() {
            continue;
        }
        if e.gcd(&p.checked_sub(&Num::one()).unwrap()).is_one() {
            return p;
        }
    }
}

/// A key with primes of the given sizes, in that order.
fn multi_prime_key(sizes: &[usize]) -> RsaPrivateKey {
    let e = Num::from_u64(65537);
    let primes: Vec<Num> = sizes.iter().map(|&b| prime(b, &e)).collect();
    let n = primes.iter().fold(Num::one(), |acc, p| acc.mul(p));
    let lambda = primes.iter().fold(Num::one(), |acc, p| {
        let pm1 = p.checked_sub(&Num::one()).unwrap();
        let g = acc.gcd(&pm1);
        acc.mul(&pm1).divrem(&g).unwrap().0
    });
    let d = e.inv_mod(&lambda).unwrap();
    RsaPrivateKey::from_components(n, e, d, primes)
        .unwrap()
        .with_security_level(SecurityLevel::NONE)
}

/// Two-prime keys of 1024, 2048 and 3072 bits, and a three-prime key.
fn keys() -> &'static [RsaPrivateKey] {
    static KEYS: OnceLock<Vec<RsaPrivateKey>> = OnceLock::new();
    KEYS.get_or_init(|| {
        let e = Num::from_u64(65537);
        let mut keys: Vec<RsaPrivateKey> = [1024, 2048, 3072]
            .into_iter()
            .map(|bits| {
                generate(bits, &e, &|_| {})
                    .unwrap()
                    .with_security_level(SecurityLevel::NONE)
            })
            .collect();
        keys.push(multi_prime_key(&[500, 700, 400]));
        keys
    })
}

fn describe(key: &RsaPrivateKey) -> String {
    format!("{}-bit {}-prime key", key.public_key().bits(), key.primes().len())
}

/// `count` inputs below `n`: 0, 1 and n - 1 first, then random ones.
fn inputs(key: &RsaPrivateKey, count: usize) -> Vec<Num> {
    let n = key.public_key().n();
    let mut out = vec![Num::zero(), Num::one(), n.checked_sub(&Num::one()).unwrap()];
    while out.len() < count {
        let mut bytes = vec![0u8; key.public_key().size()];
        OsRng.fill_bytes(&mut bytes);
        out.push(Num::from_be_bytes(&bytes).rem(n).unwrap());
    }
    out.truncate(count);
    out
}

#[test]
fn private_batches_match_the_oracle_and_rsadp() {
    for engine in engines() {
        for key in keys() {
            let (n, d) = (big(key.public_key().n()), big(&key.d().reveal()));
            for size in SIZES {
                let cs = inputs(key, size);
                let got = rsa_private_batch(&engine, key, &cs, &mut OsRng);
                assert_eq!(got.len(), size);
                let what = format!("{} {} batch of {size}", engine.name(), describe(key));
                for (i, (c, m)) in cs.iter().zip(&got).enumerate() {
                    let m = m.as_ref().unwrap_or_else(|e| panic!("{what} input {i}: {e}")).reveal();
                    assert_eq!(big(&m), big(c).modpow(&d, &n), "{what} input {i}");
                    if i < 3 {
                        assert_eq!(key.rsadp(c, &mut OsRng).map(|x| x.reveal()), Ok(m), "{what} rsadp {i}");
                    }
                }
            }
        }
    }
}

#[test]
fn public_batches_match_the_oracle_and_rsaep() {
    for engine in engines() {
        for key in keys() {
            let public = key.public_key();
            let (n, e) = (big(public.n()), big(public.e()));
            for size in SIZES {
                let ms = inputs(key, size);
                let got = rsa_public_batch(&engine, public, &ms);
                assert_eq!(got.len(), size);
                let what = format!("{} {} batch of {size}", engine.name(), describe(key));
                for (i, (m, c)) in ms.iter().zip(&got).enumerate() {
                    let c = c.as_ref().unwrap_or_else(|e| panic!("{what} input {i}: {e}"));
                    assert_eq!(big(c), big(m).modpow(&e, &n), "{what} input {i}");
                    assert_eq!(public.rsaep(m).as_ref(), Ok(c), "{what} rsaep {i}");
                }
            }
        }
    }
}

#[test]
fn inputs_out_of_range_fail_alone() {
    for engine in engines() {
        for key in keys() {
            let public = key.public_key();
            let n = public.n();
            let mut batch = inputs(key, 9);
            batch[4] = n.clone();
            batch[6] = n.add(&Num::from_u64(5));
            let bad = |i: usize| i == 4 || i == 6;
            let what = format!("{} {}", engine.name(), describe(key));
            let private = rsa_private_batch(&engine, key, &batch, &mut OsRng);
            let public_out = rsa_public_batch(&engine, public, &batch);
            let (nb, d, e) = (big(n), big(&key.d().reveal()), big(public.e()));
            for (i, c) in batch.iter().enumerate() {
                if bad(i) {
                    assert_eq!(
                        private[i].as_ref().err(),
                        Some(&Error::OutOfRange),
                        "{what} private {i}"
                    );
                    assert_eq!(public_out[i], Err(Error::OutOfRange), "{what} public {i}");
                } else {
                    let m = private[i]
                        .as_ref()
                        .unwrap_or_else(|e| panic!("{what} private {i}: {e}"))
                        .reveal();
                    assert_eq!(big(&m), big(c).modpow(&d, &nb), "{what} private {i}");
                    let x = public_out[i]
                        .as_ref()
                        .unwrap_or_else(|e| panic!("{what} public {i}: {e}"));
                    assert_eq!(big(x), big(c).modpow(&e, &nb), "{what} public {i}");
                }
            }
            // A batch with nothing in range.
            let all_bad = [n.clone(), n.add(n)];
            assert!(
                rsa_private_batch(&engine, key, &all_bad, &mut OsRng)
                    .iter()
                    .all(|r| r.as_ref().err() == Some(&Error::OutOfRange))
            );
        }
    }
}

#[test]
fn every_crt_mode_agrees_through_rsadp() {
    // FDFM (two-prime keys only) and plain keep their scalar code but share
    // blinding and the check with the engine path.
    let key = &keys()[0];
    let (n, d) = (big(key.public_key().n()), big(&key.d().reveal()));
    for c in inputs(key, 5) {
        let want = big(&c).modpow(&d, &n);
        for mode in [CrtMode::Garner, CrtMode::Fdfm, CrtMode::Plain] {
            let got = rsadp_with(default_engine(), key, &c, mode, &mut OsRng).unwrap();
            assert_eq!(big(&got.reveal()), want, "{mode:?}");
        }
    }
    let three = &keys()[3];
    assert!(matches!(
        rsadp_with(default_engine(), three, &Num::from_u64(7), CrtMode::Fdfm, &mut OsRng),
        Err(Error::InvalidParameters(_))
    ));
}
