//! The hash functions OpenSSL offers for RSA schemes: SHA-1, the SHA-2
//! family (with SHA-512/224 and SHA-512/256), the SHA-3 family, and the
//! SHAKE extendable-output functions for PSS (RFC 8702).

use crate::error::{Error, Result};
use digest::{Digest, ExtendableOutput, Update};

/// A hash (or XOF) usable in the RSA schemes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HashAlg {
    /// SHA-1 (legacy; still in Wycheproof and OpenSSL).
    Sha1,
    /// SHA-224.
    Sha224,
    /// SHA-256 — the default.
    Sha256,
    /// SHA-384.
    Sha384,
    /// SHA-512.
    Sha512,
    /// SHA-512/224.
    Sha512_224,
    /// SHA-512/256.
    Sha512_256,
    /// SHA3-224.
    Sha3_224,
    /// SHA3-256.
    Sha3_256,
    /// SHA3-384.
    Sha3_384,
    /// SHA3-512.
    Sha3_512,
    /// SHAKE128 with 32-byte output (RFC 8702; PSS only).
    Shake128,
    /// SHAKE256 with 64-byte output (RFC 8702; PSS only).
    Shake256,
}

impl HashAlg {
    /// Every algorithm.
    pub const ALL: [HashAlg; 13] = [
        HashAlg::Sha1,
        HashAlg::Sha224,
        HashAlg::Sha256,
        HashAlg::Sha384,
        HashAlg::Sha512,
        HashAlg::Sha512_224,
        HashAlg::Sha512_256,
        HashAlg::Sha3_224,
        HashAlg::Sha3_256,
        HashAlg::Sha3_384,
        HashAlg::Sha3_512,
        HashAlg::Shake128,
        HashAlg::Shake256,
    ];

    /// The name as OpenSSL and Wycheproof spell it (`sha256`, `sha512-224`,
    /// `sha3-256`, `shake128`).
    pub fn name(self) -> &'static str {
        match self {
            HashAlg::Sha1 => "sha1",
            HashAlg::Sha224 => "sha224",
            HashAlg::Sha256 => "sha256",
            HashAlg::Sha384 => "sha384",
            HashAlg::Sha512 => "sha512",
            HashAlg::Sha512_224 => "sha512-224",
            HashAlg::Sha512_256 => "sha512-256",
            HashAlg::Sha3_224 => "sha3-224",
            HashAlg::Sha3_256 => "sha3-256",
            HashAlg::Sha3_384 => "sha3-384",
            HashAlg::Sha3_512 => "sha3-512",
            HashAlg::Shake128 => "shake128",
            HashAlg::Shake256 => "shake256",
        }
    }

    /// Parse a name, case-insensitively, accepting OpenSSL's and
    /// Wycheproof's spellings (`SHA-256`, `SHA2-256`, `sha256`, `SHA-512/224`,
    /// `sha512-224`, `SHA3-256`, `SHAKE128`).
    pub fn from_name(name: &str) -> Option<Self> {
        let norm: String = name
            .to_ascii_lowercase()
            .chars()
            .map(|c| if c == '/' || c == '_' { '-' } else { c })
            .collect();
        let norm = match norm.as_str() {
            "sha-1" => "sha1".to_owned(),
            s if s.starts_with("sha-") => s.replacen("sha-", "sha", 1),
            s if s.starts_with("sha2-") => s.replacen("sha2-", "sha", 1),
            s => s.to_owned(),
        };
        Self::ALL.into_iter().find(|h| h.name() == norm)
    }

    /// Output length in bytes (for SHAKE, RFC 8702's 32 and 64).
    pub fn output_len(self) -> usize {
        match self {
            HashAlg::Sha1 => 20,
            HashAlg::Sha224 | HashAlg::Sha512_224 | HashAlg::Sha3_224 => 28,
            HashAlg::Sha256 | HashAlg::Sha512_256 | HashAlg::Sha3_256 | HashAlg::Shake128 => 32,
            HashAlg::Sha384 | HashAlg::Sha3_384 => 48,
            HashAlg::Sha512 | HashAlg::Sha3_512 | HashAlg::Shake256 => 64,
        }
    }

    /// Is this an extendable-output function (SHAKE)?
    pub fn is_xof(self) -> bool {
        matches!(self, HashAlg::Shake128 | HashAlg::Shake256)
    }

    /// A streaming hasher.
    pub fn hasher(self) -> Hasher {
        Hasher(match self {
            HashAlg::Sha1 => State::Sha1(sha1::Sha1::new()),
            HashAlg::Sha224 => State::Sha224(sha2::Sha224::new()),
            HashAlg::Sha256 => State::Sha256(sha2::Sha256::new()),
            HashAlg::Sha384 => State::Sha384(sha2::Sha384::new()),
            HashAlg::Sha512 => State::Sha512(sha2::Sha512::new()),
            HashAlg::Sha512_224 => State::Sha512_224(sha2::Sha512_224::new()),
            HashAlg::Sha512_256 => State::Sha512_256(sha2::Sha512_256::new()),
            HashAlg::Sha3_224 => State::Sha3_224(sha3::Sha3_224::new()),
            HashAlg::Sha3_256 => State::Sha3_256(sha3::Sha3_256::new()),
            HashAlg::Sha3_384 => State::Sha3_384(sha3::Sha3_384::new()),
            HashAlg::Sha3_512 => State::Sha3_512(sha3::Sha3_512::new()),
            HashAlg::Shake128 => State::Shake128(sha3::Shake128::default()),
            HashAlg::Shake256 => State::Shake256(sha3::Shake256::default()),
        })
    }

    /// The hash of `data` ([`Self::output_len`] bytes).
    pub fn digest(self, data: &[u8]) -> Vec<u8> {
        let mut h = self.hasher();
        h.update(data);
        h.finish()
    }

    /// For the XOFs, `len` bytes of output over `data` (the MGF of RFC 8702);
    /// an error for the fixed-length hashes.
    pub fn xof(self, data: &[u8], len: usize) -> Result<Vec<u8>> {
        let mut out = vec![0u8; len];
        match self {
            HashAlg::Shake128 => sha3::Shake128::default().chain(data).finalize_xof_into(&mut out),
            HashAlg::Shake256 => sha3::Shake256::default().chain(data).finalize_xof_into(&mut out),
            _ => return Err(Error::UnsupportedHash(self.name(), "XOF mask generation")),
        }
        Ok(out)
    }

    /// The content of the hash's OBJECT IDENTIFIER (NIST's SHA-2 and SHA-3
    /// arcs, and SHA-1's of OIW); `None` for SHAKE (RFC 8702 gives its
    /// own, which PKCS#1 v1.5 and the PSS key parameters do not use).
    pub fn oid_der(self) -> Option<&'static [u8]> {
        Some(match self {
            HashAlg::Sha1 => &[0x2b, 0x0e, 0x03, 0x02, 0x1a],
            HashAlg::Sha224 => &[0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x04],
            HashAlg::Sha256 => &[0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01],
            HashAlg::Sha384 => &[0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x02],
            HashAlg::Sha512 => &[0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x03],
            HashAlg::Sha512_224 => &[0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x05],
            HashAlg::Sha512_256 => &[0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x06],
            HashAlg::Sha3_224 => &[0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x07],
            HashAlg::Sha3_256 => &[0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x08],
            HashAlg::Sha3_384 => &[0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x09],
            HashAlg::Sha3_512 => &[0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x0a],
            HashAlg::Shake128 | HashAlg::Shake256 => return None,
        })
    }

    /// The hash whose OBJECT IDENTIFIER has the content `der` ([`HashAlg::oid_der`]).
    pub fn from_oid_der(der: &[u8]) -> Option<Self> {
        Self::ALL.into_iter().find(|h| h.oid_der() == Some(der))
    }

    /// The DER prefix of the `DigestInfo` for EMSA-PKCS1-v1_5 (RFC 8017
    /// §9.2 note 1, with the SHA-512/t and SHA-3 OIDs of NIST); `None` for
    /// SHAKE, which PKCS#1 v1.5 does not use.
    pub fn digest_info_prefix(self) -> Option<Vec<u8>> {
        // SEQUENCE { SEQUENCE { OID, NULL }, OCTET STRING (hLen) }
        let oid = self.oid_der()?;
        let h = self.output_len() as u8;
        let alg_len = 2 + oid.len() as u8 + 2;
        let mut v = vec![0x30, 2 + alg_len + 2 + h, 0x30, alg_len, 0x06, oid.len() as u8];
        v.extend_from_slice(oid);
        v.extend_from_slice(&[0x05, 0x00, 0x04, h]);
        Some(v)
    }
}

/// A streaming hash state (cloned to finish a copy and go on).
#[derive(Clone)]
pub struct Hasher(State);

#[derive(Clone)]
enum State {
    Sha1(sha1::Sha1),
    Sha224(sha2::Sha224),
    Sha256(sha2::Sha256),
    Sha384(sha2::Sha384),
    Sha512(sha2::Sha512),
    Sha512_224(sha2::Sha512_224),
    Sha512_256(sha2::Sha512_256),
    Sha3_224(sha3::Sha3_224),
    Sha3_256(sha3::Sha3_256),
    Sha3_384(sha3::Sha3_384),
    Sha3_512(sha3::Sha3_512),
    Shake128(sha3::Shake128),
    Shake256(sha3::Shake256),
}

impl Hasher {
    /// Absorb `data`.
    pub fn update(&mut self, data: &[u8]) {
        match &mut self.0 {
            State::Sha1(h) => Digest::update(h, data),
            State::Sha224(h) => Digest::update(h, data),
            State::Sha256(h) => Digest::update(h, data),
            State::Sha384(h) => Digest::update(h, data),
            State::Sha512(h) => Digest::update(h, data),
            State::Sha512_224(h) => Digest::update(h, data),
            State::Sha512_256(h) => Digest::update(h, data),
            State::Sha3_224(h) => Digest::update(h, data),
            State::Sha3_256(h) => Digest::update(h, data),
            State::Sha3_384(h) => Digest::update(h, data),
            State::Sha3_512(h) => Digest::update(h, data),
            State::Shake128(h) => Update::update(h, data),
            State::Shake256(h) => Update::update(h, data),
        }
    }

    /// The digest (32 bytes for SHAKE128, 64 for SHAKE256).
    pub fn finish(self) -> Vec<u8> {
        match self.0 {
            State::Sha1(h) => h.finalize().to_vec(),
            State::Sha224(h) => h.finalize().to_vec(),
            State::Sha256(h) => h.finalize().to_vec(),
            State::Sha384(h) => h.finalize().to_vec(),
            State::Sha512(h) => h.finalize().to_vec(),
            State::Sha512_224(h) => h.finalize().to_vec(),
            State::Sha512_256(h) => h.finalize().to_vec(),
            State::Sha3_224(h) => h.finalize().to_vec(),
            State::Sha3_256(h) => h.finalize().to_vec(),
            State::Sha3_384(h) => h.finalize().to_vec(),
            State::Sha3_512(h) => h.finalize().to_vec(),
            State::Shake128(h) => h.finalize_boxed(32).into_vec(),
            State::Shake256(h) => h.finalize_boxed(64).into_vec(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for h in HashAlg::ALL {
            assert_eq!(HashAlg::from_name(h.name()), Some(h));
            assert_eq!(h.digest(b"abc").len(), h.output_len());
        }
        assert_eq!(HashAlg::from_name("SHA-256"), Some(HashAlg::Sha256));
        assert_eq!(HashAlg::from_name("SHA-512/224"), Some(HashAlg::Sha512_224));
        assert_eq!(HashAlg::from_name("SHA3-384"), Some(HashAlg::Sha3_384));
        assert_eq!(HashAlg::from_name("SHA-1"), Some(HashAlg::Sha1));
        // OpenSSL 3's canonical names.
        assert_eq!(HashAlg::from_name("SHA2-256"), Some(HashAlg::Sha256));
        assert_eq!(HashAlg::from_name("SHA2-512/256"), Some(HashAlg::Sha512_256));
        assert_eq!(HashAlg::from_name("md5"), None);
    }

    #[test]
    fn known_digests() {
        // FIPS 180-2 "abc" test vector.
        assert_eq!(HashAlg::Sha256.digest(b"abc")[..4], [0xba, 0x78, 0x16, 0xbf]);
        // The SHA-256 DigestInfo prefix of RFC 8017 §9.2 note 1.
        assert_eq!(
            HashAlg::Sha256.digest_info_prefix().unwrap(),
            [
                0x30, 0x31, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00,
                0x04, 0x20
            ]
        );
        assert_eq!(
            HashAlg::Sha1.digest_info_prefix().unwrap(),
            [
                0x30, 0x21, 0x30, 0x09, 0x06, 0x05, 0x2b, 0x0e, 0x03, 0x02, 0x1a, 0x05, 0x00, 0x04, 0x14
            ]
        );
    }
}
