//! The Perin–Mesquita–Martins multipliers (004_b65c74827168229f.txt) against
//! num-bigint and the exact Montgomery product, and the paper's equations
//! and tables.

mod common;

use common::{big, check_exponentiation, check_product_exact, edge_moduli, edge_operands};
use redc_hw::perin::{self, Method, Perin};
use redc_hw::random::Seeded;
use redc_hw::reference::mont_product_exact;
use redc_hw::{Arch, Big, Circuit, HwError, Step, Table, fdfm};

const ARCHS: [&Arch; 2] = [&perin::SYSTOLIC, &perin::MULTIPLEXED];
const RADICES: [u32; 2] = [16, 32];

fn model(arch: &'static Arch, n: &Big, k: u32) -> Perin {
    Perin::new(arch, n, Some(k)).unwrap_or_else(|e| panic!("{}: {e}", arch.name()))
}

/// Checks one product against num-bigint and bit-exactly against the exact
/// Montgomery product with R = 2^(k·m) (Algorithm 1 computes it: its m
/// quotient digits form q = −a·b·N^{-1} mod R).
fn check_exact(c: &Perin, a: &Big, b: &Big) {
    check_product_exact(c, a, b, &mont_product_exact(a, b, c.modulus(), c.r_log2()));
}

fn ones(bits: usize) -> Big {
    Big::pow2(bits).checked_sub(&Big::one()).expect("bits > 0")
}

fn table(name: &str) -> Table {
    perin::tables()
        .into_iter()
        .find(|t| t.source.ends_with(name))
        .expect("table present")
}

fn entry(t: &Table, row: &str, column: &str) -> redc_hw::Entry {
    t.entries
        .iter()
        .find(|e| e.row == row && e.column == column)
        .cloned()
        .expect("entry present")
}

#[test]
fn products_are_exact_on_random_cases() {
    // (bits, cases) per architecture and radix: 2 · 588 > 1000 per architecture.
    let sizes = [
        (8, 60),
        (13, 60),
        (16, 60),
        (30, 60),
        (31, 60),
        (48, 60),
        (64, 60),
        (100, 50),
        (128, 50),
        (200, 30),
        (256, 30),
        (384, 20),
        (512, 15),
        (768, 8),
        (1024, 5),
    ];
    let mut rng = Seeded::new(4);
    for arch in ARCHS {
        let mut cases = 0;
        for k in RADICES {
            for (bits, count) in sizes {
                // A fresh modulus every ten cases.
                for chunk in (0..count).step_by(10) {
                    let n = rng.odd_modulus(bits);
                    let c = model(arch, &n, k);
                    let bound = c.operand_bound();
                    for _ in chunk..count.min(chunk + 10) {
                        let (a, b) = (rng.below(&bound), rng.below(&bound));
                        check_exact(&c, &a, &b);
                        cases += 1;
                    }
                }
            }
        }
        assert!(cases >= 1000, "{}: {cases} cases", arch.name());
    }
}

#[test]
fn edge_operands_on_edge_and_random_moduli() {
    let mut rng = Seeded::new(40);
    for arch in ARCHS {
        for k in RADICES {
            for bits in [3, 8, 14, 16, 30, 32, 33, 64, 130, 512] {
                let mut moduli = edge_moduli(bits);
                moduli.extend((0..2).map(|_| rng.odd_modulus(bits)));
                for n in moduli {
                    let c = model(arch, &n, k);
                    let ops = edge_operands(&n, &c.operand_bound());
                    for a in &ops {
                        for b in &ops {
                            check_exact(&c, a, b);
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn square_and_multiply_matches_the_oracle() {
    let mut rng = Seeded::new(41);
    let mut runs = 0;
    for arch in ARCHS {
        for k in RADICES {
            for bits in [8, 11, 16, 24, 32, 48, 64, 96, 128, 192] {
                for _ in 0..6 {
                    let n = rng.odd_modulus(bits);
                    let c = model(arch, &n, k);
                    let base = rng.below(&n);
                    let exp = rng.bits(bits + 3);
                    let run = check_exponentiation(&c, &base, &exp);
                    // Algorithm 2: X̄, one squaring per bit, one product per set bit, mont(A, 1).
                    let len = n.bits().max(exp.bits()) as u64;
                    let weight = (0..exp.bits()).filter(|&i| exp.bit(i)).count() as u64;
                    assert_eq!(run.products, 2 + len + weight);
                    assert_eq!(run.cycles, run.products * c.product_cycles());
                    assert_eq!(run.cycles, c.exponent_cycles(&exp, Method::SquareMultiply).total());
                    runs += 1;
                }
            }
        }
    }
    assert!(runs >= 200);
}

#[test]
fn ladder_matches_the_oracle() {
    let mut rng = Seeded::new(42);
    for arch in ARCHS {
        for k in RADICES {
            for bits in [8, 16, 33, 64, 128] {
                for _ in 0..5 {
                    let n = rng.odd_modulus(bits);
                    let c = model(arch, &n, k);
                    let base = rng.below(&n);
                    let exp = rng.bits(bits);
                    let run = c.ladder(&base, &exp).expect("ladder");
                    assert_eq!(big(&run.value), big(&base).modpow(&big(&exp), &big(&n)));
                    // §6: one product slot per bit (two multipliers), plus X̄ and mont(A, 1).
                    let len = n.bits().max(exp.bits()) as u64;
                    assert_eq!(run.products, 2 * len + 2);
                    assert_eq!(run.cycles, (len + 2) * c.product_cycles());
                    assert_eq!(run.cycles, c.exponent_cycles(&exp, Method::Ladder).total());
                }
            }
        }
    }
}

#[test]
fn exponentiation_edge_cases() {
    let mut rng = Seeded::new(43);
    for arch in ARCHS {
        for k in RADICES {
            let mut moduli = vec![
                Big::from_u64(3),
                Big::from_u64(9),
                Big::from_u64(27),
                Big::from_u64(65535),
            ];
            moduli.extend([17, 40, 64, 100].map(|b| rng.odd_modulus(b)));
            for n in moduli {
                let c = model(arch, &n, k);
                let one = Big::one();
                let bases = [
                    Big::zero(),
                    one.clone(),
                    n.checked_sub(&one).expect("n > 1"),
                    Big::from_u64(3).rem(&n).expect("n > 0"),
                ];
                let exps = [
                    Big::zero(),
                    one.clone(),
                    ones(n.bits()),
                    ones(n.bits() + 20),
                    Big::from_u64(2),
                ];
                for base in &bases {
                    for exp in &exps {
                        check_exponentiation(&c, base, exp);
                        let run = c.ladder(base, exp).expect("ladder");
                        assert_eq!(big(&run.value), big(base).modpow(&big(exp), &big(&n)));
                    }
                }
            }
        }
    }
}

#[test]
fn host_subtraction_after_mont_a_1() {
    // 004_b65c74827168229f.txt §4.3 / Walter: mont(A, 1) <= N, and = N exactly for A = N ≡ 0 (mod N).
    for arch in ARCHS {
        let n = Big::from_u64(9);
        let c = model(arch, &n, 16);
        assert_eq!(c.multiply(&n, &Big::one(), None).expect("product").value, n);
        // 3^2 ≡ 0 (mod 9): the exponentiation still ends fully reduced.
        assert!(
            check_exponentiation(&c, &Big::from_u64(3), &Big::from_u64(2))
                .value
                .is_zero()
        );
    }
}

#[test]
fn sizes_follow_four_n_below_r() {
    // m = ⌈(bits(N)+2)/k⌉ ≥ 2, multiplexed rounded up to whole cores of four.
    for k in RADICES {
        for bits in 2..600 {
            let n = ones(bits);
            let words = (bits + 2).div_ceil(k as usize).max(2);
            let s = model(&perin::SYSTOLIC, &n, k);
            let x = model(&perin::MULTIPLEXED, &n, k);
            assert_eq!(s.digits(), words);
            assert_eq!(x.digits(), words.div_ceil(4) * 4);
            assert_eq!(x.arithmetic_cores(), Some(x.digits() / 4));
            assert_eq!(s.arithmetic_cores(), None);
            for c in [&s, &x] {
                assert_eq!(c.digit_bits(), k);
                assert_eq!(c.r_log2(), k as usize * c.digits());
                assert!(n.shl(2) < Big::pow2(c.r_log2()), "4N < R");
                assert_eq!(c.operand_bound(), n.shl(1));
            }
        }
    }
}

#[test]
fn product_cycles_are_the_papers_equations() {
    // 004_b65c74827168229f.txt §4.1: m (operand read) + m (first iteration) + 4m (the rest) = 6m;
    // 004_b65c74827168229f.txt §4.2: n_MM = m + m + 6m = 8m. Counted by the model's schedule walk.
    for k in RADICES {
        for bits in (2..2100).step_by(7) {
            let n = ones(bits);
            let s = model(&perin::SYSTOLIC, &n, k);
            let x = model(&perin::MULTIPLEXED, &n, k);
            assert_eq!(s.product_cycles(), 6 * s.digits() as u64, "systolic m={}", s.digits());
            assert_eq!(
                x.product_cycles(),
                8 * x.digits() as u64,
                "multiplexed m={}",
                x.digits()
            );
        }
    }
}

#[test]
fn clocks_are_table1_virtex5() {
    // 004_b65c74827168229f.txt Table 1, Virtex-5: systolic 130/95 MHz, multiplexed 120/90 MHz (k = 16/32).
    let n = ones(500);
    for (arch, k, mhz) in [
        (&perin::SYSTOLIC, 16, 130.0),
        (&perin::SYSTOLIC, 32, 95.0),
        (&perin::MULTIPLEXED, 16, 120.0),
        (&perin::MULTIPLEXED, 32, 90.0),
    ] {
        assert_eq!(model(arch, &n, k).clock_mhz(), mhz);
    }
}

#[test]
fn table1_cycle_column_is_reproduced() {
    // 004_b65c74827168229f.txt Table 1: clock cycles 6m / 8m with m = n/k and the block-RAM bytes.
    let t = table("Table 1");
    assert!(t.unexplained().is_empty(), "{:?}", t.unexplained());
    let printed: Vec<_> = t.entries.iter().filter(|e| e.paper.is_some()).collect();
    assert_eq!(printed.len(), 28);
    assert!(printed.iter().all(|e| e.matches()), "{printed:?}");
    assert_eq!(
        entry(&t, "Virtex-5 perin-systolic n=1024 k=16", "clock cycles").model,
        384.0
    );
    assert_eq!(
        entry(&t, "Virtex-4 perin-multiplexed n=1024 k=16", "clock cycles").model,
        512.0
    );
    assert_eq!(entry(&t, "Virtex-4 perin-multiplexed n=512 k=32", "BRAM").model, 256.0);
}

#[test]
fn table1_m_leaves_no_room_for_a_full_n_bit_modulus() {
    // 004_b65c74827168229f.txt Table 1 uses m = n/k (R = 2^n); with A, B < 2N, Walter's 4N < R
    // then holds only for N < 2^(n-2): a full n-bit modulus takes one more word.
    let t = table("Table 1");
    for (row, cycles) in [
        ("Virtex-5 perin-systolic n=512 k=16", 198.0),
        ("Virtex-5 perin-systolic n=512 k=32", 102.0),
        ("Virtex-5 perin-systolic n=1024 k=16", 390.0),
        ("Virtex-5 perin-multiplexed n=512 k=16", 288.0),
        ("Virtex-5 perin-multiplexed n=1024 k=32", 288.0),
    ] {
        assert_eq!(entry(&t, row, "clock cycles, full n-bit modulus").model, cycles);
    }
    assert_eq!(model(&perin::SYSTOLIC, &ones(1022), 16).digits(), 64);
    assert_eq!(model(&perin::SYSTOLIC, &ones(1023), 16).digits(), 65);
}

#[test]
fn cores_are_m_over_four_not_k_over_four() {
    // 004_b65c74827168229f.txt §4.2: "exactly k/4 arithmetic cores"; four PEs per core and m PEs
    // need m/4, equal to k/4 only for n = 1024, k = 32.
    for (n, k, cores) in [(512, 16, 8), (512, 32, 4), (1024, 16, 16), (1024, 32, 8)] {
        let c = model(&perin::MULTIPLEXED, &ones(n - 2), k);
        assert_eq!(c.arithmetic_cores(), Some(cores));
        assert_eq!(cores == k as usize / 4, (n, k) == (1024, 32));
    }
}

#[test]
fn table2_is_reproduced_where_consistent() {
    // 004_b65c74827168229f.txt Table 2 (Virtex-5, n = 1024): the multiplexed cycles are 1.5·n·8m;
    // the systolic figures and the multiplexed time are not (notes).
    let t = table("Table 2");
    assert!(t.unexplained().is_empty(), "{:?}", t.unexplained());
    let (s, x) = ("systolic n=1024 k=16", "multiplexed n=1024 k=32");
    for (row, column) in [
        (s, "Freq."),
        (x, "Freq."),
        (x, "clock cycles"),
        (s, "ladder saving (§6)"),
        (x, "ladder saving (§6)"),
    ] {
        assert!(entry(&t, row, column).matches(), "{row} {column}");
    }
    for (row, column) in [(s, "clock cycles"), (s, "RSA decryption"), (x, "RSA decryption")] {
        let e = entry(&t, row, column);
        assert!(!e.matches() && e.note.is_some(), "{row} {column}");
    }
    assert_eq!(entry(&t, s, "clock cycles").model, 589_824.0);
    assert_eq!(entry(&t, x, "RSA decryption").model_rounded(), 4.37);
    assert_eq!(entry(&t, s, "ladder clock cycles (§6)").model, 393_216.0);
    assert_eq!(entry(&t, x, "ladder clock cycles (§6)").model, 262_144.0);
}

#[test]
fn table2_systolic_row_contradicts_itself() {
    // 004_b65c74827168229f.txt Table 2, systolic row: 491520 cycles at 130 MHz, 3.23 ms.
    let c = model(&perin::SYSTOLIC, &ones(1022), 16);
    let n_mm = c.product_cycles();
    assert_eq!(n_mm, 384);
    // Cycles and clock give 3.78 ms, not 3.23.
    assert_eq!((491_520.0_f64 / 130_000.0 * 100.0).round() / 100.0, 3.78);
    // 1.5·n products of 6m cycles are 589824; 491520 = 1.5·n·5m.
    assert_eq!(1536 * n_mm, 589_824);
    assert_eq!(1536 * 5 * c.digits() as u64, 491_520);
    // And 3.23 ms at 130 MHz would be 419900 cycles.
    assert_eq!((3.23_f64 * 130_000.0).round(), 419_900.0);
    // The multiplexed row: 393216 / 90 MHz = 4.3691 ms, printed 4.36.
    let x = model(&perin::MULTIPLEXED, &ones(1022), 32);
    assert_eq!(1536 * x.product_cycles(), 393_216);
    assert_eq!((393_216.0_f64 / 90_000.0 * 100.0).round() / 100.0, 4.37);
}

/// 004 abstract: "the second approach saves up to 28% of logical
/// resources"; Table 1's own slice pairs (same device, n, k) save 26.6 % to
/// 40.5 %, never 28 %, and the claims table says so.
#[test]
fn abstract_saving_of_28_percent_is_not_table_1s() {
    let t = table("abstract, §5");
    assert!(t.unexplained().is_empty());
    let e = entry(&t, "abstract", "logic saved, multiplexed (up to)");
    assert_eq!(e.paper, Some(28.0));
    assert!(
        (e.model - (1.0 - 2499.0 / 4199.0) * 100.0).abs() < 1e-9,
        "Virtex-4 n=512 k=32"
    );
    let note = &t.notes[e.note.unwrap() - 1];
    assert!(note.contains("26.6 %") && note.contains("never 28 %"), "{note}");
    let ratio = entry(&t, "§5, n = 1024, k = 16", "cycles per product, multiplexed / systolic");
    assert_eq!(ratio.model, 8.0 / 6.0);
}

#[test]
fn multiplexed_is_slower_per_product_at_equal_radix() {
    // 004_b65c74827168229f.txt §5 calls the multiplexed array faster in cycles per multiplication;
    // at equal k it takes 8m against 6m. Table 2 pits k = 32 against k = 16.
    let n = ones(1022);
    for k in RADICES {
        let s = model(&perin::SYSTOLIC, &n, k);
        let x = model(&perin::MULTIPLEXED, &n, k);
        assert!(x.product_cycles() > s.product_cycles());
    }
    let s16 = model(&perin::SYSTOLIC, &n, 16).product_cycles();
    let x32 = model(&perin::MULTIPLEXED, &n, 32).product_cycles();
    assert_eq!((s16, x32), (384, 256));
}

#[test]
fn ladder_is_n_times_nmm_plus_two_products() {
    // 004_b65c74827168229f.txt §6: the ladder's loop takes n·n_MM cycles, 1/3 fewer than 1.5·n·n_MM;
    // X̄ and mont(A, 1) add two products the paper does not count.
    let exp = Big::from_hex(&"a".repeat(256)).expect("hex");
    for (arch, k) in [(&perin::SYSTOLIC, 16), (&perin::MULTIPLEXED, 32)] {
        let c = model(arch, &ones(1022), k);
        let n_mm = c.product_cycles();
        let lad = c.exponent_cycles(&exp, Method::Ladder);
        let sam = c.exponent_cycles(&ones(1024), Method::SquareMultiply);
        assert_eq!(lad.main_loop, 1024 * n_mm);
        assert_eq!(lad.pre_post, 2 * n_mm);
        assert_eq!(sam.main_loop, 2048 * n_mm);
        // Independent of the exponent's weight.
        assert_eq!(c.exponent_cycles(&ones(1024), Method::Ladder), lad);
    }
}

#[test]
fn walter_bounds_hold_and_the_papers_do_not() {
    // 004_b65c74827168229f.txt §2: with A, B < 2N and 2N < 2^(km) "the final S is guaranteed to be
    // less than N" (Algorithm 1 even requires only N < R). The output is only
    // below 2N: it reaches N, and with 4N close to R (62 bits, R = 2^64)
    // outputs in [N, 2N) are common ...
    let mut rng = Seeded::new(44);
    for arch in ARCHS {
        let n = rng.odd_modulus(62);
        let c = model(arch, &n, 16);
        assert_eq!(c.multiply(&n, &Big::one(), None).expect("product").value, n);
        let bound = c.operand_bound();
        let above_n = (0..200)
            .filter(|_| {
                c.multiply(&rng.below(&bound), &rng.below(&bound), None)
                    .expect("product")
                    .value
                    >= n
            })
            .count();
        assert!(above_n > 10, "{above_n}");
    }
    // ... and with 2N < R <= 4N it can reach 2N, so products do not chain.
    let r = 8;
    let escapes = (65u64..128)
        .step_by(2)
        .filter(|&n| {
            let (n, a) = (Big::from_u64(n), Big::from_u64(2 * n - 1));
            mont_product_exact(&a, &a, &n, r) >= n.shl(1)
        })
        .count();
    assert!(escapes > 0);
}

#[test]
fn trace_has_fixed_registers_and_ends_in_the_output() {
    let mut rng = Seeded::new(45);
    for arch in ARCHS {
        for k in RADICES {
            for bits in [5, 40, 70, 200] {
                let n = rng.odd_modulus(bits);
                let c = model(arch, &n, k);
                let bound = c.operand_bound();
                let (a, b) = (rng.below(&bound), rng.below(&bound));
                let mut trace: Vec<Step> = Vec::new();
                let run = c.multiply(&a, &b, Some(&mut trace)).expect("product");
                assert_eq!(run, c.multiply(&a, &b, None).expect("product"));
                let m = c.digits();
                assert_eq!(trace.len(), m);
                let layout = |s: &Step| s.regs.iter().map(|r| (r.name, r.bits)).collect::<Vec<_>>();
                let first = layout(&trace[0]);
                let names: Vec<_> = first.iter().map(|r| r.0).collect();
                let expected: &[&str] = if *arch == perin::SYSTOLIC {
                    &["a_i", "q_i", "C", "S"]
                } else {
                    &["a_i", "q_i", "C_SaB", "C_qN", "C_PE", "S"]
                };
                assert_eq!(names, expected);
                let k = k as usize;
                let word = |x: &Big, j: usize| x.shr(j * k).low_bits(k);
                let mut s_prev = Big::zero();
                for (i, step) in trace.iter().enumerate() {
                    assert_eq!(step.iteration, i);
                    assert_eq!(layout(step), first);
                    for reg in &step.regs {
                        assert!(
                            reg.value < Big::pow2(reg.bits),
                            "{} = {} in {} bits",
                            reg.name,
                            reg.value,
                            reg.bits
                        );
                    }
                    // a_i is word i of A, and q_i clears the low word of
                    // S_i + a_i·B + q_i·N: N' = −N^{-1} mod 2^k (004_b65c74827168229f.txt
                    // Algorithm 1; §2's "N·N' = 1 mod N" is a misprint).
                    let (a_i, q_i) = (&step.regs[0].value, &step.regs[1].value);
                    assert_eq!(*a_i, word(&a, i));
                    let low = word(&s_prev, 0).add(&a_i.mul(&word(&b, 0))).add(&q_i.mul(&word(&n, 0)));
                    assert!(low.low_bits(k).is_zero());
                    s_prev = step.regs.last().expect("S").value.clone();
                }
                let last = trace.last().expect("m >= 2 steps");
                let s = last.regs.iter().find(|r| r.name == "S").expect("S");
                assert_eq!(s.value, run.value);
                assert_eq!(s.bits, c.r_log2());
            }
        }
    }
}

#[test]
fn bad_inputs_are_errors() {
    let n = Big::from_u64(1_000_003);
    for arch in ARCHS {
        for bad in [0, 1, 2, 4, 1_000_000] {
            assert!(
                matches!(Perin::new(arch, &Big::from_u64(bad), None), Err(HwError::Modulus(_))),
                "{bad}"
            );
            assert!(matches!(
                redc_hw::build(arch, &Big::from_u64(bad), None),
                Err(HwError::Modulus(_))
            ));
        }
        for radix in [0, 1, 8, 17, 31, 64] {
            assert!(
                matches!(Perin::new(arch, &n, Some(radix)), Err(HwError::Radix { .. })),
                "{radix}"
            );
        }
        let c = redc_hw::build(arch, &n, None).expect("model");
        assert_eq!(c.digit_bits(), 16);
        let two_n = n.shl(1);
        let ok = Big::one();
        assert!(matches!(
            c.multiply(&two_n, &ok, None),
            Err(HwError::Operand { name: "a", .. })
        ));
        assert!(matches!(
            c.multiply(&ok, &two_n, None),
            Err(HwError::Operand { name: "b", .. })
        ));
        assert!(matches!(
            c.exponentiate(&n, &ok),
            Err(HwError::Operand { name: "base", .. })
        ));
        let p = model(arch, &n, 32);
        assert!(matches!(p.ladder(&n, &ok), Err(HwError::Operand { name: "base", .. })));
    }
    assert!(matches!(
        Perin::new(&fdfm::ARCH, &n, None),
        Err(HwError::Unsupported { option: None, .. })
    ));
}
