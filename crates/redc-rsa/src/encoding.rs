//! Key encodings, through the RustCrypto `pkcs1`, `pkcs8`, `spki` and `der`
//! crates (no ASN.1 is written by hand here):
//!
//! | key     | structure                                   | PEM label               |
//! |---------|---------------------------------------------|-------------------------|
//! | private | PKCS#1 `RSAPrivateKey` (RFC 8017 A.1.2)     | `RSA PRIVATE KEY`       |
//! | private | PKCS#8 `PrivateKeyInfo` (RFC 5208)          | `PRIVATE KEY`           |
//! | private | PKCS#8 `EncryptedPrivateKeyInfo` (PBES2)    | `ENCRYPTED PRIVATE KEY` |
//! | public  | X.509 `SubjectPublicKeyInfo` (RFC 5280)     | `PUBLIC KEY`            |
//! | public  | PKCS#1 `RSAPublicKey` (RFC 8017 A.1.1)      | `RSA PUBLIC KEY`        |
//!
//! Each has a reader and a writer for DER and for PEM, as inherent methods of
//! [`RsaPrivateKey`] and [`RsaPublicKey`]; [`read_key`] and
//! [`read_private_key`] detect the format (PEM by its label, DER by trying
//! each structure).
//!
//! Multi-prime keys are read and written with their `otherPrimeInfos`
//! (version 1 when there are more than two primes).
//!
//! Every private key read is checked: [`RsaPrivateKey::from_components`]
//! checks `n`, `e`, `d` and the primes, and the CRT values the file carries
//! (`exponent1`, `exponent2`, `coefficient` and those of `otherPrimeInfos`)
//! must equal the values recomputed from `d` and the primes (compared in
//! constant time). Errors say which value is wrong.
//!
//! Private-key outputs are wiped on drop ([`Zeroizing`]); PEM is written with
//! LF line endings and 64-column lines, as OpenSSL writes it.

use crate::error::{Error, Result};
use crate::pss_key::{KeyAlgorithm, RSASSA_PSS_OID};
use crate::{Num, RsaPrivateKey, RsaPublicKey};
use der::asn1::{AnyRef, BitStringRef, ObjectIdentifier, UintRef};
use der::pem::LineEnding;
use der::{Decode, Document, Reader, SecretDocument, Tagged};
use pkcs1::OtherPrimeInfo;
use pkcs8::pkcs5::{self, pbes2};
use pkcs8::{EncryptedPrivateKeyInfo, PrivateKeyInfo};
use rand_core::CryptoRngCore;
use redc::SecretNat;
use spki::{AlgorithmIdentifierRef, SubjectPublicKeyInfoRef};
use subtle::ConstantTimeEq;
use zeroize::Zeroizing;

/// The `rsaEncryption` OID (PKCS#1), the algorithm of RSA keys in PKCS#8 and
/// SPKI.
pub const RSA_ENCRYPTION_OID: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.1.1");

/// The arc `pkcs-12PbeIds` (1.2.840.113549.1.12.1).
const PKCS12_PBE_ARC: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.12.1");
/// The arc `pkcs-5` (1.2.840.113549.1.5).
const PKCS5_ARC: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.5");

/// PEM label of a PKCS#1 private key.
pub const PEM_LABEL_PKCS1_PRIVATE: &str = "RSA PRIVATE KEY";
/// PEM label of a PKCS#8 private key.
pub const PEM_LABEL_PKCS8_PRIVATE: &str = "PRIVATE KEY";
/// PEM label of a password-protected PKCS#8 private key.
pub const PEM_LABEL_PKCS8_ENCRYPTED: &str = "ENCRYPTED PRIVATE KEY";
/// PEM label of an X.509 `SubjectPublicKeyInfo`.
pub const PEM_LABEL_SPKI: &str = "PUBLIC KEY";
/// PEM label of a PKCS#1 public key.
pub const PEM_LABEL_PKCS1_PUBLIC: &str = "RSA PUBLIC KEY";

/// Most primes a key file may carry (OpenSSL allows 5).
const MAX_PRIMES: usize = 16;
/// Most PBKDF2 iterations an encrypted key may ask for (a bound on the work a
/// hostile file can cause).
const MAX_PBKDF2_ITERATIONS: u32 = 10_000_000;
/// Most memory (`128·r·N` bytes) an scrypt-encrypted key may ask for.
const MAX_SCRYPT_MEMORY: u64 = 1 << 30;
/// Most scrypt work (`N·r·p`) an encrypted key may ask for.
const MAX_SCRYPT_WORK: u64 = 1 << 26;

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

/// A key read by [`read_key`]: private or public.
#[derive(Debug, Clone)]
pub enum AnyKey {
    /// A private key (from PKCS#1, PKCS#8 or encrypted PKCS#8).
    Private(RsaPrivateKey),
    /// A public key (from SPKI or PKCS#1).
    Public(RsaPublicKey),
}

impl AnyKey {
    /// The public key (of the private key, for [`AnyKey::Private`]).
    pub fn public_key(&self) -> &RsaPublicKey {
        match self {
            Self::Private(key) => key.public_key(),
            Self::Public(key) => key,
        }
    }

    /// The public key, by value.
    pub fn into_public_key(self) -> RsaPublicKey {
        match self {
            Self::Private(key) => key.public_key().clone(),
            Self::Public(key) => key,
        }
    }

    /// The private key, if this is one.
    pub fn private_key(&self) -> Option<&RsaPrivateKey> {
        match self {
            Self::Private(key) => Some(key),
            Self::Public(_) => None,
        }
    }

    /// The private key by value, if this is one.
    pub fn into_private_key(self) -> Option<RsaPrivateKey> {
        match self {
            Self::Private(key) => Some(key),
            Self::Public(_) => None,
        }
    }
}

/// Reads a key of any format of this module: PEM (by its label) or DER (by
/// trying PKCS#8, PKCS#1 private, encrypted PKCS#8, SPKI and PKCS#1 public in
/// turn). `password` opens an encrypted PKCS#8 key and is ignored otherwise.
///
/// # Errors
///
/// [`Error::Encoding`] for input that is no key of these formats,
/// [`Error::InvalidKey`] for a key whose numbers do not fit together (the
/// message says which), [`Error::PasswordRequired`] for an encrypted key
/// without a password, [`Error::WrongPassword`] when the password does not
/// open it.
pub fn read_key(bytes: &[u8], password: Option<&[u8]>) -> Result<AnyKey> {
    if let Some(found) = crate::unreadable::diagnose(bytes) {
        return Err(Error::Encoding(found));
    }
    if bytes.first() == Some(&0x30) {
        return key_from_der(bytes, password);
    }
    let pem = decode_pem(bytes)?;
    match pem.label.as_str() {
        PEM_LABEL_PKCS1_PRIVATE => private_from_pkcs1_der(&pem.der).map(AnyKey::Private),
        PEM_LABEL_PKCS8_PRIVATE => private_from_pkcs8_der(&pem.der).map(AnyKey::Private),
        PEM_LABEL_PKCS8_ENCRYPTED => {
            let password = password.ok_or(Error::PasswordRequired)?;
            private_from_encrypted_der(&pem.der, password).map(AnyKey::Private)
        }
        PEM_LABEL_SPKI => public_from_spki_der(&pem.der).map(AnyKey::Public),
        PEM_LABEL_PKCS1_PUBLIC => public_from_pkcs1_der(&pem.der).map(AnyKey::Public),
        other => Err(Error::Encoding(format!(
            "unsupported PEM label \"{other}\" (expected {PEM_LABEL_PKCS1_PRIVATE}, {PEM_LABEL_PKCS8_PRIVATE}, \
             {PEM_LABEL_PKCS8_ENCRYPTED}, {PEM_LABEL_SPKI} or {PEM_LABEL_PKCS1_PUBLIC})"
        ))),
    }
}

/// Reads a private key of any format (PKCS#1, PKCS#8, encrypted PKCS#8; PEM
/// or DER), as [`read_key`] does, and refuses a public key.
///
/// # Errors
///
/// As [`read_key`], and [`Error::Encoding`] for a public key.
pub fn read_private_key(bytes: &[u8], password: Option<&[u8]>) -> Result<RsaPrivateKey> {
    match read_key(bytes, password)? {
        AnyKey::Private(key) => Ok(key),
        AnyKey::Public(_) => Err(Error::Encoding("expected a private key, found a public key".into())),
    }
}

/// Reads the public key of a key of any format: a public key, or the public
/// half of a private key (which an encrypted key needs `password` for).
///
/// # Errors
///
/// As [`read_key`].
pub fn read_public_key(bytes: &[u8], password: Option<&[u8]>) -> Result<RsaPublicKey> {
    read_key(bytes, password).map(AnyKey::into_public_key)
}

impl RsaPrivateKey {
    /// Reads a PKCS#1 `RSAPrivateKey` (DER), multi-prime included, and checks it.
    ///
    /// # Errors
    ///
    /// [`Error::Encoding`] for malformed DER, [`Error::InvalidKey`] for
    /// inconsistent numbers.
    pub fn from_pkcs1_der(der: &[u8]) -> Result<Self> {
        private_from_pkcs1_der(der)
    }

    /// Reads a PKCS#1 private key in PEM (`RSA PRIVATE KEY`).
    ///
    /// # Errors
    ///
    /// As [`RsaPrivateKey::from_pkcs1_der`], and [`Error::Encoding`] for a
    /// malformed PEM or another label.
    pub fn from_pkcs1_pem(pem: &str) -> Result<Self> {
        let pem = decode_pem_labelled(pem.as_bytes(), PEM_LABEL_PKCS1_PRIVATE)?;
        private_from_pkcs1_der(&pem)
    }

    /// Reads a PKCS#8 `PrivateKeyInfo` (DER) with the `rsaEncryption`
    /// algorithm and checks the key.
    ///
    /// # Errors
    ///
    /// As [`RsaPrivateKey::from_pkcs1_der`], and [`Error::Encoding`] for
    /// another algorithm.
    pub fn from_pkcs8_der(der: &[u8]) -> Result<Self> {
        private_from_pkcs8_der(der)
    }

    /// Reads a PKCS#8 private key in PEM (`PRIVATE KEY`).
    ///
    /// # Errors
    ///
    /// As [`RsaPrivateKey::from_pkcs8_der`], and [`Error::Encoding`] for a
    /// malformed PEM or another label.
    pub fn from_pkcs8_pem(pem: &str) -> Result<Self> {
        let pem = decode_pem_labelled(pem.as_bytes(), PEM_LABEL_PKCS8_PRIVATE)?;
        private_from_pkcs8_der(&pem)
    }

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

    /// Writes the key as a PKCS#1 `RSAPrivateKey` (DER): version 0 with two
    /// primes, version 1 with `otherPrimeInfos` with more.
    ///
    /// # Errors
    ///
    /// [`Error::Encoding`] if the DER encoder fails.
    pub fn to_pkcs1_der(&self) -> Result<Zeroizing<Vec<u8>>> {
        pkcs1_holds(self.public_key().algorithm())?;
        Ok(pkcs1_private_doc(self)?.to_bytes())
    }

    /// Writes the key as PKCS#1 PEM (`RSA PRIVATE KEY`, OpenSSL's
    /// "traditional" form).
    ///
    /// # Errors
    ///
    /// [`Error::Encoding`] if the encoder fails.
    pub fn to_pkcs1_pem(&self) -> Result<Zeroizing<String>> {
        pkcs1_holds(self.public_key().algorithm())?;
        secret_pem(&pkcs1_private_doc(self)?, PEM_LABEL_PKCS1_PRIVATE)
    }

    /// Writes the key as a PKCS#8 `PrivateKeyInfo` (DER; `rsaEncryption`
    /// with NULL parameters, or `id-RSASSA-PSS` with the key's parameters;
    /// version 0).
    ///
    /// # Errors
    ///
    /// [`Error::Encoding`] if the encoder fails.
    pub fn to_pkcs8_der(&self) -> Result<Zeroizing<Vec<u8>>> {
        Ok(pkcs8_private_doc(self)?.to_bytes())
    }

    /// Writes the key as PKCS#8 PEM (`PRIVATE KEY`), as `openssl genpkey` does.
    ///
    /// # Errors
    ///
    /// [`Error::Encoding`] if the encoder fails.
    pub fn to_pkcs8_pem(&self) -> Result<Zeroizing<String>> {
        secret_pem(&pkcs8_private_doc(self)?, PEM_LABEL_PKCS8_PRIVATE)
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

impl RsaPublicKey {
    /// Reads an X.509 `SubjectPublicKeyInfo` (DER) with the `rsaEncryption`
    /// algorithm.
    ///
    /// # Errors
    ///
    /// [`Error::Encoding`] for malformed DER or another algorithm,
    /// [`Error::InvalidKey`] for an unacceptable `n` or `e`.
    pub fn from_spki_der(der: &[u8]) -> Result<Self> {
        public_from_spki_der(der)
    }

    /// Reads an SPKI public key in PEM (`PUBLIC KEY`), as `openssl pkey
    /// -pubout` writes it.
    ///
    /// # Errors
    ///
    /// As [`RsaPublicKey::from_spki_der`], and [`Error::Encoding`] for a
    /// malformed PEM or another label.
    pub fn from_spki_pem(pem: &str) -> Result<Self> {
        let pem = decode_pem_labelled(pem.as_bytes(), PEM_LABEL_SPKI)?;
        public_from_spki_der(&pem)
    }

    /// Reads a PKCS#1 `RSAPublicKey` (DER).
    ///
    /// # Errors
    ///
    /// [`Error::Encoding`] for malformed DER, [`Error::InvalidKey`] for an
    /// unacceptable `n` or `e`.
    pub fn from_pkcs1_der(der: &[u8]) -> Result<Self> {
        public_from_pkcs1_der(der)
    }

    /// Reads a PKCS#1 public key in PEM (`RSA PUBLIC KEY`).
    ///
    /// # Errors
    ///
    /// As [`RsaPublicKey::from_pkcs1_der`], and [`Error::Encoding`] for a
    /// malformed PEM or another label.
    pub fn from_pkcs1_pem(pem: &str) -> Result<Self> {
        let pem = decode_pem_labelled(pem.as_bytes(), PEM_LABEL_PKCS1_PUBLIC)?;
        public_from_pkcs1_der(&pem)
    }

    /// Writes the key as an X.509 `SubjectPublicKeyInfo` (DER;
    /// `rsaEncryption`, NULL parameters).
    ///
    /// # Errors
    ///
    /// [`Error::Encoding`] if the encoder fails.
    pub fn to_spki_der(&self) -> Result<Vec<u8>> {
        Ok(spki_doc(self)?.into_vec())
    }

    /// Writes the key as SPKI PEM (`PUBLIC KEY`).
    ///
    /// # Errors
    ///
    /// [`Error::Encoding`] if the encoder fails.
    pub fn to_spki_pem(&self) -> Result<String> {
        pem_string(spki_doc(self)?.as_bytes(), PEM_LABEL_SPKI)
    }

    /// Writes the key as a PKCS#1 `RSAPublicKey` (DER).
    ///
    /// # Errors
    ///
    /// [`Error::Encoding`] if the encoder fails.
    pub fn to_pkcs1_der(&self) -> Result<Vec<u8>> {
        pkcs1_holds(self.algorithm())?;
        Ok(pkcs1_public_doc(self)?.into_vec())
    }

    /// Writes the key as PKCS#1 PEM (`RSA PUBLIC KEY`).
    ///
    /// # Errors
    ///
    /// [`Error::Encoding`] if the encoder fails.
    pub fn to_pkcs1_pem(&self) -> Result<String> {
        pkcs1_holds(self.algorithm())?;
        pem_string(pkcs1_public_doc(self)?.as_bytes(), PEM_LABEL_PKCS1_PUBLIC)
    }
}

// ---------------------------------------------------------------------------
// Reading.

/// An `Error::Encoding` with what was being decoded and why it failed.
fn encoding(what: &str, err: impl core::fmt::Display) -> Error {
    Error::Encoding(format!("{what}: {err}"))
}

/// Why `der`, read as `what`, failed to decode: `err`, or that one of its
/// INTEGERs is negative (the decoder only says "malformed").
fn decoding(what: &str, der: &[u8], err: impl core::fmt::Display) -> Error {
    if has_negative_integer(der, 0) {
        negative(what)
    } else {
        encoding(what, err)
    }
}

/// The error for a negative INTEGER in `what`.
fn negative(what: &str) -> Error {
    Error::Encoding(format!(
        "{what}: an INTEGER is negative (RSA key numbers are positive: DER's INTEGER is two's \
         complement, so a value with its top bit set needs a leading zero byte)"
    ))
}

/// Whether `der` has the shape of an RSA key with a negative INTEGER in
/// it: PKCS#1 (a SEQUENCE of INTEGERs, a private key's other primes as a
/// last SEQUENCE of SEQUENCEs of INTEGERs), or PKCS#8 `PrivateKeyInfo` and
/// SPKI with such a PKCS#1 key in their OCTET or BIT STRING. Anything else
/// (another kind of DER) is not looked into. `depth` counts the wrappers.
fn has_negative_integer(der: &[u8], depth: usize) -> bool {
    let negative = |(tag, body): &(u8, &[u8])| *tag == 0x02 && body.first().is_some_and(|b| b & 0x80 != 0);
    let Some(fields) = sequence(der) else {
        return false;
    };
    let integer = |f: &(u8, &[u8])| f.0 == 0x02;
    match fields.as_slice() {
        // SPKI { AlgorithmIdentifier, BIT STRING { unused bits, PKCS#1 } }.
        [(0x30, _), (0x03, bits)] if depth == 0 => {
            bits.split_first().is_some_and(|(_, key)| has_negative_integer(key, 1))
        }
        // PKCS#8 { INTEGER, AlgorithmIdentifier, OCTET STRING { PKCS#1 }, .. }.
        [version, (0x30, _), (0x04, key), ..] if depth == 0 && integer(version) => {
            negative(version) || has_negative_integer(key, 1)
        }
        // PKCS#1: INTEGERs, then a private key's other primes.
        [ints @ .., last] if ints.iter().all(integer) => {
            ints.iter().any(negative)
                || negative(last)
                || (last.0 == 0x30
                    && sequence_of(last.1).is_some_and(|infos| {
                        infos
                            .iter()
                            .any(|info| info.0 == 0x30 && sequence_of(info.1).is_some_and(|f| f.iter().any(negative)))
                    }))
        }
        _ => false,
    }
}

/// The fields of `der` if it is exactly one SEQUENCE of whole TLVs.
fn sequence(der: &[u8]) -> Option<Vec<(u8, &[u8])>> {
    let any = AnyRef::from_der(der).ok()?;
    (any.tag() == der::Tag::Sequence)
        .then(|| sequence_of(any.value()))
        .flatten()
}

/// The TLVs (tag byte, contents) that make up `body` exactly, read by the
/// `der` crate.
fn sequence_of(body: &[u8]) -> Option<Vec<(u8, &[u8])>> {
    let mut reader = der::SliceReader::new(body).ok()?;
    let mut out = Vec::new();
    while !reader.is_finished() {
        let any: AnyRef<'_> = reader.decode().ok()?;
        out.push((any.tag().octet(), any.value()));
    }
    Some(out)
}

/// Tries each DER structure in turn; the first that parses decides.
fn key_from_der(der: &[u8], password: Option<&[u8]>) -> Result<AnyKey> {
    if let Ok(info) = PrivateKeyInfo::from_der(der) {
        return private_from_pkcs8(&info).map(AnyKey::Private);
    }
    if let Ok(key) = pkcs1::RsaPrivateKey::from_der(der) {
        return private_from_pkcs1(&key).map(AnyKey::Private);
    }
    if let Ok(info) = EncryptedPrivateKeyInfo::from_der(der) {
        let password = password.ok_or(Error::PasswordRequired)?;
        return private_from_encrypted(&info, password).map(AnyKey::Private);
    }
    if let Ok(spki) = SubjectPublicKeyInfoRef::from_der(der) {
        return public_from_spki(&spki).map(AnyKey::Public);
    }
    if let Ok(key) = pkcs1::RsaPublicKey::from_der(der) {
        return public_from_pkcs1(&key).map(AnyKey::Public);
    }
    if let Err(e) = EncryptedPrivateKeyInfo::from_der(der)
        && let Some(err) = unsupported_encryption(der, &e)
    {
        return Err(err);
    }
    if has_negative_integer(der, 0) {
        return Err(negative("the key"));
    }
    Err(Error::Encoding(
        "not a DER RSA key: the input is none of PKCS#8 PrivateKeyInfo, PKCS#1 RSAPrivateKey, \
         PKCS#8 EncryptedPrivateKeyInfo, SubjectPublicKeyInfo, PKCS#1 RSAPublicKey"
            .into(),
    ))
}

fn private_from_pkcs1_der(der: &[u8]) -> Result<RsaPrivateKey> {
    let key = pkcs1::RsaPrivateKey::from_der(der).map_err(|e| decoding("PKCS#1 RSAPrivateKey", der, e))?;
    private_from_pkcs1(&key)
}

fn private_from_pkcs8_der(der: &[u8]) -> Result<RsaPrivateKey> {
    let info = PrivateKeyInfo::from_der(der).map_err(|e| decoding("PKCS#8 PrivateKeyInfo", der, e))?;
    private_from_pkcs8(&info)
}

fn private_from_encrypted_der(der: &[u8], password: &[u8]) -> Result<RsaPrivateKey> {
    let info = EncryptedPrivateKeyInfo::from_der(der).map_err(|e| {
        unsupported_encryption(der, &e).unwrap_or_else(|| encoding("PKCS#8 EncryptedPrivateKeyInfo", e))
    })?;
    private_from_encrypted(&info, password)
}

/// For an `EncryptedPrivateKeyInfo` whose algorithm `pkcs5` does not know
/// (e.g. OpenSSL's `-v1 PBE-SHA1-3DES`, a PKCS#12 scheme): an error naming
/// that algorithm. `None` if `der` does not even have the shape
/// `SEQUENCE { AlgorithmIdentifier, OCTET STRING }`.
fn unsupported_encryption(der: &[u8], err: &der::Error) -> Option<Error> {
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

fn public_from_spki_der(der: &[u8]) -> Result<RsaPublicKey> {
    let spki = SubjectPublicKeyInfoRef::from_der(der).map_err(|e| decoding("SubjectPublicKeyInfo", der, e))?;
    public_from_spki(&spki)
}

fn public_from_pkcs1_der(der: &[u8]) -> Result<RsaPublicKey> {
    let key = pkcs1::RsaPublicKey::from_der(der).map_err(|e| decoding("PKCS#1 RSAPublicKey", der, e))?;
    public_from_pkcs1(&key)
}

/// The keys of other algorithms a user may hand over, by their
/// `AlgorithmIdentifier` (RFC 8410, RFC 5480, RFC 3279, PKCS#3).
const OTHER_KEYS: [(&str, &str); 8] = [
    ("1.3.101.112", "an Ed25519 key"),
    ("1.3.101.113", "an Ed448 key"),
    ("1.3.101.110", "an X25519 key"),
    ("1.3.101.111", "an X448 key"),
    ("1.2.840.10045.2.1", "an EC key (id-ecPublicKey)"),
    ("1.2.840.10040.4.1", "a DSA key"),
    ("1.2.840.113549.1.3.1", "a Diffie-Hellman key (PKCS#3)"),
    ("1.2.840.10046.2.1", "a Diffie-Hellman key (X9.42)"),
];

/// The algorithm of an RSA key's `AlgorithmIdentifier`: `rsaEncryption`
/// with NULL (or absent) parameters, or `id-RSASSA-PSS` with its
/// parameters ([`crate::pss_key`]); any other algorithm is named when it
/// is a known one.
fn key_algorithm(alg: &AlgorithmIdentifierRef<'_>, what: &str) -> Result<KeyAlgorithm> {
    if alg.oid == RSASSA_PSS_OID {
        return KeyAlgorithm::pss_from_params(alg.parameters).map_err(|e| match e {
            Error::Encoding(m) => Error::Encoding(format!("{what}: {m}")),
            other => other,
        });
    }
    if alg.oid != RSA_ENCRYPTION_OID {
        let oid = alg.oid.to_string();
        return Err(Error::Encoding(match OTHER_KEYS.iter().find(|(o, _)| *o == oid) {
            Some((_, name)) => format!("{what}: {name} ({oid}), not an RSA key"),
            None => format!("{what}: algorithm {oid} is not rsaEncryption ({RSA_ENCRYPTION_OID}), not an RSA key"),
        }));
    }
    match alg.parameters {
        None => Ok(KeyAlgorithm::Rsa),
        Some(params) if params.is_null() => Ok(KeyAlgorithm::Rsa),
        Some(_) => Err(Error::Encoding(format!(
            "{what}: rsaEncryption parameters must be NULL"
        ))),
    }
}

fn private_from_pkcs8(info: &PrivateKeyInfo<'_>) -> Result<RsaPrivateKey> {
    let algorithm = key_algorithm(&info.algorithm, "PKCS#8 PrivateKeyInfo")?;
    let key = pkcs1::RsaPrivateKey::from_der(info.private_key)
        .map_err(|e| decoding("PKCS#8 PrivateKeyInfo: the RSAPrivateKey inside", info.private_key, e))?;
    private_from_pkcs1(&key).map(|k| k.with_algorithm(algorithm))
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

fn private_from_encrypted(info: &EncryptedPrivateKeyInfo<'_>, password: &[u8]) -> Result<RsaPrivateKey> {
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

/// The file's CRT value must equal ours (constant-time comparison of the
/// minimal big-endian bytes).
fn check_crt_value(file: &UintRef<'_>, computed: &SecretNat, what: &str) -> Result<()> {
    let theirs = SecretNat::from_be_bytes(file.as_bytes(), computed.len());
    if theirs.is_some_and(|t| redc::secret::declassify(t.ct_eq(computed))) {
        Ok(())
    } else {
        Err(Error::InvalidKey(format!(
            "{what} in the key does not match the value computed from d and the primes"
        )))
    }
}

/// The checked key of a PKCS#1 `RSAPrivateKey`.
fn private_from_pkcs1(k: &pkcs1::RsaPrivateKey<'_>) -> Result<RsaPrivateKey> {
    let others: &[OtherPrimeInfo<'_>] = k.other_prime_infos.as_deref().unwrap_or(&[]);
    if 2 + others.len() > MAX_PRIMES {
        return Err(Error::InvalidKey(format!(
            "{} primes; at most {MAX_PRIMES} are accepted",
            2 + others.len()
        )));
    }
    // The public checks first (size, even modulus, tiny e), then no component
    // may be longer than the modulus: this bounds the work below.
    let public = public_from_pkcs1(&k.public_key())?;
    let n_len = k.modulus.as_bytes().len();
    let mut components = vec![
        k.private_exponent,
        k.prime1,
        k.prime2,
        k.exponent1,
        k.exponent2,
        k.coefficient,
    ];
    components.extend(others.iter().flat_map(|o| [o.prime, o.exponent, o.coefficient]));
    if components.iter().any(|c| c.as_bytes().len() > n_len) {
        return Err(Error::InvalidKey("a key component is longer than the modulus".into()));
    }

    let d = Zeroizing::new(Num::from_be_bytes(k.private_exponent.as_bytes()));
    let primes: Zeroizing<Vec<Num>> = Zeroizing::new(
        [k.prime1, k.prime2]
            .iter()
            .chain(others.iter().map(|o| &o.prime))
            .map(|p| Num::from_be_bytes(p.as_bytes()))
            .collect(),
    );
    let key = RsaPrivateKey::with_public(public, &d, &primes)?;

    let exps = key.crt_exponents();
    let coeffs = key.crt_coefficients();
    let ([dp, dq, other_exps @ ..], [qinv, other_coeffs @ ..]) = (exps.as_slice(), coeffs.as_slice()) else {
        return Err(Error::InvalidKey("a key needs at least two primes".into()));
    };
    check_crt_value(&k.exponent1, dp, "exponent1 (dP = d mod (p-1))")?;
    check_crt_value(&k.exponent2, dq, "exponent2 (dQ = d mod (q-1))")?;
    check_crt_value(&k.coefficient, qinv, "coefficient (qInv = q^-1 mod p)")?;
    for (i, ((info, exp), coeff)) in others.iter().zip(other_exps).zip(other_coeffs).enumerate() {
        let r = i + 3;
        check_crt_value(
            &info.exponent,
            exp,
            &format!("otherPrimeInfos exponent d_{r} (d mod (r_{r}-1))"),
        )?;
        check_crt_value(
            &info.coefficient,
            coeff,
            &format!("otherPrimeInfos coefficient t_{r} ((r_1···r_{})^-1 mod r_{r})", r - 1),
        )?;
    }
    Ok(key)
}

fn public_from_spki(spki: &SubjectPublicKeyInfoRef<'_>) -> Result<RsaPublicKey> {
    let algorithm = key_algorithm(&spki.algorithm, "SubjectPublicKeyInfo")?;
    let bytes = spki
        .subject_public_key
        .as_bytes()
        .ok_or_else(|| Error::Encoding("SubjectPublicKeyInfo: the key BIT STRING has unused bits".into()))?;
    let key = pkcs1::RsaPublicKey::from_der(bytes)
        .map_err(|e| decoding("SubjectPublicKeyInfo: the RSAPublicKey inside", bytes, e))?;
    public_from_pkcs1(&key).map(|k| k.with_algorithm(algorithm))
}

fn public_from_pkcs1(k: &pkcs1::RsaPublicKey<'_>) -> Result<RsaPublicKey> {
    if k.public_exponent.as_bytes().len() > k.modulus.as_bytes().len() {
        return Err(Error::InvalidKey(
            "the public exponent is longer than the modulus".into(),
        ));
    }
    RsaPublicKey::new(
        Num::from_be_bytes(k.modulus.as_bytes()),
        Num::from_be_bytes(k.public_exponent.as_bytes()),
    )
}

/// A decoded PEM block: its label and its (secret-safe) DER contents.
#[derive(Debug)]
pub struct Pem {
    /// The label of its `-----BEGIN` line.
    pub label: String,
    /// The DER contents, wiped on drop.
    pub der: Zeroizing<Vec<u8>>,
}

/// Where `needle` first occurs in `haystack`.
fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// The first PEM block of `bytes`, without the text around it (RFC 7468 §2
/// lets parsers ignore it): from `-----BEGIN ` to the end of its
/// `-----END ...-----` line (or to the end of the input when that is missing,
/// so that the decoder reports it).
fn pem_block(bytes: &[u8]) -> Option<&[u8]> {
    let start = find(bytes, b"-----BEGIN ")?;
    let rest = bytes.get(start..)?;
    let Some(end) = find(rest, b"-----END ") else {
        return Some(rest);
    };
    let after = rest.get(end + 9..)?;
    match find(after, b"-----") {
        Some(close) => rest.get(..end + 9 + close + 5),
        None => Some(rest),
    }
}

/// The first PEM block of `bytes` (text around it ignored, RFC 7468 §2),
/// decoded; the reader of every key format here and of `redc-ffc`'s.
///
/// # Errors
///
/// [`Error::Encoding`] without a `-----BEGIN` line, for PEM headers (a
/// legacy OpenSSL-encrypted key) and for malformed PEM.
pub fn decode_pem(bytes: &[u8]) -> Result<Pem> {
    let block = pem_block(bytes).ok_or_else(|| {
        Error::Encoding("not a key: neither DER (a SEQUENCE) nor PEM (no \"-----BEGIN\" line)".into())
    })?;
    match der::pem::decode_vec(block) {
        Ok((label, der)) => Ok(Pem {
            label: label.to_owned(),
            der: Zeroizing::new(der),
        }),
        Err(der::pem::Error::HeaderDisallowed) => Err(Error::Encoding(
            "PEM headers are not supported: this looks like a legacy OpenSSL-encrypted key (Proc-Type/DEK-Info); \
             convert it with `openssl pkcs8 -topk8 -v2 aes-256-cbc`"
                .into(),
        )),
        Err(err) => Err(encoding("malformed PEM", err)),
    }
}

/// The DER contents of a PEM block that must carry `label`.
fn decode_pem_labelled(bytes: &[u8], label: &str) -> Result<Zeroizing<Vec<u8>>> {
    let pem = decode_pem(bytes)?;
    if pem.label != label {
        return Err(Error::Encoding(format!(
            "expected PEM label \"{label}\", found \"{}\"",
            pem.label
        )));
    }
    Ok(pem.der)
}

// ---------------------------------------------------------------------------
// Writing.

/// The `AlgorithmIdentifier` of a key of `algorithm` whose parameters'
/// DER is `params` ([`KeyAlgorithm::pss_params_der`]): `rsaEncryption`
/// with NULL parameters, or `id-RSASSA-PSS` with its own (absent for an
/// unrestricted key).
fn key_algorithm_id<'a>(algorithm: KeyAlgorithm, params: &'a Option<Vec<u8>>) -> Result<AlgorithmIdentifierRef<'a>> {
    Ok(match algorithm {
        KeyAlgorithm::Rsa => AlgorithmIdentifierRef {
            oid: RSA_ENCRYPTION_OID,
            parameters: Some(AnyRef::NULL),
        },
        KeyAlgorithm::Pss(_) => AlgorithmIdentifierRef {
            oid: RSASSA_PSS_OID,
            parameters: params
                .as_deref()
                .map(AnyRef::from_der)
                .transpose()
                .map_err(|e| encoding("RSASSA-PSS parameters", e))?,
        },
    })
}

/// PKCS#1 has no room for the key's algorithm: an RSASSA-PSS key is
/// written as PKCS#8 or SPKI only.
fn pkcs1_holds(algorithm: KeyAlgorithm) -> Result<()> {
    if algorithm.is_pss() {
        return Err(Error::Encoding(
            "an RSASSA-PSS key cannot be written as PKCS#1 (which cannot say it is one): write PKCS#8 or SPKI".into(),
        ));
    }
    Ok(())
}

fn uint(bytes: &[u8]) -> Result<UintRef<'_>> {
    UintRef::new(bytes).map_err(|e| encoding("INTEGER", e))
}

fn pkcs1_private_doc(key: &RsaPrivateKey) -> Result<SecretDocument> {
    // Big-endian in the value's digit count; DER strips the leading zeros.
    let secret = |x: &SecretNat| x.to_be_bytes(8 * x.len()).unwrap_or_default();
    let public = key.public_key();
    let (n, e) = (public.n().to_be_bytes(), public.e().to_be_bytes());
    let d = secret(key.d());
    let primes: Vec<_> = key.primes().into_iter().map(secret).collect();
    let exps: Vec<_> = key.crt_exponents().into_iter().map(secret).collect();
    let coeffs: Vec<_> = key.crt_coefficients().into_iter().map(secret).collect();
    let ([p, q, other_primes @ ..], [dp, dq, other_exps @ ..], [qinv, other_coeffs @ ..]) =
        (primes.as_slice(), exps.as_slice(), coeffs.as_slice())
    else {
        return Err(Error::InvalidKey("a key needs at least two primes".into()));
    };
    let others = other_primes
        .iter()
        .zip(other_exps)
        .zip(other_coeffs)
        .map(|((r, d), t)| {
            Ok(OtherPrimeInfo {
                prime: uint(r)?,
                exponent: uint(d)?,
                coefficient: uint(t)?,
            })
        })
        .collect::<Result<Vec<_>>>()?;
    let doc = pkcs1::RsaPrivateKey {
        modulus: uint(&n)?,
        public_exponent: uint(&e)?,
        private_exponent: uint(&d)?,
        prime1: uint(p)?,
        prime2: uint(q)?,
        exponent1: uint(dp)?,
        exponent2: uint(dq)?,
        coefficient: uint(qinv)?,
        // The version (0 two-prime, 1 multi-prime) follows from this field.
        other_prime_infos: (!others.is_empty()).then_some(others),
    };
    SecretDocument::encode_msg(&doc).map_err(|e| encoding("PKCS#1 RSAPrivateKey", e))
}

fn pkcs8_private_doc(key: &RsaPrivateKey) -> Result<SecretDocument> {
    let inner = pkcs1_private_doc(key)?;
    let algorithm = key.public_key().algorithm();
    let params = algorithm.pss_params_der()?;
    let info = PrivateKeyInfo::new(key_algorithm_id(algorithm, &params)?, inner.as_bytes());
    SecretDocument::encode_msg(&info).map_err(|e| encoding("PKCS#8 PrivateKeyInfo", e))
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

fn pkcs1_public_doc(key: &RsaPublicKey) -> Result<Document> {
    let (n, e) = (key.n().to_be_bytes(), key.e().to_be_bytes());
    let doc = pkcs1::RsaPublicKey {
        modulus: uint(&n)?,
        public_exponent: uint(&e)?,
    };
    Document::encode_msg(&doc).map_err(|e| encoding("PKCS#1 RSAPublicKey", e))
}

fn spki_doc(key: &RsaPublicKey) -> Result<Document> {
    let inner = pkcs1_public_doc(key)?;
    let params = key.algorithm().pss_params_der()?;
    let spki = SubjectPublicKeyInfoRef {
        algorithm: key_algorithm_id(key.algorithm(), &params)?,
        subject_public_key: BitStringRef::from_bytes(inner.as_bytes())
            .map_err(|e| encoding("SubjectPublicKeyInfo", e))?,
    };
    Document::encode_msg(&spki).map_err(|e| encoding("SubjectPublicKeyInfo", e))
}

fn secret_pem(doc: &SecretDocument, label: &'static str) -> Result<Zeroizing<String>> {
    doc.to_pem(label, LineEnding::LF).map_err(|e| encoding("PEM", e))
}

fn pem_string(der: &[u8], label: &str) -> Result<String> {
    der::pem::encode_string(label, LineEnding::LF, der).map_err(|e| encoding("PEM", e))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A DER TLV with a short-form length.
    fn t(tag: u8, body: &[u8]) -> Vec<u8> {
        [&[tag, body.len() as u8][..], body].concat()
    }

    #[test]
    fn negative_integers_are_found_in_key_shapes_only() {
        let (neg, pos) = (t(0x02, &[0x80, 1]), t(0x02, &[0x7f, 1]));
        let pkcs1 = |n: &[u8]| t(0x30, &[n, &t(0x02, &[3])].concat());
        assert!(has_negative_integer(&pkcs1(&neg), 0));
        assert!(!has_negative_integer(&pkcs1(&pos), 0));
        // The other primes of a multi-prime key.
        let info = t(0x30, &[pos.as_slice(), &neg, &pos].concat());
        let private = t(0x30, &[pos.as_slice(), &pos, &t(0x30, &info)].concat());
        assert!(has_negative_integer(&private, 0));
        // Wrapped in SPKI and PKCS#8.
        let alg = t(0x30, &t(0x05, &[]));
        let spki = t(
            0x30,
            &[alg.as_slice(), &t(0x03, &[&[0][..], &pkcs1(&neg)].concat())].concat(),
        );
        assert!(has_negative_integer(&spki, 0));
        let pkcs8 = t(0x30, &[t(0x02, &[0]).as_slice(), &alg, &t(0x04, &pkcs1(&neg))].concat());
        assert!(has_negative_integer(&pkcs8, 0));
        // Not keys: a SEC1-like key with a negative INTEGER in its OCTET
        // STRING, a certificate-like nesting, a SPKI inside a SPKI.
        let sec1 = t(0x30, &[t(0x02, &[1]).as_slice(), &t(0x04, &pkcs1(&neg))].concat());
        assert!(!has_negative_integer(&sec1, 0));
        assert!(!has_negative_integer(&t(0x30, &t(0x30, &neg)), 0));
        let nested = t(0x30, &[alg.as_slice(), &t(0x03, &[&[0][..], &spki].concat())].concat());
        assert!(!has_negative_integer(&nested, 0));
    }

    #[test]
    fn what_is_not_der_is_not_looked_into() {
        // Indefinite length, five length bytes, a length past the end, cut
        // short, bytes after the SEQUENCE.
        for bad in [
            &[0x30, 0x80, 0x02, 0x01, 0x80, 0, 0][..],
            &[0x30, 0x85, 1, 0, 0, 0, 0],
            &[0x30, 0x84, 0xff, 0xff, 0xff, 0xff, 0x02, 0x01, 0x80],
            &[0x30, 0x03, 0x02, 0x01],
            &[0x30],
            &[0x30, 0x03, 0x02, 0x01, 0x80, 0x00],
        ] {
            assert!(!has_negative_integer(bad, 0), "{bad:x?}");
        }
        assert!(has_negative_integer(&[0x30, 0x03, 0x02, 0x01, 0x80], 0));
    }
}
