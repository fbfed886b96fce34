//! Straightforward (branching, not constant-time) versions of the padding
//! decoders, written from RFC 8017 as the differential targets' reference.
//! They use the library's hashes and MGF1 (`HashAlg::digest`,
//! `redc_rsa::mgf::mgf1`), and nothing else of it.

use redc_rsa::HashAlg;
use redc_rsa::mgf::mgf1;

/// EME-OAEP decoding (RFC 8017 §7.1.2 step 3) of `em` (any length): the
/// message, or `None` for "decryption error".
pub fn oaep_decode(hash: HashAlg, mgf_hash: HashAlg, label: &[u8], em: &[u8]) -> Option<Vec<u8>> {
    let h_len = hash.output_len();
    let k = em.len();
    if k < 2 * h_len + 2 {
        return None;
    }
    let (y, masked_seed, masked_db) = (em[0], &em[1..1 + h_len], &em[1 + h_len..]);
    let seed: Vec<u8> = masked_seed
        .iter()
        .zip(mgf1(mgf_hash, masked_db, h_len))
        .map(|(a, b)| a ^ b)
        .collect();
    let db: Vec<u8> = masked_db
        .iter()
        .zip(mgf1(mgf_hash, &seed, k - h_len - 1))
        .map(|(a, b)| a ^ b)
        .collect();
    if y != 0 || db[..h_len] != hash.digest(label)[..] {
        return None;
    }
    let one = h_len + db[h_len..].iter().position(|&b| b != 0)?;
    (db[one] == 0x01).then(|| db[one + 1..].to_vec())
}

/// EME-PKCS1-v1_5 decoding (RFC 8017 §7.2.2 step 3): `em = 0x00 || 0x02 ||
/// PS || 0x00 || M` with at least 8 non-zero bytes of `PS`.
pub fn pkcs1v15_decode(em: &[u8]) -> Option<Vec<u8>> {
    if em.len() < 11 || em[0] != 0x00 || em[1] != 0x02 {
        return None;
    }
    let zero = 2 + em[2..].iter().position(|&b| b == 0)?;
    (zero >= 10).then(|| em[zero + 1..].to_vec())
}

/// The DER `DigestInfo` prefix of `hash` (RFC 8017 §9.2 note 1, and the
/// SHA-3 OIDs of NIST's CSOR), written out byte by byte.
pub fn digest_info_prefix(hash: HashAlg) -> Option<&'static [u8]> {
    Some(match hash {
        HashAlg::Sha1 => &[
            0x30, 0x21, 0x30, 0x09, 0x06, 0x05, 0x2b, 0x0e, 0x03, 0x02, 0x1a, 0x05, 0x00, 0x04, 0x14,
        ],
        HashAlg::Sha224 => &[
            0x30, 0x2d, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x04, 0x05, 0x00, 0x04,
            0x1c,
        ],
        HashAlg::Sha256 => &[
            0x30, 0x31, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00, 0x04,
            0x20,
        ],
        HashAlg::Sha384 => &[
            0x30, 0x41, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x02, 0x05, 0x00, 0x04,
            0x30,
        ],
        HashAlg::Sha512 => &[
            0x30, 0x51, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x03, 0x05, 0x00, 0x04,
            0x40,
        ],
        HashAlg::Sha512_224 => &[
            0x30, 0x2d, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x05, 0x05, 0x00, 0x04,
            0x1c,
        ],
        HashAlg::Sha512_256 => &[
            0x30, 0x31, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x06, 0x05, 0x00, 0x04,
            0x20,
        ],
        HashAlg::Sha3_224 => &[
            0x30, 0x2d, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x07, 0x05, 0x00, 0x04,
            0x1c,
        ],
        HashAlg::Sha3_256 => &[
            0x30, 0x31, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x08, 0x05, 0x00, 0x04,
            0x20,
        ],
        HashAlg::Sha3_384 => &[
            0x30, 0x41, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x09, 0x05, 0x00, 0x04,
            0x30,
        ],
        HashAlg::Sha3_512 => &[
            0x30, 0x51, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x0a, 0x05, 0x00, 0x04,
            0x40,
        ],
        HashAlg::Shake128 | HashAlg::Shake256 => return None,
    })
}

/// EMSA-PKCS1-v1_5-ENCODE (RFC 8017 §9.2) of `digest` to `em_len` bytes, or
/// `None` when it does not fit (`em_len < tLen + 11`) or `hash` has no
/// DigestInfo.
pub fn pkcs1v15_encode(hash: HashAlg, digest: &[u8], em_len: usize) -> Option<Vec<u8>> {
    let prefix = digest_info_prefix(hash)?;
    let t_len = prefix.len() + digest.len();
    if em_len < t_len + 11 {
        return None;
    }
    let mut em = vec![0x00, 0x01];
    em.extend(std::iter::repeat_n(0xff, em_len - t_len - 3));
    em.push(0x00);
    em.extend_from_slice(prefix);
    em.extend_from_slice(digest);
    Some(em)
}

/// EMSA-PSS-VERIFY (RFC 8017 §9.1.2) of `em` against `m_hash`, for
/// `em_bits` bits, with the salt length `salt_len` or (`None`) whatever the
/// `0x01` separator says. The caller has checked the hash pairing.
pub fn pss_verify(
    hash: HashAlg,
    mgf_hash: HashAlg,
    m_hash: &[u8],
    em: &[u8],
    em_bits: usize,
    salt_len: Option<usize>,
) -> bool {
    let h_len = hash.output_len();
    let em_len = em_bits.div_ceil(8);
    if em.len() != em_len || em_len < h_len + 2 {
        return false;
    }
    if let Some(s) = salt_len
        && em_len < h_len + s + 2
    {
        return false;
    }
    if em[em_len - 1] != 0xbc {
        return false;
    }
    let db_len = em_len - h_len - 1;
    let (masked_db, h) = (&em[..db_len], &em[db_len..em_len - 1]);
    let unused = 8 * em_len - em_bits;
    if u32::from(masked_db[0]) >> (8 - unused) != 0 {
        return false;
    }
    let mut db: Vec<u8> = masked_db
        .iter()
        .zip(mgf1(mgf_hash, h, db_len))
        .map(|(a, b)| a ^ b)
        .collect();
    db[0] &= (0xffu32 >> unused) as u8;
    let Some(sep) = db.iter().position(|&b| b != 0) else {
        return false;
    };
    if db[sep] != 0x01 {
        return false;
    }
    let salt = &db[sep + 1..];
    if salt_len.is_some_and(|s| s != salt.len()) {
        return false;
    }
    let mut m_prime = vec![0u8; 8];
    m_prime.extend_from_slice(m_hash);
    m_prime.extend_from_slice(salt);
    hash.digest(&m_prime) == h
}
