//! A padding scheme as the Python layer hands it over: the tuple
//! `(kind, hash, mgf_hash, salt, label)` made from a pyca-shaped padding
//! object (`redc.padding` or `cryptography`'s own) and a hash.

use crate::error::{bad, rsa_err};
use pyo3::prelude::*;
use redc_rsa::padding::{EncryptionPadding, Oaep, Pkcs1v15Encrypt, Pkcs1v15Sign, Pss, SignaturePadding};
use redc_rsa::{Error as RsaError, HashAlg, RsaPublicKey};

/// The scheme tuple: kind (`pss`, `pkcs1v15`, `oaep`), the hash and MGF1
/// hash names, PSS's salt length (see [`Salt::from_code`]) and OAEP's label.
#[derive(FromPyObject)]
pub(crate) struct SchemeArgs(String, String, String, i64, Vec<u8>);

/// PSS's salt length.
#[derive(Clone, Copy)]
pub(crate) enum Salt {
    /// The hash's output length (`PSS.DIGEST_LENGTH`).
    Digest,
    /// As long as the key allows (`PSS.MAX_LENGTH`).
    Max,
    /// Any, read from the signature (`PSS.AUTO`; verification only).
    Auto,
    /// Exactly this many bytes.
    Exact(usize),
}

impl Salt {
    /// `-1` max, `-2` digest, `-3` auto, else the length.
    fn from_code(code: i64) -> PyResult<Salt> {
        match code {
            -1 => Ok(Salt::Max),
            -2 => Ok(Salt::Digest),
            -3 => Ok(Salt::Auto),
            n => usize::try_from(n)
                .map(Salt::Exact)
                .map_err(|_| bad("salt_length", format!("{n} is not a length"))),
        }
    }

    /// The salt length to sign with under `key` (`None`: the hash length);
    /// one that does not fit the key is an error naming `salt_length` (as
    /// pyca's), not a failure of every item.
    pub(crate) fn for_signing(self, key: &RsaPublicKey, hash: HashAlg) -> PyResult<Option<usize>> {
        let max = max_salt(key, hash)?;
        let n = match self {
            Salt::Auto => return Err(bad("salt_length", "PSS.AUTO is for verification only")),
            Salt::Max => max,
            Salt::Digest => hash.output_len(),
            Salt::Exact(n) => n,
        };
        if n > max {
            return Err(bad(
                "salt_length",
                format!(
                    "{n} bytes do not fit: at most {max} with a {}-bit key and {}",
                    key.bits(),
                    hash.name()
                ),
            ));
        }
        Ok(Some(n))
    }

    /// The salt length a signature must have under `key` (`None`: any). A
    /// length no signature of this key can have makes every signature
    /// invalid, as in pyca/cryptography.
    pub(crate) fn for_verifying(self, key: &RsaPublicKey, hash: HashAlg) -> PyResult<Option<usize>> {
        Ok(match self {
            Salt::Auto => None,
            Salt::Max => Some(max_salt(key, hash)?),
            Salt::Digest => Some(hash.output_len()),
            Salt::Exact(n) => Some(n),
        })
    }
}

/// The longest salt of a PSS signature of `key` with `hash`: `emLen - hLen
/// - 2` (RFC 8017 §9.1.1 step 3), `emLen = ceil((modBits - 1) / 8)`.
fn max_salt(key: &RsaPublicKey, hash: HashAlg) -> PyResult<usize> {
    (key.bits() - 1)
        .div_ceil(8)
        .checked_sub(hash.output_len() + 2)
        .ok_or_else(|| rsa_err("key", &RsaError::KeyTooSmall))
}

/// A scheme with its hashes found.
pub(crate) enum Scheme {
    /// RSASSA-PSS with MGF1.
    Pss {
        /// The message hash.
        hash: HashAlg,
        /// MGF1's hash.
        mgf: HashAlg,
        /// The salt length.
        salt: Salt,
    },
    /// PKCS#1 v1.5 (signature: with this hash; encryption: no hash).
    Pkcs1v15 {
        /// The hash of a signature (`None` for encryption).
        hash: Option<HashAlg>,
    },
    /// RSAES-OAEP with MGF1.
    Oaep {
        /// The label hash.
        hash: HashAlg,
        /// MGF1's hash.
        mgf: HashAlg,
        /// The label.
        label: Vec<u8>,
    },
}

impl Scheme {
    /// What depends on the scheme and the key only, checked once per call
    /// so that the error names the parameter instead of filling every slot
    /// (PSS's salt is checked by [`Salt`]).
    pub(crate) fn check(&self, key: &RsaPublicKey) -> PyResult<()> {
        let (k, bits) = (key.size(), key.bits());
        match self {
            Scheme::Pss { hash, mgf, .. } => {
                if (hash.is_xof() || mgf.is_xof()) && hash != mgf {
                    return Err(bad(
                        "mgf",
                        format!(
                            "{} with {}: RFC 8702 pairs each SHAKE with itself",
                            hash.name(),
                            mgf.name()
                        ),
                    ));
                }
            }
            Scheme::Pkcs1v15 { hash: Some(h) } => {
                let Some(prefix) = h.digest_info_prefix() else {
                    return Err(bad("algorithm", format!("{} has no PKCS#1 v1.5 DigestInfo", h.name())));
                };
                if k < prefix.len() + h.output_len() + 11 {
                    return Err(bad(
                        "algorithm",
                        format!("a {bits}-bit key is too small for PKCS#1 v1.5 with {}", h.name()),
                    ));
                }
            }
            Scheme::Pkcs1v15 { hash: None } => {}
            Scheme::Oaep { hash, mgf, .. } => {
                for (what, h) in [("algorithm", hash), ("mgf", mgf)] {
                    if h.is_xof() {
                        return Err(bad(what, format!("{} is not defined for OAEP", h.name())));
                    }
                }
                if k < 2 * hash.output_len() + 2 {
                    return Err(bad(
                        "algorithm",
                        format!("{} is too long for OAEP with a {bits}-bit key", hash.name()),
                    ));
                }
            }
        }
        Ok(())
    }
}

impl Scheme {
    /// The padding of a signature (`signing`) or of its verification under
    /// `key`: PSS with its salt length ([`Salt::for_signing`],
    /// [`Salt::for_verifying`]) or PKCS#1 v1.5 with its hash; OAEP and a
    /// PKCS#1 v1.5 without a hash are refused.
    pub(crate) fn signature_padding(&self, key: &RsaPublicKey, signing: bool) -> PyResult<SignaturePadding> {
        match *self {
            Scheme::Pss { hash, mgf, salt } => Ok(Pss {
                hash,
                mgf_hash: mgf,
                salt_len: match signing {
                    true => salt.for_signing(key, hash)?,
                    false => salt.for_verifying(key, hash)?,
                },
            }
            .into()),
            Scheme::Pkcs1v15 { hash: Some(hash) } => Ok(Pkcs1v15Sign::new(hash).into()),
            Scheme::Pkcs1v15 { hash: None } => Err(bad("algorithm", "a PKCS1v15 signature needs a hash")),
            Scheme::Oaep { .. } if signing => Err(bad("padding", "OAEP is for encryption; sign with PSS or PKCS1v15")),
            Scheme::Oaep { .. } => Err(bad("padding", "OAEP is for encryption; verify PSS or PKCS1v15")),
        }
    }

    /// The padding of an encryption or decryption: OAEP with its hashes
    /// and label, or PKCS#1 v1.5 (whatever its hash); PSS is refused.
    pub(crate) fn encryption_padding(self) -> PyResult<EncryptionPadding> {
        match self {
            Scheme::Oaep { hash, mgf, label } => Ok(Oaep {
                hash,
                mgf_hash: mgf,
                label,
            }
            .into()),
            Scheme::Pkcs1v15 { .. } => Ok(Pkcs1v15Encrypt.into()),
            Scheme::Pss { .. } => Err(bad(
                "padding",
                "PSS is for signatures; encrypt and decrypt with OAEP or PKCS1v15",
            )),
        }
    }
}

/// The hash called `name`; `what` names the argument.
fn hash(name: &str, what: &str) -> PyResult<HashAlg> {
    HashAlg::from_name(name).ok_or_else(|| {
        let names: Vec<_> = HashAlg::ALL.iter().map(|h| h.name()).collect();
        bad(what, format!("unknown hash {name:?} (redc has {})", names.join(", ")))
    })
}

impl TryFrom<SchemeArgs> for Scheme {
    type Error = PyErr;

    fn try_from(SchemeArgs(kind, h, mgf, salt, label): SchemeArgs) -> PyResult<Scheme> {
        match kind.as_str() {
            "pss" => Ok(Scheme::Pss {
                hash: hash(&h, "algorithm")?,
                mgf: hash(&mgf, "mgf")?,
                salt: Salt::from_code(salt)?,
            }),
            "pkcs1v15" if h.is_empty() => Ok(Scheme::Pkcs1v15 { hash: None }),
            "pkcs1v15" => Ok(Scheme::Pkcs1v15 {
                hash: Some(hash(&h, "algorithm")?),
            }),
            "oaep" => Ok(Scheme::Oaep {
                hash: hash(&h, "algorithm")?,
                mgf: hash(&mgf, "mgf")?,
                label,
            }),
            other => Err(bad("padding", format!("unknown padding {other:?}"))),
        }
    }
}
