//! `--backend` and `REDC_BACKEND`: which engine runs the commands, as
//! clap's value enum over [`redc_cuda::select`] (the resolver every front
//! end shares, which reads the environment).
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
use redc_cuda::select;

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
    select::engine(arg.name()).map_err(|e| bad_input!("{label}: {e}"))
}

/// `REDC_BACKEND`, parsed; unset or empty is `None`.
fn env_backend() -> anyhow::Result<Option<BackendArg>> {
    select::env_backend()
        .map(|name| {
            BackendArg::from_str(&name, false).map_err(|_| {
                let names: Vec<_> = BackendArg::value_variants().iter().map(|b| b.name()).collect();
                bad_input!(
                    "REDC_BACKEND: unknown backend \"{name}\" (expected one of: {})",
                    names.join(", ")
                )
            })
        })
        .transpose()
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
