//! X.509 `SubjectPublicKeyInfo` (RFC 5280 §4.1.2.7), PEM label
//! `PUBLIC KEY`: a PKCS#1 public key in a BIT STRING with its algorithm
//! (`rsaEncryption` or `id-RSASSA-PSS`), as `openssl pkey -pubout` writes
//! it.

use super::PEM_LABEL_SPKI;
use super::algorithm::{key_algorithm, key_algorithm_id};
use super::der_errors::{decoding, encoding};
use super::pem::{decode_pem_labelled, pem_string};
use super::pkcs1::{pkcs1_public_doc, public_from_pkcs1};
use crate::RsaPublicKey;
use crate::error::{Error, Result};
use der::asn1::BitStringRef;
use der::{Decode, Document};
use spki::SubjectPublicKeyInfoRef;

impl RsaPublicKey {
    /// Reads an X.509 `SubjectPublicKeyInfo` (DER) with the `rsaEncryption`
    /// algorithm.
    ///
    /// # Errors
    ///
    /// [`Error::Encoding`] for malformed DER or another algorithm,
    /// [`Error::InvalidKey`] for an unacceptable `n` or `e`.
    pub fn from_spki_der(der: &[u8]) -> Result<Self> {
        public_from_spki_der(der)
    }

    /// Reads an SPKI public key in PEM (`PUBLIC KEY`), as `openssl pkey
    /// -pubout` writes it.
    ///
    /// # Errors
    ///
    /// As [`RsaPublicKey::from_spki_der`], and [`Error::Encoding`] for a
    /// malformed PEM or another label.
    pub fn from_spki_pem(pem: &str) -> Result<Self> {
        let pem = decode_pem_labelled(pem.as_bytes(), PEM_LABEL_SPKI)?;
        public_from_spki_der(&pem)
    }

    /// Writes the key as an X.509 `SubjectPublicKeyInfo` (DER;
    /// `rsaEncryption`, NULL parameters).
    ///
    /// # Errors
    ///
    /// [`Error::Encoding`] if the encoder fails.
    pub fn to_spki_der(&self) -> Result<Vec<u8>> {
        Ok(spki_doc(self)?.into_vec())
    }

    /// Writes the key as SPKI PEM (`PUBLIC KEY`).
    ///
    /// # Errors
    ///
    /// [`Error::Encoding`] if the encoder fails.
    pub fn to_spki_pem(&self) -> Result<String> {
        pem_string(spki_doc(self)?.as_bytes(), PEM_LABEL_SPKI)
    }
}

pub(super) fn public_from_spki_der(der: &[u8]) -> Result<RsaPublicKey> {
    let spki = SubjectPublicKeyInfoRef::from_der(der).map_err(|e| decoding("SubjectPublicKeyInfo", der, e))?;
    public_from_spki(&spki)
}

pub(super) fn public_from_spki(spki: &SubjectPublicKeyInfoRef<'_>) -> Result<RsaPublicKey> {
    let algorithm = key_algorithm(&spki.algorithm, "SubjectPublicKeyInfo")?;
    let bytes = spki
        .subject_public_key
        .as_bytes()
        .ok_or_else(|| Error::Encoding("SubjectPublicKeyInfo: the key BIT STRING has unused bits".into()))?;
    let key = pkcs1::RsaPublicKey::from_der(bytes)
        .map_err(|e| decoding("SubjectPublicKeyInfo: the RSAPublicKey inside", bytes, e))?;
    public_from_pkcs1(&key).map(|k| k.with_algorithm(algorithm))
}

pub(super) fn spki_doc(key: &RsaPublicKey) -> Result<Document> {
    let inner = pkcs1_public_doc(key)?;
    let params = key.algorithm().pss_params_der()?;
    let spki = SubjectPublicKeyInfoRef {
        algorithm: key_algorithm_id(key.algorithm(), &params)?,
        subject_public_key: BitStringRef::from_bytes(inner.as_bytes())
            .map_err(|e| encoding("SubjectPublicKeyInfo", e))?,
    };
    Document::encode_msg(&spki).map_err(|e| encoding("SubjectPublicKeyInfo", e))
}
