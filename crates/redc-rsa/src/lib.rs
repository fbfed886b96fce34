//! RSA on redc's own Montgomery arithmetic (RFC 8017), in layers that
//! depend downwards only (after RustCrypto's `rsa` crate):
//!
//! | module | layer |
//! |---|---|
//! | [`key`] | keys: the numbers, validation, the prepared moduli |
//! | `crt` | CRT: residues, Garner, the FDFM form of 001_24b3bbce8c558126.txt §4 |
//! | [`primitive`] | I2OSP/OS2IP, RSAEP/RSADP single and batch (blinding, the e-check) |
//! | `blinding` | a key's blinding chain `(r^e, r^-1)`, renewed by squaring |
//! | `role` | the brands of a key's Montgomery domains (`N`, `P`, `Q`, `R`) |
//! | [`scheme`] | the scheme traits ([`scheme::SignatureScheme`], [`scheme::EncryptionScheme`]) and the keys' `sign`/`verify`/`encrypt`/`decrypt` methods over them |
//! | [`oaep`], [`pss`], [`pkcs1v15`], [`mgf`], [`hash`] | the schemes: each its RFC encodings, its padding value and its trait impl |
//! | [`hazmat`] | raw RSA, [`hazmat::CrtMode`], explicit-error PKCS#1 v1.5 decryption |
//! | [`padding`] | the padding values in one place ([`padding::Pss`], [`padding::Oaep`], ...) and the enums of them, [`padding::SignaturePadding`] and [`padding::EncryptionPadding`] |
//! | [`signature_shape`] | what a signature that failed to verify is: [`signature_shape::SignatureShape`] |
//! | [`signer`] | RustCrypto's `signature` traits: [`signer::SigningKey`], [`signer::VerifyingKey`], [`signer::Signature`] |
//! | [`keygen`], [`encoding`], [`envelope`] | key generation, key files, the file envelope |
//! | [`weak`] | the checks against weak keys (small factors, small or composite primes) |
//!
//! Public integers are [`Num`] = `redc::Nat<u64>`; private values are
//! [`redc::SecretNat`]s of public lengths. Both primitives run on the batch
//! engine ([`redc::Engine`]): [`rsa_private_batch`] and [`rsa_public_batch`]
//! take many inputs at once (the CRT halves as SIMD lane jobs), and a single
//! operation is a batch of one on [`redc::engine::default_engine`].
//! Exponents of private keys run in constant time (fixed windows over
//! public bounds), public exponents may skip windows; the glue around them
//! (reductions into each prime, Garner, blinding) runs on the same
//! constant-time 64-bit kernels.
//!
//! # Example
//!
//! A key, a PSS signature and its check, then a batch of PKCS#1 v1.5
//! signatures in one engine batch; `examples/` has bulk signing and the
//! file envelope for several recipients.
//!
//! In `Cargo.toml` (redc is not on crates.io: a path or git dependency),
//! nothing else: the random-number traits and the operating system's
//! generator come re-exported ([`rand_core`], [`OsRng`]), of the version
//! redc's functions take.
//!
//! ```toml
//! [dependencies]
//! redc = { path = "../redc/crates/redc" }          # the engine (batches)
//! redc-rsa = { path = "../redc/crates/redc-rsa" }
//! ```
//!
//! ```
//! use redc_rsa::keygen::{DEFAULT_E, generate};
//! use redc_rsa::padding::{Pkcs1v15Sign, Pss};
//! use redc_rsa::scheme::Batch;
//! use redc_rsa::{HashAlg, Num, OsRng};
//!
//! let key = generate(2048, &Num::from_u64(DEFAULT_E), &|_| {})?;
//! let pss = Pss::new(HashAlg::Sha256);
//! let sig = key.sign(pss, b"hello", &mut OsRng)?;
//! key.public_key().verify(pss, b"hello", &sig)?;
//! assert!(key.public_key().verify(pss, b"hullo", &sig).is_err());
//!
//! let engine = redc::Engine::detect();
//! let msgs: [&[u8]; 3] = [b"a", b"b", b"c"];
//! let pkcs = Pkcs1v15Sign::new(HashAlg::Sha256);
//! let sigs = key.sign_batch(&engine, pkcs, Batch::Messages(&msgs), &mut OsRng);
//! assert_eq!(sigs.len(), 3);
//! for (msg, sig) in msgs.iter().zip(&sigs) {
//!     key.public_key().verify(pkcs, msg, sig.as_ref().unwrap())?;
//! }
//! # Ok::<(), redc_rsa::Error>(())
//! ```

mod blinding;
mod crt;
pub mod encoding;
pub mod envelope;
pub mod error;
pub mod fault;
pub mod hazmat;
pub mod key;
pub mod keygen;
pub mod mgf;
pub mod oaep;
pub mod padding;
mod pbes2_params;
pub mod pkcs1v15;
pub mod primitive;
pub mod pss;
pub mod pss_key;
mod role;
pub mod scheme;
pub mod signature_shape;
pub mod signer;
mod tail;
pub mod weak;

pub use encoding::{AnyKey, Pbes2Kdf, read_key, read_private_key, read_public_key};
pub use error::{Error, Result};
pub use key::{RsaPrivateKey, RsaPublicKey};
pub use primitive::{rsa_private_batch, rsa_public_batch};
/// The `rand_core` (0.6, as RustCrypto's `signature` 2 traits) whose
/// `CryptoRngCore` redc's functions take, and its operating-system
/// generator: a user need not pick the version.
pub use rand_core::{self, OsRng};
/// The hashes, the security levels and the naming of unreadable key files,
/// shared with redc-ffc ([`redc_pki`]), under their paths of this crate.
pub use redc_pki::{HashAlg, hash, policy, unreadable};
/// RustCrypto's `signature` (2.x) whose traits [`signer::SigningKey`] and
/// [`signer::VerifyingKey`] implement: a user need not pick the version.
pub use signature;

/// The integer type of the RSA layer's public values (redc's one [`redc::Num`]).
pub use redc::Num;

/// A fresh 1024-bit key (e = 65537), an input `c` and `c^d mod n` by
/// redc's `modpow`: the unit tests' private operation and its answer. The
/// key is small for speed, on purpose: at security level 1.
#[cfg(test)]
pub(crate) fn test_key() -> (RsaPrivateKey, Num, Num) {
    let key = keygen::generate(1024, &Num::from_u64(keygen::DEFAULT_E), &|_| {})
        .unwrap()
        .with_security_level(policy::SecurityLevel::new(1).unwrap());
    let c = Num::from_u64(0x1234_5678_9abc_def1);
    let d = key.d().reveal();
    let expect = redc::modpow(&c, &d, key.public_key().n(), redc::PowOptions::default(), None).unwrap();
    (key, c, expect)
}

/// Bytes from hexadecimal text, for the unit tests' known answers.
#[cfg(test)]
pub(crate) fn test_hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}
