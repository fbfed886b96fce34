//! The runtime of a build with the `cuda` feature: GPU 0 through cudarc,
//! the kernels compiled by NVRTC, batches cut into launches that overlap
//! their copies with other launches' kernels on a few streams.
//!
//! cudarc panics when it cannot load `libcuda` or `libnvrtc`, so both are
//! probed before its first call, and their absence becomes a [`CudaError`].

use crate::cache::Cache;
use crate::layout::{self, Layout};
use crate::plan::{self, BLOCK_THREADS, Plan};
use crate::{CudaError, DeviceInfo, KernelReport, Secrecy, nvrtc};
use cudarc::driver::sys::{CUdevice_attribute, CUresult};
use cudarc::driver::{
    CudaContext, CudaFunction, CudaSlice, CudaStream, DriverError, LaunchConfig, PinnedHostSlice, PushKernelArg, result,
};
use cudarc::nvrtc::Ptx;
use redc::engine::device::{DeviceBatch, DeviceError};
use std::collections::HashMap;
use std::ops::Range;
use std::path::Path;
use std::sync::{Arc, Mutex, PoisonError};
use zeroize::{Zeroize, Zeroizing};

/// Streams a batch's launches rotate over: while one launch computes, the
/// next one's inputs and the previous one's results cross the bus.
const LANES: usize = 3;

/// The oldest compute capability the kernels support (warp shuffles with
/// masks, independent thread scheduling).
const MIN_CC_MAJOR: u32 = 7;

/// A driver error as a [`CudaError::Device`] naming the failed call.
fn driver(call: &'static str) -> impl FnOnce(DriverError) -> CudaError {
    move |e| CudaError::Device(format!("{call}: {e}"))
}

/// A driver error as a [`DeviceError`] naming the failed call.
fn device(call: &'static str) -> impl FnOnce(DriverError) -> DeviceError {
    move |e| DeviceError(format!("CUDA: {call}: {e}"))
}

/// Whether the driver library loads, else [`CudaError::NoDriver`].
fn driver_library() -> Result<(), CudaError> {
    #[allow(unsafe_code)]
    // SAFETY: loads (and unloads) the library by name, running its
    // initialisers, which is what cudarc's own first call does.
    let present = unsafe { cudarc::driver::sys::is_culib_present() };
    if present {
        Ok(())
    } else {
        Err(CudaError::NoDriver(format!(
            "the NVIDIA driver library libcuda.so.1 is not installed (tried {})",
            nvrtc::candidates("cuda")
        )))
    }
}

/// Device 0's description after checking, in order: the driver library,
/// `cuInit`, a device, compute capability 7.0 or newer, NVRTC. Creates no
/// context.
pub(crate) fn probe() -> Result<DeviceInfo, CudaError> {
    driver_library()?;
    result::init().map_err(|e| match e.0 {
        CUresult::CUDA_ERROR_NO_DEVICE => CudaError::NoDevice(format!("cuInit: {e}")),
        _ => CudaError::NoDriver(format!("cuInit: {e}")),
    })?;
    let count = result::device::get_count().map_err(driver("cuDeviceGetCount"))?;
    if count < 1 {
        return Err(CudaError::NoDevice("the CUDA driver sees no GPU".to_owned()));
    }
    let dev = result::device::get(0).map_err(driver("cuDeviceGet"))?;
    let attribute = |attribute: CUdevice_attribute| -> Result<u32, CudaError> {
        #[allow(unsafe_code)]
        // SAFETY: `dev` is a device handle the driver just returned.
        let value = unsafe { result::device::get_attribute(dev, attribute) }.map_err(driver("cuDeviceGetAttribute"))?;
        u32::try_from(value).map_err(|_| CudaError::Device(format!("cuDeviceGetAttribute({attribute:?}) = {value}")))
    };
    let info = DeviceInfo {
        name: result::device::get_name(dev).map_err(driver("cuDeviceGetName"))?,
        sm_count: attribute(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)?,
        cc_major: attribute(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)?,
        cc_minor: attribute(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)?,
        // Deprecated in CUDA 13: 0 (unknown) where the driver no longer
        // answers, rather than no GPU.
        clock_khz: attribute(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_CLOCK_RATE).unwrap_or(0),
    };
    if info.cc_major < MIN_CC_MAJOR {
        return Err(CudaError::NoDevice(format!(
            "{} is older than sm_{MIN_CC_MAJOR}0, which the kernels need",
            info.describe()
        )));
    }
    nvrtc::library()?;
    Ok(info)
}

/// One compiled kernel, the jobs that fill every SM once with it, and
/// what the driver says of its resources.
#[derive(Debug)]
struct Kernel {
    function: CudaFunction,
    wave: usize,
    report: KernelReport,
}

/// The secret and public kernels of one `(threads, digits)`.
#[derive(Debug)]
struct Kernels {
    secret: Kernel,
    public: Kernel,
}

/// A stream with its staging buffers (pinned host memory and device
/// memory, grown on demand and kept between batches) and the jobs whose
/// results are in flight on it.
#[derive(Debug)]
struct Lane {
    stream: Arc<CudaStream>,
    staging: Option<Staging>,
    pending: Option<Range<usize>>,
}

#[derive(Debug)]
struct Staging {
    host_in: PinnedHostSlice<u32>,
    host_out: PinnedHostSlice<u32>,
    dev_in: CudaSlice<u32>,
    dev_out: CudaSlice<u32>,
}

/// GPU 0 with its context, compiled kernels and lanes.
#[derive(Debug)]
pub(crate) struct Runtime {
    info: DeviceInfo,
    ctx: Arc<CudaContext>,
    plan: Plan,
    /// NVRTC's `--gpu-architecture` for this GPU (`sm_90`).
    arch: String,
    cache: Option<Cache>,
    kernels: Mutex<HashMap<(usize, usize), Arc<Kernels>>>,
    lanes: Mutex<Vec<Lane>>,
}

impl Runtime {
    /// Probe, create the context and the streams, compile the plan's
    /// kernels (in parallel, through the cache in `cache` when given).
    pub(crate) fn open(plan: Plan, cache: Option<&Path>) -> Result<Runtime, CudaError> {
        let info = probe()?;
        let arch = nvrtc::target(info.cc_major, info.cc_minor)?;
        let ctx = CudaContext::new(0).map_err(driver("cuDevicePrimaryCtxRetain (device 0)"))?;
        let lanes = (0..LANES)
            .map(|_| {
                let stream = ctx.new_stream().map_err(driver("cuStreamCreate"))?;
                Ok(Lane {
                    stream,
                    staging: None,
                    pending: None,
                })
            })
            .collect::<Result<Vec<_>, CudaError>>()?;
        let runtime = Runtime {
            info,
            ctx,
            plan,
            arch,
            cache: cache.map(Cache::new),
            kernels: Mutex::new(HashMap::new()),
            lanes: Mutex::new(lanes),
        };
        runtime.compile(&runtime.plan.entries())?;
        Ok(runtime)
    }

    pub(crate) fn info(&self) -> &DeviceInfo {
        &self.info
    }

    /// Threads per number the plan gives a class of `digits` digits.
    pub(crate) fn threads(&self, digits: usize, secrecy: Secrecy) -> Option<usize> {
        self.plan.threads(digits, secrecy)
    }

    /// The plan as a `REDC_CUDA_THREADS` spec.
    pub(crate) fn plan_spec(&self) -> String {
        self.plan.spec()
    }

    /// Compile (in parallel) and load the kernels of every pair of `pairs`
    /// not loaded yet.
    pub(crate) fn compile(&self, pairs: &[(usize, usize)]) -> Result<(), CudaError> {
        let mut missing: Vec<(usize, usize)> = {
            let cache = self.kernels.lock().unwrap_or_else(PoisonError::into_inner);
            pairs.iter().copied().filter(|p| !cache.contains_key(p)).collect()
        };
        missing.sort_unstable();
        missing.dedup();
        let modules = nvrtc::modules(&missing, &self.arch, self.cache.as_ref())?;
        for ((threads, digits), module) in missing.into_iter().zip(modules) {
            let kernels = match self.load(module.bytes, threads, digits) {
                Ok(kernels) => kernels,
                // A cached module the driver refuses: compiled again, and
                // the entry replaced.
                Err(_) if module.cached => {
                    let fresh = nvrtc::module((threads, digits), &self.arch, None)?;
                    if let Some(cache) = &self.cache {
                        nvrtc::store(cache, (threads, digits), &self.arch, &fresh.bytes)?;
                    }
                    self.load(fresh.bytes, threads, digits)?
                }
                Err(e) => return Err(e),
            };
            let kernels = Arc::new(kernels);
            self.kernels
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .insert((threads, digits), kernels);
        }
        Ok(())
    }

    /// The secret and public kernels of `(threads, digits)` from `module`
    /// (CUBIN or PTX), with their waves and resources.
    fn load(&self, module: Vec<u8>, threads: usize, digits: usize) -> Result<Kernels, CudaError> {
        let module = self
            .ctx
            .load_module(Ptx::from_binary(module))
            .map_err(driver("cuModuleLoadData"))?;
        let kernel = |secrecy: Secrecy| -> Result<Kernel, CudaError> {
            let name = plan::entry_name(threads, digits, secrecy);
            let function = module
                .load_function(&name)
                .map_err(|e| CudaError::Device(format!("cuModuleGetFunction({name}): {e}")))?;
            let blocks = function
                .occupancy_max_active_blocks_per_multiprocessor(BLOCK_THREADS as u32, 0, None)
                .map_err(driver("cuOccupancyMaxActiveBlocksPerMultiprocessor"))?;
            if blocks == 0 {
                return Err(CudaError::Device(format!(
                    "{name} cannot run {BLOCK_THREADS} threads per block"
                )));
            }
            let wave = self.info.sm_count as usize * blocks as usize * (BLOCK_THREADS / threads);
            let attribute = |value: Result<i32, DriverError>| {
                value
                    .map(|v| usize::try_from(v).unwrap_or(0))
                    .map_err(driver("cuFuncGetAttribute"))
            };
            let report = KernelReport {
                name,
                registers: attribute(function.num_regs())?,
                local_bytes: attribute(function.local_size_bytes())?,
                blocks_per_sm: blocks as usize,
                wave,
            };
            Ok(Kernel { function, wave, report })
        };
        Ok(Kernels {
            secret: kernel(Secrecy::Secret)?,
            public: kernel(Secrecy::Public)?,
        })
    }

    /// The kernels of `(threads, digits)`, compiled now if not yet.
    fn kernels(&self, threads: usize, digits: usize) -> Result<Arc<Kernels>, CudaError> {
        if let Some(kernels) = self
            .kernels
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(&(threads, digits))
        {
            return Ok(Arc::clone(kernels));
        }
        self.compile(&[(threads, digits)])?;
        self.kernels
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(&(threads, digits))
            .cloned()
            .ok_or_else(|| CudaError::Device(format!("no kernels for ({threads}, {digits})")))
    }

    /// The driver's report on the kernel of `(threads, digits, secrecy)`,
    /// compiled now if not yet.
    pub(crate) fn report(&self, threads: usize, digits: usize, secrecy: Secrecy) -> Result<KernelReport, CudaError> {
        if !plan::is_valid(threads, digits) {
            return Err(CudaError::Config(format!(
                "no kernel runs {digits} digits on {threads} threads per number"
            )));
        }
        let kernels = self.kernels(threads, digits)?;
        Ok(match secrecy {
            Secrecy::Secret => kernels.secret.report.clone(),
            Secrecy::Public => kernels.public.report.clone(),
        })
    }

    /// Nonzero words left in every lane's staging memory, device and host:
    /// zero after a secret batch (what the device tests read back).
    pub(crate) fn leftover_words(&self) -> Result<usize, DeviceError> {
        let lanes = self.lanes.lock().unwrap_or_else(PoisonError::into_inner);
        let mut count = 0;
        for lane in lanes.iter() {
            let Some(staging) = lane.staging.as_ref() else {
                continue;
            };
            for buffer in [&staging.dev_in, &staging.dev_out] {
                let words = Zeroizing::new(lane.stream.clone_dtoh(buffer).map_err(device("cuMemcpyDtoH"))?);
                count += words.iter().filter(|&&w| w != 0).count();
            }
            for buffer in [&staging.host_in, &staging.host_out] {
                let words = buffer.as_slice().map_err(device("cuEventSynchronize"))?;
                count += words.iter().filter(|&&w| w != 0).count();
            }
        }
        Ok(count)
    }

    /// `base^exp mod n` for every job of `batch`, `threads` threads per
    /// number (`None`: the plan's). Afterwards every lane is idle, and for
    /// a secret batch its staging memory, host and device, is zero.
    pub(crate) fn pow(
        &self,
        threads: Option<usize>,
        secrecy: Secrecy,
        batch: &DeviceBatch<'_>,
    ) -> Result<Zeroizing<Vec<u32>>, DeviceError> {
        layout::check(batch)?;
        // The plan has every class, and no kernel has 0 threads.
        let threads = threads.or(self.plan.threads(batch.digits, secrecy)).unwrap_or(0);
        if !plan::is_valid(threads, batch.digits) {
            return Err(DeviceError(format!(
                "no kernel runs {} digits on {threads} threads per number",
                batch.digits
            )));
        }
        let mut out = Zeroizing::new(vec![0u32; batch.count * batch.digits]);
        if batch.count == 0 {
            return Ok(out);
        }
        let kernels = self.kernels(threads, batch.digits)?;
        let kernel = match secrecy {
            Secrecy::Secret => &kernels.secret,
            Secrecy::Public => &kernels.public,
        };
        let mut lanes = self.lanes.lock().unwrap_or_else(PoisonError::into_inner);
        let run = self.run(&mut lanes, kernel, threads, batch, &mut out);
        let settled = settle(&mut lanes, secrecy);
        run.and(settled)?;
        Ok(out)
    }

    /// Launch after launch of [`plan::chunk_jobs`] jobs, round robin over
    /// the lanes; a lane's previous results are collected into `out`
    /// before it takes the next launch, and all of them at the end.
    fn run(
        &self,
        lanes: &mut [Lane],
        kernel: &Kernel,
        threads: usize,
        batch: &DeviceBatch<'_>,
        out: &mut [u32],
    ) -> Result<(), DeviceError> {
        let chunk = plan::chunk_jobs(batch.count, kernel.wave);
        let largest = Layout {
            jobs: chunk,
            digits: batch.digits,
            exp_words: batch.exp_words,
        };
        for (index, start) in (0..batch.count).step_by(chunk).enumerate() {
            let lane = &mut lanes[index % lanes.len()];
            lane.collect(batch.digits, out)?;
            let staging = match lane.staging.take() {
                Some(staging) if staging.fits(&largest) => staging,
                old => {
                    drop(old);
                    Staging::new(&self.ctx, &lane.stream, &largest)?
                }
            };
            let staging = lane.staging.insert(staging);
            let jobs = start..batch.count.min(start + chunk);
            submit(&lane.stream, staging, kernel, threads, batch, jobs.clone())?;
            lane.pending = Some(jobs);
        }
        lanes.iter_mut().try_for_each(|lane| lane.collect(batch.digits, out))
    }
}

impl Lane {
    /// Wait for this lane's launch, if any, and copy its results into
    /// their place in `out` (`digits` words per job).
    fn collect(&mut self, digits: usize, out: &mut [u32]) -> Result<(), DeviceError> {
        let (Some(jobs), Some(staging)) = (self.pending.take(), self.staging.as_ref()) else {
            return Ok(());
        };
        self.stream.synchronize().map_err(device("cuStreamSynchronize"))?;
        let results = staging.host_out.as_slice().map_err(device("cuEventSynchronize"))?;
        out[jobs.start * digits..jobs.end * digits].copy_from_slice(&results[..jobs.len() * digits]);
        Ok(())
    }
}

impl Staging {
    /// Zeroed buffers for launches of up to `layout`'s size on `stream`.
    fn new(ctx: &Arc<CudaContext>, stream: &Arc<CudaStream>, layout: &Layout) -> Result<Staging, DeviceError> {
        let (input, output) = (layout.input_words(), layout.output_words());
        Ok(Staging {
            host_in: pinned(ctx, input)?,
            host_out: pinned(ctx, output)?,
            dev_in: stream.alloc_zeros(input).map_err(device("cuMemAlloc"))?,
            dev_out: stream.alloc_zeros(output).map_err(device("cuMemAlloc"))?,
        })
    }

    /// Whether launches of `layout`'s size fit.
    fn fits(&self, layout: &Layout) -> bool {
        self.host_in.len() >= layout.input_words() && self.host_out.len() >= layout.output_words()
    }
}

/// `len` words of zeroed page-locked host memory.
fn pinned(ctx: &Arc<CudaContext>, len: usize) -> Result<PinnedHostSlice<u32>, DeviceError> {
    #[allow(unsafe_code)]
    // SAFETY: the memory is uninitialised until `write_bytes` zeroes all
    // `len` words through the raw pointer; no reference is formed before.
    unsafe {
        let mut memory = ctx
            .alloc_pinned_with_flags::<u32>(len, 0)
            .map_err(device("cuMemHostAlloc"))?;
        let ptr = memory.as_mut_ptr().map_err(device("cuEventSynchronize"))?;
        std::ptr::write_bytes(ptr, 0, len);
        Ok(memory)
    }
}

/// Queue jobs `jobs` of `batch` on `stream`: pack them into the pinned
/// input, copy it to the device, launch `kernel`, copy the results back
/// into the pinned output. Asynchronous: the results are in
/// `staging.host_out` once the stream is synchronised. The stream must be
/// idle and `staging` large enough for the jobs.
fn submit(
    stream: &Arc<CudaStream>,
    staging: &mut Staging,
    kernel: &Kernel,
    threads: usize,
    batch: &DeviceBatch<'_>,
    jobs: Range<usize>,
) -> Result<(), DeviceError> {
    let layout = Layout {
        jobs: jobs.len(),
        digits: batch.digits,
        exp_words: batch.exp_words,
    };
    let (input, output) = (layout.input_words(), layout.output_words());
    let too_small = || DeviceError(format!("staging smaller than {input} + {output} words"));
    let host_in = staging.host_in.as_mut_slice().map_err(device("cuEventSynchronize"))?;
    let host_in = host_in.get_mut(..input).ok_or_else(too_small)?;
    layout::pack(batch, jobs, host_in);
    // The pinned memory is passed as a plain slice (cudarc's pinned type
    // copies only whole buffers); the driver still sees page-locked memory
    // and copies asynchronously, and nothing touches it before the stream
    // is synchronised.
    let mut dev_in = staging.dev_in.try_slice_mut(..input).ok_or_else(too_small)?;
    stream
        .memcpy_htod(&*host_in, &mut dev_in)
        .map_err(device("cuMemcpyHtoDAsync"))?;

    let [modulus, n0inv, r2, base, exp] = layout.sections().map(|range| staging.dev_in.try_slice(range));
    let (Some(modulus), Some(n0inv), Some(r2), Some(base), Some(exp)) = (modulus, n0inv, r2, base, exp) else {
        return Err(too_small());
    };
    let u32_of = |x: usize| u32::try_from(x).map_err(|_| DeviceError(format!("{x} exceeds a kernel parameter")));
    let (count, exp_words, exp_bits) = (u32_of(layout.jobs)?, u32_of(batch.exp_words)?, u32_of(batch.exp_bits)?);
    let config = LaunchConfig {
        grid_dim: (u32_of((layout.jobs * threads).div_ceil(BLOCK_THREADS))?, 1, 1),
        block_dim: (BLOCK_THREADS as u32, 1, 1),
        shared_mem_bytes: 0,
    };
    let mut launch = stream.launch_builder(&kernel.function);
    launch.arg(&modulus).arg(&n0inv).arg(&r2).arg(&base).arg(&exp);
    launch
        .arg(&mut staging.dev_out)
        .arg(&count)
        .arg(&exp_words)
        .arg(&exp_bits);
    #[allow(unsafe_code)]
    // SAFETY: the arguments match the kernel ABI (five input arrays of
    // `count` jobs, the output array, then count, exp_words, exp_bits),
    // every array holds `count` jobs' words, and the grid covers
    // `count * threads` threads (the surplus of the last block computes on
    // the last job and does not write).
    unsafe { launch.launch(config) }.map_err(device("cuLaunchKernel"))?;

    let dev_out = staging.dev_out.try_slice(..output).ok_or_else(too_small)?;
    let host_out = staging.host_out.as_mut_slice().map_err(device("cuEventSynchronize"))?;
    let host_out = host_out.get_mut(..output).ok_or_else(too_small)?;
    stream
        .memcpy_dtoh(&dev_out, host_out)
        .map_err(device("cuMemcpyDtoHAsync"))
}

/// Wait for every lane and drop their pending results (a failed batch
/// leaves some); for a secret batch, zero their staging memory on the
/// device and the host. Every lane is settled even when one fails; the
/// first failure is returned.
fn settle(lanes: &mut [Lane], secrecy: Secrecy) -> Result<(), DeviceError> {
    let mut first = Ok(());
    for lane in lanes {
        let settled = settle_lane(lane, secrecy);
        if first.is_ok() {
            first = settled;
        }
    }
    first
}

/// [`settle`] for one lane.
fn settle_lane(lane: &mut Lane, secrecy: Secrecy) -> Result<(), DeviceError> {
    lane.pending = None;
    let Some(staging) = lane.staging.as_mut() else {
        return Ok(());
    };
    if secrecy == Secrecy::Secret {
        lane.stream
            .memset_zeros(&mut staging.dev_in)
            .map_err(device("cuMemsetD8Async"))?;
        lane.stream
            .memset_zeros(&mut staging.dev_out)
            .map_err(device("cuMemsetD8Async"))?;
    }
    lane.stream.synchronize().map_err(device("cuStreamSynchronize"))?;
    if secrecy == Secrecy::Secret {
        staging
            .host_in
            .as_mut_slice()
            .map_err(device("cuEventSynchronize"))?
            .zeroize();
        staging
            .host_out
            .as_mut_slice()
            .map_err(device("cuEventSynchronize"))?
            .zeroize();
    }
    Ok(())
}

/// Compile every kernel for a GPU of compute capability `major.minor`
/// into the cache in `dir` (no GPU needed, only NVRTC); the number of
/// modules.
pub(crate) fn precompile(dir: &Path, major: u32, minor: u32) -> Result<usize, CudaError> {
    nvrtc::library()?;
    let arch = nvrtc::target(major, minor)?;
    let pairs: Vec<(usize, usize)> = plan::valid_pairs().collect();
    nvrtc::modules(&pairs, &arch, Some(&Cache::new(dir))).map(|modules| modules.len())
}
