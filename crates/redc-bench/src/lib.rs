//! The bench behind `redc bench`: redc's backends beside `openssl speed`,
//! OpenSSL 4 (feature `openssl4`, linked in) and GMP (loaded at run time)
//! in one run, and Intel's crypto_mb (loaded at run time) beside the RSA
//! private batches: [`measure`] gives a [`Report`], which renders as the text
//! table, JSON and an SVG chart. The `redc` command only turns its
//! arguments into [`Options`] and writes the renderings.
//!
//! Three operations at each RSA modulus size — the RSA private operation
//! (RSADP, CRT), the public one (RSAEP, e = 65537) and raw modexp (a
//! full-length secret exponent, [`Engine::pow`]) — and the finite-field
//! ones of `bench/ffc.rs` (DH derivation, DSA signing and verification),
//! each in three modes:
//! the latency of one operation on one thread, batched throughput on one
//! thread, and batched throughput on every thread. redc runs through its
//! batch interfaces ([`redc_rsa::rsa_private_batch`],
//! [`redc_rsa::rsa_public_batch`], [`Engine::pow`]) with batches of
//! 8 × lanes × threads; OpenSSL and GMP have no batch interface, so their
//! one-thread figure is a run of single operations.
//!
//! Nothing is timed before its answers were checked: redc's private results
//! against the public operation, its public and modexp results against
//! [`redc::modpow()`], GMP's first answer of each operation likewise,
//! crypto_mb's first eight answers against the public operation. A wrong
//! answer stops the bench with an error.

mod cryptomb;
mod cycles;
mod ffc;
mod gmp;
mod gpu;
mod newest;
mod openssl;
#[cfg(feature = "openssl4")]
mod openssl4;
mod plot;
mod products;
mod report;
pub mod tour;
mod workload;

use anyhow::{Context, anyhow};
use cryptomb::CryptoMb;
use gmp::Gmp;
use newest::Newest;
use openssl::{Alg, OpenSsl, Wanted};
use rand_core::{OsRng, RngCore};
use redc::Engine;
use std::time::{Duration, Instant};
use workload::Workload;

use redc::Num;

/// Default RSA sizes.
pub const SIZES: [usize; 4] = [1024, 2048, 3072, 4096];

/// Products per call in the timed chains of the per-product figures
/// (redc's kernels and OpenSSL 4's `BN_mod_mul_montgomery` alike), so that
/// reading the clock does not weigh on calls of about 200 ns.
const CHAIN: usize = 64;

/// What one run measures.
#[derive(Debug, Clone)]
pub struct Options {
    /// RSA modulus sizes, in bits; raw modexp uses the same moduli.
    pub sizes: Vec<usize>,
    /// redc's CPU backends, each available on this CPU.
    pub backends: Vec<&'static str>,
    /// Measure the GPU too (its own table), opened by
    /// [`redc_cuda::select::opened_gpu`].
    pub gpu: bool,
    /// Measure the CPU (redc's CPU backends and the anchors); false with
    /// `--gpu-only`.
    pub cpu: bool,
    /// Operations per GPU batch call, when not the device's batch size.
    pub gpu_batch: Option<usize>,
    /// Time per measurement.
    pub seconds: f64,
    /// Threads of the all-cores figures.
    pub threads: usize,
    /// Run `openssl speed`.
    pub openssl: bool,
    /// Load GMP.
    pub gmp: bool,
    /// Load Intel's crypto_mb, the RSA private batch anchor: `None`, do
    /// not; `Some(None)`, from the loader's search path; `Some(Some(dir))`,
    /// from `dir`.
    pub crypto_mb: Option<Option<std::path::PathBuf>>,
    /// Time one Montgomery product of each kernel, with the clock.
    pub products: bool,
    /// Measure DH and DSA (`ffc.rs`).
    pub ffc: bool,
}

impl Options {
    /// The short bench of `redc demo`: RSA-2048 on the fastest backend,
    /// 0.2 s per measurement, beside OpenSSL and GMP.
    pub fn demo() -> Options {
        Options {
            sizes: vec![2048],
            backends: vec![Engine::detect().name()],
            gpu: false,
            cpu: true,
            gpu_batch: None,
            seconds: 0.2,
            threads: rayon::current_num_threads(),
            openssl: true,
            gmp: true,
            crypto_mb: None,
            products: false,
            ffc: false,
        }
    }
}

/// The operations measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Operation {
    /// RSADP with CRT.
    RsaPrivate,
    /// RSAEP with e = 65537.
    RsaPublic,
    /// `b^e mod n` with a secret exponent as long as `n`.
    Modexp,
    /// A Diffie-Hellman shared secret in an ffdhe group, the peer checked.
    DhDerive,
    /// A DSA signature (random nonce).
    DsaSign,
    /// A DSA verification.
    DsaVerify,
}

impl Operation {
    /// The RSA-size operations, in table order.
    const RSA: [Operation; 3] = [Operation::RsaPrivate, Operation::RsaPublic, Operation::Modexp];

    /// The name in the table.
    fn name(self) -> &'static str {
        match self {
            Operation::RsaPrivate => "RSA private",
            Operation::RsaPublic => "RSA public",
            Operation::Modexp => "modexp",
            Operation::DhDerive => "DH derive",
            Operation::DsaSign => "DSA sign",
            Operation::DsaVerify => "DSA verify",
        }
    }

    /// The name in JSON.
    fn key(self) -> &'static str {
        match self {
            Operation::RsaPrivate => "rsa_private",
            Operation::RsaPublic => "rsa_public",
            Operation::Modexp => "modexp",
            Operation::DhDerive => "dh_derive",
            Operation::DsaSign => "dsa_sign",
            Operation::DsaVerify => "dsa_verify",
        }
    }

    /// The name on the chart.
    fn short(self) -> &'static str {
        match self {
            Operation::RsaPrivate => "RSA priv",
            Operation::RsaPublic => "RSA pub",
            Operation::Modexp => "modexp",
            Operation::DhDerive => "DH",
            Operation::DsaSign => "DSA sign",
            Operation::DsaVerify => "DSA verify",
        }
    }

    /// Not an operation of the RSA workload.
    fn not_rsa(self) -> anyhow::Error {
        anyhow!("{} is not measured on an RSA key", self.name())
    }
}

/// How an operation is timed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// One operation per call, one thread.
    Latency,
    /// Batches on one thread.
    OneCore,
    /// Batches on every thread.
    AllCores,
}

impl Mode {
    /// The name in JSON.
    fn key(self) -> &'static str {
        match self {
            Mode::Latency => "latency",
            Mode::OneCore => "batch_1_core",
            Mode::AllCores => "batch_all_cores",
        }
    }

    /// Operations per batch call: 1, or 8 per lane and thread.
    fn batch(self, lanes: usize, threads: usize) -> usize {
        match self {
            Mode::Latency => 1,
            Mode::OneCore | Mode::AllCores => 8 * lanes * threads,
        }
    }
}

/// One line of the table: operations per second of each engine.
#[derive(Debug, Clone)]
struct Row {
    op: Operation,
    bits: usize,
    mode: Mode,
    /// Threads used (1 except for [`Mode::AllCores`]).
    threads: usize,
    /// Each redc backend's rate.
    redc: Vec<(&'static str, f64)>,
    openssl: Option<f64>,
    /// OpenSSL 4.0 in this process (feature `openssl4`).
    openssl4: Option<f64>,
    gmp: Option<f64>,
    /// crypto_mb's eight-lane batches (RSA private, batch rows).
    crypto_mb: Option<f64>,
}

impl Row {
    /// The rate of the anchor `versus`, if measured.
    fn anchor(&self, versus: report::Versus) -> Option<f64> {
        match versus {
            report::Versus::OpenSsl => self.openssl,
            report::Versus::OpenSsl4 => self.openssl4,
            report::Versus::Gmp => self.gmp,
            report::Versus::CryptoMb => self.crypto_mb,
        }
    }

    /// The fastest redc backend's rate.
    fn best(&self) -> Option<f64> {
        self.redc.iter().map(|&(_, r)| r).reduce(f64::max)
    }
}

/// Everything one run measured, with the machine it ran on.
#[derive(Debug)]
pub struct Report {
    cpu: String,
    cores: usize,
    threads: usize,
    seconds: f64,
    backends: Vec<&'static str>,
    openssl: Option<String>,
    /// The version of the OpenSSL linked in (feature `openssl4`).
    openssl4: Option<String>,
    gmp: Option<String>,
    /// crypto_mb's version, when loaded.
    crypto_mb: Option<String>,
    rows: Vec<Row>,
    /// The GPU's description and figures, when `cuda` was measured.
    gpu: Option<(String, Vec<gpu::GpuRow>)>,
    /// The clock, and one product of each kernel at each size.
    products: Option<(Option<cycles::Clock>, Vec<products::Kernel>)>,
    notes: Vec<String>,
}

impl Report {
    /// The tables as text, with the notes (`redc bench`'s standard output).
    pub fn text(&self) -> String {
        report::text(self)
    }

    /// Every figure as JSON (`redc bench --json`).
    pub fn json(&self) -> serde_json::Value {
        report::json(self)
    }

    /// The chart (`redc bench --plot`), as SVG.
    pub fn svg(&self) -> anyhow::Result<String> {
        plot::svg(self)
    }
}

/// Measures everything `opts` asks for, telling `status` what it is
/// measuring as it goes. Nothing is timed before its answers were checked;
/// a wrong answer is an error.
pub fn measure(opts: &Options, status: &dyn Fn(String)) -> anyhow::Result<Report> {
    let engines = opts
        .backends
        .iter()
        .map(|&b| Engine::named(b))
        .collect::<Result<Vec<_>, _>>()?;
    let gpu = match opts.gpu {
        true => {
            let device = redc_cuda::select::gpu().map_err(|e| anyhow!("the GPU: {e}"))?;
            let batch = opts.gpu_batch.unwrap_or_else(|| device.batch_size());
            let describe = device.describe();
            let rows = gpu::measure(device, &opts.sizes, batch, opts.seconds, &status)?;
            Some((describe, rows))
        }
        false => None,
    };
    if !opts.cpu {
        return Ok(Report {
            cpu: cpu_model(),
            cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
            threads: opts.threads,
            seconds: opts.seconds,
            backends: Vec::new(),
            openssl: None,
            openssl4: None,
            gmp: None,
            crypto_mb: None,
            rows: Vec::new(),
            gpu,
            products: None,
            notes: Vec::new(),
        });
    }
    let pool = |n: usize| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .context("cannot start the thread pool")
    };
    let (one, all) = (pool(1)?, pool(opts.threads)?);
    let mut notes = vec![
        "OpenSSL and GMP have no batch interface: their latency and 1-thread figures come from one run of \
         single operations. redc's RSA private operation is blinded and checked with e; GMP's RSA-CRT is neither."
            .to_owned(),
    ];
    let wanted = Wanted {
        rsa: opts.sizes.clone(),
        dsa: if opts.ffc {
            ffc::dsa_sizes(&opts.sizes)
        } else {
            Vec::new()
        },
        ffdh: if opts.ffc {
            ffc::dh_sizes(&opts.sizes)
        } else {
            Vec::new()
        },
    };
    let openssl = if opts.openssl {
        OpenSsl::measure(&wanted, opts.seconds, opts.threads, &status)
            .map_err(|e| notes.push(format!("OpenSSL: {e:#}; its columns are empty.")))
            .ok()
    } else {
        None
    };
    let gmp = if opts.gmp {
        Gmp::load()
            .map_err(|e| notes.push(format!("GMP: {e:#}; its columns are empty.")))
            .ok()
    } else {
        None
    };
    let crypto_mb = opts.crypto_mb.as_ref().and_then(|dir| {
        CryptoMb::load(dir.as_deref())
            .map_err(|e| notes.push(format!("crypto_mb: {e:#}; not measured.")))
            .ok()
    });
    if crypto_mb.is_some() {
        notes.push(
            "crypto_mb runs eight RSA private operations a call (mbx_rsa_private_crt_mb8) and neither blinds \
             nor checks its results; redc's are blinded and checked with e."
                .to_owned(),
        );
    }
    let modes: &[Mode] = if opts.threads > 1 {
        &[Mode::Latency, Mode::OneCore, Mode::AllCores]
    } else {
        &[Mode::Latency, Mode::OneCore]
    };
    let newest = opts.openssl.then(Newest::load).flatten();
    let clock = opts.products.then(|| {
        status("the clock and the multipliers' limits".to_owned());
        cycles::Clock::measure(opts.seconds.min(1.0))
    });
    let mut kernels = Vec::new();
    let max_lanes = engines.iter().map(Engine::lanes).max().unwrap_or(1);
    let mut rows = Vec::new();
    for &bits in &opts.sizes {
        status(format!("generating a {bits}-bit RSA key"));
        let mut work = Workload::new(bits, Mode::AllCores.batch(max_lanes, opts.threads))?;
        let newest_rates = match &newest {
            Some(n) => {
                status(format!("OpenSSL 4 RSA {bits}"));
                n.measure(&mut work, opts)?
            }
            None => Vec::new(),
        };
        if let Some(clock) = &clock {
            status(format!("one Montgomery product of each kernel at {bits} bits"));
            let n = work.key.public_key().n();
            kernels.extend(products::measure(
                bits,
                n,
                &work.bases[0],
                &opts.backends,
                opts.openssl,
                clock.as_ref(),
                opts.seconds / 2.0,
            )?);
        }
        for op in Operation::RSA {
            let gmp_rates = match &gmp {
                Some(g) => {
                    status(format!("GMP {} {bits}", op.name()));
                    Some(work.gmp_rates(g, op, opts)?)
                }
                None => None,
            };
            let crypto_mb_rates = match &crypto_mb {
                Some(c) if op == Operation::RsaPrivate && c.supports(bits) => {
                    status(format!("crypto_mb {} {bits}", op.name()));
                    Some(work.crypto_mb_rates(c, opts)?)
                }
                _ => None,
            };
            for &mode in modes {
                let threads = if mode == Mode::AllCores { opts.threads } else { 1 };
                let pool = if mode == Mode::AllCores { &all } else { &one };
                let mut redc = Vec::new();
                for engine in &engines {
                    status(format!("redc {} {} {bits}, {}", engine.name(), op.name(), mode.key()));
                    let count = mode.batch(engine.lanes(), threads);
                    redc.push((engine.name(), work.redc_rate(engine, pool, op, count, opts.seconds)?));
                }
                if op == Operation::RsaPrivate
                    && mode == Mode::Latency
                    && let Some(&(name, whole)) = redc.iter().max_by(|a, b| a.1.total_cmp(&b.1))
                    && let Some(engine) = engines.iter().find(|e| e.name() == name)
                {
                    status(format!("redc {name} CRT halves alone {bits}"));
                    notes.push(work.halves_note(engine, &one, whole, opts.seconds)?);
                }
                rows.push(Row {
                    op,
                    bits,
                    mode,
                    threads,
                    redc,
                    openssl: openssl.as_ref().and_then(|o| match op {
                        Operation::RsaPrivate => o.rate(Alg::Rsa, bits, threads, true),
                        Operation::RsaPublic => o.rate(Alg::Rsa, bits, threads, false),
                        _ => None,
                    }),
                    openssl4: newest_rates
                        .iter()
                        .find(|r| r.0 == op && r.1 == (mode == Mode::AllCores))
                        .map(|r| r.2),
                    gmp: gmp_rates.and_then(|(one, all)| if mode == Mode::AllCores { all } else { Some(one) }),
                    crypto_mb: crypto_mb_rates.and_then(|(one, all)| match mode {
                        Mode::Latency => None,
                        Mode::OneCore => Some(one),
                        Mode::AllCores => all,
                    }),
                });
            }
        }
    }
    if opts.ffc {
        let mut newest_ffc = |work: &ffc::Work<'_>| match &newest {
            Some(n) => {
                status("OpenSSL 4 DH and DSA".to_owned());
                n.measure_ffc(work, opts)
            }
            None => Ok(Vec::new()),
        };
        rows.extend(ffc::rows(
            opts,
            &engines,
            (&one, &all),
            modes,
            openssl.as_ref(),
            &mut newest_ffc,
            &status,
            &mut notes,
        )?);
    }
    Ok(Report {
        cpu: cpu_model(),
        cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
        threads: opts.threads,
        seconds: opts.seconds,
        backends: opts.backends.clone(),
        openssl: openssl.map(|o| o.version().to_owned()),
        openssl4: newest.as_ref().map(Newest::version),
        gmp: gmp.map(|g| g.version().to_owned()),
        crypto_mb: crypto_mb.map(|c| c.version().to_owned()),
        rows,
        gpu,
        products: clock.map(|c| (c, kernels)),
        notes,
    })
}

/// One figure of [`Newest`]: the operation, whether on every thread, the rate.
pub(crate) type NewestRate = (Operation, bool, f64);

/// One finite-field figure of [`Newest`]: whether on every thread, the rate.
pub(crate) type NewestFfcRate = (bool, f64);

/// The CPU's model name from `/proc/cpuinfo`.
fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|text| {
            text.lines().find_map(|l| {
                l.strip_prefix("model name")?
                    .split_once(':')
                    .map(|(_, v)| v.trim().to_owned())
            })
        })
        .unwrap_or_else(|| "unknown CPU".to_owned())
}

/// Operations per second of `call`, which does `ops` operations per call,
/// called until `seconds` have passed (at least once).
fn rate(seconds: f64, ops: usize, mut call: impl FnMut() -> anyhow::Result<()>) -> anyhow::Result<f64> {
    let budget = Duration::from_secs_f64(seconds);
    let start = Instant::now();
    let mut calls = 0u64;
    loop {
        call()?;
        calls += 1;
        let t = start.elapsed();
        if t >= budget {
            return Ok(calls as f64 * ops as f64 / t.as_secs_f64());
        }
    }
}

/// The sum of the rates of `threads` runs of `one` side by side (`one`
/// alone on one thread); `who` names the anchor if a thread panics.
fn on_threads(threads: usize, who: &str, one: impl Fn() -> anyhow::Result<f64> + Sync) -> anyhow::Result<f64> {
    if threads == 1 {
        return one();
    }
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads).map(|_| s.spawn(&one)).collect();
        handles
            .into_iter()
            .map(|h| h.join().map_err(|_| anyhow!("a {who} thread panicked"))?)
            .sum()
    })
}

/// The bench's own key's p, q, dp, dq and q^-1 mod p as plain numbers,
/// for the anchors that take them so (GMP, crypto_mb); a two-prime key.
fn crt_parts(key: &redc_rsa::RsaPrivateKey) -> anyhow::Result<[Num; 5]> {
    let parts: Vec<Num> = [key.primes(), key.crt_exponents(), key.crt_coefficients()]
        .into_iter()
        .flatten()
        .map(redc::SecretNat::reveal)
        .collect();
    <[Num; 5]>::try_from(parts).map_err(|_| anyhow!("the bench needs a two-prime key"))
}

/// Every answer, or the first error.
fn all_ok<T, E: std::fmt::Display>(results: Vec<Result<T, E>>) -> anyhow::Result<Vec<T>> {
    results.into_iter().map(|r| r.map_err(|e| anyhow!("{e}"))).collect()
}

/// A uniform random number of `bits` bits (the top ones may be zero).
fn random_bits(bits: usize) -> anyhow::Result<Num> {
    let mut bytes = vec![0u8; bits.div_ceil(8)];
    OsRng
        .try_fill_bytes(&mut bytes)
        .map_err(|e| anyhow!("random generator: {e}"))?;
    Ok(Num::from_be_bytes(&bytes).low_bits(bits))
}

/// A uniform random number in `[0, n)`, by rejection.
fn random_below(n: &Num) -> anyhow::Result<Num> {
    loop {
        let x = random_bits(n.bits())?;
        if x < *n {
            return Ok(x);
        }
    }
}
