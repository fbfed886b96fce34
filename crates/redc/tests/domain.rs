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
