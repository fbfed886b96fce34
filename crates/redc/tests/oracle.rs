//! Differential tests against num-bigint: every product schedule × every
//! exponentiation schedule × every digit width, on random operands of
//! 2..4096 bits (narrow digits are bounded so the suite stays fast on 2
//! cores: w = 8 up to 1024 bits, w = 16 up to 2048 bits).

mod common;
use common::{to_big, to_nat};
use num_bigint::BigUint;
use proptest::prelude::*;
use redc::exp::{ladder, window};
use redc::{Domain, Modulus, Nat, OpCounts, PowOptions, Product, Schedule, SecretNat, Word, modpow};

/// A number of exactly `bits` bits (top bit set) from `bytes`.
fn exact_bits(bytes: &[u8], bits: usize) -> BigUint {
    let x = BigUint::from_bytes_be(bytes) % (BigUint::from(1u8) << (bits - 1));
    x | (BigUint::from(1u8) << (bits - 1))
}

fn max_bits(w: u32) -> usize {
    match w {
        8 => 1024,
        16 => 2048,
        _ => 4096,
    }
}

/// MonPro by every schedule agrees with `a·b·R^-1 mod n`.
fn check_products<W: Word>(n: &BigUint, a: &BigUint, b: &BigUint) {
    let modulus = Modulus::<W>::new(&to_nat(n)).unwrap();
    let s = modulus.len();
    let r = BigUint::from(1u8) << (s * W::BITS as usize);
    let (a, b) = (a % n, b % n);
    let expect_ab = (&a * &b) % n;
    for product in Product::ALL {
        let mut mm = modulus.metered(product, OpCounts::default());
        let am = mm.to_mont(&to_nat(&a));
        let bm = mm.to_mont(&to_nat(&b));
        // The Montgomery forms are a·R and b·R mod n.
        assert_eq!(to_big(&Nat::from_digits(am.digits().to_vec())), (&a * &r) % n);
        // Constant-time subtraction modulo n.
        let diff = modulus.sub(&am, &bm);
        assert_eq!(to_big(&mm.from_mont(&diff)), (&a + n - &b) % n);
        let sum = modulus.add(&am, &bm);
        assert_eq!(to_big(&mm.from_mont(&sum)), (&a + &b) % n);
        let before = mm.meter().muls();
        let p = mm.mul(&am, &bm);
        // 2s² + s word multiplications for every schedule (Koç, Table 1).
        assert_eq!(mm.meter().muls() - before, (2 * s * s + s) as u64, "{product:?}");
        let plain = mm.from_mont(&p);
        assert_eq!(to_big(&plain), expect_ab, "{product:?} w={} n={n:x}", W::BITS);
        // Raw MonPro of the plain values: out·R ≡ a·b and out < n.
        let raw = to_big(&Nat::from_digits(
            mm.mul(&mm_elem(&modulus, &a, product), &mm_elem(&modulus, &b, product))
                .digits()
                .to_vec(),
        ));
        assert!(raw < *n);
        assert_eq!((&raw * &r) % n, expect_ab);
    }
}

/// The residue whose Montgomery digits are `x` itself.
fn mm_elem<W: Word>(m: &Modulus<W>, x: &BigUint, product: Product) -> redc::MontElem<W> {
    // to_mont(y) has digits y·R mod n: choose y = x·R^-1 mod n.
    let n = to_big(&m.value());
    let r = BigUint::from(1u8) << (m.len() * W::BITS as usize);
    let rinv = r.modinv(&n).unwrap();
    m.to_mont(&to_nat(&((x * rinv) % &n)), product)
}

fn check_modpow<W: Word>(b: &BigUint, e: &BigUint, n: &BigUint) {
    let expect = b.modpow(e, n);
    for product in Product::ALL {
        for schedule in Schedule::ALL {
            let got = modpow::<W>(
                &to_nat(b),
                &to_nat(e),
                &to_nat(n),
                PowOptions { product, schedule },
                None,
            )
            .unwrap();
            assert_eq!(
                to_big(&got),
                expect,
                "{product:?} {schedule:?} w={} b={b:x} e={e:x} n={n:x}",
                W::BITS
            );
        }
    }
}

macro_rules! each_width {
    ($w:expr, $f:ident, $($arg:expr),*) => {
        match $w {
            8 => $f::<u8>($($arg),*),
            16 => $f::<u16>($($arg),*),
            32 => $f::<u32>($($arg),*),
            _ => $f::<u64>($($arg),*),
        }
    };
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn products_agree_with_num_bigint(
        w in prop::sample::select(vec![8u32, 16, 32, 64]),
        bits in 2usize..=4096,
        nb in prop::collection::vec(any::<u8>(), 512),
        ab in prop::collection::vec(any::<u8>(), 512),
        bb in prop::collection::vec(any::<u8>(), 512),
    ) {
        let bits = bits.min(max_bits(w)).max(2);
        let n = exact_bits(&nb, bits) | BigUint::from(1u8);
        prop_assume!(n > BigUint::from(1u8));
        let (a, b) = (BigUint::from_bytes_be(&ab), BigUint::from_bytes_be(&bb));
        each_width!(w, check_products, &n, &a, &b);
    }

    #[test]
    fn modpow_agrees_with_num_bigint(
        w in prop::sample::select(vec![8u32, 16, 32, 64]),
        bits in 2usize..=4096,
        ebits in 0usize..=256,
        even_shift in prop::sample::select(vec![0usize, 0, 1, 3, 70]),
        nb in prop::collection::vec(any::<u8>(), 512),
        bb in prop::collection::vec(any::<u8>(), 520),
        eb in prop::collection::vec(any::<u8>(), 12),
    ) {
        let bits = bits.min(max_bits(w) / 2).max(2);
        let n = (exact_bits(&nb, bits) | BigUint::from(1u8)) << even_shift;
        let b = BigUint::from_bytes_be(&bb);
        let e = if ebits == 0 { BigUint::from(0u8) } else { exact_bits(&eb, ebits) };
        each_width!(w, check_modpow, &b, &e, &n);
    }
}

/// Full-size exponents at the widest and narrowest digits.
#[test]
fn full_size_exponents() {
    let n = exact_bits(&[0xa5; 256], 2048) | BigUint::from(1u8);
    let e = exact_bits(&[0x5a; 256], 2048);
    let b = exact_bits(&[0x3c; 256], 2047);
    let expect = b.modpow(&e, &n);
    for product in Product::ALL {
        for schedule in Schedule::ALL {
            let got = modpow::<u64>(
                &to_nat(&b),
                &to_nat(&e),
                &to_nat(&n),
                PowOptions { product, schedule },
                None,
            )
            .unwrap();
            assert_eq!(to_big(&got), expect, "{product:?} {schedule:?}");
        }
    }
    let n = exact_bits(&[0x96; 64], 512) | BigUint::from(1u8);
    let e = exact_bits(&[0x69; 64], 512);
    check_modpow::<u8>(&b, &e, &n);
}

/// The constant-time schedules with a public bound larger than the exponent.
#[test]
fn constant_time_schedules_with_padding_bound() {
    let n = BigUint::from(0xffff_fffb_u64) * BigUint::from(0xffff_ffef_u64);
    let m = Modulus::<u32>::new(&to_nat(&n)).unwrap();
    let mut mm = m.multiplier(Product::Cios);
    let b = BigUint::from(0x1234_5678_9abc_u64);
    let bm = mm.to_mont(&to_nat(&b));
    for e in [0u64, 1, 2, 3, 0xffff, 0x1_0001] {
        let en = Nat::<u32>::from_u64(e);
        let expect = b.modpow(&BigUint::from(e), &n);
        let l = ladder::pow(&mut mm, &bm, &en, 64, None);
        assert_eq!(to_big(&mm.from_mont(&l)), expect);
        for k in 1..=8 {
            let x = window::pow(&mut mm, &bm, &en, 64, k, None);
            assert_eq!(to_big(&mm.from_mont(&x)), expect, "k={k} e={e}");
        }
    }
}

/// The teaching fixed window and ladder with a public bound shorter than the
/// exponent: the windows extend to the exponent (a public number here).
#[test]
fn a_bound_below_the_exponent_still_gives_the_power() {
    let n = BigUint::from(0xffff_fffb_u64) * BigUint::from(0xffff_ffef_u64);
    let m = Modulus::<u32>::new(&to_nat(&n)).unwrap();
    let mut mm = m.multiplier(Product::Cios);
    let b = BigUint::from(0x1234_5678_9abc_u64);
    let bm = mm.to_mont(&to_nat(&b));
    let e = Nat::<u32>::from_u64(65537);
    let expect = b.modpow(&BigUint::from(65537u32), &n);
    let x = ladder::pow(&mut mm, &bm, &e, 8, None);
    assert_eq!(to_big(&mm.from_mont(&x)), expect);
    for k in [1, 4, 6] {
        let x = window::pow(&mut mm, &bm, &e, 8, k, None);
        assert_eq!(to_big(&mm.from_mont(&x)), expect, "k={k}");
    }
}

/// `Domain::enter` (the division-free `C mod p` of RSA-CRT) against
/// num-bigint, for `x` of any length (up to about 4 times `p`'s): out of
/// Montgomery form it is `x mod p`, and a product (a square, in place or
/// not) of entered values is the product modulo `p`.
fn check_reduce(p: &BigUint, q: &BigUint, x: &BigUint) {
    enum P {}
    let domain = Domain::<P>::public(&to_nat(p)).unwrap();
    let x = x % (p * q * q * q + 1u8);
    let len = x.to_u64_digits().len();
    let xs = SecretNat::from_nat(&to_nat(&x), len).unwrap();
    let xm = domain.enter(&xs);
    assert_eq!(to_big(&domain.leave(&xm).reveal()), &x % p);
    let y = q % p;
    let ym = domain.enter(&SecretNat::from_nat(&to_nat(&y), domain.len()).unwrap());
    assert_eq!(to_big(&domain.leave(&domain.mul(&xm, &ym)).reveal()), (&x * &y) % p);
    assert_eq!(to_big(&domain.leave(&domain.sqr(&xm)).reveal()), (&x * &x) % p);
    // The in-place forms, each on the previous result.
    let mut z = xm;
    domain.mul_assign(&mut z, &ym);
    domain.sqr_assign(&mut z);
    assert_eq!(to_big(&domain.leave(&z).reveal()), (&x * &y).pow(2) % p);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn domain_enter_agrees_with_num_bigint(
        bits in 2usize..=1024,
        pb in prop::collection::vec(any::<u8>(), 128),
        qb in prop::collection::vec(any::<u8>(), 128),
        xb in prop::collection::vec(any::<u8>(), 520),
    ) {
        let p = exact_bits(&pb, bits) | BigUint::from(1u8);
        prop_assume!(p > BigUint::from(1u8));
        let q = exact_bits(&qb, bits);
        let x = BigUint::from_bytes_be(&xb);
        check_reduce(&p, &q, &x);
    }
}

/// The multiplications `Domain::multiplies` states for its product are
/// those the metered schedules count (Koç's `2s^2 + s`); its squaring
/// computes each of the `s(s-1)/2` off-diagonal products once, not twice.
#[test]
fn domain_multiply_counts_match_the_metered_product() {
    enum P {}
    for bits in [64usize, 1024, 2048, 4096] {
        let n = (BigUint::from(1u8) << bits) - 1u8;
        let domain = Domain::<P>::public(&to_nat(&n)).unwrap();
        let modulus = Modulus::<u64>::new(&to_nat(&n)).unwrap();
        let mut mm = modulus.metered(Product::ALL[0], OpCounts::default());
        let x = mm.to_mont(&to_nat(&BigUint::from(3u8)));
        let before = mm.meter().muls();
        let _ = mm.mul(&x, &x);
        let (product, square) = domain.multiplies();
        assert_eq!(product as u64, mm.meter().muls() - before, "{bits} bits");
        let s = bits / 64;
        assert_eq!(square, product - (s * s - s) / 2, "{bits} bits");
    }
}
