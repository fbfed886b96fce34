//! The GPU runtime's entry points in every build: without the `cuda`
//! feature they refuse with `NotBuilt`; with it and no driver, with
//! `NoDriver`; with a GPU, every class and schedule agrees with num-bigint.
//! (The GPU checks print `SKIPPED: <reason>` where there is no GPU.)

#![allow(clippy::print_stdout)] // the SKIPPED lines

mod common;

use common::{digits_of, n0inv};
use num_bigint::BigUint;
use num_traits::{One, Zero};
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use redc::engine::device::{Device, DeviceBatch};
use redc_cuda::{CLASSES as DIGIT_CLASSES, CudaError, Gpu, Secrecy};

#[cfg(not(feature = "cuda"))]
#[test]
fn without_the_feature_every_entry_point_says_how_to_build_it() {
    assert_eq!(redc_cuda::probe(), Err(CudaError::NotBuilt));
    assert_eq!(Gpu::open(None, None).unwrap_err(), CudaError::NotBuilt);
    assert_eq!(Gpu::open(Some("8"), None).unwrap_err(), CudaError::NotBuilt);
    let dir = std::env::temp_dir();
    assert_eq!(redc_cuda::precompile(&dir, 9, 0), Err(CudaError::NotBuilt));
    let message = CudaError::NotBuilt.to_string();
    assert!(
        message.contains("--features cuda") && message.contains("redc-cli"),
        "{message}"
    );
}

/// Whether the driver library can be loaded under its usual names.
#[cfg(feature = "cuda")]
fn driver_loads() -> bool {
    ["libcuda.so.1", "libcuda.so"].into_iter().any(|name| {
        #[allow(unsafe_code)]
        // SAFETY: loading the NVIDIA driver library runs only its own
        // initialisers; it is unloaded when the handle drops.
        unsafe { libloading::Library::new(name) }.is_ok()
    })
}

#[cfg(feature = "cuda")]
#[test]
fn with_the_feature_a_missing_piece_is_named_not_a_panic() {
    let Err(error) = redc_cuda::probe() else {
        println!("SKIPPED: a GPU is present (the oracle tests cover it)");
        return;
    };
    assert_eq!(Gpu::open(None, None).unwrap_err(), error);
    if !driver_loads() {
        assert!(matches!(error, CudaError::NoDriver(_)), "{error:?}");
        assert!(error.to_string().contains("libcuda.so.1"), "{error}");
    }
    assert!(
        matches!(
            error,
            CudaError::NoDriver(_) | CudaError::NoDevice(_) | CudaError::NoNvrtc(_)
        ),
        "{error:?}"
    );
}

/// The GPU with the kernel cache of `REDC_CUDA_CACHE` (or the user's), or
/// `None` after printing why the test is skipped.
fn gpu() -> Option<Gpu> {
    if let Err(error) = redc_cuda::probe() {
        println!("SKIPPED: {error}");
        return None;
    }
    let cache = redc_cuda::cache_dir(|name| std::env::var_os(name));
    match Gpu::open(None, cache.as_deref()) {
        Ok(gpu) => Some(gpu),
        Err(error) => panic!("probe found a GPU but it does not open: {error}"),
    }
}

/// Jobs of one class in num-bigint form, with their expected results.
struct Jobs {
    digits: usize,
    exp_bits: usize,
    n: Vec<BigUint>,
    base: Vec<BigUint>,
    exp: Vec<BigUint>,
    want: Vec<BigUint>,
}

fn random(rng: &mut ChaCha8Rng, bits: usize) -> BigUint {
    let words: Vec<u32> = (0..bits.div_ceil(32)).map(|_| rng.next_u32()).collect();
    BigUint::from_slice(&words) & ((BigUint::one() << bits) - 1u32)
}

/// `count` jobs of `digits`-digit moduli (the top bit set or not, and
/// some small ones) with `exp_bits`-bit exponents, the edge cases first:
/// base 0, 1 and n - 1, exponent 0, 1 and all ones.
fn jobs(seed: u64, digits: usize, exp_bits: usize, count: usize) -> Jobs {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut jobs = Jobs {
        digits,
        exp_bits,
        n: vec![],
        base: vec![],
        exp: vec![],
        want: vec![],
    };
    for j in 0..count {
        let n_bits = [32 * digits, 32 * digits - 1, 32 * digits - 45, 2, 70][j % 5];
        let n = random(&mut rng, n_bits) | (BigUint::one() << (n_bits - 1)) | BigUint::one();
        let base = match j {
            0 => BigUint::zero(),
            1 => BigUint::one(),
            2 => &n - 1u32,
            _ => random(&mut rng, 32 * digits) % &n,
        };
        let all_ones = (BigUint::one() << exp_bits) - 1u32;
        let exp = match j {
            3 => BigUint::zero(),
            4 => BigUint::one().min(all_ones.clone()),
            5 => all_ones,
            _ => random(&mut rng, exp_bits),
        };
        jobs.want.push(base.modpow(&exp, &n));
        jobs.n.push(n);
        jobs.base.push(base);
        jobs.exp.push(exp);
    }
    jobs
}

/// The jobs in the kernels' layout: little-endian 32-bit digits, job
/// after job, exponents of `exp_bits.div_ceil(32) + 1` words (one more
/// than needed).
struct Flat {
    digits: usize,
    exp_words: usize,
    exp_bits: usize,
    modulus: Vec<u32>,
    n0inv: Vec<u32>,
    r2: Vec<u32>,
    base: Vec<u32>,
    exp: Vec<u32>,
}

impl Flat {
    fn new(jobs: &Jobs) -> Flat {
        let (digits, exp_words) = (jobs.digits, jobs.exp_bits.div_ceil(32) + 1);
        let flat = |xs: &[BigUint], len: usize| -> Vec<u32> { xs.iter().flat_map(|x| digits_of(x, len)).collect() };
        let r2: Vec<BigUint> = jobs.n.iter().map(|n| (BigUint::one() << (64 * digits)) % n).collect();
        Flat {
            digits,
            exp_words,
            exp_bits: jobs.exp_bits,
            modulus: flat(&jobs.n, digits),
            n0inv: jobs.n.iter().map(n0inv).collect(),
            r2: flat(&r2, digits),
            base: flat(&jobs.base, digits),
            exp: flat(&jobs.exp, exp_words),
        }
    }

    fn batch(&self) -> DeviceBatch<'_> {
        DeviceBatch {
            digits: self.digits,
            count: self.n0inv.len(),
            modulus: &self.modulus,
            n0inv: &self.n0inv,
            r2: &self.r2,
            base: &self.base,
            exp: &self.exp,
            exp_words: self.exp_words,
            exp_bits: self.exp_bits,
        }
    }
}

/// The results `out` of `jobs` are the oracle's.
fn assert_agrees(jobs: &Jobs, out: &[u32], what: &str) {
    let digits = jobs.digits;
    assert_eq!(out.len(), jobs.want.len() * digits, "{what}");
    for (j, want) in jobs.want.iter().enumerate() {
        let got = BigUint::from_slice(&out[j * digits..(j + 1) * digits]);
        assert_eq!(&got, want, "{what}, exp_bits={}, job {j}", jobs.exp_bits);
    }
}

/// Run `jobs` on `threads` threads per number and compare with the oracle.
fn check(gpu: &Gpu, jobs: &Jobs, threads: usize, secrecy: Secrecy) {
    let what = format!("T={threads} N={} {secrecy:?}", jobs.digits);
    let flat = Flat::new(jobs);
    let out = gpu
        .pow_with(threads, secrecy, &flat.batch())
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    assert_agrees(jobs, &out, &what);
}

#[test]
fn every_class_and_schedule_agrees_with_num_bigint() {
    let Some(gpu) = gpu() else { return };
    let pairs: Vec<(usize, usize)> = DIGIT_CLASSES
        .into_iter()
        .flat_map(|n| {
            [1, 4, 8, 16, 32]
                .into_iter()
                .filter(move |t| n % t == 0)
                .map(move |t| (t, n))
        })
        .collect();
    gpu.compile(&pairs).unwrap();
    for (seed, digits) in (1..).zip(DIGIT_CLASSES) {
        for exp_bits in [0, 1, 17, 32 * digits] {
            let jobs = jobs(seed, digits, exp_bits, 11);
            for threads in [1, 4, 8, 16, 32].into_iter().filter(|t| digits % t == 0) {
                for secrecy in [Secrecy::Secret, Secrecy::Public] {
                    check(&gpu, &jobs, threads, secrecy);
                }
            }
        }
    }
}

#[test]
fn a_batch_of_several_waves_comes_back_in_order() {
    let Some(gpu) = gpu() else { return };
    // At most 2048 resident threads per SM (sm_70 to sm_90): three times
    // that many jobs take at least three launches, hence every lane.
    let threads = 16;
    let count = 3 * gpu.info().sm_count as usize * 2048 / threads;
    let jobs = jobs(99, 16, 8, count);
    for secrecy in [Secrecy::Secret, Secrecy::Public] {
        check(&gpu, &jobs, threads, secrecy);
    }
}

#[test]
fn the_plan_runs_through_the_device_interface() {
    let Some(gpu) = gpu() else { return };
    assert_eq!(gpu.describe(), gpu.info().describe());
    let jobs = jobs(7, 32, 64, 5);
    let flat = Flat::new(&jobs);
    let batch = flat.batch();
    assert_agrees(&jobs, &gpu.pow(&batch).unwrap(), "the plan");
    assert_agrees(&jobs, &gpu.pow_vartime(&batch).unwrap(), "the plan, public kernels");
    assert!(
        gpu.pow_with(3, Secrecy::Secret, &batch).is_err(),
        "no kernel has 3 threads per number"
    );
    assert!(
        gpu.pow_with(32, Secrecy::Secret, &DeviceBatch { count: 6, ..batch })
            .is_err(),
        "arrays too short"
    );
    for secrecy in [Secrecy::Secret, Secrecy::Public] {
        let threads = gpu.threads(32, secrecy).unwrap();
        let report = gpu.kernel_report(threads, 32, secrecy).unwrap();
        assert!(report.registers > 0 && report.wave > 0, "{report:?}");
    }
}

/// After a secret batch nothing of it is left in the staging memory, on
/// the device or in pinned host memory; after a public batch the same
/// readback finds its data (so the check can fail).
#[test]
fn secret_staging_memory_is_wiped_on_the_device_and_the_host() {
    let Some(gpu) = gpu() else { return };
    let jobs = jobs(11, 64, 2048, 300);
    let flat = Flat::new(&jobs);
    assert_agrees(&jobs, &gpu.pow(&flat.batch()).unwrap(), "secret");
    assert_eq!(gpu.leftover_words().unwrap(), 0, "secret words left after the batch");
    assert_agrees(&jobs, &gpu.pow_vartime(&flat.batch()).unwrap(), "public");
    let left = gpu.leftover_words().unwrap();
    assert!(
        left > 300 * 64,
        "the readback saw {left} nonzero words of a public batch"
    );
    assert_agrees(&jobs, &gpu.pow(&flat.batch()).unwrap(), "secret again");
    assert_eq!(
        gpu.leftover_words().unwrap(),
        0,
        "a secret batch wipes a public one's words too"
    );
}
