//! The scheme traits and the typed scheme methods on [`RsaPrivateKey`] and
//! [`RsaPublicKey`]: sign, verify, encrypt and decrypt with a padding value
//! ([`crate::padding`]) instead of a free function per scheme, and one
//! batch method per operation (after the `rsa` crate's `SignatureScheme`
//! and `PaddingScheme`).
//!
//! | trait | RFC 8017 | implemented by |
//! |---|---|---|
//! | [`SignatureScheme`] | §8 (RSASSA-PSS §8.1, RSASSA-PKCS1-v1_5 §8.2) | [`crate::pss::Pss`], [`crate::pkcs1v15::Pkcs1v15Sign`], [`crate::padding::SignaturePadding`] |
//! | [`EncryptionScheme`] | §7 (RSAES-OAEP §7.1, RSAES-PKCS1-v1_5 §7.2) | [`crate::oaep::Oaep`], [`crate::pkcs1v15::Pkcs1v15Encrypt`], [`crate::padding::EncryptionPadding`] |
//!
//! | method | RFC 8017 | calls |
//! |---|---|---|
//! | [`RsaPrivateKey::sign`], [`RsaPrivateKey::sign_prehashed`], [`RsaPrivateKey::sign_batch`] | §8.1.1, §8.2.1 | [`SignatureScheme::sign_batch`] |
//! | [`RsaPublicKey::verify`], [`RsaPublicKey::verify_prehashed`], [`RsaPublicKey::verify_batch`] | §8.1.2, §8.2.2 | [`SignatureScheme::verify_batch`] |
//! | [`RsaPublicKey::encrypt`], [`RsaPublicKey::encrypt_batch`] | §7.1.1, §7.2.1 | [`EncryptionScheme::encrypt_batch`] |
//! | [`RsaPrivateKey::decrypt`], [`RsaPrivateKey::decrypt_batch`] | §7.1.2, §7.2.2 | [`EncryptionScheme::decrypt_batch`] |
//!
//! The methods hold no scheme logic and name no scheme: each calls its
//! trait, which each scheme module implements for its padding value over
//! its encodings and `primitive`'s batch helpers, so batching and
//! constant-time behaviour are those of the scheme modules. A single
//! operation is a batch of one on [`default_engine`]. A new scheme is one
//! module with its padding value and the trait's two batch methods; the
//! keys' methods take it unchanged. A batch method takes a [`Batch`] of
//! messages or of precomputed digests; verification takes the signatures
//! as a second slice of the same length, so signing and verifying read
//! alike.
//!
//! # Example
//!
//! ```
//! use redc_rsa::keygen::{DEFAULT_E, generate};
//! use redc_rsa::padding::{Oaep, Pkcs1v15Sign, Pss};
//! use redc_rsa::scheme::Batch;
//! use redc_rsa::{HashAlg, Num, OsRng};
//!
//! let key = generate(2048, &Num::from_u64(DEFAULT_E), &|_| {})?;
//! let public = key.public_key();
//!
//! // PSS with SHA-256, MGF1-SHA-256 and a 32-byte salt.
//! let sig = key.sign(Pss::new(HashAlg::Sha256), b"hello", &mut OsRng)?;
//! public.verify(Pss::new(HashAlg::Sha256), b"hello", &sig)?;
//! assert!(public.verify(Pss::new(HashAlg::Sha256), b"hullo", &sig).is_err());
//!
//! // OAEP with SHA-256 and a label.
//! let oaep = Oaep::new(HashAlg::Sha256).with_label(&b"label"[..]);
//! let ct = public.encrypt(&oaep, b"secret", &mut OsRng)?;
//! assert_eq!(&key.decrypt(&oaep, &ct, &mut OsRng)?[..], b"secret");
//!
//! // A batch of PKCS#1 v1.5 signatures in one engine batch, then checked.
//! let engine = redc::Engine::detect();
//! let msgs: [&[u8]; 3] = [b"a", b"b", b"c"];
//! let pkcs = Pkcs1v15Sign::new(HashAlg::Sha256);
//! let sigs: Vec<Vec<u8>> = key
//!     .sign_batch(&engine, pkcs, Batch::Messages(&msgs), &mut OsRng)
//!     .into_iter()
//!     .collect::<Result<_, _>>()?;
//! let sigs: Vec<&[u8]> = sigs.iter().map(Vec::as_slice).collect();
//! for ok in public.verify_batch(&engine, pkcs, Batch::Messages(&msgs), &sigs) {
//!     ok?;
//! }
//! # Ok::<(), redc_rsa::Error>(())
//! ```

use crate::error::{Error, Result};
use crate::hash::HashAlg;
use crate::key::{RsaPrivateKey, RsaPublicKey};
use crate::primitive::{fail_all, single};
use rand_core::CryptoRngCore;
use redc::Engine;
use redc::engine::default_engine;
use zeroize::Zeroizing;

/// The messages or digests of a batch ([`redc_pki::Batch`]).
pub use redc_pki::Batch;

/// A signature scheme with its parameters (RFC 8017 §8: RSASSA-PSS §8.1,
/// RSASSA-PKCS1-v1_5 §8.2): what its padding value does with a key. A
/// scheme implements the two batch operations (each one engine batch, one
/// answer per item, in order); the single ones are a batch of one on
/// [`default_engine`]. The keys' methods ([`RsaPrivateKey::sign`], ...)
/// take any implementation, or a reference to one.
pub trait SignatureScheme {
    /// The signature of every item of `input` (a message hashed by the
    /// scheme, or its digest), in order, the private operations (RSASP1,
    /// RFC 8017 §5.2.1) as one batch on `engine`; an item that cannot be
    /// signed gets its own error.
    fn sign_batch(
        &self,
        engine: &Engine,
        key: &RsaPrivateKey,
        input: Batch<'_>,
        rng: &mut impl CryptoRngCore,
    ) -> Vec<Result<Vec<u8>>>;

    /// Whether `sigs[i]` is a signature of `input`'s item `i`, for every
    /// `i`, in order, the public operations (RSAVP1, RFC 8017 §5.2.2) as
    /// one batch on `engine`: `Ok(())`, or [`Error::Verification`] for an
    /// invalid signature. When `sigs` and `input` differ in length, every
    /// item fails with [`Error::InvalidParameters`].
    fn verify_batch(&self, engine: &Engine, key: &RsaPublicKey, input: Batch<'_>, sigs: &[&[u8]]) -> Vec<Result<()>>;

    /// The signature of `msg`: [`SignatureScheme::sign_batch`] of one.
    fn sign(&self, key: &RsaPrivateKey, msg: &[u8], rng: &mut impl CryptoRngCore) -> Result<Vec<u8>> {
        single(self.sign_batch(default_engine(), key, Batch::Messages(&[msg]), rng))
    }

    /// The signature of a precomputed `digest`: a batch of one.
    fn sign_prehashed(&self, key: &RsaPrivateKey, digest: &[u8], rng: &mut impl CryptoRngCore) -> Result<Vec<u8>> {
        single(self.sign_batch(default_engine(), key, Batch::Digests(&[digest]), rng))
    }

    /// Whether `sig` is a signature of `msg`: a batch of one.
    fn verify(&self, key: &RsaPublicKey, msg: &[u8], sig: &[u8]) -> Result<()> {
        single(self.verify_batch(default_engine(), key, Batch::Messages(&[msg]), &[sig]))
    }

    /// Whether `sig` is a signature of the message of `digest`: a batch of
    /// one.
    fn verify_prehashed(&self, key: &RsaPublicKey, digest: &[u8], sig: &[u8]) -> Result<()> {
        single(self.verify_batch(default_engine(), key, Batch::Digests(&[digest]), &[sig]))
    }
}

/// An encryption scheme with its parameters (RFC 8017 §7: RSAES-OAEP §7.1,
/// RSAES-PKCS1-v1_5 §7.2): what its padding value does with a key. A
/// scheme implements the two batch operations (each one engine batch, one
/// answer per item, in order); the single ones are a batch of one on
/// [`default_engine`].
pub trait EncryptionScheme {
    /// The ciphertext of every message of `msgs`, in order, the public
    /// operations (RSAEP, RFC 8017 §5.1.1) as one batch on `engine`; a
    /// message too long gets its own error.
    fn encrypt_batch(
        &self,
        engine: &Engine,
        key: &RsaPublicKey,
        msgs: &[&[u8]],
        rng: &mut impl CryptoRngCore,
    ) -> Vec<Result<Vec<u8>>>;

    /// The message of every ciphertext of `cts`, in order, the private
    /// operations (RSADP, RFC 8017 §5.1.2) as one batch on `engine`.
    fn decrypt_batch(
        &self,
        engine: &Engine,
        key: &RsaPrivateKey,
        cts: &[&[u8]],
        rng: &mut impl CryptoRngCore,
    ) -> Vec<Result<Zeroizing<Vec<u8>>>>;

    /// The ciphertext of `msg`: [`EncryptionScheme::encrypt_batch`] of one.
    fn encrypt(&self, key: &RsaPublicKey, msg: &[u8], rng: &mut impl CryptoRngCore) -> Result<Vec<u8>> {
        single(self.encrypt_batch(default_engine(), key, &[msg], rng))
    }

    /// The message of `ct`: [`EncryptionScheme::decrypt_batch`] of one.
    fn decrypt(&self, key: &RsaPrivateKey, ct: &[u8], rng: &mut impl CryptoRngCore) -> Result<Zeroizing<Vec<u8>>> {
        single(self.decrypt_batch(default_engine(), key, &[ct], rng))
    }
}

/// A reference to a scheme is the scheme (`&oaep`, `&padding`).
impl<S: SignatureScheme + ?Sized> SignatureScheme for &S {
    fn sign_batch(
        &self,
        engine: &Engine,
        key: &RsaPrivateKey,
        input: Batch<'_>,
        rng: &mut impl CryptoRngCore,
    ) -> Vec<Result<Vec<u8>>> {
        (**self).sign_batch(engine, key, input, rng)
    }

    fn verify_batch(&self, engine: &Engine, key: &RsaPublicKey, input: Batch<'_>, sigs: &[&[u8]]) -> Vec<Result<()>> {
        (**self).verify_batch(engine, key, input, sigs)
    }
}

/// A reference to a scheme is the scheme (`&oaep`, `&padding`).
impl<S: EncryptionScheme + ?Sized> EncryptionScheme for &S {
    fn encrypt_batch(
        &self,
        engine: &Engine,
        key: &RsaPublicKey,
        msgs: &[&[u8]],
        rng: &mut impl CryptoRngCore,
    ) -> Vec<Result<Vec<u8>>> {
        (**self).encrypt_batch(engine, key, msgs, rng)
    }

    fn decrypt_batch(
        &self,
        engine: &Engine,
        key: &RsaPrivateKey,
        cts: &[&[u8]],
        rng: &mut impl CryptoRngCore,
    ) -> Vec<Result<Zeroizing<Vec<u8>>>> {
        (**self).decrypt_batch(engine, key, cts, rng)
    }
}

/// Every item's digest by `hash` (a message hashed, a digest as it is):
/// what a signature scheme's batch encodes.
pub(crate) fn digests(input: Batch<'_>, hash: HashAlg) -> Vec<Vec<u8>> {
    input.digests(hash).into_iter().map(|d| d.into_owned()).collect()
}

/// `verify` on the `(digest, signature)` pairs of `input` (digests by
/// `hash`) and `sigs`, the body of a [`SignatureScheme::verify_batch`];
/// when the lengths differ, every item of `input` fails with
/// [`Error::InvalidParameters`] and `verify` does not run.
pub(crate) fn verify_pairs<'s>(
    input: Batch<'_>,
    hash: HashAlg,
    sigs: &[&'s [u8]],
    verify: impl FnOnce(&[(Vec<u8>, &'s [u8])]) -> Vec<Result<()>>,
) -> Vec<Result<()>> {
    if input.len() != sigs.len() {
        let e = Error::InvalidParameters(format!("{} signatures for {} items", sigs.len(), input.len()));
        return fail_all(input.len(), &e);
    }
    let items: Vec<(Vec<u8>, &[u8])> = digests(input, hash).into_iter().zip(sigs.iter().copied()).collect();
    verify(&items)
}

impl RsaPrivateKey {
    /// A signature of `msg` (RSASSA-PSS-SIGN, RFC 8017 §8.1.1, or
    /// RSASSA-PKCS1-v1_5-SIGN, §8.2.1), the message hashed with the
    /// padding's hash; `rng` draws the blinding and PSS's salt.
    ///
    /// Errors: [`Error::UnsupportedHash`] for a SHAKE paired with anything
    /// but itself (PSS, RFC 8702) or any SHAKE (PKCS#1 v1.5, no
    /// DigestInfo); [`Error::KeyTooSmall`] when the encoding does not fit
    /// the key; [`Error::Rng`].
    pub fn sign(&self, padding: impl SignatureScheme, msg: &[u8], rng: &mut impl CryptoRngCore) -> Result<Vec<u8>> {
        padding.sign(self, msg, rng)
    }

    /// A signature of a precomputed `digest` (`hLen` bytes of the
    /// padding's hash), as [`RsaPrivateKey::sign`].
    ///
    /// Errors as [`RsaPrivateKey::sign`], and [`Error::InvalidParameters`]
    /// for a digest of the wrong length.
    pub fn sign_prehashed(
        &self,
        padding: impl SignatureScheme,
        digest: &[u8],
        rng: &mut impl CryptoRngCore,
    ) -> Result<Vec<u8>> {
        padding.sign_prehashed(self, digest, rng)
    }

    /// A signature of every item of `input`, in order, the private
    /// operations as one batch on `engine`; an item that cannot be signed
    /// gets its own error.
    pub fn sign_batch(
        &self,
        engine: &Engine,
        padding: impl SignatureScheme,
        input: Batch<'_>,
        rng: &mut impl CryptoRngCore,
    ) -> Vec<Result<Vec<u8>>> {
        padding.sign_batch(engine, self, input, rng)
    }

    /// The message of the ciphertext `ct` (RSAES-OAEP-DECRYPT, RFC 8017
    /// §7.1.2, or RSAES-PKCS1-v1_5-DECRYPT, §7.2.2 with implicit
    /// rejection); `rng` draws the blinding.
    ///
    /// Errors: [`Error::Decryption`] for every invalid OAEP ciphertext
    /// (wrong length, `c >= n`, any decoding failure: one error, no
    /// oracle) and for a PKCS#1 v1.5 ciphertext of the wrong length or not
    /// below `n` (a bad PKCS#1 v1.5 padding gives a synthetic message);
    /// [`Error::UnsupportedHash`] for SHAKE in OAEP;
    /// [`Error::FaultDetected`] and [`Error::Rng`] from the private
    /// operation.
    pub fn decrypt(
        &self,
        padding: impl EncryptionScheme,
        ct: &[u8],
        rng: &mut impl CryptoRngCore,
    ) -> Result<Zeroizing<Vec<u8>>> {
        padding.decrypt(self, ct, rng)
    }

    /// The message of every ciphertext of `cts`, in order, the private
    /// operations as one batch on `engine`.
    pub fn decrypt_batch(
        &self,
        engine: &Engine,
        padding: impl EncryptionScheme,
        cts: &[&[u8]],
        rng: &mut impl CryptoRngCore,
    ) -> Vec<Result<Zeroizing<Vec<u8>>>> {
        padding.decrypt_batch(engine, self, cts, rng)
    }
}

impl RsaPublicKey {
    /// Whether `sig` is a signature of `msg` (RSASSA-PSS-VERIFY, RFC 8017
    /// §8.1.2, or RSASSA-PKCS1-v1_5-VERIFY, §8.2.2).
    ///
    /// Errors: [`Error::Verification`] for every invalid signature; the
    /// others: [`Error::UnsupportedHash`] for a SHAKE paired with anything
    /// but itself (PSS) or any SHAKE (PKCS#1 v1.5), [`Error::KeyTooSmall`]
    /// when no PKCS#1 v1.5 signature with this hash and key can exist.
    pub fn verify(&self, padding: impl SignatureScheme, msg: &[u8], sig: &[u8]) -> Result<()> {
        padding.verify(self, msg, sig)
    }

    /// Whether `sig` is a signature of the message whose digest (by the
    /// padding's hash) is `digest`, as [`RsaPublicKey::verify`].
    pub fn verify_prehashed(&self, padding: impl SignatureScheme, digest: &[u8], sig: &[u8]) -> Result<()> {
        padding.verify_prehashed(self, digest, sig)
    }

    /// Whether `sigs[i]` is a signature of `input`'s item `i`, for every
    /// `i`, in order, the public operations as one batch on `engine`.
    ///
    /// `sigs` must have as many items as `input`: otherwise every item
    /// fails with [`Error::InvalidParameters`] (one per item of `input`).
    pub fn verify_batch(
        &self,
        engine: &Engine,
        padding: impl SignatureScheme,
        input: Batch<'_>,
        sigs: &[&[u8]],
    ) -> Vec<Result<()>> {
        padding.verify_batch(engine, self, input, sigs)
    }

    /// The ciphertext of `msg` (RSAES-OAEP-ENCRYPT, RFC 8017 §7.1.1, or
    /// RSAES-PKCS1-v1_5-ENCRYPT, §7.2.1); `rng` draws the seed or padding.
    ///
    /// Errors: [`Error::MessageTooLong`] when the message does not fit
    /// (`mLen > k - 2·hLen - 2` for OAEP, `mLen > k - 11` for PKCS#1
    /// v1.5); for OAEP [`Error::UnsupportedHash`] for SHAKE and
    /// [`Error::KeyTooSmall`] when `k < 2·hLen + 2`; [`Error::Rng`].
    pub fn encrypt(&self, padding: impl EncryptionScheme, msg: &[u8], rng: &mut impl CryptoRngCore) -> Result<Vec<u8>> {
        padding.encrypt(self, msg, rng)
    }

    /// The ciphertext of every message of `msgs`, in order, the public
    /// operations as one batch on `engine`; a message too long gets its
    /// own error.
    pub fn encrypt_batch(
        &self,
        engine: &Engine,
        padding: impl EncryptionScheme,
        msgs: &[&[u8]],
        rng: &mut impl CryptoRngCore,
    ) -> Vec<Result<Vec<u8>>> {
        padding.encrypt_batch(engine, self, msgs, rng)
    }
}
