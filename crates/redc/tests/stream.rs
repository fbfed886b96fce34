//! The streaming submitter against num-bigint, on every backend this CPU
//! can run: many threads submitting single jobs of mixed sizes and both
//! secrecies, a lone job (answered once its wait runs out), dropping and
//! closing the submitter with jobs still waiting, dropped tickets, and jobs
//! that fail the engine's checks.

mod common;
use common::{engines, pseudo, to_big, to_nat};
use num_bigint::BigUint;
use redc::engine::stream::{StreamJob, Submitter};
use redc::{Engine, EngineError, Prepared, SecretNat};
use std::sync::Arc;
use std::time::Duration;

/// An odd modulus of `bits` bits, prepared, with its oracle value.
fn modulus(engine: &Engine, bits: usize, seed: u64) -> (Arc<Prepared>, BigUint) {
    let n = pseudo(bits, seed) | BigUint::from(1u8) | (BigUint::from(1u8) << (bits - 1));
    (Arc::new(engine.prepare(&to_nat(&n)).unwrap()), n)
}

/// Whether a job's exponent is secret.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Secrecy {
    Secret,
    Public,
}

/// A job on `n` with a pseudo-random base below `n` and exponent of `ebits` bits.
fn job(n: &(Arc<Prepared>, BigUint), ebits: usize, seed: u64, secrecy: Secrecy) -> (StreamJob, BigUint) {
    let base = pseudo(n.1.bits() as usize + 7, seed) % &n.1;
    let exp = pseudo(ebits, seed ^ 0x5a5a);
    let want = base.modpow(&exp, &n.1);
    (stream_job(n, &base, &exp, ebits, secrecy), want)
}

/// The job `base^exp mod n` with the bound `ebits` (secret exponents).
fn stream_job(
    n: &(Arc<Prepared>, BigUint),
    base: &BigUint,
    exp: &BigUint,
    ebits: usize,
    secrecy: Secrecy,
) -> StreamJob {
    let base = SecretNat::from_nat(&to_nat(base), n.0.len()).unwrap();
    let exp = to_nat(exp);
    match secrecy {
        Secrecy::Secret => {
            let exp = SecretNat::from_nat(&exp, exp.digits().len()).unwrap();
            StreamJob::secret(base, exp, ebits, Arc::clone(&n.0))
        }
        Secrecy::Public => StreamJob::public_exp(base, exp, Arc::clone(&n.0)),
    }
}

#[test]
fn many_threads_submitting_single_jobs_get_their_answers() {
    for engine in engines() {
        let moduli: Vec<_> = [1024usize, 2048, 521, 64]
            .iter()
            .enumerate()
            .map(|(i, &bits)| modulus(&engine, bits, i as u64 + 1))
            .collect();
        let submitter = Submitter::new(engine, Duration::from_millis(5));
        std::thread::scope(|s| {
            for t in 0..6u64 {
                let (submitter, moduli) = (&submitter, &moduli);
                s.spawn(move || {
                    // Odd threads wait for each answer before the next job;
                    // even ones submit all their jobs first.
                    let mut tickets = Vec::new();
                    for k in 0..12u64 {
                        let n = &moduli[((t + k) % moduli.len() as u64) as usize];
                        let secrecy = if k % 3 == 0 { Secrecy::Public } else { Secrecy::Secret };
                        let ebits = if secrecy == Secrecy::Public {
                            17
                        } else {
                            n.1.bits() as usize
                        };
                        let (job, want) = job(n, ebits, t * 100 + k, secrecy);
                        let ticket = submitter.submit(job);
                        if t % 2 == 1 {
                            assert_eq!(to_big(&ticket.wait().unwrap().reveal()), want, "thread {t} job {k}");
                        } else {
                            tickets.push((ticket, want, k));
                        }
                    }
                    for (ticket, want, k) in tickets {
                        assert_eq!(to_big(&ticket.wait().unwrap().reveal()), want, "thread {t} job {k}");
                    }
                });
            }
        });
        submitter.close();
    }
}

#[test]
fn a_lone_job_is_answered_after_its_wait() {
    for engine in engines() {
        let n = modulus(&engine, 1024, 9);
        let submitter = Submitter::new(engine, Duration::from_millis(20));
        let (j, want) = job(&n, 1024, 3, Secrecy::Secret);
        assert_eq!(to_big(&submitter.submit(j).wait().unwrap().reveal()), want);
        // And again, after the first group has gone.
        let (j, want) = job(&n, 300, 4, Secrecy::Public);
        assert_eq!(to_big(&submitter.submit(j).wait().unwrap().reveal()), want);
    }
}

#[test]
fn dropping_the_submitter_answers_everything_waiting() {
    for engine in engines() {
        let n = modulus(&engine, 2048, 5);
        // A wait far longer than the test: only the flush can answer.
        let submitter = Submitter::new(engine, Duration::from_secs(3600));
        let mut tickets = Vec::new();
        for k in 0..5 {
            let (j, want) = job(&n, 2048, 40 + k, Secrecy::Secret);
            tickets.push((submitter.submit(j), want));
        }
        // A caller that gives up on its answer.
        let (j, _) = job(&n, 2048, 60, Secrecy::Secret);
        drop(submitter.submit(j));
        drop(submitter);
        for (ticket, want) in tickets {
            assert_eq!(to_big(&ticket.wait().unwrap().reveal()), want);
        }
    }
}

#[test]
fn jobs_failing_the_checks_get_their_errors() {
    for engine in engines() {
        let n = modulus(&engine, 512, 11);
        let submitter = Submitter::new(engine, Duration::from_millis(1));
        let exp = pseudo(512, 1);
        let j = stream_job(&n, &n.1, &exp, 512, Secrecy::Secret);
        assert_eq!(submitter.submit(j).wait().err(), Some(EngineError::BaseTooLarge));
        let j = stream_job(&n, &(&n.1 - 2u8), &exp, 10, Secrecy::Secret);
        assert_eq!(
            submitter.submit(j).wait().err(),
            Some(EngineError::ExponentTooLong { bits: 512, bound: 10 })
        );
        // A good job after the bad ones still goes through.
        let (j, want) = job(&n, 512, 3, Secrecy::Secret);
        assert_eq!(to_big(&submitter.submit(j).wait().unwrap().reveal()), want);
    }
}
