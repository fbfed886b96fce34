//! `Domain::monpro`, the Montgomery product of two plain numbers, against
//! num-bigint: `a·b·R^-1 mod n` for moduli of 1 to 64 digits (top digit
//! full or small), operands at the edges (0, 1, n - 1) and random; longer
//! operands are refused.

mod common;

use common::{pseudo, to_big, to_nat};
use num_bigint::BigUint;
use redc::{Domain, SecretNat};

enum Public {}

#[test]
fn monpro_is_a_b_r_inverse_mod_n() {
    for (digits, seed) in [(1usize, 1u64), (2, 2), (8, 3), (17, 4), (32, 5), (64, 6)] {
        for top in [64 * digits, 64 * digits - 37] {
            let n = pseudo(top, seed) | BigUint::from(1u8) | (BigUint::from(1u8) << (top - 1));
            let domain: Domain<Public> = Domain::public(&to_nat(&n)).unwrap();
            let r_inv = (BigUint::from(1u8) << (64 * digits)).modinv(&n).unwrap();
            let secret = |x: &BigUint| SecretNat::from_nat(&to_nat(x), digits).unwrap();
            let one = BigUint::from(1u8);
            let operands = [
                BigUint::ZERO,
                one.clone(),
                &n - &one,
                pseudo(top, seed + 100) % &n,
                pseudo(top, seed + 200) % &n,
            ];
            for a in &operands {
                for b in &operands {
                    let got = domain.monpro(&secret(a), &secret(b)).unwrap();
                    assert_eq!(to_big(&got.reveal()), a * b * &r_inv % &n, "{digits} digits");
                }
            }
            let long = SecretNat::from_nat(&to_nat(&n), digits + 1).unwrap();
            assert!(domain.monpro(&long, &secret(&one)).is_none());
        }
    }
}

/// `Domain::fold_public` against num-bigint: `x·R^-k mod n` for `x` of
/// `k` blocks (the last one short or full), every digit all ones, and
/// empty; moduli with a full or a small top digit.
#[test]
fn fold_public_is_x_r_to_the_minus_k_mod_n() {
    for (digits, seed) in [(1usize, 11u64), (2, 12), (8, 13), (32, 14), (33, 15)] {
        for top in [64 * digits, 64 * digits - 37] {
            let n = pseudo(top, seed) | BigUint::from(1u8) | (BigUint::from(1u8) << (top - 1));
            let domain: Domain<Public> = Domain::public(&to_nat(&n)).unwrap();
            let r_inv = (BigUint::from(1u8) << (64 * digits)).modinv(&n).unwrap();
            for len in [0usize, 1, digits, digits + 1, 5 * digits, 7 * digits + 3] {
                let all_ones = (BigUint::from(1u8) << (64 * len)) - BigUint::from(1u8);
                for x in [pseudo(64 * len, seed + len as u64), all_ones] {
                    let k = len.div_ceil(digits) as u32;
                    let want = (&x * r_inv.modpow(&BigUint::from(k), &n)) % &n;
                    assert_eq!(
                        to_big(&domain.fold_public(&to_nat(&x))),
                        want,
                        "s = {digits}, len {len}"
                    );
                }
            }
        }
    }
}
