//! Typed scheme methods on [`RsaPrivateKey`] and [`RsaPublicKey`]: sign,
//! verify, encrypt and decrypt with a padding value ([`crate::padding`])
//! instead of a free function per scheme, and one batch method per
//! operation.
//!
//! | method | RFC 8017 | delegates to |
//! |---|---|---|
//! | [`RsaPrivateKey::sign`], [`RsaPrivateKey::sign_prehashed`], [`RsaPrivateKey::sign_batch`] | §8.1.1, §8.2.1 | `pss::sign*`, `pkcs1v15::sign*` |
//! | [`RsaPublicKey::verify`], [`RsaPublicKey::verify_prehashed`], [`RsaPublicKey::verify_batch`] | §8.1.2, §8.2.2 | `pss::verify*`, `pkcs1v15::verify*` |
//! | [`RsaPublicKey::encrypt`], [`RsaPublicKey::encrypt_batch`] | §7.1.1, §7.2.1 | `oaep::encrypt*`, `pkcs1v15::encrypt*` |
//! | [`RsaPrivateKey::decrypt`], [`RsaPrivateKey::decrypt_batch`] | §7.1.2, §7.2.2 | `oaep::decrypt*`, `pkcs1v15::decrypt*` |
//!
//! The methods hold no scheme logic: each one calls its scheme module's
//! function (crate-private: these methods are the public way in; the
//! modules keep the RFC primitives, EMSA/EME encodings, public), so
//! batching and constant-time behaviour are those of the scheme modules.
//! A batch method takes a [`Batch`] of messages or of
//! precomputed digests; verification takes the signatures as a second
//! slice of the same length, so signing and verifying read alike.
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
use crate::key::{RsaPrivateKey, RsaPublicKey};
use crate::padding::{EncryptionPadding, SignaturePadding};
use crate::primitive::fail_all;
use crate::{oaep, pkcs1v15, pss};
use rand_core::CryptoRngCore;
use redc::Engine;
use zeroize::Zeroizing;

/// The messages or digests of a batch ([`redc_pki::Batch`]).
pub use redc_pki::Batch;

impl RsaPrivateKey {
    /// A signature of `msg` (RSASSA-PSS-SIGN, RFC 8017 §8.1.1, or
    /// RSASSA-PKCS1-v1_5-SIGN, §8.2.1), the message hashed with the
    /// padding's hash; `rng` draws the blinding and PSS's salt.
    ///
    /// Errors: [`Error::UnsupportedHash`] for a SHAKE paired with anything
    /// but itself (PSS, RFC 8702) or any SHAKE (PKCS#1 v1.5, no
    /// DigestInfo); [`Error::KeyTooSmall`] when the encoding does not fit
    /// the key; [`Error::Rng`].
    pub fn sign(
        &self,
        padding: impl Into<SignaturePadding>,
        msg: &[u8],
        rng: &mut impl CryptoRngCore,
    ) -> Result<Vec<u8>> {
        match padding.into() {
            SignaturePadding::Pss(p) => pss::sign(self, p.hash, p.mgf_hash, p.salt_len, msg, rng),
            SignaturePadding::Pkcs1v15(p) => pkcs1v15::sign(self, p.hash, msg, rng),
        }
    }

    /// A signature of a precomputed `digest` (`hLen` bytes of the
    /// padding's hash), as [`RsaPrivateKey::sign`].
    ///
    /// Errors as [`RsaPrivateKey::sign`], and [`Error::InvalidParameters`]
    /// for a digest of the wrong length.
    pub fn sign_prehashed(
        &self,
        padding: impl Into<SignaturePadding>,
        digest: &[u8],
        rng: &mut impl CryptoRngCore,
    ) -> Result<Vec<u8>> {
        match padding.into() {
            SignaturePadding::Pss(p) => pss::sign_digest(self, p.hash, p.mgf_hash, p.salt_len, digest, rng),
            SignaturePadding::Pkcs1v15(p) => pkcs1v15::sign_digest(self, p.hash, digest, rng),
        }
    }

    /// A signature of every item of `input`, in order, the private
    /// operations as one batch on `engine`; an item that cannot be signed
    /// gets its own error.
    pub fn sign_batch(
        &self,
        engine: &Engine,
        padding: impl Into<SignaturePadding>,
        input: Batch<'_>,
        rng: &mut impl CryptoRngCore,
    ) -> Vec<Result<Vec<u8>>> {
        match (padding.into(), input) {
            (SignaturePadding::Pss(p), Batch::Messages(m)) => {
                pss::sign_batch(engine, self, p.hash, p.mgf_hash, p.salt_len, m, rng)
            }
            (SignaturePadding::Pss(p), Batch::Digests(d)) => {
                pss::sign_digest_batch(engine, self, p.hash, p.mgf_hash, p.salt_len, d, rng)
            }
            (SignaturePadding::Pkcs1v15(p), Batch::Messages(m)) => pkcs1v15::sign_batch(engine, self, p.hash, m, rng),
            (SignaturePadding::Pkcs1v15(p), Batch::Digests(d)) => {
                pkcs1v15::sign_digest_batch(engine, self, p.hash, d, rng)
            }
        }
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
        padding: impl Into<EncryptionPadding>,
        ct: &[u8],
        rng: &mut impl CryptoRngCore,
    ) -> Result<Zeroizing<Vec<u8>>> {
        match padding.into() {
            EncryptionPadding::Oaep(p) => oaep::decrypt(self, p.hash, p.mgf_hash, &p.label, ct, rng),
            EncryptionPadding::Pkcs1v15(_) => pkcs1v15::decrypt(self, ct, rng),
        }
    }

    /// The message of every ciphertext of `cts`, in order, the private
    /// operations as one batch on `engine`.
    pub fn decrypt_batch(
        &self,
        engine: &Engine,
        padding: impl Into<EncryptionPadding>,
        cts: &[&[u8]],
        rng: &mut impl CryptoRngCore,
    ) -> Vec<Result<Zeroizing<Vec<u8>>>> {
        match padding.into() {
            EncryptionPadding::Oaep(p) => oaep::decrypt_batch(engine, self, p.hash, p.mgf_hash, &p.label, cts, rng),
            EncryptionPadding::Pkcs1v15(_) => pkcs1v15::decrypt_batch(engine, self, cts, rng),
        }
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
    pub fn verify(&self, padding: impl Into<SignaturePadding>, msg: &[u8], sig: &[u8]) -> Result<()> {
        match padding.into() {
            SignaturePadding::Pss(p) => pss::verify(self, p.hash, p.mgf_hash, p.salt_len, msg, sig),
            SignaturePadding::Pkcs1v15(p) => pkcs1v15::verify(self, p.hash, msg, sig),
        }
    }

    /// Whether `sig` is a signature of the message whose digest (by the
    /// padding's hash) is `digest`, as [`RsaPublicKey::verify`].
    pub fn verify_prehashed(&self, padding: impl Into<SignaturePadding>, digest: &[u8], sig: &[u8]) -> Result<()> {
        match padding.into() {
            SignaturePadding::Pss(p) => pss::verify_digest(self, p.hash, p.mgf_hash, p.salt_len, digest, sig),
            SignaturePadding::Pkcs1v15(p) => pkcs1v15::verify_digest(self, p.hash, digest, sig),
        }
    }

    /// Whether `sigs[i]` is a signature of `input`'s item `i`, for every
    /// `i`, in order, the public operations as one batch on `engine`.
    ///
    /// `sigs` must have as many items as `input`: otherwise every item
    /// fails with [`Error::InvalidParameters`] (one per item of `input`).
    pub fn verify_batch(
        &self,
        engine: &Engine,
        padding: impl Into<SignaturePadding>,
        input: Batch<'_>,
        sigs: &[&[u8]],
    ) -> Vec<Result<()>> {
        if input.len() != sigs.len() {
            let e = Error::InvalidParameters(format!("{} signatures for {} items", sigs.len(), input.len()));
            return fail_all(input.len(), &e);
        }
        let pairs = |items| pairs(items, sigs);
        match (padding.into(), input) {
            (SignaturePadding::Pss(p), Batch::Messages(m)) => {
                pss::verify_batch(engine, self, p.hash, p.mgf_hash, p.salt_len, &pairs(m))
            }
            (SignaturePadding::Pss(p), Batch::Digests(d)) => {
                pss::verify_digest_batch(engine, self, p.hash, p.mgf_hash, p.salt_len, &pairs(d))
            }
            (SignaturePadding::Pkcs1v15(p), Batch::Messages(m)) => {
                pkcs1v15::verify_batch(engine, self, p.hash, &pairs(m))
            }
            (SignaturePadding::Pkcs1v15(p), Batch::Digests(d)) => {
                pkcs1v15::verify_digest_batch(engine, self, p.hash, &pairs(d))
            }
        }
    }

    /// The ciphertext of `msg` (RSAES-OAEP-ENCRYPT, RFC 8017 §7.1.1, or
    /// RSAES-PKCS1-v1_5-ENCRYPT, §7.2.1); `rng` draws the seed or padding.
    ///
    /// Errors: [`Error::MessageTooLong`] when the message does not fit
    /// (`mLen > k - 2·hLen - 2` for OAEP, `mLen > k - 11` for PKCS#1
    /// v1.5); for OAEP [`Error::UnsupportedHash`] for SHAKE and
    /// [`Error::KeyTooSmall`] when `k < 2·hLen + 2`; [`Error::Rng`].
    pub fn encrypt(
        &self,
        padding: impl Into<EncryptionPadding>,
        msg: &[u8],
        rng: &mut impl CryptoRngCore,
    ) -> Result<Vec<u8>> {
        match padding.into() {
            EncryptionPadding::Oaep(p) => oaep::encrypt(self, p.hash, p.mgf_hash, &p.label, msg, rng),
            EncryptionPadding::Pkcs1v15(_) => pkcs1v15::encrypt(self, msg, rng),
        }
    }

    /// The ciphertext of every message of `msgs`, in order, the public
    /// operations as one batch on `engine`; a message too long gets its
    /// own error.
    pub fn encrypt_batch(
        &self,
        engine: &Engine,
        padding: impl Into<EncryptionPadding>,
        msgs: &[&[u8]],
        rng: &mut impl CryptoRngCore,
    ) -> Vec<Result<Vec<u8>>> {
        match padding.into() {
            EncryptionPadding::Oaep(p) => oaep::encrypt_batch(engine, self, p.hash, p.mgf_hash, &p.label, msgs, rng),
            EncryptionPadding::Pkcs1v15(_) => pkcs1v15::encrypt_batch(engine, self, msgs, rng),
        }
    }
}

/// `(item, signature)` pairs, the free functions' verification input.
fn pairs<'a>(items: &[&'a [u8]], sigs: &[&'a [u8]]) -> Vec<(&'a [u8], &'a [u8])> {
    items.iter().copied().zip(sigs.iter().copied()).collect()
}
