//! The runtime of a build without the `cuda` feature: every entry point
//! fails with [`CudaError::NotBuilt`], and no [`Runtime`] can exist.

use crate::plan::Plan;
use crate::{CudaError, DeviceInfo, Secrecy};
use redc::engine::device::{DeviceBatch, DeviceError};
use zeroize::Zeroizing;

/// Fails: no GPU support was built.
pub(crate) fn probe() -> Result<DeviceInfo, CudaError> {
    Err(CudaError::NotBuilt)
}

/// Uninhabited: without the feature no GPU is ever opened.
#[derive(Debug)]
pub(crate) enum Runtime {}

impl Runtime {
    /// Fails: no GPU support was built.
    pub(crate) fn open(_plan: Plan) -> Result<Runtime, CudaError> {
        Err(CudaError::NotBuilt)
    }

    pub(crate) fn info(&self) -> &DeviceInfo {
        match *self {}
    }

    pub(crate) fn threads(&self, _digits: usize) -> Option<usize> {
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
