//! The batch engine against num-bigint: every backend this CPU can run, on
//! random batches of mixed sizes, partly filled lane groups, a batch of one
//! and an empty batch. `REDC_BACKEND` picks the backend under test as for
//! every other test; this file also runs each available backend directly.

mod common;
use common::{engines, pseudo, to_big, to_nat};
use num_bigint::BigUint;
use redc::{Backend, Engine, EngineError, Job, Nat, PowJob, Secrecy};

fn job(bits: usize, ebits: usize, seed: u64) -> (BigUint, BigUint, BigUint) {
    let n = pseudo(bits, seed) | BigUint::from(1u8);
    let b = pseudo(bits + 13, seed ^ 0x55);
    let e = pseudo(ebits, seed ^ 0xaa);
    (b, e, n)
}

/// `(base, exp, n)` triples as engine jobs.
fn to_jobs(cases: &[(BigUint, BigUint, BigUint)]) -> Vec<Job> {
    cases
        .iter()
        .map(|(b, e, n)| Job {
            base: to_nat(b),
            exp: to_nat(e),
            modulus: to_nat(n),
        })
        .collect()
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
        let jobs = to_jobs(&cases);
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
    }
}

/// Prepared moduli at the edges of the IFMA size classes (`52·D - 2` bits is
/// the largest of class `D`), beyond the largest class (scalar products),
/// and tiny ones; edge bases and exponents; both secrecies; a group per
/// class partly filled.
#[test]
fn pow_batch_edges_both_secrecies() {
    let bits = [2usize, 3, 61, 518, 519, 1038, 1039, 2078, 2079, 4158, 4159, 8318, 8400];
    for engine in engines() {
        let moduli: Vec<BigUint> = bits
            .iter()
            .enumerate()
            .map(|(i, &b)| {
                if b <= 3 {
                    BigUint::from(if b == 2 { 3u8 } else { 7u8 })
                } else {
                    pseudo(b, 900 + i as u64) | BigUint::from(1u8)
                }
            })
            .collect();
        let prepared: Vec<_> = moduli.iter().map(|n| engine.prepare(&to_nat(n)).unwrap()).collect();
        let mut cases = Vec::new();
        for (i, n) in moduli.iter().enumerate() {
            let big = n.bits() > 4200;
            let ebits = if big { 40 } else { (n.bits() as usize).min(300) };
            let bases = [
                BigUint::from(0u8),
                BigUint::from(1u8),
                n - 1u8,
                pseudo(n.bits() as usize + 5, i as u64) % n,
            ];
            let exps = [
                BigUint::from(0u8),
                BigUint::from(1u8),
                BigUint::from(65537u32),
                pseudo(ebits, 77 + i as u64),
            ];
            for (k, b) in bases.iter().enumerate() {
                cases.push((i, b.clone(), exps[(k + i) % 4].clone()));
            }
        }
        let nats: Vec<_> = cases.iter().map(|(_, b, e)| (to_nat(b), to_nat(e))).collect();
        for secrecy in [Secrecy::Secret, Secrecy::Public] {
            let jobs: Vec<PowJob<'_>> = cases
                .iter()
                .zip(&nats)
                .map(|((i, _, e), (b, en))| PowJob {
                    base: b,
                    exp: en,
                    exp_bits: e.bits() as usize + 3,
                    modulus: &prepared[*i],
                })
                .collect();
            for (((i, b, e), r), job) in cases.iter().zip(engine.pow_batch(&jobs, secrecy)).zip(&jobs) {
                let n = &moduli[*i];
                assert_eq!(
                    to_big(&r.unwrap()),
                    b.modpow(e, n),
                    "{} {secrecy:?} n={n:x} exp_bits={}",
                    engine.backend().name(),
                    job.exp_bits
                );
            }
        }
    }
}

/// A job that breaks its preconditions fails alone; its neighbours in the
/// same lane group are still answered.
#[test]
fn bad_jobs_fail_alone() {
    for engine in engines() {
        let n = pseudo(1024, 5) | BigUint::from(1u8);
        let p = engine.prepare(&to_nat(&n)).unwrap();
        let (good, big, e) = (to_nat(&(&n - 2u8)), to_nat(&n), to_nat(&pseudo(100, 6)));
        let jobs = [
            PowJob {
                base: &good,
                exp: &e,
                exp_bits: 100,
                modulus: &p,
            },
            PowJob {
                base: &big,
                exp: &e,
                exp_bits: 100,
                modulus: &p,
            },
            PowJob {
                base: &good,
                exp: &e,
                exp_bits: 99,
                modulus: &p,
            },
            PowJob {
                base: &good,
                exp: &e,
                exp_bits: 128,
                modulus: &p,
            },
        ];
        let r = engine.pow_batch(&jobs, Secrecy::Secret);
        let want = to_nat(&(&n - 2u8).modpow(&pseudo(100, 6), &n));
        assert_eq!(r[0].as_ref().unwrap(), &want);
        assert_eq!(r[1], Err(EngineError::BaseTooLarge));
        assert_eq!(r[2], Err(EngineError::ExponentTooLong { bits: 100, bound: 99 }));
        assert_eq!(r[3].as_ref().unwrap(), &want);
        assert_eq!(
            engine.prepare(&to_nat(&(&n + 1u8))).unwrap_err(),
            EngineError::NotOddModulus
        );
        assert_eq!(engine.prepare(&Nat::one()).unwrap_err(), EngineError::NotOddModulus);
        let zero = engine.modexp_batch(&[Job {
            base: Nat::one(),
            exp: Nat::one(),
            modulus: Nat::zero(),
        }]);
        assert_eq!(zero[0], Err(EngineError::ZeroModulus));
    }
}

/// Even moduli and `n = 1` (answered by `modpow`) mixed with odd ones.
#[test]
fn modexp_batch_even_and_unit_moduli() {
    for engine in engines() {
        let cases = [
            (5u64, 3u64, 1u64),
            (7, 10, 1024),
            (12345, 678, 1000),
            (3, 5, 999_999_937),
            (0, 0, 8),
            (0, 0, 9),
        ];
        let jobs: Vec<Job> = cases
            .iter()
            .map(|&(b, e, n)| Job {
                base: Nat::from_u64(b),
                exp: Nat::from_u64(e),
                modulus: Nat::from_u64(n),
            })
            .collect();
        for (&(b, e, n), r) in cases.iter().zip(engine.modexp_batch(&jobs)) {
            assert_eq!(
                to_big(&r.unwrap()),
                BigUint::from(b).modpow(&BigUint::from(e), &BigUint::from(n)),
                "{b}^{e} mod {n}"
            );
        }
    }
}

#[test]
fn backend_names_and_errors() {
    assert_eq!(Backend::parse("ifma"), Ok(Backend::Ifma));
    assert_eq!(Backend::parse("scalar"), Ok(Backend::Scalar));
    assert_eq!(Backend::parse("gpu"), Err(EngineError::UnknownBackend("gpu".into())));
    assert_eq!(Engine::with_backend(Backend::Scalar).unwrap().lanes(), 1);
    match Engine::with_backend(Backend::Ifma) {
        Ok(e) => assert_eq!(e.lanes(), 8),
        Err(err) => assert_eq!(err, EngineError::Unavailable(Backend::Ifma)),
    }
    assert_eq!(
        Engine::detect().backend() == Backend::Ifma,
        Backend::Ifma.is_available()
    );
}

/// A device whose every launch fails.
#[derive(Debug)]
struct BrokenDevice;

impl redc::engine::device::Device for BrokenDevice {
    fn describe(&self) -> String {
        "broken".to_owned()
    }

    fn pow(
        &self,
        _: &redc::engine::device::DeviceBatch<'_>,
    ) -> Result<zeroize::Zeroizing<Vec<u32>>, redc::engine::device::DeviceError> {
        Err(redc::engine::device::DeviceError("launch failed".to_owned()))
    }
}

/// A failed launch fails the jobs of that launch only: moduli above the
/// largest device class still run on the CPU.
#[test]
fn a_device_failure_fails_its_jobs_only() {
    let engine = Engine::with_device(std::sync::Arc::new(BrokenDevice));
    assert_eq!(engine.backend(), Backend::Cuda);
    assert_eq!(engine.device().as_deref(), Some("broken"));
    let cases = [job(1024, 64, 1), job(4200, 64, 2), job(4096, 64, 3)];
    let jobs = to_jobs(&cases);
    let r = engine.modexp_batch(&jobs);
    assert_eq!(r[0], Err(EngineError::Device("launch failed".into())));
    assert_eq!(
        to_big(r[1].as_ref().unwrap()),
        cases[1].0.modpow(&cases[1].1, &cases[1].2)
    );
    assert_eq!(r[2], Err(EngineError::Device("launch failed".into())));
}

/// `cuda` names the registered device: without one it is an error naming
/// how to get one, and after registration the backend is available.
#[test]
fn the_cuda_backend_needs_a_registered_device() {
    assert_eq!(Backend::parse("cuda"), Ok(Backend::Cuda));
    if !Backend::Cuda.is_available() {
        let err = Engine::with_backend(Backend::Cuda).unwrap_err();
        assert_eq!(err, EngineError::NoDevice);
        assert!(err.to_string().contains("redc_cuda::install()"), "{err}");
    }
    redc::engine::device::register_device(std::sync::Arc::new(common::OracleDevice));
    assert!(Backend::Cuda.is_available());
    let engine = Engine::with_backend(Backend::Cuda).unwrap();
    assert_eq!(engine.device().as_deref(), Some("num-bigint oracle"));
    let (b, e, n) = job(2048, 100, 9);
    let r = engine.modexp_batch(&[Job {
        base: to_nat(&b),
        exp: to_nat(&e),
        modulus: to_nat(&n),
    }]);
    assert_eq!(to_big(r[0].as_ref().unwrap()), b.modpow(&e, &n));
}
