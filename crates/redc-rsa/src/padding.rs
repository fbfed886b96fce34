//! Padding values for the typed key methods ([`crate::scheme`]) and the
//! RustCrypto traits ([`crate::signer`]): a scheme and its parameters as
//! one value, after pyca's `padding.PSS(...)` and the `rsa` crate's
//! `Pss`/`Oaep`.
//!
//! | value | scheme |
//! |---|---|
//! | [`Pss`] | RSASSA-PSS, RFC 8017 §8.1 (EMSA-PSS §9.1, MGF1 §B.2.1; SHAKE per RFC 8702) |
//! | [`Pkcs1v15Sign`] | RSASSA-PKCS1-v1_5, RFC 8017 §8.2 (EMSA-PKCS1-v1_5 §9.2) |
//! | [`Oaep`] | RSAES-OAEP, RFC 8017 §7.1 |
//! | [`Pkcs1v15Encrypt`] | RSAES-PKCS1-v1_5, RFC 8017 §7.2 (with implicit rejection) |
//!
//! The signature paddings convert into [`SignaturePadding`], the encryption
//! paddings into [`EncryptionPadding`]; the methods take
//! `impl Into<SignaturePadding>` / `impl Into<EncryptionPadding>`, so a
//! value of either kind, or of the enum, can be passed.

use crate::hash::HashAlg;

/// RSASSA-PSS (RFC 8017 §8.1) parameters: the message hash, MGF1's hash
/// (RFC 8017 §B.2.1) and the salt length.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Pss {
    /// The hash of the message (and of `M'`, RFC 8017 §9.1.1 step 6).
    pub hash: HashAlg,
    /// The hash of the mask generation function MGF1 (a SHAKE hash must
    /// be the same SHAKE: RFC 8702 §3.3–3.4).
    pub mgf_hash: HashAlg,
    /// The salt length in bytes. `None`: when signing, the hash length
    /// (pyca's `PSS.DIGEST_LENGTH`, OpenSSL's `digest`), or the salt
    /// length an RSASSA-PSS key is restricted to; when verifying, any salt
    /// length (read from the signature, OpenSSL's `auto`), but at least a
    /// restricted key's. `Some(n)`: exactly `n` bytes, both ways.
    pub salt_len: Option<usize>,
}

impl Pss {
    /// PSS with `hash`, MGF1 over the same hash and the default salt
    /// length (`salt_len: None`: the hash length when signing, any when
    /// verifying).
    pub fn new(hash: HashAlg) -> Self {
        Self {
            hash,
            mgf_hash: hash,
            salt_len: None,
        }
    }

    /// The same, with MGF1 over `mgf_hash`.
    #[must_use]
    pub fn with_mgf_hash(self, mgf_hash: HashAlg) -> Self {
        Self { mgf_hash, ..self }
    }

    /// The same, with a salt of exactly `salt_len` bytes (signing and
    /// verifying).
    #[must_use]
    pub fn with_salt_len(self, salt_len: usize) -> Self {
        Self {
            salt_len: Some(salt_len),
            ..self
        }
    }
}

/// RSASSA-PKCS1-v1_5 (RFC 8017 §8.2) parameters: the hash whose
/// `DigestInfo` is signed (RFC 8017 §9.2; no SHAKE).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Pkcs1v15Sign {
    /// The hash of the message.
    pub hash: HashAlg,
}

impl Pkcs1v15Sign {
    /// PKCS#1 v1.5 signatures with `hash`.
    pub fn new(hash: HashAlg) -> Self {
        Self { hash }
    }
}

/// RSAES-OAEP (RFC 8017 §7.1) parameters: the label hash, MGF1's hash and
/// the label.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Oaep {
    /// The hash of the label (`lHash`, RFC 8017 §7.1.1 step 2a); no SHAKE.
    pub hash: HashAlg,
    /// The hash of MGF1 (RFC 8017 §B.2.1); no SHAKE.
    pub mgf_hash: HashAlg,
    /// The label `L` (usually empty).
    pub label: Vec<u8>,
}

impl Oaep {
    /// OAEP with `hash`, MGF1 over the same hash and an empty label.
    pub fn new(hash: HashAlg) -> Self {
        Self {
            hash,
            mgf_hash: hash,
            label: Vec::new(),
        }
    }

    /// The same, with MGF1 over `mgf_hash`.
    #[must_use]
    pub fn with_mgf_hash(self, mgf_hash: HashAlg) -> Self {
        Self { mgf_hash, ..self }
    }

    /// The same, with the label `label`.
    #[must_use]
    pub fn with_label(self, label: impl Into<Vec<u8>>) -> Self {
        Self {
            label: label.into(),
            ..self
        }
    }
}

/// RSAES-PKCS1-v1_5 (RFC 8017 §7.2): no parameters. Decryption uses
/// implicit rejection: an invalid ciphertext gives a deterministic
/// synthetic message, not an error.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Pkcs1v15Encrypt;

/// A signature scheme with its parameters (RFC 8017 §8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SignaturePadding {
    /// RSASSA-PSS (RFC 8017 §8.1).
    Pss(Pss),
    /// RSASSA-PKCS1-v1_5 (RFC 8017 §8.2).
    Pkcs1v15(Pkcs1v15Sign),
}

impl SignaturePadding {
    /// The message hash: what a prehashed digest must be a digest of.
    pub fn hash(&self) -> HashAlg {
        match self {
            SignaturePadding::Pss(p) => p.hash,
            SignaturePadding::Pkcs1v15(p) => p.hash,
        }
    }
}

impl From<Pss> for SignaturePadding {
    fn from(p: Pss) -> Self {
        SignaturePadding::Pss(p)
    }
}

impl From<Pkcs1v15Sign> for SignaturePadding {
    fn from(p: Pkcs1v15Sign) -> Self {
        SignaturePadding::Pkcs1v15(p)
    }
}

impl From<&SignaturePadding> for SignaturePadding {
    fn from(p: &SignaturePadding) -> Self {
        *p
    }
}

/// An encryption scheme with its parameters (RFC 8017 §7).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum EncryptionPadding {
    /// RSAES-OAEP (RFC 8017 §7.1).
    Oaep(Oaep),
    /// RSAES-PKCS1-v1_5 (RFC 8017 §7.2).
    Pkcs1v15(Pkcs1v15Encrypt),
}

impl From<Oaep> for EncryptionPadding {
    fn from(p: Oaep) -> Self {
        EncryptionPadding::Oaep(p)
    }
}

impl From<&Oaep> for EncryptionPadding {
    fn from(p: &Oaep) -> Self {
        EncryptionPadding::Oaep(p.clone())
    }
}

impl From<Pkcs1v15Encrypt> for EncryptionPadding {
    fn from(p: Pkcs1v15Encrypt) -> Self {
        EncryptionPadding::Pkcs1v15(p)
    }
}

impl From<&EncryptionPadding> for EncryptionPadding {
    fn from(p: &EncryptionPadding) -> Self {
        p.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constructors() {
        let p = Pss::new(HashAlg::Sha256);
        assert_eq!(
            (p.hash, p.mgf_hash, p.salt_len),
            (HashAlg::Sha256, HashAlg::Sha256, None)
        );
        let p = p.with_mgf_hash(HashAlg::Sha1).with_salt_len(20);
        assert_eq!((p.mgf_hash, p.salt_len), (HashAlg::Sha1, Some(20)));
        assert_eq!(SignaturePadding::from(p).hash(), HashAlg::Sha256);
        let s: SignaturePadding = Pkcs1v15Sign::new(HashAlg::Sha384).into();
        assert_eq!(s.hash(), HashAlg::Sha384);
        let o = Oaep::new(HashAlg::Sha512)
            .with_label(&b"l"[..])
            .with_mgf_hash(HashAlg::Sha1);
        assert_eq!(
            (o.hash, o.mgf_hash, &o.label[..]),
            (HashAlg::Sha512, HashAlg::Sha1, &b"l"[..])
        );
        assert_eq!(EncryptionPadding::from(&o), EncryptionPadding::Oaep(o));
    }
}
