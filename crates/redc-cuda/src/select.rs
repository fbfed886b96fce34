//! Which engine runs a call, for every front end (the `redc` command, the
//! Python package, the bench): `auto`, `cuda` or a CPU backend of redc's
//! registry, and `REDC_BACKEND`, `REDC_CUDA_THREADS` and the kernel cache
//! ([`crate::cache_dir`]) read from the environment. The only module of
//! redc that reads those variables.
//!
//! `auto` takes the GPU only when this build has CUDA support and a
//! driver, a device and NVRTC are all present, and the fastest CPU backend
//! otherwise. A backend this machine cannot run is an error naming what is
//! missing; there is never a silent fallback.

use crate::{CudaError, Gpu};
use redc::engine::device::Device;
use redc::{Engine, EngineError};
use std::sync::{Arc, OnceLock};

/// The variable naming the backend of calls that name none.
pub const BACKEND_ENV: &str = "REDC_BACKEND";

/// The variable holding the GPU's plan (threads per number, e.g. `64:8,32:1`).
pub const THREADS_ENV: &str = "REDC_CUDA_THREADS";

/// Why a named backend cannot run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SelectError {
    /// A CPU backend unknown to the registry or missing on this CPU.
    #[error(transparent)]
    Cpu(#[from] EngineError),
    /// The GPU cannot be opened.
    #[error(transparent)]
    Gpu(#[from] CudaError),
}

/// GPU 0, opened once per process with the plan of [`THREADS_ENV`] and the
/// kernel cache of [`crate::cache_dir`], or what is missing.
pub fn opened_gpu() -> Result<Arc<Gpu>, CudaError> {
    static GPU: OnceLock<Result<Arc<Gpu>, CudaError>> = OnceLock::new();
    GPU.get_or_init(|| {
        let threads = match std::env::var(THREADS_ENV) {
            // Empty is unset, as for REDC_BACKEND.
            Ok(spec) if spec.trim().is_empty() => None,
            Ok(spec) => Some(spec),
            Err(std::env::VarError::NotPresent) => None,
            Err(std::env::VarError::NotUnicode(_)) => {
                return Err(CudaError::Config(format!("{THREADS_ENV}: not UTF-8")));
            }
        };
        let cache = crate::cache_dir(|name| std::env::var_os(name));
        Gpu::open(threads.as_deref(), cache.as_deref())
            .map(Arc::new)
            .map_err(|e| match e {
                CudaError::Config(m) => CudaError::Config(format!("{THREADS_ENV}: {m}")),
                other => other,
            })
    })
    .clone()
}

/// The GPU of [`opened_gpu`] as the engine's device.
pub fn gpu() -> Result<Arc<dyn Device>, CudaError> {
    opened_gpu().map(|g| g as Arc<dyn Device>)
}

/// The engine called `name`: `auto` (never fails), `cuda`, or a CPU
/// backend of redc's registry by name.
pub fn engine(name: &str) -> Result<Engine, SelectError> {
    match name {
        "auto" => Ok(gpu().map_or_else(|_| Engine::detect(), Engine::with_device)),
        "cuda" => Ok(Engine::with_device(gpu()?)),
        cpu => Ok(Engine::named(cpu)?),
    }
}

/// The backend [`BACKEND_ENV`] names, or `None` when it is unset or empty.
pub fn env_backend() -> Option<String> {
    std::env::var(BACKEND_ENV).ok().filter(|v| !v.is_empty())
}

/// The backends this machine can run, fastest first: the GPU when one can
/// be opened, then the CPU backends of redc's registry (always ending with
/// `scalar`).
pub fn usable() -> Vec<&'static str> {
    let mut out = Vec::new();
    if gpu().is_ok() {
        out.push("cuda");
    }
    out.extend(usable_cpu());
    out
}

/// The CPU backends of redc's registry this CPU can run, fastest first.
pub fn usable_cpu() -> Vec<&'static str> {
    redc::engine::backend_names()
        .into_iter()
        .filter(|name| Engine::named(name).is_ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_backends_resolve_and_unknown_names_say_so() {
        assert_eq!(engine("scalar").expect("scalar runs everywhere").name(), "scalar");
        assert!(engine("auto").is_ok());
        let e = engine("nope").expect_err("not a backend");
        assert!(matches!(e, SelectError::Cpu(EngineError::UnknownBackend(_))), "{e}");
        assert_eq!(usable_cpu().last(), Some(&"scalar"));
    }

    #[test]
    fn cuda_is_an_error_naming_what_is_missing_without_a_gpu() {
        match (engine("cuda"), gpu()) {
            (Ok(e), Ok(_)) => assert_eq!(e.name(), "cuda"),
            (Err(SelectError::Gpu(e)), Err(g)) => assert_eq!(e, g),
            (e, g) => panic!("engine and gpu disagree: {:?} / {:?}", e.map(|e| e.name()), g.err()),
        }
    }
}
