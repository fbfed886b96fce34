//! Which engine runs a call: `backend=` per call, else `REDC_BACKEND`, else
//! `auto` (the GPU when this package was built with the `cuda` feature and
//! one can be opened, else the fastest CPU backend), resolved by
//! [`redc_cuda::select`], the resolver the `redc` command uses too (so
//! `REDC_CUDA_THREADS` sets the GPU's plan here as there). A backend this machine
//! cannot run is an error naming what is missing, never a silent fallback.

use crate::error::bad;
use pyo3::prelude::*;
use redc::{Engine, EngineError};
use redc_cuda::select::{self, SelectError};
use std::sync::OnceLock;

/// The engine called `name` (`auto`, `cuda`, or a CPU backend of redc's
/// registry, which names the backends when it has no such one); errors
/// start with `label`.
fn named(name: &str, label: &str) -> PyResult<Engine> {
    select::engine(name).map_err(|e| match e {
        SelectError::Cpu(e @ EngineError::UnknownBackend(_)) => bad(label, format!("{e}, auto or cuda")),
        other => bad(label, other),
    })
}

/// The backend `REDC_BACKEND` names (unset or empty: `auto`).
fn env_name() -> String {
    select::env_backend().unwrap_or_else(|| "auto".to_owned())
}

/// The engine of calls that name none: `REDC_BACKEND`'s, made on first use.
static DEFAULT: OnceLock<Engine> = OnceLock::new();

/// At import: a `REDC_BACKEND` that names no backend, or one this machine
/// cannot run, fails the import naming it; other than `auto`, it also
/// becomes redc's default engine (single operations of the Rust layer).
pub(crate) fn install_from_env() -> PyResult<()> {
    let name = env_name();
    if name == "auto" {
        return Ok(());
    }
    let engine = named(&name, &format!("REDC_BACKEND={name}"))?;
    // The first installation wins; nothing ran before the import.
    let _ = redc::engine::set_default_engine(engine.clone());
    let _ = DEFAULT.set(engine);
    Ok(())
}

/// The engine of a call: `backend` when given, else [`DEFAULT`].
pub(crate) fn engine(backend: Option<&str>) -> PyResult<Engine> {
    match backend {
        Some(name) => named(name, "backend"),
        None => match DEFAULT.get() {
            Some(e) => Ok(e.clone()),
            None => {
                let name = env_name();
                let e = named(&name, &format!("REDC_BACKEND={name}"))?;
                Ok(DEFAULT.get_or_init(|| e).clone())
            }
        },
    }
}

/// The backends this machine can run, fastest first (the GPU, then the CPU
/// backends of redc's registry; always ending with `scalar`).
#[pyfunction]
pub(crate) fn backends() -> Vec<&'static str> {
    select::usable()
}

/// `(name, lanes, description)` of the engine `backend` names (default:
/// the one calls without `backend=` use): what sizes a batch and a Ray
/// actor pool.
#[pyfunction]
#[pyo3(signature = (backend = None))]
pub(crate) fn engine_info(backend: Option<&str>) -> PyResult<(&'static str, usize, String)> {
    let e = engine(backend)?;
    Ok((e.name(), e.lanes(), e.describe()))
}
