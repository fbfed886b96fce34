//! Shared pieces of the fuzz targets (`fuzz/fuzz_targets/*.rs`): the fixed
//! keys, deterministic generators, the cost guard for encrypted PKCS#8, a
//! small input reader, and the redc CLI's batch commands run in-process
//! ([`cli`], over the `redc_cli` library).
//!
//! Nothing here is fuzzed by itself; each target documents what it checks.

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use redc_rsa::{HashAlg, RsaPrivateKey, RsaPublicKey};
use std::sync::OnceLock;

pub mod cli;
pub mod reference;

/// The password of every encrypted key of the seed corpus.
pub const PASSWORD: &[u8] = b"fuzz-password";

/// A 1024-bit key made by `openssl genpkey` for the fuzz targets (PKCS#8 PEM).
pub const KEY_1024_PEM: &str = include_str!("../keys/rsa1024.pem");

/// Wycheproof's 2048-bit key (`n = 0xa2b451...`), the key of its OAEP-SHA256,
/// PSS and PKCS#1 v1.5 signature vectors (PKCS#8 PEM).
pub const KEY_WYCHEPROOF_PEM: &str = include_str!("../keys/wycheproof2048.pem");

/// The 1024-bit key (decryption, the envelope, the batch commands): small
/// for speed on purpose, at security level 1.
pub fn key_1024() -> &'static RsaPrivateKey {
    static KEY: OnceLock<RsaPrivateKey> = OnceLock::new();
    KEY.get_or_init(|| {
        RsaPrivateKey::from_pkcs8_pem(KEY_1024_PEM)
            .expect("fuzz/keys/rsa1024.pem")
            .with_security_level(redc_rsa::policy::SecurityLevel::new(1).expect("a level"))
    })
}

/// Wycheproof's 2048-bit key (signature verification, OAEP vectors).
pub fn key_wycheproof() -> &'static RsaPrivateKey {
    static KEY: OnceLock<RsaPrivateKey> = OnceLock::new();
    KEY.get_or_init(|| RsaPrivateKey::from_pkcs8_pem(KEY_WYCHEPROOF_PEM).expect("fuzz/keys/wycheproof2048.pem"))
}

/// The private key a selector bit picks: 0 the 1024-bit key, 1 Wycheproof's.
pub fn private_key(select: u8) -> &'static RsaPrivateKey {
    if select & 1 == 0 { key_1024() } else { key_wycheproof() }
}

/// The public half of [`private_key`].
pub fn public_key(select: u8) -> &'static RsaPublicKey {
    private_key(select).public_key()
}

/// A deterministic generator (blinding factors, OAEP seeds): the targets
/// must behave the same whatever the generator gives.
pub fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

/// A hash by index into [`HashAlg::ALL`] (wrapping).
pub fn hash(index: u8) -> HashAlg {
    HashAlg::ALL[usize::from(index) % HashAlg::ALL.len()]
}

/// Reads a fuzz input front to back; every read past the end gives zeros
/// or an empty slice, so any input decodes.
pub struct Input<'a>(pub &'a [u8]);

impl<'a> Input<'a> {
    /// One byte (0 past the end).
    pub fn byte(&mut self) -> u8 {
        match self.0.split_first() {
            Some((&b, rest)) => {
                self.0 = rest;
                b
            }
            None => 0,
        }
    }

    /// A big-endian u16 (missing bytes are 0).
    pub fn u16(&mut self) -> u16 {
        u16::from_be_bytes([self.byte(), self.byte()])
    }

    /// Up to `len` bytes.
    pub fn take(&mut self, len: usize) -> &'a [u8] {
        let (head, rest) = self.0.split_at(len.min(self.0.len()));
        self.0 = rest;
        head
    }

    /// A byte-length-prefixed slice.
    pub fn prefixed(&mut self) -> &'a [u8] {
        let len = usize::from(self.byte());
        self.take(len)
    }

    /// Everything left.
    pub fn rest(&mut self) -> &'a [u8] {
        self.take(usize::MAX)
    }

    /// A hash and an MGF1 hash, two bytes: the second at 0x80 or above
    /// means the same hash as the first.
    pub fn hash_pair(&mut self) -> (HashAlg, HashAlg) {
        let h = hash(self.byte());
        let mgf_byte = self.byte();
        (h, if mgf_byte >= 0x80 { h } else { hash(mgf_byte) })
    }
}

/// The ciphertext of `em` under `key` when `em` is `k` bytes below `n`
/// (so a target reaches decoding with an `EM` of its choice), else `None`.
pub fn encrypt_em(key: &RsaPublicKey, em: &[u8]) -> Option<Vec<u8>> {
    if em.len() != key.size() {
        return None;
    }
    redc_rsa::hazmat::raw_public(key, em).ok()
}

/// Most PBKDF2 iterations the targets let an encrypted key ask for (the
/// library accepts up to 10,000,000, seconds of work per input).
pub const FUZZ_MAX_PBKDF2_ITERATIONS: u32 = 4096;
/// Most scrypt work `N·r·p` the targets let an encrypted key ask for.
pub const FUZZ_MAX_SCRYPT_WORK: u64 = 1 << 12;

/// Whether opening `bytes` as an encrypted PKCS#8 key (DER, or the first
/// PEM block as the library finds it) would stay cheap: `false` when its
/// KDF asks for more than the targets' bounds above, so that a single input
/// cannot take seconds or gigabytes (the library's own bounds are much
/// larger, on purpose). `true` when it is no encrypted key at all.
pub fn kdf_is_cheap(bytes: &[u8]) -> bool {
    let pem;
    let der: &[u8] = if bytes.first() == Some(&0x30) {
        bytes
    } else {
        match pem_block(bytes).and_then(|b| der::pem::decode_vec(b).ok()) {
            Some((_, d)) => {
                pem = d;
                &pem
            }
            None => return true,
        }
    };
    use der::Decode;
    let Ok(info) = pkcs8::EncryptedPrivateKeyInfo::from_der(der) else {
        return true;
    };
    match info.encryption_algorithm {
        pkcs8::pkcs5::EncryptionScheme::Pbes2(params) => match params.kdf {
            pkcs8::pkcs5::pbes2::Kdf::Pbkdf2(p) => p.iteration_count <= FUZZ_MAX_PBKDF2_ITERATIONS,
            pkcs8::pkcs5::pbes2::Kdf::Scrypt(s) => s
                .cost_parameter
                .checked_mul(u64::from(s.block_size))
                .and_then(|x| x.checked_mul(u64::from(s.parallelization)))
                .is_some_and(|w| w <= FUZZ_MAX_SCRYPT_WORK),
            _ => true,
        },
        _ => true,
    }
}

/// The first PEM block of `bytes`, as redc-rsa's reader finds it (from
/// `-----BEGIN ` to the end of the `-----END ...-----` line).
fn pem_block(bytes: &[u8]) -> Option<&[u8]> {
    let find = |hay: &[u8], needle: &[u8]| hay.windows(needle.len()).position(|w| w == needle);
    let start = find(bytes, b"-----BEGIN ")?;
    let rest = &bytes[start..];
    let Some(end) = find(rest, b"-----END ") else {
        return Some(rest);
    };
    let after = &rest[end + 9..];
    match find(after, b"-----") {
        Some(close) => Some(&rest[..end + 9 + close + 5]),
        None => Some(rest),
    }
}

/// Whether two private keys are the same key (public part, `d`, primes).
pub fn same_private(a: &RsaPrivateKey, b: &RsaPrivateKey) -> bool {
    a.public_key() == b.public_key()
        && a.d().reveal() == b.d().reveal()
        && a.primes()
            .iter()
            .map(|p| p.reveal())
            .eq(b.primes().iter().map(|p| p.reveal()))
}
