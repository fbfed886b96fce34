//! A key file in one of this module's formats chosen by value (what a
//! front end's `--format` and `--outform` options select), instead of one
//! writer per format.

use super::encrypted::Pbes2Kdf;
use crate::error::{Error, Result};
use crate::key::{RsaPrivateKey, RsaPublicKey};
use rand_core::CryptoRngCore;
use zeroize::Zeroizing;

/// How a key file is encoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// DER bytes.
    Der,
    /// PEM text.
    Pem,
}

/// The format of a private key file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PrivateFormat {
    /// PKCS#8 (`PRIVATE KEY`, or `ENCRYPTED PRIVATE KEY` with a password).
    Pkcs8,
    /// PKCS#1 (`RSA PRIVATE KEY`); never encrypted.
    Pkcs1,
}

/// The format of a public key file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PublicFormat {
    /// SubjectPublicKeyInfo (`PUBLIC KEY`), as `openssl pkey -pubout`.
    Spki,
    /// PKCS#1 (`RSA PUBLIC KEY`).
    Pkcs1,
}

impl Form {
    /// Both, PEM first (as `openssl -outform` lists them).
    pub const ALL: [Form; 2] = [Form::Pem, Form::Der];

    /// The name options spell it with (`pem`, `der`).
    pub fn name(self) -> &'static str {
        match self {
            Form::Pem => "pem",
            Form::Der => "der",
        }
    }

    /// What the form is, in a few words.
    pub fn describe(self) -> &'static str {
        match self {
            Form::Pem => "PEM text",
            Form::Der => "DER bytes",
        }
    }
}

impl PrivateFormat {
    /// Both, PKCS#8 first.
    pub const ALL: [PrivateFormat; 2] = [PrivateFormat::Pkcs8, PrivateFormat::Pkcs1];

    /// The name options spell it with (`pkcs8`, `pkcs1`).
    pub fn name(self) -> &'static str {
        match self {
            PrivateFormat::Pkcs8 => "pkcs8",
            PrivateFormat::Pkcs1 => "pkcs1",
        }
    }

    /// What the format is, in a few words.
    pub fn describe(self) -> &'static str {
        match self {
            PrivateFormat::Pkcs8 => "PKCS#8 PEM (\"PRIVATE KEY\")",
            PrivateFormat::Pkcs1 => "PKCS#1 PEM (\"RSA PRIVATE KEY\")",
        }
    }
}

impl PublicFormat {
    /// Both, SubjectPublicKeyInfo first.
    pub const ALL: [PublicFormat; 2] = [PublicFormat::Spki, PublicFormat::Pkcs1];

    /// The name options spell it with (`spki`, `pkcs1`).
    pub fn name(self) -> &'static str {
        match self {
            PublicFormat::Spki => "spki",
            PublicFormat::Pkcs1 => "pkcs1",
        }
    }

    /// What the format is, in a few words.
    pub fn describe(self) -> &'static str {
        match self {
            PublicFormat::Spki => "SubjectPublicKeyInfo PEM (\"PUBLIC KEY\"), as `openssl pkey -pubout`",
            PublicFormat::Pkcs1 => "PKCS#1 PEM (\"RSA PUBLIC KEY\")",
        }
    }
}

impl RsaPrivateKey {
    /// The key file of this key: `format` in `form`, PKCS#8 encrypted
    /// with `password` and its KDF when given (`rng` draws the salt and
    /// IV; unused otherwise).
    ///
    /// # Errors
    ///
    /// [`Error::InvalidParameters`] for a password with PKCS#1 (which has
    /// no encrypted form), and the errors of the format's writer
    /// ([`RsaPrivateKey::to_pkcs8_encrypted_der`], ...).
    pub fn to_key_file(
        &self,
        format: PrivateFormat,
        form: Form,
        password: Option<(&[u8], Pbes2Kdf)>,
        rng: &mut impl CryptoRngCore,
    ) -> Result<Zeroizing<Vec<u8>>> {
        let text = |pem: Zeroizing<String>| Zeroizing::new(pem.as_bytes().to_vec());
        match (format, password, form) {
            (PrivateFormat::Pkcs8, Some((pw, kdf)), Form::Der) => {
                self.to_pkcs8_encrypted_der(pw, kdf, rng).map(Zeroizing::new)
            }
            (PrivateFormat::Pkcs8, Some((pw, kdf)), Form::Pem) => self
                .to_pkcs8_encrypted_pem(pw, kdf, rng)
                .map(|p| text(Zeroizing::new(p))),
            (PrivateFormat::Pkcs8, None, Form::Der) => self.to_pkcs8_der(),
            (PrivateFormat::Pkcs8, None, Form::Pem) => self.to_pkcs8_pem().map(text),
            (PrivateFormat::Pkcs1, Some(_), _) => {
                Err(Error::InvalidParameters("only PKCS#8 keys can be encrypted".into()))
            }
            (PrivateFormat::Pkcs1, None, Form::Der) => self.to_pkcs1_der(),
            (PrivateFormat::Pkcs1, None, Form::Pem) => self.to_pkcs1_pem().map(text),
        }
    }
}

impl RsaPublicKey {
    /// The key file of this key: `format` in `form`.
    ///
    /// # Errors
    ///
    /// The errors of the format's writer ([`RsaPublicKey::to_spki_der`],
    /// ...).
    pub fn to_key_file(&self, format: PublicFormat, form: Form) -> Result<Vec<u8>> {
        match (format, form) {
            (PublicFormat::Spki, Form::Der) => self.to_spki_der(),
            (PublicFormat::Spki, Form::Pem) => self.to_spki_pem().map(String::into_bytes),
            (PublicFormat::Pkcs1, Form::Der) => self.to_pkcs1_der(),
            (PublicFormat::Pkcs1, Form::Pem) => self.to_pkcs1_pem().map(String::into_bytes),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encoding::read_key;
    use rand_core::OsRng;

    #[test]
    fn every_format_reads_back() {
        let (key, _, _) = crate::test_key();
        let kdf = Pbes2Kdf::Pbkdf2Sha256 { iterations: 1000 };
        for form in [Form::Der, Form::Pem] {
            for (format, pw) in [
                (PrivateFormat::Pkcs8, None),
                (PrivateFormat::Pkcs8, Some((&b"pw"[..], kdf))),
                (PrivateFormat::Pkcs1, None),
            ] {
                let file = key.to_key_file(format, form, pw, &mut OsRng).unwrap();
                let read = read_key(&file, Some(b"pw")).unwrap();
                assert_eq!(read.public_key(), key.public_key());
                assert!(read.private_key().is_some());
            }
            for format in [PublicFormat::Spki, PublicFormat::Pkcs1] {
                let file = key.public_key().to_key_file(format, form).unwrap();
                assert!(read_key(&file, None).unwrap().private_key().is_none());
            }
        }
        let refused = key.to_key_file(PrivateFormat::Pkcs1, Form::Pem, Some((b"pw", kdf)), &mut OsRng);
        assert!(matches!(refused, Err(Error::InvalidParameters(_))));
    }
}
