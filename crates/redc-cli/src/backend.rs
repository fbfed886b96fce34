//! `--backend` and `REDC_BACKEND`: which engine runs the commands — the
//! only place redc reads `REDC_BACKEND` and `REDC_CUDA_THREADS`.
//!
//! `auto` (the default) takes the GPU only when this redc was built with
//! CUDA support and a driver, a device and NVRTC are all present, and the
//! fastest CPU backend otherwise. Naming a backend this machine cannot run
//! is bad input (exit status 2) with a message naming what is missing;
//! there is never a silent fallback. `REDC_BACKEND=scalar|ifma|cuda`
//! becomes the engine of every command (single operations included).

use crate::failure::bad_input;
use clap::ValueEnum;
use redc::Engine;
use redc_cuda::{CudaError, Gpu};
use std::sync::{Arc, OnceLock};

/// The backend of every command that runs on the engine (`--backend`,
/// `REDC_BACKEND`), used by clap directly.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum BackendArg {
    /// The GPU if one is usable, else the fastest CPU backend (for `redc bench`: every backend this
    /// machine can run, the GPU included when usable)
    #[value(alias = "all")]
    Auto,
    /// 64-bit digits (mulx/adx where the CPU has them, else portable), one exponentiation per core at a
    /// time
    Scalar,
    /// AVX-512 IFMA, eight exponentiations per vector (an error on a CPU without it)
    Ifma,
    /// An NVIDIA GPU (needs a build with `--features cuda`, a driver, a device and NVRTC)
    Cuda,
}

impl BackendArg {
    /// The name `--backend` takes.
    pub(crate) fn name(self) -> &'static str {
        match self {
            BackendArg::Auto => "auto",
            BackendArg::Scalar => "scalar",
            BackendArg::Ifma => "ifma",
            BackendArg::Cuda => "cuda",
        }
    }
}

/// The engine for `--backend` (`None`: `REDC_BACKEND`, else `auto`).
pub(crate) fn engine(arg: Option<BackendArg>) -> anyhow::Result<Engine> {
    match arg {
        Some(a) => engine_for(a, &format!("--backend {}", a.name())),
        None => {
            let a = env_backend()?.unwrap_or(BackendArg::Auto);
            engine_for(a, &format!("REDC_BACKEND={}", a.name()))
        }
    }
}

/// The engine of `arg`; an error starts with `label` (`--backend cuda`,
/// `REDC_BACKEND=cuda`).
fn engine_for(arg: BackendArg, label: &str) -> anyhow::Result<Engine> {
    match arg {
        BackendArg::Auto => Ok(gpu().map_or_else(|_| Engine::detect(), Engine::with_device)),
        BackendArg::Cuda => gpu().map(Engine::with_device).map_err(|e| bad_input!("{label}: {e}")),
        // A CPU backend of redc's registry, by name.
        cpu => Engine::named(cpu.name()).map_err(|e| bad_input!("{label}: {e}")),
    }
}

/// `REDC_BACKEND`, parsed; unset or empty is `None`.
fn env_backend() -> anyhow::Result<Option<BackendArg>> {
    match std::env::var("REDC_BACKEND") {
        Ok(name) if !name.is_empty() => BackendArg::from_str(&name, false).map(Some).map_err(|_| {
            let names: Vec<_> = BackendArg::value_variants().iter().map(|b| b.name()).collect();
            bad_input!(
                "REDC_BACKEND: unknown backend \"{name}\" (expected one of: {})",
                names.join(", ")
            )
        }),
        _ => Ok(None),
    }
}

/// The GPU, opened once per process with the plan of `REDC_CUDA_THREADS`
/// (threads per number, e.g. `64:8,32:1`) and the kernel cache of
/// [`redc_cuda::cache_dir`] (`REDC_CUDA_CACHE`), or what is missing.
pub(crate) fn gpu() -> Result<Arc<dyn redc::engine::device::Device>, CudaError> {
    opened().map(|g| g as Arc<dyn redc::engine::device::Device>)
}

/// The GPU of [`gpu`] itself (its plan and description, for `redc bench`).
pub(crate) fn opened() -> Result<Arc<Gpu>, CudaError> {
    static GPU: OnceLock<Result<Arc<Gpu>, CudaError>> = OnceLock::new();
    GPU.get_or_init(|| {
        let threads = match std::env::var("REDC_CUDA_THREADS") {
            // Empty is unset, as for REDC_BACKEND.
            Ok(spec) if spec.trim().is_empty() => None,
            Ok(spec) => Some(spec),
            Err(std::env::VarError::NotPresent) => None,
            Err(std::env::VarError::NotUnicode(_)) => {
                return Err(CudaError::Config("REDC_CUDA_THREADS: not UTF-8".into()));
            }
        };
        let cache = redc_cuda::cache_dir(|name| std::env::var_os(name));
        Gpu::open(threads.as_deref(), cache.as_deref())
            .map(Arc::new)
            .map_err(|e| match e {
                CudaError::Config(m) => CudaError::Config(format!("REDC_CUDA_THREADS: {m}")),
                other => other,
            })
    })
    .clone()
}

/// Before any command runs: with `REDC_BACKEND=scalar|ifma|cuda`, make that
/// engine the process's default (the engine of single operations such as
/// `redc sign`); a backend that cannot run, or an unknown name, is bad
/// input naming what is missing. Unset, empty or `auto` keep the default
/// ([`Engine::detect`]).
pub(crate) fn install_default_engine() -> anyhow::Result<()> {
    let Some(arg) = env_backend()? else {
        return Ok(());
    };
    if arg == BackendArg::Auto {
        return Ok(());
    }
    let engine = engine_for(arg, &format!("REDC_BACKEND={}", arg.name()))?;
    // The first installation wins; nothing ran before this one.
    let _ = redc::engine::set_default_engine(engine);
    Ok(())
}
