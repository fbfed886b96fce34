//! Helpers shared by the integration tests: conversions between redc's
//! `Nat` and num-bigint's `BigUint` (the oracle) that go through the digit
//! vectors, not through the byte and text code under test, and deterministic
//! pseudo-random numbers.

#![allow(dead_code)]

use num_bigint::BigUint;
use num_traits::{One, Zero};
use redc::engine::device::{Device, DeviceBatch, DeviceError};
use redc::{Engine, Nat, Word};
use std::sync::Arc;
use zeroize::Zeroizing;

/// An engine for every backend this CPU can run; each one it cannot run is
/// named on stderr ("SKIPPED backend ifma: ...").
#[allow(clippy::print_stderr)]
pub(crate) fn engines() -> Vec<Engine> {
    let mut out = Vec::new();
    for name in redc::engine::backend_names() {
        match Engine::named(name) {
            Ok(e) => out.push(e),
            Err(err) => eprintln!("SKIPPED backend {name}: {err}"),
        }
    }
    // The detected engine also sends small classes to the scalar kernels.
    out.push(Engine::detect());
    // The device path: packing, classes, and moduli too large for a device.
    out.push(Engine::with_device(Arc::new(OracleDevice)));
    out
}

/// A device that computes with num-bigint and first checks every
/// precondition of [`DeviceBatch`], so the engine's packing is tested
/// against the contract the kernels rely on.
#[derive(Debug)]
pub(crate) struct OracleDevice;

/// The size classes of the GPU kernels (512 to 4096 bits).
pub(crate) const CLASSES: [usize; 6] = [16, 32, 48, 64, 96, 128];

impl Device for OracleDevice {
    fn name(&self) -> &'static str {
        "cuda"
    }

    fn describe(&self) -> String {
        "num-bigint oracle".to_owned()
    }

    fn classes(&self) -> &[usize] {
        &CLASSES
    }

    fn pow(&self, b: &DeviceBatch<'_>) -> Result<Zeroizing<Vec<u32>>, DeviceError> {
        oracle_pow(b)
    }

    fn pow_vartime(&self, b: &DeviceBatch<'_>) -> Result<Zeroizing<Vec<u32>>, DeviceError> {
        oracle_pow(b)
    }
}

/// The oracle's answer to a batch, after checking its preconditions.
fn oracle_pow(b: &DeviceBatch<'_>) -> Result<Zeroizing<Vec<u32>>, DeviceError> {
    let (d, e) = (b.digits, b.exp_words);
    assert!(CLASSES.contains(&d) && b.count > 0);
    assert_eq!(b.modulus.len(), b.count * d);
    assert_eq!(
        (b.n0inv.len(), b.r2.len(), b.base.len()),
        (b.count, b.count * d, b.count * d)
    );
    assert_eq!(b.exp.len(), b.count * e);
    assert!(b.exp_bits <= 32 * e);
    let big = |w: &[u32]| BigUint::from_slice(w);
    let r = pow2(32 * d);
    let mut out = Vec::with_capacity(b.count * d);
    for j in 0..b.count {
        let n = big(&b.modulus[j * d..(j + 1) * d]);
        let (x, k) = (big(&b.base[j * d..(j + 1) * d]), big(&b.exp[j * e..(j + 1) * e]));
        assert!(n.bit(0) && n >= BigUint::from(3u8) && n < r, "modulus");
        assert_eq!(big(&b.r2[j * d..(j + 1) * d]), (&r * &r) % &n, "r2");
        let low = u64::from(b.modulus[j * d]);
        assert_eq!((low * u64::from(b.n0inv[j])) as u32, u32::MAX, "n0inv");
        assert!(x < n, "base");
        assert!(k.bits() as usize <= b.exp_bits, "exponent bound");
        let mut digits = x.modpow(&k, &n).to_u32_digits();
        digits.resize(d, 0);
        out.extend(digits);
    }
    Ok(Zeroizing::new(out))
}

/// `x` as a `Nat<W>`, built from its little-endian digits.
pub(crate) fn to_nat<W: Word>(x: &BigUint) -> Nat<W> {
    let w = W::BITS as usize;
    let mut digits = Vec::new();
    for limb in x.to_u64_digits() {
        for k in 0..64 / w {
            digits.push(W::from_u64_truncate(limb >> (k * w)));
        }
    }
    Nat::from_digits(digits)
}

/// `x` as a `BigUint`, built from its digits.
pub(crate) fn to_big<W: Word>(x: &Nat<W>) -> BigUint {
    x.digits()
        .iter()
        .rev()
        .fold(BigUint::zero(), |acc, d| (acc << W::BITS) + d.to_u64())
}

/// `2^k`.
pub(crate) fn pow2(k: usize) -> BigUint {
    BigUint::one() << k
}

/// `2^k - 1`: `k` one bits.
pub(crate) fn ones(k: usize) -> BigUint {
    pow2(k) - 1u8
}

/// A deterministic pseudo-random number of exactly `bits` bits (xorshift64*).
pub(crate) fn pseudo(bits: usize, seed: u64) -> BigUint {
    if bits == 0 {
        return BigUint::zero();
    }
    let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut x = BigUint::zero();
    for _ in 0..bits.div_ceil(64) {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        x = (x << 64u32) + state.wrapping_mul(0x2545_f491_4f6c_dd1d);
    }
    (x & ones(bits - 1)) | pow2(bits - 1)
}
