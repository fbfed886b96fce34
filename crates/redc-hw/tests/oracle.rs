//! Every architecture against the independent oracle (num-bigint): at least
//! 1,000 random products and 1,000 random exponentiations per architecture
//! over several sizes, plus the core issue's edge moduli and operands.

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

fn circuit(arch: Arch, n: &Big) -> Box<dyn Circuit> {
    build(arch, n, None).unwrap_or_else(|e| panic!("{}: n={}: {e}", arch.name(), n.to_hex()))
}

fn random_products(arch: Arch) {
    let mut rng = Seeded::new(0x0d0c_0001 ^ arch as u64);
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
    assert!(total >= 1000);
}

fn random_exponentiations(arch: Arch) {
    let mut rng = Seeded::new(0x0d0c_0002 ^ arch as u64);
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
    assert!(total >= 1000);
}

fn edges(arch: Arch) {
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

fn rejects_bad_input(arch: Arch) {
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
    assert!(matches!(
        c.multiply(&bound, &Big::one(), None),
        Err(HwError::Operand { .. })
    ));
    assert!(matches!(
        c.multiply(&Big::one(), &bound, None),
        Err(HwError::Operand { .. })
    ));
    assert!(matches!(c.exponentiate(&n, &Big::one()), Err(HwError::Operand { .. })));
    assert!(matches!(build(arch, &n, Some(999)), Err(HwError::Radix { .. })));
}

macro_rules! per_arch {
    ($($name:ident => $arch:expr),* $(,)?) => {$(
        mod $name {
            use super::*;
            #[test]
            fn random_products_match_the_oracle() {
                random_products($arch);
            }
            #[test]
            fn random_exponentiations_match_the_oracle() {
                random_exponentiations($arch);
            }
            #[test]
            fn edge_moduli_and_operands_match_the_oracle() {
                edges($arch);
            }
            #[test]
            fn bad_input_is_an_error_not_a_panic() {
                rejects_bad_input($arch);
            }
        }
    )*};
}

per_arch! {
    fdfm => Arch::Fdfm,
    blum_paar => Arch::BlumPaar,
    csa_radix2 => Arch::CsaRadix2,
    csa_radix4 => Arch::CsaRadix4,
    perin_systolic => Arch::PerinSystolic,
    perin_multiplexed => Arch::PerinMultiplexed,
    dataflow => Arch::Dataflow,
}
