//! `--backend` and `REDC_BACKEND`: which engine runs the batch commands.
//!
//! `auto` (the default) takes the GPU only when this redc was built with
//! CUDA support and a driver, a device and NVRTC are all present, and the
//! fastest CPU backend otherwise. Naming a backend this machine cannot run
//! is bad input (exit status 2) with a message naming what is missing;
//! there is never a silent fallback.

use crate::failure::bad_input;
use clap::ValueEnum;
use redc::{Backend, Engine};

/// `--backend` of the commands that run on the batch engine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum BackendArg {
    /// The GPU if one is usable, else the fastest CPU backend.
    Auto,
    /// Portable 64-bit digits, one exponentiation per core at a time.
    Scalar,
    /// AVX-512 IFMA, eight exponentiations per vector.
    Ifma,
    /// An NVIDIA GPU (needs a build with `--features cuda`, a driver and NVRTC).
    Cuda,
}

/// The engine for `--backend` (`None`: `REDC_BACKEND`, else `auto`).
pub(crate) fn engine(arg: Option<BackendArg>) -> anyhow::Result<Engine> {
    let (arg, from) = match arg {
        Some(a) => (a, "--backend"),
        None => (env_backend()?, "REDC_BACKEND"),
    };
    match arg {
        BackendArg::Auto => Ok(match redc_cuda::install() {
            Ok(()) => Engine::with_backend(Backend::Cuda).unwrap_or_else(|_| Engine::detect()),
            Err(_) => Engine::detect(),
        }),
        BackendArg::Cuda => {
            redc_cuda::install().map_err(|e| bad_input!("{from} cuda: {e}"))?;
            Engine::with_backend(Backend::Cuda).map_err(|e| bad_input!("{from} cuda: {e}"))
        }
        BackendArg::Scalar => Ok(Engine::with_backend(Backend::Scalar).map_err(|e| bad_input!("{from}: {e}"))?),
        BackendArg::Ifma => Ok(Engine::with_backend(Backend::Ifma).map_err(|e| bad_input!("{from} ifma: {e}"))?),
    }
}

/// `REDC_BACKEND`, parsed; unset or empty is `auto`.
fn env_backend() -> anyhow::Result<BackendArg> {
    match std::env::var("REDC_BACKEND") {
        Ok(name) if !name.is_empty() => BackendArg::from_str(&name, false).map_err(|_| {
            bad_input!("REDC_BACKEND: unknown backend \"{name}\" (expected one of: auto, scalar, ifma, cuda)")
        }),
        _ => Ok(BackendArg::Auto),
    }
}

/// Before any command runs: with `REDC_BACKEND=cuda`, register the GPU so
/// that every engine of the process ([`redc::engine::default_engine`])
/// finds it; a GPU that cannot be used is bad input naming what is missing.
pub(crate) fn install_for_env() -> anyhow::Result<()> {
    if std::env::var("REDC_BACKEND").as_deref() == Ok("cuda") {
        redc_cuda::install().map_err(|e| bad_input!("REDC_BACKEND=cuda: {e}"))?;
    }
    Ok(())
}
