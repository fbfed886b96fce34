//! Helpers shared by the kernel tests (host simulation) and the device
//! tests (GPU): the kernels' operand layout, built with num-bigint.

#![allow(dead_code)] // each test file uses its own part

use num_bigint::BigUint;

/// `x` as exactly `len` little-endian 32-bit digits (it must fit).
pub(crate) fn digits_of(x: &BigUint, len: usize) -> Vec<u32> {
    let mut d = x.to_u32_digits();
    assert!(d.len() <= len, "{x} does not fit {len} digits");
    d.resize(len, 0);
    d
}

/// `-n^-1 mod 2^32` for odd `n` (Newton's iteration, five steps).
pub(crate) fn n0inv(n: &BigUint) -> u32 {
    let a = n.to_u32_digits()[0];
    let mut x: u32 = 1;
    for _ in 0..5 {
        x = x.wrapping_mul(2u32.wrapping_sub(a.wrapping_mul(x)));
    }
    x.wrapping_neg()
}
