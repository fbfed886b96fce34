//! Typed DSA methods on [`DsaPrivateKey`] and [`DsaPublicKey`], as
//! redc-rsa's keys have them: sign and verify a message (hashed here) or
//! its digest, one at a time or as one batch of messages or digests
//! ([`Batch`]).
//!
//! | method | FIPS 186-4 (186-5) | calls |
//! |---|---|---|
//! | [`DsaPrivateKey::sign`], [`DsaPrivateKey::sign_prehashed`], [`DsaPrivateKey::sign_batch`] | §4.6 | [`sign_batch`] |
//! | [`DsaPublicKey::verify`], [`DsaPublicKey::verify_prehashed`], [`DsaPublicKey::verify_batch`] | §4.7 | [`verify_batch`] |
//!
//! The methods hold no DSA: each calls the batched primitive (a single
//! signature is a batch of one on the default engine), so errors, nonces
//! (RFC 6979) and constant-time behaviour are those documented there.
//!
//! ```
//! use redc_ffc::dsa::{DsaParams, DsaPrivateKey, Nonce};
//! use redc_ffc::{Batch, HashAlg, OsRng};
//! # use redc_ffc::dsa::generate_params;
//! # let params = std::sync::Arc::new(generate_params(2048, 224, &mut OsRng)?);
//! let key = DsaPrivateKey::generate(params, &mut OsRng)?;
//! let public = key.public_key();
//!
//! let sig = key.sign(HashAlg::Sha256, b"hello", Nonce::Hedged, &mut OsRng)?;
//! public.verify(HashAlg::Sha256, b"hello", &sig)?;
//! assert!(public.verify(HashAlg::Sha256, b"hullo", &sig).is_err());
//!
//! // Three signatures in one engine batch, then checked in another.
//! let engine = redc::Engine::detect();
//! let msgs: [&[u8]; 3] = [b"a", b"b", b"c"];
//! let sigs = key
//!     .sign_batch(&engine, HashAlg::Sha256, Batch::Messages(&msgs), Nonce::Deterministic, &mut OsRng)
//!     .into_iter()
//!     .collect::<Result<Vec<_>, _>>()?;
//! let sigs: Vec<_> = sigs.iter().collect();
//! for ok in public.verify_batch(&engine, HashAlg::Sha256, Batch::Messages(&msgs), &sigs) {
//!     ok?;
//! }
//! # Ok::<(), redc_ffc::Error>(())
//! ```

use super::{DsaPrivateKey, DsaPublicKey, Nonce, Signature, sign_batch, verify_batch};
use crate::error::{Error, Result};
use crate::{Batch, HashAlg};
use rand_core::CryptoRngCore;
use redc::Engine;

impl DsaPrivateKey {
    /// A signature of `msg` hashed with `hash` (FIPS 186-4 §4.6), with
    /// `nonce`'s `k`: one signature on the default engine.
    ///
    /// # Errors
    ///
    /// As [`sign_batch`].
    pub fn sign(&self, hash: HashAlg, msg: &[u8], nonce: Nonce, rng: &mut impl CryptoRngCore) -> Result<Signature> {
        self.sign_prehashed(hash, &hash.digest(msg), nonce, rng)
    }

    /// A signature of a message digest made with `hash` (FIPS 186-4 §4.6,
    /// the digest truncated to `N` bits), with `nonce`'s `k` (`hash` is
    /// also RFC 6979's HMAC hash): one signature on the default engine.
    ///
    /// # Errors
    ///
    /// As [`sign_batch`].
    pub fn sign_prehashed(
        &self,
        hash: HashAlg,
        digest: &[u8],
        nonce: Nonce,
        rng: &mut impl CryptoRngCore,
    ) -> Result<Signature> {
        sign_batch(redc::engine::default_engine(), self, hash, &[digest], nonce, rng)
            .pop()
            .unwrap_or(Err(Error::Rng))
    }

    /// A signature of each item of `input` (messages hashed with `hash`,
    /// or digests), in order, every `g^k` in one batch on `engine`.
    ///
    /// # Errors
    ///
    /// Per item, as [`sign_batch`].
    pub fn sign_batch(
        &self,
        engine: &Engine,
        hash: HashAlg,
        input: Batch<'_>,
        nonce: Nonce,
        rng: &mut impl CryptoRngCore,
    ) -> Vec<Result<Signature>> {
        let digests = input.digests(hash);
        let digests: Vec<&[u8]> = digests.iter().map(|d| &**d).collect();
        sign_batch(engine, self, hash, &digests, nonce, rng)
    }
}

impl DsaPublicKey {
    /// Checks `sig` on `msg` hashed with `hash` (FIPS 186-4 §4.7): one
    /// verification on the default engine.
    ///
    /// # Errors
    ///
    /// [`Error::Verification`] for a signature that does not verify.
    pub fn verify(&self, hash: HashAlg, msg: &[u8], sig: &Signature) -> Result<()> {
        self.verify_prehashed(&hash.digest(msg), sig)
    }

    /// Checks `sig` on a message digest (FIPS 186-4 §4.7, the digest
    /// truncated to `N` bits): one verification on the default engine.
    ///
    /// # Errors
    ///
    /// [`Error::Verification`] for a signature that does not verify.
    pub fn verify_prehashed(&self, digest: &[u8], sig: &Signature) -> Result<()> {
        let ok = verify_batch(redc::engine::default_engine(), &[(self, digest, sig)]);
        verdict(ok.first().copied().unwrap_or(false))
    }

    /// Whether `sigs[i]` is a signature of `input`'s item `i` (messages
    /// hashed with `hash`, or digests), for every `i`, in order, the
    /// exponentiations as one batch on `engine`.
    ///
    /// `sigs` must have as many items as `input`: otherwise every item
    /// fails with [`Error::Verification`] (one per item of `input`).
    pub fn verify_batch(
        &self,
        engine: &Engine,
        hash: HashAlg,
        input: Batch<'_>,
        sigs: &[&Signature],
    ) -> Vec<Result<()>> {
        if input.len() != sigs.len() {
            return (0..input.len()).map(|_| Err(Error::Verification)).collect();
        }
        let digests = input.digests(hash);
        let items: Vec<(&DsaPublicKey, &[u8], &Signature)> =
            digests.iter().zip(sigs).map(|(d, &sig)| (self, &**d, sig)).collect();
        verify_batch(engine, &items).into_iter().map(verdict).collect()
    }
}

/// A verification's verdict as a result.
fn verdict(ok: bool) -> Result<()> {
    if ok { Ok(()) } else { Err(Error::Verification) }
}
