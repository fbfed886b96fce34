//! Finite-field Diffie-Hellman and DSA on redc's Montgomery arithmetic and
//! batch engine: the other users of modular exponentiation that 002 (Blum
//! and Paar) names beside RSA.
//!
//! Layers, each depending only on those above it:
//!
//! | module | holds |
//! |---|---|
//! | [`error`] | [`Error`] |
//! | [`jacobi`] | the Jacobi symbol, the subgroup check of a safe-prime group |
//! | [`group`] | the named groups of RFC 7919 and RFC 3526 |
//! | [`dh`] | Diffie-Hellman keys, peer validation, derivation single and batched |
//! | [`dsa`] | DSA domain parameters (FIPS 186-4 A.1.1.2, A.2.1), keys, RFC 6979 nonces, signing and verification single and batched, DER and P1363 signatures, the keys' typed methods |
//! | [`signer`] | RustCrypto's `signature` traits: [`signer::SigningKey`], [`signer::VerifyingKey`] |
//! | [`encoding`] | PKCS#8 and SPKI for both, as OpenSSL writes them |
//!
//! Secrets (private exponents, nonces) are [`SecretNat`]s and go through
//! the engine's constant-time [`Engine::pow`] with a public bound on their
//! length; public values (a peer's value, a signature being verified) take
//! the public-exponent paths.
//!
//! ```
//! use redc_ffc::{dh::DhPrivateKey, Group};
//! let mut rng = redc_ffc::OsRng;
//! let alice = DhPrivateKey::generate(Group::Ffdhe2048, None, &mut rng)?;
//! let bob = DhPrivateKey::generate(Group::Ffdhe2048, None, &mut rng)?;
//! let a = alice.derive(bob.public_key().y())?;
//! let b = bob.derive(alice.public_key().y())?;
//! assert_eq!(*a, *b);
//! # Ok::<(), redc_ffc::Error>(())
//! ```

pub mod dh;
pub mod dsa;
pub mod encoding;
pub mod error;
pub mod group;
pub mod jacobi;
pub mod signer;

pub use encoding::{AnyKey, read_key};
pub use error::{Error, Result};
pub use group::Group;
/// The `rand_core` whose `CryptoRngCore` redc's functions take, and its
/// operating-system generator (as `redc_rsa` re-exports them).
pub use rand_core::{self, OsRng};
/// The hashes, security levels and batch inputs shared with redc-rsa
/// ([`redc_pki`]).
pub use redc_pki::{Batch, HashAlg, SecurityLevel};
/// RustCrypto's `signature` (2.x) whose traits [`signer::SigningKey`] and
/// [`signer::VerifyingKey`] implement: a user need not pick the version.
pub use signature;

/// `level`'s check of a prime of `bits` bits for `what` (a new signature
/// or shared secret, [`redc_pki::policy`]), as this crate's error.
pub(crate) fn check_level(level: SecurityLevel, what: &str, bits: usize) -> Result<()> {
    Ok(level.check_ffc(what, bits)?)
}

use redc::engine::EngineCache;
use redc::kernel::consts::ModulusError;
use redc::{Domain, Engine, Prepared, SecretNat};
use std::sync::Arc;

/// A public integer (redc's one [`redc::Num`]).
pub use redc::Num;

/// The brand of residues modulo a group's or a DSA key's prime `p`.
#[derive(Debug)]
pub enum ModP {}

/// The brand of residues modulo DSA's subgroup order `q`.
#[derive(Debug)]
pub enum ModQ {}

/// A public odd modulus with its Montgomery domain, branded `M`, and its
/// engine contexts once prepared.
#[derive(Debug)]
pub struct PublicModulus<M> {
    n: Num,
    domain: Domain<M>,
    prepared: EngineCache<Prepared>,
}

impl<M> Clone for PublicModulus<M> {
    fn clone(&self) -> Self {
        Self {
            n: self.n.clone(),
            domain: self.domain.clone(),
            prepared: self.prepared.clone(),
        }
    }
}

impl<M> PublicModulus<M> {
    /// The modulus `n` (odd, at least 3) and its constants.
    ///
    /// # Errors
    ///
    /// [`ModulusError`] for an even modulus or one below 3.
    pub fn new(n: Num) -> core::result::Result<Self, ModulusError> {
        let domain = Domain::public(&n)?;
        Ok(Self {
            n,
            domain,
            prepared: EngineCache::default(),
        })
    }

    /// The modulus.
    pub fn n(&self) -> &Num {
        &self.n
    }

    /// Its Montgomery domain.
    pub fn domain(&self) -> &Domain<M> {
        &self.domain
    }

    /// Its digit count.
    pub fn len(&self) -> usize {
        self.domain.len()
    }

    /// Never: a modulus has at least one digit.
    pub fn is_empty(&self) -> bool {
        self.domain.is_empty()
    }

    /// Its length in bytes.
    pub fn byte_len(&self) -> usize {
        self.n.bits().div_ceil(8)
    }

    /// The modulus prepared for `engine` (the domain's constants shared):
    /// made on first use for each engine configuration, then kept with the
    /// modulus (a DSA key's or a group's `p`), so that single operations do
    /// not prepare it again.
    pub fn prepare(&self, engine: &Engine) -> Arc<Prepared> {
        self.prepared
            .get(engine, || engine.prepare_consts(self.domain.consts(), self.n.bits()))
    }

    /// A public value below the modulus as a base for the engine (its
    /// digits padded to the modulus's count); `None` when it is not below.
    pub fn base(&self, x: &Num) -> Option<SecretNat> {
        if x >= &self.n {
            return None;
        }
        SecretNat::from_nat(x, self.len())
    }
}
