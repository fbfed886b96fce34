//! The batch engine: many independent modular exponentiations at once,
//! spread over SIMD lanes and all cores.
//!
//! The papers get their speed from many multipliers working side by side:
//! the lanes of a pipelined multiplier (000_be478b6750af4540.txt Table 3),
//! 320 cores (001_24b3bbce8c558126.txt), systolic arrays (002, 004). On a
//! CPU the same idea is SIMD lanes and cores. An [`Engine`] is a list of
//! [`Backend`] plug-ins, fastest first:
//!
//! - [`scalar::Scalar`]: 64-bit digits (on `mulx`/`adcx`/`adox` where the
//!   CPU has them, else portable), one exponentiation per core at a time,
//!   always present;
//! - `ifma::Ifma` (x86-64): AVX-512 IFMA, eight exponentiations per vector,
//!   one per 64-bit lane, with 52-bit digits;
//! - a GPU behind the [`device::Device`] interface (crate `redc-cuda`),
//!   whole size classes per kernel launch.
//!
//! Each job goes to the first backend with a size class for its modulus
//! (moduli too large for the others stay on the scalar kernels); jobs of one
//! backend and class share groups, and the groups are spread over all cores
//! with rayon. The CPU backends come from one registry (`cpu_registry`), so
//! a new one is one file and one line there.
//!
//! Secrets are typed: [`Engine::pow`] takes [`SecretNat`] bases and
//! exponents and runs fixed windows over each job's public bound with
//! constant-time products and table reads; [`Engine::pow_vartime`] takes
//! a public exponent ([`Nat`](crate::Nat), RSA's `e`) and may skip windows by it.
//!
//! Nothing here reads the environment: [`Engine::detect`] picks the fastest
//! CPU backend, [`default_engine`] is the engine of single operations (the
//! detected one unless the application installed another with
//! [`set_default_engine`]), and [`stream::Submitter`] fills the lanes from
//! a stream of single requests (the block streaming of 000 §4.2).

pub mod backend;
mod cache;
pub mod device;
mod error;
#[cfg(target_arch = "x86_64")]
pub mod ifma;
mod job;
pub mod scalar;
pub mod stream;

pub use backend::{Backend, BackendError, Task};
pub use cache::EngineCache;
pub use error::EngineError;
pub use job::{Job, JobBase, PowJob, Prepared, PublicExpJob};

use crate::kernel::Consts;
use crate::modpow::{PowOptions, modpow};
use crate::secret::SecretNat;
use backend::{AnyCtx, DynBackend};
use device::{Device, DeviceBackend};
use job::Input;
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

pub use crate::Num;

/// The CPU backends of this build, fastest first: the name of each, and
/// the backend where this CPU can run it. A new CPU backend is one file
/// and one line here.
fn cpu_registry() -> Vec<(&'static str, Option<Arc<dyn DynBackend>>)> {
    vec![
        #[cfg(target_arch = "x86_64")]
        ("ifma", ifma::Ifma::detect().map(|b| Arc::new(b) as Arc<dyn DynBackend>)),
        // Named everywhere, so that asking for it says what it needs.
        #[cfg(not(target_arch = "x86_64"))]
        ("ifma", None),
        ("scalar", Some(Arc::new(scalar::Scalar))),
    ]
}

/// What a CPU backend needs that this CPU may lack, for error messages.
fn needs(name: &str) -> &'static str {
    match name {
        "ifma" => "AVX-512 IFMA on x86-64",
        _ => "nothing",
    }
}

/// The names of the CPU backends in the registry, fastest first.
pub fn backend_names() -> Vec<&'static str> {
    cpu_registry().into_iter().map(|(name, _)| name).collect()
}

static DEFAULT: OnceLock<Engine> = OnceLock::new();

/// The engine of the single-operation entry points (an RSA signature, a
/// decryption): the one [`set_default_engine`] installed, else
/// [`Engine::detect`]'s, chosen on first use and kept.
pub fn default_engine() -> &'static Engine {
    DEFAULT.get_or_init(Engine::detect)
}

/// Install `engine` as [`default_engine`] for the rest of the process (the
/// CLI installs the one `--backend` or `REDC_BACKEND` names). The first
/// installation wins: a later one, or one after the default was used,
/// returns the engine back.
pub fn set_default_engine(engine: Engine) -> Result<(), Engine> {
    DEFAULT.set(engine)
}

/// The batch engine: backends fastest first; the last is the scalar one.
///
/// The detected engine ([`Engine::detect`]) also sends a size class with
/// at most [`SMALL_CLASS`] jobs (and no more than there are threads) to the
/// scalar kernels, one job per core, when the backend says a lone
/// exponentiation of that class finishes sooner there
/// ([`Backend::few_faster_on_scalar`]; on IFMA, the classes above 80
/// digits: moduli above 4,158 bits). An engine asked for by name runs every
/// job it can on that backend.
#[derive(Debug, Clone)]
pub struct Engine {
    backends: Vec<Arc<dyn DynBackend>>,
    small_to_scalar: bool,
}

/// The largest size class the detected engine runs on scalar kernels.
pub const SMALL_CLASS: usize = 2;

/// Jobs per piece of the engine's parallel bookkeeping (checks, routes,
/// tasks): small batches stay on one thread.
const MIN_PAR: usize = 1024;

/// Where a job runs: a backend (index into the engine's list) and a class.
type Route = (usize, usize);

impl Engine {
    /// The fastest CPU backend of this machine (and the scalar kernels
    /// for small classes).
    pub fn detect() -> Engine {
        let best = cpu_registry().into_iter().find_map(|(_, b)| b);
        let mut e = Engine::on(best.into_iter().collect());
        e.small_to_scalar = e.backends.len() > 1;
        e
    }

    /// The CPU backend called `name` (`ifma`, `scalar`), with the scalar
    /// kernels for moduli it has no class for.
    pub fn named(name: &str) -> Result<Engine, EngineError> {
        match cpu_registry().into_iter().find(|(n, _)| *n == name) {
            Some((_, Some(b))) => Ok(Engine::on(vec![b])),
            Some((n, None)) => Err(EngineError::Unavailable(n)),
            None => Err(EngineError::UnknownBackend(name.to_owned())),
        }
    }

    /// An engine on a backend of the caller's (a plug-in), with the
    /// scalar kernels for moduli it has no class for. Its name must not be
    /// `scalar` (the crate's own) nor another backend's: contexts are found
    /// by name and class.
    pub fn with_backend(backend: impl Backend) -> Engine {
        Engine::on(vec![Arc::new(backend)])
    }

    /// An engine that runs every job whose modulus fits a class of
    /// `device` on it, one launch per class, and the others on this CPU's
    /// fastest backend.
    pub fn with_device(device: Arc<dyn Device>) -> Engine {
        let mut backends: Vec<Arc<dyn DynBackend>> = vec![Arc::new(DeviceBackend(device))];
        backends.extend(Engine::detect().backends);
        Engine {
            backends,
            small_to_scalar: false,
        }
    }

    /// `first` (unless it is the scalar backend), then the scalar one.
    fn on(first: Vec<Arc<dyn DynBackend>>) -> Engine {
        let mut backends: Vec<Arc<dyn DynBackend>> = first.into_iter().filter(|b| b.name() != "scalar").collect();
        backends.push(Arc::new(scalar::Scalar));
        Engine {
            backends,
            small_to_scalar: false,
        }
    }

    /// The name of the backend that runs what it can (`ifma`, `scalar`, `cuda`).
    pub fn name(&self) -> &'static str {
        self.backends[0].name()
    }

    /// The first backend described in one line (a device names its hardware).
    pub fn describe(&self) -> String {
        self.backends[0].describe()
    }

    /// The names of every backend of the engine, in order.
    pub fn backends(&self) -> Vec<&'static str> {
        self.backends.iter().map(|b| b.name()).collect()
    }

    /// Exponentiations the first backend runs side by side: on one core
    /// for the CPU backends, or the batch that fills a device.
    pub fn lanes(&self) -> usize {
        self.backends[0].lanes()
    }

    /// Prepare a public odd modulus `n >= 3` for every backend of this engine.
    pub fn prepare(&self, n: &Num) -> Result<Prepared, EngineError> {
        let c = Consts::new(n.digits()).map_err(|_| EngineError::NotOddModulus)?;
        Ok(self.prepare_consts(&Arc::new(c), n.bits()))
    }

    /// Prepare a secret odd modulus `n >= 3` given in exactly its digits
    /// (a prime of a key): its public length is its digit count.
    pub fn prepare_secret(&self, n: &SecretNat) -> Result<Prepared, EngineError> {
        let c = Consts::new(n.limbs()).map_err(|_| EngineError::NotOddModulus)?;
        Ok(self.prepare_consts(&Arc::new(c), 64 * n.len()))
    }

    /// Prepare a modulus whose kernel constants exist already (shared with
    /// a [`crate::residue::Domain`]), below `2^size_bits`: a public bound at
    /// least the modulus's bit length (its `bits()` for a public modulus, 64
    /// times its digit count for a secret one, or a tighter public bound).
    /// A bound outside its digit count's range is taken as 64 times the
    /// digit count.
    pub fn prepare_consts(&self, c: &Arc<Consts>, size_bits: usize) -> Prepared {
        let digits = c.len();
        let size_bits = if size_bits > 64 * (digits - 1) && size_bits <= 64 * digits {
            size_bits
        } else {
            64 * digits
        };
        let ctxs = self
            .backends
            .iter()
            .filter_map(|b| b.class(size_bits).map(|class| (b.name(), class, b.prepare(c, class))))
            .collect();
        Prepared {
            consts: Arc::clone(c),
            size_bits,
            ctxs,
        }
    }

    /// `base^exp mod n` for every job, in order, constant time in bases and
    /// exponents, using all cores (and a device). Each group's work depends
    /// only on the sizes and the `exp_bits` bounds. A job that breaks its
    /// preconditions fails alone; a backend failure fails the jobs of its
    /// group with [`EngineError::Device`].
    pub fn pow(&self, jobs: &[PowJob<'_>]) -> Vec<Result<SecretNat, EngineError>> {
        let tasks: Vec<Result<Input<'_>, EngineError>> =
            jobs.par_iter().with_min_len(MIN_PAR).map(Input::secret).collect();
        self.run(&tasks, false)
    }

    /// `base^exp mod n` for every job with a public exponent: windows may be
    /// skipped by the exponent (never by the base). Variable time in the
    /// exponent only, as [`Backend::pow_vartime`] and
    /// [`device::Device::pow_vartime`], which it calls.
    pub fn pow_vartime<B: JobBase + ?Sized>(
        &self,
        jobs: &[PublicExpJob<'_, B>],
    ) -> Vec<Result<SecretNat, EngineError>> {
        let tasks: Vec<Result<Input<'_>, EngineError>> =
            jobs.par_iter().with_min_len(MIN_PAR).map(Input::public).collect();
        self.run(&tasks, true)
    }

    /// Python's `pow(base, exp, n)` for every job, in order, using all
    /// cores; each exponent is a secret whose bound is its own length.
    /// Odd moduli run on the engine's backends; even moduli and `n = 1`
    /// take [`modpow`].
    pub fn modexp_batch(&self, jobs: &[Job]) -> Vec<Result<Num, EngineError>> {
        let prepared: Vec<Option<(Prepared, SecretNat, SecretNat)>> = jobs
            .par_iter()
            .map(|j| {
                if !j.modulus.is_odd() || j.modulus.is_one() {
                    return None;
                }
                let p = self.prepare(&j.modulus).ok()?;
                let base = j.base.rem(&j.modulus)?;
                let base = SecretNat::from_nat(&base, p.len())?;
                let exp = SecretNat::from_nat(&j.exp, j.exp.digits().len())?;
                Some((p, base, exp))
            })
            .collect();
        let (index, pow_jobs): (Vec<usize>, Vec<PowJob<'_>>) = prepared
            .iter()
            .enumerate()
            .filter_map(|(i, p)| {
                let (p, base, exp) = p.as_ref()?;
                let job = PowJob {
                    base,
                    exp,
                    exp_bits: jobs[i].exp.bits(),
                    modulus: p,
                };
                Some((i, job))
            })
            .unzip();
        let mut out: Vec<Result<Num, EngineError>> = jobs
            .par_iter()
            .zip(&prepared)
            .map(|(j, p)| match p {
                Some(_) => Ok(Num::zero()),
                None => modpow(&j.base, &j.exp, &j.modulus, PowOptions::default(), None)
                    .map_err(|_| EngineError::ZeroModulus),
            })
            .collect();
        for (i, r) in index.into_iter().zip(self.pow(&pow_jobs)) {
            out[i] = r.map(SecretNat::into_revealed);
        }
        out
    }

    /// Where a modulus runs: the first backend with a class for it whose
    /// context the modulus holds (a modulus prepared by an engine with
    /// fewer backends runs on one of those, the scalar one at least).
    pub(crate) fn route(&self, p: &Prepared) -> Result<Route, EngineError> {
        let mut first = None;
        for (i, b) in self.backends.iter().enumerate() {
            if let Some(class) = b.class(p.size_bits) {
                if p.ctx(b.name(), class).is_some() {
                    return Ok((i, class));
                }
                first.get_or_insert(b.name());
            }
        }
        Err(EngineError::NotPrepared(first.unwrap_or("scalar")))
    }

    /// Run checked inputs: group them by route, move classes of at most
    /// [`SMALL_CLASS`] jobs to the scalar kernels on the detected engine
    /// (where the backend says they run faster there), chunk by group size,
    /// and run the CPU groups in parallel beside the device's launches (one
    /// CPU group alone on the caller's thread).
    fn run(&self, inputs: &[Result<Input<'_>, EngineError>], vartime: bool) -> Vec<Result<SecretNat, EngineError>> {
        // Each input's route (or why it has none) on all cores: a device
        // batch holds hundreds of thousands of jobs.
        let routed: Vec<Result<Route, EngineError>> = inputs
            .par_iter()
            .with_min_len(MIN_PAR)
            .map(|input| self.route(input.as_ref().map_err(Clone::clone)?.modulus))
            .collect();
        let mut out: Vec<Result<SecretNat, EngineError>> = Vec::with_capacity(inputs.len());
        let mut by_route: BTreeMap<Route, Vec<usize>> = BTreeMap::new();
        for (i, route) in routed.into_iter().enumerate() {
            out.push(route.map(|route| {
                by_route.entry(route).or_default().push(i);
                SecretNat::default()
            }));
        }
        let scalar = self.backends.len() - 1;
        let small = if self.small_to_scalar {
            SMALL_CLASS.min(rayon::current_num_threads())
        } else {
            0
        };
        let mut groups: Vec<(usize, Vec<usize>)> = Vec::new();
        for ((backend, class), members) in by_route {
            let b = &self.backends[backend];
            if backend != scalar && b.on_cpu() && members.len() <= small && b.few_faster_on_scalar(class) {
                groups.extend(members.into_iter().map(|i| (scalar, vec![i])));
            } else {
                groups.extend(members.chunks(b.group_size().max(1)).map(|c| (backend, c.to_vec())));
            }
        }
        let (cpu, device): (Vec<_>, Vec<_>) = groups.into_iter().partition(|(b, _)| self.backends[*b].on_cpu());
        let run_group = |(backend, members): &(usize, Vec<usize>)| {
            let b = &self.backends[*backend];
            let tasks: Vec<Task<'_, AnyCtx>> = members
                .par_iter()
                .with_min_len(MIN_PAR)
                .filter_map(|&i| {
                    let input = inputs[i].as_ref().ok()?;
                    input.task(b.name(), b.class(input.modulus.size_bits)?)
                })
                .collect();
            let results = b.run(&tasks, vartime);
            let answers: Vec<Result<SecretNat, EngineError>> = match results {
                Ok(xs) if xs.len() == members.len() => xs.into_iter().map(Ok).collect(),
                Ok(xs) => {
                    let e =
                        EngineError::Device(format!("{} answered {} of {} jobs", b.name(), xs.len(), members.len()));
                    members.iter().map(|_| Err(e.clone())).collect()
                }
                Err(e) => members.iter().map(|_| Err(EngineError::Device(e.0.clone()))).collect(),
            };
            members.iter().copied().zip(answers).collect::<Vec<_>>()
        };
        // One CPU group alone runs on the caller's thread: no hand-off to
        // the pool.
        let (cpu, device) = if cpu.len() <= 1 && device.is_empty() {
            (cpu.iter().flat_map(run_group).collect(), Vec::new())
        } else {
            rayon::join(
                || cpu.par_iter().flat_map_iter(run_group).collect::<Vec<_>>(),
                || device.iter().flat_map(run_group).collect::<Vec<_>>(),
            )
        };
        for (i, x) in cpu.into_iter().chain(device) {
            out[i] = x;
        }
        out
    }
}
