//! Placeholder, replaced by the model.

use crate::{Big, Circuit, CrtKey, CrtRun, HwError, Table};

/// Builds the model.
pub fn build(n: &Big, radix: Option<u32>) -> Result<Box<dyn Circuit>, HwError> {
    let _ = (n, radix);
    Err(HwError::Unsupported("not yet".into()))
}

/// The paper's tables.
pub fn tables() -> Vec<Table> {
    Vec::new()
}

/// CRT decryption.
pub fn crt_decrypt(key: &CrtKey, c: &Big, radix: Option<u32>, parallel: bool) -> Result<CrtRun, HwError> {
    let _ = (key, c, radix, parallel);
    Err(HwError::Unsupported("not yet".into()))
}
