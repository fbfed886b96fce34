//! Encrypted PKCS#8 (`ENCRYPTED PRIVATE KEY`, PBES2 with PBKDF2 or scrypt
//! and AES-CBC) through `RsaPrivateKey::from_pkcs8_encrypted_der` and
//! `from_pkcs8_encrypted_pem` with the fixed password, and through
//! `read_key`.
//!
//! Inputs whose KDF asks for more than `FUZZ_MAX_PBKDF2_ITERATIONS` or
//! `FUZZ_MAX_SCRYPT_WORK` are skipped (the library's own bounds allow
//! seconds of work per key; see `kdf_is_cheap`).
//!
//! Checks: no panic; the specific reader and `read_key` agree; a key read
//! is re-encrypted (PBKDF2, one iteration, another password) and opens again
//! as the same key with that password only.
#![no_main]

use libfuzzer_sys::fuzz_target;
use redc_fuzz::{PASSWORD, kdf_is_cheap, rng, same_private};
use redc_rsa::{AnyKey, Pbes2Kdf, RsaPrivateKey, read_key};

fuzz_target!(|data: &[u8]| {
    if !kdf_is_cheap(data) {
        return;
    }
    let specific = if data.first() == Some(&0x30) {
        RsaPrivateKey::from_pkcs8_encrypted_der(data, PASSWORD)
    } else {
        match std::str::from_utf8(data) {
            Ok(text) => RsaPrivateKey::from_pkcs8_encrypted_pem(text, PASSWORD),
            Err(_) => return,
        }
    };
    let auto = read_key(data, Some(PASSWORD));
    if let Ok(k) = &specific {
        match &auto {
            Ok(AnyKey::Private(a)) => assert!(same_private(a, k), "read_key and the encrypted reader differ"),
            other => panic!("the encrypted reader opens a key, read_key gives {other:?}"),
        }
        // Re-encrypted with a cheap KDF, it opens again.
        let der = k
            .to_pkcs8_encrypted_der(b"other", Pbes2Kdf::Pbkdf2Sha256 { iterations: 1 }, &mut rng(1))
            .expect("to_pkcs8_encrypted_der");
        let again = RsaPrivateKey::from_pkcs8_encrypted_der(&der, b"other").expect("re-read");
        assert!(same_private(k, &again));
        assert!(RsaPrivateKey::from_pkcs8_encrypted_der(&der, PASSWORD).is_err());
    }
    let _ = RsaPrivateKey::from_pkcs8_encrypted_der(data, b"wrong password");
});
