//! `redc._redc.Key`: an RSA key, private or public, as read from any format
//! the CLI reads (`redc_rsa::read_key`), generated, or written back. Its
//! secret values never leave Rust except as a key file the caller asks for.

use crate::error::{bad, rsa_err};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use rand_core::OsRng;
use redc_rsa::encoding::Pbes2Kdf;
use redc_rsa::policy::SecurityLevel;
use redc_rsa::{AnyKey, Num, RsaPrivateKey, RsaPublicKey, keygen};

/// The security level `level` (`None`: the default, 2), or an error naming
/// `security_level`.
fn level_of(level: Option<u8>) -> PyResult<SecurityLevel> {
    level.map_or(Ok(SecurityLevel::DEFAULT), |n| {
        SecurityLevel::new(n).map_err(|e| rsa_err("security_level", &e.into()))
    })
}

/// `key` at `level`.
fn at(key: AnyKey, level: SecurityLevel) -> AnyKey {
    match key {
        AnyKey::Private(k) => AnyKey::Private(k.with_security_level(level)),
        AnyKey::Public(k) => AnyKey::Public(k.with_security_level(level)),
    }
}

/// A key, private or public (the Python classes `redc.RSAPrivateKey` and
/// `redc.RSAPublicKey` wrap it).
#[pyclass(module = "redc._redc", frozen)]
pub(crate) struct Key {
    inner: AnyKey,
}

impl Key {
    /// The public key.
    pub(crate) fn public_key(&self) -> &RsaPublicKey {
        self.inner.public_key()
    }

    /// The private key, or an error naming `what` for a public one.
    pub(crate) fn private_key(&self, what: &str) -> PyResult<&RsaPrivateKey> {
        self.inner
            .private_key()
            .ok_or_else(|| bad(what, "this is a public key; the operation needs the private key"))
    }
}

#[pymethods]
impl Key {
    /// Reads a key from `data`: PEM (by its label) or DER, PKCS#1, PKCS#8,
    /// encrypted PKCS#8 (which needs `password`), SPKI.
    /// At security level `level` (`None`: 2, the default; `redc_rsa::policy`).
    #[staticmethod]
    #[pyo3(signature = (data, password = None, level = None))]
    fn load(py: Python<'_>, data: &[u8], password: Option<&[u8]>, level: Option<u8>) -> PyResult<Key> {
        let level = level_of(level)?;
        // scrypt or PBKDF2 may take a while: without the GIL.
        let read = py.detach(|| redc_rsa::read_key(data, password));
        read.map(|inner| Key {
            inner: at(inner, level),
        })
        .map_err(|e| rsa_err("data", &e))
    }

    /// A new private key of `bits` bits with public exponent `e` (big-endian
    /// bytes) and `primes` primes, at security level `level` (which must
    /// accept the size for private operations).
    #[staticmethod]
    #[pyo3(signature = (bits, e, primes, level = None))]
    fn generate(py: Python<'_>, bits: usize, e: &[u8], primes: usize, level: Option<u8>) -> PyResult<Key> {
        let level = level_of(level)?;
        let e = Num::from_be_bytes(e);
        keygen::check_exponent(&e).map_err(|err| rsa_err("public_exponent", &err))?;
        keygen::check_size(bits, primes, level).map_err(|err| match err {
            keygen::SizeError::Primes { .. } => bad("primes", err),
            keygen::SizeError::Level { .. } => bad(
                "key_size",
                format!("{bits} bits: {err} (give security_level= to accept it)"),
            ),
            keygen::SizeError::Bits => bad("key_size", format!("{bits} bits: {err}")),
        })?;
        let key = py.detach(|| keygen::generate_multi(bits, primes, &e, &|_| {}));
        let key = key.map_err(|err| rsa_err("key_size", &err))?;
        Ok(Key {
            inner: AnyKey::Private(key.with_security_level(level)),
        })
    }

    /// The key's security level.
    #[getter]
    fn security_level(&self) -> u8 {
        self.public_key().security_level().get()
    }

    /// The same key at security level `level`.
    fn with_security_level(&self, level: u8) -> PyResult<Key> {
        let level = SecurityLevel::new(level).map_err(|e| rsa_err("security_level", &e.into()))?;
        Ok(Key {
            inner: at(self.inner.clone(), level),
        })
    }

    /// Whether this is a private key.
    #[getter]
    fn is_private(&self) -> bool {
        self.inner.private_key().is_some()
    }

    /// The modulus size in bits.
    #[getter]
    fn bits(&self) -> usize {
        self.public_key().bits()
    }

    /// The modulus size in bytes (of a signature or ciphertext).
    #[getter]
    fn size(&self) -> usize {
        self.public_key().size()
    }

    /// Primes of a private key (2 or more), 0 for a public key.
    #[getter]
    fn primes(&self) -> usize {
        self.inner.private_key().map_or(0, |k| k.primes().len())
    }

    /// The modulus `n`, big-endian.
    fn n<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.public_key().n().to_be_bytes())
    }

    /// The public exponent `e`, big-endian.
    fn e<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, &self.public_key().e().to_be_bytes())
    }

    /// SHA-256 of the DER SubjectPublicKeyInfo (the envelope's key id; what
    /// `openssl pkey -pubin -outform DER | sha256sum` prints).
    fn key_id<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let spki = self.public_key().to_spki_der().map_err(|e| rsa_err("key", &e))?;
        Ok(PyBytes::new(py, &redc_rsa::envelope::key_id_of(&spki)))
    }

    /// The public key alone.
    fn public(&self) -> Key {
        Key {
            inner: AnyKey::Public(self.public_key().clone()),
        }
    }

    /// The private key as `format` (`pkcs8`, `pkcs1`), DER or PEM, under
    /// `password` (PKCS#8 only: PBES2, scrypt and AES-256-CBC).
    #[pyo3(signature = (format, der, password = None))]
    fn private_bytes<'py>(
        &self,
        py: Python<'py>,
        format: &str,
        der: bool,
        password: Option<&[u8]>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let key = self.private_key("self")?;
        let err = |e: redc_rsa::Error| rsa_err("private_bytes", &e);
        let out: Vec<u8> = match (format, password) {
            ("pkcs8", None) if der => key.to_pkcs8_der().map_err(err)?.to_vec(),
            ("pkcs8", None) => key.to_pkcs8_pem().map_err(err)?.as_bytes().to_vec(),
            ("pkcs8", Some(pw)) => {
                let kdf = Pbes2Kdf::default();
                let written = py.detach(|| {
                    if der {
                        key.to_pkcs8_encrypted_der(pw, kdf, &mut OsRng)
                    } else {
                        key.to_pkcs8_encrypted_pem(pw, kdf, &mut OsRng).map(String::into_bytes)
                    }
                });
                written.map_err(err)?
            }
            ("pkcs1", None) if der => key.to_pkcs1_der().map_err(err)?.to_vec(),
            ("pkcs1", None) => key.to_pkcs1_pem().map_err(err)?.as_bytes().to_vec(),
            ("pkcs1", Some(_)) => {
                return Err(bad(
                    "encryption_algorithm",
                    "redc encrypts PKCS#8 keys only (format PKCS8); TraditionalOpenSSL keys are written in the clear",
                ));
            }
            (other, _) => return Err(bad("format", format!("unknown private key format {other:?}"))),
        };
        let out = zeroize::Zeroizing::new(out);
        Ok(PyBytes::new(py, &out))
    }

    /// The public key as `format` (`spki`, `pkcs1`), DER or PEM.
    fn public_bytes<'py>(&self, py: Python<'py>, format: &str, der: bool) -> PyResult<Bound<'py, PyBytes>> {
        let key = self.public_key();
        let err = |e: redc_rsa::Error| rsa_err("public_bytes", &e);
        let out = match format {
            "spki" if der => key.to_spki_der().map_err(err)?,
            "spki" => key.to_spki_pem().map_err(err)?.into_bytes(),
            "pkcs1" if der => key.to_pkcs1_der().map_err(err)?,
            "pkcs1" => key.to_pkcs1_pem().map_err(err)?.into_bytes(),
            other => return Err(bad("format", format!("unknown public key format {other:?}"))),
        };
        Ok(PyBytes::new(py, &out))
    }
}
