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
//! Each value is defined, with its [`SignatureScheme`] or
//! [`EncryptionScheme`], in its scheme's module ([`crate::pss`],
//! [`crate::pkcs1v15`], [`crate::oaep`]) and re-exported here. The typed
//! methods take any scheme (`impl SignatureScheme` / `impl
//! EncryptionScheme`), a reference to one, or one of the enums
//! [`SignaturePadding`] and [`EncryptionPadding`] (a scheme chosen at run
//! time, as the CLI and the Python package do), which delegate to their
//! variant.

use crate::error::Result;
use crate::hash::HashAlg;
use crate::key::{RsaPrivateKey, RsaPublicKey};
pub use crate::oaep::Oaep;
pub use crate::pkcs1v15::{Pkcs1v15Encrypt, Pkcs1v15Sign};
pub use crate::pss::Pss;
use crate::scheme::{Batch, EncryptionScheme, SignatureScheme};
use rand_core::CryptoRngCore;
use redc::Engine;
use zeroize::Zeroizing;

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

impl SignatureScheme for SignaturePadding {
    fn sign_batch(
        &self,
        engine: &Engine,
        key: &RsaPrivateKey,
        input: Batch<'_>,
        rng: &mut impl CryptoRngCore,
    ) -> Vec<Result<Vec<u8>>> {
        match self {
            SignaturePadding::Pss(p) => p.sign_batch(engine, key, input, rng),
            SignaturePadding::Pkcs1v15(p) => p.sign_batch(engine, key, input, rng),
        }
    }

    fn verify_batch(&self, engine: &Engine, key: &RsaPublicKey, input: Batch<'_>, sigs: &[&[u8]]) -> Vec<Result<()>> {
        match self {
            SignaturePadding::Pss(p) => p.verify_batch(engine, key, input, sigs),
            SignaturePadding::Pkcs1v15(p) => p.verify_batch(engine, key, input, sigs),
        }
    }
}

impl EncryptionScheme for EncryptionPadding {
    fn encrypt_batch(
        &self,
        engine: &Engine,
        key: &RsaPublicKey,
        msgs: &[&[u8]],
        rng: &mut impl CryptoRngCore,
    ) -> Vec<Result<Vec<u8>>> {
        match self {
            EncryptionPadding::Oaep(p) => p.encrypt_batch(engine, key, msgs, rng),
            EncryptionPadding::Pkcs1v15(p) => p.encrypt_batch(engine, key, msgs, rng),
        }
    }

    fn decrypt_batch(
        &self,
        engine: &Engine,
        key: &RsaPrivateKey,
        cts: &[&[u8]],
        rng: &mut impl CryptoRngCore,
    ) -> Vec<Result<Zeroizing<Vec<u8>>>> {
        match self {
            EncryptionPadding::Oaep(p) => p.decrypt_batch(engine, key, cts, rng),
            EncryptionPadding::Pkcs1v15(p) => p.decrypt_batch(engine, key, cts, rng),
        }
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
