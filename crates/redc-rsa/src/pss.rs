//! RSASSA-PSS (RFC 8017 §8.1) with EMSA-PSS (RFC 8017 §9.1), MGF1 over any
//! SHA-1/SHA-2/SHA-3 hash, and SHAKE128/SHAKE256 per RFC 8702 §3.3–3.4
//! (hash output 32/64 bytes, the same SHAKE as mask generation function).
//!
//! The encoding covers `emBits = modBits - 1` bits: when the modulus
//! length is `1 mod 8`, `EM` is one byte shorter than the modulus, and the
//! leftmost `8·emLen - emBits` bits of `EM` are always cleared.

use crate::Num;
use crate::error::{Error, Result};
use crate::hash::HashAlg;
use crate::key::{RsaPrivateKey, RsaPublicKey};
use crate::mgf::mgf1_xor;
use crate::primitive::{fail_all, i2osp, os2ip, rsavp1_batch, signature_scheme};
use crate::scheme::{Batch, SignatureScheme, digests, verify_pairs};
use rand_core::CryptoRngCore;
use redc::Engine;
use subtle::ConstantTimeEq;
use zeroize::Zeroizing;

/// RSASSA-PSS (RFC 8017 §8.1) parameters: the message hash, MGF1's hash
/// (RFC 8017 §B.2.1) and the salt length. Its [`SignatureScheme`]:
///
/// - signing (RSASSA-PSS-SIGN, §8.1.1) draws every item's salt from the
///   RNG in one call, in order (an RNG failure fails every item);
/// - verification (RSASSA-PSS-VERIFY, §8.1.2) with `salt_len: None`
///   accepts any salt length (recovered from the position of the `0x01`
///   separator, as OpenSSL's `auto`).
///
/// Errors: [`Error::UnsupportedHash`] when a SHAKE is paired with anything
/// but itself (RFC 8702); [`Error::KeyTooSmall`] when
/// `emLen < hLen + sLen + 2`; [`Error::InvalidParameters`] for a digest of
/// the wrong length; [`Error::Verification`] for every invalid signature;
/// [`Error::Rng`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Pss {
    /// The hash of the message (and of `M'`, RFC 8017 §9.1.1 step 6).
    pub hash: HashAlg,
    /// The hash of the mask generation function MGF1 (a SHAKE hash must
    /// be the same SHAKE: RFC 8702 §3.3–3.4).
    pub mgf_hash: HashAlg,
    /// The salt length in bytes. `None`: when signing, the hash length
    /// (pyca's `PSS.DIGEST_LENGTH`, OpenSSL's `digest`), or the salt
    /// length an RSASSA-PSS key is restricted to; when verifying, any salt
    /// length (read from the signature, OpenSSL's `auto`), but at least a
    /// restricted key's. `Some(n)`: exactly `n` bytes, both ways.
    pub salt_len: Option<usize>,
}

impl Pss {
    /// PSS with `hash`, MGF1 over the same hash and the default salt
    /// length (`salt_len: None`: the hash length when signing, any when
    /// verifying).
    pub fn new(hash: HashAlg) -> Self {
        Self {
            hash,
            mgf_hash: hash,
            salt_len: None,
        }
    }

    /// The same, with MGF1 over `mgf_hash`.
    #[must_use]
    pub fn with_mgf_hash(self, mgf_hash: HashAlg) -> Self {
        Self { mgf_hash, ..self }
    }

    /// The same, with a salt of exactly `salt_len` bytes (signing and
    /// verifying).
    #[must_use]
    pub fn with_salt_len(self, salt_len: usize) -> Self {
        Self {
            salt_len: Some(salt_len),
            ..self
        }
    }
}

impl SignatureScheme for Pss {
    fn sign_batch(
        &self,
        engine: &Engine,
        key: &RsaPrivateKey,
        input: Batch<'_>,
        rng: &mut impl CryptoRngCore,
    ) -> Vec<Result<Vec<u8>>> {
        let digests = digests(input, self.hash);
        sign_digests(engine, key, self.hash, self.mgf_hash, self.salt_len, &digests, rng)
    }

    fn verify_batch(&self, engine: &Engine, key: &RsaPublicKey, input: Batch<'_>, sigs: &[&[u8]]) -> Vec<Result<()>> {
        verify_pairs(input, self.hash, sigs, |items| {
            verify_digests(engine, key, self.hash, self.mgf_hash, self.salt_len, items)
        })
    }
}

/// RSASSA-PSS-SIGN (RFC 8017 §8.1.1) of every digest (`mHash`), as one
/// batch on `engine`.
fn sign_digests(
    engine: &Engine,
    key: &RsaPrivateKey,
    hash: HashAlg,
    mgf_hash: HashAlg,
    salt_len: Option<usize>,
    digests: &[Vec<u8>],
    rng: &mut impl CryptoRngCore,
) -> Vec<Result<Vec<u8>>> {
    let public = key.public_key();
    let algorithm = public.algorithm();
    if let Err(e) = algorithm.check_pss(hash, mgf_hash, salt_len) {
        return fail_all(digests.len(), &e);
    }
    let em_bits = public.bits() - 1;
    // The hash's length, or a restricted key's salt length.
    let salt_len = salt_len.unwrap_or(algorithm.default_salt(hash));
    // RFC 8017 §9.1.1 step 3 (the same for every item), before anything is
    // allocated for the salts.
    if em_bits.div_ceil(8) < hash.output_len().saturating_add(salt_len).saturating_add(2) {
        return fail_all(digests.len(), &Error::KeyTooSmall);
    }
    // Every item's salt drawn in order, in one call; then the encodings on
    // every core.
    let mut salts = Zeroizing::new(vec![0u8; salt_len * digests.len()]);
    if rng.try_fill_bytes(&mut salts).is_err() {
        return fail_all(digests.len(), &Error::Rng);
    }
    let items: Vec<(&Vec<u8>, &[u8])> = digests
        .iter()
        .enumerate()
        .map(|(i, d)| (d, &salts[i * salt_len..(i + 1) * salt_len]))
        .collect();
    // emBits < modBits, so m < 2^(modBits-1) <= n.
    let encode =
        |(digest, salt): &(&Vec<u8>, &[u8])| Ok(os2ip(&emsa_pss_encode(hash, mgf_hash, digest, salt, em_bits)?));
    // EMSA-PSS-VERIFY of the representative against the digest, with this
    // salt length: another computation than the encoding's.
    let recheck = |(digest, _): &(&Vec<u8>, &[u8]), em: &Num| {
        let em = i2osp(em, em_bits.div_ceil(8))?;
        verify_em(hash, mgf_hash, digest, &em, em_bits, Some(salt_len), 0)
    };
    signature_scheme(engine, key, &items, rng, encode, recheck)
}

/// RSASSA-PSS-VERIFY (RFC 8017 §8.1.2) of every `(digest, signature)`, as
/// one batch on `engine`: steps 1–2 in [`rsavp1_batch`], step 3 EMSA-PSS-VERIFY.
fn verify_digests(
    engine: &Engine,
    key: &RsaPublicKey,
    hash: HashAlg,
    mgf_hash: HashAlg,
    salt_len: Option<usize>,
    items: &[(Vec<u8>, &[u8])],
) -> Vec<Result<()>> {
    if let Err(e) = key.algorithm().check_pss(hash, mgf_hash, salt_len) {
        return fail_all(items.len(), &e);
    }
    // A restricted key's signatures have at least its salt length.
    let min_salt = key.algorithm().min_salt();
    let em_bits = key.bits() - 1;
    let check = |digest: &[u8]| check_params(hash, mgf_hash, digest);
    let compare = |digest: &[u8], em: &[u8]| verify_em(hash, mgf_hash, digest, em, em_bits, salt_len, min_salt);
    rsavp1_batch(engine, key, items, em_bits.div_ceil(8), check, compare)
}

/// EMSA-PSS-ENCODE (RFC 8017 §9.1.1) of `m_hash` with the given `salt`, to
/// `emLen = ceil(em_bits / 8)` bytes: `EM = maskedDB || H || 0xbc` with
/// `H = Hash(0x00^8 || mHash || salt)`, `DB = PS || 0x01 || salt` masked
/// by `MGF(H)` and its leftmost `8·emLen - emBits` bits cleared.
///
/// Errors: [`Error::UnsupportedHash`], [`Error::InvalidParameters`] when
/// `m_hash` is not `hLen` bytes, [`Error::KeyTooSmall`] ("encoding error")
/// when `emLen < hLen + sLen + 2`.
pub fn emsa_pss_encode(
    hash: HashAlg,
    mgf_hash: HashAlg,
    m_hash: &[u8],
    salt: &[u8],
    em_bits: usize,
) -> Result<Vec<u8>> {
    check_params(hash, mgf_hash, m_hash)?;
    let h_len = hash.output_len();
    let em_len = em_bits.div_ceil(8);
    if em_len < h_len + salt.len() + 2 {
        return Err(Error::KeyTooSmall);
    }
    let h = m_prime_hash(hash, m_hash, salt);
    let db_len = em_len - h_len - 1;
    let mut em = vec![0u8; em_len];
    let (db, tail) = em.split_at_mut(db_len);
    db[db_len - salt.len() - 1] = 0x01;
    db[db_len - salt.len()..].copy_from_slice(salt);
    mgf1_xor(mgf_hash, &h, db);
    db[0] &= top_mask(em_len, em_bits);
    tail[..h_len].copy_from_slice(&h);
    tail[h_len] = 0xbc;
    Ok(em)
}

/// EMSA-PSS-VERIFY (RFC 8017 §9.1.2): is `em` (`ceil(em_bits/8)` bytes) a
/// PSS encoding of `m_hash`? With `salt_len = None` the salt length is
/// taken from the `0x01` separator.
///
/// Errors: [`Error::Verification`] for "inconsistent";
/// [`Error::UnsupportedHash`] and [`Error::InvalidParameters`] as
/// [`emsa_pss_encode`].
pub fn emsa_pss_verify(
    hash: HashAlg,
    mgf_hash: HashAlg,
    m_hash: &[u8],
    em: &[u8],
    em_bits: usize,
    salt_len: Option<usize>,
) -> Result<()> {
    verify_em(hash, mgf_hash, m_hash, em, em_bits, salt_len, 0)
}

/// [`emsa_pss_verify`] with a detected salt (`salt_len = None`) of at least
/// `min_salt` bytes (an RSASSA-PSS key's restriction).
fn verify_em(
    hash: HashAlg,
    mgf_hash: HashAlg,
    m_hash: &[u8],
    em: &[u8],
    em_bits: usize,
    salt_len: Option<usize>,
    min_salt: usize,
) -> Result<()> {
    check_params(hash, mgf_hash, m_hash)?;
    let h_len = hash.output_len();
    let em_len = em_bits.div_ceil(8);
    // Step 3 (with the smallest salt when it is to be detected).
    if em.len() != em_len || em_len < h_len.saturating_add(salt_len.unwrap_or(0)).saturating_add(2) {
        return Err(Error::Verification);
    }
    // Step 4: the trailer field.
    if em[em_len - 1] != 0xbc {
        return Err(Error::Verification);
    }
    // Step 5: split; step 6: the bits above emBits must be zero.
    let db_len = em_len - h_len - 1;
    let (masked_db, rest) = em.split_at(db_len);
    let h = &rest[..h_len];
    let mask = top_mask(em_len, em_bits);
    if masked_db[0] & !mask != 0 {
        return Err(Error::Verification);
    }
    // Steps 7–9: unmask DB and clear the bits above emBits.
    let mut db = masked_db.to_vec();
    mgf1_xor(mgf_hash, h, &mut db);
    db[0] &= mask;
    // Step 10: PS all zero, then 0x01.
    let sep = match db.iter().position(|&b| b != 0) {
        Some(i) if db[i] == 0x01 => i,
        _ => return Err(Error::Verification),
    };
    let s_len = db_len - sep - 1;
    if salt_len.is_some_and(|want| want != s_len) || s_len < min_salt {
        return Err(Error::Verification);
    }
    // Steps 11–14: recompute H' and compare.
    let h2 = m_prime_hash(hash, m_hash, &db[sep + 1..]);
    if bool::from(h2.ct_eq(h)) {
        Ok(())
    } else {
        Err(Error::Verification)
    }
}

/// `Hash(0x00^8 || mHash || salt)` (RFC 8017 §9.1.1 steps 5–6).
fn m_prime_hash(hash: HashAlg, m_hash: &[u8], salt: &[u8]) -> Vec<u8> {
    let mut h = hash.hasher();
    h.update(&[0u8; 8]);
    h.update(m_hash);
    h.update(salt);
    h.finish()
}

/// The mask keeping the low `8 - (8·emLen - emBits)` bits of `EM[0]`.
fn top_mask(em_len: usize, em_bits: usize) -> u8 {
    0xffu8 >> (8 * em_len - em_bits)
}

/// RFC 8702: a SHAKE hash goes with the same SHAKE as MGF, and MGF1 is
/// never built on a SHAKE; the digest must be `hLen` bytes.
fn check_params(hash: HashAlg, mgf_hash: HashAlg, m_hash: &[u8]) -> Result<()> {
    if (hash.is_xof() || mgf_hash.is_xof()) && hash != mgf_hash {
        let odd = if hash.is_xof() { mgf_hash } else { hash };
        return Err(Error::UnsupportedHash(
            odd.name(),
            "RSASSA-PSS with SHAKE (RFC 8702 pairs each SHAKE with itself)",
        ));
    }
    if m_hash.len() != hash.output_len() {
        return Err(Error::InvalidParameters(format!(
            "a {} digest has {} bytes, not {}",
            hash.name(),
            hash.output_len(),
            m_hash.len()
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encode_verify_all_em_bit_offsets() {
        for h in [
            HashAlg::Sha1,
            HashAlg::Sha256,
            HashAlg::Sha3_384,
            HashAlg::Shake128,
            HashAlg::Shake256,
        ] {
            let m_hash = h.digest(b"message");
            for em_bits in 1016..1025 {
                for salt in [&b""[..], &[7u8; 20][..], &[9u8; 60][..]] {
                    let em = emsa_pss_encode(h, h, &m_hash, salt, em_bits).unwrap();
                    assert_eq!(em.len(), em_bits.div_ceil(8));
                    assert_eq!(em[0] & !top_mask(em.len(), em_bits), 0);
                    assert_eq!(emsa_pss_verify(h, h, &m_hash, &em, em_bits, Some(salt.len())), Ok(()));
                    assert_eq!(emsa_pss_verify(h, h, &m_hash, &em, em_bits, None), Ok(()));
                    assert_eq!(
                        emsa_pss_verify(h, h, &m_hash, &em, em_bits, Some(salt.len() + 1)),
                        Err(Error::Verification)
                    );
                    let other = h.digest(b"other");
                    assert_eq!(
                        emsa_pss_verify(h, h, &other, &em, em_bits, None),
                        Err(Error::Verification)
                    );
                }
            }
        }
    }

    #[test]
    fn parameter_errors() {
        let d = HashAlg::Sha256.digest(b"");
        assert!(matches!(
            emsa_pss_encode(HashAlg::Shake128, HashAlg::Sha256, &d, b"", 2047),
            Err(Error::UnsupportedHash("sha256", _))
        ));
        assert!(matches!(
            emsa_pss_encode(HashAlg::Sha256, HashAlg::Shake256, &d, b"", 2047),
            Err(Error::UnsupportedHash("sha256", _))
        ));
        assert!(matches!(
            emsa_pss_encode(HashAlg::Sha256, HashAlg::Sha256, &d[..5], b"", 2047),
            Err(Error::InvalidParameters(_))
        ));
        // emLen = 64: hLen 32 + sLen 30 + 2 fits, sLen 31 does not.
        assert!(emsa_pss_encode(HashAlg::Sha256, HashAlg::Sha256, &d, &[0; 30], 512).is_ok());
        assert_eq!(
            emsa_pss_encode(HashAlg::Sha256, HashAlg::Sha256, &d, &[0; 31], 512),
            Err(Error::KeyTooSmall)
        );
    }
}
