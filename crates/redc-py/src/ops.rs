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
use redc_rsa::{oaep, pkcs1v15, pss};

/// The pairs as plain slices.
fn pairs<'a>(items: &[&'a (PyBackedBytes, PyBackedBytes)]) -> Vec<(&'a [u8], &'a [u8])> {
    items.iter().map(|(m, s)| (&**m, &**s)).collect()
}

/// `bytes` of `b` as a Python object.
fn to_bytes(py: Python<'_>, b: &[u8]) -> Py<PyAny> {
    PyBytes::new(py, b).into_any().unbind()
}

/// The items as plain slices.
fn slices<'a>(items: &[&'a PyBackedBytes]) -> Vec<&'a [u8]> {
    items.iter().map(|b| &***b).collect()
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
    let slots = bytes_items(what, &items);
    let rng = &mut OsRng;
    Ok(match scheme {
        Scheme::Pss { hash, mgf, salt } => {
            let salt = salt.for_signing(key.public_key(), hash)?;
            run(
                py,
                what,
                slots,
                |m| match prehashed {
                    true => pss::sign_digest_batch(&engine, private, hash, mgf, salt, &slices(m), rng),
                    false => pss::sign_batch(&engine, private, hash, mgf, salt, &slices(m), rng),
                },
                |py, s| to_bytes(py, &s),
            )
        }
        Scheme::Pkcs1v15 { hash: Some(hash) } => run(
            py,
            what,
            slots,
            |m| match prehashed {
                true => pkcs1v15::sign_digest_batch(&engine, private, hash, &slices(m), rng),
                false => pkcs1v15::sign_batch(&engine, private, hash, &slices(m), rng),
            },
            |py, s| to_bytes(py, &s),
        ),
        Scheme::Pkcs1v15 { hash: None } => return Err(bad("algorithm", "a PKCS1v15 signature needs a hash")),
        Scheme::Oaep { .. } => return Err(bad("padding", "OAEP is for encryption; sign with PSS or PKCS1v15")),
    })
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
    let none = |py: Python<'_>, ()| py.None();
    let scheme = Scheme::try_from(scheme)?;
    scheme.check(public)?;
    // A verification failure is the signature's: named by `sig_what`.
    let what = sig_what;
    Ok(match scheme {
        Scheme::Pss { hash, mgf, salt } => {
            let salt = salt.for_verifying(public, hash)?;
            run(
                py,
                what,
                slots,
                |items| match prehashed {
                    true => pss::verify_digest_batch(&engine, public, hash, mgf, salt, &pairs(items)),
                    false => pss::verify_batch(&engine, public, hash, mgf, salt, &pairs(items)),
                },
                none,
            )
        }
        Scheme::Pkcs1v15 { hash: Some(hash) } => run(
            py,
            what,
            slots,
            |items| match prehashed {
                true => pkcs1v15::verify_digest_batch(&engine, public, hash, &pairs(items)),
                false => pkcs1v15::verify_batch(&engine, public, hash, &pairs(items)),
            },
            none,
        ),
        Scheme::Pkcs1v15 { hash: None } => return Err(bad("algorithm", "a PKCS1v15 signature needs a hash")),
        Scheme::Oaep { .. } => return Err(bad("padding", "OAEP is for encryption; verify PSS or PKCS1v15")),
    })
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
    let scheme = Scheme::try_from(scheme)?;
    if let Scheme::Pss { .. } = scheme {
        return Err(bad(
            "padding",
            "PSS is for signatures; encrypt and decrypt with OAEP or PKCS1v15",
        ));
    }
    let engine = engine(backend)?;
    let slots = bytes_items(what, items);
    let (public, rng) = (key.public_key(), &mut OsRng);
    let out = |py: Python<'_>, b: Vec<u8>| to_bytes(py, &b);
    let secret_out = |py: Python<'_>, b: zeroize::Zeroizing<Vec<u8>>| to_bytes(py, &b);
    Ok(match (way, scheme) {
        (Way::Encrypt, Scheme::Oaep { hash, mgf, label }) => run(
            py,
            what,
            slots,
            |m| oaep::encrypt_batch(&engine, public, hash, mgf, &label, &slices(m), rng),
            out,
        ),
        (Way::Encrypt, _) => run(
            py,
            what,
            slots,
            |m| pkcs1v15::encrypt_batch(&engine, public, &slices(m), rng),
            out,
        ),
        (Way::Decrypt, scheme) => {
            let private = key.private_key("self")?;
            match scheme {
                Scheme::Oaep { hash, mgf, label } => run(
                    py,
                    what,
                    slots,
                    |c| oaep::decrypt_batch(&engine, private, hash, mgf, &label, &slices(c), rng),
                    secret_out,
                ),
                _ => run(
                    py,
                    what,
                    slots,
                    |c| pkcs1v15::decrypt_batch(&engine, private, &slices(c), rng),
                    secret_out,
                ),
            }
        }
    })
}
