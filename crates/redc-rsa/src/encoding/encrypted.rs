//! Password-protected PKCS#8 `EncryptedPrivateKeyInfo` (RFC 5208 §6),
//! PEM label `ENCRYPTED PRIVATE KEY`: PBES2 (RFC 8018 §6.2) with PBKDF2
//! (HMAC-SHA-224/256/384/512) or scrypt (RFC 7914), and AES-CBC. KDF
//! parameters that would cost unbounded time or memory are refused before
//! anything is derived; other schemes (PBES1, PKCS#12) are named.

use super::PEM_LABEL_PKCS8_ENCRYPTED;
use super::algorithm::key_algorithm_id;
use super::der_errors::encoding;
use super::pem::{decode_pem_labelled, pem_string};
use super::pkcs1::pkcs1_private_doc;
use super::pkcs8::private_from_pkcs8;
use crate::RsaPrivateKey;
use crate::error::{Error, Result};
use der::asn1::ObjectIdentifier;
use der::{Decode, Reader, SecretDocument};
use pkcs8::pkcs5::{self, pbes2};
use pkcs8::{EncryptedPrivateKeyInfo, PrivateKeyInfo};
use rand_core::CryptoRngCore;
use spki::AlgorithmIdentifierRef;

/// The arc `pkcs-12PbeIds` (1.2.840.113549.1.12.1).
const PKCS12_PBE_ARC: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.12.1");
/// The arc `pkcs-5` (1.2.840.113549.1.5).
const PKCS5_ARC: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.5");

/// Most PBKDF2 iterations an encrypted key may ask for (a bound on the work a
/// hostile file can cause).
pub(super) const MAX_PBKDF2_ITERATIONS: u32 = 10_000_000;
/// Most memory (`128·r·N` bytes) an scrypt-encrypted key may ask for.
pub(super) const MAX_SCRYPT_MEMORY: u64 = 1 << 30;
/// Most scrypt work (`N·r·p`) an encrypted key may ask for.
pub(super) const MAX_SCRYPT_WORK: u64 = 1 << 26;

/// The password-based key derivation of PBES2 (RFC 8018) for writing
/// encrypted PKCS#8 keys; the cipher is always AES-256-CBC, the salt 16
/// random bytes, the IV 16 random bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pbes2Kdf {
    /// PBKDF2 with HMAC-SHA256 (`openssl pkcs8 -topk8 -v2 aes-256-cbc
    /// -iter N`).
    Pbkdf2Sha256 {
        /// The iteration count (at least 1).
        iterations: u32,
    },
    /// scrypt (RFC 7914) with `N = 2^log_n` (`openssl pkcs8 -topk8 -scrypt`).
    /// OpenSSL opens keys whose `128·r·N` stays under 32 MiB.
    Scrypt {
        /// `log2(N)`, the CPU/memory cost.
        log_n: u8,
        /// The block size `r`.
        r: u32,
        /// The parallelization `p`.
        p: u32,
    },
}

impl Default for Pbes2Kdf {
    /// scrypt with the parameters of `openssl pkcs8 -topk8 -scrypt`:
    /// `N = 2^14`, `r = 8`, `p = 1` (16 MiB, within OpenSSL's 32 MiB limit).
    fn default() -> Self {
        Self::Scrypt { log_n: 14, r: 8, p: 1 }
    }
}

impl RsaPrivateKey {
    /// Reads a password-protected PKCS#8 `EncryptedPrivateKeyInfo` (DER):
    /// PBES2 with PBKDF2 (HMAC-SHA-224/256/384/512) or scrypt, and AES-CBC.
    ///
    /// # Errors
    ///
    /// As [`RsaPrivateKey::from_pkcs8_der`]; [`Error::WrongPassword`] when
    /// the password does not open the key; [`Error::Encoding`] for an
    /// unsupported scheme (PBES1, HMAC-SHA1) or excessive KDF parameters.
    pub fn from_pkcs8_encrypted_der(der: &[u8], password: &[u8]) -> Result<Self> {
        private_from_encrypted_der(der, password)
    }

    /// Reads a password-protected PKCS#8 key in PEM (`ENCRYPTED PRIVATE KEY`).
    ///
    /// # Errors
    ///
    /// As [`RsaPrivateKey::from_pkcs8_encrypted_der`], and
    /// [`Error::Encoding`] for a malformed PEM or another label.
    pub fn from_pkcs8_encrypted_pem(pem: &str, password: &[u8]) -> Result<Self> {
        let pem = decode_pem_labelled(pem.as_bytes(), PEM_LABEL_PKCS8_ENCRYPTED)?;
        private_from_encrypted_der(&pem, password)
    }

    /// Writes the key as a password-protected PKCS#8
    /// `EncryptedPrivateKeyInfo` (DER): PBES2 with `kdf` and AES-256-CBC,
    /// salt and IV from `rng`.
    ///
    /// # Errors
    ///
    /// [`Error::Rng`] if the generator fails; [`Error::InvalidParameters`]
    /// for KDF parameters that PBES2 cannot carry; [`Error::Encoding`] if the
    /// encoder fails.
    pub fn to_pkcs8_encrypted_der(
        &self,
        password: &[u8],
        kdf: Pbes2Kdf,
        rng: &mut impl CryptoRngCore,
    ) -> Result<Vec<u8>> {
        Ok(pkcs8_encrypted_doc(self, password, kdf, rng)?.as_bytes().to_vec())
    }

    /// Writes the key as password-protected PKCS#8 PEM
    /// (`ENCRYPTED PRIVATE KEY`).
    ///
    /// # Errors
    ///
    /// As [`RsaPrivateKey::to_pkcs8_encrypted_der`].
    pub fn to_pkcs8_encrypted_pem(
        &self,
        password: &[u8],
        kdf: Pbes2Kdf,
        rng: &mut impl CryptoRngCore,
    ) -> Result<String> {
        let doc = pkcs8_encrypted_doc(self, password, kdf, rng)?;
        pem_string(doc.as_bytes(), PEM_LABEL_PKCS8_ENCRYPTED)
    }
}

pub(super) fn private_from_encrypted_der(der: &[u8], password: &[u8]) -> Result<RsaPrivateKey> {
    let info = EncryptedPrivateKeyInfo::from_der(der).map_err(|e| {
        unsupported_encryption(der, &e).unwrap_or_else(|| encoding("PKCS#8 EncryptedPrivateKeyInfo", e))
    })?;
    private_from_encrypted(&info, password)
}

/// For an `EncryptedPrivateKeyInfo` whose algorithm `pkcs5` does not know
/// (e.g. OpenSSL's `-v1 PBE-SHA1-3DES`, a PKCS#12 scheme): an error naming
/// that algorithm. `None` if `der` does not even have the shape
/// `SEQUENCE { AlgorithmIdentifier, OCTET STRING }`.
pub(super) fn unsupported_encryption(der: &[u8], err: &der::Error) -> Option<Error> {
    if let Some(why) = crate::pbes2_params::refused_iterations(der, MAX_PBKDF2_ITERATIONS) {
        return Some(Error::Encoding(why));
    }
    let mut reader = der::SliceReader::new(der).ok()?;
    let oid = reader
        .sequence(|r| {
            let alg = AlgorithmIdentifierRef::decode(r)?;
            der::asn1::OctetStringRef::decode(r)?;
            Ok(alg.oid)
        })
        .ok()?;
    reader.finish(()).ok()?;
    if oid == crate::pbes2_params::PBES2_OID {
        return Some(Error::Encoding(format!(
            "encrypted PKCS#8 (PBES2): its parameters cannot be read ({err})"
        )));
    }
    let kind = if oid.as_bytes().starts_with(PKCS12_PBE_ARC.as_bytes()) {
        " (PKCS#12 PBE)"
    } else if oid.as_bytes().starts_with(PKCS5_ARC.as_bytes()) {
        " (PKCS#5)"
    } else {
        ""
    };
    Some(Error::Encoding(format!(
        "encrypted PKCS#8 with algorithm {oid}{kind} is not supported; re-encrypt it with PBES2 \
         (openssl pkcs8 -topk8 -v2 aes-256-cbc)"
    )))
}

/// Refuses PBES1 and KDF parameters that would cost unbounded time or
/// memory before anything is derived.
fn check_encryption_scheme(scheme: &pkcs5::EncryptionScheme<'_>) -> Result<()> {
    let params = match scheme {
        pkcs5::EncryptionScheme::Pbes2(params) => params,
        pkcs5::EncryptionScheme::Pbes1(alg) => {
            return Err(Error::Encoding(format!(
                "encrypted PKCS#8 with algorithm {} (PBES1) is not supported; re-encrypt it with PBES2 \
                 (openssl pkcs8 -topk8 -v2 aes-256-cbc)",
                alg.oid()
            )));
        }
        _ => {
            return Err(Error::Encoding(
                "encrypted PKCS#8: unsupported encryption scheme".into(),
            ));
        }
    };
    match &params.kdf {
        pbes2::Kdf::Pbkdf2(p) => {
            match crate::pbes2_params::refuse_count(&p.iteration_count.to_be_bytes(), MAX_PBKDF2_ITERATIONS) {
                Some(why) => Err(Error::Encoding(why)),
                None => Ok(()),
            }
        }
        // N must be a power of two above 1 (RFC 7914 §6); the pkcs5 crate
        // overflows on N = 0 (found by the key_read_encrypted fuzz target).
        pbes2::Kdf::Scrypt(s) if s.cost_parameter < 2 || !s.cost_parameter.is_power_of_two() => {
            Err(Error::Encoding(format!(
                "encrypted PKCS#8: scrypt cost parameter N={} is not a power of two above 1",
                s.cost_parameter
            )))
        }
        pbes2::Kdf::Scrypt(s) => {
            let (n, r, p) = (s.cost_parameter, u64::from(s.block_size), u64::from(s.parallelization));
            let memory = n.checked_mul(r).and_then(|x| x.checked_mul(128));
            let work = n.checked_mul(r).and_then(|x| x.checked_mul(p));
            match (memory, work) {
                (Some(m), Some(w)) if m <= MAX_SCRYPT_MEMORY && w <= MAX_SCRYPT_WORK => Ok(()),
                _ => Err(Error::Encoding(format!(
                    "encrypted PKCS#8: scrypt parameters N={n}, r={r}, p={p} exceed the accepted cost \
                     (128·r·N <= {MAX_SCRYPT_MEMORY} bytes, N·r·p <= {MAX_SCRYPT_WORK})"
                ))),
            }
        }
        _ => Ok(()),
    }
}

pub(super) fn private_from_encrypted(info: &EncryptedPrivateKeyInfo<'_>, password: &[u8]) -> Result<RsaPrivateKey> {
    check_encryption_scheme(&info.encryption_algorithm)?;
    let doc = info.decrypt(password).map_err(|err| match err {
        pkcs8::Error::EncryptedPrivateKey(pkcs5::Error::UnsupportedAlgorithm { oid }) => Error::Encoding(format!(
            "encrypted PKCS#8: unsupported algorithm {oid} (supported: PBES2 with PBKDF2-HMAC-SHA2 or scrypt, \
             and AES-CBC)"
        )),
        pkcs8::Error::EncryptedPrivateKey(pkcs5::Error::AlgorithmParametersInvalid { oid }) => {
            Error::Encoding(format!("encrypted PKCS#8: invalid parameters for algorithm {oid}"))
        }
        // A CBC padding failure (reported as either variant by pkcs5) or
        // plaintext that is not DER: the password is wrong.
        _ => Error::WrongPassword,
    })?;
    // Decrypted bytes that are not a PrivateKeyInfo: most likely a wrong
    // password whose padding happened to check.
    let inner = PrivateKeyInfo::from_der(doc.as_bytes()).map_err(|_| Error::WrongPassword)?;
    private_from_pkcs8(&inner)
}

fn pkcs8_encrypted_doc(
    key: &RsaPrivateKey,
    password: &[u8],
    kdf: Pbes2Kdf,
    rng: &mut impl CryptoRngCore,
) -> Result<SecretDocument> {
    let mut salt = [0u8; 16];
    let mut iv = [0u8; 16];
    rng.try_fill_bytes(&mut salt).map_err(|_| Error::Rng)?;
    rng.try_fill_bytes(&mut iv).map_err(|_| Error::Rng)?;
    let params = match kdf {
        Pbes2Kdf::Pbkdf2Sha256 { iterations } => {
            if iterations == 0 {
                return Err(Error::InvalidParameters("PBKDF2 needs at least one iteration".into()));
            }
            pbes2::Parameters::pbkdf2_sha256_aes256cbc(iterations, &salt, &iv)
        }
        Pbes2Kdf::Scrypt { log_n, r, p } => {
            let params = pkcs5::scrypt::Params::new(log_n, r, p, 32)
                .map_err(|e| Error::InvalidParameters(format!("scrypt log_n={log_n}, r={r}, p={p}: {e}")))?;
            pbes2::Parameters::scrypt_aes256cbc(params, &salt, &iv)
        }
    }
    .map_err(|e| Error::InvalidParameters(format!("PBES2: {e}")))?;
    let inner = pkcs1_private_doc(key)?;
    let algorithm = key.public_key().algorithm();
    let algorithm_params = algorithm.pss_params_der()?;
    PrivateKeyInfo::new(key_algorithm_id(algorithm, &algorithm_params)?, inner.as_bytes())
        .encrypt_with_params(params, password)
        .map_err(|e| encoding("PKCS#8 EncryptedPrivateKeyInfo", e))
}
