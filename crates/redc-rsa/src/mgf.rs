//! Mask generation: MGF1 (RFC 8017 Appendix B.2.1) and, for the SHAKE
//! extendable-output functions, the XOF itself (RFC 8702 §3.3 and §3.4).
//!
//! A mask is exactly as secret as its seed: in OAEP decryption the masks
//! unveil the plaintext, so the in-crate helper `mgf1_xor` wipes its mask
//! after use.

use crate::hash::HashAlg;
use zeroize::Zeroizing;

/// MGF1 (RFC 8017 Appendix B.2.1): `T = Hash(seed || C(0)) || Hash(seed || C(1)) || ...`
/// with the 4-byte big-endian counters `C(i)`, cut to `len` bytes.
///
/// For [`HashAlg::Shake128`] and [`HashAlg::Shake256`] the mask is the XOF
/// output `SHAKE(seed, 8·len)` instead, as RFC 8702 §3.3 and §3.4 specify
/// for RSASSA-PSS with SHAKE.
///
/// RFC 8017 step 1 ("mask too long" for `len > 2^32·hLen`) cannot arise for
/// RSA: masks are shorter than the modulus, at most 2048 bytes here.
pub fn mgf1(hash: HashAlg, seed: &[u8], len: usize) -> Vec<u8> {
    if hash.is_xof()
        && let Ok(mask) = hash.xof(seed, len)
    {
        return mask;
    }
    let h_len = hash.output_len();
    let mut out = Vec::with_capacity(len + h_len);
    let mut counter: u32 = 0;
    while out.len() < len {
        let mut h = hash.hasher();
        h.update(seed);
        h.update(&counter.to_be_bytes());
        out.extend_from_slice(&h.finish());
        counter = counter.wrapping_add(1);
    }
    out.truncate(len);
    out
}

/// `dst ^= MGF(seed, dst.len())` (RFC 8017 §7.1.1 steps 2f–2h, §7.1.2 steps
/// 3c–3f, §9.1.1 steps 9–10), wiping the mask afterwards.
pub(crate) fn mgf1_xor(hash: HashAlg, seed: &[u8], dst: &mut [u8]) {
    let mask = Zeroizing::new(mgf1(hash, seed, dst.len()));
    for (d, m) in dst.iter_mut().zip(mask.iter()) {
        *d ^= m;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_hex as hex;

    #[test]
    fn mgf1_sha1_known_answer() {
        // MGF1-SHA1("foo", 3) and ("bar", 50): values every PKCS#1
        // implementation reproduces (e.g. the Python and Go test suites).
        assert_eq!(mgf1(HashAlg::Sha1, b"foo", 3), hex("1ac907"));
        assert_eq!(mgf1(HashAlg::Sha1, b"foo", 5), hex("1ac9075cd4"));
        assert_eq!(
            mgf1(HashAlg::Sha1, b"bar", 50),
            hex("bc0c655e016bc2931d85a2e675181adcef7f581f76df2739da74faac41627be2f7f415c89e983fd0ce80ced9878641cb4876")
        );
        assert_eq!(
            mgf1(HashAlg::Sha256, b"bar", 50),
            hex("382576a7841021cc28fc4c0948753fb8312090cea942ea4c4e735d10dc724b155f9f6069f289d61daca0cb814502ef04eae1")
        );
    }

    #[test]
    fn mgf1_prefix_property_and_lengths() {
        for h in [
            HashAlg::Sha1,
            HashAlg::Sha256,
            HashAlg::Sha3_512,
            HashAlg::Shake128,
            HashAlg::Shake256,
        ] {
            let long = mgf1(h, b"seed", 300);
            assert_eq!(long.len(), 300);
            assert_eq!(mgf1(h, b"seed", 0), Vec::<u8>::new());
            assert_eq!(&mgf1(h, b"seed", 77)[..], &long[..77]);
        }
    }

    #[test]
    fn shake_mask_is_the_xof() {
        assert_eq!(
            mgf1(HashAlg::Shake128, b"abc", 40),
            HashAlg::Shake128.xof(b"abc", 40).unwrap()
        );
        assert_eq!(
            mgf1(HashAlg::Shake256, b"abc", 99),
            HashAlg::Shake256.xof(b"abc", 99).unwrap()
        );
    }

    #[test]
    fn xor_in_place() {
        let mut buf = vec![0u8; 33];
        mgf1_xor(HashAlg::Sha256, b"s", &mut buf);
        assert_eq!(buf, mgf1(HashAlg::Sha256, b"s", 33));
        mgf1_xor(HashAlg::Sha256, b"s", &mut buf);
        assert_eq!(buf, vec![0u8; 33]);
    }
}
