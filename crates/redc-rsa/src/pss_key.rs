//! RSASSA-PSS keys: the `id-RSASSA-PSS` algorithm of SPKI and PKCS#8 key
//! files (RFC 4055 §3.1, RFC 8017 Appendix A.2.3), which says a key is for
//! PSS signatures only, and whose parameters, when present, restrict its
//! signatures to one hash, one MGF1 hash and a least salt length
//! (OpenSSL's `genpkey -algorithm RSA-PSS -pkeyopt rsa_pss_keygen_md:...`).
//!
//! A key carries its [`KeyAlgorithm`]; the schemes ask it: PKCS#1 v1.5 and
//! OAEP refuse a PSS key, PSS refuses a hash, an MGF1 hash or a salt its
//! restriction does not allow, and signs by default with its salt length.

use crate::error::{Error, Result};
use crate::hash::HashAlg;
use der::asn1::{AnyRef, ObjectIdentifier};
use der::{Reader, SliceReader, Tag, TagMode, TagNumber, Tagged};
use spki::{AlgorithmIdentifier, AlgorithmIdentifierRef};

/// `id-RSASSA-PSS` (RFC 8017 Appendix A.2.3).
pub const RSASSA_PSS_OID: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.1.10");
/// `id-mgf1`.
const MGF1_OID: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.1.8");
/// The salt length when the parameters leave it out.
const DEFAULT_SALT: u32 = 20;

/// The restriction of an RSASSA-PSS key with parameters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PssRestriction {
    /// The message hash every signature uses.
    pub hash: HashAlg,
    /// The MGF1 hash every signature uses.
    pub mgf1_hash: HashAlg,
    /// The least salt length, in bytes (and the default for signing).
    pub salt_len: usize,
}

/// What a key is for: any RSA scheme (`rsaEncryption`), or PSS signatures
/// only (`id-RSASSA-PSS`), restricted or not.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum KeyAlgorithm {
    /// `rsaEncryption`.
    #[default]
    Rsa,
    /// `id-RSASSA-PSS`, with its restriction when the key has parameters.
    Pss(Option<PssRestriction>),
}

/// A parameter error, naming the field.
fn bad(why: impl core::fmt::Display) -> Error {
    Error::Encoding(format!("RSASSA-PSS parameters: {why}"))
}

/// The hash of an AlgorithmIdentifier of the parameters (SHA-1, SHA-2,
/// SHA-3; parameters absent or NULL).
fn hash_of(alg: &AlgorithmIdentifierRef<'_>, field: &str) -> Result<HashAlg> {
    if alg.parameters.is_some_and(|p| !p.is_null()) {
        return Err(bad(format!("{field}: the hash's parameters must be absent or NULL")));
    }
    HashAlg::from_oid_der(alg.oid.as_bytes()).ok_or_else(|| bad(format!("{field}: unknown hash {}", alg.oid)))
}

impl KeyAlgorithm {
    /// The algorithm of an `id-RSASSA-PSS` AlgorithmIdentifier with
    /// `params` (`None`: absent, an unrestricted key).
    pub(crate) fn pss_from_params(params: Option<AnyRef<'_>>) -> Result<KeyAlgorithm> {
        let Some(params) = params else {
            return Ok(KeyAlgorithm::Pss(None));
        };
        if params.tag() != Tag::Sequence {
            return Err(bad("not absent and not a SEQUENCE"));
        }
        let mut r = SliceReader::new(params.value()).map_err(bad)?;
        let hash = r
            .context_specific::<AlgorithmIdentifierRef<'_>>(TagNumber::N0, TagMode::Explicit)
            .map_err(bad)?
            .map_or(Ok(HashAlg::Sha1), |alg| hash_of(&alg, "hashAlgorithm"))?;
        let mgf1_hash = match r
            .context_specific::<AlgorithmIdentifier<AlgorithmIdentifierRef<'_>>>(TagNumber::N1, TagMode::Explicit)
            .map_err(bad)?
        {
            None => HashAlg::Sha1,
            Some(mgf) if mgf.oid != MGF1_OID => {
                return Err(bad(format!("maskGenAlgorithm {} is not MGF1", mgf.oid)));
            }
            Some(mgf) => hash_of(
                &mgf.parameters
                    .ok_or_else(|| bad("maskGenAlgorithm: MGF1 without its hash"))?,
                "maskGenAlgorithm",
            )?,
        };
        let salt = r
            .context_specific::<u32>(TagNumber::N2, TagMode::Explicit)
            .map_err(bad)?
            .unwrap_or(DEFAULT_SALT);
        let trailer = r
            .context_specific::<u32>(TagNumber::N3, TagMode::Explicit)
            .map_err(bad)?;
        if trailer.is_some_and(|t| t != 1) {
            return Err(bad("trailerField must be 1 (0xbc)"));
        }
        r.finish(()).map_err(bad)?;
        Ok(KeyAlgorithm::Pss(Some(PssRestriction {
            hash,
            mgf1_hash,
            salt_len: salt as usize,
        })))
    }

    /// The DER of the AlgorithmIdentifier's parameters: `None` for an
    /// `rsaEncryption` key (its NULL is written by the caller) and for an
    /// unrestricted PSS key (absent); RSASSA-PSS-params with the defaults
    /// left out (DER) and the hashes' parameters NULL, as OpenSSL 3 writes
    /// them, for a restricted one.
    pub fn pss_params_der(&self) -> Result<Option<Vec<u8>>> {
        let KeyAlgorithm::Pss(Some(r)) = self else {
            return Ok(None);
        };
        let oid = |h: HashAlg| -> Result<Vec<u8>> {
            let der = h
                .oid_der()
                .ok_or_else(|| bad(format!("{} has no identifier for PSS keys", h.name())))?;
            Ok(tlv(0x30, &[tlv(0x06, der), vec![0x05, 0x00]].concat()))
        };
        let mut body = Vec::new();
        if r.hash != HashAlg::Sha1 {
            body.extend(tlv(0xa0, &oid(r.hash)?));
        }
        if r.mgf1_hash != HashAlg::Sha1 {
            let mgf = [tlv(0x06, MGF1_OID.as_bytes()), oid(r.mgf1_hash)?].concat();
            body.extend(tlv(0xa1, &tlv(0x30, &mgf)));
        }
        let salt = u32::try_from(r.salt_len).map_err(|_| bad("saltLength beyond 2^32"))?;
        if salt != DEFAULT_SALT {
            let digits = salt.to_be_bytes();
            let skip = digits.iter().take(3).take_while(|&&b| b == 0).count();
            let mut int = digits[skip..].to_vec();
            if int[0] & 0x80 != 0 {
                int.insert(0, 0);
            }
            body.extend(tlv(0xa2, &tlv(0x02, &int)));
        }
        Ok(Some(tlv(0x30, &body)))
    }

    /// Whether this is a PSS-only key.
    pub fn is_pss(&self) -> bool {
        matches!(self, KeyAlgorithm::Pss(_))
    }

    /// The restriction of a PSS key with parameters.
    pub fn restriction(&self) -> Option<PssRestriction> {
        match self {
            KeyAlgorithm::Pss(r) => *r,
            KeyAlgorithm::Rsa => None,
        }
    }

    /// The hash and MGF1 hash of an operation with a key of this
    /// algorithm: `hash` if given, else a restricted key's, else SHA-256;
    /// `mgf1` if given, else a restricted key's, else the hash.
    pub fn scheme_hashes(&self, hash: Option<HashAlg>, mgf1: Option<HashAlg>) -> (HashAlg, HashAlg) {
        let restriction = self.restriction();
        let hash = hash.unwrap_or(restriction.map_or(HashAlg::Sha256, |r| r.hash));
        (hash, mgf1.unwrap_or(restriction.map_or(hash, |r| r.mgf1_hash)))
    }

    /// `what` (e.g. "PKCS#1 v1.5 signatures") with this key: refused for
    /// a PSS key.
    pub(crate) fn check_not_pss(&self, what: &str) -> Result<()> {
        if self.is_pss() {
            return Err(Error::KeyUsage(format!(
                "an RSASSA-PSS key (id-RSASSA-PSS) is for PSS signatures only, not {what}"
            )));
        }
        Ok(())
    }

    /// A PSS signature with `hash`, `mgf1_hash` and `salt_len` (`None`:
    /// the default) with this key: refused where its restriction does not
    /// allow it.
    pub(crate) fn check_pss(&self, hash: HashAlg, mgf1_hash: HashAlg, salt_len: Option<usize>) -> Result<()> {
        let Some(r) = self.restriction() else {
            return Ok(());
        };
        let refused = |asked: String| {
            Err(Error::KeyUsage(format!(
                "this RSASSA-PSS key is restricted to {} with MGF1-{} and salts of at least {} bytes; {asked}",
                r.hash.name(),
                r.mgf1_hash.name(),
                r.salt_len
            )))
        };
        if hash != r.hash {
            return refused(format!("the hash asked for is {}", hash.name()));
        }
        if mgf1_hash != r.mgf1_hash {
            return refused(format!("the MGF1 hash asked for is {}", mgf1_hash.name()));
        }
        match salt_len {
            Some(s) if s < r.salt_len => refused(format!("the salt length asked for is {s}")),
            _ => Ok(()),
        }
    }

    /// The salt length of a signature with `hash` when none is asked for:
    /// the restriction's, else the hash's length (OpenSSL's defaults).
    pub(crate) fn default_salt(&self, hash: HashAlg) -> usize {
        self.restriction().map_or(hash.output_len(), |r| r.salt_len)
    }

    /// The least salt length a verification accepts (the restriction's).
    pub(crate) fn min_salt(&self) -> usize {
        self.restriction().map_or(0, |r| r.salt_len)
    }
}

/// One DER TLV with a definite length.
fn tlv(tag: u8, content: &[u8]) -> Vec<u8> {
    let mut out = vec![tag];
    let len = content.len();
    if len < 0x80 {
        out.push(len as u8);
    } else {
        let bytes = len.to_be_bytes();
        let skip = bytes.iter().take_while(|&&b| b == 0).count();
        out.push(0x80 | (bytes.len() - skip) as u8);
        out.extend_from_slice(&bytes[skip..]);
    }
    out.extend_from_slice(content);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use der::Decode;

    fn round_trip(alg: KeyAlgorithm) -> KeyAlgorithm {
        let der = alg.pss_params_der().unwrap();
        let any = der.as_deref().map(|d| AnyRef::from_der(d).unwrap());
        KeyAlgorithm::pss_from_params(any).unwrap()
    }

    #[test]
    fn scheme_hashes_default_to_the_restriction_then_sha256() {
        use HashAlg::{Sha1, Sha256, Sha384};
        assert_eq!(KeyAlgorithm::Rsa.scheme_hashes(None, None), (Sha256, Sha256));
        assert_eq!(KeyAlgorithm::Rsa.scheme_hashes(Some(Sha384), None), (Sha384, Sha384));
        let r = PssRestriction {
            hash: Sha384,
            mgf1_hash: Sha1,
            salt_len: 48,
        };
        let pss = KeyAlgorithm::Pss(Some(r));
        assert_eq!(pss.scheme_hashes(None, None), (Sha384, Sha1));
        assert_eq!(pss.scheme_hashes(Some(Sha256), Some(Sha256)), (Sha256, Sha256));
    }

    #[test]
    fn parameters_round_trip_with_the_defaults_left_out() {
        let r = PssRestriction {
            hash: HashAlg::Sha256,
            mgf1_hash: HashAlg::Sha384,
            salt_len: 222,
        };
        assert_eq!(round_trip(KeyAlgorithm::Pss(Some(r))), KeyAlgorithm::Pss(Some(r)));
        let defaults = PssRestriction {
            hash: HashAlg::Sha1,
            mgf1_hash: HashAlg::Sha1,
            salt_len: 20,
        };
        let alg = KeyAlgorithm::Pss(Some(defaults));
        assert_eq!(alg.pss_params_der().unwrap(), Some(vec![0x30, 0x00]));
        assert_eq!(round_trip(alg), alg);
        assert_eq!(KeyAlgorithm::Pss(None).pss_params_der().unwrap(), None);
        assert_eq!(round_trip(KeyAlgorithm::Pss(None)), KeyAlgorithm::Pss(None));
    }

    #[test]
    fn restrictions_refuse_other_hashes_and_shorter_salts() {
        let alg = KeyAlgorithm::Pss(Some(PssRestriction {
            hash: HashAlg::Sha256,
            mgf1_hash: HashAlg::Sha256,
            salt_len: 32,
        }));
        assert!(alg.check_pss(HashAlg::Sha256, HashAlg::Sha256, None).is_ok());
        assert!(alg.check_pss(HashAlg::Sha256, HashAlg::Sha256, Some(64)).is_ok());
        for (h, m, s, want) in [
            (HashAlg::Sha1, HashAlg::Sha256, None, "hash asked for is sha1"),
            (HashAlg::Sha256, HashAlg::Sha1, None, "MGF1 hash asked for is sha1"),
            (
                HashAlg::Sha256,
                HashAlg::Sha256,
                Some(20),
                "salt length asked for is 20",
            ),
        ] {
            let err = alg.check_pss(h, m, s).unwrap_err().to_string();
            assert!(err.contains(want) && err.contains("restricted to sha256"), "{err}");
        }
        assert_eq!(alg.default_salt(HashAlg::Sha256), 32);
        assert!(alg.check_not_pss("OAEP encryption").is_err());
        assert!(KeyAlgorithm::Rsa.check_not_pss("OAEP encryption").is_ok());
        assert_eq!(KeyAlgorithm::Pss(None).default_salt(HashAlg::Sha384), 48);
    }

    #[test]
    fn malformed_parameters_name_the_field() {
        for (der, want) in [
            (&[0x05, 0x00][..], "not absent and not a SEQUENCE"),
            (
                &[0x30, 0x05, 0xa3, 0x03, 0x02, 0x01, 0x02][..],
                "trailerField must be 1",
            ),
            (
                &[
                    0x30, 0x0b, 0xa0, 0x09, 0x30, 0x07, 0x06, 0x05, 0x2b, 0x0e, 0x03, 0x02, 0x1b,
                ][..],
                "hashAlgorithm: unknown hash",
            ),
        ] {
            let err = KeyAlgorithm::pss_from_params(Some(AnyRef::from_der(der).unwrap()))
                .unwrap_err()
                .to_string();
            assert!(err.contains(want), "{err}");
        }
    }
}
