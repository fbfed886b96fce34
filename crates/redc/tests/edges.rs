//! Edge cases of `modpow` and of the Montgomery products, for every
//! `Product` × `Schedule` × digit width, with `num_bigint::BigUint::modpow`
//! as the oracle: base 0, bases at and beyond `n`, exponents 0 and 1 and all
//! ones, `n` = 1, 2, 3, `2^k ± 1` around digit boundaries, moduli whose digits
//! are all ones, even moduli `2^t` and `2^t·m`, the smallest and the largest
//! sizes per width, and the errors of `Modulus::new`.
//!
//! Large moduli get short exponents (at most 64 bits) so that the file runs
//! in seconds in the optimised test build.

mod common;
use common::*;
use num_bigint::BigUint;
use redc::{ModpowError, Modulus, ModulusError, MontElem, Nat, PowOptions, Product, Schedule, Word, modpow};

fn big(x: u64) -> BigUint {
    BigUint::from(x)
}

/// The largest modulus size tested at width `w` (the narrow widths are
/// capped to keep the suite fast).
fn max_bits(w: u32) -> usize {
    match w {
        8 => 1024,
        16 => 2048,
        _ => 4096,
    }
}

/// Every product schedule with every exponentiation schedule.
fn all_options() -> Vec<PowOptions> {
    Product::ALL
        .iter()
        .flat_map(|&product| {
            Schedule::ALL
                .iter()
                .map(move |&schedule| PowOptions { product, schedule })
        })
        .collect()
}

/// Every product with the default schedule, and every schedule with the
/// default product: each of the eleven pieces once.
fn cross_options() -> Vec<PowOptions> {
    let mut v: Vec<PowOptions> = Product::ALL
        .iter()
        .map(|&product| PowOptions {
            product,
            schedule: Schedule::default(),
        })
        .collect();
    v.extend(
        Schedule::ALL
            .iter()
            .filter(|&&s| s != Schedule::default())
            .map(|&schedule| PowOptions {
                product: Product::default(),
                schedule,
            }),
    );
    v
}

/// `modpow` under each of `options` equals `b^e mod n`.
fn check_modpow<W: Word>(b: &BigUint, e: &BigUint, n: &BigUint, options: &[PowOptions]) {
    let expect = b.modpow(e, n) % n;
    let (bn, en, nn) = (to_nat::<W>(b), to_nat::<W>(e), to_nat::<W>(n));
    for &opts in options {
        let got =
            modpow(&bn, &en, &nn, opts, None).unwrap_or_else(|err| panic!("w={} {opts:?} n={n:x}: {err}", W::BITS));
        assert_eq!(
            to_big(&got),
            expect,
            "w={} {:?} {:?} b={b:x} e={e:x} n={n:x}",
            W::BITS,
            opts.product,
            opts.schedule
        );
    }
}

/// Bases at the edges for modulus `n`: 0, 1, 2, n-1, n, n+1, k·n+1, a
/// power of two at least n, and bases much longer than n.
fn edge_bases(n: &BigUint, seed: u64) -> Vec<BigUint> {
    let bits = n.bits() as usize;
    let mut v = vec![
        big(0),
        big(1),
        big(2),
        n - 1u8,
        n.clone(),
        n + 1u8,
        n * 5u8 + 1u8,
        pow2(bits),
        n * n + 3u8,
        pseudo(3 * bits + 40, seed),
    ];
    v.sort();
    v.dedup();
    v
}

/// Checks `modpow` at odd or even `n` with edge bases and exponents. The
/// pairs that reach the product schedules (short bases, exponents 0, 1, 2
/// and one 64-bit exponent) run under all 30 options; pairs whose extra cost
/// is product-independent (long bases are reduced by division, longer
/// exponents only lengthen the loop) run under the eleven `cross_options`.
/// Exponents stay at most 64 bits unless `n` is small.
fn check_modulus<W: Word>(n: &BigUint, seed: u64) {
    let bits = n.bits() as usize;
    let (all, cross) = (all_options(), cross_options());
    let bases = edge_bases(n, seed);
    let (near, far): (Vec<&BigUint>, Vec<&BigUint>) = bases.iter().partition(|&b| b <= &(n + 1u8));
    let heavy = ones(64);
    if bits <= 160 {
        let mut exps = vec![
            big(3),
            pow2(63) + 1u8,
            pseudo(64, seed ^ 0x55),
            ones(bits + 7),
            pow2(64),
        ];
        exps.push(n - 1u8);
        for &b in &near {
            for e in [big(0), big(1), big(2), heavy.clone()] {
                check_modpow::<W>(b, &e, n, &all);
            }
            for e in &exps {
                check_modpow::<W>(b, e, n, &cross);
            }
        }
        for &b in &far {
            for e in [big(0), big(1), big(2), heavy.clone()] {
                check_modpow::<W>(b, &e, n, &cross);
            }
        }
        check_modpow::<W>(far[far.len() - 1], &exps[2], n, &all);
    } else {
        let exps: &[BigUint] = if bits <= 600 {
            &[big(0), big(1), big(2)]
        } else {
            &[big(0), big(1)]
        };
        for &b in &near {
            for e in exps {
                check_modpow::<W>(b, e, n, &all);
            }
        }
        for &b in &far {
            for e in exps {
                check_modpow::<W>(b, e, n, &cross);
            }
        }
        check_modpow::<W>(&(n - 1u8), &heavy, n, &cross);
        check_modpow::<W>(far[far.len() - 1], &pseudo(64, seed ^ 0x55), n, &cross);
        if bits <= 600 {
            check_modpow::<W>(&(n - 2u8), &heavy, n, &all);
        }
    }
}

/// `Modulus` constants and the Montgomery product by every `Product` at odd
/// `n >= 3`, on the edge residues 0, 1, 2, n-2, n-1, (n-1)/2 both through
/// `to_mont`/`from_mont` and as raw digits.
fn check_products<W: Word>(n: &BigUint, seed: u64) {
    let w = W::BITS as usize;
    let modulus = Modulus::<W>::new(&to_nat(n)).unwrap_or_else(|e| panic!("n={n:x}: {e}"));
    let s = (n.bits() as usize).div_ceil(w);
    assert_eq!(modulus.len(), s);
    assert!(!modulus.is_empty());
    assert_eq!(modulus.bits() as u64, n.bits());
    assert_eq!(to_big(&modulus.value()), *n);
    assert_eq!(modulus.digits().len(), s);
    let r = pow2(s * w);
    assert_eq!(to_big(&modulus.r_mod_n()), &r % n, "R mod n, w={w} n={n:x}");
    assert_eq!(to_big(&modulus.r2_mod_n()), (&r * &r) % n, "R^2 mod n, w={w} n={n:x}");
    assert_eq!(
        modulus.n0_inv().wrapping_mul(modulus.digits()[0]),
        W::MAX,
        "n0' = -n^-1 mod 2^w, w={w} n={n:x}"
    );
    let r_inv = r.modinv(n).expect("n odd");
    let mut values = if s <= 8 {
        vec![big(0), big(1), big(2), n - 2u8, n - 1u8, (n - 1u8) >> 1]
    } else {
        vec![big(0), big(1), n - 1u8]
    };
    values.push(pseudo(n.bits() as usize, seed) % n);
    values.sort();
    values.dedup();
    for product in Product::ALL {
        let ctx = format!("w={w} {product:?} n={n:x}");
        let mut mm = modulus.multiplier(product);
        assert_eq!(mm.product(), product);
        assert_eq!(mm.modulus().value(), modulus.value());
        assert_eq!(to_big(&Nat::from_digits(modulus.one().digits().to_vec())), &r % n);
        assert_eq!(to_big(&mm.from_mont(&modulus.one())), big(1), "{ctx}");
        // The element whose Montgomery digits are x itself.
        let raw = |mm: &mut redc::Multiplier<'_, W>, x: &BigUint| -> MontElem<W> {
            let e = mm.to_mont(&to_nat(&((x * &r_inv) % n)));
            assert_eq!(to_big(&Nat::from_digits(e.digits().to_vec())), *x);
            e
        };
        for a in &values {
            let am = mm.to_mont(&to_nat(a));
            assert_eq!(am.digits().len(), s, "{ctx}");
            assert_eq!(
                to_big(&Nat::from_digits(am.digits().to_vec())),
                (a * &r) % n,
                "{ctx} a={a:x}"
            );
            assert_eq!(to_big(&mm.from_mont(&am)), a.clone(), "{ctx} round trip a={a:x}");
            // to_mont reduces its argument first.
            let above = mm.to_mont(&to_nat(&(a + n * 3u8)));
            assert!(above == am, "{ctx} to_mont(a + 3n) a={a:x}");
            let ar = raw(&mut mm, a);
            for b in &values {
                let bm = mm.to_mont(&to_nat(b));
                let p = mm.mul(&am, &bm);
                assert_eq!(to_big(&mm.from_mont(&p)), (a * b) % n, "{ctx} a={a:x} b={b:x}");
                let br = raw(&mut mm, b);
                let q = to_big(&Nat::from_digits(mm.mul(&ar, &br).digits().to_vec()));
                assert_eq!(q, (a * b * &r_inv) % n, "{ctx} MonPro raw a={a:x} b={b:x}");
            }
            // square_assign and mul_assign agree with mul.
            let mut x = am.clone();
            let mut tmp = modulus.one();
            mm.square_assign(&mut x, &mut tmp);
            assert!(x == mm.mul(&am, &am), "{ctx} square_assign");
            let y = mm.to_mont(&to_nat(&(n - 1u8)));
            mm.mul_assign(&mut x, &y, &mut tmp);
            assert_eq!(to_big(&mm.from_mont(&x)), (a * a * (n - 1u8)) % n, "{ctx} mul_assign");
        }
        // Montgomery form through Modulus::to_mont / from_mont too.
        let x = modulus.to_mont(&to_nat(&(n - 1u8)), product);
        assert_eq!(to_big(&modulus.from_mont(&x, product)), n - 1u8);
    }
}

/// Run `f::<W>()` as one test per width.
macro_rules! per_width {
    ($name:ident, $f:ident) => {
        mod $name {
            #[test]
            fn w8() {
                super::$f::<u8>();
            }
            #[test]
            fn w16() {
                super::$f::<u16>();
            }
            #[test]
            fn w32() {
                super::$f::<u32>();
            }
            #[test]
            fn w64() {
                super::$f::<u64>();
            }
        }
    };
}

/// n = 1 .. 17 (n = 1 answers 0, n = 2 and 3 are the smallest even and odd
/// moduli), with every base up to 2n + 1 and a few much longer ones.
fn tiny_moduli<W: Word>() {
    let all = all_options();
    for n in [1u64, 2, 3, 4, 5, 6, 7, 8, 9, 12, 15, 17] {
        let nb = big(n);
        let mut bases: Vec<BigUint> = (0..=2 * n + 1).map(big).collect();
        bases.extend([big(u64::MAX), pow2(64) + 1u8, pseudo(300, n)]);
        let exps = [
            big(0),
            big(1),
            big(2),
            big(3),
            big(4),
            big(5),
            ones(64),
            pow2(64),
            ones(130),
        ];
        for b in &bases {
            for e in &exps {
                check_modpow::<W>(b, e, &nb, &all);
            }
        }
        if n >= 3 && n % 2 == 1 {
            check_products::<W>(&nb, n);
        }
    }
}
per_width!(tiny, tiny_moduli);

/// The digit-boundary sizes for width `w`.
fn boundary_ks(w: usize) -> Vec<usize> {
    let mut ks = vec![w - 1, w, w + 1, 2 * w, 63, 64, 65, 127, 128, 129, 1023, 1024];
    ks.retain(|&k| k >= 2);
    ks.sort_unstable();
    ks.dedup();
    ks
}

/// n = 2^k - 1 and n = 2^k + 1 for k at and around digit boundaries.
fn two_power_plus_minus_one<W: Word>() {
    for (i, k) in boundary_ks(W::BITS as usize).into_iter().enumerate() {
        for n in [ones(k), pow2(k) + 1u8] {
            check_modulus::<W>(&n, i as u64);
            check_products::<W>(&n, i as u64);
        }
    }
}
per_width!(two_power_pm1, two_power_plus_minus_one);

/// Moduli whose digits are all ones (1, 2, 3 and 5 digits), one whose top
/// digits are all ones above a small low digit, and exponents that are all
/// ones (as long as n, and one bit longer).
fn all_ones_digits<W: Word>() {
    let w = W::BITS as usize;
    let all = all_options();
    for s in [1usize, 2, 3, 5] {
        let n = ones(s * w);
        check_modulus::<W>(&n, s as u64);
        check_products::<W>(&n, s as u64);
        for e in [ones(s * w), ones(s * w + 1), ones(64)] {
            for b in [big(2), &n - 2u8, pseudo(s * w + 9, 3)] {
                check_modpow::<W>(&b, &e, &n, &all);
            }
        }
        // Top digits all ones, low digit 3.
        let m = (ones(s * w) >> w << w) | big(3);
        if m > big(3) {
            check_modulus::<W>(&m, 17);
            check_products::<W>(&m, 17);
        }
    }
}
per_width!(all_ones, all_ones_digits);

/// n = 2^t for t = 1 .. 130 (no odd part: plain arithmetic mod 2^t).
fn powers_of_two<W: Word>() {
    let opts = [
        PowOptions::default(),
        PowOptions {
            product: Product::Sos,
            schedule: Schedule::Ltr,
        },
    ];
    for t in 1..=130usize {
        let n = pow2(t);
        let bases = [
            big(0),
            big(1),
            big(2),
            big(3),
            ones(t),
            n.clone(),
            &n + 1u8,
            pseudo(3 * t + 5, t as u64),
        ];
        let exps = [big(0), big(1), big(2), big(t as u64), ones(64), pow2(70) + 1u8];
        for b in &bases {
            for e in &exps {
                check_modpow::<W>(b, e, &n, &opts);
            }
        }
        assert_eq!(Modulus::<W>::new(&to_nat(&n)).unwrap_err(), ModulusError::Even);
    }
}
per_width!(pow2_moduli, powers_of_two);

/// n = 2^t · m with odd m > 1: the Montgomery part modulo m joined by CRT.
fn even_composites<W: Word>() {
    let w = W::BITS as usize;
    let mut ts = vec![1usize, 2, w - 1, w, w + 1, 64, 130];
    ts.sort_unstable();
    ts.dedup();
    for (i, &t) in ts.iter().enumerate() {
        for m in [big(3), ones(w), pow2(w) + 1u8, ones(65), pseudo(200, 99) | big(1)] {
            let n = &m << t;
            check_modulus::<W>(&n, i as u64);
        }
    }
}
per_width!(even_times_odd, even_composites);

/// The smallest odd and even moduli and the largest sizes per width
/// (w = 8: 1024 bits, w = 16: 2048 bits, w = 32 and 64: 4096 bits).
fn smallest_and_largest<W: Word>() {
    let all = all_options();
    for n in [big(2), big(3)] {
        for e in [big(0), big(1), ones(64), pseudo(200, 5)] {
            for b in [big(0), big(1), big(2), big(3), pseudo(100, 1)] {
                check_modpow::<W>(&b, &e, &n, &all);
            }
        }
    }
    check_products::<W>(&big(3), 3);
    let k = max_bits(W::BITS);
    for (i, n) in [pseudo(k, 11) | big(1), ones(k), pow2(k - 1) + 1u8]
        .into_iter()
        .enumerate()
    {
        assert_eq!(n.bits() as usize, k);
        check_modulus::<W>(&n, i as u64);
    }
    // A full-length base with a 64-bit exponent, all 30 combinations.
    check_modpow::<W>(&pseudo(k - 3, 21), &ones(64), &(pseudo(k, 11) | big(1)), &all);
    // Products at the largest size.
    check_products::<W>(&(pseudo(k, 12) | big(1)), 4);
    // The largest even modulus: 2^t · m at full size.
    let n = (pseudo(k - 70, 13) | big(1)) << 70;
    check_modpow::<W>(&pseudo(k + 100, 14), &pseudo(64, 15), &n, &all);
}
per_width!(smallest_largest, smallest_and_largest);

/// `Modulus::new` rejects 0, 1 and even numbers with the matching error.
fn modulus_errors<W: Word>() {
    assert_eq!(Modulus::<W>::new(&Nat::zero()).unwrap_err(), ModulusError::Zero);
    assert_eq!(Modulus::<W>::new(&Nat::one()).unwrap_err(), ModulusError::One);
    assert_eq!(
        Modulus::<W>::new(&Nat::from_digits(vec![W::ONE, W::ZERO])).unwrap_err(),
        ModulusError::One
    );
    for n in [
        big(2),
        big(4),
        big(6),
        big(256),
        pow2(64),
        pow2(200) * 3u8,
        ones(300) - 1u8,
    ] {
        assert_eq!(
            Modulus::<W>::new(&to_nat(&n)).unwrap_err(),
            ModulusError::Even,
            "n={n:x}"
        );
    }
    for n in [big(3), big(5), ones(W::BITS as usize), pow2(300) + 1u8] {
        assert!(Modulus::<W>::new(&to_nat(&n)).is_ok(), "n={n:x}");
    }
    // modpow answers every n >= 1 and refuses only n = 0.
    for opts in all_options() {
        assert_eq!(
            modpow::<W>(&Nat::from_u64(3), &Nat::from_u64(5), &Nat::zero(), opts, None),
            Err(ModpowError::ZeroModulus)
        );
        assert_eq!(
            modpow::<W>(&Nat::zero(), &Nat::zero(), &Nat::one(), opts, None),
            Ok(Nat::zero())
        );
    }
}
per_width!(errors, modulus_errors);

#[test]
fn modulus_error_messages() {
    let zero = ModulusError::Zero.to_string();
    let one = ModulusError::One.to_string();
    let even = ModulusError::Even.to_string();
    assert!(zero.contains("zero"), "{zero}");
    assert!(one.contains("one"), "{one}");
    assert!(even.contains("even"), "{even}");
    assert!(ModpowError::ZeroModulus.to_string().contains("zero"));
    // The three messages are distinct.
    assert!(zero != one && one != even && zero != even);
}

/// A 16384-bit odd modulus at w = 64 (s = 256), with the default product.
#[test]
fn modulus_16384_bits_w64() {
    let n = pseudo(16384, 2024) | big(1);
    let modulus = Modulus::<u64>::new(&to_nat(&n)).expect("odd n");
    assert_eq!(modulus.len(), 256);
    assert_eq!(modulus.bits(), 16384);
    let r = pow2(16384);
    assert_eq!(to_big(&modulus.r_mod_n()), &r % &n);
    assert_eq!(to_big(&modulus.r2_mod_n()), (&r * &r) % &n);
    assert_eq!(modulus.n0_inv().wrapping_mul(modulus.digits()[0]), u64::MAX);
    let product = Product::Cios;
    let mut mm = modulus.multiplier(product);
    let a = pseudo(16383, 1);
    let b = pseudo(20000, 2);
    let (am, bm) = (mm.to_mont(&to_nat(&a)), mm.to_mont(&to_nat(&b)));
    let p = mm.mul(&am, &bm);
    assert_eq!(to_big(&mm.from_mont(&p)), (&a * &b) % &n);
    let e = big(65537);
    let got = modpow(
        &to_nat::<u64>(&b),
        &to_nat(&e),
        &to_nat(&n),
        PowOptions {
            product,
            schedule: Schedule::Window,
        },
        None,
    )
    .expect("n != 0");
    assert_eq!(to_big(&got), b.modpow(&e, &n));
}

/// The accumulators of FIPS and CIHS at w = 8 beyond 1024 bits, where Koç's
/// three-digit accumulator can no longer hold a column: a column of FIPS sums
/// 2s products of up to 255², at s = 512 up to about 2^26, more than 2^24.
/// The operands here have every digit at its maximum; the quotient digits
/// decide the rest of each column, and with them a three-digit accumulator
/// gives a wrong result at 4096 bits (not yet at 2048). Each schedule must
/// agree with num-bigint.
#[test]
fn narrow_digit_accumulators_beyond_1024_bits() {
    for bits in [2048usize, 4096] {
        let s = bits / 8;
        assert!(
            2 * s as u64 * 255 * 255 > 1 << 24,
            "a 3-digit accumulator overflows at s = {s}"
        );
        let n = ones(bits);
        let a = &n - 1u8;
        let b = &n - 2u8;
        let modulus = Modulus::<u8>::new(&to_nat(&n)).unwrap();
        let r = pow2(bits);
        for product in [Product::Fips, Product::Cihs, Product::Cios] {
            let mut mm = modulus.multiplier(product);
            let x = mm.to_mont(&to_nat(&a));
            let y = mm.to_mont(&to_nat(&b));
            let p = mm.mul(&x, &y);
            assert_eq!(to_big(&mm.from_mont(&p)), (&a * &b) % &n, "{product:?} {bits}");
            let digits = to_big(&Nat::from_digits(p.digits().to_vec()));
            assert_eq!(digits, (&a * &b % &n) * &r % &n, "{product:?} {bits}");
        }
    }
}
