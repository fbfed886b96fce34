//! The `AlgorithmIdentifier` of the context's signatures, OpenSSL's
//! `algorithm-id` context parameter: what X.509, CRL, OCSP and CMS signing
//! write beside the signature (`ASN1_item_sign_ctx` asks for it).
//! PKCS#1 v1.5: `<hash>WithRSAEncryption` (RFC 8017 Appendix A.2.4; the
//! SHA-3 ones of NIST's CSOR) with NULL parameters, as OpenSSL writes them;
//! PSS: `id-RSASSA-PSS` with its parameters (RFC 4055 §3.1), the salt
//! length the signature will have.

use super::scheme::{Ctx, PKCS1, PSS, sign_salt};
use redc_rsa::HashAlg;
use redc_rsa::pss_key::{KeyAlgorithm, PssRestriction, RSASSA_PSS_OID};

/// The content of `<hash>WithRSAEncryption`'s OBJECT IDENTIFIER.
fn pkcs1_oid(md: HashAlg) -> Option<Vec<u8>> {
    let pkcs1 = |last: u8| vec![0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, last];
    let nist = |last: u8| vec![0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, last];
    Some(match md {
        HashAlg::Sha1 => pkcs1(5),
        HashAlg::Sha224 => pkcs1(14),
        HashAlg::Sha256 => pkcs1(11),
        HashAlg::Sha384 => pkcs1(12),
        HashAlg::Sha512 => pkcs1(13),
        HashAlg::Sha512_224 => pkcs1(15),
        HashAlg::Sha512_256 => pkcs1(16),
        HashAlg::Sha3_224 => nist(13),
        HashAlg::Sha3_256 => nist(14),
        HashAlg::Sha3_384 => nist(15),
        HashAlg::Sha3_512 => nist(16),
        HashAlg::Shake128 | HashAlg::Shake256 => return None,
    })
}

/// A DER element: `tag`, its definite length, `body`.
fn tlv(tag: u8, body: &[u8]) -> Vec<u8> {
    let mut out = vec![tag];
    match u8::try_from(body.len()) {
        Ok(n) if n < 0x80 => out.push(n),
        _ => {
            let len = body.len().to_be_bytes();
            let skip = len.iter().take_while(|&&b| b == 0).count();
            out.push(0x80 | (len.len() - skip) as u8);
            out.extend_from_slice(&len[skip..]);
        }
    }
    out.extend_from_slice(body);
    out
}

/// The DER `AlgorithmIdentifier` of the signatures `ctx` makes.
pub(super) fn der(ctx: &Ctx) -> Result<Vec<u8>, String> {
    match (ctx.pad, ctx.md) {
        (PKCS1, Some(md)) => {
            let oid = pkcs1_oid(md).ok_or_else(|| format!("PKCS#1 v1.5 has no identifier with {}", md.name()))?;
            Ok(tlv(0x30, &[tlv(0x06, &oid), vec![0x05, 0x00]].concat()))
        }
        (PSS, Some(md)) => {
            let key = ctx.key.as_ref().ok_or("no RSA key")?;
            let restriction = PssRestriction {
                hash: md,
                mgf1_hash: ctx.mgf1.unwrap_or(md),
                salt_len: sign_salt(ctx, key, md)?,
            };
            let params = KeyAlgorithm::Pss(Some(restriction))
                .pss_params_der()
                .map_err(|e| e.to_string())?
                .unwrap_or_default();
            Ok(tlv(0x30, &[tlv(0x06, RSASSA_PSS_OID.as_bytes()), params].concat()))
        }
        _ => Err("a signature without a digest has no algorithm identifier".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_are_definite_der() {
        assert_eq!(tlv(0x04, &[1, 2]), [0x04, 2, 1, 2]);
        assert_eq!(tlv(0x04, &[0; 200])[..3], [0x04, 0x81, 200]);
        assert_eq!(tlv(0x04, &[0; 300])[..4], [0x04, 0x82, 1, 44]);
    }

    #[test]
    fn sha256_with_rsa_is_rfc_8017s() {
        // 1.2.840.113549.1.1.11 with NULL parameters.
        let der = tlv(
            0x30,
            &[tlv(0x06, &pkcs1_oid(HashAlg::Sha256).unwrap()), vec![5, 0]].concat(),
        );
        assert_eq!(
            der,
            [
                0x30, 0x0d, 0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x0b, 0x05, 0x00
            ]
        );
    }
}
