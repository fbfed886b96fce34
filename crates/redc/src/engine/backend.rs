//! How a way of computing products plugs into the engine: the [`Backend`]
//! trait. A backend states its lanes and size classes, prepares a modulus
//! into a context of its own type, and runs a group of jobs of one class;
//! the engine groups jobs, spreads groups over cores, and keeps each
//! prepared context with the backend that made it.
//!
//! The CPU backends of this crate are [`super::scalar::Scalar`] and (on
//! x86-64) `ifma::Ifma`; a GPU plugs in as a [`super::device::Device`]
//! behind [`super::device::DeviceBackend`]. A new backend is one file with
//! an `impl Backend` plus one line in the engine's registry
//! (`engine::cpu_registry`).

use crate::kernel::Consts;
use crate::secret::SecretNat;
use std::any::Any;
use std::sync::Arc;

/// One exponentiation of a group, in the form a backend runs it.
#[derive(Clone, Copy)]
pub struct Task<'a, C: ?Sized> {
    /// The modulus as this backend prepared it.
    pub ctx: &'a C,
    /// The modulus and its 64-bit kernel constants.
    pub modulus: &'a Consts,
    /// The base, exactly the modulus's digit count, below the modulus.
    pub base: &'a [u64],
    /// The exponent, below `2^exp_bits`.
    pub exp: &'a [u64],
    /// A public bound on the exponent's length.
    pub exp_bits: usize,
}

/// Why a backend could not run a group (a device's launch or copy failed).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct BackendError(pub String);

/// A way of computing modular exponentiations, plugged into the engine.
pub trait Backend: Send + Sync + core::fmt::Debug + 'static {
    /// A modulus as this backend keeps it.
    type Ctx: Send + Sync + 'static;

    /// The short name (`scalar`, `ifma`, `cuda`), as `--backend` spells it;
    /// unique among an engine's backends (a prepared modulus finds its
    /// contexts by name and class).
    fn name(&self) -> &'static str;

    /// One line naming the backend and its hardware.
    fn describe(&self) -> String {
        self.name().to_owned()
    }

    /// Exponentiations that run side by side (what a streaming submitter
    /// gathers before it starts a group).
    fn lanes(&self) -> usize;

    /// The most jobs of one class in one call of [`Backend::pow`]
    /// (default: [`Backend::lanes`]).
    fn group_size(&self) -> usize {
        self.lanes()
    }

    /// Whether calls run on this machine's cores (the engine spreads
    /// groups over them with rayon); a device's launches are issued one
    /// class after another from one thread (default: true).
    fn on_cpu(&self) -> bool {
        true
    }

    /// Whether one or two jobs of `class` finish sooner on the scalar
    /// kernels, one per core, than as a group here (default: true, for a
    /// backend whose group takes as long for one lane as for all).
    fn few_faster_on_scalar(&self, class: usize) -> bool {
        let _ = class;
        true
    }

    /// The size class of a modulus below `2^size_bits` (a public bound on
    /// its length), or `None` when it is too large for this backend. Jobs
    /// of one class share a group.
    fn class(&self, size_bits: usize) -> Option<usize>;

    /// The modulus with constants `c`, prepared for `class` (a value
    /// [`Backend::class`] returned). Once per modulus; may be secret.
    fn prepare(&self, c: &Arc<Consts>, class: usize) -> Self::Ctx;

    /// `base^exp mod n` for every task (one class, at most
    /// [`Backend::group_size`]), each result in its modulus's digit count
    /// and below it. Constant time: the work depends on the class, the
    /// number of tasks and their `exp_bits` only.
    fn pow(&self, tasks: &[Task<'_, Self::Ctx>]) -> Result<Vec<SecretNat>, BackendError>;

    /// As [`Backend::pow`] for public exponents: the work may depend on the
    /// exponents (never on the bases).
    fn pow_vartime(&self, tasks: &[Task<'_, Self::Ctx>]) -> Result<Vec<SecretNat>, BackendError>;
}

/// A prepared context of any backend.
pub(crate) type AnyCtx = dyn Any + Send + Sync;

/// [`Backend`] with its context type erased, for the engine's list.
pub(crate) trait DynBackend: Send + Sync + core::fmt::Debug {
    fn name(&self) -> &'static str;
    fn describe(&self) -> String;
    fn lanes(&self) -> usize;
    fn group_size(&self) -> usize;
    fn on_cpu(&self) -> bool;
    fn class(&self, size_bits: usize) -> Option<usize>;
    fn few_faster_on_scalar(&self, class: usize) -> bool;
    fn prepare(&self, c: &Arc<Consts>, class: usize) -> Box<AnyCtx>;
    /// [`Backend::pow`] (`vartime` false) or [`Backend::pow_vartime`]; a
    /// context of another backend is an error.
    fn run(&self, tasks: &[Task<'_, AnyCtx>], vartime: bool) -> Result<Vec<SecretNat>, BackendError>;
}

impl<B: Backend> DynBackend for B {
    fn name(&self) -> &'static str {
        Backend::name(self)
    }
    fn describe(&self) -> String {
        Backend::describe(self)
    }
    fn lanes(&self) -> usize {
        Backend::lanes(self)
    }
    fn group_size(&self) -> usize {
        Backend::group_size(self)
    }
    fn on_cpu(&self) -> bool {
        Backend::on_cpu(self)
    }
    fn class(&self, size_bits: usize) -> Option<usize> {
        Backend::class(self, size_bits)
    }
    fn few_faster_on_scalar(&self, class: usize) -> bool {
        Backend::few_faster_on_scalar(self, class)
    }
    fn prepare(&self, c: &Arc<Consts>, class: usize) -> Box<AnyCtx> {
        Box::new(Backend::prepare(self, c, class))
    }
    fn run(&self, tasks: &[Task<'_, AnyCtx>], vartime: bool) -> Result<Vec<SecretNat>, BackendError> {
        let typed = tasks
            .iter()
            .map(|t| {
                let ctx = t.ctx.downcast_ref::<B::Ctx>().ok_or_else(|| {
                    BackendError(format!(
                        "a modulus prepared for another backend reached {}",
                        self.name()
                    ))
                })?;
                Ok(Task {
                    ctx,
                    modulus: t.modulus,
                    base: t.base,
                    exp: t.exp,
                    exp_bits: t.exp_bits,
                })
            })
            .collect::<Result<Vec<_>, BackendError>>()?;
        if vartime {
            self.pow_vartime(&typed)
        } else {
            self.pow(&typed)
        }
    }
}
