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
use crate::primitive::{fail_all, i2osp, os2ip, rsavp1_batch, signature_scheme, single};
use rand_core::CryptoRngCore;
use redc::Engine;
use redc::engine::default_engine;
use subtle::ConstantTimeEq;
use zeroize::Zeroizing;

/// RSASSA-PSS-SIGN (RFC 8017 §8.1.1) of `msg` hashed with `hash`, mask
/// from `mgf_hash`, with a random salt of `salt_len` bytes (`None`: the
/// hash length, the usual choice and OpenSSL's `digest` setting).
///
/// Errors: [`Error::UnsupportedHash`] when a SHAKE is paired with anything
/// but itself (RFC 8702); [`Error::KeyTooSmall`] when
/// `emLen < hLen + sLen + 2`; [`Error::Rng`].
pub(crate) fn sign(
    key: &RsaPrivateKey,
    hash: HashAlg,
    mgf_hash: HashAlg,
    salt_len: Option<usize>,
    msg: &[u8],
    rng: &mut impl CryptoRngCore,
) -> Result<Vec<u8>> {
    sign_digest(key, hash, mgf_hash, salt_len, &hash.digest(msg), rng)
}

/// RSASSA-PSS-SIGN (RFC 8017 §8.1.1) of a precomputed `digest` (`mHash`,
/// `hLen` bytes of `hash`).
pub(crate) fn sign_digest(
    key: &RsaPrivateKey,
    hash: HashAlg,
    mgf_hash: HashAlg,
    salt_len: Option<usize>,
    digest: &[u8],
    rng: &mut impl CryptoRngCore,
) -> Result<Vec<u8>> {
    single(sign_digests(
        default_engine(),
        key,
        hash,
        mgf_hash,
        salt_len,
        &[digest.to_vec()],
        rng,
    ))
}

/// [`sign`] for every message of `msgs`, in order, the private operations
/// as one batch on `engine` (the SIMD lanes, every core, or the GPU); a
/// message that cannot be signed gets its own error. The salts are drawn
/// from `rng` in one call, in order: an RNG failure fails every item.
pub(crate) fn sign_batch(
    engine: &Engine,
    key: &RsaPrivateKey,
    hash: HashAlg,
    mgf_hash: HashAlg,
    salt_len: Option<usize>,
    msgs: &[&[u8]],
    rng: &mut impl CryptoRngCore,
) -> Vec<Result<Vec<u8>>> {
    let digests: Vec<Vec<u8>> = msgs.iter().map(|m| hash.digest(m)).collect();
    sign_digests(engine, key, hash, mgf_hash, salt_len, &digests, rng)
}

/// [`sign_digest`] for every precomputed digest of `digests`, in order, as
/// one batch on `engine` (for callers that hash elsewhere); a digest of the
/// wrong length gets its own error.
pub(crate) fn sign_digest_batch(
    engine: &Engine,
    key: &RsaPrivateKey,
    hash: HashAlg,
    mgf_hash: HashAlg,
    salt_len: Option<usize>,
    digests: &[&[u8]],
    rng: &mut impl CryptoRngCore,
) -> Vec<Result<Vec<u8>>> {
    let digests: Vec<Vec<u8>> = digests.iter().map(|d| d.to_vec()).collect();
    sign_digests(engine, key, hash, mgf_hash, salt_len, &digests, rng)
}

/// [`sign_digest`] for every digest, as one batch on `engine`.
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

/// RSASSA-PSS-VERIFY (RFC 8017 §8.1.2) of `msg`; `salt_len` is the
/// expected salt length, or `None` to accept any salt length (recovered from
/// the position of the `0x01` separator, as OpenSSL's `auto`).
///
/// Errors: [`Error::Verification`] for every invalid signature;
/// [`Error::UnsupportedHash`] for a SHAKE paired with anything but itself.
pub(crate) fn verify(
    key: &RsaPublicKey,
    hash: HashAlg,
    mgf_hash: HashAlg,
    salt_len: Option<usize>,
    msg: &[u8],
    sig: &[u8],
) -> Result<()> {
    verify_digest(key, hash, mgf_hash, salt_len, &hash.digest(msg), sig)
}

/// RSASSA-PSS-VERIFY (RFC 8017 §8.1.2) against a precomputed `digest`.
pub(crate) fn verify_digest(
    key: &RsaPublicKey,
    hash: HashAlg,
    mgf_hash: HashAlg,
    salt_len: Option<usize>,
    digest: &[u8],
    sig: &[u8],
) -> Result<()> {
    single(verify_digests(
        default_engine(),
        key,
        hash,
        mgf_hash,
        salt_len,
        &[(digest.to_vec(), sig)],
    ))
}

/// [`verify`] for every `(message, signature)` of `items`, in order, the
/// public operations as one batch on `engine`: `Ok(())` for a valid
/// signature, [`Error::Verification`] for an invalid one.
pub(crate) fn verify_batch(
    engine: &Engine,
    key: &RsaPublicKey,
    hash: HashAlg,
    mgf_hash: HashAlg,
    salt_len: Option<usize>,
    items: &[(&[u8], &[u8])],
) -> Vec<Result<()>> {
    let items: Vec<(Vec<u8>, &[u8])> = items.iter().map(|(m, sig)| (hash.digest(m), *sig)).collect();
    verify_digests(engine, key, hash, mgf_hash, salt_len, &items)
}

/// [`verify_digest`] for every `(digest, signature)` of `items`, in order,
/// as one batch on `engine` (for callers that hash elsewhere).
pub(crate) fn verify_digest_batch(
    engine: &Engine,
    key: &RsaPublicKey,
    hash: HashAlg,
    mgf_hash: HashAlg,
    salt_len: Option<usize>,
    items: &[(&[u8], &[u8])],
) -> Vec<Result<()>> {
    let items: Vec<(Vec<u8>, &[u8])> = items.iter().map(|(d, sig)| (d.to_vec(), *sig)).collect();
    verify_digests(engine, key, hash, mgf_hash, salt_len, &items)
}

/// [`verify_digest`] for every `(digest, signature)`, as one batch on
/// `engine`: steps 1–2 in [`rsavp1_batch`], step 3 EMSA-PSS-VERIFY.
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
