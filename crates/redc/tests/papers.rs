//! Known-answer tests taken from the papers in `shared/papers` (text
//! extracted from PDFs). Each test names the paper file and the section,
//! equation, figure or algorithm it checks.

mod common;
use common::*;
use num_bigint::BigUint;
use num_traits::{One, Zero};
use redc::exp::TraceRow;
use redc::{Modulus, MontElem, Multiplier, Nat, OpCounts, PowOptions, Product, Schedule, Trace, Word, modpow};

/// The value of a residue's Montgomery digits.
fn digits_of<W: Word>(x: &MontElem<W>) -> BigUint {
    to_big(&Nat::from_digits(x.digits().to_vec()))
}

/// A deterministic pseudo-random odd number of exactly `bits` bits.
fn pseudo_odd(bits: usize, seed: u64) -> BigUint {
    pseudo(bits, seed) | BigUint::one()
}

/// The residue whose Montgomery digits are `x` (`x < n`): `to_mont(y)` has
/// digits `y·R mod n`, so take `y = x·R^-1 mod n`.
fn raw_elem<W: Word>(mm: &mut Multiplier<'_, W>, x: &BigUint) -> MontElem<W> {
    let modulus = mm.modulus();
    let n = to_big(&modulus.value());
    let r = pow2(modulus.len() * W::BITS as usize);
    let r_inv = r.modinv(&n).expect("n odd");
    let e = mm.to_mont(&to_nat(&((x * r_inv) % &n)));
    assert_eq!(digits_of(&e), *x);
    e
}

/// 001_24b3bbce8c558126.txt §3.1 (Montgomery Multiplication Algorithm),
/// the worked example: X = 147, Y = 92, M = 251, R = 8 bits. Every value the
/// text states, in decimal and in the binary the text prints, then the
/// same product by every redc schedule.
#[test]
fn fdfm_section_3_1_worked_example() {
    let (x, y, m) = (147u32, 92u32, 251u32);
    let bin = |s: &str| u32::from_str_radix(s, 2).unwrap();
    assert_eq!((bin("10010011"), bin("01011100"), bin("11111011")), (x, y, m));
    // X·Y = 011010011010100 (13524).
    let xy = x * y;
    assert_eq!(xy, 13524);
    assert_eq!(xy, bin("011010011010100"));
    // (-M^-1) = 11001101 (205), since (-M^-1)·M = 1100100011111111 (51455)
    // ≡ -1 (mod 2^8).
    let neg_inv = 205u32;
    assert_eq!(neg_inv, bin("11001101"));
    assert_eq!(neg_inv * m, 51455);
    assert_eq!(neg_inv * m, bin("1100100011111111"));
    assert_eq!((neg_inv * m) % 256, 255);
    assert!(neg_inv < 256, "(-M^-1) < 2^R since M is odd");
    // q = ((X·Y) mod 2^8)·(-M^-1) mod 2^8 = 11000100 (196).
    let q = ((xy % 256) * neg_inv) % 256;
    assert_eq!(q, 196);
    assert_eq!(q, bin("11000100"));
    // q·M = 1100000000101100 (49196).
    assert_eq!(q * m, 49196);
    assert_eq!(q * m, bin("1100000000101100"));
    // X·Y + q·M = 1111010100000000 (62720): the low R bits are zero.
    let sum = xy + q * m;
    assert_eq!(sum, 62720);
    assert_eq!(sum, bin("1111010100000000"));
    assert_eq!(sum % 256, 0);
    // (X·Y + q·M)·2^-R = 11110101 (245) < 2M; 245 < M: no subtraction.
    let u = sum / 256;
    assert_eq!(u, 245);
    assert_eq!(u, bin("11110101"));
    assert!(u < 2 * m);
    assert!(u < m, "no final subtraction");
    // 245 ≡ X·Y·2^-8 (mod M), with 2^-8 mod 251 found by search.
    let r_inv = (1..m).find(|&v| (256 * v) % m == 1).expect("256 invertible mod 251");
    assert_eq!(r_inv, 201);
    assert_eq!((xy * r_inv) % m, 245);

    // redc at w = 8: n0' is the paper's (-M^-1), and for every schedule the
    // Montgomery product of the raw digits 147 and 92 is 245. Product::Radix
    // is 001 Alg. 1 with r = w = 8 (d = 1).
    let modulus = Modulus::<u8>::new(&Nat::from_u64(u64::from(m))).expect("251 is odd");
    assert_eq!(modulus.n0_inv(), 205);
    assert_eq!(251u8.neg_inv(), 205);
    assert_eq!(modulus.len(), 1);
    for product in Product::ALL {
        let mut mm = modulus.metered(product, OpCounts::default());
        // to_mont(147·R^-1 mod 251) has the digit 147 (and likewise 92).
        let xr = mm.to_mont(&Nat::from_u64(u64::from((x * r_inv) % m)));
        let yr = mm.to_mont(&Nat::from_u64(u64::from((y * r_inv) % m)));
        assert_eq!(xr.digits(), &[147], "{product:?}");
        assert_eq!(yr.digits(), &[92], "{product:?}");
        let before = mm.meter().muls();
        let p = mm.mul(&xr, &yr);
        assert_eq!(p.digits(), &[245], "{product:?}");
        // s = 1: 2s² + s = 3 word multiplications (X·Y, q, q·M).
        assert_eq!(mm.meter().muls() - before, 3, "{product:?}");
        // The plain values: 147·201 and 92·201 mod 251, times each other.
        let plain = mm.from_mont(&p);
        assert_eq!(to_big(&plain), BigUint::from((245 * r_inv) % m));
    }
    let mut radix = modulus.multiplier(Product::Radix);
    let (xr, yr) = (
        raw_elem(&mut radix, &BigUint::from(x)),
        raw_elem(&mut radix, &BigUint::from(y)),
    );
    assert_eq!(radix.mul(&xr, &yr).digits(), &[245]);
    assert_eq!(radix.mul(&yr, &xr).digits(), &[245]);
}

/// 000_be478b6750af4540.txt §4.2, Eq. 7-8: with r = 2^1024 and a 1024-bit n
/// (the paper takes n from its reference [10], not reproduced in the text; a
/// fixed pseudo-random odd n stands in), Xm = 1·r mod n (Fig. 1 Step 3)
/// satisfies Xm * Xm = Xm for the Montgomery product *: Xm is 1 in
/// Montgomery form. Checked at w = 32 (s = 32) for every schedule. Eq. 9:
/// the DFE's step-1 vector a = Xm, b = Xm_0 (digit 0), a plain product.
#[test]
fn dataflow_rsa_section_4_2_eq_7_8_xm_is_idempotent() {
    for (seed, n) in [
        (1u64, pseudo_odd(1024, 7)),
        (2, pow2(1024) - 1u8),
        (3, pow2(1023) + 1u8),
    ] {
        let modulus = Modulus::<u32>::new(&to_nat(&n)).expect("odd n");
        assert_eq!(modulus.len(), 32, "s = ceil(1024 / 32) (Eq. 2)");
        let r = pow2(1024);
        let xm_expect = &r % &n;
        assert_eq!(to_big(&modulus.r_mod_n()), xm_expect, "Eq. 7, n #{seed}");
        let xm = modulus.one();
        assert_eq!(digits_of(&xm), xm_expect);
        for product in Product::ALL {
            let mut mm = modulus.multiplier(product);
            let sq = mm.mul(&xm, &xm);
            assert!(sq == xm, "Eq. 8: Xm * Xm = Xm, {product:?} n #{seed}");
            assert_eq!(digits_of(&sq), xm_expect);
            // Xm is also to_mont(1), and from_mont(Xm) = 1 (Fig. 1 Step 7).
            assert!(mm.to_mont(&Nat::one()) == xm, "{product:?}");
            assert_eq!(to_big(&mm.from_mont(&xm)), BigUint::one());
            // Xm is the neutral element: Xm * a = a.
            let a = raw_elem(&mut mm, &(pseudo_odd(1000, seed) % &n));
            assert!(mm.mul(&xm, &a) == a, "{product:?}");
            assert!(mm.mul(&a, &xm) == a, "{product:?}");
        }
        // Eq. 9: a = Xm, b = Xm_0.
        let xm_nat = modulus.r_mod_n();
        let b0 = xm_nat.digits()[0];
        let b = Nat::<u32>::from_u64(u64::from(b0));
        assert_eq!(to_big(&xm_nat.mul(&b)), &xm_expect * u64::from(b0));
    }
}

/// Check the rows of a left-to-right trace (000 Fig. 1): an init row, then
/// one row per exponent bit from the top; the row after bit i holds
/// `x = base^(e >> i) mod n`, its Montgomery digits `x·R mod n`.
fn check_ltr_trace<W: Word>(trace: &Trace<W>, base: &BigUint, e: &BigUint, n: &BigUint, ctx: &str) {
    let w = W::BITS as usize;
    let s = (n.bits() as usize).div_ceil(w);
    let r = pow2(s * w);
    let bits = e.bits() as usize;
    assert_eq!(trace.rows.len(), bits + 1, "{ctx}: one row per exponent bit plus init");
    let reg = |row: &TraceRow<W>, name: &str| {
        row.regs
            .iter()
            .find(|g| g.name == name)
            .unwrap_or_else(|| panic!("{ctx}: no register {name} in {:?}", row.op))
            .clone()
    };
    let init = &trace.rows[0];
    assert_eq!(init.bit, None, "{ctx}");
    assert_eq!(init.op, "init", "{ctx}");
    let x0 = reg(init, "x");
    assert_eq!(to_big(&x0.value), BigUint::one(), "{ctx}: x starts at 1");
    assert_eq!(to_big(&x0.mont), &r % n, "{ctx}: 1·R mod n (Fig. 1 Step 3)");
    let m = reg(init, "M");
    assert_eq!(to_big(&m.value), base % n, "{ctx}");
    assert_eq!(to_big(&m.mont), (base * &r) % n, "{ctx}: Mm = M·R mod n (Step 2)");
    // base^(e >> i) mod n, updated one bit at a time.
    let mut value = BigUint::one();
    for (row, i) in trace.rows[1..].iter().zip((0..bits).rev()) {
        let bit = e.bit(i as u64);
        assert_eq!(row.bit, Some(i), "{ctx}");
        assert_eq!(row.digit, u64::from(bit), "{ctx} bit {i}");
        assert_eq!(row.op.contains("multiply"), bit, "{ctx} bit {i}: {}", row.op);
        value = (&value * &value * if bit { base.clone() } else { BigUint::one() }) % n;
        if i % 97 == 0 {
            assert_eq!(value, base.modpow(&(e >> i), n), "{ctx} bit {i}: oracle");
        }
        let x = reg(row, "x");
        assert_eq!(to_big(&x.value), value, "{ctx} bit {i}: x = base^(e >> {i}) mod n");
        assert_eq!(to_big(&x.mont), (&value * &r) % n, "{ctx} bit {i}: mont = x·R mod n");
    }
}

/// Trace a left-to-right exponentiation both through `Schedule::pow` and
/// through `modpow`, for every product, and check every row.
fn trace_ltr<W: Word>(n: &BigUint, base: &BigUint, e: &BigUint) {
    let modulus = Modulus::<W>::new(&to_nat(n)).expect("odd n");
    let expect = base.modpow(e, n);
    for product in Product::ALL {
        let ctx = format!("w={} {product:?}", W::BITS);
        let mut mm = modulus.multiplier(product);
        let bm = mm.to_mont(&to_nat(base));
        let mut trace = Trace::new();
        let x = Schedule::Ltr.pow(&mut mm, &bm, &to_nat(e), Some(&mut trace));
        assert_eq!(to_big(&mm.from_mont(&x)), expect, "{ctx}");
        check_ltr_trace(&trace, base, e, n, &ctx);

        let mut trace2 = Trace::new();
        let opts = PowOptions {
            product,
            schedule: Schedule::Ltr,
        };
        let got = modpow(&to_nat::<W>(base), &to_nat(e), &to_nat(n), opts, Some(&mut trace2)).expect("n != 0");
        assert_eq!(to_big(&got), expect, "{ctx}");
        assert_eq!(trace2, trace, "{ctx}: modpow records the same rows");
    }
}

/// 000_be478b6750af4540.txt §3.2 (Verification): the code was first tested
/// at w = 8 with a 32-bit key, checking the intermediate results of the
/// Montgomery exponentiation per exponent bit, then at w = 32 with 1024 bits.
#[test]
fn dataflow_rsa_section_3_2_per_bit_trace_w8_32_bits() {
    let n = BigUint::from(0xc5a3_f1e7u32);
    assert_eq!(n.bits(), 32);
    for (base, e) in [
        (BigUint::from(0x1234_5678u32), BigUint::from(65537u32)),
        (BigUint::from(0xdead_beefu32), BigUint::from(0xb00b_1e5du32)),
        (BigUint::from(0x1_0000_0000_0005u64), BigUint::from(0x8000_0001u32)),
        (BigUint::from(2u8), BigUint::from(1u8)),
    ] {
        trace_ltr::<u8>(&n, &base, &e);
    }
}

/// 000_be478b6750af4540.txt §3.2: the same per-bit check at w = 32 with a
/// 1024-bit modulus and a full-length exponent.
#[test]
fn dataflow_rsa_section_3_2_per_bit_trace_w32_1024_bits() {
    let n = pseudo_odd(1024, 32);
    let base = pseudo_odd(1020, 33);
    let e = pseudo_odd(1024, 34);
    trace_ltr::<u32>(&n, &base, &e);
    trace_ltr::<u32>(&n, &base, &BigUint::from(65537u32));
}

/// Products done by `schedule` for `base^e`: the metered word
/// multiplications divided by the 2s² + s of one product.
fn products_of<W: Word>(modulus: &Modulus<W>, product: Product, schedule: Schedule, e: &BigUint) -> u64 {
    let s = modulus.len() as u64;
    let per = 2 * s * s + s;
    let mut mm = modulus.metered(product, OpCounts::default());
    let bm = mm.to_mont(&to_nat(&(pow2(modulus.bits() - 1) - 3u8)));
    let before = mm.meter().muls();
    let x = schedule.pow(&mut mm, &bm, &to_nat(e), None);
    let muls = mm.meter().muls() - before;
    assert!(x.digits().len() == modulus.len());
    assert_eq!(muls % per, 0, "{product:?} {schedule:?}: whole products");
    muls / per
}

fn check_schedule_counts<W: Word>(n: &BigUint) {
    let modulus = Modulus::<W>::new(&to_nat(n)).expect("odd n");
    let exps = [
        BigUint::zero(),
        BigUint::one(),
        BigUint::from(2u8),
        BigUint::from(0b1011u8),
        BigUint::from(65537u32),
        pow2(100),
        pow2(64) - 1u8,
        pseudo_odd(512, 5),
    ];
    for product in Product::ALL {
        for e in &exps {
            let bits = e.bits();
            let ones = e.count_ones();
            // 000 Fig. 1 (Steps 4-6) / 001 Alg. 2: a squaring per bit and a
            // multiplication per set bit.
            assert_eq!(
                products_of(&modulus, product, Schedule::Ltr, e),
                bits + ones,
                "ltr {product:?} e={e:x}"
            );
            // 002_aa2657bb2bc73547.txt Alg. 3.1: n squarings (Z chain) and a
            // multiplication per set bit (P chain).
            assert_eq!(
                products_of(&modulus, product, Schedule::Rtl, e),
                bits + ones,
                "rtl {product:?} e={e:x}"
            );
            // 004_b65c74827168229f.txt §6 (Montgomery powering ladder): one
            // multiplication and one squaring per bit, whatever the bit.
            assert_eq!(
                products_of(&modulus, product, Schedule::Ladder, e),
                2 * bits,
                "ladder {product:?} e={e:x}"
            );
        }
    }
}

/// 000 Fig. 1 / 001 Alg. 2 (left-to-right), 002 Alg. 3.1 (right-to-left)
/// and 004 §6 (ladder): products per exponentiation, counted with OpCounts,
/// at w = 8 with a 32-bit modulus and at w = 32 with 1024 bits.
#[test]
fn exponentiation_product_counts() {
    check_schedule_counts::<u8>(&BigUint::from(0xc5a3_f1e7u32));
    check_schedule_counts::<u32>(&pseudo_odd(1024, 9));
}

/// Koç, Acar and Kaliski's count, followed by 000_be478b6750af4540.txt §2.2:
/// every schedule takes 2s² + s word multiplications per Montgomery product
/// (s = 8, 16, 32 at w = 32: 256-, 512- and 1024-bit moduli). Converting in
/// and out of Montgomery form (000 Fig. 1 Steps 2 and 7) is one product each.
#[test]
fn koc_multiplication_count_per_product() {
    for s in [8usize, 16, 32] {
        let n = pseudo_odd(32 * s, s as u64);
        let modulus = Modulus::<u32>::new(&to_nat(&n)).expect("odd n");
        assert_eq!(modulus.len(), s);
        let per = (2 * s * s + s) as u64;
        let a = pseudo_odd(32 * s - 1, 100 + s as u64);
        let b = pseudo_odd(32 * s - 2, 200 + s as u64);
        for product in Product::ALL {
            let mut mm = modulus.metered(product, OpCounts::default());
            let am = mm.to_mont(&to_nat(&a));
            assert_eq!(mm.meter().muls(), per, "to_mont {product:?} s={s}");
            let bm = mm.to_mont(&to_nat(&b));
            let before = mm.meter().muls();
            let p = mm.mul(&am, &bm);
            assert_eq!(mm.meter().muls() - before, per, "MonPro {product:?} s={s}");
            let before = mm.meter().muls();
            let plain = mm.from_mont(&p);
            assert_eq!(mm.meter().muls() - before, per, "from_mont {product:?} s={s}");
            assert_eq!(to_big(&plain), (&a * &b) % &n, "{product:?} s={s}");
            // The count does not depend on the operands.
            let before = mm.meter().muls();
            let zero = mm.to_mont(&Nat::zero());
            let _ = mm.mul(&zero, &zero);
            assert_eq!(mm.meter().muls() - before, 2 * per, "{product:?} s={s}");
        }
    }
}
