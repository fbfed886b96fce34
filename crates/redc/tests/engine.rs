//! The batch engine against num-bigint: every backend this CPU can run, on
//! random batches of mixed sizes, partly filled lane groups, a batch of one
//! and an empty batch; each available backend directly, the detected
//! engine, and the device path.

mod common;
use common::{engines, pseudo, to_big, to_nat};
use num_bigint::BigUint;
use redc::{Engine, EngineError, Job, Nat, PowJob, PublicExpJob, SecretNat};

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
                engine.name(),
                n.bits()
            );
        }
    }
}

/// Every group size from 1 to 8 (one group: one or two jobs take the
/// IFMA 2-way kernel from 20 digits on, up to four the 256-bit lanes,
/// more the eight-lane ones) at the smallest, an inlined and a called IFMA
/// class, with distinct moduli per lane, both secrecies, and one
/// exponent shared by every lane (the sliding-window path).
#[test]
fn every_group_size_both_secrecies() {
    for engine in engines() {
        for bits in [510usize, 1024, 3070] {
            for k in 1..=8u64 {
                let cases: Vec<_> = (0..k).map(|i| job(bits, 200 + 37 * i as usize, 31 * k + i)).collect();
                let prepared: Vec<_> = cases
                    .iter()
                    .map(|(_, _, n)| engine.prepare(&to_nat(n)).unwrap())
                    .collect();
                let bases: Vec<_> = cases
                    .iter()
                    .zip(&prepared)
                    .map(|((b, _, n), p)| secret(&(b % n), p.len()))
                    .collect();
                let exps: Vec<_> = cases
                    .iter()
                    .map(|(_, e, _)| secret(e, 1 + e.bits() as usize / 64))
                    .collect();
                let secret_jobs: Vec<PowJob<'_>> = (0..cases.len())
                    .map(|i| PowJob {
                        base: &bases[i],
                        exp: &exps[i],
                        // Above 767 bits the window widths of the IFMA
                        // kernels part (5 on the narrow, 4 on the wide).
                        exp_bits: if bits > 1000 { 1100 } else { 500 },
                        modulus: &prepared[i],
                    })
                    .collect();
                let e = BigUint::from(65537u32);
                let shared = to_nat(&e);
                let public_jobs: Vec<PublicExpJob<'_>> = (0..cases.len())
                    .map(|i| PublicExpJob {
                        base: &bases[i],
                        exp: &shared,
                        modulus: &prepared[i],
                    })
                    .collect();
                let secret_got = engine.pow(&secret_jobs);
                let public_got = engine.pow_vartime(&public_jobs);
                for (i, (b, ei, n)) in cases.iter().enumerate() {
                    let b = b % n;
                    let name = engine.name();
                    let got = to_big(&secret_got[i].as_ref().unwrap().reveal());
                    assert_eq!(got, b.modpow(ei, n), "{name} secret k={k} bits={bits} lane {i}");
                    let got = to_big(&public_got[i].as_ref().unwrap().reveal());
                    assert_eq!(got, b.modpow(&e, n), "{name} public k={k} bits={bits} lane {i}");
                }
            }
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
        let nats: Vec<_> = cases
            .iter()
            .map(|(i, b, e)| {
                (
                    secret(b, prepared[*i].len()),
                    secret(e, 1 + e.bits() as usize / 64),
                    to_nat(e),
                )
            })
            .collect();
        let secret_jobs: Vec<PowJob<'_>> = cases
            .iter()
            .zip(&nats)
            .map(|((i, _, e), (b, es, _))| PowJob {
                base: b,
                exp: es,
                exp_bits: e.bits() as usize + 3,
                modulus: &prepared[*i],
            })
            .collect();
        let public_jobs: Vec<PublicExpJob<'_>> = cases
            .iter()
            .zip(&nats)
            .map(|((i, _, _), (b, _, en))| PublicExpJob {
                base: b,
                exp: en,
                modulus: &prepared[*i],
            })
            .collect();
        let answers = [
            ("Secret", engine.pow(&secret_jobs)),
            ("Public", engine.pow_vartime(&public_jobs)),
        ];
        for (secrecy, results) in answers {
            for ((i, b, e), r) in cases.iter().zip(results) {
                let n = &moduli[*i];
                assert_eq!(
                    to_big(&r.unwrap().reveal()),
                    b.modpow(e, n),
                    "{} {secrecy} n={n:x} exp_bits={}",
                    engine.name(),
                    e.bits() + 3
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
        let (good, big, e) = (
            secret(&(&n - 2u8), p.len()),
            secret(&n, p.len()),
            secret(&pseudo(100, 6), 2),
        );
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
        let r = engine.pow(&jobs);
        let want = to_nat(&(&n - 2u8).modpow(&pseudo(100, 6), &n));
        assert_eq!(&r[0].as_ref().unwrap().reveal(), &want);
        assert_eq!(r[1].as_ref().err(), Some(&EngineError::BaseTooLarge));
        assert_eq!(
            r[2].as_ref().err(),
            Some(&EngineError::ExponentTooLong { bits: 100, bound: 99 })
        );
        assert_eq!(&r[3].as_ref().unwrap().reveal(), &want);
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
    assert_eq!(Engine::named("ifma").map(|e| e.name()).unwrap_or("ifma"), "ifma");
    assert_eq!(Engine::named("scalar").unwrap().name(), "scalar");
    assert_eq!(
        Engine::named("gpu").unwrap_err(),
        EngineError::UnknownBackend("gpu".into())
    );
    assert_eq!(Engine::named("scalar").unwrap().lanes(), 1);
    let ifma_available = match Engine::named("ifma") {
        Ok(e) => {
            assert_eq!(e.lanes(), 8);
            true
        }
        Err(err) => {
            assert_eq!(err, EngineError::Unavailable("ifma"));
            false
        }
    };
    assert_eq!(Engine::detect().name() == "ifma", ifma_available);
}

/// A device whose every launch fails.
#[derive(Debug)]
struct BrokenDevice;

impl redc::engine::device::Device for BrokenDevice {
    fn name(&self) -> &'static str {
        "cuda"
    }

    fn describe(&self) -> String {
        "broken".to_owned()
    }

    fn classes(&self) -> &[usize] {
        &common::CLASSES
    }

    fn pow(
        &self,
        _: &redc::engine::device::DeviceBatch<'_>,
    ) -> Result<zeroize::Zeroizing<Vec<u32>>, redc::engine::device::DeviceError> {
        Err(redc::engine::device::DeviceError("launch failed".to_owned()))
    }

    fn pow_vartime(
        &self,
        b: &redc::engine::device::DeviceBatch<'_>,
    ) -> Result<zeroize::Zeroizing<Vec<u32>>, redc::engine::device::DeviceError> {
        self.pow(b)
    }
}

/// A failed launch fails the jobs of that launch only: moduli above the
/// largest device class still run on the CPU.
#[test]
fn a_device_failure_fails_its_jobs_only() {
    let engine = Engine::with_device(std::sync::Arc::new(BrokenDevice));
    assert_eq!(engine.name(), "cuda");
    assert_eq!(engine.describe(), "broken");
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

/// An application that has a device installs an engine on it as the
/// process default; the single-operation entry points then use it.
#[test]
fn a_device_engine_can_be_the_process_default() {
    let installed = redc::engine::set_default_engine(Engine::with_device(std::sync::Arc::new(common::OracleDevice)));
    assert!(installed.is_ok(), "nothing else in this test binary installs a default");
    let engine = redc::engine::default_engine();
    assert_eq!(engine.name(), "cuda");
    assert_eq!(engine.describe(), "num-bigint oracle");
    let (b, e, n) = job(2048, 100, 9);
    let r = engine.modexp_batch(&[Job {
        base: to_nat(&b),
        exp: to_nat(&e),
        modulus: to_nat(&n),
    }]);
    assert_eq!(to_big(r[0].as_ref().unwrap()), b.modpow(&e, &n));
    assert!(
        redc::engine::set_default_engine(Engine::detect()).is_err(),
        "the first installation wins"
    );
}

/// A prepared modulus's contexts belong to the backends of the engine that
/// made it: one prepared on the scalar engine runs on the scalar kernels of
/// an engine whose first backend (a device here) has a class for it, never
/// on that backend with a context it lacks.
#[test]
fn a_modulus_prepared_elsewhere_runs_where_it_was_prepared() {
    let n = pseudo(1024, 5) | BigUint::from(1u8);
    let device = Engine::with_device(std::sync::Arc::new(common::OracleDevice));
    let p = Engine::named("scalar").unwrap().prepare(&to_nat(&n)).unwrap();
    let (b, e) = (secret(&(&n - 2u8), p.len()), secret(&BigUint::from(3u8), 1));
    let job = PowJob {
        base: &b,
        exp: &e,
        exp_bits: 2,
        modulus: &p,
    };
    let got = device.pow(&[job]).pop().unwrap().unwrap();
    assert_eq!(to_big(&got.reveal()), (&n - 2u8).modpow(&BigUint::from(3u8), &n));
}

/// `x` as a secret of `len` digits.
fn secret(x: &BigUint, len: usize) -> SecretNat {
    SecretNat::from_nat(&to_nat(x), len).unwrap()
}

/// A backend of the caller's, plugged in with `Engine::with_backend`: it
/// counts its calls and runs the crate's scalar backend; every job whose
/// modulus it has a class for (up to 1024 bits here) runs on it, the others
/// on the scalar kernels.
#[derive(Debug, Default)]
struct Counting;

/// Jobs [`Counting`] ran.
static COUNTED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

impl redc::engine::Backend for Counting {
    type Ctx = <redc::engine::scalar::Scalar as redc::engine::Backend>::Ctx;

    fn name(&self) -> &'static str {
        "counting"
    }

    fn lanes(&self) -> usize {
        1
    }

    fn class(&self, size_bits: usize) -> Option<usize> {
        (size_bits <= 1024).then_some(size_bits.div_ceil(64))
    }

    fn prepare(&self, c: &std::sync::Arc<redc::kernel::Consts>, class: usize) -> Self::Ctx {
        redc::engine::Backend::prepare(&redc::engine::scalar::Scalar, c, class)
    }

    fn pow(&self, tasks: &[redc::engine::Task<'_, Self::Ctx>]) -> Result<Vec<SecretNat>, redc::engine::BackendError> {
        COUNTED.fetch_add(tasks.len(), std::sync::atomic::Ordering::Relaxed);
        redc::engine::Backend::pow(&redc::engine::scalar::Scalar, tasks)
    }

    fn pow_vartime(
        &self,
        tasks: &[redc::engine::Task<'_, Self::Ctx>],
    ) -> Result<Vec<SecretNat>, redc::engine::BackendError> {
        COUNTED.fetch_add(tasks.len(), std::sync::atomic::Ordering::Relaxed);
        redc::engine::Backend::pow_vartime(&redc::engine::scalar::Scalar, tasks)
    }
}

#[test]
fn a_backend_of_the_callers_plugs_in() {
    let engine = Engine::with_backend(Counting);
    assert_eq!(engine.name(), "counting");
    assert_eq!(engine.backends(), ["counting", "scalar"]);
    let cases = [job(512, 100, 1), job(1024, 64, 2), job(2048, 64, 3), job(1000, 1000, 4)];
    let r = engine.modexp_batch(&to_jobs(&cases));
    for ((b, e, n), r) in cases.iter().zip(r) {
        assert_eq!(to_big(&r.unwrap()), b.modpow(e, n), "{} bits", n.bits());
    }
    // The three moduli of at most 1024 bits ran on it; the 2048-bit one did not.
    assert_eq!(COUNTED.load(std::sync::atomic::Ordering::Relaxed), 3);
}
