//! Each IFMA kernel one product at a time ([`Ifma::chain`]: products by the
//! base and squarings, with no window or table) against num-bigint, at the
//! edges of every size class, on random and edge bases and moduli. Skipped
//! (and named on stderr) on a CPU without AVX-512 IFMA.
#![cfg(target_arch = "x86_64")]

mod common;
use common::{pow2, pseudo, to_big, to_nat};
use num_bigint::BigUint;
use num_traits::One;
use redc::engine::ifma::{Ifma, Layout};

/// The backend, or `None` with a line on stderr.
#[allow(clippy::print_stderr)]
fn ifma() -> Option<Ifma> {
    let k = Ifma::detect();
    if k.is_none() {
        eprintln!("SKIPPED: this CPU has no AVX-512 IFMA");
    }
    k
}

/// Groups of moduli of one class, at both ends of each class (`52·D >=
/// bits + 2`: 518 bits is the last of 10 digits, 519 the first of 20, 1558
/// the last of 30, 3118 the last of 60, 4158 the last of 80 and the last
/// the horizontal kernels take) and at the RSA sizes: in each group a random one
/// with the top bit set, all ones, `2^(bits-1) + 1`, and more random ones
/// up to eight, so that every lane holds a different number.
fn groups() -> Vec<Vec<BigUint>> {
    let sizes = [
        3usize, 518, 519, 1024, 1038, 1039, 1536, 1558, 1559, 2048, 2078, 2079, 3072, 3118, 3119, 4096, 4158, 4159,
        6238, 6239, 8318,
    ];
    sizes
        .iter()
        .enumerate()
        .map(|(i, &bits)| {
            let mut g = vec![pow2(bits) - 1u8, pow2(bits - 1) + 1u8];
            g.extend((0..6).map(|k| pseudo(bits, (8 * i + k) as u64 + 1) | BigUint::one()));
            g.rotate_right(1);
            g
        })
        .collect()
}

/// A base below each of `moduli`: with `edges = Some(e)`, the edge bases
/// `0`, `n - 1`, `1` from the `e`-th on, then random ones; with `None`,
/// random ones in every lane.
fn bases(moduli: &[BigUint], seed: u64, edges: Option<usize>) -> Vec<BigUint> {
    moduli
        .iter()
        .enumerate()
        .map(|(l, n)| match edges.map(|e| e + l) {
            Some(0) => BigUint::ZERO,
            Some(1) => n - 1u8,
            Some(2) => BigUint::one(),
            _ => pseudo(n.bits() as usize + 9, seed ^ (l as u64 * 0x77)) % n,
        })
        .collect()
}

#[test]
fn every_layout_chains_products_and_squares_like_the_oracle() {
    let Some(k) = ifma() else { return };
    let mut runs = [0usize; 4];
    for (i, group) in groups().iter().enumerate() {
        for (l, layout) in Layout::ALL.into_iter().enumerate() {
            // A full group, a different number in every lane, with the edge
            // bases; the all-ones modulus alone with base n - 1 and
            // 2^(bits-1) + 1 alone with base 1 (the idle lanes repeat
            // them; long runs of full digits for the carries, and what the
            // 1-way layout, which takes one number, sees of the edge
            // moduli); and a full group of random moduli and random
            // bases.
            let random: Vec<BigUint> = group.iter().cycle().skip(3).take(layout.numbers()).cloned().collect();
            for (moduli, edges) in [
                (&group[..layout.numbers()], Some(0)),
                (&group[1..2], Some(1)),
                (&group[2..3], Some(2)),
                (&random[..], None),
            ] {
                let bases = bases(moduli, i as u64, edges);
                let nats: Vec<_> = moduli.iter().zip(&bases).map(|(n, b)| (to_nat(n), to_nat(b))).collect();
                let jobs: Vec<_> = nats.iter().map(|(n, b)| (n, b)).collect();
                for count in [0usize, 1, 6] {
                    let product = k.chain(layout, &jobs, count, false);
                    let square = k.chain(layout, &jobs, count, true);
                    let (Some(product), Some(square)) = (product, square) else {
                        // Only the horizontal kernels leave classes out: 10
                        // digits (up to 518 bits) and above 80 (4158), and
                        // the 1-way one 30 digits (1039 to 1558 bits).
                        let bits = moduli[0].bits();
                        let horizontal = match layout {
                            Layout::One => !(519..=4158).contains(&bits) || (1039..=1558).contains(&bits),
                            Layout::Pair => !(519..=4158).contains(&bits),
                            _ => false,
                        };
                        assert!(horizontal, "{layout:?} at {bits} bits");
                        continue;
                    };
                    assert_eq!((product.len(), square.len()), (moduli.len(), moduli.len()));
                    for (j, (n, b)) in moduli.iter().zip(&bases).enumerate() {
                        let want = b.modpow(&BigUint::from(count + 1), n);
                        assert_eq!(
                            to_big(&product[j]),
                            want,
                            "{layout:?} lane {j} product x{count}, n = {n:x}, b = {b:x}"
                        );
                        let want = b.modpow(&pow2(count), n);
                        assert_eq!(
                            to_big(&square[j]),
                            want,
                            "{layout:?} lane {j} square x{count}, n = {n:x}, b = {b:x}"
                        );
                    }
                    runs[l] += 1;
                }
            }
        }
    }
    // The 1-way kernel took the twelve sizes of its classes (20, 40, 60
    // and 80 digits), the 2-way one the fifteen of its (those and 30: 519
    // to 4158 bits); the vertical ones all 21: four groups, three counts.
    assert_eq!(runs, [12 * 4 * 3, 15 * 4 * 3, 21 * 4 * 3, 21 * 4 * 3]);
}

#[test]
fn chain_refuses_what_no_kernel_takes() {
    let Some(k) = ifma() else { return };
    let n = pseudo(1024, 5) | BigUint::one();
    let b = BigUint::from(7u8);
    let one = |n: &BigUint, b: &BigUint, layout: Layout| k.chain(layout, &[(&to_nat(n), &to_nat(b))], 1, false);
    for layout in Layout::ALL {
        // An even modulus, 1, a base not below n, a modulus of no class.
        assert!(one(&(&n - 1u8), &b, layout).is_none());
        assert!(one(&BigUint::one(), &BigUint::ZERO, layout).is_none());
        assert!(one(&n, &n, layout).is_none());
        assert!(one(&(pow2(8319) - 1u8), &b, layout).is_none());
        // No job, more jobs than lanes, jobs of two classes.
        let (n, b, m) = (to_nat(&n), to_nat(&b), to_nat(&(pow2(2048) - 1u8)));
        assert!(k.chain(layout, &[], 1, false).is_none());
        assert!(
            k.chain(layout, &vec![(&n, &b); layout.numbers() + 1], 1, false)
                .is_none()
        );
        if layout.numbers() > 1 {
            assert!(k.chain(layout, &[(&n, &b), (&m, &b)], 1, false).is_none());
        }
    }
    // The horizontal kernels have no 10-digit class (512 bits), the 1-way
    // one no 30-digit class (1536 bits); the others have.
    let small = pseudo(512, 9) | BigUint::one();
    assert!(one(&small, &b, Layout::One).is_none());
    assert!(one(&small, &b, Layout::Pair).is_none());
    let odd = pseudo(1536, 9) | BigUint::one();
    assert!(one(&odd, &b, Layout::One).is_none());
    assert!(one(&odd, &b, Layout::Pair).is_some());
    assert!(one(&small, &b, Layout::Four).is_some());
}

#[test]
fn layouts_describe_their_kernels() {
    // One vertical product of D digits: D steps of 4·D + 1 multiply-adds
    // (counted on the code itself by a unit test of lanes.rs); the 2-way
    // one D steps of 2·D + 4 and one more below 30 digits (read from
    // pairs.rs), then (4·D² + 5·D)/2 (read from pairs/sos.rs and
    // pairs/reduce.rs); the 1-way one D steps of D + 4 and one more (read
    // from single.rs).
    assert_eq!(Layout::Eight.madds(20), 1620);
    assert_eq!(Layout::One.madds(20), 481);
    assert_eq!(Layout::One.madds(80), 6721);
    assert_eq!(Layout::One.square_madds(40), 1761);
    assert_eq!(Layout::Four.madds(40), 6440);
    assert_eq!(Layout::Pair.madds(20), 881);
    assert_eq!(Layout::Pair.madds(30), 1875);
    assert_eq!(Layout::Pair.madds(80), 13000);
    // Squarings: the vertical ones 3·D² + D (counted by a unit test of
    // lanes/square.rs); the 2-way one its product below 30 digits, then
    // (3·D² + 8·D)/2 - 1 (read from pairs/square.rs).
    assert_eq!(Layout::Eight.square_madds(20), 1220);
    assert_eq!(Layout::Pair.square_madds(20), 881);
    assert_eq!(Layout::Pair.square_madds(30), 1469);
    assert_eq!(Layout::Pair.square_madds(40), 2559);
    assert!(Layout::Pair.square_madds(30) < Layout::Pair.madds(30));
    assert!(Layout::Pair.madds(30) < 30 * (2 * 30 + 4) + 1);
    assert_eq!(
        Layout::ALL.map(|l| (l.numbers(), l.vector_bits())),
        [(1, 256), (2, 256), (4, 256), (8, 512)]
    );
    assert!(Layout::One.takes(20) && Layout::One.takes(80) && !Layout::One.takes(30) && !Layout::One.takes(120));
    assert!(Layout::Pair.takes(20) && Layout::Pair.takes(80) && !Layout::Pair.takes(10) && !Layout::Pair.takes(120));
    assert!(Layout::Eight.takes(10) && Layout::Eight.takes(160) && !Layout::Eight.takes(21));
}
