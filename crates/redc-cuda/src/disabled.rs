//! The runtime of a build without the `cuda` feature: every entry point
//! fails with [`CudaError::NotBuilt`], and no [`Runtime`] can exist.

use crate::plan::Plan;
use crate::{CudaError, DeviceInfo, KernelReport, Secrecy};
use redc::engine::device::{DeviceBatch, DeviceError};
use std::path::Path;
use zeroize::Zeroizing;

/// Fails: no GPU support was built.
pub(crate) fn probe() -> Result<DeviceInfo, CudaError> {
    Err(CudaError::NotBuilt)
}

/// Fails: no GPU support was built.
pub(crate) fn precompile(_dir: &Path, _major: u32, _minor: u32) -> Result<usize, CudaError> {
    Err(CudaError::NotBuilt)
}

/// Uninhabited: without the feature no GPU is ever opened.
#[derive(Debug)]
pub(crate) enum Runtime {}

impl Runtime {
    /// Fails: no GPU support was built.
    pub(crate) fn open(_plan: Plan, _cache: Option<&Path>) -> Result<Runtime, CudaError> {
        Err(CudaError::NotBuilt)
    }

    pub(crate) fn info(&self) -> &DeviceInfo {
        match *self {}
    }

    pub(crate) fn threads(&self, _digits: usize, _secrecy: Secrecy) -> Option<usize> {
        match *self {}
    }

    pub(crate) fn plan_spec(&self) -> String {
        match *self {}
    }

    pub(crate) fn compile(&self, _pairs: &[(usize, usize)]) -> Result<(), CudaError> {
        match *self {}
    }

    pub(crate) fn report(&self, _threads: usize, _digits: usize, _secrecy: Secrecy) -> Result<KernelReport, CudaError> {
        match *self {}
    }

    pub(crate) fn leftover_words(&self) -> Result<usize, DeviceError> {
        match *self {}
    }

    pub(crate) fn pow(
        &self,
        _threads: Option<usize>,
        _secrecy: Secrecy,
        _batch: &DeviceBatch<'_>,
    ) -> Result<Zeroizing<Vec<u32>>, DeviceError> {
        match *self {}
    }
}
