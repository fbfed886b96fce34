//! What a signature that failed to verify turns out to be: the scheme (and
//! for PKCS#1 v1.5 the hash) its block `s^e mod n` shows. A signature is
//! public, so reading its structure gives nothing away; a front end uses
//! it to say "this is a PKCS#1 v1.5 signature with SHA-1" instead of only
//! "invalid".

use crate::hash::HashAlg;
use crate::hazmat::raw_public;
use crate::key::RsaPublicKey;

/// The scheme a signature's block shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SignatureShape {
    /// An EMSA-PKCS1-v1_5 block (`00 01 FF.. 00 T`, at least 8 `FF`s,
    /// RFC 8017 §9.2), with the hash whose `DigestInfo` `T` is, when it is
    /// one redc knows.
    Pkcs1v15(Option<HashAlg>),
    /// Not PKCS#1 v1.5, and ending in `0xbc` as an EMSA-PSS block does
    /// (RFC 8017 §9.1.1 step 12).
    Pss,
}

impl RsaPublicKey {
    /// The shape of the block of `sig` under this key, or `None` when it
    /// shows neither scheme (or `sig` is not below the modulus).
    pub fn signature_shape(&self, sig: &[u8]) -> Option<SignatureShape> {
        let em = raw_public(self, sig).ok()?;
        let info = em.strip_prefix(&[0, 1]).and_then(|block| {
            let padded = block.iter().take_while(|&&b| b == 0xff).count();
            block[padded..].strip_prefix(&[0]).filter(|_| padded >= 8)
        });
        let Some(info) = info else {
            return (em.last() == Some(&0xbc)).then_some(SignatureShape::Pss);
        };
        let signed = HashAlg::ALL.into_iter().find(|h| {
            h.digest_info_prefix()
                .is_some_and(|p| info.len() == p.len() + h.output_len() && info.starts_with(&p))
        });
        Some(SignatureShape::Pkcs1v15(signed))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::padding::{Pkcs1v15Sign, Pss};
    use rand_core::OsRng;

    #[test]
    fn names_the_scheme_and_hash() {
        let (key, _, _) = crate::test_key();
        let public = key.public_key();
        let v15 = key.sign(Pkcs1v15Sign::new(HashAlg::Sha1), b"m", &mut OsRng).unwrap();
        assert_eq!(
            public.signature_shape(&v15),
            Some(SignatureShape::Pkcs1v15(Some(HashAlg::Sha1)))
        );
        let pss = key.sign(Pss::new(HashAlg::Sha256), b"m", &mut OsRng).unwrap();
        assert_eq!(public.signature_shape(&pss), Some(SignatureShape::Pss));
        assert_eq!(public.signature_shape(&[0xff; 300]), None);
    }
}
