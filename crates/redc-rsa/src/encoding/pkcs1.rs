//! PKCS#1 keys (RFC 8017 A.1.1 `RSAPublicKey`, A.1.2 `RSAPrivateKey`),
//! PEM labels `RSA PUBLIC KEY` and `RSA PRIVATE KEY`: multi-prime keys with
//! their `otherPrimeInfos` (version 1 when there are more than two primes).
//! Every private key read is checked: the CRT values the file carries must
//! equal the values recomputed from `d` and the primes (compared in
//! constant time). The PKCS#1 key inside PKCS#8 and SPKI is read and
//! written here too.

use super::der_errors::{decoding, encoding};
use super::pem::{decode_pem_labelled, pem_string, secret_pem};
use super::{PEM_LABEL_PKCS1_PRIVATE, PEM_LABEL_PKCS1_PUBLIC};
use crate::error::{Error, Result};
use crate::pss_key::KeyAlgorithm;
use crate::{Num, RsaPrivateKey, RsaPublicKey};
use der::asn1::UintRef;
use der::{Decode, Document, SecretDocument};
use pkcs1::OtherPrimeInfo;
use redc::SecretNat;
use subtle::ConstantTimeEq;
use zeroize::Zeroizing;

/// Most primes a key file may carry (OpenSSL allows 5).
const MAX_PRIMES: usize = 16;

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
}

impl RsaPublicKey {
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

pub(super) fn private_from_pkcs1_der(der: &[u8]) -> Result<RsaPrivateKey> {
    let key = pkcs1::RsaPrivateKey::from_der(der).map_err(|e| decoding("PKCS#1 RSAPrivateKey", der, e))?;
    private_from_pkcs1(&key)
}

pub(super) fn public_from_pkcs1_der(der: &[u8]) -> Result<RsaPublicKey> {
    let key = pkcs1::RsaPublicKey::from_der(der).map_err(|e| decoding("PKCS#1 RSAPublicKey", der, e))?;
    public_from_pkcs1(&key)
}

/// The file's CRT value must equal ours (constant-time comparison of the
/// minimal big-endian bytes).
pub(super) fn check_crt_value(file: &UintRef<'_>, computed: &SecretNat, what: &str) -> Result<()> {
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
pub(super) fn private_from_pkcs1(k: &pkcs1::RsaPrivateKey<'_>) -> Result<RsaPrivateKey> {
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

pub(super) fn public_from_pkcs1(k: &pkcs1::RsaPublicKey<'_>) -> Result<RsaPublicKey> {
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

/// PKCS#1 has no room for the key's algorithm: an RSASSA-PSS key is
/// written as PKCS#8 or SPKI only.
pub(super) fn pkcs1_holds(algorithm: KeyAlgorithm) -> Result<()> {
    if algorithm.is_pss() {
        return Err(Error::Encoding(
            "an RSASSA-PSS key cannot be written as PKCS#1 (which cannot say it is one): write PKCS#8 or SPKI".into(),
        ));
    }
    Ok(())
}

pub(super) fn uint(bytes: &[u8]) -> Result<UintRef<'_>> {
    UintRef::new(bytes).map_err(|e| encoding("INTEGER", e))
}

pub(super) fn pkcs1_private_doc(key: &RsaPrivateKey) -> Result<SecretDocument> {
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

pub(super) fn pkcs1_public_doc(key: &RsaPublicKey) -> Result<Document> {
    let (n, e) = (key.n().to_be_bytes(), key.e().to_be_bytes());
    let doc = pkcs1::RsaPublicKey {
        modulus: uint(&n)?,
        public_exponent: uint(&e)?,
    };
    Document::encode_msg(&doc).map_err(|e| encoding("PKCS#1 RSAPublicKey", e))
}
