//! The `AlgorithmIdentifier` of an RSA key in PKCS#8 (RFC 5208) and SPKI
//! (RFC 5280): `rsaEncryption` (RFC 8017 A.1) with NULL parameters, or
//! `id-RSASSA-PSS` (RFC 4055 §3.1) with its own; read (a key of another
//! algorithm named when it is a known one) and written.

use super::RSA_ENCRYPTION_OID;
use super::der_errors::encoding;
use crate::error::{Error, Result};
use crate::pss_key::{KeyAlgorithm, RSASSA_PSS_OID};
use der::Decode;
use der::asn1::AnyRef;
use spki::AlgorithmIdentifierRef;

/// The keys of other algorithms a user may hand over, by their
/// `AlgorithmIdentifier` (RFC 8410, RFC 5480, RFC 3279, PKCS#3).
const OTHER_KEYS: [(&str, &str); 8] = [
    ("1.3.101.112", "an Ed25519 key"),
    ("1.3.101.113", "an Ed448 key"),
    ("1.3.101.110", "an X25519 key"),
    ("1.3.101.111", "an X448 key"),
    ("1.2.840.10045.2.1", "an EC key (id-ecPublicKey)"),
    ("1.2.840.10040.4.1", "a DSA key"),
    ("1.2.840.113549.1.3.1", "a Diffie-Hellman key (PKCS#3)"),
    ("1.2.840.10046.2.1", "a Diffie-Hellman key (X9.42)"),
];

/// The algorithm of an RSA key's `AlgorithmIdentifier`: `rsaEncryption`
/// with NULL (or absent) parameters, or `id-RSASSA-PSS` with its
/// parameters ([`crate::pss_key`]); any other algorithm is named when it
/// is a known one.
pub(super) fn key_algorithm(alg: &AlgorithmIdentifierRef<'_>, what: &str) -> Result<KeyAlgorithm> {
    if alg.oid == RSASSA_PSS_OID {
        return KeyAlgorithm::pss_from_params(alg.parameters).map_err(|e| match e {
            Error::Encoding(m) => Error::Encoding(format!("{what}: {m}")),
            other => other,
        });
    }
    if alg.oid != RSA_ENCRYPTION_OID {
        let oid = alg.oid.to_string();
        return Err(Error::Encoding(match OTHER_KEYS.iter().find(|(o, _)| *o == oid) {
            Some((_, name)) => format!("{what}: {name} ({oid}), not an RSA key"),
            None => format!("{what}: algorithm {oid} is not rsaEncryption ({RSA_ENCRYPTION_OID}), not an RSA key"),
        }));
    }
    match alg.parameters {
        None => Ok(KeyAlgorithm::Rsa),
        Some(params) if params.is_null() => Ok(KeyAlgorithm::Rsa),
        Some(_) => Err(Error::Encoding(format!(
            "{what}: rsaEncryption parameters must be NULL"
        ))),
    }
}

/// The `AlgorithmIdentifier` of a key of `algorithm` whose parameters'
/// DER is `params` ([`KeyAlgorithm::pss_params_der`]): `rsaEncryption`
/// with NULL parameters, or `id-RSASSA-PSS` with its own (absent for an
/// unrestricted key).
pub(super) fn key_algorithm_id<'a>(
    algorithm: KeyAlgorithm,
    params: &'a Option<Vec<u8>>,
) -> Result<AlgorithmIdentifierRef<'a>> {
    Ok(match algorithm {
        KeyAlgorithm::Rsa => AlgorithmIdentifierRef {
            oid: RSA_ENCRYPTION_OID,
            parameters: Some(AnyRef::NULL),
        },
        KeyAlgorithm::Pss(_) => AlgorithmIdentifierRef {
            oid: RSASSA_PSS_OID,
            parameters: params
                .as_deref()
                .map(AnyRef::from_der)
                .transpose()
                .map_err(|e| encoding("RSASSA-PSS parameters", e))?,
        },
    })
}
