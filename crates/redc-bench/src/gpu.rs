//! `redc bench --backend cuda`: whole-device rates of the GPU engine, each
//! beside the multiplier ceiling of the device (operations per second if
//! its 32-bit multipliers did nothing but the kernels' counted products).
//!
//! A GPU's figure is for the whole device, not per core, so it has its own
//! table. Every timed batch's answers are checked first, on a sample
//! spread over the batch (all of them would take the CPU minutes). The
//! device is wrapped in [`Timed`], which counts the time spent inside its
//! batches: the rest of a whole operation's time is the host's part
//! (packing, blinding, residues, Garner, the checks).

use super::{all_ok, random_below, random_bits, rate};
use anyhow::{Context, anyhow};
use rand_core::OsRng;
use redc::engine::device::{Device, DeviceBatch, DeviceError};
use redc::{Engine, PowJob, PowOptions, SecretNat, modpow};
use redc_cuda::Secrecy;
use redc_rsa::{Num, RsaPrivateKey, rsa_private_batch, rsa_public_batch};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;
use zeroize::Zeroizing;

/// The kernels' size class of a `bits`-bit modulus (its 32-bit digits).
fn digit_class(bits: usize) -> Option<usize> {
    redc_cuda::CLASSES.into_iter().find(|&d| 32 * d >= bits)
}

/// What a GPU row measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum GpuOp {
    /// The two CRT exponentiations of an RSA private operation, on the
    /// device only (inputs already reduced mod p and q): the kernel figure.
    CrtHalves,
    /// The whole RSA private operation: blinding, CRT halves, Garner and
    /// the check with `e` (the CPU does everything but the exponentiations).
    RsaPrivate,
    /// RSAEP with `e = 65537`.
    RsaPublic,
    /// `b^e mod n` with a secret exponent as long as `n`.
    Modexp,
}

impl GpuOp {
    /// Table order.
    pub(super) const ALL: [GpuOp; 4] = [GpuOp::CrtHalves, GpuOp::RsaPrivate, GpuOp::RsaPublic, GpuOp::Modexp];

    /// The name in the table.
    pub(super) fn name(self) -> &'static str {
        match self {
            GpuOp::CrtHalves => "RSA private, CRT exponentiations only",
            GpuOp::RsaPrivate => "RSA private, whole (blinded, checked)",
            GpuOp::RsaPublic => "RSA public",
            GpuOp::Modexp => "modexp",
        }
    }

    /// The name in JSON.
    pub(super) fn key(self) -> &'static str {
        match self {
            GpuOp::CrtHalves => "rsa_private_crt_exponentiations",
            GpuOp::RsaPrivate => "rsa_private",
            GpuOp::RsaPublic => "rsa_public",
            GpuOp::Modexp => "modexp",
        }
    }

    /// The target for a `bits`-bit operation, in operations per second on
    /// one H100 or H200: at least 1,000,000 RSA-2048 private operations,
    /// 125,000 RSA-4096 ones (an eighth: twice the digits, twice the
    /// exponent) and 20,000,000 RSA-2048 public ones.
    pub(super) fn target(self, bits: usize) -> Option<f64> {
        match (self, bits) {
            (GpuOp::CrtHalves | GpuOp::RsaPrivate, 2048) => Some(1e6),
            (GpuOp::CrtHalves | GpuOp::RsaPrivate, 4096) => Some(1.25e5),
            (GpuOp::RsaPublic, 2048) => Some(2e7),
            _ => None,
        }
    }
}

/// One GPU figure.
#[derive(Debug, Clone)]
pub(super) struct GpuRow {
    pub(super) op: GpuOp,
    pub(super) bits: usize,
    /// Operations per batch call.
    pub(super) batch: usize,
    /// Operations per second.
    pub(super) rate: f64,
    /// Threads per number of the main class (the primes' for the CRT
    /// rows), when the plan is known: `REDC_CUDA_THREADS` changes it.
    pub(super) threads: Option<usize>,
    /// 32x32->64 products per operation on the device, counted from the
    /// kernels' schedule (`redc_cuda::count`), when the plan is known.
    pub(super) multiplies: Option<u64>,
    /// Operations per second at the multiplier ceiling, when the device
    /// is known.
    pub(super) ceiling: Option<f64>,
    /// The share of the timed calls' wall time spent outside the device's
    /// batches: the host's part of the operation.
    pub(super) host_share: f64,
}

impl GpuRow {
    /// The rate as a fraction of the ceiling.
    pub(super) fn fraction(&self) -> Option<f64> {
        self.ceiling.map(|c| self.rate / c)
    }

    /// Whether the rate meets the target, if the row has one.
    pub(super) fn met(&self) -> Option<bool> {
        self.op.target(self.bits).map(|t| self.rate >= t)
    }
}

/// A device that adds up the wall time spent inside its batches.
#[derive(Debug)]
pub(super) struct Timed {
    inner: Arc<dyn Device>,
    nanos: AtomicU64,
}

impl Timed {
    pub(super) fn new(inner: Arc<dyn Device>) -> Timed {
        Timed {
            inner,
            nanos: AtomicU64::new(0),
        }
    }

    /// Seconds inside batches since the last call.
    fn take(&self) -> f64 {
        self.nanos.swap(0, Ordering::Relaxed) as f64 * 1e-9
    }

    fn timed<T>(&self, f: impl FnOnce() -> T) -> T {
        let start = Instant::now();
        let out = f();
        let nanos = u64::try_from(start.elapsed().as_nanos()).unwrap_or(u64::MAX);
        self.nanos.fetch_add(nanos, Ordering::Relaxed);
        out
    }
}

impl Device for Timed {
    fn name(&self) -> &'static str {
        self.inner.name()
    }

    fn describe(&self) -> String {
        self.inner.describe()
    }

    fn classes(&self) -> &[usize] {
        self.inner.classes()
    }

    fn pow(&self, batch: &DeviceBatch<'_>) -> Result<Zeroizing<Vec<u32>>, DeviceError> {
        self.timed(|| self.inner.pow(batch))
    }

    fn pow_vartime(&self, batch: &DeviceBatch<'_>) -> Result<Zeroizing<Vec<u32>>, DeviceError> {
        self.timed(|| self.inner.pow_vartime(batch))
    }

    fn batch_size(&self) -> usize {
        self.inner.batch_size()
    }
}

/// [`rate`] of `call`, and the share of its wall time spent outside
/// `device`'s batches.
fn timed_rate(
    device: &Timed,
    seconds: f64,
    ops: usize,
    call: impl FnMut() -> anyhow::Result<()>,
) -> anyhow::Result<(f64, f64)> {
    device.take();
    let start = Instant::now();
    let r = rate(seconds, ops, call)?;
    let wall = start.elapsed().as_secs_f64();
    let inside = device.take();
    Ok((r, (1.0 - inside / wall).clamp(0.0, 1.0)))
}

/// The device's plan and multiplier rate, when the engine's device is the
/// GPU the CLI opened.
pub(super) struct Plan {
    gpu: Arc<redc_cuda::Gpu>,
}

impl Plan {
    /// The opened GPU's plan, if a GPU was opened.
    pub(super) fn opened() -> Option<Plan> {
        redc_cuda::select::opened_gpu().ok().map(|gpu| Plan { gpu })
    }

    /// Products of one exponentiation modulo a `bits`-bit number with an
    /// exponent bound of `exp_bits` bits of which `ones` are set (public).
    fn multiplies(&self, bits: usize, secrecy: Secrecy, exp_bits: usize, ones: usize) -> Option<u64> {
        let digits = digit_class(bits)?;
        let threads = self.gpu.threads(digits, secrecy)?;
        Some(redc_cuda::count::multiplies_per_pow(
            digits, threads, secrecy, exp_bits, ones,
        ))
    }

    /// Threads per number of the `secrecy` kernels for a `bits`-bit modulus.
    fn threads(&self, bits: usize, secrecy: Secrecy) -> Option<usize> {
        self.gpu.threads(digit_class(bits)?, secrecy)
    }

    /// Products per operation of `op` with a `bits`-bit key `key`.
    fn per_op(&self, op: GpuOp, key: &RsaPrivateKey) -> Option<u64> {
        let e = key.public_key().e();
        let ones = (0..e.bits()).filter(|&i| e.bit(i)).count();
        let public = self.multiplies(key.public_key().bits(), Secrecy::Public, e.bits(), ones)?;
        let halves = key
            .primes()
            .iter()
            .map(|p| self.multiplies(64 * p.len(), Secrecy::Secret, 64 * p.len(), 0))
            .sum::<Option<u64>>()?;
        match op {
            GpuOp::CrtHalves => Some(halves),
            // Blinding (r^e) and the check with e are public exponentiations.
            GpuOp::RsaPrivate => Some(halves + 2 * public),
            GpuOp::RsaPublic => Some(public),
            GpuOp::Modexp => {
                let bits = key.public_key().bits();
                self.multiplies(bits, Secrecy::Secret, bits, 0)
            }
        }
    }
}

/// Answers checked per batch, spread over it.
const SAMPLES: usize = 16;

/// The sampled indices of a batch of `count`: first, last and between.
fn samples(count: usize) -> impl Iterator<Item = usize> {
    let step = count.div_ceil(SAMPLES).max(1);
    (0..count).step_by(step).chain(count.checked_sub(1))
}

/// Measure every [`GpuOp`] at every size in `sizes` on `device`, with
/// batches of `batch` operations, `seconds` each.
pub(super) fn measure(
    device: Arc<dyn Device>,
    sizes: &[usize],
    batch: usize,
    seconds: f64,
    status: &dyn Fn(String),
) -> anyhow::Result<Vec<GpuRow>> {
    let plan = Plan::opened();
    let timed = Arc::new(Timed::new(device));
    let engine = &Engine::with_device(Arc::clone(&timed) as Arc<dyn Device>);
    let mut rows = Vec::new();
    for &bits in sizes {
        status(format!("GPU: generating a {bits}-bit RSA key and {batch} inputs"));
        let e = Num::from_u64(redc_rsa::keygen::DEFAULT_E);
        // The bench's own key, at level 0: it measures every size, 1024 bits too.
        let key = redc_rsa::keygen::generate(bits, &e, &|_| {})
            .map_err(|e| anyhow!("keygen: {e}"))?
            .with_security_level(redc_rsa::policy::SecurityLevel::NONE);
        let n = key.public_key().n().clone();
        let inputs = (0..batch)
            .map(|_| random_below(&n))
            .collect::<anyhow::Result<Vec<_>>>()?;
        let exps = (0..batch)
            .map(|_| Ok(random_bits(bits)?.low_bits(bits - 1).add(&Num::pow2(bits - 1))))
            .collect::<anyhow::Result<Vec<_>>>()?;
        for op in GpuOp::ALL {
            status(format!("GPU: {} {bits}", op.name()));
            let (rate, host_share) = match op {
                GpuOp::CrtHalves => crt_halves(engine, &timed, &key, &inputs, seconds)?,
                GpuOp::RsaPrivate => {
                    let call = || all_ok(rsa_private_batch(engine, &key, &inputs, &mut OsRng));
                    let first = call()?;
                    for i in samples(batch) {
                        if key.public_key().rsaep(&first[i].reveal()).ok().as_ref() != Some(&inputs[i]) {
                            return Err(wrong(op, bits, i));
                        }
                    }
                    timed_rate(&timed, seconds, batch, || call().map(drop))?
                }
                GpuOp::RsaPublic => {
                    let call = || all_ok(rsa_public_batch(engine, key.public_key(), &inputs));
                    let first = call()?;
                    check_pow(&first, &inputs, |_| &e, &n, op, bits)?;
                    timed_rate(&timed, seconds, batch, || call().map(drop))?
                }
                GpuOp::Modexp => {
                    let prepared = engine.prepare(&n)?;
                    let secret = |x: &Num| SecretNat::from_nat(x, prepared.len()).context("longer than n");
                    let bases = inputs.iter().map(secret).collect::<anyhow::Result<Vec<_>>>()?;
                    let exps_s = exps.iter().map(secret).collect::<anyhow::Result<Vec<_>>>()?;
                    let jobs: Vec<PowJob<'_>> = bases
                        .iter()
                        .zip(&exps_s)
                        .map(|(b, x)| PowJob {
                            base: b,
                            exp: x,
                            exp_bits: bits,
                            modulus: &prepared,
                        })
                        .collect();
                    let call = || all_ok(engine.pow(&jobs));
                    let first: Vec<Num> = call()?.iter().map(SecretNat::reveal).collect();
                    check_pow(&first, &inputs, |i| &exps[i], &n, op, bits)?;
                    timed_rate(&timed, seconds, batch, || call().map(drop))?
                }
            };
            let multiplies = plan.as_ref().and_then(|p| p.per_op(op, &key));
            let (main_bits, secrecy) = match op {
                GpuOp::CrtHalves | GpuOp::RsaPrivate => (bits / key.primes().len(), Secrecy::Secret),
                GpuOp::RsaPublic => (bits, Secrecy::Public),
                GpuOp::Modexp => (bits, Secrecy::Secret),
            };
            let threads = plan.as_ref().and_then(|p| p.threads(main_bits, secrecy));
            let ceiling = match (&plan, multiplies) {
                (Some(p), Some(m)) if p.gpu.info().clock_khz > 0 => Some(redc_cuda::ceiling(&p.gpu.info(), m)),
                _ => None,
            };
            rows.push(GpuRow {
                op,
                bits,
                batch,
                rate,
                threads,
                multiplies,
                ceiling,
                host_share,
            });
        }
    }
    Ok(rows)
}

/// Operations per second of the CRT exponentiations alone: every input's
/// residues mod each prime raised to the matching CRT exponent, one secret
/// batch of `primes * inputs` jobs per call.
fn crt_halves(
    engine: &Engine,
    timed: &Timed,
    key: &RsaPrivateKey,
    inputs: &[Num],
    seconds: f64,
) -> anyhow::Result<(f64, f64)> {
    let primes: Vec<redc::Prepared> = key
        .primes()
        .iter()
        .map(|p| engine.prepare_secret(p))
        .collect::<Result<_, _>>()?;
    let exps = key.crt_exponents();
    // The bench's own key: its primes may be revealed to make the inputs.
    let revealed: Vec<Num> = key.primes().iter().map(|p| p.reveal()).collect();
    let residues: Vec<Vec<SecretNat>> = revealed
        .iter()
        .map(|p| {
            inputs
                .iter()
                .map(|c| {
                    let r = c.rem(p).context("prime is not zero")?;
                    SecretNat::from_nat(&r, p.digits().len()).context("a residue fits its prime")
                })
                .collect()
        })
        .collect::<anyhow::Result<_>>()?;
    let mut jobs = Vec::with_capacity(primes.len() * inputs.len());
    let mut moduli = Vec::with_capacity(jobs.capacity());
    for (((p, d), rs), pv) in primes.iter().zip(&exps).zip(&residues).zip(&revealed) {
        jobs.extend(rs.iter().map(|r| PowJob {
            base: r,
            exp: d,
            exp_bits: p.bits(),
            modulus: p,
        }));
        moduli.extend(rs.iter().map(|_| pv));
    }
    let call = || all_ok(engine.pow(&jobs));
    let first = call()?;
    for i in samples(jobs.len()) {
        let want = modpow(
            &jobs[i].base.reveal(),
            &jobs[i].exp.reveal(),
            moduli[i],
            PowOptions::default(),
            None,
        )?;
        if first[i].reveal() != want {
            return Err(wrong(GpuOp::CrtHalves, key.public_key().bits(), i));
        }
    }
    timed_rate(timed, seconds, inputs.len(), || call().map(drop))
}

/// Check sampled `results[i] = bases[i]^exp(i) mod n` with [`modpow`].
fn check_pow<'a>(
    results: &[Num],
    bases: &[Num],
    exp: impl Fn(usize) -> &'a Num,
    n: &Num,
    op: GpuOp,
    bits: usize,
) -> anyhow::Result<()> {
    for i in samples(results.len()) {
        if modpow(&bases[i], exp(i), n, PowOptions::default(), None)? != results[i] {
            return Err(wrong(op, bits, i));
        }
    }
    Ok(())
}

/// The error of a wrong answer: the figure is not reported.
fn wrong(op: GpuOp, bits: usize, i: usize) -> anyhow::Error {
    anyhow!(
        "the GPU gave a wrong answer to {} at {bits} bits (input {i}); its speed is not reported",
        op.name()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every GPU figure is measured through the device (here the kernels
    /// compiled for the host), after its sampled answers were checked.
    #[test]
    fn every_gpu_figure_is_checked_and_timed_on_the_simulated_kernels() {
        let rows = measure(Arc::new(redc_cuda_sim::Sim::new(1)), &[1024], 4, 0.01, &|_| {}).unwrap();
        assert_eq!(rows.iter().map(|r| r.op).collect::<Vec<_>>(), GpuOp::ALL);
        for r in &rows {
            assert!(r.rate.is_finite() && r.rate > 0.0, "{:?}", r.op);
            assert!((0.0..=1.0).contains(&r.host_share), "{:?}", r.op);
            // No GPU is installed: no plan, hence no ceiling.
            assert!(r.ceiling.is_none() && r.fraction().is_none());
        }
        assert_eq!(GpuOp::CrtHalves.target(2048), Some(1e6));
        assert_eq!(GpuOp::RsaPublic.target(2048), Some(2e7));
        assert_eq!(GpuOp::Modexp.target(2048), None);
    }

    /// A device whose answers are all zero.
    #[derive(Debug)]
    struct Zeros;

    impl Device for Zeros {
        fn name(&self) -> &'static str {
            "cuda"
        }

        fn describe(&self) -> String {
            "zeros".to_owned()
        }

        fn classes(&self) -> &[usize] {
            &redc_cuda::CLASSES
        }

        fn pow(&self, b: &DeviceBatch<'_>) -> Result<Zeroizing<Vec<u32>>, DeviceError> {
            Ok(Zeroizing::new(vec![0; b.count * b.digits]))
        }

        fn pow_vartime(&self, b: &DeviceBatch<'_>) -> Result<Zeroizing<Vec<u32>>, DeviceError> {
            self.pow(b)
        }
    }

    #[test]
    fn a_wrong_answer_is_reported_not_timed() {
        let err = measure(Arc::new(Zeros), &[1024], 3, 0.01, &|_| {}).unwrap_err();
        assert!(err.to_string().contains("wrong answer"), "{err}");
    }
}
