//! Measure every kernel on the GPU: each size class x threads per number x
//! secrecy, its throughput in exponentiations per second, the driver's
//! registers and local memory, and its share of the multiplier ceiling;
//! then print the fastest plan as a `REDC_CUDA_THREADS` spec. What chose
//! the default plan (`src/plan.rs`); run by `device/run.sh`.
//!
//! ```text
//! cargo run --release -p redc-cuda --features cuda --example sweep -- [--json FILE] [--budget S] [--classes 32,64]
//! cargo run --release -p redc-cuda --features cuda --example sweep -- --precompile DIR --cc 9.0
//! ```
//!
//! Secret kernels run full-length exponents (as many bits as the modulus),
//! public ones `e = 65537`. Each measurement is two waves of jobs (every SM
//! full, twice), timed around `Gpu::pow_with` (packing, copies, kernels and
//! the wiping of secret buffers included), the median of up to three runs
//! after a probe of one wave with a 16-bit exponent. A secret kernel too
//! slow to run two full-length waves in `--budget` seconds runs a shorter
//! exponent (or, slower still, the probe is its measurement), and its rate
//! is scaled by the ratio of counted products (`redc_cuda::count`, exact
//! for the fixed windows): marked `scaled`. Two results of every run that
//! is checked (the probe and the first measured run) are compared with
//! num-bigint.

#![allow(clippy::print_stdout, clippy::print_stderr)]

/// The kernels' operand layout, shared with the tests.
#[path = "../tests/common/mod.rs"]
mod common;

use common::{digits_of, n0inv};
use num_bigint::BigUint;
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use redc::engine::device::DeviceBatch;
use redc_cuda::{CLASSES, Gpu, Secrecy, count};
use std::io::Write;
use std::time::Instant;

/// Distinct moduli per class, cycled over a batch's jobs.
const MODULI: usize = 64;
/// Schedules the kernels implement.
const SCHEDULES: [usize; 5] = [1, 4, 8, 16, 32];

struct Args {
    json: Option<String>,
    budget: f64,
    classes: Vec<usize>,
    precompile: Option<String>,
    cc: (u32, u32),
}

fn args() -> Result<Args, String> {
    let mut a = Args {
        json: None,
        budget: 1.0,
        classes: CLASSES.to_vec(),
        precompile: None,
        cc: (9, 0),
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or_else(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--json" => a.json = Some(value()?),
            "--budget" => a.budget = value()?.parse().map_err(|_| "--budget: not a number")?,
            "--classes" => {
                a.classes = value()?
                    .split(',')
                    .map(|c| c.trim().parse().map_err(|_| format!("--classes: {c:?}")))
                    .collect::<Result<_, _>>()?;
                if let Some(c) = a.classes.iter().find(|c| !CLASSES.contains(c)) {
                    return Err(format!("--classes: {c} is not a class ({CLASSES:?})"));
                }
            }
            "--precompile" => a.precompile = Some(value()?),
            "--cc" => {
                let v = value()?;
                let (major, minor) = v.split_once('.').ok_or("--cc: MAJOR.MINOR")?;
                a.cc = (
                    major.parse().map_err(|_| "--cc: MAJOR.MINOR")?,
                    minor.parse().map_err(|_| "--cc: MAJOR.MINOR")?,
                );
            }
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    if !a.budget.is_finite() || a.budget <= 0.0 {
        return Err("--budget must be positive".into());
    }
    Ok(a)
}

/// A batch of `count` jobs of class `digits` in the kernels' layout:
/// full-length odd moduli (cycled from [`MODULI`]), random bases below
/// them, and random exponents of exactly `exp_bits` bits (or 65537).
struct Work {
    digits: usize,
    exp_words: usize,
    exp_bits: usize,
    moduli: Vec<BigUint>,
    modulus: Vec<u32>,
    n0inv: Vec<u32>,
    r2: Vec<u32>,
    base: Vec<u32>,
    exp: Vec<u32>,
}

impl Work {
    fn new(rng: &mut ChaCha8Rng, digits: usize, count: usize, secrecy: Secrecy, exp_bits: usize) -> Work {
        let exp_bits = match secrecy {
            Secrecy::Secret => exp_bits,
            Secrecy::Public => 17,
        };
        let exp_words = exp_bits.div_ceil(32).max(1);
        let moduli: Vec<BigUint> = (0..MODULI.min(count))
            .map(|_| {
                let words: Vec<u32> = (0..digits).map(|_| rng.next_u32()).collect();
                let mut n = BigUint::from_slice(&words);
                n.set_bit(32 * digits as u64 - 1, true);
                n.set_bit(0, true);
                n
            })
            .collect();
        let prepared: Vec<(Vec<u32>, u32, Vec<u32>)> = moduli
            .iter()
            .map(|n| {
                let r2 = (BigUint::from(1u8) << (64 * digits)) % n;
                (digits_of(n, digits), n0inv(n), digits_of(&r2, digits))
            })
            .collect();
        let mut w = Work {
            digits,
            exp_words,
            exp_bits,
            moduli,
            modulus: Vec::with_capacity(count * digits),
            n0inv: Vec::with_capacity(count),
            r2: Vec::with_capacity(count * digits),
            base: Vec::with_capacity(count * digits),
            exp: Vec::with_capacity(count * exp_words),
        };
        for j in 0..count {
            let (n, n0, r2) = &prepared[j % prepared.len()];
            w.modulus.extend_from_slice(n);
            w.n0inv.push(*n0);
            w.r2.extend_from_slice(r2);
            // Below n: the top digit one less than n's (which is >= 2^31).
            let mut base: Vec<u32> = (0..digits).map(|_| rng.next_u32()).collect();
            base[digits - 1] = rng.next_u32() % n[digits - 1];
            w.base.extend(base);
            let mut exp: Vec<u32> = (0..exp_words).map(|_| rng.next_u32()).collect();
            match secrecy {
                Secrecy::Secret => {
                    let top = exp_bits - 1;
                    for (i, word) in exp.iter_mut().enumerate() {
                        let low = 32 * i;
                        if low > top {
                            *word = 0;
                        } else if top - low < 32 {
                            let span = top - low;
                            if span < 31 {
                                *word &= (1u32 << (span + 1)) - 1;
                            }
                            *word |= 1 << span;
                        }
                    }
                }
                Secrecy::Public => exp = vec![65537],
            }
            w.exp.extend(exp);
        }
        w
    }

    fn count(&self) -> usize {
        self.n0inv.len()
    }

    fn batch(&self) -> DeviceBatch<'_> {
        DeviceBatch {
            digits: self.digits,
            count: self.count(),
            modulus: &self.modulus,
            n0inv: &self.n0inv,
            r2: &self.r2,
            base: &self.base,
            exp: &self.exp,
            exp_words: self.exp_words,
            exp_bits: self.exp_bits,
        }
    }

    /// Job `j`'s result from `out` is num-bigint's.
    fn check(&self, out: &[u32], j: usize) -> Result<(), String> {
        let d = self.digits;
        let n = &self.moduli[j % self.moduli.len()];
        let base = BigUint::from_slice(&self.base[j * d..(j + 1) * d]);
        let w = self.exp_words;
        let exp = BigUint::from_slice(&self.exp[j * w..(j + 1) * w]);
        let got = BigUint::from_slice(&out[j * d..(j + 1) * d]);
        if got == base.modpow(&exp, n) {
            Ok(())
        } else {
            Err(format!("job {j}: wrong result"))
        }
    }
}

/// Seconds of one `pow_with` call on `work`, its results checked at two jobs.
fn run(gpu: &Gpu, threads: usize, secrecy: Secrecy, work: &Work, check: bool) -> Result<f64, String> {
    let start = Instant::now();
    let out = gpu
        .pow_with(threads, secrecy, &work.batch())
        .map_err(|e| e.to_string())?;
    let seconds = start.elapsed().as_secs_f64();
    if check {
        work.check(&out, 0)?;
        work.check(&out, work.count() - 1)?;
    }
    Ok(seconds)
}

/// One measured kernel.
struct Row {
    digits: usize,
    threads: usize,
    secrecy: Secrecy,
    registers: usize,
    local_bytes: usize,
    wave: usize,
    jobs: usize,
    exp_bits: usize,
    full_bits: usize,
    runs: Vec<f64>,
    rate: f64,
    ceiling: f64,
}

fn measure(
    gpu: &Gpu,
    rng: &mut ChaCha8Rng,
    budget: f64,
    digits: usize,
    threads: usize,
    secrecy: Secrecy,
) -> Result<Row, String> {
    let report = gpu.kernel_report(threads, digits, secrecy).map_err(|e| e.to_string())?;
    let full_bits = match secrecy {
        Secrecy::Secret => 32 * digits,
        Secrecy::Public => 17,
    };
    let products = |bits: usize| count::multiplies_per_pow(digits, threads, secrecy, bits, 2);
    // Probe one wave with a short exponent; its time per product predicts
    // the rest. Measure two waves at the longest exponent (halving from
    // the full length) that fits the budget; when even the probe took
    // longer than the budget, the probe is the measurement.
    let probe_bits = match secrecy {
        Secrecy::Secret => full_bits.min(16),
        Secrecy::Public => full_bits,
    };
    let probe = Work::new(rng, digits, report.wave, secrecy, probe_bits);
    let t_probe = run(gpu, threads, secrecy, &probe, true)?;
    let per_product = t_probe / (report.wave as f64 * products(probe_bits) as f64);
    let jobs = 2 * report.wave;
    let predict = |bits: usize| per_product * jobs as f64 * products(bits) as f64;
    let (work, mut runs) = if predict(probe_bits) > budget {
        (probe, vec![t_probe])
    } else {
        let mut exp_bits = full_bits;
        while exp_bits > probe_bits && predict(exp_bits) > budget {
            exp_bits = (exp_bits / 2).next_multiple_of(4).max(probe_bits);
        }
        let work = Work::new(rng, digits, jobs, secrecy, exp_bits);
        let first = run(gpu, threads, secrecy, &work, true)?;
        (work, vec![first])
    };
    let mut spent = runs[0];
    while runs.len() < 3 && spent + runs[0] <= budget {
        let t = run(gpu, threads, secrecy, &work, false)?;
        spent += t;
        runs.push(t);
    }
    let (jobs, exp_bits) = (work.count(), work.exp_bits);
    let mut sorted = runs.clone();
    sorted.sort_by(f64::total_cmp);
    let median = sorted[sorted.len() / 2];
    let scale = products(exp_bits) as f64 / products(full_bits) as f64;
    let rate = jobs as f64 / median * scale;
    Ok(Row {
        digits,
        threads,
        secrecy,
        registers: report.registers,
        local_bytes: report.local_bytes,
        wave: report.wave,
        jobs,
        exp_bits,
        full_bits,
        runs,
        rate,
        ceiling: redc_cuda::ceiling(&gpu.info(), products(full_bits)),
    })
}

fn kind(secrecy: Secrecy) -> &'static str {
    match secrecy {
        Secrecy::Secret => "secret",
        Secrecy::Public => "public",
    }
}

/// The rate's share of the ceiling (0 where the clock is unknown).
fn fraction(row: &Row) -> f64 {
    if row.ceiling > 0.0 { row.rate / row.ceiling } else { 0.0 }
}

fn json(row: &Row) -> String {
    let runs: Vec<String> = row.runs.iter().map(|t| format!("{t:.6}")).collect();
    format!(
        "{{\"digits\":{},\"bits\":{},\"threads\":{},\"secrecy\":\"{}\",\"registers\":{},\"local_bytes\":{},\"wave\":{},\"jobs\":{},\"exp_bits\":{},\"full_exp_bits\":{},\"scaled\":{},\"runs_s\":[{}],\"pow_per_s\":{:.1},\"ceiling_pow_per_s\":{:.1},\"fraction_of_ceiling\":{:.5}}}",
        row.digits,
        32 * row.digits,
        row.threads,
        kind(row.secrecy),
        row.registers,
        row.local_bytes,
        row.wave,
        row.jobs,
        row.exp_bits,
        row.full_bits,
        row.exp_bits != row.full_bits,
        runs.join(","),
        row.rate,
        row.ceiling,
        fraction(row)
    )
}

fn main() -> std::process::ExitCode {
    let a = match args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("sweep: {e}");
            return std::process::ExitCode::from(2);
        }
    };
    if let Some(dir) = &a.precompile {
        let start = Instant::now();
        return match redc_cuda::precompile(std::path::Path::new(dir), a.cc.0, a.cc.1) {
            Ok(n) => {
                println!(
                    "compiled {n} modules for sm_{}{} into {dir} in {:.1} s",
                    a.cc.0,
                    a.cc.1,
                    start.elapsed().as_secs_f64()
                );
                std::process::ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("sweep: {e}");
                std::process::ExitCode::FAILURE
            }
        };
    }
    let cache = redc_cuda::cache_dir(|name| std::env::var_os(name));
    let opened = Instant::now();
    let gpu = match Gpu::open(None, cache.as_deref()) {
        Ok(gpu) => gpu,
        Err(e) => {
            eprintln!("sweep: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    let pairs: Vec<(usize, usize)> = a
        .classes
        .iter()
        .flat_map(|&n| SCHEDULES.into_iter().filter(move |t| n % t == 0).map(move |t| (t, n)))
        .collect();
    if let Err(e) = gpu.compile(&pairs) {
        eprintln!("sweep: {e}");
        return std::process::ExitCode::FAILURE;
    }
    println!(
        "{}: opened and compiled {} kernel pairs in {:.1} s (cache: {})",
        gpu.info().describe(),
        pairs.len(),
        opened.elapsed().as_secs_f64(),
        cache.as_ref().map_or("off".into(), |c| c.display().to_string())
    );
    let mut out = a
        .json
        .as_ref()
        .map(|p| std::fs::File::create(p).expect("--json: cannot create"));
    let mut rng = ChaCha8Rng::seed_from_u64(2026);
    let mut rows = Vec::new();
    let mut failed = false;
    println!("| bits | T | kernels | regs | local B | wave | exp bits | pow/s | of ceiling |");
    println!("|---:|---:|---|---:|---:|---:|---:|---:|---:|");
    for &(threads, digits) in &pairs {
        for secrecy in [Secrecy::Secret, Secrecy::Public] {
            match measure(&gpu, &mut rng, a.budget, digits, threads, secrecy) {
                Ok(row) => {
                    println!(
                        "| {} | {} | {} | {} | {} | {} | {}{} | {:.0} | {:.1}% |",
                        32 * digits,
                        threads,
                        kind(secrecy),
                        row.registers,
                        row.local_bytes,
                        row.wave,
                        row.exp_bits,
                        if row.exp_bits != row.full_bits { " (scaled)" } else { "" },
                        row.rate,
                        100.0 * fraction(&row)
                    );
                    if let Some(f) = out.as_mut() {
                        let _ = writeln!(f, "{}", json(&row));
                    }
                    rows.push(row);
                }
                Err(e) => {
                    failed = true;
                    println!("| {} | {threads} | {} | FAILED: {e} |", 32 * digits, kind(secrecy));
                }
            }
        }
    }
    // The fastest schedule per class and kind.
    let mut spec = Vec::new();
    for &digits in &a.classes {
        for secrecy in [Secrecy::Secret, Secrecy::Public] {
            if let Some(best) = rows
                .iter()
                .filter(|r| r.digits == digits && r.secrecy == secrecy)
                .max_by(|x, y| x.rate.total_cmp(&y.rate))
            {
                let suffix = &kind(secrecy)[..1];
                spec.push(format!("{digits}{suffix}:{}", best.threads));
            }
        }
    }
    println!("fastest plan: REDC_CUDA_THREADS={}", spec.join(","));
    if failed {
        std::process::ExitCode::FAILURE
    } else {
        std::process::ExitCode::SUCCESS
    }
}
