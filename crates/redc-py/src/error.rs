//! The exceptions of the package and the mapping of `redc_rsa::Error` onto
//! them, each message prefixed with the argument it is about.

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyType;
use redc_rsa::Error as RsaError;

create_exception!(
    redc,
    Error,
    PyValueError,
    "An input redc refuses: a key, message, ciphertext, parameter or password (a ValueError; the message names the argument)."
);
create_exception!(
    redc,
    InvalidSignature,
    PyException,
    "A signature that does not verify (redc's own, where cryptography is not installed)."
);

/// The class a failed verification raises: pyca's own
/// `cryptography.exceptions.InvalidSignature` where `cryptography` can be
/// imported (so that code written for pyca catches it unchanged), else
/// redc's [`InvalidSignature`] of the same name.
static INVALID_SIGNATURE: PyOnceLock<Py<PyType>> = PyOnceLock::new();

fn invalid_signature(py: Python<'_>) -> &Py<PyType> {
    INVALID_SIGNATURE.get_or_init(py, || {
        py.import("cryptography.exceptions")
            .and_then(|m| m.getattr("InvalidSignature"))
            .ok()
            .and_then(|class| class.cast_into::<PyType>().ok())
            .map_or_else(|| py.get_type::<InvalidSignature>().unbind(), Bound::unbind)
    })
}
create_exception!(
    redc,
    DecryptionError,
    Error,
    "A ciphertext that does not decrypt (OAEP); deliberately says nothing about why."
);
create_exception!(
    redc,
    WrongPassword,
    Error,
    "An encrypted private key that the password does not open, or no password for one."
);

/// Adds the exception classes to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("Error", py.get_type::<Error>())?;
    m.add("InvalidSignature", invalid_signature(py).bind(py))?;
    m.add("DecryptionError", py.get_type::<DecryptionError>())?;
    m.add("WrongPassword", py.get_type::<WrongPassword>())?;
    Ok(())
}

/// `err` as the Python exception for argument `what` (`"data"`,
/// `"messages[3]"`). A failed verification of one signature says only
/// "invalid signature", as pyca's does; a batch item's names its index.
pub(crate) fn rsa_err(what: &str, err: &RsaError) -> PyErr {
    match err {
        RsaError::Verification => {
            let message = if what.contains('[') {
                format!("{what}: invalid signature")
            } else {
                "invalid signature".to_owned()
            };
            Python::attach(|py| PyErr::from_type(invalid_signature(py).bind(py).clone(), message))
        }
        RsaError::Decryption => DecryptionError::new_err(format!("{what}: decryption failed")),
        RsaError::PasswordRequired | RsaError::WrongPassword => WrongPassword::new_err(format!("{what}: {err}")),
        _ => Error::new_err(format!("{what}: {err}")),
    }
}

/// A [`Error`] naming `what`.
pub(crate) fn bad(what: &str, message: impl core::fmt::Display) -> PyErr {
    Error::new_err(format!("{what}: {message}"))
}
