//! PEM (RFC 7468) around the DER of a key file: the first block of a file
//! (text around it ignored, §2), with its label. The reader of every key
//! format of `redc-rsa` and `redc-ffc`.

use crate::error::{Error, Result};
use crate::find;
use zeroize::Zeroizing;

/// A decoded PEM block: its label and its (secret-safe) DER contents.
#[derive(Debug)]
pub struct Pem {
    /// The label of its `-----BEGIN` line.
    pub label: String,
    /// The DER contents, wiped on drop.
    pub der: Zeroizing<Vec<u8>>,
}

/// The first PEM block of `bytes`, without the text around it (RFC 7468 §2
/// lets parsers ignore it): from `-----BEGIN ` to the end of its
/// `-----END ...-----` line (or to the end of the input when that is missing,
/// so that the decoder reports it).
fn pem_block(bytes: &[u8]) -> Option<&[u8]> {
    let start = find(bytes, b"-----BEGIN ")?;
    let rest = bytes.get(start..)?;
    let Some(end) = find(rest, b"-----END ") else {
        return Some(rest);
    };
    let after = rest.get(end + 9..)?;
    match find(after, b"-----") {
        Some(close) => rest.get(..end + 9 + close + 5),
        None => Some(rest),
    }
}

/// The first PEM block of `bytes` (text around it ignored, RFC 7468 §2),
/// decoded.
///
/// # Errors
///
/// [`Error::Encoding`] without a `-----BEGIN` line, for PEM headers (a
/// legacy OpenSSL-encrypted key) and for malformed PEM.
pub fn decode_pem(bytes: &[u8]) -> Result<Pem> {
    let block = pem_block(bytes).ok_or_else(|| {
        Error::Encoding("not a key: neither DER (a SEQUENCE) nor PEM (no \"-----BEGIN\" line)".into())
    })?;
    match der::pem::decode_vec(block) {
        Ok((label, der)) => Ok(Pem {
            label: label.to_owned(),
            der: Zeroizing::new(der),
        }),
        Err(der::pem::Error::HeaderDisallowed) => Err(Error::Encoding(
            "PEM headers are not supported: this looks like a legacy OpenSSL-encrypted key (Proc-Type/DEK-Info); \
             convert it with `openssl pkcs8 -topk8 -v2 aes-256-cbc`"
                .into(),
        )),
        Err(err) => Err(Error::Encoding(format!("malformed PEM: {err}"))),
    }
}
