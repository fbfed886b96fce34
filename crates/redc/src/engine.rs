//! The batch engine: many independent modular exponentiations at once,
//! spread over SIMD lanes and all cores.
//!
//! The papers get their speed from many multipliers working side by side:
//! the lanes of a pipelined multiplier (000_be478b6750af4540.txt Table 3),
//! 320 cores (001_24b3bbce8c558126.txt), systolic arrays (002, 004). On a
//! CPU the same idea is SIMD lanes and cores:
//!
//! - [`Backend::Scalar`]: portable 64-bit digits, one exponentiation per
//!   core at a time (size-specialised CIOS products, a dedicated squaring);
//! - [`Backend::Ifma`]: AVX-512 IFMA, eight exponentiations per vector, one
//!   per 64-bit lane, with 52-bit digits (multi-buffer; see [`ifma`]);
//! - [`Backend::Cuda`]: a GPU behind the [`device::Device`] interface
//!   (crate `redc-cuda`), whole size classes per kernel launch; moduli above
//!   the largest device class stay on the CPU.
//!
//! Jobs are grouped by size class into lane groups, and the groups are
//! spread over all cores with rayon. The backend is chosen at run time by
//! CPU feature detection ([`Engine::detect`]); `REDC_BACKEND=scalar|ifma`
//! overrides it ([`Engine::from_env`]). The IFMA code is reachable only
//! through a token that exists only after detection succeeded.
//!
//! Secrets: with [`Secrecy::Secret`] both backends run a fixed-window
//! schedule over a public exponent bound with constant-time table
//! selection, and constant-time products; [`Secrecy::Public`] allows
//! exponent-dependent shortcuts (RSA public operations).
//!
//! [`stream::Submitter`] fills the lanes from a stream of single requests
//! (the block streaming of 000 §4.2); [`default_engine`] is the process-wide
//! engine of `REDC_BACKEND`, chosen once.

pub mod device;
mod ifma;
mod scalar;
pub mod stream;

use crate::modpow::{PowOptions, modpow};
use crate::nat::Nat;
use device::{Device, DeviceBatch, DeviceCtx};
use rayon::prelude::*;
use std::sync::{Arc, OnceLock};
use zeroize::{Zeroize, Zeroizing};

/// A natural number with 64-bit digits, the engine's interface type.
pub type Num = Nat<u64>;

/// A way of computing products.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Backend {
    /// Portable 64-bit digits, one exponentiation per core at a time.
    Scalar,
    /// AVX-512 IFMA, eight exponentiations per vector.
    Ifma,
    /// An NVIDIA GPU, through the device registered by `redc-cuda`
    /// ([`device::register_device`]).
    Cuda,
}

impl Backend {
    /// Every backend.
    pub const ALL: [Backend; 3] = [Backend::Scalar, Backend::Ifma, Backend::Cuda];

    /// The name used by `REDC_BACKEND` and `--backend`.
    pub fn name(self) -> &'static str {
        match self {
            Backend::Scalar => "scalar",
            Backend::Ifma => "ifma",
            Backend::Cuda => "cuda",
        }
    }

    /// Parse a name given to `REDC_BACKEND` or `--backend`.
    pub fn parse(name: &str) -> Result<Backend, EngineError> {
        Backend::ALL
            .into_iter()
            .find(|b| b.name() == name)
            .ok_or_else(|| EngineError::UnknownBackend(name.to_owned()))
    }

    /// Can this machine run the backend? (For [`Backend::Cuda`]: has a
    /// device been registered?)
    pub fn is_available(self) -> bool {
        match self {
            Backend::Scalar => true,
            Backend::Ifma => ifma::Ifma::detect().is_some(),
            Backend::Cuda => device::registered_device().is_some(),
        }
    }
}

/// Why the engine cannot do what was asked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    /// A backend name that does not exist.
    #[error("unknown backend \"{0}\" (expected one of: auto, scalar, ifma, cuda)")]
    UnknownBackend(String),
    /// The CPU lacks the backend's instructions.
    #[error("backend \"{}\" is not available on this CPU (it needs AVX-512 IFMA)", .0.name())]
    Unavailable(Backend),
    /// [`Backend::Cuda`] was asked for, but no device is registered.
    #[error(
        "backend \"cuda\" has no device: none was registered (the redc CLI registers the GPU when built \
         with `--features cuda`; a library calls `redc_cuda::install()`)"
    )]
    NoDevice,
    /// The device failed to run a batch (its message says what failed).
    #[error("device: {0}")]
    Device(String),
    /// `n = 0`.
    #[error("modulus is zero")]
    ZeroModulus,
    /// A prepared modulus must be odd and at least 3.
    #[error("modulus must be odd and at least 3")]
    NotOddModulus,
    /// A base given to a prepared job must be below its modulus.
    #[error("base is not below the modulus")]
    BaseTooLarge,
    /// The exponent has more bits than the job's public bound.
    #[error("exponent has {bits} bits, more than the bound of {bound}")]
    ExponentTooLong {
        /// Bits of the exponent.
        bits: usize,
        /// The bound the job declared.
        bound: usize,
    },
    /// A [`stream::Submitter`] job whose answer was lost: its lane group
    /// stopped abnormally (a panic), so the answer will never come.
    #[error("the streaming submitter stopped before answering this job")]
    Stopped,
}

/// Is the exponent a secret?
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Secrecy {
    /// Constant time in the exponent: fixed windows over the job's public
    /// bound, every table entry read for every window.
    Secret,
    /// Variable time allowed: windows of zeros skipped (public exponents
    /// such as `e = 65537`).
    Public,
}

/// An odd modulus `n >= 3` with the constants every backend needs, computed
/// once and shared by any number of jobs (an RSA key's `p`, `q` and `n`).
///
/// Preparing takes a division (for `R^2 mod n`) whose time depends on `n`;
/// prepare secret moduli once, at key load.
pub struct Prepared {
    n: Num,
    scalar: scalar::Ctx,
    ifma: Option<ifma::Ctx>,
    device: Option<DeviceCtx>,
}

impl core::fmt::Debug for Prepared {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Prepared")
            .field("bits", &self.n.bits())
            .finish_non_exhaustive()
    }
}

impl Drop for Prepared {
    /// The modulus may be a secret prime (its backend contexts wipe
    /// themselves): wipe it on drop.
    fn drop(&mut self) {
        self.n.zeroize();
    }
}

impl Prepared {
    /// The modulus.
    pub fn value(&self) -> &Num {
        &self.n
    }

    /// Bits of the modulus.
    pub fn bits(&self) -> usize {
        self.n.bits()
    }
}

/// One exponentiation with a prepared modulus: `base^exp mod n`.
#[derive(Debug, Clone, Copy)]
pub struct PowJob<'a> {
    /// The base, `< n`.
    pub base: &'a Num,
    /// The exponent, `< 2^exp_bits`.
    pub exp: &'a Num,
    /// A public bound on the exponent's length: with [`Secrecy::Secret`]
    /// the work depends on this bound, never on the exponent itself.
    pub exp_bits: usize,
    /// The modulus.
    pub modulus: &'a Prepared,
}

/// One general job for [`Engine::modexp_batch`]: any base, exponent and
/// modulus (`n >= 1`, even allowed), as Python's `pow(base, exp, n)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Job {
    /// The base (any size).
    pub base: Num,
    /// The exponent.
    pub exp: Num,
    /// The modulus.
    pub modulus: Num,
}

/// The process-wide engine: [`Engine::from_env`], evaluated once (the first
/// call reads `REDC_BACKEND` and runs CPU detection) and cached, error
/// included, so that every later call is cheap and sees the same backend.
pub fn default_engine() -> Result<Engine, EngineError> {
    static ENGINE: OnceLock<Result<Engine, EngineError>> = OnceLock::new();
    ENGINE.get_or_init(Engine::from_env).clone()
}

/// The batch engine: a backend plus the proof that this CPU can run it.
///
/// The detected engine ([`Engine::detect`]) also sends a size class with
/// at most [`SMALL_CLASS`] jobs (and no more than there are threads) to the
/// scalar kernels, one job per core: a lone exponentiation finishes sooner
/// there than in a lane group, which takes as long for one lane as for
/// eight. An engine asked for by name ([`Engine::with_backend`],
/// `REDC_BACKEND`) runs every job on that backend.
#[derive(Debug, Clone)]
pub struct Engine {
    backend: Backend,
    ifma: Option<ifma::Ifma>,
    small_to_scalar: bool,
    device: Option<Arc<dyn Device>>,
}

/// The largest size class the detected engine runs on scalar kernels.
pub const SMALL_CLASS: usize = 2;

impl Engine {
    /// The fastest backend this CPU can run.
    pub fn detect() -> Engine {
        match ifma::Ifma::detect() {
            Some(token) => Engine {
                small_to_scalar: true,
                backend: Backend::Ifma,
                ifma: Some(token),
                device: None,
            },
            None => Engine {
                small_to_scalar: false,
                backend: Backend::Scalar,
                ifma: None,
                device: None,
            },
        }
    }

    /// A given backend, if this CPU can run it.
    pub fn with_backend(backend: Backend) -> Result<Engine, EngineError> {
        match backend {
            Backend::Scalar => Ok(Engine {
                backend,
                ifma: None,
                small_to_scalar: false,
                device: None,
            }),
            Backend::Ifma => {
                let token = ifma::Ifma::detect().ok_or(EngineError::Unavailable(Backend::Ifma))?;
                Ok(Engine {
                    small_to_scalar: false,
                    backend,
                    ifma: Some(token),
                    device: None,
                })
            }
            Backend::Cuda => device::registered_device()
                .map(Engine::with_device)
                .ok_or(EngineError::NoDevice),
        }
    }

    /// An engine that runs every job whose modulus fits a device class
    /// ([`device::DIGIT_CLASSES`]) on `device`, one launch per class, and
    /// the others on this CPU's fastest backend. Its backend is
    /// [`Backend::Cuda`].
    pub fn with_device(device: Arc<dyn Device>) -> Engine {
        Engine {
            backend: Backend::Cuda,
            small_to_scalar: false,
            device: Some(device),
            ..Engine::detect()
        }
    }

    /// The device of a [`Backend::Cuda`] engine, described in one line.
    pub fn device(&self) -> Option<String> {
        self.device.as_ref().map(|d| d.describe())
    }

    /// The backend named by `REDC_BACKEND`, or [`Engine::detect`]'s when it
    /// is unset, empty or `auto`. An unknown name, or a backend this machine
    /// cannot run, is an error (never a silent fallback).
    pub fn from_env() -> Result<Engine, EngineError> {
        match std::env::var("REDC_BACKEND") {
            Ok(name) if !name.is_empty() && name != "auto" => Engine::with_backend(Backend::parse(&name)?),
            _ => Ok(Engine::detect()),
        }
    }

    /// The backend in use.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// Exponentiations that run side by side: on one core for the CPU
    /// backends, or the batch that fills the device.
    pub fn lanes(&self) -> usize {
        match (&self.device, self.backend) {
            (Some(d), _) => d.batch_size(),
            (None, Backend::Ifma) => ifma::LANES,
            (None, _) => 1,
        }
    }

    /// Prepare an odd modulus `n >= 3` for this engine.
    pub fn prepare(&self, n: &Num) -> Result<Prepared, EngineError> {
        if !n.is_odd() || n.is_one() {
            return Err(EngineError::NotOddModulus);
        }
        let ifma = match self.ifma {
            Some(_) => ifma::Ctx::new(n),
            None => None,
        };
        let device = match self.device {
            Some(_) => DeviceCtx::new(n),
            None => None,
        };
        Ok(Prepared {
            n: n.clone(),
            scalar: scalar::Ctx::new(n),
            ifma,
            device,
        })
    }

    /// `base^exp mod n` for every job, in order, using all cores (and the
    /// device of a [`Backend::Cuda`] engine).
    ///
    /// Jobs of one size class share lane groups; a group is partly filled
    /// when its class has fewer jobs than lanes. With [`Secrecy::Secret`]
    /// each group's work depends only on the sizes and the `exp_bits`
    /// bounds, never on bases or exponents. A device failure fails the jobs
    /// of its launch with [`EngineError::Device`].
    pub fn pow_batch(&self, jobs: &[PowJob<'_>], secrecy: Secrecy) -> Vec<Result<Num, EngineError>> {
        let mut out: Vec<Result<Num, EngineError>> = jobs.iter().map(|j| check(j).map(|()| Num::zero())).collect();
        let (on_device, on_cpu): (Vec<usize>, Vec<usize>) = (0..jobs.len())
            .filter(|&i| out[i].is_ok())
            .partition(|&i| self.device.is_some() && jobs[i].modulus.device.is_some());
        let groups = self.groups(jobs, &on_cpu);
        let (cpu, device) = rayon::join(
            || {
                groups
                    .par_iter()
                    .flat_map_iter(|group| {
                        let results = self.run_group(group, jobs, secrecy);
                        group.jobs.iter().copied().zip(results.into_iter().map(Ok))
                    })
                    .collect::<Vec<_>>()
            },
            || self.run_device(jobs, &on_device, secrecy),
        );
        for (i, x) in cpu.into_iter().chain(device) {
            out[i] = x;
        }
        out
    }

    /// Python's `pow(base, exp, n)` for every job, in order, using all
    /// cores; exponents are treated as secrets ([`Secrecy::Secret`] with
    /// each exponent's own length as its bound). Odd moduli run on the
    /// engine's backend; even moduli and `n = 1` take [`modpow`].
    pub fn modexp_batch(&self, jobs: &[Job]) -> Vec<Result<Num, EngineError>> {
        let prepared: Vec<Option<Prepared>> = jobs
            .par_iter()
            .map(|j| {
                if j.modulus.is_odd() && !j.modulus.is_one() {
                    self.prepare(&j.modulus).ok()
                } else {
                    None
                }
            })
            .collect();
        let bases: Vec<Option<Num>> = jobs
            .par_iter()
            .zip(&prepared)
            .map(|(j, p)| {
                p.as_ref()
                    .map(|_| j.base.rem(&j.modulus).expect("modulus is odd, hence not zero"))
            })
            .collect();
        let mut index = Vec::new();
        let mut pow_jobs = Vec::new();
        for (i, (p, b)) in prepared.iter().zip(&bases).enumerate() {
            if let (Some(p), Some(b)) = (p, b) {
                index.push(i);
                pow_jobs.push(PowJob {
                    base: b,
                    exp: &jobs[i].exp,
                    exp_bits: jobs[i].exp.bits(),
                    modulus: p,
                });
            }
        }
        let mut out: Vec<Result<Num, EngineError>> = jobs
            .par_iter()
            .zip(&prepared)
            .map(|(j, p)| match p {
                Some(_) => Ok(Num::zero()),
                None => modpow(&j.base, &j.exp, &j.modulus, PowOptions::default(), None)
                    .map_err(|_| EngineError::ZeroModulus),
            })
            .collect();
        for (i, r) in index.into_iter().zip(self.pow_batch(&pow_jobs, Secrecy::Secret)) {
            out[i] = r;
        }
        out
    }

    /// Run the jobs `on_device` (indices into `jobs`, each with a device
    /// context) on the device: one [`DeviceBatch`] per digit class.
    fn run_device(
        &self,
        jobs: &[PowJob<'_>],
        on_device: &[usize],
        secrecy: Secrecy,
    ) -> Vec<(usize, Result<Num, EngineError>)> {
        let Some(dev) = &self.device else {
            return Vec::new();
        };
        let mut by_class: std::collections::BTreeMap<usize, Vec<usize>> = std::collections::BTreeMap::new();
        for &i in on_device {
            if let Some(ctx) = &jobs[i].modulus.device {
                by_class.entry(ctx.digits).or_default().push(i);
            }
        }
        let mut out = Vec::with_capacity(on_device.len());
        for (digits, members) in by_class {
            let exp_bits = members
                .iter()
                .map(|&i| match secrecy {
                    Secrecy::Secret => jobs[i].exp_bits,
                    Secrecy::Public => jobs[i].exp.bits(),
                })
                .max()
                .unwrap_or(0);
            let exp_words = exp_bits.div_ceil(32).max(1);
            let packed = Packed::new(jobs, &members, digits, exp_words);
            let batch = DeviceBatch {
                digits,
                count: members.len(),
                modulus: &packed.modulus,
                n0inv: &packed.n0inv,
                r2: &packed.r2,
                base: &packed.base,
                exp: &packed.exp,
                exp_words,
                exp_bits,
                secrecy,
            };
            match dev.pow(&batch) {
                Ok(words) if words.len() == members.len() * digits => out.extend(
                    members
                        .iter()
                        .zip(words.chunks(digits))
                        .map(|(&i, w)| (i, Ok(device::from_u32(w)))),
                ),
                Ok(words) => {
                    let e = EngineError::Device(format!(
                        "returned {} words for {} jobs of {digits} digits",
                        words.len(),
                        members.len()
                    ));
                    out.extend(members.iter().map(|&i| (i, Err(e.clone()))));
                }
                Err(e) => out.extend(members.iter().map(|&i| (i, Err(EngineError::Device(e.0.clone()))))),
            }
        }
        out
    }

    /// Split valid jobs into lane groups: same size class, at most
    /// [`Engine::lanes`] jobs each, in job order within a class.
    fn groups(&self, jobs: &[PowJob<'_>], valid: &[usize]) -> Vec<Group> {
        let mut by_class: std::collections::BTreeMap<usize, Vec<usize>> = std::collections::BTreeMap::new();
        for &i in valid {
            by_class.entry(self.class_of(jobs[i].modulus)).or_default().push(i);
        }
        let small = if self.small_to_scalar {
            SMALL_CLASS.min(rayon::current_num_threads())
        } else {
            0
        };
        let mut out = Vec::new();
        for members in by_class.into_values() {
            let simd = self.ifma.is_some() && jobs[members[0]].modulus.ifma.is_some() && members.len() > small;
            let width = if simd { ifma::LANES } else { 1 };
            out.extend(members.chunks(width).map(|c| Group { jobs: c.to_vec(), simd }));
        }
        out
    }

    /// The size class of a modulus on this engine's backend: jobs of one
    /// class can share a lane group (or a device launch). Moduli too large
    /// for the IFMA kernels form their own class and run on the scalar
    /// products.
    fn class_of(&self, p: &Prepared) -> usize {
        match (&self.device, &p.device, &self.ifma, &p.ifma) {
            (Some(_), Some(d), _, _) => usize::MAX / 2 - d.digits,
            (_, _, Some(_), Some(c)) => c.class(),
            _ => usize::MAX - p.n.digits().len(),
        }
    }

    /// Run one lane group.
    fn run_group(&self, group: &Group, jobs: &[PowJob<'_>], secrecy: Secrecy) -> Vec<Num> {
        let members: Vec<PowJob<'_>> = group.jobs.iter().map(|&i| jobs[i]).collect();
        match self.ifma {
            Some(token) if group.simd => ifma::pow_group(token, &members, secrecy),
            _ => members
                .iter()
                .map(|j| scalar::pow(&j.modulus.scalar, j.base, j.exp, j.exp_bits, secrecy))
                .collect(),
        }
    }
}

/// The jobs of one device class in the kernels' layout. Bases and
/// exponents may be secrets: every buffer is wiped on drop.
struct Packed {
    modulus: Zeroizing<Vec<u32>>,
    n0inv: Zeroizing<Vec<u32>>,
    r2: Zeroizing<Vec<u32>>,
    base: Zeroizing<Vec<u32>>,
    exp: Zeroizing<Vec<u32>>,
}

impl Packed {
    /// Pack `members` (indices into `jobs`, each with a device context of
    /// `digits` digits; exponents below `2^(32 * exp_words)`).
    fn new(jobs: &[PowJob<'_>], members: &[usize], digits: usize, exp_words: usize) -> Packed {
        let mut p = Packed {
            modulus: Zeroizing::new(Vec::with_capacity(members.len() * digits)),
            n0inv: Zeroizing::new(Vec::with_capacity(members.len())),
            r2: Zeroizing::new(Vec::with_capacity(members.len() * digits)),
            base: Zeroizing::new(Vec::with_capacity(members.len() * digits)),
            exp: Zeroizing::new(Vec::with_capacity(members.len() * exp_words)),
        };
        for &i in members {
            let job = &jobs[i];
            let ctx = job.modulus.device.as_ref().expect("members have device contexts");
            p.modulus.extend_from_slice(&ctx.n);
            p.n0inv.push(ctx.n0inv);
            p.r2.extend_from_slice(&ctx.r2);
            p.base
                .extend_from_slice(&Zeroizing::new(device::to_u32(job.base, digits)));
            p.exp
                .extend_from_slice(&Zeroizing::new(device::to_u32(job.exp, exp_words)));
        }
        p
    }
}

/// Jobs (indices into a batch) that run together: on the IFMA lanes
/// (`simd`, one size class, at most [`ifma::LANES`]) or one scalar job.
struct Group {
    jobs: Vec<usize>,
    simd: bool,
}

/// `width <= 64` bits of the little-endian 64-bit digits `x` from bit `lo`
/// (bits beyond the digits are zero): a window of an exponent.
fn bits_at(x: &[u64], lo: usize, width: usize) -> u64 {
    let (i, s) = (lo / 64, lo % 64);
    let at = |k: usize| x.get(k).copied().unwrap_or(0);
    let v = if s == 0 {
        at(i)
    } else {
        (at(i) >> s) | (at(i + 1) << (64 - s))
    };
    if width == 64 { v } else { v & ((1 << width) - 1) }
}

/// Is `x < n`? Constant time in the digits of `x` once its digit count
/// (the length of the vector, not secret-dependent for values below `n`'s
/// length) is at most `n`'s.
fn below(x: &[u64], n: &[u64]) -> bool {
    if x.len() > n.len() {
        return false;
    }
    let mut borrow = 0u64;
    for (i, &ni) in n.iter().enumerate() {
        let xi = if i < x.len() { x[i] } else { 0 };
        let (d, b1) = xi.overflowing_sub(ni);
        let (_, b2) = d.overflowing_sub(borrow);
        borrow = u64::from(b1) | u64::from(b2);
    }
    borrow == 1
}

/// A job's preconditions, checked before it joins a lane group.
///
/// The base may be secret (a CRT half): it is compared with `n` by one
/// borrow chain over `n`'s digits, without an early exit.
fn check(job: &PowJob<'_>) -> Result<(), EngineError> {
    if !below(job.base.digits(), job.modulus.n.digits()) {
        return Err(EngineError::BaseTooLarge);
    }
    if job.exp.bits() > job.exp_bits {
        return Err(EngineError::ExponentTooLong {
            bits: job.exp.bits(),
            bound: job.exp_bits,
        });
    }
    Ok(())
}
