//! The per-signature secret `k`: RFC 6979 §3.2's deterministic nonce
//! (HMAC_DRBG keyed by `x` and the digest), the same with 32 fresh random
//! bytes as §3.6's additional data `k'` (hedged, as in the CFRG draft
//! "deterministic nonce-based signatures with noise"), or a random one
//! (FIPS 186-4 B.2.2, "testing candidates"). All draw candidates until one lies in
//! `[1, q - 1]`, compared in constant time; only whether a candidate was
//! taken is revealed.

use super::DsaParams;
use crate::HashAlg;
use crate::error::{Error, Result};
use digest::Digest;
use digest::core_api::BlockSizeUser;
use hmac::{Mac, SimpleHmac};
use rand_core::CryptoRngCore;
use redc::SecretNat;
use redc::secret::declassify;
use zeroize::Zeroizing;

/// How `k` is chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Nonce {
    /// RFC 6979 with 32 random bytes as the additional data of §3.6: a new
    /// `k` for every signature (a fault in one gives nothing away), still
    /// from `x` and the digest when the generator is weak. The default.
    #[default]
    Hedged,
    /// RFC 6979: from `x` and the digest, with HMAC of the message's hash
    /// (the same signature every time; checked before release, which
    /// costs about a verification).
    Deterministic,
    /// Uniform in `[1, q - 1]` from the caller's generator.
    Random,
}

/// The candidates of one signature, in order.
pub(super) enum Nonces {
    /// RFC 6979's HMAC_DRBG state `(K, V)`.
    Drbg {
        hash: HashAlg,
        k: Zeroizing<Vec<u8>>,
        v: Zeroizing<Vec<u8>>,
    },
    /// A fresh random draw each time.
    Random,
}

fn hmac_with<D: Digest + BlockSizeUser + Clone>(key: &[u8], parts: &[&[u8]]) -> Zeroizing<Vec<u8>> {
    let mut mac = <SimpleHmac<D> as Mac>::new_from_slice(key).unwrap_or_else(|_| unreachable!("HMAC takes any key"));
    for part in parts {
        mac.update(part);
    }
    Zeroizing::new(mac.finalize().into_bytes().to_vec())
}

/// HMAC over the concatenation of `parts`.
fn hmac(hash: HashAlg, key: &[u8], parts: &[&[u8]]) -> Result<Zeroizing<Vec<u8>>> {
    Ok(match hash {
        HashAlg::Sha1 => hmac_with::<sha1::Sha1>(key, parts),
        HashAlg::Sha224 => hmac_with::<sha2::Sha224>(key, parts),
        HashAlg::Sha256 => hmac_with::<sha2::Sha256>(key, parts),
        HashAlg::Sha384 => hmac_with::<sha2::Sha384>(key, parts),
        HashAlg::Sha512 => hmac_with::<sha2::Sha512>(key, parts),
        HashAlg::Sha512_224 => hmac_with::<sha2::Sha512_224>(key, parts),
        HashAlg::Sha512_256 => hmac_with::<sha2::Sha512_256>(key, parts),
        other => return Err(Error::UnsupportedHash(other.name())),
    })
}

/// RFC 6979 §2.3.2 `bits2int` on secret bytes: the leftmost `qlen` bits of
/// `t` as `ceil(qlen/8)` big-endian bytes (a shift by a public count).
fn bits2int(t: &[u8], qlen: usize) -> Zeroizing<Vec<u8>> {
    let rlen = qlen.div_ceil(8);
    let tlen = 8 * t.len();
    if tlen <= qlen {
        let mut out = Zeroizing::new(vec![0u8; rlen - t.len()]);
        out.extend_from_slice(t);
        return out;
    }
    let shift = tlen - qlen;
    let (bytes, bits) = (shift / 8, shift % 8);
    let kept = &t[..t.len() - bytes];
    let mut out = Zeroizing::new(vec![0u8; kept.len()]);
    for i in 0..kept.len() {
        let prev = if i == 0 { 0 } else { kept[i - 1] };
        out[i] = if bits == 0 {
            kept[i]
        } else {
            (kept[i] >> bits) | (prev << (8 - bits))
        };
    }
    let extra = out.len() - rlen;
    Zeroizing::new(out[extra..].to_vec())
}

impl Nonces {
    /// The candidates for signing `digest` (made with `hash`) with `x`;
    /// `extra` is §3.6's additional data (a hedged nonce's random bytes,
    /// empty for RFC 6979's own).
    pub(super) fn new(
        nonce: Nonce,
        params: &DsaParams,
        hash: HashAlg,
        x: &SecretNat,
        digest: &[u8],
        extra: &[u8],
    ) -> Result<Self> {
        if nonce == Nonce::Random {
            return Ok(Self::Random);
        }
        let q = params.q();
        let rlen = q.bits().div_ceil(8);
        let x = x.to_be_bytes(rlen).ok_or(Error::Rng)?;
        // bits2octets(h1): bits2int(h1) mod q, which is below 2q (public).
        let z = params.digest_int(digest);
        let z = z.checked_sub(q).unwrap_or(z);
        let h = z.to_be_bytes_padded(rlen).ok_or(Error::Rng)?;
        let hlen = hash.output_len();
        let v = Zeroizing::new(vec![1u8; hlen]);
        let k = Zeroizing::new(vec![0u8; hlen]);
        let k = hmac(hash, &k, &[&v, &[0], &x, &h, extra])?;
        let v = hmac(hash, &k, &[&v])?;
        let k = hmac(hash, &k, &[&v, &[1], &x, &h, extra])?;
        let v = hmac(hash, &k, &[&v])?;
        Ok(Self::Drbg { hash, k, v })
    }

    /// The next `k` in `[1, q - 1]`, in `q`'s digit count.
    pub(super) fn next(&mut self, params: &DsaParams, rng: &mut impl CryptoRngCore) -> Result<SecretNat> {
        let q = params.q();
        let len = q.digits().len();
        match self {
            Self::Random => SecretNat::random_below(q, rng).map_err(|_| Error::Rng),
            Self::Drbg { hash, k, v } => loop {
                let qlen = q.bits();
                // Sized once: a reallocation would leave nonce bits behind.
                let hlen = hash.output_len();
                let mut t = Zeroizing::new(Vec::with_capacity(qlen.div_ceil(8 * hlen) * hlen));
                while 8 * t.len() < qlen {
                    *v = hmac(*hash, k, &[v])?;
                    t.extend_from_slice(v);
                }
                let candidate = SecretNat::from_be_bytes(&bits2int(&t, qlen), len).ok_or(Error::Rng)?;
                let taken = declassify(candidate.ct_lt_nat(q) & !candidate.ct_is_zero());
                // Step h.3, run after every candidate so that a retry after
                // r = 0 or s = 0 continues the sequence as the RFC says.
                *k = hmac(*hash, k, &[v, &[0]])?;
                *v = hmac(*hash, k, &[v])?;
                if taken {
                    return Ok(candidate);
                }
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits2int_keeps_the_leftmost_bits() {
        assert_eq!(*bits2int(&[0xab, 0xcd, 0xef], 20), vec![0x0a, 0xbc, 0xde]);
        assert_eq!(*bits2int(&[0xab, 0xcd], 16), vec![0xab, 0xcd]);
        assert_eq!(*bits2int(&[0xab, 0xcd], 24), vec![0x00, 0xab, 0xcd]);
        assert_eq!(*bits2int(&[0xab, 0xcd, 0xef], 12), vec![0x0a, 0xbc]);
    }
}
