//! PEM (RFC 7468) around the DER of every key format of this module:
//! reading the first block of a file (text around it ignored, §2) through
//! [`redc_pki::pem`], with its label, and writing with LF line endings and
//! 64-column lines, as OpenSSL writes it.

use super::der_errors::encoding;
use crate::error::{Error, Result};
use der::SecretDocument;
use der::pem::LineEnding;
use zeroize::Zeroizing;

pub use redc_pki::pem::{Pem, decode_pem};

/// The DER contents of a PEM block that must carry `label`.
pub(super) fn decode_pem_labelled(bytes: &[u8], label: &str) -> Result<Zeroizing<Vec<u8>>> {
    let pem = decode_pem(bytes)?;
    if pem.label != label {
        return Err(Error::Encoding(format!(
            "expected PEM label \"{label}\", found \"{}\"",
            pem.label
        )));
    }
    Ok(pem.der)
}

pub(super) fn secret_pem(doc: &SecretDocument, label: &'static str) -> Result<Zeroizing<String>> {
    doc.to_pem(label, LineEnding::LF).map_err(|e| encoding("PEM", e))
}

pub(super) fn pem_string(der: &[u8], label: &str) -> Result<String> {
    der::pem::encode_string(label, LineEnding::LF, der).map_err(|e| encoding("PEM", e))
}
