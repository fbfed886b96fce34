//! Key encodings, through the RustCrypto `pkcs1`, `pkcs8`, `spki` and `der`
//! crates (no ASN.1 is written by hand here):
//!
//! | key     | structure                                   | PEM label               |
//! |---------|---------------------------------------------|-------------------------|
//! | private | PKCS#1 `RSAPrivateKey` (RFC 8017 A.1.2)     | `RSA PRIVATE KEY`       |
//! | private | PKCS#8 `PrivateKeyInfo` (RFC 5208)          | `PRIVATE KEY`           |
//! | private | PKCS#8 `EncryptedPrivateKeyInfo` (PBES2)    | `ENCRYPTED PRIVATE KEY` |
//! | public  | X.509 `SubjectPublicKeyInfo` (RFC 5280)     | `PUBLIC KEY`            |
//! | public  | PKCS#1 `RSAPublicKey` (RFC 8017 A.1.1)      | `RSA PUBLIC KEY`        |
//!
//! Each has a reader and a writer for DER and for PEM, as inherent methods of
//! [`RsaPrivateKey`] and [`RsaPublicKey`]; [`read_key`] and
//! [`read_private_key`] detect the format (PEM by its label, DER by trying
//! each structure).
//!
//! Multi-prime keys are read and written with their `otherPrimeInfos`
//! (version 1 when there are more than two primes).
//!
//! Every private key read is checked: [`RsaPrivateKey::from_components`]
//! checks `n`, `e`, `d` and the primes, and the CRT values the file carries
//! (`exponent1`, `exponent2`, `coefficient` and those of `otherPrimeInfos`)
//! must equal the values recomputed from `d` and the primes (compared in
//! constant time). Errors say which value is wrong.
//!
//! Private-key outputs are wiped on drop
//! ([`Zeroizing`](zeroize::Zeroizing)); PEM is written with LF line endings
//! and 64-column lines, as OpenSSL writes it.
//!
//! One file per format (private modules): `pkcs1`, `pkcs8`, `encrypted`
//! (PBES2), `spki`; `pem` around them, `algorithm` for the
//! `AlgorithmIdentifier` of PKCS#8 and SPKI, `der_errors` for what went
//! wrong in DER.

mod algorithm;
mod der_errors;
mod encrypted;
mod key_file;
mod pem;
mod pkcs1;
mod pkcs8;
mod spki;

pub use self::encrypted::Pbes2Kdf;
pub use self::key_file::{Form, PrivateFormat, PublicFormat};
pub use self::pem::{Pem, decode_pem};

use self::der_errors::{has_negative_integer, negative};
use self::encrypted::{private_from_encrypted, private_from_encrypted_der, unsupported_encryption};
use self::pkcs1::{private_from_pkcs1, private_from_pkcs1_der, public_from_pkcs1, public_from_pkcs1_der};
use self::pkcs8::{private_from_pkcs8, private_from_pkcs8_der};
use self::spki::{public_from_spki, public_from_spki_der};
use crate::error::{Error, Result};
use crate::{RsaPrivateKey, RsaPublicKey};
use ::pkcs8::{EncryptedPrivateKeyInfo, PrivateKeyInfo};
use ::spki::SubjectPublicKeyInfoRef;
use der::Decode;
use der::asn1::ObjectIdentifier;

/// The `rsaEncryption` OID (PKCS#1), the algorithm of RSA keys in PKCS#8 and
/// SPKI.
pub const RSA_ENCRYPTION_OID: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.1.1");

/// PEM label of a PKCS#1 private key.
pub const PEM_LABEL_PKCS1_PRIVATE: &str = "RSA PRIVATE KEY";
/// PEM label of a PKCS#8 private key.
pub const PEM_LABEL_PKCS8_PRIVATE: &str = "PRIVATE KEY";
/// PEM label of a password-protected PKCS#8 private key.
pub const PEM_LABEL_PKCS8_ENCRYPTED: &str = "ENCRYPTED PRIVATE KEY";
/// PEM label of an X.509 `SubjectPublicKeyInfo`.
pub const PEM_LABEL_SPKI: &str = "PUBLIC KEY";
/// PEM label of a PKCS#1 public key.
pub const PEM_LABEL_PKCS1_PUBLIC: &str = "RSA PUBLIC KEY";

/// A key read by [`read_key`]: private or public.
#[derive(Debug, Clone)]
pub enum AnyKey {
    /// A private key (from PKCS#1, PKCS#8 or encrypted PKCS#8).
    Private(RsaPrivateKey),
    /// A public key (from SPKI or PKCS#1).
    Public(RsaPublicKey),
}

impl AnyKey {
    /// The public key (of the private key, for [`AnyKey::Private`]).
    pub fn public_key(&self) -> &RsaPublicKey {
        match self {
            Self::Private(key) => key.public_key(),
            Self::Public(key) => key,
        }
    }

    /// The public key, by value.
    pub fn into_public_key(self) -> RsaPublicKey {
        match self {
            Self::Private(key) => key.public_key().clone(),
            Self::Public(key) => key,
        }
    }

    /// The private key, if this is one.
    pub fn private_key(&self) -> Option<&RsaPrivateKey> {
        match self {
            Self::Private(key) => Some(key),
            Self::Public(_) => None,
        }
    }

    /// The private key by value, if this is one.
    pub fn into_private_key(self) -> Option<RsaPrivateKey> {
        match self {
            Self::Private(key) => Some(key),
            Self::Public(_) => None,
        }
    }

    /// The same key at security level `level`
    /// ([`RsaPrivateKey::with_security_level`],
    /// [`RsaPublicKey::with_security_level`]).
    #[must_use]
    pub fn with_security_level(self, level: crate::policy::SecurityLevel) -> Self {
        match self {
            Self::Private(key) => Self::Private(key.with_security_level(level)),
            Self::Public(key) => Self::Public(key.with_security_level(level)),
        }
    }
}

/// Reads a key of any format of this module: PEM (by its label) or DER (by
/// trying PKCS#8, PKCS#1 private, encrypted PKCS#8, SPKI and PKCS#1 public in
/// turn). `password` opens an encrypted PKCS#8 key and is ignored otherwise.
///
/// # Errors
///
/// [`Error::Encoding`] for input that is no key of these formats,
/// [`Error::InvalidKey`] for a key whose numbers do not fit together (the
/// message says which), [`Error::PasswordRequired`] for an encrypted key
/// without a password, [`Error::WrongPassword`] when the password does not
/// open it.
pub fn read_key(bytes: &[u8], password: Option<&[u8]>) -> Result<AnyKey> {
    // Named only once every reader has refused: PEM may follow any text,
    // "ecdsa-sha2-" included (found by fuzz/key_read).
    read_any_key(bytes, password).map_err(|e| match e {
        Error::Encoding(_) => crate::unreadable::diagnose(bytes).map_or(e, Error::Encoding),
        other => other,
    })
}

/// [`read_key`] without the naming of unreadable input.
fn read_any_key(bytes: &[u8], password: Option<&[u8]>) -> Result<AnyKey> {
    if bytes.first() == Some(&0x30) {
        return key_from_der(bytes, password);
    }
    let pem = decode_pem(bytes)?;
    match pem.label.as_str() {
        PEM_LABEL_PKCS1_PRIVATE => private_from_pkcs1_der(&pem.der).map(AnyKey::Private),
        PEM_LABEL_PKCS8_PRIVATE => private_from_pkcs8_der(&pem.der).map(AnyKey::Private),
        PEM_LABEL_PKCS8_ENCRYPTED => {
            let password = password.ok_or(Error::PasswordRequired)?;
            private_from_encrypted_der(&pem.der, password).map(AnyKey::Private)
        }
        PEM_LABEL_SPKI => public_from_spki_der(&pem.der).map(AnyKey::Public),
        PEM_LABEL_PKCS1_PUBLIC => public_from_pkcs1_der(&pem.der).map(AnyKey::Public),
        other => Err(Error::Encoding(format!(
            "unsupported PEM label \"{other}\" (expected {PEM_LABEL_PKCS1_PRIVATE}, {PEM_LABEL_PKCS8_PRIVATE}, \
             {PEM_LABEL_PKCS8_ENCRYPTED}, {PEM_LABEL_SPKI} or {PEM_LABEL_PKCS1_PUBLIC})"
        ))),
    }
}

/// Reads a private key of any format (PKCS#1, PKCS#8, encrypted PKCS#8; PEM
/// or DER), as [`read_key`] does, and refuses a public key.
///
/// # Errors
///
/// As [`read_key`], and [`Error::Encoding`] for a public key.
pub fn read_private_key(bytes: &[u8], password: Option<&[u8]>) -> Result<RsaPrivateKey> {
    match read_key(bytes, password)? {
        AnyKey::Private(key) => Ok(key),
        AnyKey::Public(_) => Err(Error::Encoding("expected a private key, found a public key".into())),
    }
}

/// Reads the public key of a key of any format: a public key, or the public
/// half of a private key (which an encrypted key needs `password` for).
///
/// # Errors
///
/// As [`read_key`].
pub fn read_public_key(bytes: &[u8], password: Option<&[u8]>) -> Result<RsaPublicKey> {
    read_key(bytes, password).map(AnyKey::into_public_key)
}

/// Tries each DER structure in turn; the first that parses decides.
fn key_from_der(der: &[u8], password: Option<&[u8]>) -> Result<AnyKey> {
    if let Ok(info) = PrivateKeyInfo::from_der(der) {
        return private_from_pkcs8(&info).map(AnyKey::Private);
    }
    if let Ok(key) = ::pkcs1::RsaPrivateKey::from_der(der) {
        return private_from_pkcs1(&key).map(AnyKey::Private);
    }
    if let Ok(info) = EncryptedPrivateKeyInfo::from_der(der) {
        let password = password.ok_or(Error::PasswordRequired)?;
        return private_from_encrypted(&info, password).map(AnyKey::Private);
    }
    if let Ok(spki) = SubjectPublicKeyInfoRef::from_der(der) {
        return public_from_spki(&spki).map(AnyKey::Public);
    }
    if let Ok(key) = ::pkcs1::RsaPublicKey::from_der(der) {
        return public_from_pkcs1(&key).map(AnyKey::Public);
    }
    if let Err(e) = EncryptedPrivateKeyInfo::from_der(der)
        && let Some(err) = unsupported_encryption(der, &e)
    {
        return Err(err);
    }
    if has_negative_integer(der, 0) {
        return Err(negative("the key"));
    }
    Err(Error::Encoding(
        "not a DER RSA key: the input is none of PKCS#8 PrivateKeyInfo, PKCS#1 RSAPrivateKey, \
         PKCS#8 EncryptedPrivateKeyInfo, SubjectPublicKeyInfo, PKCS#1 RSAPublicKey"
            .into(),
    ))
}
