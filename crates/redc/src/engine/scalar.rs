//! The scalar backend: 64-bit digits, one exponentiation per core at a
//! time, on the one-lane kernel of the kernel layer (the `mulx`/`adx`
//! product and squaring of `kernel/adx.rs` where the CPU has them, else the
//! portable `kernel/fios.rs` product and `kernel/sqr.rs` squaring; both
//! compiled for 16, 24, 32, 48 and 64 digits and for run-time sizes): the
//! fixed-window driver for secret exponents, the sliding-window driver for
//! public ones.
//!
//! Measured on the project's 2-core Sapphire Rapids guest, one thread, best
//! of 15 runs through [`crate::Domain`], at 1024 / 2048 / 3072 / 4096 bits:
//! product 224 / 741 / 1636 / 2895 ns and squaring 198 / 615 / 1309 / 2251
//! ns on `mulx`/`adx`, against 282 / 1052 / 2326 / 4418 and 257 / 973 /
//! 2164 / 3777 ns on the portable kernels; an exponentiation with an
//! exponent as long as the modulus 254 µs, 1.59, 4.99 and 11.6 ms
//! against 327 µs, 2.45, 8.14 and 19.6 ms.

use super::backend::{Backend, BackendError, Task};
use crate::kernel::scalar::Scalar as Kernel64;
use crate::kernel::size::{Size, with_size};
use crate::kernel::window::default_window;
use crate::kernel::{Consts, sliding, window};
use crate::nat::limbs;
use crate::secret::SecretNat;
use std::sync::Arc;
use zeroize::Zeroizing;

/// The portable backend (always available).
#[derive(Debug, Clone, Copy, Default)]
pub struct Scalar;

impl Backend for Scalar {
    /// The kernel constants themselves: nothing more to prepare.
    type Ctx = Arc<Consts>;

    fn name(&self) -> &'static str {
        "scalar"
    }

    fn lanes(&self) -> usize {
        1
    }

    /// Every modulus fits; its class is its digit count.
    fn class(&self, size_bits: usize) -> Option<usize> {
        Some(size_bits.div_ceil(64).max(1))
    }

    fn prepare(&self, c: &Arc<Consts>, _: usize) -> Arc<Consts> {
        Arc::clone(c)
    }

    fn pow(&self, tasks: &[Task<'_, Arc<Consts>>]) -> Result<Vec<SecretNat>, BackendError> {
        Ok(tasks
            .iter()
            .map(|t| pow(t.modulus, t.base, t.exp, t.exp_bits))
            .collect())
    }

    fn pow_vartime(&self, tasks: &[Task<'_, Arc<Consts>>]) -> Result<Vec<SecretNat>, BackendError> {
        Ok(tasks.iter().map(|t| pow_vartime(t.modulus, t.base, t.exp)).collect())
    }
}

/// `base^exp mod n` with fixed windows over the public bound `exp_bits`.
/// Pre: `base < n` in `n`'s digit count, `exp < 2^exp_bits`. Post: fully
/// reduced. The sequence of operations and memory addresses depends only on
/// `n`'s digit count and `exp_bits`.
pub(crate) fn pow(c: &Consts, base: &[u64], exp: &[u64], exp_bits: usize) -> SecretNat {
    with_size!(c.len(), sz => pow_sized(sz, c, base, exp, exp_bits))
}

/// `base^exp mod n` with sliding windows (a public `exp`). Pre: `base < n`.
pub(crate) fn pow_vartime(c: &Consts, base: &[u64], exp: &[u64]) -> SecretNat {
    with_size!(c.len(), sz => pow_vartime_sized(sz, c, base, exp))
}

/// [`pow`] on the kernels of size `sz` (`sz.len() == c.len()`).
fn pow_sized<S: Size>(sz: S, c: &Consts, base: &[u64], exp: &[u64], exp_bits: usize) -> SecretNat {
    run(sz, c, base, |k, b| window::pow_digits(k, b, exp, exp_bits))
}

/// [`pow_vartime`] on the kernels of size `sz` (`sz.len() == c.len()`).
fn pow_vartime_sized<S: Size>(sz: S, c: &Consts, base: &[u64], exp: &[u64]) -> SecretNat {
    let width = default_window(limbs::bits(exp));
    run(sz, c, base, |k, b| sliding::pow_vartime(k, b, exp, width, &mut ()))
}

/// Into Montgomery form, `driver`, out of it.
fn run<S: Size>(
    sz: S,
    c: &Consts,
    base: &[u64],
    driver: impl FnOnce(&mut Kernel64<'_, S>, &S::Buf) -> S::Buf,
) -> SecretNat {
    let mut k = Kernel64::new(sz, c);
    let mut b = Zeroizing::new(k.load(base));
    k.enter(b.as_mut());
    let mut x = Zeroizing::new(driver(&mut k, &b));
    k.leave(x.as_mut());
    SecretNat::from_limbs(x.as_ref().to_vec())
}

#[cfg(test)]
mod tests {
    //! Everything against num-bigint: the kernels (product, squaring) and
    //! whole exponentiations, for every specialised size through both its
    //! fixed-size and its generic kernels, and for generic sizes.

    use super::*;
    use crate::kernel::Kernel;
    use crate::kernel::size::{Dyn, FIXED};
    use crate::testing::Rng;
    use num_bigint::BigUint;
    use num_traits::{One, Zero};

    /// Digit counts without a fixed-size kernel.
    const GENERIC: [usize; 6] = [1, 2, 3, 5, 17, 33];

    fn big(x: &[u64]) -> BigUint {
        BigUint::from_bytes_le(&x.iter().flat_map(|d| d.to_le_bytes()).collect::<Vec<_>>())
    }

    /// `x` in exactly `s` digits.
    fn digits(x: &BigUint, s: usize) -> Vec<u64> {
        let mut d = x.to_u64_digits();
        d.resize(s, 0);
        d
    }

    fn consts(n: &BigUint) -> Consts {
        Consts::new(&n.to_u64_digits()).unwrap()
    }

    /// Odd moduli of exactly `s` digits: random, all ones (every carry
    /// ripples), `2^(64s-1) + 1`, a top digit of 1; and 3 when `s = 1`.
    fn moduli(s: usize, rng: &mut Rng) -> Vec<BigUint> {
        let w = 64 * s as u64;
        let top = BigUint::one() << (w - 1);
        let mut out = vec![
            rng.bits(64 * s) | &top | BigUint::one(),
            (BigUint::one() << w) - 1u8,
            &top + 1u8,
            (BigUint::one() << (w - 64)) | rng.bits(64 * s - 64) | BigUint::one(),
        ];
        if s == 1 {
            out.push(BigUint::from(3u8));
        }
        out.retain(|n| n.to_u64_digits().len() == s && *n >= BigUint::from(3u8));
        out
    }

    /// Product and squaring of the kernel against `a·b·R^-1 mod n`, checked
    /// as `out·R ≡ a·b (mod n)` with `out < n`: the kernels this CPU runs
    /// (`mulx`/`adx` where it has them) and the portable ones.
    fn check_kernels<S: Size>(sz: S, rng: &mut Rng) {
        let s = sz.len();
        for n in moduli(s, rng) {
            let ctx = consts(&n);
            for m in [Kernel64::new(sz, &ctx), Kernel64::portable(sz, &ctx)] {
                check_kernel(s, m, &n, rng);
            }
        }
    }

    /// One kernel's product and squaring modulo `n` on edge and random
    /// values; a squaring also against the product of the value by itself.
    fn check_kernel<S: Size>(s: usize, mut m: Kernel64<'_, S>, n: &BigUint, rng: &mut Rng) {
        let r = BigUint::one() << (64 * s);
        let nm1 = n - 1u8;
        let mut values = vec![BigUint::zero(), BigUint::one(), nm1.clone()];
        values.extend((0..4).map(|_| rng.below(n)));
        for a in &values {
            for b in [&nm1, a, &values[3], &values[4]] {
                let (xa, xb) = (m.load(&a.to_u64_digits()), m.load(&b.to_u64_digits()));
                let mut x = xa.clone();
                m.mul(&mut x, &xb);
                let got = big(x.as_ref());
                assert!(got < *n, "product not reduced, s = {s}");
                assert_eq!((&got * &r) % n, (a * b) % n, "product, s = {s}, n = {n:x}");
                if a == b {
                    let mut y = xa.clone();
                    m.sqr(&mut y);
                    assert_eq!(y.as_ref(), x.as_ref(), "squaring != product, s = {s}, n = {n:x}");
                }
            }
        }
    }

    /// The entry into Montgomery form of any `s`-digit `x < R` (the product
    /// with `x >= n`), on both kernels.
    #[test]
    fn enter_takes_any_digits_on_both_kernels() {
        let rng = &mut Rng(6);
        for s in [1, 2, 3, 5, 16, 17, 33] {
            for n in moduli(s, rng) {
                let ctx = consts(&n);
                let r = BigUint::one() << (64 * s);
                for mut m in [Kernel64::new(Dyn(s), &ctx), Kernel64::portable(Dyn(s), &ctx)] {
                    for x in [&r - 1u8, rng.bits(64 * s), n.clone()] {
                        let mut d = digits(&x, s);
                        m.enter(&mut d);
                        assert_eq!(big(&d), (&x * &r) % &n, "s = {s}, n = {n:x}, x = {x:x}");
                    }
                }
            }
        }
    }

    /// `fold` of `acc < n` and any `block < R` on both kernels:
    /// `(acc + block)·R^-1 mod n`, fully reduced.
    #[test]
    fn fold_reduces_the_sum_on_both_kernels() {
        let rng = &mut Rng(7);
        for s in [1, 2, 3, 5, 16, 17, 33] {
            for n in moduli(s, rng) {
                let ctx = consts(&n);
                let r = BigUint::one() << (64 * s);
                let r_inv = r.modinv(&n).unwrap();
                for mut m in [Kernel64::new(Dyn(s), &ctx), Kernel64::portable(Dyn(s), &ctx)] {
                    for (acc, block) in [
                        (&n - 1u8, &r - 1u8),
                        (BigUint::zero(), BigUint::zero()),
                        (rng.below(&n), rng.bits(64 * s)),
                    ] {
                        let mut d = digits(&acc, s);
                        m.fold(&mut d, &digits(&block, s));
                        assert_eq!(big(&d), ((&acc + &block) * &r_inv) % &n, "s = {s}, n = {n:x}");
                    }
                }
            }
        }
    }

    /// `pow_sized(sz, ..)` and `pow_vartime_sized` against `BigUint::modpow` for edge and random
    /// bases and exponents, both secrecies, exact and loose exponent bounds.
    fn check_pow<S: Size>(sz: S, rng: &mut Rng) {
        let s = sz.len();
        for n in moduli(s, rng) {
            let ctx = consts(&n);
            let bases = [BigUint::zero(), BigUint::one(), &n - 1u8, rng.below(&n)];
            let exps = [
                BigUint::zero(),
                BigUint::one(),
                BigUint::from(65537u32),
                rng.bits(64 * s) | (BigUint::one() << (64 * s - 1)),
                rng.bits(100),
            ];
            for (i, b) in bases.iter().enumerate() {
                for (j, e) in exps.iter().enumerate() {
                    // Full-length exponents only with the random base: they
                    // dominate the time at 64 digits.
                    if j == 3 && i != 3 {
                        continue;
                    }
                    let want = b.modpow(e, &n);
                    let bits = e.bits() as usize;
                    let (bd, ed) = (digits(b, s), e.to_u64_digits());
                    for bound in [bits, bits + 1 + (i + j) % 7] {
                        let got = big(pow_sized(sz, &ctx, &bd, &ed, bound).limbs());
                        assert_eq!(
                            got, want,
                            "s = {s}, n = {n:x}, b = {b:x}, e = {e:x}, secret, bound {bound}"
                        );
                    }
                    let got = big(pow_vartime_sized(sz, &ctx, &bd, &ed).limbs());
                    assert_eq!(got, want, "s = {s}, n = {n:x}, b = {b:x}, e = {e:x}, public");
                }
            }
        }
    }

    #[test]
    fn kernels_match_num_bigint_at_specialised_sizes() {
        let rng = &mut Rng(1);
        for s in FIXED {
            with_size!(s, sz => check_kernels(sz, rng));
            check_kernels(Dyn(s), rng);
        }
    }

    #[test]
    fn kernels_match_num_bigint_at_generic_sizes() {
        let rng = &mut Rng(2);
        for s in GENERIC {
            check_kernels(Dyn(s), rng);
        }
    }

    #[test]
    fn pow_matches_num_bigint_at_specialised_sizes() {
        let rng = &mut Rng(3);
        for s in FIXED {
            with_size!(s, sz => check_pow(sz, rng));
            check_pow(Dyn(s), rng);
        }
    }

    #[test]
    fn pow_matches_num_bigint_at_generic_sizes() {
        let rng = &mut Rng(4);
        for s in GENERIC {
            check_pow(Dyn(s), rng);
        }
    }

    /// The entry point dispatches every size to a kernel that agrees with
    /// the oracle (the fixed-size ones for 16 .. 64 digits).
    #[test]
    fn pow_dispatches_every_size() {
        let rng = &mut Rng(5);
        for s in [16, 24, 32, 48, 64, 4, 40, 65].into_iter().chain(GENERIC) {
            let n = rng.bits(64 * s) | (BigUint::one() << (64 * s - 1)) | BigUint::one();
            let (b, e) = (rng.below(&n), rng.bits(64 * s));
            let ctx = consts(&n);
            let (bd, ed) = (digits(&b, s), e.to_u64_digits());
            let want = b.modpow(&e, &n);
            assert_eq!(big(pow(&ctx, &bd, &ed, 64 * s).limbs()), want, "s = {s}, secret");
            assert_eq!(big(pow_vartime(&ctx, &bd, &ed).limbs()), want, "s = {s}, public");
        }
    }
}
