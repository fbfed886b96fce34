//! RustCrypto's `signature` 2 traits for DSA keys, as redc-rsa's
//! `signer` has them for RSA: a [`SigningKey`] is a private key with the
//! hash it signs with and its nonce ([`Nonce`]), a [`VerifyingKey`] the
//! public key with the same hash; the signature is [`Signature`], `(r, s)`
//! (FIPS 186-4 §4.6).
//!
//! | trait | of | calls |
//! |---|---|---|
//! | [`RandomizedSigner`], [`Signer`] (with [`OsRng`]) | [`SigningKey`] | [`DsaPrivateKey::sign`] |
//! | [`RandomizedPrehashSigner`], [`PrehashSigner`] (with [`OsRng`]) | [`SigningKey`] | [`DsaPrivateKey::sign_prehashed`] |
//! | [`Keypair`] | [`SigningKey`] | its [`VerifyingKey`] |
//! | [`Verifier`], [`PrehashVerifier`] | [`VerifyingKey`] | [`DsaPublicKey::verify`], [`DsaPublicKey::verify_prehashed`] |
//!
//! `SignatureEncoding` is not implemented: a signature has two encodings
//! (DER and IEEE P1363, [`Signature::to_der`], [`Signature::to_p1363`]),
//! and the DER writer can fail. The `Digest*` traits are not either, as
//! in redc-rsa: hash the message, or use the prehash traits.
//!
//! ```
//! use redc_ffc::dsa::{DsaPrivateKey, Nonce, Signature};
//! use redc_ffc::signature::{Keypair, Signer, Verifier};
//! use redc_ffc::signer::SigningKey;
//! use redc_ffc::{HashAlg, OsRng};
//! # use redc_ffc::dsa::generate_params;
//! # let params = std::sync::Arc::new(generate_params(2048, 224, &mut OsRng)?);
//!
//! // Code written against the traits.
//! fn sign_with<S: Signer<Signature>>(signer: &S, msg: &[u8]) -> Signature {
//!     signer.sign(msg)
//! }
//!
//! let key = DsaPrivateKey::generate(params, &mut OsRng)?;
//! let signing_key = SigningKey::new(key, HashAlg::Sha256, Nonce::Hedged);
//! let sig = sign_with(&signing_key, b"hello");
//! signing_key.verifying_key().verify(b"hello", &sig).unwrap();
//! # Ok::<(), redc_ffc::Error>(())
//! ```

use crate::HashAlg;
use crate::dsa::{DsaPrivateKey, DsaPublicKey, Nonce, Signature};
use crate::error::Error;
use rand_core::{CryptoRngCore, OsRng};
use signature::hazmat::{PrehashSigner, PrehashVerifier, RandomizedPrehashSigner};
use signature::{Keypair, RandomizedSigner, Signer, Verifier};

/// `signature`'s opaque error, with redc's [`Error`] as its source.
fn to_signature_error(e: Error) -> signature::Error {
    signature::Error::from_source(e)
}

/// A DSA private key with the hash and the nonce it signs with: the
/// RustCrypto signer.
#[derive(Debug, Clone)]
pub struct SigningKey {
    key: DsaPrivateKey,
    hash: HashAlg,
    nonce: Nonce,
}

impl SigningKey {
    /// A signer of `key` hashing with `hash`, its `k` chosen by `nonce`.
    pub fn new(key: DsaPrivateKey, hash: HashAlg, nonce: Nonce) -> Self {
        Self { key, hash, nonce }
    }

    /// The private key.
    pub fn key(&self) -> &DsaPrivateKey {
        &self.key
    }

    /// The hash.
    pub fn hash(&self) -> HashAlg {
        self.hash
    }

    /// How `k` is chosen.
    pub fn nonce(&self) -> Nonce {
        self.nonce
    }

    /// The private key, giving up the signer.
    pub fn into_key(self) -> DsaPrivateKey {
        self.key
    }
}

impl RandomizedSigner<Signature> for SigningKey {
    /// Signs `msg`; `rng` draws the nonce's random bytes.
    fn try_sign_with_rng(&self, rng: &mut impl CryptoRngCore, msg: &[u8]) -> signature::Result<Signature> {
        self.key
            .sign(self.hash, msg, self.nonce, rng)
            .map_err(to_signature_error)
    }
}

impl Signer<Signature> for SigningKey {
    /// Signs `msg` with the operating system's generator ([`OsRng`]).
    fn try_sign(&self, msg: &[u8]) -> signature::Result<Signature> {
        self.key
            .sign(self.hash, msg, self.nonce, &mut OsRng)
            .map_err(to_signature_error)
    }
}

impl RandomizedPrehashSigner<Signature> for SigningKey {
    /// Signs a digest of the signer's hash.
    fn sign_prehash_with_rng(&self, rng: &mut impl CryptoRngCore, prehash: &[u8]) -> signature::Result<Signature> {
        self.key
            .sign_prehashed(self.hash, prehash, self.nonce, rng)
            .map_err(to_signature_error)
    }
}

impl PrehashSigner<Signature> for SigningKey {
    /// Signs a digest with the operating system's generator ([`OsRng`]).
    fn sign_prehash(&self, prehash: &[u8]) -> signature::Result<Signature> {
        self.key
            .sign_prehashed(self.hash, prehash, self.nonce, &mut OsRng)
            .map_err(to_signature_error)
    }
}

impl Keypair for SigningKey {
    type VerifyingKey = VerifyingKey;

    /// The public key with the same hash.
    fn verifying_key(&self) -> VerifyingKey {
        VerifyingKey::new(self.key.public_key().clone(), self.hash)
    }
}

impl From<&SigningKey> for VerifyingKey {
    fn from(key: &SigningKey) -> Self {
        key.verifying_key()
    }
}

/// A DSA public key with the hash its signatures are made with: the
/// RustCrypto verifier.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifyingKey {
    key: DsaPublicKey,
    hash: HashAlg,
}

impl VerifyingKey {
    /// A verifier of `key`'s signatures made with `hash`.
    pub fn new(key: DsaPublicKey, hash: HashAlg) -> Self {
        Self { key, hash }
    }

    /// The public key.
    pub fn key(&self) -> &DsaPublicKey {
        &self.key
    }

    /// The hash.
    pub fn hash(&self) -> HashAlg {
        self.hash
    }
}

impl Verifier<Signature> for VerifyingKey {
    /// Checks a signature of `msg`.
    fn verify(&self, msg: &[u8], signature: &Signature) -> signature::Result<()> {
        self.key.verify(self.hash, msg, signature).map_err(to_signature_error)
    }
}

impl PrehashVerifier<Signature> for VerifyingKey {
    /// Checks a signature of the message whose digest is `prehash`.
    fn verify_prehash(&self, prehash: &[u8], signature: &Signature) -> signature::Result<()> {
        self.key
            .verify_prehashed(prehash, signature)
            .map_err(to_signature_error)
    }
}
