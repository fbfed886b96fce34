//! placeholder until the runtime lands (replaced at merge)
#![allow(missing_docs)]
#[derive(Debug, thiserror::Error)]
pub enum CudaError {
    #[error("this redc was built without CUDA support; rebuild with `cargo build --release -p redc-cli --features cuda`")]
    NotBuilt,
}
pub fn install() -> Result<(), CudaError> {
    Err(CudaError::NotBuilt)
}
pub fn probe() -> Result<String, CudaError> {
    Err(CudaError::NotBuilt)
}
