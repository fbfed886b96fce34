//! Every architecture of the registry ([`Arch::ALL`]) against the
//! independent oracle (num-bigint): at least 1,000 random products and 1,000
//! random exponentiations per architecture over several sizes, plus the core
//! issue's edge moduli and operands. An architecture is tested here as soon
//! as the registry lists it.

mod common;

use common::{check_exponentiation, check_product, edge_moduli, edge_operands};
use redc_hw::random::Seeded;
use redc_hw::{Arch, Big, Circuit, HwError, build};

/// (modulus bits, cases): 1,000 products per architecture.
const PRODUCT_SIZES: [(usize, usize); 9] = [
    (2, 20),
    (8, 180),
    (17, 150),
    (31, 150),
    (64, 150),
    (100, 100),
    (256, 100),
    (512, 100),
    (1024, 50),
];

/// (modulus bits, cases): 1,000 exponentiations per architecture, with
/// random full-length exponents.
const EXP_SIZES: [(usize, usize); 6] = [(3, 50), (8, 250), (16, 250), (33, 200), (64, 200), (128, 50)];

fn circuit(arch: &Arch, n: &Big) -> Box<dyn Circuit> {
    build(arch, n, None).unwrap_or_else(|e| panic!("{}: n={}: {e}", arch.name(), n.to_hex()))
}

/// Runs `check` on every registered architecture with its position in the
/// registry, which seeds its random cases.
fn every_arch(check: impl Fn(u64, &Arch)) {
    for (i, arch) in (0..).zip(Arch::ALL) {
        check(i, arch);
    }
}

fn random_products(index: u64, arch: &Arch) {
    let mut rng = Seeded::new(0x0d0c_0001 ^ index);
    let mut total = 0;
    for (bits, cases) in PRODUCT_SIZES {
        for i in 0..cases {
            let n = rng.odd_modulus(bits);
            let c = circuit(arch, &n);
            let bound = c.operand_bound();
            let a = rng.below(&bound);
            let b = if i % 7 == 0 { a.clone() } else { rng.below(&bound) };
            check_product(c.as_ref(), &a, &b);
            total += 1;
        }
    }
    assert!(total >= 1000, "{}", arch.name());
}

fn random_exponentiations(index: u64, arch: &Arch) {
    let mut rng = Seeded::new(0x0d0c_0002 ^ index);
    let mut total = 0;
    for (bits, cases) in EXP_SIZES {
        for _ in 0..cases {
            let n = rng.odd_modulus(bits);
            let c = circuit(arch, &n);
            let base = rng.below(&n);
            let exp = rng.bits(bits);
            check_exponentiation(c.as_ref(), &base, &exp);
            total += 1;
        }
    }
    assert!(total >= 1000, "{}", arch.name());
}

fn edges(_: u64, arch: &Arch) {
    let mut moduli: Vec<Big> = [3, 8, 17, 64, 65, 256].into_iter().flat_map(edge_moduli).collect();
    moduli.push(Seeded::new(7).odd_modulus(1024));
    for n in moduli {
        let c = circuit(arch, &n);
        let ops = edge_operands(&n, &c.operand_bound());
        for a in &ops {
            for b in &ops {
                check_product(c.as_ref(), a, b);
            }
        }
        let one = Big::one();
        let n_1 = n.checked_sub(&one).expect("n >= 3");
        let all_ones = Big::pow2(n.bits()).checked_sub(&one).expect("n >= 1");
        if n.bits() <= 256 {
            for base in [Big::zero(), one.clone(), Big::from_u64(2), n_1.clone()] {
                for exp in [
                    Big::zero(),
                    one.clone(),
                    Big::from_u64(2),
                    n_1.clone(),
                    all_ones.clone(),
                ] {
                    check_exponentiation(c.as_ref(), &base, &exp);
                }
            }
        }
    }
}

fn rejects_bad_input(_: u64, arch: &Arch) {
    for bad in [Big::zero(), Big::one(), Big::from_u64(2), Big::from_u64(1 << 40)] {
        assert!(
            matches!(build(arch, &bad, None), Err(HwError::Modulus(_))),
            "{}: n={}",
            arch.name(),
            bad.to_hex()
        );
    }
    let n = Seeded::new(9).odd_modulus(100);
    let c = circuit(arch, &n);
    let bound = c.operand_bound();
    let name = arch.name();
    assert!(
        matches!(c.multiply(&bound, &Big::one(), None), Err(HwError::Operand { .. })),
        "{name}"
    );
    assert!(
        matches!(c.multiply(&Big::one(), &bound, None), Err(HwError::Operand { .. })),
        "{name}"
    );
    assert!(
        matches!(c.exponentiate(&n, &Big::one()), Err(HwError::Operand { .. })),
        "{name}"
    );
    assert!(
        matches!(build(arch, &n, Some(999)), Err(HwError::Radix { .. })),
        "{name}"
    );
}

#[test]
fn random_products_match_the_oracle() {
    every_arch(random_products);
}

#[test]
fn random_exponentiations_match_the_oracle() {
    every_arch(random_exponentiations);
}

#[test]
fn edge_moduli_and_operands_match_the_oracle() {
    every_arch(edges);
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    every_arch(rejects_bad_input);
}
