//! The extension module `redc._redc` of the Python package `redc`: RSA keys
//! (`key::Key`), the schemes as batches on redc's engine (`ops`) and
//! Python's `pow` as a batch (`modexp`). Every entry point that computes
//! releases the GIL while the engine runs.
//!
//! The Python layer (`python/redc/`) gives these the shape of
//! pyca/cryptography (padding and hash objects, `sign`, `verify`,
//! `encrypt`, `decrypt`) and turns NumPy and Arrow arrays into lists; this
//! module sees only bytes, ints as big-endian bytes, and tuples of names.
//!
//! Batch entry points answer every item: a value, or the exception of that
//! item (an instance, not raised), named by the argument and its index.
// PyO3 extracts a function's arguments as owned values (`Vec<T>`), never
// as slices: passing by value is how a #[pyfunction] receives a list.
#![allow(clippy::needless_pass_by_value)]

use pyo3::prelude::*;

mod engine;
mod error;
mod items;
mod key;
mod modexp;
mod ops;
mod scheme;

/// The module `redc._redc`.
#[pymodule]
fn _redc(m: &Bound<'_, PyModule>) -> PyResult<()> {
    engine::install_from_env()?;
    m.add_class::<key::Key>()?;
    m.add_function(wrap_pyfunction!(modexp::modexp_batch, m)?)?;
    m.add_function(wrap_pyfunction!(engine::backends, m)?)?;
    m.add_function(wrap_pyfunction!(engine::engine_info, m)?)?;
    m.add_function(wrap_pyfunction!(ops::sign, m)?)?;
    m.add_function(wrap_pyfunction!(ops::verify, m)?)?;
    m.add_function(wrap_pyfunction!(ops::cipher, m)?)?;
    error::register(m)?;
    Ok(())
}
