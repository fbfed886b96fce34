//! The schemes on a [`Key`], each a batch on the engine (a single operation
//! of the Python layer is a batch of one): sign, verify, encrypt, decrypt.
//! Every slot is answered; see [`crate::items::run`].

use crate::engine::engine;
use crate::error::bad;
use crate::items::{Slot, bytes_items, run};
use crate::key::Key;
use crate::scheme::{Scheme, SchemeArgs};
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedBytes;
use pyo3::types::PyBytes;
use rand_core::OsRng;
use redc_rsa::scheme::Batch;

/// `bytes` of `b` as a Python object.
fn to_bytes(py: Python<'_>, b: &[u8]) -> Py<PyAny> {
    PyBytes::new(py, b).into_any().unbind()
}

/// The items as plain slices.
fn slices<'a>(items: &[&'a PyBackedBytes]) -> Vec<&'a [u8]> {
    items.iter().map(|b| &***b).collect()
}

/// The items as a batch of messages, or of digests when `prehashed`.
fn batch<'a>(items: &'a [&'a [u8]], prehashed: bool) -> Batch<'a> {
    if prehashed {
        Batch::Digests(items)
    } else {
        Batch::Messages(items)
    }
}

/// Signs every item of `items` (messages, or digests when `prehashed`):
/// a signature, or the exception of that item.
#[pyfunction]
#[pyo3(signature = (key, items, what, scheme, prehashed, backend = None))]
pub(crate) fn sign(
    py: Python<'_>,
    key: &Bound<'_, Key>,
    items: Vec<Bound<'_, PyAny>>,
    what: &str,
    scheme: SchemeArgs,
    prehashed: bool,
    backend: Option<&str>,
) -> PyResult<Vec<Py<PyAny>>> {
    let key = key.get();
    let private = key.private_key("self")?;
    let engine = engine(backend)?;
    let scheme = Scheme::try_from(scheme)?;
    scheme.check(key.public_key())?;
    let padding = scheme.signature_padding(key.public_key(), true)?;
    let slots = bytes_items(what, &items);
    Ok(run(
        py,
        what,
        slots,
        |m| private.sign_batch(&engine, padding, batch(&slices(m), prehashed), &mut OsRng),
        |py, s| to_bytes(py, &s),
    ))
}

/// Verifies every `(message, signature)` pair (digests when `prehashed`):
/// `None` for a valid signature, else the exception of that item (the
/// messages named by `what`, the signatures by `sig_what`).
#[pyfunction]
#[pyo3(signature = (key, messages, signatures, what, sig_what, scheme, prehashed, backend = None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn verify(
    py: Python<'_>,
    key: &Bound<'_, Key>,
    messages: Vec<Bound<'_, PyAny>>,
    signatures: Vec<Bound<'_, PyAny>>,
    what: &str,
    sig_what: &str,
    scheme: SchemeArgs,
    prehashed: bool,
    backend: Option<&str>,
) -> PyResult<Vec<Py<PyAny>>> {
    if messages.len() != signatures.len() {
        return Err(bad(
            "signatures",
            format!("{} signatures for {} messages", signatures.len(), messages.len()),
        ));
    }
    let public = key.get().public_key();
    let engine = engine(backend)?;
    let slots: Vec<Slot<(PyBackedBytes, PyBackedBytes)>> = bytes_items(what, &messages)
        .into_iter()
        .zip(bytes_items(sig_what, &signatures))
        .map(|(m, s)| Ok((m?, s?)))
        .collect();
    let scheme = Scheme::try_from(scheme)?;
    scheme.check(public)?;
    let padding = scheme.signature_padding(public, false)?;
    // A verification failure is the signature's: named by `sig_what`.
    let what = sig_what;
    Ok(run(
        py,
        what,
        slots,
        |items| {
            let (msgs, sigs): (Vec<&[u8]>, Vec<&[u8]>) = items.iter().map(|(m, s)| (&**m, &**s)).unzip();
            public.verify_batch(&engine, padding, batch(&msgs, prehashed), &sigs)
        },
        |py, ()| py.None(),
    ))
}

/// Encrypts (`decrypt` false) or decrypts every item: a ciphertext or a
/// plaintext, or the exception of that item. PKCS#1 v1.5 decryption uses
/// implicit rejection: an invalid ciphertext gives a synthetic message, as
/// OpenSSL 3.2 and later do.
#[pyfunction]
#[pyo3(signature = (key, items, what, scheme, decrypt, backend = None))]
pub(crate) fn cipher(
    py: Python<'_>,
    key: &Bound<'_, Key>,
    items: Vec<Bound<'_, PyAny>>,
    what: &str,
    scheme: SchemeArgs,
    decrypt: bool,
    backend: Option<&str>,
) -> PyResult<Vec<Py<PyAny>>> {
    let way = if decrypt { Way::Decrypt } else { Way::Encrypt };
    run_cipher(py, key.get(), &items, what, scheme, backend, way)
}

/// Which way [`run_cipher`] goes.
#[derive(Clone, Copy)]
enum Way {
    Encrypt,
    Decrypt,
}

/// [`cipher`]: OAEP or PKCS#1 v1.5, one engine batch.
fn run_cipher(
    py: Python<'_>,
    key: &Key,
    items: &[Bound<'_, PyAny>],
    what: &str,
    scheme: SchemeArgs,
    backend: Option<&str>,
    way: Way,
) -> PyResult<Vec<Py<PyAny>>> {
    let padding = Scheme::try_from(scheme)?.encryption_padding()?;
    let engine = engine(backend)?;
    let slots = bytes_items(what, items);
    let rng = &mut OsRng;
    Ok(match way {
        Way::Encrypt => run(
            py,
            what,
            slots,
            |m| key.public_key().encrypt_batch(&engine, &padding, &slices(m), rng),
            |py, b| to_bytes(py, &b),
        ),
        Way::Decrypt => {
            let private = key.private_key("self")?;
            run(
                py,
                what,
                slots,
                |c| private.decrypt_batch(&engine, &padding, &slices(c), rng),
                |py, b| to_bytes(py, &b),
            )
        }
    })
}
