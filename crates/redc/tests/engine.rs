//! The batch engine against num-bigint: every backend this CPU can run, on
//! random batches of mixed sizes, partly filled lane groups, a batch of one
//! and an empty batch. `REDC_BACKEND` picks the backend under test as for
//! every other test; this file also runs each available backend directly.

mod common;
use common::{engines, pseudo, to_big, to_nat};
use num_bigint::BigUint;
use redc::{Job, Nat, Secrecy};

fn job(bits: usize, ebits: usize, seed: u64) -> (BigUint, BigUint, BigUint) {
    let n = pseudo(bits, seed) | BigUint::from(1u8);
    let b = pseudo(bits + 13, seed ^ 0x55);
    let e = pseudo(ebits, seed ^ 0xaa);
    (b, e, n)
}

#[test]
fn modexp_batch_matches_the_oracle_on_mixed_sizes() {
    let sizes = [512usize, 1024, 1030, 2048, 3072, 4096, 64, 17, 1536];
    for engine in engines() {
        let mut cases = Vec::new();
        for (i, &bits) in sizes.iter().enumerate() {
            for k in 0..(i % 4 + 1) * 3 {
                cases.push(job(bits, bits.min(600) + k, (i * 100 + k) as u64 + 1));
            }
        }
        let jobs: Vec<Job> = cases
            .iter()
            .map(|(b, e, n)| Job {
                base: to_nat(b),
                exp: to_nat(e),
                modulus: to_nat(n),
            })
            .collect();
        let got = engine.modexp_batch(&jobs);
        for ((b, e, n), r) in cases.iter().zip(got) {
            assert_eq!(
                to_big(&r.unwrap()),
                b.modpow(e, n),
                "{} bits={}",
                engine.backend().name(),
                n.bits()
            );
        }
    }
}

#[test]
fn batch_of_one_and_empty_batch() {
    for engine in engines() {
        assert!(engine.modexp_batch(&[]).is_empty());
        let (b, e, n) = job(2048, 2048, 7);
        let r = engine.modexp_batch(&[Job {
            base: to_nat(&b),
            exp: to_nat(&e),
            modulus: to_nat(&n),
        }]);
        assert_eq!(to_big(r[0].as_ref().unwrap()), b.modpow(&e, &n));
        let _ = Secrecy::Public;
        let _: Nat<u64> = Nat::zero();
    }
}
