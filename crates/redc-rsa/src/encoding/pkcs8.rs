//! PKCS#8 `PrivateKeyInfo` (RFC 5208 §5), PEM label `PRIVATE KEY`: a
//! PKCS#1 private key with its algorithm (`rsaEncryption` or
//! `id-RSASSA-PSS`), version 0.

use super::PEM_LABEL_PKCS8_PRIVATE;
use super::algorithm::{key_algorithm, key_algorithm_id};
use super::der_errors::{decoding, encoding};
use super::pem::{decode_pem_labelled, secret_pem};
use super::pkcs1::{pkcs1_private_doc, private_from_pkcs1};
use crate::RsaPrivateKey;
use crate::error::Result;
use der::{Decode, SecretDocument};
use pkcs8::PrivateKeyInfo;
use zeroize::Zeroizing;

impl RsaPrivateKey {
    /// Reads a PKCS#8 `PrivateKeyInfo` (DER) with the `rsaEncryption`
    /// algorithm and checks the key.
    ///
    /// # Errors
    ///
    /// As [`RsaPrivateKey::from_pkcs1_der`], and [`Error::Encoding`](crate::error::Error::Encoding) for
    /// another algorithm.
    pub fn from_pkcs8_der(der: &[u8]) -> Result<Self> {
        private_from_pkcs8_der(der)
    }

    /// Reads a PKCS#8 private key in PEM (`PRIVATE KEY`).
    ///
    /// # Errors
    ///
    /// As [`RsaPrivateKey::from_pkcs8_der`], and [`Error::Encoding`](crate::error::Error::Encoding) for a
    /// malformed PEM or another label.
    pub fn from_pkcs8_pem(pem: &str) -> Result<Self> {
        let pem = decode_pem_labelled(pem.as_bytes(), PEM_LABEL_PKCS8_PRIVATE)?;
        private_from_pkcs8_der(&pem)
    }

    /// Writes the key as a PKCS#8 `PrivateKeyInfo` (DER; `rsaEncryption`
    /// with NULL parameters, or `id-RSASSA-PSS` with the key's parameters;
    /// version 0).
    ///
    /// # Errors
    ///
    /// [`Error::Encoding`](crate::error::Error::Encoding) if the encoder fails.
    pub fn to_pkcs8_der(&self) -> Result<Zeroizing<Vec<u8>>> {
        Ok(pkcs8_private_doc(self)?.to_bytes())
    }

    /// Writes the key as PKCS#8 PEM (`PRIVATE KEY`), as `openssl genpkey` does.
    ///
    /// # Errors
    ///
    /// [`Error::Encoding`](crate::error::Error::Encoding) if the encoder fails.
    pub fn to_pkcs8_pem(&self) -> Result<Zeroizing<String>> {
        secret_pem(&pkcs8_private_doc(self)?, PEM_LABEL_PKCS8_PRIVATE)
    }
}

pub(super) fn private_from_pkcs8_der(der: &[u8]) -> Result<RsaPrivateKey> {
    let info = PrivateKeyInfo::from_der(der).map_err(|e| decoding("PKCS#8 PrivateKeyInfo", der, e))?;
    private_from_pkcs8(&info)
}

pub(super) fn private_from_pkcs8(info: &PrivateKeyInfo<'_>) -> Result<RsaPrivateKey> {
    let algorithm = key_algorithm(&info.algorithm, "PKCS#8 PrivateKeyInfo")?;
    let key = pkcs1::RsaPrivateKey::from_der(info.private_key)
        .map_err(|e| decoding("PKCS#8 PrivateKeyInfo: the RSAPrivateKey inside", info.private_key, e))?;
    private_from_pkcs1(&key).map(|k| k.with_algorithm(algorithm))
}

pub(super) fn pkcs8_private_doc(key: &RsaPrivateKey) -> Result<SecretDocument> {
    let inner = pkcs1_private_doc(key)?;
    let algorithm = key.public_key().algorithm();
    let params = algorithm.pss_params_der()?;
    let info = PrivateKeyInfo::new(key_algorithm_id(algorithm, &params)?, inner.as_bytes());
    SecretDocument::encode_msg(&info).map_err(|e| encoding("PKCS#8 PrivateKeyInfo", e))
}
