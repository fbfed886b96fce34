//! 003's bit-level adders: a fixed-width bit vector, the three-to-two and
//! four-to-two carry-save adders (§II Figure 1) and the serial adder that
//! feeds A's digits from its carry-save pair (§II, §III Figure 2).

use crate::Big;

/// A fixed-width bit vector (a register or a CSA row), little-endian words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Vector(Vec<u64>);

impl Vector {
    /// The all-zero vector of `words` 64-bit words.
    pub(super) fn zero(words: usize) -> Self {
        Self(vec![0; words])
    }

    /// `x` in a register of `words` 64-bit words (`x` must fit).
    pub(super) fn from_big(x: &Big, words: usize) -> Self {
        let d = x.to_digits_padded(words);
        debug_assert_eq!(d.len(), words, "value wider than the register");
        Self(d)
    }

    /// The register's value.
    pub(super) fn to_big(&self) -> Big {
        Big::from_digits(self.0.clone())
    }

    /// Bit `i` of the low word (i < 64).
    pub(super) fn bit(&self, i: u32) -> u64 {
        (self.0[0] >> i) & 1
    }

    /// The low `bits` bits (bits < 64).
    pub(super) fn low(&self, bits: u32) -> u64 {
        self.0[0] & ((1 << bits) - 1)
    }

    /// Shift right by `s` places, 0 < s < 64 (a wired selection of the high bits).
    pub(super) fn shr(&self, s: u32) -> Self {
        let w = &self.0;
        let from_above = |i: usize| w.get(i + 1).map_or(0, |&h| h << (64 - s));
        Self((0..w.len()).map(|i| (w[i] >> s) | from_above(i)).collect())
    }

    /// Shift left by `s` places, 0 < s < 64 (`{X, 0}` for s = 1); nothing may fall off.
    pub(super) fn shl(&self, s: u32) -> Self {
        let w = &self.0;
        debug_assert_eq!(w[w.len() - 1] >> (64 - s), 0, "register overflow");
        let from_below = |i: usize| if i == 0 { 0 } else { w[i - 1] >> (64 - s) };
        Self((0..w.len()).map(|i| (w[i] << s) | from_below(i)).collect())
    }
}

/// One row of full adders, a three-to-two CSA: `(carry, sum)` with
/// sum = x ⊕ y ⊕ z and carry = maj(x, y, z) shifted up one place.
pub(super) fn full_adders(x: &Vector, y: &Vector, z: &Vector) -> (Vector, Vector) {
    let sum = Vector(x.0.iter().zip(&y.0).zip(&z.0).map(|((a, b), c)| a ^ b ^ c).collect());
    let maj = Vector(
        x.0.iter()
            .zip(&y.0)
            .zip(&z.0)
            .map(|((a, b), c)| (a & b) | (c & (a ^ b)))
            .collect(),
    );
    (maj.shl(1), sum)
}

/// `CSR(w + x + y + z)`: the four-to-two CSA of §II Figure 1, two levels of
/// full adders. Returns `(carry, sum)`.
pub(super) fn csr4(w: &Vector, x: &Vector, y: &Vector, z: &Vector) -> (Vector, Vector) {
    let (c, s) = full_adders(w, x, y);
    full_adders(&c, &s, z)
}

/// The serial adder that feeds A's digits (§II; §III Figure 2): adds the low
/// `rho` bits of A1 and A2 and the carry flip-flop, keeps the carry-out, and
/// shifts A1 and A2 right by `rho`. Returns the digit (Ai or {a2i+1, a2i}).
pub(super) fn next_digit(a1: &mut Vector, a2: &mut Vector, carry: &mut u64, rho: u32) -> u64 {
    let t = a1.low(rho) + a2.low(rho) + *carry;
    *carry = t >> rho;
    *a1 = a1.shr(rho);
    *a2 = a2.shr(rho);
    t & ((1 << rho) - 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Big;

    fn v(x: u64) -> Vector {
        Vector::from_big(&Big::from_u64(x), 2)
    }

    #[test]
    fn full_adder_row_keeps_the_sum_and_a_zero_carry_bit() {
        for (x, y, z) in [(0, 0, 0), (1, 1, 1), (0xDEAD, 0xBEEF, 0xF00D), (u64::MAX, u64::MAX, 1)] {
            let (c, s) = full_adders(&v(x), &v(y), &v(z));
            assert_eq!(c.bit(0), 0);
            assert_eq!(
                c.to_big().add(&s.to_big()),
                Big::from_u64(x).add(&Big::from_u64(y)).add(&Big::from_u64(z))
            );
        }
        let (c, s) = csr4(&v(7), &v(5), &v(3), &v(1));
        assert_eq!((c.to_big(), s.to_big()), (Big::from_u64(2), Big::from_u64(14)));
    }

    #[test]
    fn serial_adder_yields_the_digits_of_the_sum() {
        let (x1, x2) = (0b1011_0111u64, 0b0110_1101u64);
        for rho in [1, 2] {
            let (mut a1, mut a2, mut c) = (v(x1), v(x2), 0);
            let digits: Vec<u64> = (0..10 / rho)
                .map(|_| next_digit(&mut a1, &mut a2, &mut c, rho))
                .collect();
            let sum = digits.iter().rev().fold(0, |acc, d| (acc << rho) | d);
            assert_eq!(sum, x1 + x2);
        }
    }

    #[test]
    fn shifts_cross_words() {
        let x = Vector(vec![1 << 63, 1]);
        assert_eq!(x.shr(1), Vector(vec![1 << 62 | 1 << 63, 0]));
        assert_eq!(x.shr(2).shl(2), x);
    }
}
