//! Shared test helpers: num-bigint as the independent oracle, edge operands.
#![allow(dead_code, unreachable_pub)]

use num_bigint::BigUint;
use redc_hw::{Big, Circuit, ExpRun, ProductRun};

/// redc's number as a num-bigint number.
pub fn big(x: &Big) -> BigUint {
    BigUint::from_bytes_be(&x.to_be_bytes())
}

/// A num-bigint number as redc's.
pub fn nat(x: &BigUint) -> Big {
    Big::from_be_bytes(&x.to_bytes_be())
}

/// Runs one product and checks it against num-bigint: below the circuit's
/// bound, congruent to a·b·2^(-r) mod n, and taking `product_cycles`.
pub fn check_product(c: &dyn Circuit, a: &Big, b: &Big) -> ProductRun {
    let run = c
        .multiply(a, b, None)
        .unwrap_or_else(|e| panic!("{}: {e}", c.arch().name()));
    let n = big(c.modulus());
    let v = big(&run.value);
    assert!(
        v < big(&c.operand_bound()),
        "{}: output {v} not below the bound (n = {n})",
        c.arch().name()
    );
    let lhs = (&v << c.r_log2()) % &n;
    let rhs = (big(a) * big(b)) % &n;
    assert_eq!(
        lhs,
        rhs,
        "{}: a={} b={} n={n}: v·2^r ≢ a·b",
        c.arch().name(),
        big(a),
        big(b)
    );
    assert_eq!(run.cycles, c.product_cycles(), "{}: cycles", c.arch().name());
    run
}

/// [`check_product`], and the output is exactly `want` (the model's
/// bit-exact reference value).
pub fn check_product_exact(c: &dyn Circuit, a: &Big, b: &Big, want: &Big) -> ProductRun {
    let run = check_product(c, a, b);
    assert_eq!(&run.value, want, "{}: a={a} b={b} n={}", c.arch().name(), c.modulus());
    run
}

/// Runs one exponentiation and checks it against num-bigint's `modpow`.
pub fn check_exponentiation(c: &dyn Circuit, base: &Big, exp: &Big) -> ExpRun {
    let run = c
        .exponentiate(base, exp)
        .unwrap_or_else(|e| panic!("{}: {e}", c.arch().name()));
    let n = big(c.modulus());
    assert_eq!(
        big(&run.value),
        big(base).modpow(&big(exp), &n),
        "{}: {}^{} mod {n}",
        c.arch().name(),
        big(base),
        big(exp)
    );
    run
}

/// The edge operands of the core issue, kept below `bound` and deduplicated:
/// 0, 1, 2, n−1, n, n+1, bound−1, bound−2, 2^(bits(n)−1), and the all-ones
/// value just below the bound's bit length where it fits.
pub fn edge_operands(n: &Big, bound: &Big) -> Vec<Big> {
    let one = Big::one();
    let mut v = vec![Big::zero(), one.clone(), Big::from_u64(2)];
    v.extend(n.checked_sub(&one));
    v.push(n.clone());
    v.push(n.add(&one));
    v.extend(bound.checked_sub(&one));
    v.extend(bound.checked_sub(&Big::from_u64(2)));
    v.push(Big::pow2(n.bits().saturating_sub(1)));
    v.extend(Big::pow2(bound.bits().saturating_sub(1)).checked_sub(&one));
    v.retain(|x| x < bound);
    v.sort();
    v.dedup();
    v
}

/// Edge moduli of the core issue at about `bits` bits: the smallest odd
/// values, all-ones, 2^(bits−1)+1, and 2^bits − 3 (`bits >= 3`).
pub fn edge_moduli(bits: usize) -> Vec<Big> {
    let one = Big::one();
    let all_ones = Big::pow2(bits).checked_sub(&one).expect("bits > 0");
    vec![
        Big::from_u64(3),
        Big::from_u64(5),
        all_ones,
        Big::pow2(bits - 1).add(&one),
        Big::pow2(bits).checked_sub(&Big::from_u64(3)).expect("bits >= 2"),
    ]
}
