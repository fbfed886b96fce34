//! PKCS#1 v1.5: RSAES-PKCS1-v1_5 encryption (RFC 8017 §7.2) and
//! RSASSA-PKCS1-v1_5 signatures (RFC 8017 §8.2, EMSA-PKCS1-v1_5 §9.2).
//!
//! Decryption uses **implicit rejection** (draft-irtf-cfrg-rsa-guidance §7,
//! the algorithm OpenSSL 3.2 adopted against the Bleichenbacher and Marvin
//! attacks): a ciphertext whose padding is wrong does not produce an error
//! but a synthetic message derived deterministically from the private
//! exponent and the ciphertext, of a pseudorandom length, by code that
//! reads both candidates and branches on neither. Only publicly checkable
//! conditions (ciphertext length, `c >= n`) and faults are errors.

use crate::Num;
use crate::error::{Error, Result};
use crate::hash::HashAlg;
use crate::key::{RsaPrivateKey, RsaPublicKey};
use crate::primitive::{fail_all, i2osp, os2ip, public_scheme, rsadp_bytes_batch, rsavp1_batch, signature_scheme};
use crate::scheme::{Batch, EncryptionScheme, SignatureScheme, digests, verify_pairs};
use crate::tail::tail;
use rand_core::CryptoRngCore;
use redc::Engine;
use sha2::{Digest, Sha256};
use subtle::{Choice, ConditionallySelectable, ConstantTimeEq, ConstantTimeLess};
use zeroize::Zeroizing;

/// RSAES-PKCS1-v1_5 (RFC 8017 §7.2): no parameters. Its
/// [`EncryptionScheme`]:
///
/// - encryption (RSAES-PKCS1-v1_5-ENCRYPT, §7.2.1): `EM = 0x00 || 0x02 ||
///   PS || 0x00 || M` with `PS` at least 8 random non-zero bytes, then
///   RSAEP; [`Error::MessageTooLong`] when `mLen > k - 11`;
/// - decryption (RSAES-PKCS1-v1_5-DECRYPT, §7.2.2) with implicit rejection
///   (draft-irtf-cfrg-rsa-guidance §7.2, as OpenSSL 3.2 and later do by
///   default): a ciphertext with valid padding gives its message, one with
///   invalid padding a *synthetic* message, the last `L` bytes of
///   `PRF(KDK, "message", 8k)`, where
///   `KDK = HMAC-SHA256(SHA256(I2OSP(d, k)), C)` and `L` is drawn from
///   `PRF(KDK, "length", 2048)`; the same ciphertext always gives the same
///   answer, and OpenSSL gives the same bytes. Output and timing do not
///   depend on which case occurred. Errors, all on public data or faults:
///   [`Error::Decryption`] when the ciphertext is not `k` bytes or is not
///   less than `n`; [`Error::FaultDetected`] and [`Error::Rng`] from the
///   private operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Pkcs1v15Encrypt;

impl EncryptionScheme for Pkcs1v15Encrypt {
    fn encrypt_batch(
        &self,
        engine: &Engine,
        key: &RsaPublicKey,
        msgs: &[&[u8]],
        rng: &mut impl CryptoRngCore,
    ) -> Vec<Result<Vec<u8>>> {
        encrypt_batch(engine, key, msgs, rng)
    }

    fn decrypt_batch(
        &self,
        engine: &Engine,
        key: &RsaPrivateKey,
        cts: &[&[u8]],
        rng: &mut impl CryptoRngCore,
    ) -> Vec<Result<Zeroizing<Vec<u8>>>> {
        decrypt_batch(engine, key, cts, rng)
    }
}

/// RSAES-PKCS1-v1_5-ENCRYPT (RFC 8017 §7.2.1) of every message of `msgs`,
/// in order, the public operations as one batch on `engine`.
fn encrypt_batch(
    engine: &Engine,
    key: &RsaPublicKey,
    msgs: &[&[u8]],
    rng: &mut impl CryptoRngCore,
) -> Vec<Result<Vec<u8>>> {
    if let Err(e) = key.algorithm().check_not_pss("PKCS#1 v1.5 encryption") {
        return fail_all(msgs.len(), &e);
    }
    let k = key.size();
    let encode = |msg: &&[u8]| {
        if msg.len() + 11 > k {
            return Err(Error::MessageTooLong {
                len: msg.len(),
                max: k.saturating_sub(11),
            });
        }
        let ps_len = k - msg.len() - 3;
        let mut em = Zeroizing::new(vec![0u8; k]);
        em[1] = 0x02;
        non_zero_random(&mut em[2..2 + ps_len], &mut *rng)?;
        em[3 + ps_len..].copy_from_slice(msg);
        Ok(os2ip(&em))
    };
    public_scheme(engine, key, msgs, encode, |_, c| Ok(i2osp(&c?, k)?.to_vec()))
}

/// RSAES-PKCS1-v1_5-DECRYPT (RFC 8017 §7.2.2) with implicit rejection of
/// every ciphertext of `cts`, in order, the private operations as one
/// batch on `engine`.
fn decrypt_batch(
    engine: &Engine,
    key: &RsaPrivateKey,
    cts: &[&[u8]],
    rng: &mut impl CryptoRngCore,
) -> Vec<Result<Zeroizing<Vec<u8>>>> {
    if let Err(e) = key.public_key().algorithm().check_not_pss("PKCS#1 v1.5 decryption") {
        return fail_all(cts.len(), &e);
    }
    rsadp_bytes_batch(engine, key, cts, 11, rng, |ct, em| eme_decode_implicit(key, ct, &em))
}

/// EME-PKCS1-v1_5 decoding with implicit rejection (draft-irtf-cfrg-rsa-guidance
/// §7.2 steps 3–4) of `em`, the `k`-byte RSADP of the `k`-byte ciphertext
/// `ct` under `key`: its message if the padding is valid, else the
/// synthetic one, chosen without branching. For callers that run the
/// private operation themselves (the OpenSSL provider's batches);
/// [`Pkcs1v15Encrypt`] does both.
///
/// Errors, on public data only: [`Error::Decryption`] when `ct` and `em`
/// are not both `k` bytes or `k < 11`.
pub fn eme_decode_implicit(key: &RsaPrivateKey, ct: &[u8], em: &[u8]) -> Result<Zeroizing<Vec<u8>>> {
    let k = em.len();
    if k != key.public_key().size() || ct.len() != k || k < 11 {
        return Err(Error::Decryption);
    }

    // Step 3 of draft §7.2: the synthetic message and its length.
    let kdk = key_derivation_key(key, ct, k)?;
    let synthetic = prf(&kdk, b"message", k)?;
    let lengths = prf(&kdk, b"length", 256)?;
    // Longest message: k less 2 bytes (0x00 0x02) and 8 bytes of padding.
    let max_len = u16::try_from(k - 10).map_err(|_| Error::Decryption)?;
    let mut mask = max_len;
    mask |= mask >> 1;
    mask |= mask >> 2;
    mask |= mask >> 4;
    mask |= mask >> 8;
    // The last of 128 masked candidates that is below max_len (0 if none).
    let mut syn_len = 0u16;
    for pair in lengths.chunks_exact(2) {
        let candidate = u16::from_be_bytes([pair[0], pair[1]]) & mask;
        syn_len.conditional_assign(&candidate, candidate.ct_lt(&max_len));
    }
    let syn_index = (k - usize::from(syn_len)) as u32;

    // Step 4: decode the real message, then choose without branching.
    let (good, msg_index) = eme_decode_ct(em);
    let index = u32::conditional_select(&syn_index, &(msg_index as u32), good) as usize;
    let mut out = Zeroizing::new(vec![0u8; k]);
    for ((o, &real), &fake) in out.iter_mut().zip(em.iter()).zip(synthetic.iter()) {
        *o = u8::conditional_select(&fake, &real, good);
    }
    Ok(tail(&out, index))
}

/// RSASSA-PKCS1-v1_5 (RFC 8017 §8.2) parameters: the hash whose
/// `DigestInfo` is signed (RFC 8017 §9.2; no SHAKE). Its
/// [`SignatureScheme`]: signing (RSASSA-PKCS1-v1_5-SIGN, §8.2.1) and
/// verification (RSASSA-PKCS1-v1_5-VERIFY, §8.2.2: recompute the encoding
/// and compare it with `s^e mod n`, no parsing).
///
/// Errors: [`Error::UnsupportedHash`] for SHAKE, [`Error::KeyTooSmall`]
/// when the DigestInfo does not fit (`k < tLen + 11`),
/// [`Error::InvalidParameters`] for a digest of the wrong length,
/// [`Error::Verification`] for every invalid signature.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Pkcs1v15Sign {
    /// The hash of the message.
    pub hash: HashAlg,
}

impl Pkcs1v15Sign {
    /// PKCS#1 v1.5 signatures with `hash`.
    pub fn new(hash: HashAlg) -> Self {
        Self { hash }
    }
}

impl SignatureScheme for Pkcs1v15Sign {
    fn sign_batch(
        &self,
        engine: &Engine,
        key: &RsaPrivateKey,
        input: Batch<'_>,
        rng: &mut impl CryptoRngCore,
    ) -> Vec<Result<Vec<u8>>> {
        sign_digests(engine, key, self.hash, &digests(input, self.hash), rng)
    }

    fn verify_batch(&self, engine: &Engine, key: &RsaPublicKey, input: Batch<'_>, sigs: &[&[u8]]) -> Vec<Result<()>> {
        verify_pairs(input, self.hash, sigs, |items| {
            verify_digests(engine, key, self.hash, items)
        })
    }
}

/// RSASSA-PKCS1-v1_5-SIGN (RFC 8017 §8.2.1) of every digest, as one batch
/// on `engine`.
fn sign_digests(
    engine: &Engine,
    key: &RsaPrivateKey,
    hash: HashAlg,
    digests: &[Vec<u8>],
    rng: &mut impl CryptoRngCore,
) -> Vec<Result<Vec<u8>>> {
    if let Err(e) = key.public_key().algorithm().check_not_pss("PKCS#1 v1.5 signatures") {
        return fail_all(digests.len(), &e);
    }
    let k = key.public_key().size();
    // EM starts with 0x00, so m < 256^(k-1) <= n.
    let encode = |digest: &Vec<u8>| Ok(os2ip(&emsa_encode(hash, digest, k)?));
    // Encoded again and compared: a transient fault does not strike twice.
    let recheck = |digest: &Vec<u8>, em: &Num| {
        if encode(digest)? == *em {
            Ok(())
        } else {
            Err(Error::FaultDetected)
        }
    };
    signature_scheme(engine, key, digests, rng, encode, recheck)
}

/// RSASSA-PKCS1-v1_5-VERIFY (RFC 8017 §8.2.2) of every `(digest,
/// signature)`, as one batch on `engine`: steps 1–2 in [`rsavp1_batch`],
/// then encode and compare.
fn verify_digests(engine: &Engine, key: &RsaPublicKey, hash: HashAlg, items: &[(Vec<u8>, &[u8])]) -> Vec<Result<()>> {
    if let Err(e) = key.algorithm().check_not_pss("PKCS#1 v1.5 signatures") {
        return fail_all(items.len(), &e);
    }
    let k = key.size();
    let check = |digest: &[u8]| emsa_encode(hash, digest, k).map(drop);
    let compare = |digest: &[u8], em: &[u8]| {
        let expected = emsa_encode(hash, digest, k)?;
        if bool::from(em.ct_eq(&expected[..])) {
            Ok(())
        } else {
            Err(Error::Verification)
        }
    };
    rsavp1_batch(engine, key, items, k, check, compare)
}

/// EMSA-PKCS1-v1_5-ENCODE (RFC 8017 §9.2) of a precomputed `digest`:
/// `EM = 0x00 || 0x01 || PS || 0x00 || T`, with `T` the DER `DigestInfo`
/// of `hash` and `digest` (§9.2 note 1) and `PS` at least 8 bytes `0xff`.
///
/// Errors: [`Error::UnsupportedHash`] for SHAKE (no DigestInfo),
/// [`Error::InvalidParameters`] when `digest` is not `hLen` bytes,
/// [`Error::KeyTooSmall`] when `em_len < tLen + 11`.
pub fn emsa_encode(hash: HashAlg, digest: &[u8], em_len: usize) -> Result<Vec<u8>> {
    let prefix = hash
        .digest_info_prefix()
        .ok_or(Error::UnsupportedHash(hash.name(), "RSASSA-PKCS1-v1_5"))?;
    if digest.len() != hash.output_len() {
        return Err(Error::InvalidParameters(format!(
            "a {} digest has {} bytes, not {}",
            hash.name(),
            hash.output_len(),
            digest.len()
        )));
    }
    let t_len = prefix.len() + digest.len();
    if em_len < t_len + 11 {
        return Err(Error::KeyTooSmall);
    }
    let mut em = Vec::with_capacity(em_len);
    em.extend_from_slice(&[0x00, 0x01]);
    em.resize(em_len - t_len - 1, 0xff);
    em.push(0x00);
    em.extend_from_slice(&prefix);
    em.extend_from_slice(digest);
    Ok(em)
}

/// EME-PKCS1-v1_5 decoding (RFC 8017 §7.2.2 step 3) in constant time:
/// whether `em = 0x00 || 0x02 || PS || 0x00 || M` with `|PS| >= 8`, and the
/// index where `M` starts (meaningful only when valid). Reads every byte and
/// branches on none.
pub(crate) fn eme_decode_ct(em: &[u8]) -> (Choice, usize) {
    if em.len() < 11 {
        return (Choice::from(0), em.len());
    }
    let mut good = em[0].ct_eq(&0x00) & em[1].ct_eq(&0x02);
    let mut found = Choice::from(0);
    let mut zero_index = 0u32;
    for (i, &b) in em.iter().enumerate().skip(2) {
        let is_zero = b.ct_eq(&0);
        zero_index.conditional_assign(&(i as u32), !found & is_zero);
        found |= is_zero;
    }
    // The separator must exist and follow at least 8 padding bytes.
    good &= found & !zero_index.ct_lt(&10);
    (good, zero_index as usize + 1)
}

/// The length of a TLS premaster secret (RFC 5246 §7.4.7.1).
pub const TLS_PREMASTER_LEN: usize = 48;

/// The premaster secret of a TLS 1.0–1.2 RSA key exchange (RFC 5246
/// §7.4.7.1) from `em`, the RSADP of the client's `EncryptedPreMasterSecret`:
/// its 48 bytes when `em` is a valid EME-PKCS1-v1_5 encoding of 48 bytes
/// that start with `client_version` (or `alt_version`, the negotiated
/// version that some clients send, when given), else `random`. Which case
/// occurred is never revealed: every byte is read, nothing branches on
/// them (the countermeasure to Bleichenbacher's attack and to
/// Klima-Pokorny-Rosa's version oracle that the RFC prescribes).
///
/// Errors, on public data only: [`Error::Decryption`] when `em` is shorter
/// than 11 + 48 bytes.
pub fn tls_premaster_decode(
    em: &[u8],
    client_version: u16,
    alt_version: Option<u16>,
    random: &[u8; TLS_PREMASTER_LEN],
) -> Result<Zeroizing<[u8; TLS_PREMASTER_LEN]>> {
    let k = em.len();
    if k < 11 + TLS_PREMASTER_LEN {
        return Err(Error::Decryption);
    }
    let start = k - TLS_PREMASTER_LEN;
    let (padding, index) = eme_decode_ct(em);
    let sent = u16::from_be_bytes([em[start], em[start + 1]]);
    let alt = alt_version.unwrap_or(client_version);
    let version = sent.ct_eq(&client_version) | sent.ct_eq(&alt);
    let good = padding & (index as u32).ct_eq(&(start as u32)) & version;
    let mut out = Zeroizing::new([0u8; TLS_PREMASTER_LEN]);
    for ((o, &real), &fake) in out.iter_mut().zip(&em[start..]).zip(random) {
        *o = u8::conditional_select(&fake, &real, good);
    }
    Ok(out)
}

/// Fill `buf` with random non-zero bytes (the PS of RFC 8017 §7.2.1 step 2a).
fn non_zero_random(buf: &mut [u8], rng: &mut impl CryptoRngCore) -> Result<()> {
    rng.try_fill_bytes(buf).map_err(|_| Error::Rng)?;
    for b in buf.iter_mut() {
        while *b == 0 {
            let mut one = [0u8; 1];
            rng.try_fill_bytes(&mut one).map_err(|_| Error::Rng)?;
            *b = one[0];
        }
    }
    Ok(())
}

/// The key-derivation key of draft-irtf-cfrg-rsa-guidance §7.2 step 3.1:
/// `KDK = HMAC-SHA256(SHA256(I2OSP(d, k)), C)`. (Equal to HMAC keyed with
/// `I2OSP(d, k)` itself whenever `k` exceeds SHA-256's 64-byte block.)
fn key_derivation_key(key: &RsaPrivateKey, ct: &[u8], k: usize) -> Result<Zeroizing<[u8; 32]>> {
    let d = key.d().to_be_bytes(k).ok_or(Error::Decryption)?;
    let mut dh = Zeroizing::new([0u8; 32]);
    dh.copy_from_slice(&Sha256::digest(&d[..]));
    let mut mac = HmacSha256::new(&dh[..]);
    mac.update(ct);
    Ok(mac.finalize())
}

/// The PRF of draft-irtf-cfrg-rsa-guidance §7.1: the concatenation of
/// `HMAC-SHA256(KDK, I2OSP(i, 2) || label || I2OSP(8·len, 2))` for
/// `i = 0, 1, ...`, cut to `len` bytes.
fn prf(kdk: &[u8; 32], label: &[u8], len: usize) -> Result<Zeroizing<Vec<u8>>> {
    let bits = u16::try_from(len * 8).map_err(|_| Error::Decryption)?;
    let keyed = HmacSha256::new(kdk);
    let mut out = Zeroizing::new(Vec::with_capacity(len + 32));
    let mut i = 0u16;
    while out.len() < len {
        let mut mac = keyed.clone();
        mac.update(&i.to_be_bytes());
        mac.update(label);
        mac.update(&bits.to_be_bytes());
        out.extend_from_slice(&mac.finalize()[..]);
        i = i.wrapping_add(1);
    }
    out.truncate(len);
    Ok(out)
}

/// HMAC-SHA256 (RFC 2104) over `sha2`; the key pads are wiped on drop.
#[derive(Clone)]
struct HmacSha256 {
    inner: Sha256,
    opad: Zeroizing<[u8; 64]>,
}

impl HmacSha256 {
    fn new(key: &[u8]) -> Self {
        let mut k = Zeroizing::new([0u8; 64]);
        if key.len() > 64 {
            k[..32].copy_from_slice(&Sha256::digest(key));
        } else {
            k[..key.len()].copy_from_slice(key);
        }
        let mut ipad = Zeroizing::new([0u8; 64]);
        let mut opad = Zeroizing::new([0u8; 64]);
        for i in 0..64 {
            ipad[i] = k[i] ^ 0x36;
            opad[i] = k[i] ^ 0x5c;
        }
        let mut inner = Sha256::new();
        inner.update(&ipad[..]);
        Self { inner, opad }
    }

    fn update(&mut self, data: &[u8]) {
        self.inner.update(data);
    }

    fn finalize(self) -> Zeroizing<[u8; 32]> {
        let inner = self.inner.finalize();
        let mut outer = Sha256::new();
        outer.update(&self.opad[..]);
        outer.update(inner);
        let mut out = Zeroizing::new([0u8; 32]);
        out.copy_from_slice(&outer.finalize());
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_hex as hex;

    fn hmac(key: &[u8], data: &[u8]) -> Vec<u8> {
        let mut m = HmacSha256::new(key);
        m.update(data);
        m.finalize().to_vec()
    }

    /// A 128-byte EME-PKCS1-v1_5 encoding of `msg`.
    fn type2(msg: &[u8]) -> Vec<u8> {
        let mut em = vec![0x00, 0x02];
        em.resize(128 - msg.len() - 1, 0x5a);
        em.push(0);
        em.extend_from_slice(msg);
        em
    }

    #[test]
    fn tls_premaster_is_the_message_only_when_all_checks_pass() {
        // RFC 5246 §7.4.7.1: the 48 bytes start with the ClientHello's
        // version; anything else yields the random premaster, no error.
        let random = [0xeeu8; TLS_PREMASTER_LEN];
        let mut pms = [0x11u8; TLS_PREMASTER_LEN];
        pms[..2].copy_from_slice(&[3, 3]);
        let decode = |em: &[u8], alt| *tls_premaster_decode(em, 0x0303, alt, &random).unwrap();
        assert_eq!(decode(&type2(&pms), None), pms);
        let mut old = pms;
        old[..2].copy_from_slice(&[3, 2]);
        assert_eq!(decode(&type2(&old), None), random, "another version");
        assert_eq!(
            decode(&type2(&old), Some(0x0302)),
            old,
            "the negotiated version, allowed"
        );
        assert_eq!(decode(&type2(&pms[1..]), None), random, "47 bytes");
        let mut long = vec![3, 3];
        long.extend_from_slice(&pms);
        assert_eq!(decode(&type2(&long), None), random, "50 bytes");
        let mut bad = type2(&pms);
        bad[1] = 0x01;
        assert_eq!(decode(&bad, None), random, "block type 1");
        let mut bad = type2(&pms);
        bad[0] = 0x01;
        assert_eq!(decode(&bad, None), random, "leading byte");
        assert!(tls_premaster_decode(&[0; 58], 0x0303, None, &random).is_err());
    }

    #[test]
    fn hmac_sha256_rfc4231() {
        // RFC 4231 test cases 1, 2 and 6 (key longer than the block).
        assert_eq!(
            hmac(&[0x0b; 20], b"Hi There"),
            hex("b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        );
        assert_eq!(
            hmac(b"Jefe", b"what do ya want for nothing?"),
            hex("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        );
        assert_eq!(
            hmac(&[0xaa; 131], b"Test Using Larger Than Block-Size Key - Hash Key First"),
            hex("60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
        );
    }

    #[test]
    fn emsa_layout() {
        let d = HashAlg::Sha256.digest(b"abc");
        let em = emsa_encode(HashAlg::Sha256, &d, 64).unwrap();
        assert_eq!(em.len(), 64);
        assert_eq!(&em[..2], &[0, 1]);
        assert!(em[2..64 - 51 - 1].iter().all(|&b| b == 0xff));
        assert_eq!(em[64 - 52], 0);
        assert_eq!(&em[64 - 32..], &d[..]);
        // tLen = 51: 61 bytes are too few, 62 enough.
        assert_eq!(emsa_encode(HashAlg::Sha256, &d, 61), Err(Error::KeyTooSmall));
        assert!(emsa_encode(HashAlg::Sha256, &d, 62).is_ok());
        assert!(matches!(
            emsa_encode(HashAlg::Sha256, &d[..31], 64),
            Err(Error::InvalidParameters(_))
        ));
        assert!(matches!(
            emsa_encode(HashAlg::Shake128, &d, 64),
            Err(Error::UnsupportedHash(..))
        ));
    }

    #[test]
    fn eme_decoding_cases() {
        let mut em = vec![0u8; 32];
        em[1] = 2;
        for b in &mut em[2..12] {
            *b = 0x55;
        }
        // em[12] = 0 separator, message em[13..].
        let (good, idx) = eme_decode_ct(&em);
        assert!(bool::from(good));
        assert_eq!(idx, 13);
        // Separator right after 8 padding bytes: valid, message from 11.
        let mut e2 = em.clone();
        e2[10] = 0;
        let (good, idx) = eme_decode_ct(&e2);
        assert!(bool::from(good));
        assert_eq!(idx, 11);
        // After only 7 padding bytes: invalid.
        let mut e3 = em.clone();
        e3[9] = 0;
        assert!(!bool::from(eme_decode_ct(&e3).0));
        // No separator at all: invalid.
        let mut e4 = em.clone();
        for b in &mut e4[2..] {
            *b = 1;
        }
        assert!(!bool::from(eme_decode_ct(&e4).0));
        // Wrong block type or leading byte: invalid.
        let mut e5 = em.clone();
        e5[1] = 1;
        assert!(!bool::from(eme_decode_ct(&e5).0));
        let mut e6 = em;
        e6[0] = 1;
        assert!(!bool::from(eme_decode_ct(&e6).0));
    }
}
