//! The envelope's RSA recipients, as `redc encrypt` and `redc decrypt`
//! use them: the AES key wrapped with RSA-OAEP-SHA256 (MGF1-SHA256, empty
//! label, RFC 8017 §7.1), each entry under [`rsa_key_id`].

use super::{KEY_LEN, KeyId, Recipient, key_id_of};
use crate::error::Result;
use crate::hash::HashAlg;
use crate::key::{RsaPrivateKey, RsaPublicKey};
use crate::padding::Oaep;
use rand_core::OsRng;
use zeroize::Zeroizing;

/// The key id of `key`: SHA-256 of its DER SubjectPublicKeyInfo
/// ([`key_id_of`]; `openssl pkey -pubout -outform DER | sha256sum`).
///
/// # Errors
///
/// As [`RsaPublicKey::to_spki_der`].
pub fn rsa_key_id(key: &RsaPublicKey) -> Result<KeyId> {
    Ok(key_id_of(&key.to_spki_der()?))
}

impl<'a> Recipient<'a> {
    /// `key` as a recipient of [`super::seal_for`]: its [`rsa_key_id`],
    /// and the AES key wrapped with RSA-OAEP-SHA256 (the seed from the
    /// operating system's generator).
    ///
    /// # Errors
    ///
    /// As [`rsa_key_id`].
    pub fn rsa(key: &'a RsaPublicKey) -> Result<Self> {
        Ok(Recipient {
            id: rsa_key_id(key)?,
            wrap: Box::new(move |k: &[u8; KEY_LEN]| key.encrypt(Oaep::new(HashAlg::Sha256), k, &mut OsRng)),
        })
    }
}

/// The unwrapping of [`Recipient::rsa`]'s entries for [`super::open_as`]:
/// RSA-OAEP-SHA256 decryption with `key` (blinded with the operating
/// system's generator).
pub fn rsa_unwrap(key: &RsaPrivateKey) -> impl FnMut(&[u8]) -> Result<Zeroizing<Vec<u8>>> + '_ {
    move |wrapped| key.decrypt(Oaep::new(HashAlg::Sha256), wrapped, &mut OsRng)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::envelope::{open_as, seal_for};

    #[test]
    fn seals_and_opens_for_an_rsa_key() {
        let (key, _, _) = crate::test_key();
        let recipient = Recipient::rsa(key.public_key()).unwrap();
        assert_eq!(recipient.id, rsa_key_id(key.public_key()).unwrap());
        let mut sealed = Vec::new();
        seal_for(&b"message"[..], &mut sealed, &[recipient], &mut OsRng, &mut |_| {}).unwrap();
        let mut opened = Vec::new();
        let id = rsa_key_id(key.public_key()).unwrap();
        open_as(&sealed[..], &mut opened, &id, rsa_unwrap(&key), &mut |_| {}).unwrap();
        assert_eq!(opened, b"message");
    }
}
