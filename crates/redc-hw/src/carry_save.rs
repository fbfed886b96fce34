//! Placeholder, replaced by the model.

use crate::{Arch, Big, Circuit, HwError, Table};

/// Builds the model.
pub fn build(arch: Arch, n: &Big, radix: Option<u32>) -> Result<Box<dyn Circuit>, HwError> {
    let _ = (arch, n, radix);
    Err(HwError::Unsupported("not yet".into()))
}

/// The paper's tables.
pub fn tables() -> Vec<Table> {
    Vec::new()
}
