//! redc's CUDA kernels (`crates/redc-cuda/kernels`) compiled for the host and
//! run on the CPU: a small shim turns the threads of a warp into fibers that
//! switch at every warp shuffle and ballot, so the very source that NVRTC
//! compiles for the GPU is tested here, on any machine, against an oracle.
//!
//! Slow by design (a fiber switch per shuffle per lane): for tests and for
//! checking the engine's device path, not for throughput.

use redc::engine::device::{Device, DeviceBatch, DeviceError};
use redc_cuda::{CLASSES, Secrecy};
use zeroize::Zeroizing;

// SAFETY: the declarations match host/sim.cpp's `extern "C"` definitions
// (u32 = unsigned, i32 = int, u64 = unsigned long long).
#[allow(unsafe_code)]
mod ffi {
    unsafe extern "C" {
        #[allow(clippy::too_many_arguments)]
        pub(crate) fn redc_sim_launch(
            threads: u32,
            digits: u32,
            secret: i32,
            block_threads: u32,
            modulus: *const u32,
            n0inv: *const u32,
            r2: *const u32,
            base: *const u32,
            exp: *const u32,
            out: *mut u32,
            count: u32,
            exp_words: u32,
            exp_bits: u32,
        ) -> i32;
        pub(crate) fn redc_sim_multiplies() -> u64;
        pub(crate) fn redc_sim_reset_multiplies();
    }
}

/// The threads-per-number choices of the kernels, largest first.
pub const THREADS: [usize; 5] = [32, 16, 8, 4, 1];

/// Why the simulator refused a batch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SimError {
    /// No kernel for this (threads per number, digits) pair.
    NoKernel {
        /// Threads per number.
        threads: usize,
        /// Digits per number.
        digits: usize,
    },
    /// A slice is shorter than the batch's shape says, or a size does not fit the kernels' 32-bit parameters.
    Shape(&'static str),
}

impl core::fmt::Display for SimError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            SimError::NoKernel { threads, digits } => {
                write!(
                    f,
                    "no simulated kernel for {threads} threads per number and {digits} digits"
                )
            }
            SimError::Shape(what) => write!(f, "batch shape: {what}"),
        }
    }
}

impl std::error::Error for SimError {}

/// Threads per block of a launch: 64, or 32 when the whole grid fits one warp.
pub fn block_threads(threads: usize, count: usize) -> usize {
    if count * threads <= 32 { 32 } else { 64 }
}

/// Thread groups (one job each) a launch runs: the grid rounded up to whole
/// blocks; the groups past `count` repeat the last job without writing.
pub fn groups_launched(threads: usize, count: usize) -> usize {
    let block = block_threads(threads, count);
    (count * threads).div_ceil(block) * block / threads
}

/// Runs kernel `redc_pow_t{threads}_n{digits}_{s|p}` (`s` for
/// [`Secrecy::Secret`]) on `batch` and returns
/// `base^exp mod n` for every job (`count * digits` words, each below its
/// modulus).
///
/// Pre: the preconditions of [`DeviceBatch`] (odd moduli, `base < n`, right
/// `n0inv` and `r2`, `exp < 2^exp_bits`); they are not checked, a violation
/// gives wrong numbers, not unsafety. The slice lengths are checked.
pub fn launch(threads: usize, secrecy: Secrecy, batch: &DeviceBatch<'_>) -> Result<Zeroizing<Vec<u32>>, SimError> {
    let (digits, count) = (batch.digits, batch.count);
    let numbers = count
        .checked_mul(digits)
        .ok_or(SimError::Shape("count * digits overflows"))?;
    let exp_len = count
        .checked_mul(batch.exp_words)
        .ok_or(SimError::Shape("count * exp_words overflows"))?;
    if count == 0 {
        return Err(SimError::Shape("no jobs"));
    }
    if batch.modulus.len() < numbers || batch.r2.len() < numbers || batch.base.len() < numbers {
        return Err(SimError::Shape("modulus, r2 or base shorter than count * digits"));
    }
    if batch.n0inv.len() < count || batch.exp.len() < exp_len {
        return Err(SimError::Shape("n0inv or exp shorter than the batch"));
    }
    if batch.exp_bits.div_ceil(32) > batch.exp_words {
        return Err(SimError::Shape("exp_bits exceeds exp_words"));
    }
    let small = |x: usize| u32::try_from(x).map_err(|_| SimError::Shape("a size exceeds u32"));
    let block = block_threads(threads, count);
    small(groups_launched(threads, count) * threads)?;
    let mut out = Zeroizing::new(vec![0u32; numbers]);
    // SAFETY: every pointer comes from a slice at least as long as the kernel
    // reads (checked above: count * digits words of modulus, r2, base and out,
    // count of n0inv, count * exp_words of exp, exp_bits within exp_words);
    // groups past `count` read job count - 1 and write nothing. The launcher
    // keeps no pointer after it returns.
    #[allow(unsafe_code)]
    let status = unsafe {
        ffi::redc_sim_launch(
            small(threads)?,
            small(digits)?,
            i32::from(secrecy == Secrecy::Secret),
            small(block)?,
            batch.modulus.as_ptr(),
            batch.n0inv.as_ptr(),
            batch.r2.as_ptr(),
            batch.base.as_ptr(),
            batch.exp.as_ptr(),
            out.as_mut_ptr(),
            small(count)?,
            small(batch.exp_words)?,
            small(batch.exp_bits)?,
        )
    };
    match status {
        0 => Ok(out),
        1 => Err(SimError::NoKernel { threads, digits }),
        _ => Err(SimError::Shape("the launcher refused the launch")),
    }
}

/// 32x32->64-bit products the kernels ran on this OS thread since the last
/// [`reset_multiplies`] (every simulated GPU thread included).
pub fn multiplies() -> u64 {
    // SAFETY: reads a thread-local counter; no arguments.
    #[allow(unsafe_code)]
    unsafe {
        ffi::redc_sim_multiplies()
    }
}

/// Sets this OS thread's product counter to zero.
pub fn reset_multiplies() {
    // SAFETY: writes a thread-local counter; no arguments.
    #[allow(unsafe_code)]
    unsafe {
        ffi::redc_sim_reset_multiplies()
    }
}

/// The kernels on the host as a [`Device`]: each class runs with the largest
/// thread count `<= threads` among [`THREADS`] that divides its digits.
#[derive(Debug, Clone, Copy)]
pub struct Sim {
    threads: usize,
}

impl Sim {
    /// A simulated device using up to `threads` threads per number (at least 1).
    pub fn new(threads: usize) -> Sim {
        Sim {
            threads: threads.max(1),
        }
    }

    /// Threads per number for a class of `digits` digits.
    pub fn threads_for(&self, digits: usize) -> usize {
        THREADS
            .into_iter()
            .find(|&t| t <= self.threads && digits.is_multiple_of(t))
            .unwrap_or(1)
    }
}

impl Device for Sim {
    /// The kernels are the CUDA backend's.
    fn name(&self) -> &'static str {
        "cuda"
    }

    fn describe(&self) -> String {
        format!(
            "redc CUDA kernels simulated on the host (up to {} threads per number)",
            self.threads
        )
    }

    fn classes(&self) -> &[usize] {
        &CLASSES
    }

    fn pow(&self, batch: &DeviceBatch<'_>) -> Result<Zeroizing<Vec<u32>>, DeviceError> {
        launch(self.threads_for(batch.digits), Secrecy::Secret, batch).map_err(|e| DeviceError(e.to_string()))
    }

    fn pow_vartime(&self, batch: &DeviceBatch<'_>) -> Result<Zeroizing<Vec<u32>>, DeviceError> {
        launch(self.threads_for(batch.digits), Secrecy::Public, batch).map_err(|e| DeviceError(e.to_string()))
    }
}
