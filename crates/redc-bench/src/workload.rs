//! One RSA size's workload: a fresh key, inputs for each operation, the
//! known answers they are checked against, and the timed calls of redc's
//! engines and GMP on it.

use super::cryptomb::CryptoMb;
use super::gmp::{Gmp, GmpOp};
use super::{Num, Operation, Options, all_ok, random_below, random_bits, rate};
use anyhow::{Context, anyhow};
use rand_core::OsRng;
use rayon::ThreadPool;
use redc::{Engine, PowJob, PowOptions, SecretNat, modpow};
use redc_rsa::{RsaPrivateKey, rsa_private_batch, rsa_public_batch};
use std::collections::BTreeMap;

/// One size's key and inputs, and the known answers of modexp.
pub(super) struct Workload {
    pub(super) bits: usize,
    pub(super) key: RsaPrivateKey,
    /// Inputs of the private operation, below `n`.
    pub(super) ciphertexts: Vec<Num>,
    /// Inputs of the public operation, below `n`.
    pub(super) messages: Vec<Num>,
    /// Bases of modexp, below `n`.
    pub(super) bases: Vec<Num>,
    /// Exponents of modexp: `bits` bits, the top one set.
    pub(super) exps: Vec<Num>,
    /// `bases` and `exps` as the engine's secret inputs.
    pub(super) secret_bases: Vec<SecretNat>,
    pub(super) secret_exps: Vec<SecretNat>,
    /// `bases[i]^exps[i] mod n` by [`redc::modpow`], computed when first needed.
    pub(super) expected: BTreeMap<usize, Num>,
}

impl Workload {
    /// A fresh `bits`-bit key (e = 65537) and `count` inputs of each kind.
    pub(super) fn new(bits: usize, count: usize) -> anyhow::Result<Workload> {
        let e = Num::from_u64(redc_rsa::keygen::DEFAULT_E);
        // The bench's own key, at level 0: it measures every size, 1024 bits too.
        let key = redc_rsa::keygen::generate(bits, &e, &|_| {})
            .map_err(|e| anyhow!("keygen: {e}"))?
            .with_security_level(redc_rsa::policy::SecurityLevel::NONE);
        let n = key.public_key().n().clone();
        let below = |count| (0..count).map(|_| random_below(&n)).collect::<anyhow::Result<Vec<_>>>();
        let exps = (0..count)
            .map(|_| Ok(random_bits(bits)?.low_bits(bits - 1).add(&Num::pow2(bits - 1))))
            .collect::<anyhow::Result<Vec<_>>>()?;
        let bases = below(count)?;
        let secret = |x: &Num| SecretNat::from_nat(x, n.digits().len()).context("an input is longer than n");
        Ok(Workload {
            bits,
            ciphertexts: below(count)?,
            messages: below(count)?,
            secret_bases: bases.iter().map(secret).collect::<anyhow::Result<_>>()?,
            secret_exps: exps.iter().map(secret).collect::<anyhow::Result<_>>()?,
            bases,
            exps,
            key,
            expected: BTreeMap::new(),
        })
    }

    /// Where the time of one private operation goes: the rate of its CRT
    /// exponentiations alone (one engine call of the key's halves, as the
    /// private operation makes it) against `whole`, the operation's
    /// measured rate on `engine`, as a note naming both times.
    pub(super) fn halves_note(
        &self,
        engine: &Engine,
        pool: &ThreadPool,
        whole: f64,
        seconds: f64,
    ) -> anyhow::Result<String> {
        let c = &self.ciphertexts[0];
        let secret_primes = self.key.primes();
        let prepared = secret_primes
            .iter()
            .map(|p| engine.prepare_secret(p))
            .collect::<Result<Vec<_>, _>>()?;
        // The bench's own key: its primes in the open, once.
        let primes: Vec<Num> = secret_primes.iter().map(|p| p.reveal()).collect();
        let bases = primes
            .iter()
            .zip(&prepared)
            .map(|(p, prep)| {
                let r = c.rem(p).context("a prime is zero")?;
                SecretNat::from_nat(&r, prep.len()).context("a residue is longer than its prime")
            })
            .collect::<anyhow::Result<Vec<_>>>()?;
        let exps = self.key.crt_exponents();
        let jobs: Vec<PowJob<'_>> = bases
            .iter()
            .zip(&exps)
            .zip(&prepared)
            .zip(&primes)
            .map(|(((base, exp), modulus), p)| PowJob {
                base,
                exp,
                exp_bits: p.bits(),
                modulus,
            })
            .collect();
        let first = pool.install(|| all_ok(engine.pow(&jobs)))?;
        for ((y, job), p) in first.iter().zip(&jobs).zip(&primes) {
            let want = modpow(&job.base.reveal(), &job.exp.reveal(), p, PowOptions::default(), None)?;
            if y.reveal() != want {
                return Err(anyhow!(
                    "redc {} gave a wrong CRT half at {} bits; its time is not reported",
                    engine.name(),
                    self.bits
                ));
            }
        }
        let halves = pool.install(|| rate(seconds, 1, || all_ok(engine.pow(&jobs)).map(drop)))?;
        let (part, all) = (1e6 / halves, 1e6 / whole);
        Ok(format!(
            "RSA private at {} bits, one operation on redc {}: its {} CRT exponentiations alone take {part:.1} µs \
             of the operation's {all:.1} µs ({:.0}%); the rest is blinding, the residues, Garner, unblinding and \
             the check with e.",
            self.bits,
            engine.name(),
            jobs.len(),
            100.0 * part / all,
        ))
    }

    /// redc's answers to the first `count` inputs of `op`.
    pub(super) fn redc_call(
        &self,
        engine: &Engine,
        op: Operation,
        count: usize,
        prepared: &redc::Prepared,
    ) -> anyhow::Result<Vec<Num>> {
        match op {
            Operation::RsaPrivate => Ok(all_ok(rsa_private_batch(
                engine,
                &self.key,
                &self.ciphertexts[..count],
                &mut OsRng,
            ))?
            .iter()
            .map(SecretNat::reveal)
            .collect()),
            Operation::RsaPublic => all_ok(rsa_public_batch(engine, self.key.public_key(), &self.messages[..count])),
            Operation::Modexp => {
                let jobs: Vec<PowJob<'_>> = (0..count)
                    .map(|i| PowJob {
                        base: &self.secret_bases[i],
                        exp: &self.secret_exps[i],
                        exp_bits: self.bits,
                        modulus: prepared,
                    })
                    .collect();
                Ok(all_ok(engine.pow(&jobs))?.iter().map(SecretNat::reveal).collect())
            }
            other => Err(other.not_rsa()),
        }
    }

    /// redc's rate for `op` with batches of `count` on `pool`, after its
    /// answers to one batch were checked.
    pub(super) fn redc_rate(
        &mut self,
        engine: &Engine,
        pool: &ThreadPool,
        op: Operation,
        count: usize,
        seconds: f64,
    ) -> anyhow::Result<f64> {
        let prepared = engine.prepare(self.key.public_key().n())?;
        let first = pool.install(|| self.redc_call(engine, op, count, &prepared))?;
        self.check(&format!("redc {}", engine.name()), op, &first)?;
        pool.install(|| {
            rate(seconds, count, || {
                self.redc_call(engine, op, count, &prepared).map(drop)
            })
        })
    }

    /// The GMP operation matching `op`, on the same inputs.
    pub(super) fn gmp_op(&self, op: Operation) -> anyhow::Result<GmpOp<'_>> {
        let public = self.key.public_key();
        Ok(match op {
            Operation::RsaPrivate => GmpOp::Crt {
                key: &self.key,
                inputs: &self.ciphertexts,
            },
            Operation::RsaPublic => GmpOp::Powm {
                n: public.n(),
                bases: &self.messages,
                exps: std::slice::from_ref(public.e()),
            },
            Operation::Modexp => GmpOp::Powm {
                n: public.n(),
                bases: &self.bases,
                exps: &self.exps,
            },
            other => return Err(other.not_rsa()),
        })
    }

    /// GMP's rates for `op` on one thread and (for more than one) on all,
    /// after its first answer was checked.
    pub(super) fn gmp_rates(&mut self, gmp: &Gmp, op: Operation, opts: &Options) -> anyhow::Result<(f64, Option<f64>)> {
        let first = gmp.first(&self.gmp_op(op)?)?;
        self.check("GMP", op, &[first])?;
        let g = self.gmp_op(op)?;
        let one = gmp.rate(&g, 1, opts.seconds)?;
        let all = if opts.threads > 1 {
            Some(gmp.rate(&g, opts.threads, opts.seconds)?)
        } else {
            None
        };
        Ok((one, all))
    }

    /// crypto_mb's RSA private rates on one thread and (for more than one)
    /// on all, after its first eight answers were checked.
    pub(super) fn crypto_mb_rates(&mut self, c: &CryptoMb, opts: &Options) -> anyhow::Result<(f64, Option<f64>)> {
        let first = {
            let mut w = c.worker(&self.key, &self.ciphertexts)?;
            w.call(0)?;
            w.results()
        };
        self.check("crypto_mb", Operation::RsaPrivate, &first)?;
        let one = c.rate(&self.key, &self.ciphertexts, 1, opts.seconds)?;
        let all = if opts.threads > 1 {
            Some(c.rate(&self.key, &self.ciphertexts, opts.threads, opts.seconds)?)
        } else {
            None
        };
        Ok((one, all))
    }

    /// Check `results`, the answers of `who` to the first inputs of `op`:
    /// private results with the public operation, public results with
    /// [`redc::modpow`], modexp's first and last with [`redc::modpow`].
    pub(super) fn check(&mut self, who: &str, op: Operation, results: &[Num]) -> anyhow::Result<()> {
        let public = self.key.public_key();
        let wrong = |i: usize| {
            anyhow!(
                "{who} gave a wrong answer to {} at {} bits (input {i}); its speed is not reported",
                op.name(),
                self.bits
            )
        };
        match op {
            Operation::RsaPrivate => {
                for (i, (m, c)) in results.iter().zip(&self.ciphertexts).enumerate() {
                    if public.rsaep(m).ok().as_ref() != Some(c) {
                        return Err(wrong(i));
                    }
                }
            }
            Operation::RsaPublic => {
                for (i, (c, m)) in results.iter().zip(&self.messages).enumerate() {
                    if modpow(m, public.e(), public.n(), PowOptions::default(), None)
                        .ok()
                        .as_ref()
                        != Some(c)
                    {
                        return Err(wrong(i));
                    }
                }
            }
            Operation::Modexp => {
                for i in [0, results.len().saturating_sub(1)] {
                    let want = match self.expected.get(&i) {
                        Some(x) => x.clone(),
                        None => {
                            let x = modpow(&self.bases[i], &self.exps[i], public.n(), PowOptions::default(), None)?;
                            self.expected.insert(i, x.clone());
                            x
                        }
                    };
                    if results.get(i) != Some(&want) {
                        return Err(wrong(i));
                    }
                }
            }
            other => return Err(other.not_rsa()),
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigUint;

    fn big(x: &Num) -> BigUint {
        BigUint::from_bytes_be(&x.to_be_bytes())
    }

    fn nat(x: &BigUint) -> Num {
        Num::from_be_bytes(&x.to_bytes_be())
    }

    /// num-bigint's answer to input `i` of `op`.
    fn oracle(w: &Workload, op: Operation, i: usize) -> Num {
        let public = w.key.public_key();
        let n = big(public.n());
        nat(&match op {
            Operation::RsaPrivate => big(&w.ciphertexts[i]).modpow(&big(&w.key.d().reveal()), &n),
            Operation::RsaPublic => big(&w.messages[i]).modpow(&big(public.e()), &n),
            Operation::Modexp => big(&w.bases[i]).modpow(&big(&w.exps[i]), &n),
            other => panic!("{} has no RSA oracle", other.name()),
        })
    }

    #[test]
    fn workload_inputs_are_in_range() {
        let w = Workload::new(1024, 5).unwrap();
        let n = w.key.public_key().n();
        assert_eq!(n.bits(), 1024);
        for list in [&w.ciphertexts, &w.messages, &w.bases] {
            assert_eq!(list.len(), 5);
            assert!(list.iter().all(|x| x < n));
        }
        assert!(w.exps.iter().all(|e| e.bits() == 1024));
    }

    #[test]
    fn check_accepts_right_answers_and_rejects_wrong_ones() {
        let mut w = Workload::new(1024, 4).unwrap();
        for op in Operation::RSA {
            let right: Vec<Num> = (0..4).map(|i| oracle(&w, op, i)).collect();
            w.check("test", op, &right).unwrap();
            w.check("test", op, &right[..1]).unwrap();
            // A wrong last answer (modexp checks the first and the last).
            let mut wrong = right.clone();
            wrong[3] = wrong[3].add(&Num::one()).rem(w.key.public_key().n()).unwrap();
            let err = w.check("test", op, &wrong).unwrap_err().to_string();
            assert!(err.contains("wrong answer") && err.contains("input 3"), "{err}");
        }
    }

    #[test]
    fn every_backend_and_mode_is_right_and_timed() {
        let mut w = Workload::new(1024, 16).unwrap();
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
        for backend in redc::engine::backend_names() {
            let Ok(engine) = Engine::named(backend) else { continue };
            for op in Operation::RSA {
                for count in [1, 16] {
                    let r = w.redc_rate(&engine, &pool, op, count, 0.001).unwrap();
                    assert!(r.is_finite() && r > 0.0, "{backend:?} {op:?} {count}");
                }
            }
        }
    }

    #[test]
    fn gmp_agrees_with_num_bigint() {
        let Ok(gmp) = Gmp::load() else {
            // GMP is optional: without it the bench prints a note instead.
            return;
        };
        assert!(gmp.version().starts_with('6'), "{}", gmp.version());
        let mut w = Workload::new(1024, 3).unwrap();
        for op in Operation::RSA {
            assert_eq!(gmp.first(&w.gmp_op(op).unwrap()).unwrap(), oracle(&w, op, 0), "{op:?}");
            let (one, all) = w
                .gmp_rates(
                    &gmp,
                    op,
                    &Options {
                        sizes: vec![1024],
                        backends: vec!["scalar"],
                        gpu: false,
                        cpu: true,
                        gpu_batch: None,
                        seconds: 0.01,
                        threads: 2,
                        openssl: false,
                        gmp: true,
                        crypto_mb: None,
                        products: false,
                        ffc: false,
                    },
                )
                .unwrap();
            assert!(one > 0.0 && all.is_some_and(|a| a > 0.0));
        }
    }

    /// crypto_mb's eight lanes against num-bigint at every size it has a
    /// method for (inputs fewer than the lanes wrap round), its rates on
    /// one thread and two, and no method at other sizes. Where crypto_mb
    /// is installed: the directory in REDC_TEST_CRYPTO_MB (`<prefix>/lib`
    /// of `pip install ipp-crypto ipp-crypto-include intel-cmplr-lib-rt`),
    /// else the loader's search path; elsewhere, or on a CPU without
    /// AVX-512 IFMA, there is nothing to run.
    #[test]
    fn crypto_mb_agrees_with_num_bigint() {
        let dir = std::env::var_os("REDC_TEST_CRYPTO_MB").map(std::path::PathBuf::from);
        let c = match CryptoMb::load(dir.as_deref()) {
            Ok(c) => c,
            // Without IFMA there is nothing to run, wherever it was found.
            Err(e) if dir.is_none() || e.to_string().contains("IFMA") => return,
            Err(e) => panic!("REDC_TEST_CRYPTO_MB given, crypto_mb not loaded: {e:#}"),
        };
        assert!(!c.supports(1536) && !c.supports(8192));
        for (bits, count) in [(1024, 5), (2048, 8), (3072, 11), (4096, 8)] {
            assert!(c.supports(bits), "{bits}");
            let mut w = Workload::new(bits, count).unwrap();
            let mut worker = c.worker(&w.key, &w.ciphertexts).unwrap();
            for first in [0, 3] {
                worker.call(first).unwrap();
                for (lane, got) in worker.results().iter().enumerate() {
                    assert_eq!(
                        *got,
                        oracle(&w, Operation::RsaPrivate, (first + lane) % count),
                        "{bits} lane {lane}"
                    );
                }
            }
            drop(worker);
            let opts = Options {
                seconds: 0.01,
                threads: 2,
                ..Options::demo()
            };
            let (one, all) = w.crypto_mb_rates(&c, &opts).unwrap();
            assert!(one > 0.0 && all.is_some_and(|a| a > 0.0));
        }
    }
}
