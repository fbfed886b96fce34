//! RSAES-OAEP (RFC 8017 §7.1) with EME-OAEP, the label hash and the MGF1
//! hash chosen independently.
//!
//! Decoding runs in constant time in the decrypted data and every failure,
//! whatever its cause, is the one [`Error::Decryption`] (RFC 8017 §7.1.2
//! note: the causes must not be distinguishable, Manger's attack).

use crate::error::{Error, Result};
use crate::hash::HashAlg;
use crate::key::{RsaPrivateKey, RsaPublicKey};
use crate::mgf::mgf1_xor;
use crate::primitive::{fail_all, i2osp, os2ip, public_scheme, rsadp_bytes_batch};
use crate::scheme::EncryptionScheme;
use crate::tail::tail;
use rand_core::CryptoRngCore;
use redc::Engine;
use subtle::{Choice, ConditionallySelectable, ConstantTimeEq};
use zeroize::Zeroizing;

/// The scheme name in [`Error::UnsupportedHash`].
const SCHEME: &str = "RSAES-OAEP";

/// RSAES-OAEP (RFC 8017 §7.1) parameters: the label hash, MGF1's hash and
/// the label. Its [`EncryptionScheme`]:
///
/// - encryption (RSAES-OAEP-ENCRYPT, §7.1.1): EME-OAEP encoding of the
///   message with the label (`hash` hashes the label, MGF1 uses
///   `mgf_hash`), then RSAEP;
/// - decryption (RSAES-OAEP-DECRYPT, §7.1.2): the ciphertext must be `k`
///   bytes; RSADP; EME-OAEP decoding in constant time.
///
/// Errors: [`Error::UnsupportedHash`] for SHAKE; [`Error::KeyTooSmall`]
/// when `k < 2·hLen + 2`; [`Error::MessageTooLong`] when
/// `mLen > k - 2·hLen - 2`; [`Error::Rng`]; [`Error::Decryption`] for every
/// invalid ciphertext (wrong length, `c >= n`, any decoding failure);
/// [`Error::FaultDetected`] from the private operation.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Oaep {
    /// The hash of the label (`lHash`, RFC 8017 §7.1.1 step 2a); no SHAKE.
    pub hash: HashAlg,
    /// The hash of MGF1 (RFC 8017 §B.2.1); no SHAKE.
    pub mgf_hash: HashAlg,
    /// The label `L` (usually empty).
    pub label: Vec<u8>,
}

impl Oaep {
    /// OAEP with `hash`, MGF1 over the same hash and an empty label.
    pub fn new(hash: HashAlg) -> Self {
        Self {
            hash,
            mgf_hash: hash,
            label: Vec::new(),
        }
    }

    /// The same, with MGF1 over `mgf_hash`.
    #[must_use]
    pub fn with_mgf_hash(self, mgf_hash: HashAlg) -> Self {
        Self { mgf_hash, ..self }
    }

    /// The same, with the label `label`.
    #[must_use]
    pub fn with_label(self, label: impl Into<Vec<u8>>) -> Self {
        Self {
            label: label.into(),
            ..self
        }
    }
}

impl EncryptionScheme for Oaep {
    fn encrypt_batch(
        &self,
        engine: &Engine,
        key: &RsaPublicKey,
        msgs: &[&[u8]],
        rng: &mut impl CryptoRngCore,
    ) -> Vec<Result<Vec<u8>>> {
        encrypt_batch(engine, key, self.hash, self.mgf_hash, &self.label, msgs, rng)
    }

    fn decrypt_batch(
        &self,
        engine: &Engine,
        key: &RsaPrivateKey,
        cts: &[&[u8]],
        rng: &mut impl CryptoRngCore,
    ) -> Vec<Result<Zeroizing<Vec<u8>>>> {
        decrypt_batch(engine, key, self.hash, self.mgf_hash, &self.label, cts, rng)
    }
}

/// RSAES-OAEP-ENCRYPT (RFC 8017 §7.1.1) of every message of `msgs`, in
/// order, the public operations as one batch on `engine`; a message too
/// long gets its own error.
fn encrypt_batch(
    engine: &Engine,
    key: &RsaPublicKey,
    hash: HashAlg,
    mgf_hash: HashAlg,
    label: &[u8],
    msgs: &[&[u8]],
    rng: &mut impl CryptoRngCore,
) -> Vec<Result<Vec<u8>>> {
    if let Err(e) = key.algorithm().check_not_pss("OAEP encryption") {
        return fail_all(msgs.len(), &e);
    }
    let k = key.size();
    let encode = |msg: &&[u8]| Ok(os2ip(&eme_encode(hash, mgf_hash, label, msg, k, &mut *rng)?));
    public_scheme(engine, key, msgs, encode, |_, c| Ok(i2osp(&c?, k)?.to_vec()))
}

/// RSAES-OAEP-DECRYPT (RFC 8017 §7.1.2) of every ciphertext of `cts`, in
/// order, the private operations as one batch on `engine`; each invalid
/// ciphertext gets the one [`Error::Decryption`].
fn decrypt_batch(
    engine: &Engine,
    key: &RsaPrivateKey,
    hash: HashAlg,
    mgf_hash: HashAlg,
    label: &[u8],
    cts: &[&[u8]],
    rng: &mut impl CryptoRngCore,
) -> Vec<Result<Zeroizing<Vec<u8>>>> {
    if let Err(e) = check_hashes(hash, mgf_hash).and(key.public_key().algorithm().check_not_pss("OAEP decryption")) {
        return fail_all(cts.len(), &e);
    }
    // Step 1 (length), step 2 (RSADP), step 3: EME-OAEP decoding.
    let min_k = 2 * hash.output_len() + 2;
    rsadp_bytes_batch(engine, key, cts, min_k, rng, |_, em| {
        eme_decode(hash, mgf_hash, label, &em)
    })
}

/// EME-OAEP encoding (RFC 8017 §7.1.1 step 2) for a `k`-byte modulus:
/// `EM = 0x00 || maskedSeed || maskedDB` with
/// `DB = lHash || PS || 0x01 || M` and a random `hLen`-byte seed.
///
/// Errors: [`Error::UnsupportedHash`] for SHAKE; [`Error::KeyTooSmall`]
/// when `k < 2·hLen + 2`; [`Error::MessageTooLong`] when
/// `mLen > k - 2·hLen - 2`; [`Error::Rng`].
pub fn eme_encode(
    hash: HashAlg,
    mgf_hash: HashAlg,
    label: &[u8],
    msg: &[u8],
    k: usize,
    rng: &mut impl CryptoRngCore,
) -> Result<Zeroizing<Vec<u8>>> {
    check_hashes(hash, mgf_hash)?;
    let h_len = hash.output_len();
    if k < 2 * h_len + 2 {
        return Err(Error::KeyTooSmall);
    }
    let max = k - 2 * h_len - 2;
    if msg.len() > max {
        return Err(Error::MessageTooLong { len: msg.len(), max });
    }
    let mut em = Zeroizing::new(vec![0u8; k]);
    let (seed, db) = em[1..].split_at_mut(h_len);
    // DB = lHash || PS || 0x01 || M (PS is already zero).
    db[..h_len].copy_from_slice(&hash.digest(label));
    let db_len = db.len();
    db[db_len - msg.len() - 1] = 0x01;
    db[db_len - msg.len()..].copy_from_slice(msg);
    rng.try_fill_bytes(seed).map_err(|_| Error::Rng)?;
    // maskedDB = DB xor MGF(seed); maskedSeed = seed xor MGF(maskedDB).
    mgf1_xor(mgf_hash, seed, db);
    mgf1_xor(mgf_hash, db, seed);
    Ok(em)
}

/// EME-OAEP decoding (RFC 8017 §7.1.2 step 3) of a `k`-byte `em`, in
/// constant time: the checks (`Y = 0`, `lHash' = lHash`, `PS` all zero then
/// `0x01`) are combined without branching and only their conjunction is
/// revealed, as the single [`Error::Decryption`].
pub fn eme_decode(hash: HashAlg, mgf_hash: HashAlg, label: &[u8], em: &[u8]) -> Result<Zeroizing<Vec<u8>>> {
    check_hashes(hash, mgf_hash)?;
    let h_len = hash.output_len();
    if em.len() < 2 * h_len + 2 {
        return Err(Error::Decryption);
    }
    let l_hash = hash.digest(label);
    let mut buf = Zeroizing::new(em.to_vec());
    let (y, rest) = buf.split_at_mut(1);
    let (seed, db) = rest.split_at_mut(h_len);
    // seed = maskedSeed xor MGF(maskedDB); DB = maskedDB xor MGF(seed).
    mgf1_xor(mgf_hash, db, seed);
    mgf1_xor(mgf_hash, seed, db);
    let mut good = y[0].ct_eq(&0) & db[..h_len].ct_eq(&l_hash[..]);
    // After lHash: zeros, then 0x01, then M. Find the first non-zero byte;
    // it must be 0x01.
    let mut found = Choice::from(0);
    let mut bad = Choice::from(0);
    let mut index = 0u32;
    for (i, &b) in db.iter().enumerate().skip(h_len) {
        let is_zero = b.ct_eq(&0);
        let is_one = b.ct_eq(&1);
        let first = !found & !is_zero;
        index.conditional_assign(&(i as u32), first);
        bad |= first & !is_one;
        found |= !is_zero;
    }
    good &= found & !bad;
    if !redc::secret::declassify(good) {
        return Err(Error::Decryption);
    }
    Ok(tail(db, index as usize + 1))
}

/// SHAKE has no place in OAEP (RFC 8702 defines it for PSS only).
fn check_hashes(hash: HashAlg, mgf_hash: HashAlg) -> Result<()> {
    for h in [hash, mgf_hash] {
        if h.is_xof() {
            return Err(Error::UnsupportedHash(h.name(), SCHEME));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_core::OsRng;

    #[test]
    fn encode_decode_round_trip() {
        for (h, g) in [
            (HashAlg::Sha1, HashAlg::Sha1),
            (HashAlg::Sha256, HashAlg::Sha1),
            (HashAlg::Sha3_512, HashAlg::Sha224),
        ] {
            let k = 256;
            let max = k - 2 * h.output_len() - 2;
            for len in [0, 1, max / 2, max] {
                let msg: Vec<u8> = (0..len).map(|i| i as u8).collect();
                let em = eme_encode(h, g, b"label", &msg, k, &mut OsRng).unwrap();
                assert_eq!(em.len(), k);
                assert_eq!(em[0], 0);
                assert_eq!(&eme_decode(h, g, b"label", &em).unwrap()[..], &msg[..]);
                assert_eq!(eme_decode(h, g, b"other", &em), Err(Error::Decryption));
                assert_eq!(eme_decode(h, h, b"label", &em).is_ok(), g == h);
                let mut bad = em.clone();
                bad[0] = 1;
                assert_eq!(eme_decode(h, g, b"label", &bad), Err(Error::Decryption));
            }
            assert_eq!(
                eme_encode(h, g, b"", &vec![0; max + 1], k, &mut OsRng),
                Err(Error::MessageTooLong { len: max + 1, max })
            );
        }
        assert_eq!(
            eme_encode(HashAlg::Sha512, HashAlg::Sha512, b"", b"", 129, &mut OsRng),
            Err(Error::KeyTooSmall)
        );
        assert!(matches!(
            eme_encode(HashAlg::Shake128, HashAlg::Sha256, b"", b"", 256, &mut OsRng),
            Err(Error::UnsupportedHash("shake128", _))
        ));
    }
}
