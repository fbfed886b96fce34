//! Seeded inputs: moduli, operands, exponents and CRT keys that the same
//! seed reproduces bit for bit (ChaCha8), for tests and testbench vectors.

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use redc::prime::{is_probable_prime, miller_rabin_rounds};

use crate::{Big, CrtKey};

/// A reproducible generator.
pub struct Seeded(ChaCha8Rng);

impl Seeded {
    /// The generator for `seed`.
    pub fn new(seed: u64) -> Self {
        Self(ChaCha8Rng::seed_from_u64(seed))
    }

    /// A uniformly random value of at most `bits` bits.
    pub fn bits(&mut self, bits: usize) -> Big {
        let mut digits = vec![0u64; bits.div_ceil(64)];
        for d in &mut digits {
            *d = self.0.next_u64();
        }
        Big::from_digits(digits).low_bits(bits)
    }

    /// A uniformly random value in `[0, bound)`; `bound > 0`.
    pub fn below(&mut self, bound: &Big) -> Big {
        let bits = bound.bits();
        loop {
            let x = self.bits(bits);
            if x.checked_sub(bound).is_none() {
                return x;
            }
        }
    }

    /// An odd modulus of exactly `bits` bits (`bits >= 2`).
    pub fn odd_modulus(&mut self, bits: usize) -> Big {
        assert!(bits >= 2, "an odd modulus of {bits} bits");
        let low = self.bits(bits - 1);
        let low = if low.is_odd() { low } else { low.add(&Big::one()) };
        Big::pow2(bits - 1).add(&low)
    }

    /// A probable prime of exactly `bits` bits (`bits >= 16`).
    pub fn prime(&mut self, bits: usize) -> Big {
        let two = Big::from_u64(2);
        let mut p = self.odd_modulus(bits);
        loop {
            if is_probable_prime(&p, miller_rabin_rounds(bits), &mut self.0).unwrap_or(false) {
                return p;
            }
            p = p.add(&two);
            if p.bits() > bits {
                p = self.odd_modulus(bits);
            }
        }
    }

    /// A CRT key of exactly `bits` bits (`bits >= 32`): primes of `bits / 2`
    /// and `bits − bits / 2` bits, e = 65537.
    pub fn crt_key(&mut self, bits: usize) -> CrtKey {
        let e = Big::from_u64(65537);
        loop {
            let p = self.prime(bits / 2);
            let q = self.prime(bits - bits / 2);
            if p == q {
                continue;
            }
            let one = Big::one();
            let phi = p
                .checked_sub(&one)
                .expect("p > 1")
                .mul(&q.checked_sub(&one).expect("q > 1"));
            let Some(d) = e.inv_mod(&phi) else { continue };
            let n = p.mul(&q);
            if n.bits() != bits {
                continue;
            }
            return CrtKey { n, p, q, d };
        }
    }
}
