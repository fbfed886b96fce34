//! RSA on redc's own Montgomery arithmetic (RFC 8017).
//!
//! Two layers, after RustCrypto's `rsa` crate:
//!
//! - primitives as functions: [`key::RsaPublicKey::rsaep`] (RSAEP/RSAVP1),
//!   [`key::RsaPrivateKey::rsadp`] (RSADP/RSASP1, CRT with blinding and the
//!   public-exponent check), MGF1, EME-OAEP, EMSA-PSS, EMSA/EME-PKCS1-v1_5;
//! - typed schemes and keys on top: OAEP, PSS, PKCS#1 v1.5, key encodings,
//!   key generation, the file envelope.
//!
//! Integers are [`Num`] = `redc::Nat<u64>`. Both primitives run on the batch
//! engine ([`redc::Engine`]): [`rsa_private_batch`] and [`rsa_public_batch`]
//! take many inputs at once (the CRT halves as SIMD lane jobs, see
//! [`batch`]), and a single operation is a batch of one on
//! `redc::engine::default_engine()` (`REDC_BACKEND=scalar|ifma`). Exponents
//! of private keys run in constant time (fixed windows over public bounds),
//! public exponents may skip windows; the glue around them (reductions into
//! each prime, Garner, blinding) uses the constant-time CIOS product.

pub mod batch;
pub mod envelope;
pub mod error;
pub mod hash;
pub mod key;
pub mod keygen;

pub use batch::{rsa_private_batch, rsa_public_batch};
pub use error::{Error, Result};
pub use hash::HashAlg;
pub use key::{CrtMode, RsaPrivateKey, RsaPublicKey};

/// The integer type of the RSA layer.
pub type Num = redc::Nat<u64>;

pub mod encoding;
pub use encoding::{AnyKey, Pbes2Kdf, read_key, read_private_key, read_public_key};

pub mod hazmat;
pub mod mgf;
pub mod oaep;
pub mod pkcs1v15;
pub mod pss;

/// Bytes from hexadecimal text, for the unit tests' known answers.
#[cfg(test)]
pub(crate) fn test_hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}
