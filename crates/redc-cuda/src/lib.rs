//! redc's CUDA backend: batches of modular exponentiations on an NVIDIA GPU,
//! behind [`redc::engine::device::Device`].
//!
//! The papers take the products off the processor: to a dataflow engine
//! (000 §4, RSA on the Maxeler dataflow platform) or to an FPGA filled with
//! 320 small Montgomery cores (001, Ito, Nakano, Song, "The Parallel FDFM
//! Processor Core Approach for CRT-based RSA Decryption"). A GPU is today's
//! equivalent: thousands of 32-bit multipliers, each thread (or a group of
//! up to 32 threads) running one exponentiation of a batch.
//!
//! The kernels (`kernels/*.cuh`, `kernels/redc.cu`) are CUDA C++ compiled at
//! run time by NVRTC for the device found, and the driver and NVRTC are
//! loaded at run time too (cudarc with dynamic loading): a build with the
//! `cuda` feature needs no CUDA toolkit, and runs, without a GPU, with a
//! [`CudaError`] naming what is missing. Without the feature every entry
//! point returns [`CudaError::NotBuilt`]. The same kernels run on the host
//! in crate `redc-cuda-sim`, which tests their logic without a GPU.
//!
//! Use: [`Gpu::open`] and hand the [`Gpu`] to `Engine::with_device` (an
//! application may install that engine as redc's default). [`probe`] says
//! cheaply whether a GPU can be used. Only [`select`] reads the
//! environment (`REDC_BACKEND`, `REDC_CUDA_THREADS`, `REDC_CUDA_CACHE`):
//! the one engine resolver of the front ends. [`precompile`] fills a cache
//! ahead, on a machine with NVRTC and no GPU.

pub mod count;
pub mod select;

#[cfg_attr(not(feature = "cuda"), allow(dead_code))]
mod cache;
mod ceiling;
#[cfg_attr(not(feature = "cuda"), allow(dead_code))]
mod layout;
#[cfg_attr(not(feature = "cuda"), allow(dead_code))]
mod plan;
#[cfg_attr(not(feature = "cuda"), allow(dead_code))]
mod source;

#[cfg(not(feature = "cuda"))]
mod disabled;
#[cfg(feature = "cuda")]
mod enabled;
#[cfg(feature = "cuda")]
mod nvrtc;
#[cfg(not(feature = "cuda"))]
use disabled as imp;
#[cfg(feature = "cuda")]
use enabled as imp;

pub use ceiling::{INSTRUCTIONS_PER_PRODUCT, INT32_MULTIPLIES_PER_SM_CLOCK, ceiling};

use redc::engine::device::{Device, DeviceBatch, DeviceError};
use std::path::Path;
use zeroize::Zeroizing;

/// The size classes of the kernels, in 32-bit digits (512 to 4096 bits):
/// what a [`Gpu`] reports to the engine. A modulus runs in the smallest
/// class that holds it; larger moduli stay on the CPU.
pub const CLASSES: [usize; 6] = [16, 32, 48, 64, 96, 128];

/// Which kernels run a batch: the constant-time ones for secret exponents
/// (`redc_pow_t*_n*_s`: fixed windows, masked table reads) or the
/// variable-time ones for public exponents (`_p`). The engine chooses by
/// the function it calls ([`Device::pow`] or [`Device::pow_vartime`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Secrecy {
    /// Secret exponents and bases.
    Secret,
    /// Public exponents.
    Public,
}

/// Why the GPU cannot be used, naming what is missing.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CudaError {
    /// The crate was built without the `cuda` feature.
    #[error(
        "this redc was built without CUDA support; rebuild with `cargo build --release -p redc-cli --features cuda`"
    )]
    NotBuilt,
    /// The NVIDIA driver library (`libcuda.so.1`) is missing or `cuInit` failed.
    #[error("no CUDA driver: {0}")]
    NoDriver(String),
    /// The driver is there but offers no usable GPU.
    #[error("no usable GPU: {0}")]
    NoDevice(String),
    /// The runtime compiler library (`libnvrtc`) is missing.
    #[error(
        "NVRTC (the CUDA runtime compiler) not found: install the CUDA toolkit's libnvrtc or add its directory to LD_LIBRARY_PATH (tried {0})"
    )]
    NoNvrtc(String),
    /// NVRTC rejected the kernels: its log.
    #[error("NVRTC could not compile the kernels: {0}")]
    Compile(String),
    /// A bad threads-per-number plan (the CLI's `REDC_CUDA_THREADS`).
    #[error("bad CUDA configuration: {0}")]
    Config(String),
    /// A driver call failed (named in the message).
    #[error("CUDA: {0}")]
    Device(String),
}

impl From<CudaError> for DeviceError {
    fn from(e: CudaError) -> DeviceError {
        DeviceError(e.to_string())
    }
}

/// What the driver says about a GPU.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DeviceInfo {
    /// The product name, e.g. `NVIDIA H200`.
    pub name: String,
    /// Streaming multiprocessors.
    pub sm_count: u32,
    /// Compute capability, major part (9 for sm_90).
    pub cc_major: u32,
    /// Compute capability, minor part.
    pub cc_minor: u32,
    /// The peak SM clock in kHz.
    pub clock_khz: u32,
}

impl DeviceInfo {
    /// One line, e.g. `NVIDIA H200 (sm_90, 132 SMs, 1980 MHz)`.
    pub fn describe(&self) -> String {
        format!(
            "{} (sm_{}{}, {} SMs, {} MHz)",
            self.name,
            self.cc_major,
            self.cc_minor,
            self.sm_count,
            self.clock_khz / 1000
        )
    }
}

/// The description of the GPU [`Gpu::open`] would use, found cheaply (no
/// context, no compilation): what `auto` backends ask before choosing it.
/// Fails like [`Gpu::open`] when the driver, a GPU of compute capability
/// 7.0 or newer, or NVRTC is missing.
pub fn probe() -> Result<String, CudaError> {
    imp::probe().map(|info| info.describe())
}

/// What the driver says of one compiled kernel: its resources and how
/// many jobs fill the GPU once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KernelReport {
    /// The entry's name, `redc_pow_t{T}_n{N}_{s|p}`.
    pub name: String,
    /// Registers per thread.
    pub registers: usize,
    /// Local memory per thread in bytes (spills and arrays the registers
    /// could not hold).
    pub local_bytes: usize,
    /// Blocks of 128 threads resident on one SM.
    pub blocks_per_sm: usize,
    /// Jobs resident on the whole GPU at once.
    pub wave: usize,
}

/// The kernel cache directory of a process whose environment is `var`
/// (`|name| std::env::var_os(name)`): `REDC_CUDA_CACHE` when set (empty
/// turns the cache off), else `$XDG_CACHE_HOME/redc/cuda`, else
/// `$HOME/.cache/redc/cuda`, else none ([`select`] calls this with the
/// process's environment).
pub fn cache_dir(var: impl Fn(&str) -> Option<std::ffi::OsString>) -> Option<std::path::PathBuf> {
    let set = |name: &str| var(name).filter(|v| !v.is_empty()).map(std::path::PathBuf::from);
    if let Some(dir) = var("REDC_CUDA_CACHE") {
        return (!dir.is_empty()).then(|| dir.into());
    }
    set("XDG_CACHE_HOME")
        .or_else(|| set("HOME").map(|home| home.join(".cache")))
        .map(|base| base.join("redc").join("cuda"))
}

/// Compile every kernel for a GPU of compute capability `major.minor` into
/// the kernel cache in `dir`, without a GPU (only NVRTC is needed): what
/// [`Gpu::open`] with that cache then loads without compiling. Returns the
/// number of modules (one per `(threads, digits)` pair).
pub fn precompile(dir: &Path, major: u32, minor: u32) -> Result<usize, CudaError> {
    imp::precompile(dir, major, minor)
}

/// GPU 0, its kernels compiled for its architecture, ready to run batches.
#[derive(Debug)]
pub struct Gpu {
    runtime: imp::Runtime,
}

impl Gpu {
    /// Open GPU 0 and compile the kernels of the plan: the default
    /// schedule per size class and kind of kernel, changed by `threads`
    /// when given (threads per number: e.g. `64:8,32:1` for classes 64 and
    /// 32, `64s:8,64p:16` for class 64's secret and public kernels, or `8`
    /// as a cap for every class; what the CLI reads from
    /// `REDC_CUDA_THREADS`). With `cache`, compiled kernels are read from
    /// and written to that directory (created private to the user), so a
    /// machine compiles each kernel once.
    pub fn open(threads: Option<&str>, cache: Option<&Path>) -> Result<Gpu, CudaError> {
        let plan = match threads {
            Some(spec) => plan::Plan::parse(spec).map_err(|e| CudaError::Config(format!("threads {spec:?}: {e}")))?,
            None => plan::Plan::default_plan(),
        };
        imp::Runtime::open(plan, cache).map(|runtime| Gpu { runtime })
    }

    /// What the driver says about the GPU.
    pub fn info(&self) -> DeviceInfo {
        self.runtime.info().clone()
    }

    /// Threads per number the plan gives the `secrecy` kernels of a class
    /// of `digits` digits.
    pub fn threads(&self, digits: usize, secrecy: Secrecy) -> Option<usize> {
        self.runtime.threads(digits, secrecy)
    }

    /// The plan as a spec [`Gpu::open`] reads back (`16s:1,16p:1,...`).
    pub fn plan(&self) -> String {
        self.runtime.plan_spec()
    }

    /// Compile and load the kernels of `(threads, digits)` pairs not loaded
    /// yet, in parallel (so that later batches do not wait for NVRTC).
    pub fn compile(&self, pairs: &[(usize, usize)]) -> Result<(), CudaError> {
        self.runtime.compile(pairs)
    }

    /// What the driver says of the `secrecy` kernel of `threads` threads
    /// per number and `digits` digits (compiled now if not yet).
    pub fn kernel_report(&self, threads: usize, digits: usize, secrecy: Secrecy) -> Result<KernelReport, CudaError> {
        self.runtime.report(threads, digits, secrecy)
    }

    /// Nonzero words left in the staging memory of the GPU's streams, on
    /// the device and in pinned host memory. Zero after a secret batch
    /// (the secret kernels' inputs and outputs are wiped): what the device
    /// tests read back to check it.
    pub fn leftover_words(&self) -> Result<usize, DeviceError> {
        self.runtime.leftover_words()
    }

    /// Like [`Device::pow`] or [`Device::pow_vartime`] (by `secrecy`) with
    /// `threads` threads per number (one of 1, 4, 8, 16, 32 dividing
    /// `batch.digits`) instead of the plan's: to test or measure each
    /// schedule. The first use of a schedule outside the plan compiles its
    /// kernels.
    pub fn pow_with(
        &self,
        threads: usize,
        secrecy: Secrecy,
        batch: &DeviceBatch<'_>,
    ) -> Result<Zeroizing<Vec<u32>>, DeviceError> {
        self.runtime.pow(Some(threads), secrecy, batch)
    }
}

impl Device for Gpu {
    fn name(&self) -> &'static str {
        "cuda"
    }

    fn describe(&self) -> String {
        self.runtime.info().describe()
    }

    fn classes(&self) -> &[usize] {
        &CLASSES
    }

    fn pow(&self, batch: &DeviceBatch<'_>) -> Result<Zeroizing<Vec<u32>>, DeviceError> {
        self.runtime.pow(None, Secrecy::Secret, batch)
    }

    fn pow_vartime(&self, batch: &DeviceBatch<'_>) -> Result<Zeroizing<Vec<u32>>, DeviceError> {
        self.runtime.pow(None, Secrecy::Public, batch)
    }

    /// Enough jobs for every SM to hold its most resident threads (2048 on
    /// sm_70 to sm_90) at one thread per job.
    fn batch_size(&self) -> usize {
        self.runtime.info().sm_count as usize * 2048
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptions_name_the_architecture() {
        let info = DeviceInfo {
            name: "NVIDIA H200".into(),
            sm_count: 132,
            cc_major: 9,
            cc_minor: 0,
            clock_khz: 1_980_000,
        };
        assert_eq!(info.describe(), "NVIDIA H200 (sm_90, 132 SMs, 1980 MHz)");
    }

    #[test]
    fn the_cache_directory_follows_the_environment() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                pairs
                    .iter()
                    .find(|(k, _)| *k == name)
                    .map(|(_, v)| std::ffi::OsString::from(v))
            }
        };
        let path = |p: &str| Some(std::path::PathBuf::from(p));
        assert_eq!(cache_dir(env(&[("HOME", "/h")])), path("/h/.cache/redc/cuda"));
        assert_eq!(
            cache_dir(env(&[("HOME", "/h"), ("XDG_CACHE_HOME", "/x")])),
            path("/x/redc/cuda")
        );
        assert_eq!(cache_dir(env(&[("HOME", "/h"), ("REDC_CUDA_CACHE", "/c")])), path("/c"));
        assert_eq!(cache_dir(env(&[("HOME", "/h"), ("REDC_CUDA_CACHE", "")])), None);
        assert_eq!(cache_dir(env(&[("XDG_CACHE_HOME", "")])), None);
    }

    #[test]
    fn errors_convert_to_device_errors_with_their_message() {
        let e = CudaError::Device("cuLaunchKernel: out of resources".into());
        assert_eq!(DeviceError::from(e).0, "CUDA: cuLaunchKernel: out of resources");
    }
}
