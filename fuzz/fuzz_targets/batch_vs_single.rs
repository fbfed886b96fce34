//! Differential: the batch engine against single operations.
//!
//! - `Engine::modexp_batch` (the detected engine: AVX-512 IFMA lanes where
//!   the CPU has them; or the scalar one) against `redc::modpow` one job at
//!   a time and against num-bigint, for any moduli (even, 1 and 0 included);
//! - `rsa_public_batch` / `hazmat::raw_public_batch` against
//!   `RsaPublicKey::rsaep` / `hazmat::raw_public` one input at a time, and
//!   against num-bigint (`m^e mod n`);
//! - `rsa_private_batch` / `hazmat::raw_private_batch` against
//!   `RsaPrivateKey::rsadp` / `hazmat::raw_private`, and `(c^d)^e = c`;
//!
//! under the fixed 1024-bit key or Wycheproof's 2048-bit key (public
//! operations), the 1024-bit key (private operations). The input is
//! decoded with `arbitrary`; numbers are cut to 64 bytes (exponents to 32),
//! batches to 12 jobs, 8 public and 2 private inputs.
//!
//! Checks: no panic; every batch answer (value or error) equals the single
//! operation's, in order.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use num_bigint::BigUint;
use redc::{Engine, Job, Nat, PowOptions, modpow};
use redc_fuzz::{private_key, rng};
use redc_rsa::{Num, hazmat, rsa_private_batch, rsa_public_batch};
use std::sync::OnceLock;

#[derive(Arbitrary, Debug)]
struct JobSpec {
    base: Vec<u8>,
    exp: Vec<u8>,
    modulus: Vec<u8>,
}

#[derive(Arbitrary, Debug)]
struct Case {
    scalar: bool,
    key: u8,
    jobs: Vec<JobSpec>,
    public: Vec<Vec<u8>>,
    private: Vec<Vec<u8>>,
}

fn engine(scalar: bool) -> &'static Engine {
    static DETECTED: OnceLock<Engine> = OnceLock::new();
    static SCALAR: OnceLock<Engine> = OnceLock::new();
    if scalar {
        SCALAR.get_or_init(|| Engine::named("scalar").expect("the scalar backend"))
    } else {
        DETECTED.get_or_init(Engine::detect)
    }
}

fn cut(v: &[u8], max: usize) -> &[u8] {
    &v[..v.len().min(max)]
}

fn big(x: &Num) -> BigUint {
    BigUint::from_bytes_be(&x.to_be_bytes())
}

fuzz_target!(|case: Case| {
    let engine = engine(case.scalar);

    // modexp_batch against modpow and num-bigint.
    let jobs: Vec<Job> = case
        .jobs
        .iter()
        .take(12)
        .map(|j| Job {
            base: Nat::from_be_bytes(cut(&j.base, 64)),
            exp: Nat::from_be_bytes(cut(&j.exp, 32)),
            modulus: Nat::from_be_bytes(cut(&j.modulus, 64)),
        })
        .collect();
    let batch = engine.modexp_batch(&jobs);
    assert_eq!(batch.len(), jobs.len());
    for (j, got) in jobs.iter().zip(&batch) {
        let single = modpow(&j.base, &j.exp, &j.modulus, PowOptions::default(), None);
        match (got, single) {
            (Ok(x), Ok(y)) => {
                assert_eq!(x, &y, "{j:?}");
                assert_eq!(big(x), big(&j.base).modpow(&big(&j.exp), &big(&j.modulus)));
            }
            (Err(redc::EngineError::ZeroModulus), Err(redc::ModpowError::ZeroModulus)) => {}
            (x, y) => panic!("batch {x:?}, single {y:?} for {j:?}"),
        }
    }

    // The public operation.
    let key = private_key(case.key);
    let public = key.public_key();
    let k = public.size();
    let inputs: Vec<&[u8]> = case.public.iter().take(8).map(|v| cut(v, k + 1)).collect();
    let nums: Vec<Num> = inputs.iter().map(|b| Num::from_be_bytes(b)).collect();
    for (m, got) in nums.iter().zip(rsa_public_batch(engine, public, &nums)) {
        assert_eq!(got, public.rsaep(m));
        if m < public.n() {
            assert_eq!(
                big(&got.expect("m < n")),
                big(m).modpow(&big(public.e()), &big(public.n()))
            );
        }
    }
    for (input, got) in inputs.iter().zip(hazmat::raw_public_batch(engine, public, &inputs)) {
        assert_eq!(got, hazmat::raw_public(public, input));
    }

    // The private operation (blinded: answers do not depend on the generator).
    let key = private_key(0);
    let public = key.public_key();
    let k = public.size();
    let inputs: Vec<&[u8]> = case.private.iter().take(2).map(|v| cut(v, k + 1)).collect();
    let nums: Vec<Num> = inputs.iter().map(|b| Num::from_be_bytes(b)).collect();
    for (c, got) in nums.iter().zip(rsa_private_batch(engine, key, &nums, &mut rng(1))) {
        let single = key.rsadp(c, &mut rng(2));
        match (got, single) {
            (Ok(x), Ok(y)) => {
                assert_eq!(x.reveal(), y.reveal());
                assert_eq!(public.rsaep(&x.reveal()).as_ref(), Ok(c));
            }
            (Err(x), Err(y)) => assert_eq!(x, y),
            (x, y) => panic!("batch {x:?}, single {y:?}"),
        }
    }
    for (input, got) in inputs
        .iter()
        .zip(hazmat::raw_private_batch(engine, key, &inputs, &mut rng(3)))
    {
        let single = hazmat::raw_private(key, input, &mut rng(4));
        assert_eq!(got.as_deref(), single.as_deref());
    }
});
