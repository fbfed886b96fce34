//! **Hazardous materials.** Raw RSA without padding, the RFC 8017 §4
//! conversions, and a PKCS#1 v1.5 decryption that *reports* padding errors.
//!
//! Nothing here is an encryption or a signature scheme. Raw RSA ("textbook
//! RSA") is deterministic and malleable: applied to messages it leaks and
//! lets an attacker forge. Use [`crate::oaep`], [`crate::pss`] and
//! [`crate::pkcs1v15`] unless you are implementing a scheme yourself or
//! reproducing an experiment.

use crate::Num;
use crate::batch::{on_ok, rsa_private_batch, rsa_public_batch};
use crate::error::{Error, Result};
use crate::key::{CrtMode, RsaPrivateKey, RsaPublicKey};
use rand_core::CryptoRngCore;
use redc::Engine;
use zeroize::Zeroizing;

/// I2OSP (RFC 8017 §4.1): `x` as exactly `len` big-endian bytes, or
/// [`Error::OutOfRange`] ("integer too large") when `x >= 256^len`.
///
/// Writes every limb of the fixed width `ceil(len/8)` and checks the excess
/// bytes with an OR, so the work does not depend on how many leading zero
/// bytes `x` has (the timing signal of the Marvin attack); the buffers it
/// uses are wiped.
pub fn i2osp(x: &Num, len: usize) -> Result<Zeroizing<Vec<u8>>> {
    let limbs = len.div_ceil(8);
    let digits = Zeroizing::new(x.to_digits_padded(limbs));
    if digits.len() > limbs {
        return Err(Error::OutOfRange);
    }
    let width = limbs * 8;
    let mut out = Zeroizing::new(vec![0u8; width]);
    for (i, limb) in digits.iter().enumerate() {
        let pos = width - 8 * (i + 1);
        out[pos..pos + 8].copy_from_slice(&limb.to_be_bytes());
    }
    let extra = width - len;
    let overflow = out[..extra].iter().fold(0u8, |acc, &b| acc | b);
    if overflow != 0 {
        return Err(Error::OutOfRange);
    }
    out.drain(..extra);
    Ok(out)
}

/// OS2IP (RFC 8017 §4.2): the big-endian bytes as an integer.
pub fn os2ip(bytes: &[u8]) -> Num {
    Num::from_be_bytes(bytes)
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
            .map(|m| i2osp(&Zeroizing::new(m?), k))
            .collect()
    })
}

/// Raw RSADP / RSASP1 (RFC 8017 §5.1.2, §5.2.1) on bytes: `input` (at most
/// `k` bytes, read big-endian, less than `n`) to the `k`-byte
/// `input^d mod n`, blinded, combined as `mode` says, checked with `e`.
///
/// **Hazardous**: a raw decryption oracle and a raw signing oracle; whoever
/// can choose `input` can decrypt or sign anything with this key.
pub fn raw_private(
    key: &RsaPrivateKey,
    input: &[u8],
    mode: CrtMode,
    rng: &mut impl CryptoRngCore,
) -> Result<Zeroizing<Vec<u8>>> {
    let k = key.public_key().size();
    let c = Zeroizing::new(representative(input, k)?);
    let m = Zeroizing::new(key.rsadp(&c, mode, rng)?);
    i2osp(&m, k)
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
/// decryption must use [`crate::pkcs1v15::decrypt`], which answers a bad
/// padding with a deterministic synthetic message (implicit rejection,
/// draft-irtf-cfrg-rsa-guidance §7).
pub fn pkcs1v15_decrypt_explicit(
    key: &RsaPrivateKey,
    ct: &[u8],
    rng: &mut impl CryptoRngCore,
) -> Result<Zeroizing<Vec<u8>>> {
    let em = crate::pkcs1v15::rsadp_bytes(key, ct, rng)?;
    let (good, index) = crate::pkcs1v15::eme_decode_ct(&em);
    if !bool::from(good) {
        return Err(Error::Decryption);
    }
    Ok(Zeroizing::new(em[index..].to_vec()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn i2osp_widths() {
        let x = Num::from_u64(0x0102_0304_0506_0708);
        assert_eq!(&i2osp(&x, 8).unwrap()[..], &[1, 2, 3, 4, 5, 6, 7, 8]);
        assert_eq!(&i2osp(&x, 10).unwrap()[..], &[0, 0, 1, 2, 3, 4, 5, 6, 7, 8]);
        assert_eq!(i2osp(&x, 7), Err(Error::OutOfRange));
        assert_eq!(i2osp(&x, 0), Err(Error::OutOfRange));
        assert_eq!(&i2osp(&Num::zero(), 3).unwrap()[..], &[0, 0, 0]);
        assert_eq!(&i2osp(&Num::zero(), 0).unwrap()[..], &[] as &[u8]);
        let big = os2ip(&[0xff; 17]);
        assert_eq!(&i2osp(&big, 17).unwrap()[..], &[0xff; 17]);
        assert_eq!(i2osp(&big, 16), Err(Error::OutOfRange));
        for len in 0..40 {
            let bytes: Vec<u8> = (0..len as u8).map(|b| b.wrapping_mul(37) | 1).collect();
            assert_eq!(&i2osp(&os2ip(&bytes), len).unwrap()[..], &bytes[..]);
        }
    }
}
