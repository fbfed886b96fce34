//! Placeholder, replaced by the model.

use crate::{Big, Circuit, HwError, Table};

/// Builds the model.
pub fn build(n: &Big, radix: Option<u32>) -> Result<Box<dyn Circuit>, HwError> {
    let _ = (n, radix);
    Err(HwError::Unsupported("not yet".into()))
}

/// The paper's tables.
pub fn tables() -> Vec<Table> {
    Vec::new()
}
