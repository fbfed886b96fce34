//! The scalar backend: portable 64-bit digits, one exponentiation at a time.
//!
//! One file per algorithm:
//!
//! | file | holds |
//! |---|---|
//! | `scalar/arith.rs` | digit primitives, the branch-free final subtraction, [`Size`]: [`Fixed`] or [`Dyn`] digits |
//! | `scalar/mul.rs` | the Montgomery product: FIOS with two rows per pass (four carry chains) |
//! | `scalar/sqr.rs` | the dedicated Montgomery squaring: triangle once, doubled, diagonal, reduction |
//! | `scalar/window.rs` | fixed window, constant time (secret exponents) |
//! | `scalar/sliding.rs` | sliding window, variable time (public exponents) |
//!
//! Every kernel is written once, generic over [`Size`], and instantiated
//! with a compile-time digit count for the common moduli (16, 24, 32, 48,
//! 64 digits: 1024 to 4096 bits) and with a run-time count for every other
//! length. The product schedule was chosen by measurement (see `mul.rs`).
//!
//! Measured on the project's 2-core AMD EPYC (Zen 5), one thread, best of
//! 15 s of runs, secret exponent as long as the modulus: 307 µs, 2.24 ms and
//! 16.8 ms per 1024, 2048 and 4096-bit exponentiation, against 580 µs,
//! 4.39 ms and 35.7 ms for the generic CIOS of [`crate::mont`] with the same
//! fixed window in the same run; `e = 65537` takes 4.8, 17.8 and 68 µs.

mod arith;
mod mul;
mod sliding;
mod sqr;
mod window;

use super::{Num, Secrecy};
use crate::word::Word;
use arith::{Dyn, Fixed, Size};
use zeroize::{Zeroize, Zeroizing};

/// A prepared odd modulus `n >= 3` for the scalar backend: `s` digits,
/// `n0' = -n^-1 mod 2^64` (000_be478b6750af4540.txt §2.1 Eq. 6),
/// `R mod n` (1 in Montgomery form) and `R^2 mod n` (the conversion constant),
/// `R = 2^(64s)`. Wiped on drop (`n` may be a secret prime).
pub(crate) struct Ctx {
    n: Vec<u64>,
    n0: u64,
    r1: Vec<u64>,
    r2: Vec<u64>,
}

impl Drop for Ctx {
    fn drop(&mut self) {
        self.n.zeroize();
        self.n0.zeroize();
        self.r1.zeroize();
        self.r2.zeroize();
    }
}

impl Ctx {
    /// Pre: `n` odd, `n >= 3`. Variable time (two divisions).
    pub(crate) fn new(n: &Num) -> Ctx {
        let s = n.digits().len();
        let rem = |bits: usize| {
            Num::pow2(bits)
                .rem(n)
                .expect("caller checked n odd and >= 3")
                .to_digits_padded(s)
        };
        Ctx {
            n: n.digits().to_vec(),
            n0: n.digits()[0].neg_inv(),
            r1: rem(64 * s),
            r2: rem(128 * s),
        }
    }
}

/// Defines the dispatch of [`pow`] and, for the tests, a walk over the
/// fixed-size kernels, both from one list of digit counts.
macro_rules! specialised {
    ($($n:literal),*) => {
        /// `base^exp mod n`. Pre: `base < n`, `exp < 2^exp_bits`. Post:
        /// fully reduced. With [`Secrecy::Secret`] the sequence of
        /// operations and memory addresses depends only on `n`'s digit count
        /// and `exp_bits`.
        pub(crate) fn pow(ctx: &Ctx, base: &Num, exp: &Num, exp_bits: usize, secrecy: Secrecy) -> Num {
            match ctx.n.len() {
                $($n => pow_sized(Fixed::<$n>, ctx, base, exp, exp_bits, secrecy),)*
                s => pow_sized(Dyn(s), ctx, base, exp, exp_bits, secrecy),
            }
        }

        /// Call `visit` with every fixed size.
        #[cfg(test)]
        fn each_fixed(visit: &mut impl tests::VisitSize) {
            $(visit.visit(Fixed::<$n>);)*
        }
    };
}

// 1024, 1536, 2048, 3072 and 4096-bit moduli.
specialised!(16, 24, 32, 48, 64);

/// [`pow`] with the kernels for `S` digits. Pre: `sz.len() == ctx.n.len()`.
fn pow_sized<S: Size>(sz: S, ctx: &Ctx, base: &Num, exp: &Num, exp_bits: usize, secrecy: Secrecy) -> Num {
    let mut m = Mont::new(sz, ctx);
    let b = m.montgomery(base);
    let mut x = match secrecy {
        Secrecy::Secret => window::pow(&mut m, &b, exp, exp_bits),
        Secrecy::Public => sliding::pow_vartime(&mut m, &b, exp),
    };
    m.plain(&mut x)
}

/// One exponentiation's products modulo a [`Ctx`] with `S` digits, and
/// their `2s`-digit scratch (wiped on drop).
struct Mont<'a, S: Size> {
    sz: S,
    ctx: &'a Ctx,
    t: S::Wide,
}

impl<S: Size> Drop for Mont<'_, S> {
    fn drop(&mut self) {
        self.t.zeroize();
    }
}

impl<'a, S: Size> Mont<'a, S> {
    fn new(sz: S, ctx: &'a Ctx) -> Self {
        debug_assert_eq!(sz.len(), ctx.n.len());
        Mont { sz, ctx, t: sz.wide() }
    }

    /// `x := x·b·R^-1 mod n`. Pre: `x, b < n`.
    fn mul(&mut self, x: &mut S::Buf, b: &S::Buf) {
        let t = S::wide_mut(&mut self.t);
        mul::mont_mul(self.sz, x.as_mut(), b.as_ref(), &self.ctx.n, self.ctx.n0, t);
    }

    /// `x := x^2·R^-1 mod n`. Pre: `x < n`.
    fn sqr(&mut self, x: &mut S::Buf) {
        let t = S::wide_mut(&mut self.t);
        sqr::mont_sqr(self.sz, x.as_mut(), &self.ctx.n, self.ctx.n0, t);
    }

    /// The digits `d` (at most `s`) as a residue buffer.
    fn load(&self, d: &[u64]) -> S::Buf {
        let mut x = self.sz.buf();
        x.as_mut()[..d.len()].copy_from_slice(d);
        x
    }

    /// 1 in Montgomery form, `R mod n`.
    fn one(&self) -> S::Buf {
        self.load(&self.ctx.r1)
    }

    /// `x·R mod n` (000 Fig. 1 Step 2). Pre: `x < n`.
    fn montgomery(&mut self, x: &Num) -> Zeroizing<S::Buf> {
        let mut xr = Zeroizing::new(self.load(x.digits()));
        let r2 = Zeroizing::new(self.load(&self.ctx.r2));
        self.mul(&mut xr, &r2);
        xr
    }

    /// `x·R^-1 mod n`, `MonPro(x, 1)` (000 Fig. 1 Step 7), fully reduced.
    fn plain(&mut self, x: &mut S::Buf) -> Num {
        let one = self.load(&[1]);
        self.mul(x, &one);
        Num::from_digits(x.as_ref().to_vec())
    }
}

#[cfg(test)]
mod tests {
    //! Everything against num-bigint: the kernels (product, squaring) and
    //! whole exponentiations, for every specialised size through both its
    //! fixed-size and its generic kernels, and for generic sizes.

    use super::*;
    use num_bigint::BigUint;
    use num_traits::{One, Zero};

    /// Digit counts without a fixed-size kernel.
    const GENERIC: [usize; 6] = [1, 2, 3, 5, 17, 33];

    fn big(x: &[u64]) -> BigUint {
        BigUint::from_bytes_le(&x.iter().flat_map(|d| d.to_le_bytes()).collect::<Vec<_>>())
    }

    fn num(x: &BigUint) -> Num {
        Num::from_digits(x.to_u64_digits())
    }

    /// Deterministic pseudo-random numbers (xorshift64*).
    struct Rng(u64);

    impl Rng {
        fn digit(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
        }

        /// A number of `bits` random bits.
        fn bits(&mut self, bits: usize) -> BigUint {
            let digits: Vec<u64> = (0..bits.div_ceil(64)).map(|_| self.digit()).collect();
            big(&digits) >> (64 * digits.len() - bits)
        }

        fn below(&mut self, n: &BigUint) -> BigUint {
            self.bits(n.bits() as usize) % n
        }
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
        out.retain(|n| n.to_u64_digits().len() == s);
        out
    }

    /// Product and squaring of [`Mont`] against `a·b·R^-1 mod n`, checked
    /// as `out·R ≡ a·b (mod n)` with `out < n`.
    fn check_kernels<S: Size>(sz: S, rng: &mut Rng) {
        let s = sz.len();
        for n in moduli(s, rng) {
            let ctx = Ctx::new(&num(&n));
            let mut m = Mont::new(sz, &ctx);
            let r = BigUint::one() << (64 * s);
            let nm1 = &n - 1u8;
            let mut values = vec![BigUint::zero(), BigUint::one(), nm1.clone()];
            values.extend((0..4).map(|_| rng.below(&n)));
            for a in &values {
                for b in [&nm1, a, &values[3], &values[4]] {
                    let (xa, xb) = (m.load(&a.to_u64_digits()), m.load(&b.to_u64_digits()));
                    let mut x = xa.clone();
                    m.mul(&mut x, &xb);
                    let got = big(x.as_ref());
                    assert!(got < n, "product not reduced, s = {s}");
                    assert_eq!((&got * &r) % &n, (a * b) % &n, "product, s = {s}, n = {n:x}");
                    if a == b {
                        let mut y = xa.clone();
                        m.sqr(&mut y);
                        assert_eq!(y.as_ref(), x.as_ref(), "squaring != product, s = {s}, n = {n:x}");
                    }
                }
            }
        }
    }

    /// `pow_sized(sz, ..)` against `BigUint::modpow` for edge and random
    /// bases and exponents, both secrecies, exact and loose exponent bounds.
    fn check_pow<S: Size>(sz: S, rng: &mut Rng) {
        let s = sz.len();
        for n in moduli(s, rng) {
            let ctx = Ctx::new(&num(&n));
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
                    let want = num(&b.modpow(e, &n));
                    let bits = e.bits() as usize;
                    for (secrecy, bound) in [
                        (Secrecy::Secret, bits),
                        (Secrecy::Secret, bits + 1 + (i + j) % 7),
                        (Secrecy::Public, bits),
                    ] {
                        let got = pow_sized(sz, &ctx, &num(b), &num(e), bound, secrecy);
                        assert_eq!(
                            got, want,
                            "s = {s}, n = {n:x}, b = {b:x}, e = {e:x}, {secrecy:?}, bound {bound}"
                        );
                    }
                }
            }
        }
    }

    /// A check run on one [`Size`] (closures cannot be generic).
    pub(super) trait VisitSize {
        fn visit<S: Size>(&mut self, sz: S);
    }

    /// [`check_kernels`] with a fixed size and with the generic kernels of
    /// the same digit count.
    struct Kernels(Rng);

    impl VisitSize for Kernels {
        fn visit<S: Size>(&mut self, sz: S) {
            check_kernels(sz, &mut self.0);
            check_kernels(Dyn(sz.len()), &mut self.0);
        }
    }

    /// [`check_pow`] with a fixed size and with the generic kernels of the
    /// same digit count.
    struct Pows(Rng);

    impl VisitSize for Pows {
        fn visit<S: Size>(&mut self, sz: S) {
            check_pow(sz, &mut self.0);
            check_pow(Dyn(sz.len()), &mut self.0);
        }
    }

    #[test]
    fn kernels_match_num_bigint_at_specialised_sizes() {
        each_fixed(&mut Kernels(Rng(1)));
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
        each_fixed(&mut Pows(Rng(3)));
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
            let ctx = Ctx::new(&num(&n));
            for secrecy in [Secrecy::Secret, Secrecy::Public] {
                let got = pow(&ctx, &num(&b), &num(&e), 64 * s, secrecy);
                assert_eq!(got, num(&b.modpow(&e, &n)), "s = {s}, {secrecy:?}");
            }
        }
    }
}
