//! For the unit tests: deterministic pseudo-random numbers.

use num_bigint::BigUint;

/// Deterministic pseudo-random numbers (xorshift64*), from a nonzero seed.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    /// The next 64 bits.
    pub(crate) fn digit(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number of `bits` random bits.
    pub(crate) fn bits(&mut self, bits: usize) -> BigUint {
        let digits: Vec<u64> = (0..bits.div_ceil(64)).map(|_| self.digit()).collect();
        let bytes: Vec<u8> = digits.iter().flat_map(|d| d.to_le_bytes()).collect();
        BigUint::from_bytes_le(&bytes) >> (64 * digits.len() - bits)
    }

    /// A number below `n`.
    pub(crate) fn below(&mut self, n: &BigUint) -> BigUint {
        self.bits(n.bits() as usize) % n
    }
}
