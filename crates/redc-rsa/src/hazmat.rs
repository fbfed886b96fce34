//! **Hazardous materials.** Raw RSA without padding, the private operation
//! in the papers' other CRT forms ([`CrtMode`]), and a PKCS#1 v1.5
//! decryption that *reports* padding errors. The RFC 8017 §4 conversions
//! are re-exported from [`crate::primitive`].
//!
//! Nothing here is an encryption or a signature scheme. Raw RSA ("textbook
//! RSA") is deterministic and malleable: applied to messages it leaks and
//! lets an attacker forge. Use [`crate::oaep`], [`crate::pss`] and
//! [`crate::pkcs1v15`] unless you are implementing a scheme yourself or
//! reproducing an experiment.

pub mod raw_blocks;

use crate::Num;
pub use crate::crt::CrtMode;
use crate::error::{Error, Result};
use crate::key::{RsaPrivateKey, RsaPublicKey};
pub use crate::primitive::{i2osp, os2ip};
use crate::primitive::{on_ok, private::private_batch, rsa_private_batch, rsa_public_batch, rsadp_bytes_batch};
use rand_core::CryptoRngCore;
use redc::engine::default_engine;
use redc::{Engine, SecretNat};
use zeroize::Zeroizing;

/// RSADP / RSASP1 with the prime halves combined as `mode` says (Garner's
/// formula, the four steps of 001_24b3bbce8c558126.txt §4, or no CRT),
/// blinded and checked with `e` like [`RsaPrivateKey::rsadp`], as a batch
/// of one on `engine`. For comparing the papers' forms; the schemes use
/// Garner's.
///
/// **Hazardous**: a raw private-key oracle, as [`raw_private`].
pub fn rsadp_with(
    engine: &Engine,
    key: &RsaPrivateKey,
    c: &Num,
    mode: CrtMode,
    rng: &mut impl CryptoRngCore,
) -> Result<SecretNat> {
    let mut answers = private_batch(engine, key, core::slice::from_ref(c), mode, rng);
    answers.pop().unwrap_or(Err(Error::FaultDetected))
}

/// The integer of a raw input for a `k`-byte key: at most `k` bytes, read
/// big-endian (whether it is below `n` is the primitive's check).
fn representative(input: &[u8], k: usize) -> Result<Num> {
    if input.len() > k {
        return Err(Error::MessageTooLong {
            len: input.len(),
            max: k,
        });
    }
    Ok(os2ip(input))
}

/// Raw RSAEP / RSAVP1 (RFC 8017 §5.1.1, §5.2.2) on bytes: `input` (at most
/// `k` bytes, read big-endian, less than `n`) to the `k`-byte `input^e mod n`.
///
/// **Hazardous**: no padding, so no security as an encryption.
pub fn raw_public(key: &RsaPublicKey, input: &[u8]) -> Result<Vec<u8>> {
    let c = key.rsaep(&representative(input, key.size())?)?;
    Ok(i2osp(&c, key.size())?.to_vec())
}

/// [`raw_public`] for every input, in order, as one engine batch
/// ([`rsa_public_batch`]); a bad input gets its own error.
///
/// **Hazardous**: as [`raw_public`].
pub fn raw_public_batch(engine: &Engine, key: &RsaPublicKey, inputs: &[&[u8]]) -> Vec<Result<Vec<u8>>> {
    let k = key.size();
    let items = inputs.iter().map(|input| representative(input, k)).collect();
    on_ok(items, |ms| {
        rsa_public_batch(engine, key, &ms)
            .into_iter()
            .map(|c| Ok(i2osp(&c?, k)?.to_vec()))
            .collect()
    })
}

/// [`raw_private`] with Garner's CRT for every input, in order, as one
/// engine batch ([`rsa_private_batch`]); a bad input gets its own error.
///
/// **Hazardous**: as [`raw_private`].
pub fn raw_private_batch(
    engine: &Engine,
    key: &RsaPrivateKey,
    inputs: &[&[u8]],
    rng: &mut impl CryptoRngCore,
) -> Vec<Result<Zeroizing<Vec<u8>>>> {
    let k = key.public_key().size();
    let items = inputs.iter().map(|input| representative(input, k)).collect();
    on_ok(items, |cs| {
        rsa_private_batch(engine, key, &cs, rng)
            .into_iter()
            .map(|m| m?.to_be_bytes(k).ok_or(Error::OutOfRange))
            .collect()
    })
}

/// Raw RSADP / RSASP1 (RFC 8017 §5.1.2, §5.2.1) on bytes: `input` (at most
/// `k` bytes, read big-endian, less than `n`) to the `k`-byte
/// `input^d mod n`, blinded, by Garner's CRT, checked with `e`.
///
/// **Hazardous**: a raw decryption oracle and a raw signing oracle; whoever
/// can choose `input` can decrypt or sign anything with this key.
pub fn raw_private(key: &RsaPrivateKey, input: &[u8], rng: &mut impl CryptoRngCore) -> Result<Zeroizing<Vec<u8>>> {
    raw_private_with(key, input, CrtMode::Garner, rng)
}

/// [`raw_private`] with the prime halves combined as `mode` says (for
/// comparing the papers' CRT forms).
///
/// **Hazardous**: as [`raw_private`].
pub fn raw_private_with(
    key: &RsaPrivateKey,
    input: &[u8],
    mode: CrtMode,
    rng: &mut impl CryptoRngCore,
) -> Result<Zeroizing<Vec<u8>>> {
    let k = key.public_key().size();
    let c = Zeroizing::new(representative(input, k)?);
    let m = rsadp_with(default_engine(), key, &c, mode, rng)?;
    m.to_be_bytes(k).ok_or(Error::OutOfRange)
}

/// RSAES-PKCS1-v1_5 decryption **with explicit rejection** (RFC 8017
/// §7.2.2 as written): [`Error::Decryption`] when the padding is wrong.
///
/// # DANGER: for test vectors only
///
/// Telling a caller *whether* a ciphertext's padding was valid is exactly
/// the oracle of Bleichenbacher's attack (1998) and of its timing variant
/// Marvin (2023): with enough queries an attacker decrypts any ciphertext or
/// signs any message with the key. This function exists so that test
/// vectors that mark ciphertexts as invalid can be checked. Every real
/// decryption must use [`RsaPrivateKey::decrypt`] with
/// [`crate::padding::Pkcs1v15Encrypt`], which answers a bad
/// padding with a deterministic synthetic message (implicit rejection,
/// draft-irtf-cfrg-rsa-guidance §7).
pub fn pkcs1v15_decrypt_explicit(
    key: &RsaPrivateKey,
    ct: &[u8],
    rng: &mut impl CryptoRngCore,
) -> Result<Zeroizing<Vec<u8>>> {
    let decode = |_: &[u8], em: Zeroizing<Vec<u8>>| {
        let (good, index) = crate::pkcs1v15::eme_decode_ct(&em);
        if !bool::from(good) {
            return Err(Error::Decryption);
        }
        Ok(Zeroizing::new(em[index..].to_vec()))
    };
    crate::primitive::single(rsadp_bytes_batch(default_engine(), key, &[ct], 11, rng, decode))
}
