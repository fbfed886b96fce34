//! RustCrypto's `signature` 2 traits for redc keys, so that a redc key
//! drops into code written for the `rsa` crate's `pss::SigningKey` or
//! `pkcs1v15::SigningKey`: a [`SigningKey`] is a private key with a
//! [`SignaturePadding`] (RSASSA-PSS, RFC 8017 §8.1, or RSASSA-PKCS1-v1_5,
//! §8.2), a [`VerifyingKey`] the public key with the same padding, and a
//! [`Signature`] the signature's `k` bytes (RFC 8017 §8.1.1 step 3).
//!
//! | trait | of | calls |
//! |---|---|---|
//! | [`RandomizedSigner`], [`Signer`] (with [`OsRng`]) | [`SigningKey`] | [`RsaPrivateKey::sign`] |
//! | [`RandomizedPrehashSigner`], [`PrehashSigner`] (with [`OsRng`]) | [`SigningKey`] | [`RsaPrivateKey::sign_prehashed`] |
//! | [`Keypair`] | [`SigningKey`] | its [`VerifyingKey`] |
//! | [`Verifier`], [`PrehashVerifier`] | [`VerifyingKey`] | [`RsaPublicKey::verify`], [`RsaPublicKey::verify_prehashed`] |
//! | [`SignatureEncoding`] | [`Signature`] | the bytes |
//!
//! The prehash traits take a digest of the padding's hash (`hLen`
//! bytes). The `Digest*` traits (a `digest::Digest` state as input) are
//! not implemented: they would need a map from RustCrypto hash types to
//! [`crate::HashAlg`]; hash the message, or use the prehash traits.
//!
//! ```
//! use redc_rsa::keygen::{DEFAULT_E, generate};
//! use redc_rsa::padding::Pss;
//! use redc_rsa::signer::{Signature, SigningKey};
//! use redc_rsa::{HashAlg, Num};
//! use redc_rsa::signature::{Keypair, Signer, Verifier};
//!
//! // Code written against the traits, as for the `rsa` crate.
//! fn sign_with<S: Signer<Signature>>(signer: &S, msg: &[u8]) -> Signature {
//!     signer.sign(msg)
//! }
//!
//! let key = generate(2048, &Num::from_u64(DEFAULT_E), &|_| {})?;
//! let signing_key = SigningKey::new(key, Pss::new(HashAlg::Sha256));
//! let sig = sign_with(&signing_key, b"hello");
//! signing_key.verifying_key().verify(b"hello", &sig).unwrap();
//! # Ok::<(), redc_rsa::Error>(())
//! ```

use crate::error::Error;
use crate::key::{RsaPrivateKey, RsaPublicKey};
use crate::padding::SignaturePadding;
use rand_core::{CryptoRngCore, OsRng};
use signature::hazmat::{PrehashSigner, PrehashVerifier, RandomizedPrehashSigner};
use signature::{Keypair, RandomizedSigner, SignatureEncoding, Signer, Verifier};

/// `signature`'s opaque error, with redc's [`Error`] as its source.
fn to_signature_error(e: Error) -> signature::Error {
    signature::Error::from_source(e)
}

/// A private key with the padding it signs with: the RustCrypto signer.
#[derive(Debug, Clone)]
pub struct SigningKey {
    key: RsaPrivateKey,
    padding: SignaturePadding,
}

impl SigningKey {
    /// A signer of `key` with `padding` (a [`crate::padding::Pss`] or
    /// [`crate::padding::Pkcs1v15Sign`]).
    pub fn new(key: RsaPrivateKey, padding: impl Into<SignaturePadding>) -> Self {
        Self {
            key,
            padding: padding.into(),
        }
    }

    /// The private key.
    pub fn key(&self) -> &RsaPrivateKey {
        &self.key
    }

    /// The padding.
    pub fn padding(&self) -> &SignaturePadding {
        &self.padding
    }

    /// The private key, giving up the signer.
    pub fn into_key(self) -> RsaPrivateKey {
        self.key
    }
}

impl RandomizedSigner<Signature> for SigningKey {
    /// Signs `msg`; `rng` draws the blinding and (PSS) the salt.
    fn try_sign_with_rng(&self, rng: &mut impl CryptoRngCore, msg: &[u8]) -> signature::Result<Signature> {
        self.key
            .sign(self.padding, msg, rng)
            .map(Signature::from)
            .map_err(to_signature_error)
    }
}

impl Signer<Signature> for SigningKey {
    /// Signs `msg` with the operating system's generator ([`OsRng`]).
    fn try_sign(&self, msg: &[u8]) -> signature::Result<Signature> {
        self.try_sign_with_rng(&mut OsRng, msg)
    }
}

impl RandomizedPrehashSigner<Signature> for SigningKey {
    /// Signs a digest (`hLen` bytes of the padding's hash).
    fn sign_prehash_with_rng(&self, rng: &mut impl CryptoRngCore, prehash: &[u8]) -> signature::Result<Signature> {
        self.key
            .sign_prehashed(self.padding, prehash, rng)
            .map(Signature::from)
            .map_err(to_signature_error)
    }
}

impl PrehashSigner<Signature> for SigningKey {
    /// Signs a digest with the operating system's generator ([`OsRng`]).
    fn sign_prehash(&self, prehash: &[u8]) -> signature::Result<Signature> {
        self.sign_prehash_with_rng(&mut OsRng, prehash)
    }
}

impl Keypair for SigningKey {
    type VerifyingKey = VerifyingKey;

    /// The public key with the same padding.
    fn verifying_key(&self) -> VerifyingKey {
        VerifyingKey::new(self.key.public_key().clone(), self.padding)
    }
}

impl From<&SigningKey> for VerifyingKey {
    fn from(key: &SigningKey) -> Self {
        key.verifying_key()
    }
}

/// A public key with the padding its signatures have: the RustCrypto
/// verifier.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifyingKey {
    key: RsaPublicKey,
    padding: SignaturePadding,
}

impl VerifyingKey {
    /// A verifier of `key`'s signatures with `padding`.
    pub fn new(key: RsaPublicKey, padding: impl Into<SignaturePadding>) -> Self {
        Self {
            key,
            padding: padding.into(),
        }
    }

    /// The public key.
    pub fn key(&self) -> &RsaPublicKey {
        &self.key
    }

    /// The padding.
    pub fn padding(&self) -> &SignaturePadding {
        &self.padding
    }
}

impl Verifier<Signature> for VerifyingKey {
    /// Checks a signature of `msg`.
    fn verify(&self, msg: &[u8], signature: &Signature) -> signature::Result<()> {
        self.key
            .verify(self.padding, msg, signature.as_ref())
            .map_err(to_signature_error)
    }
}

impl PrehashVerifier<Signature> for VerifyingKey {
    /// Checks a signature of the message whose digest is `prehash`.
    fn verify_prehash(&self, prehash: &[u8], signature: &Signature) -> signature::Result<()> {
        self.key
            .verify_prehashed(self.padding, prehash, signature.as_ref())
            .map_err(to_signature_error)
    }
}

/// An RSA signature: `k` bytes, the modulus's length (RFC 8017 §8.1.1,
/// §8.2.1 step 3).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Signature(Box<[u8]>);

impl Signature {
    /// The signature's bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }
}

impl SignatureEncoding for Signature {
    type Repr = Box<[u8]>;
}

impl AsRef<[u8]> for Signature {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

impl From<Vec<u8>> for Signature {
    fn from(bytes: Vec<u8>) -> Self {
        Self(bytes.into_boxed_slice())
    }
}

impl From<Box<[u8]>> for Signature {
    fn from(bytes: Box<[u8]>) -> Self {
        Self(bytes)
    }
}

impl TryFrom<&[u8]> for Signature {
    type Error = signature::Error;

    /// Any bytes: their length is checked against the key when verifying.
    fn try_from(bytes: &[u8]) -> signature::Result<Self> {
        Ok(Self(bytes.into()))
    }
}

impl From<Signature> for Box<[u8]> {
    fn from(sig: Signature) -> Self {
        sig.0
    }
}

impl From<Signature> for Vec<u8> {
    fn from(sig: Signature) -> Self {
        sig.0.into_vec()
    }
}
