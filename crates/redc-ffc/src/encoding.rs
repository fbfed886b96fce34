//! PKCS#8 `PrivateKeyInfo` and X.509 `SubjectPublicKeyInfo` for
//! Diffie-Hellman and DSA keys, as OpenSSL writes them, through the
//! RustCrypto `pkcs8`, `spki` and `der` crates:
//!
//! | key | algorithm | parameters | key field |
//! |---|---|---|---|
//! | DH | `dhKeyAgreement` (PKCS#3, 1.2.840.113549.1.3.1) | `DHParameter ::= SEQUENCE { p, g, privateValueLength OPTIONAL }` | INTEGER `x` or `y` |
//! | DSA | `id-dsa` (RFC 3279, 1.2.840.10040.4.1) | `Dss-Parms ::= SEQUENCE { p, q, g }` | INTEGER `x` or `y` |
//!
//! A DH key must be of a named group ([`Group::from_numbers`]): that is
//! what `openssl genpkey -pkeyopt group:NAME` writes, and what gives `q`
//! for the subgroup check. PEM is read by its label (`PRIVATE KEY`, `PUBLIC
//! KEY`), DER by trying both structures.

mod pkcs1;

use crate::dh::{DhPrivateKey, DhPublicKey};
use crate::dsa::{DsaParams, DsaPrivateKey, DsaPublicKey};
use crate::error::{Error, Result};
use crate::{Group, Num};
use der::asn1::{AnyRef, BitStringRef, ObjectIdentifier, SequenceOf, UintRef};
use der::pem::LineEnding;
use der::{Decode, Document, Encode, SecretDocument};
use pkcs8::PrivateKeyInfo;
use redc::SecretNat;
use spki::{AlgorithmIdentifierRef, SubjectPublicKeyInfoRef};
use std::sync::Arc;
use zeroize::Zeroizing;

/// `dhKeyAgreement` (PKCS#3).
pub const DH_OID: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.3.1");
/// `id-dsa` (RFC 3279).
pub const DSA_OID: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.10040.4.1");
/// `rsaEncryption`, recognised to say that a key is RSA.
const RSA_OID: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.1.1");

/// A key read by [`read_key`].
#[derive(Debug, Clone)]
pub enum AnyKey {
    /// A Diffie-Hellman private key.
    DhPrivate(DhPrivateKey),
    /// A Diffie-Hellman public key.
    DhPublic(DhPublicKey),
    /// A DSA private key.
    DsaPrivate(DsaPrivateKey),
    /// A DSA public key.
    DsaPublic(DsaPublicKey),
}

/// The algorithm of a key file, as far as its outer structure tells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyKind {
    /// RSA (PKCS#1, or PKCS#8/SPKI with `rsaEncryption`), or an encrypted
    /// PKCS#8 key (only RSA keys are read encrypted).
    Rsa,
    /// Diffie-Hellman.
    Dh,
    /// DSA.
    Dsa,
}

impl AnyKey {
    /// The key with a private key's security level set to `level` (as
    /// [`DhPrivateKey::with_security_level`] and
    /// [`DsaPrivateKey::with_security_level`]); a public key as it is.
    pub fn with_security_level(self, level: crate::SecurityLevel) -> Self {
        match self {
            Self::DhPrivate(k) => Self::DhPrivate(k.with_security_level(level)),
            Self::DsaPrivate(k) => Self::DsaPrivate(k.with_security_level(level)),
            public => public,
        }
    }
}

/// Why a key read by [`read_key`] is not the key asked for: another
/// algorithm's key, or a public key where a private one is needed. The
/// message says what the key is (`a DSA key, not a Diffie-Hellman key`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum WrongKey {
    /// A key of `found`'s algorithm where one of `wanted`'s is needed.
    #[error("{}, not {}", .found.described(), .wanted.described())]
    Kind {
        /// The key's algorithm.
        found: KeyKind,
        /// The algorithm asked for.
        wanted: KeyKind,
    },
    /// A public key where a private key is needed.
    #[error("a private key is needed, this is a public key")]
    NotPrivate,
}

impl AnyKey {
    /// The key's algorithm: [`KeyKind::Dh`] or [`KeyKind::Dsa`].
    pub fn kind(&self) -> KeyKind {
        match self {
            Self::DhPrivate(_) | Self::DhPublic(_) => KeyKind::Dh,
            Self::DsaPrivate(_) | Self::DsaPublic(_) => KeyKind::Dsa,
        }
    }

    /// Why this key is not a key of `wanted`'s: another algorithm's, or
    /// (being of `wanted`'s) not private.
    fn wrong(&self, wanted: KeyKind) -> WrongKey {
        match self.kind() {
            found if found == wanted => WrongKey::NotPrivate,
            found => WrongKey::Kind { found, wanted },
        }
    }

    /// The DSA private key, for signing; a DSA public key is
    /// [`WrongKey::NotPrivate`], a Diffie-Hellman key [`WrongKey::Kind`].
    pub fn into_dsa_private(self) -> core::result::Result<DsaPrivateKey, WrongKey> {
        match self {
            Self::DsaPrivate(k) => Ok(k),
            other => Err(other.wrong(KeyKind::Dsa)),
        }
    }

    /// The DSA public key, for verifying: a private key's public half; a
    /// Diffie-Hellman key is [`WrongKey::Kind`].
    pub fn into_dsa_public(self) -> core::result::Result<DsaPublicKey, WrongKey> {
        match self {
            Self::DsaPrivate(k) => Ok(k.public_key().clone()),
            Self::DsaPublic(k) => Ok(k),
            other => Err(other.wrong(KeyKind::Dsa)),
        }
    }

    /// The Diffie-Hellman private key, for deriving; a Diffie-Hellman
    /// public key is [`WrongKey::NotPrivate`], a DSA key [`WrongKey::Kind`].
    pub fn into_dh_private(self) -> core::result::Result<DhPrivateKey, WrongKey> {
        match self {
            Self::DhPrivate(k) => Ok(k),
            other => Err(other.wrong(KeyKind::Dh)),
        }
    }

    /// The Diffie-Hellman public key (a peer's): a private key's public
    /// half; a DSA key is [`WrongKey::Kind`].
    pub fn into_dh_public(self) -> core::result::Result<DhPublicKey, WrongKey> {
        match self {
            Self::DhPrivate(k) => Ok(k.public_key().clone()),
            Self::DhPublic(k) => Ok(k),
            other => Err(other.wrong(KeyKind::Dh)),
        }
    }
}

impl KeyKind {
    /// The kind with its article, for messages: `an RSA key`, `a
    /// Diffie-Hellman key`, `a DSA key`.
    pub fn described(self) -> &'static str {
        match self {
            Self::Rsa => "an RSA key",
            Self::Dh => "a Diffie-Hellman key",
            Self::Dsa => "a DSA key",
        }
    }
}

/// The kind of key in `bytes` (PEM or DER), without checking its numbers;
/// `None` for something that is no key of these formats.
pub fn key_kind(bytes: &[u8]) -> Option<KeyKind> {
    let (label, der) = match pem(bytes) {
        Some(pem) => {
            let (label, der) = pem.ok()?;
            (Some(label), der)
        }
        None => (None, Zeroizing::new(bytes.to_vec())),
    };
    match label.as_deref() {
        Some("RSA PRIVATE KEY" | "RSA PUBLIC KEY" | "ENCRYPTED PRIVATE KEY") => return Some(KeyKind::Rsa),
        Some("DSA PRIVATE KEY") => return Some(KeyKind::Dsa),
        _ => {}
    }
    let oid = PrivateKeyInfo::try_from(der.as_slice())
        .map(|k| k.algorithm.oid)
        .or_else(|_| SubjectPublicKeyInfoRef::try_from(der.as_slice()).map(|k| k.algorithm.oid))
        .ok();
    match oid {
        Some(DH_OID) => Some(KeyKind::Dh),
        Some(DSA_OID) => Some(KeyKind::Dsa),
        Some(_) => Some(KeyKind::Rsa),
        // DER that is neither: PKCS#1 or encrypted PKCS#8, RSA's own.
        None if label.is_none() && bytes.first() == Some(&0x30) => Some(KeyKind::Rsa),
        None => None,
    }
}

/// A PEM input's label and DER (through [`redc_pki::pem`]), or `None` for
/// DER input (a SEQUENCE's first byte).
fn pem(bytes: &[u8]) -> Option<Result<(String, Zeroizing<Vec<u8>>)>> {
    if bytes.first() == Some(&0x30) {
        return None;
    }
    Some(
        redc_pki::pem::decode_pem(bytes)
            .map(|p| (p.label, p.der))
            .map_err(Error::from),
    )
}

/// Reads a DH or DSA key: PEM (`PRIVATE KEY`, `PUBLIC KEY`) or DER
/// (PKCS#8, then SPKI).
///
/// # Errors
///
/// [`Error::Encoding`] for input that is no such key (an RSA key is named
/// as one); [`Error::InvalidParameters`] and [`Error::InvalidKey`] for
/// numbers that fail their checks; [`Error::Unsupported`] for a DH key of a
/// group that is not named.
pub fn read_key(bytes: &[u8]) -> Result<AnyKey> {
    // Named only once every reader has refused, as RSA's reader does.
    read_any_key(bytes).map_err(|e| match e {
        Error::Encoding(_) => redc_pki::unreadable::diagnose(bytes).map_or(e, Error::Encoding),
        other => other,
    })
}

/// [`read_key`] without the naming of unreadable input.
fn read_any_key(bytes: &[u8]) -> Result<AnyKey> {
    match pem(bytes) {
        Some(pem) => {
            let (label, der) = pem?;
            match label.as_str() {
                "PRIVATE KEY" => private_from_der(&der),
                "PUBLIC KEY" => public_from_der(&der),
                "RSA PRIVATE KEY" | "RSA PUBLIC KEY" => Err(algorithm_error(RSA_OID)),
                other => Err(Error::Encoding(format!(
                    "PEM label \"{other}\" (expected PRIVATE KEY or PUBLIC KEY)"
                ))),
            }
        }
        None if PrivateKeyInfo::try_from(bytes).is_ok() => private_from_der(bytes),
        None if SubjectPublicKeyInfoRef::try_from(bytes).is_ok() => public_from_der(bytes),
        // PKCS#1 DER: RSA's own, named as such.
        None if pkcs1::is_pkcs1(bytes) => Err(algorithm_error(RSA_OID)),
        None => public_from_der(bytes),
    }
}

fn encoding(what: &str) -> impl Fn(der::Error) -> Error + '_ {
    move |e| Error::Encoding(format!("{what}: {e}"))
}

fn algorithm_error(oid: ObjectIdentifier) -> Error {
    if oid == RSA_OID {
        Error::Encoding("an RSA key, not a Diffie-Hellman or DSA key".into())
    } else {
        Error::Encoding(format!("algorithm {oid} is neither dhKeyAgreement nor id-dsa"))
    }
}

/// The INTEGERs of the parameters (two or three).
fn parameter_ints(params: Option<AnyRef<'_>>) -> Result<Vec<Num>> {
    let params = params.ok_or_else(|| Error::Encoding("the key has no domain parameters".into()))?;
    let seq: SequenceOf<UintRef<'_>, 3> = params.decode_as().map_err(encoding("domain parameters"))?;
    Ok(seq.iter().map(|i| Num::from_be_bytes(i.as_bytes())).collect())
}

fn dh_group(ints: &[Num]) -> Result<Group> {
    let [p, g, ..] = ints else {
        return Err(Error::Encoding("DHParameter: expected p and g".into()));
    };
    Group::from_numbers(p, g).ok_or_else(|| {
        Error::Unsupported(format!(
            "Diffie-Hellman parameters of {} bits that are not a named group (ffdhe2048..8192, modp_1536..8192)",
            p.bits()
        ))
    })
}

fn dsa_params(ints: Vec<Num>) -> Result<Arc<DsaParams>> {
    let Ok([p, q, g]) = <[Num; 3]>::try_from(ints) else {
        return Err(Error::Encoding("Dss-Parms: expected p, q and g".into()));
    };
    Ok(Arc::new(DsaParams::new(p, q, g)?))
}

fn private_from_der(der: &[u8]) -> Result<AnyKey> {
    let info = PrivateKeyInfo::try_from(der).map_err(|e| Error::Encoding(format!("PKCS#8: {e}")))?;
    // The algorithm first: an RSA key is named as one, not as a bad `x`.
    if ![DH_OID, DSA_OID].contains(&info.algorithm.oid) {
        return Err(algorithm_error(info.algorithm.oid));
    }
    let x = UintRef::from_der(info.private_key).map_err(encoding("private value x"))?;
    let ints = parameter_ints(info.algorithm.parameters)?;
    let width = |n: &Num| n.digits().len().max(x.as_bytes().len().div_ceil(8));
    match info.algorithm.oid {
        DH_OID => {
            let group = dh_group(&ints)?;
            let x = SecretNat::from_be_bytes(x.as_bytes(), width(group.params().p.n()))
                .ok_or_else(|| Error::InvalidKey("private value x".into()))?;
            DhPrivateKey::from_exponent(group, &x).map(AnyKey::DhPrivate)
        }
        DSA_OID => {
            let params = dsa_params(ints)?;
            let x = SecretNat::from_be_bytes(x.as_bytes(), width(params.q()))
                .ok_or_else(|| Error::InvalidKey("private value x".into()))?;
            DsaPrivateKey::from_exponent(params, &x).map(AnyKey::DsaPrivate)
        }
        oid => Err(algorithm_error(oid)),
    }
}

fn public_from_der(der: &[u8]) -> Result<AnyKey> {
    let info =
        SubjectPublicKeyInfoRef::try_from(der).map_err(|e| Error::Encoding(format!("SubjectPublicKeyInfo: {e}")))?;
    let bits = info
        .subject_public_key
        .as_bytes()
        .ok_or_else(|| Error::Encoding("public key BIT STRING with unused bits".into()))?;
    if ![DH_OID, DSA_OID].contains(&info.algorithm.oid) {
        return Err(algorithm_error(info.algorithm.oid));
    }
    let y = Num::from_be_bytes(UintRef::from_der(bits).map_err(encoding("public value y"))?.as_bytes());
    let ints = parameter_ints(info.algorithm.parameters)?;
    match info.algorithm.oid {
        DH_OID => {
            let group = dh_group(&ints)?;
            DhPublicKey::new(group, y)
                .map(AnyKey::DhPublic)
                .map_err(|e| Error::InvalidKey(format!("public value y: {e}")))
        }
        DSA_OID => DsaPublicKey::new(dsa_params(ints)?, y).map(AnyKey::DsaPublic),
        oid => Err(algorithm_error(oid)),
    }
}

/// The parameters' DER: a SEQUENCE of INTEGERs.
fn params_der(ints: &[&Num]) -> Result<Vec<u8>> {
    let bytes: Vec<Vec<u8>> = ints.iter().map(|n| n.to_be_bytes()).collect();
    let mut seq = SequenceOf::<UintRef<'_>, 3>::new();
    for b in &bytes {
        seq.add(UintRef::new(b).map_err(encoding("parameters"))?)
            .map_err(encoding("parameters"))?;
    }
    seq.to_der().map_err(encoding("parameters"))
}

fn pkcs8(oid: ObjectIdentifier, params: &[&Num], x: &SecretNat) -> Result<SecretDocument> {
    let params = params_der(params)?;
    // Every digit, wiped on drop (leading zero bytes are stripped by UintRef).
    let x = x
        .to_be_bytes(8 * x.len())
        .ok_or_else(|| Error::Encoding("private value x".into()))?;
    let x_der = Zeroizing::new(
        UintRef::new(&x)
            .and_then(|i| i.to_der())
            .map_err(encoding("private value x"))?,
    );
    let info = PrivateKeyInfo {
        algorithm: AlgorithmIdentifierRef {
            oid,
            parameters: Some(AnyRef::from_der(&params).map_err(encoding("parameters"))?),
        },
        private_key: &x_der,
        public_key: None,
    };
    SecretDocument::encode_msg(&info).map_err(encoding("PKCS#8"))
}

fn spki(oid: ObjectIdentifier, params: &[&Num], y: &Num) -> Result<Document> {
    let params = params_der(params)?;
    let y = y.to_be_bytes();
    let y_der = UintRef::new(&y)
        .and_then(|i| i.to_der())
        .map_err(encoding("public value y"))?;
    let info = SubjectPublicKeyInfoRef {
        algorithm: AlgorithmIdentifierRef {
            oid,
            parameters: Some(AnyRef::from_der(&params).map_err(encoding("parameters"))?),
        },
        subject_public_key: BitStringRef::from_bytes(&y_der).map_err(encoding("public key"))?,
    };
    Document::encode_msg(&info).map_err(encoding("SubjectPublicKeyInfo"))
}

/// Writers of both key kinds' files (the same four for each).
pub trait KeyFile {
    /// The PKCS#8 or SPKI document.
    fn document(&self) -> Result<SecretDocument>;
    /// Whether the document is a private key (its PEM label).
    fn is_private(&self) -> bool;

    /// DER.
    ///
    /// # Errors
    ///
    /// [`Error::Encoding`] if the encoder fails.
    fn to_der(&self) -> Result<Zeroizing<Vec<u8>>> {
        Ok(self.document()?.to_bytes())
    }

    /// PEM (`PRIVATE KEY` or `PUBLIC KEY`, LF line endings, 64 columns).
    ///
    /// # Errors
    ///
    /// [`Error::Encoding`] if the encoder fails.
    fn to_pem(&self) -> Result<Zeroizing<String>> {
        let label = if self.is_private() { "PRIVATE KEY" } else { "PUBLIC KEY" };
        self.document()?.to_pem(label, LineEnding::LF).map_err(encoding("PEM"))
    }
}

fn public_document(doc: &Document) -> Result<SecretDocument> {
    SecretDocument::try_from(doc.as_bytes()).map_err(encoding("SubjectPublicKeyInfo"))
}

impl KeyFile for DhPrivateKey {
    fn document(&self) -> Result<SecretDocument> {
        let params = self.group().params();
        pkcs8(DH_OID, &[params.p.n(), &params.g], self.exponent())
    }
    fn is_private(&self) -> bool {
        true
    }
}

impl KeyFile for DhPublicKey {
    fn document(&self) -> Result<SecretDocument> {
        let params = self.group().params();
        public_document(&spki(DH_OID, &[params.p.n(), &params.g], self.y())?)
    }
    fn is_private(&self) -> bool {
        false
    }
}

impl KeyFile for DsaPrivateKey {
    fn document(&self) -> Result<SecretDocument> {
        let p = self.params();
        pkcs8(DSA_OID, &[p.p(), p.q(), p.g()], self.exponent())
    }
    fn is_private(&self) -> bool {
        true
    }
}

impl KeyFile for DsaPublicKey {
    fn document(&self) -> Result<SecretDocument> {
        let p = self.params();
        public_document(&spki(DSA_OID, &[p.p(), p.q(), p.g()], self.y())?)
    }
    fn is_private(&self) -> bool {
        false
    }
}
