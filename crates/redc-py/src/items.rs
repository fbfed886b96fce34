//! The items of a batch: bytes-like objects taken from a Python list without
//! copying, each bad one an error of its own slot; and the batch run without
//! the GIL, every slot answered (a value, or its exception instance).

use crate::error::rsa_err;
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedBytes;

/// One slot of a batch: its item, or the error that item already is.
pub(crate) type Slot<I> = PyResult<I>;

/// The name of item `i` of argument `what`: `messages[]` becomes
/// `messages[3]`; a single operation's `data` stays `data`.
pub(crate) fn label(what: &str, i: usize) -> String {
    what.replace("[]", &format!("[{i}]"))
}

/// The items of `items` as bytes (`bytes` and `bytearray`); anything else
/// is a `TypeError` in its slot naming the item and its type.
pub(crate) fn bytes_items(what: &str, items: &[Bound<'_, PyAny>]) -> Vec<Slot<PyBackedBytes>> {
    items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            item.extract::<PyBackedBytes>().map_err(|_| {
                let found = item
                    .get_type()
                    .name()
                    .map_or_else(|_| "?".to_owned(), |n| n.to_string());
                pyo3::exceptions::PyTypeError::new_err(format!("{}: expected bytes, found {found}", label(what, i)))
            })
        })
        .collect()
}

/// Runs `op` on the good items of `slots` without the GIL (one call: one
/// engine batch), then answers every slot in order: `out` of its result, or
/// the exception instance of its error (named `what[i]`).
pub(crate) fn run<I: Sync, T: Send>(
    py: Python<'_>,
    what: &str,
    slots: Vec<Slot<I>>,
    op: impl FnOnce(&[&I]) -> Vec<redc_rsa::Result<T>> + Send,
    out: impl Fn(Python<'_>, T) -> Py<PyAny>,
) -> Vec<Py<PyAny>> {
    let good: Vec<&I> = slots.iter().filter_map(|s| s.as_ref().ok()).collect();
    let mut results = py.detach(|| op(&good)).into_iter();
    let mut answers = Vec::with_capacity(slots.len());
    for (i, slot) in slots.into_iter().enumerate() {
        let answer = match slot {
            Err(e) => e.into_value(py).into_any(),
            Ok(_) => match results.next() {
                Some(Ok(v)) => out(py, v),
                Some(Err(e)) => rsa_err(&label(what, i), &e).into_value(py).into_any(),
                None => crate::error::bad(&label(what, i), "no answer from the engine")
                    .into_value(py)
                    .into_any(),
            },
        };
        answers.push(answer);
    }
    answers
}
