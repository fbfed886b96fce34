//! Modulus constants, computed in one place for every digit width and every
//! path: the teaching schedules (`w` = 8..64), the scalar kernels (64-bit
//! digits), the IFMA lanes (52-bit digits), the GPU kernels (32-bit digits)
//! and the hardware models (17-, 16-, 32- and k-bit digits).

/// `-x^-1 mod 2^bits` for odd `x` and `1 <= bits <= 64`: `n0'` of
/// 000_be478b6750af4540.txt §2.1 Eq. 6 (only the low digit of `n` is
/// needed, §3.1) and `-M^-1 mod 2^r` of 001_24b3bbce8c558126.txt Alg. 1.
///
/// Hensel (Newton) lifting: `y = x` is the inverse of an odd `x` modulo
/// 2^3, and each step `y := y·(2 - x·y)` doubles the number of correct low
/// bits, so five steps reach 96 > 64. Only the low `bits` bits of `x`
/// matter. Pre: `x` odd (for even `x` the result is meaningless).
pub fn neg_inv(x: u64, bits: u32) -> u64 {
    debug_assert!((1..=64).contains(&bits), "neg_inv: {bits} bits");
    let mut y = x;
    for _ in 0..5 {
        y = y.wrapping_mul(2u64.wrapping_sub(x.wrapping_mul(y)));
    }
    let mask = if bits >= 64 { u64::MAX } else { (1u64 << bits) - 1 };
    y.wrapping_neg() & mask
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neg_inv_every_width() {
        for x in [1u64, 3, 5, 0xfb, 0x1_0001, 0xffff_fff1, 0x8000_0000_0000_0001, u64::MAX] {
            for bits in [1u32, 8, 16, 17, 32, 52, 63, 64] {
                let m = if bits == 64 { u64::MAX } else { (1 << bits) - 1 };
                assert_eq!(x.wrapping_mul(neg_inv(x, bits)) & m, m, "x = {x:#x}, {bits} bits");
            }
        }
    }

    /// 001_24b3bbce8c558126.txt §3.1 worked example: for M = 251 and R = 8,
    /// (-M^-1) = 205 (binary 11001101), since 205·251 = 51455 ≡ -1 (mod 2^8).
    #[test]
    fn fdfm_worked_example() {
        assert_eq!(neg_inv(251, 8), 205);
    }
}
