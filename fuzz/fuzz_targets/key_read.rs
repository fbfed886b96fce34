//! Key files of every format through the auto-detecting reader
//! `redc_rsa::read_key` (PEM by label, DER by trying each structure:
//! PKCS#8, PKCS#1 private, encrypted PKCS#8, SPKI, PKCS#1 public), without
//! a password and, for an encrypted key, with the fixed password.
//!
//! Checks: no panic; an encrypted key without a password is
//! `PasswordRequired`; every format-specific reader that accepts the input
//! agrees with `read_key` (same key); a key read is written back (PKCS#8
//! and PKCS#1, DER and PEM; SPKI for a public key) and read again as the same
//! key of the same algorithm (an RSASSA-PSS key keeps its parameters, and
//! PKCS#1, which cannot hold them, is refused for it).
#![no_main]

use libfuzzer_sys::fuzz_target;
use redc_fuzz::{PASSWORD, kdf_is_cheap, same_private};
use redc_rsa::{AnyKey, Error, RsaPrivateKey, RsaPublicKey, read_key};

fuzz_target!(|data: &[u8]| {
    let plain = read_key(data, None);
    let key = match plain {
        Err(Error::PasswordRequired) if kdf_is_cheap(data) => read_key(data, Some(PASSWORD)),
        other => other,
    };

    // The readers of one format each: whatever they accept, read_key reads alike.
    let text = std::str::from_utf8(data).ok();
    let agree_private = |r: Result<RsaPrivateKey, Error>, name: &str| {
        if let Ok(k) = r {
            match &key {
                Ok(AnyKey::Private(auto)) => assert!(same_private(auto, &k), "{name} and read_key differ"),
                other => panic!("{name} reads a private key, read_key gives {other:?}"),
            }
        }
    };
    let agree_public = |r: Result<RsaPublicKey, Error>, name: &str| {
        if let Ok(k) = r {
            match &key {
                Ok(AnyKey::Public(auto)) => assert_eq!(auto, &k, "{name} and read_key differ"),
                other => panic!("{name} reads a public key, read_key gives {other:?}"),
            }
        }
    };
    if data.first() == Some(&0x30) {
        agree_private(RsaPrivateKey::from_pkcs8_der(data), "from_pkcs8_der");
        agree_private(RsaPrivateKey::from_pkcs1_der(data), "from_pkcs1_der");
        agree_public(RsaPublicKey::from_spki_der(data), "from_spki_der");
        agree_public(RsaPublicKey::from_pkcs1_der(data), "RsaPublicKey::from_pkcs1_der");
    } else if let Some(text) = text {
        agree_private(RsaPrivateKey::from_pkcs8_pem(text), "from_pkcs8_pem");
        agree_private(RsaPrivateKey::from_pkcs1_pem(text), "from_pkcs1_pem");
        agree_public(RsaPublicKey::from_spki_pem(text), "from_spki_pem");
        agree_public(RsaPublicKey::from_pkcs1_pem(text), "RsaPublicKey::from_pkcs1_pem");
    }

    // Round trips of what was read.
    match key {
        Ok(AnyKey::Private(k)) => {
            let algorithm = k.public_key().algorithm();
            let again = |r: Result<RsaPrivateKey, Error>| {
                let r = r.expect("re-read");
                assert!(same_private(&k, &r));
                r
            };
            let back = again(RsaPrivateKey::from_pkcs8_der(&k.to_pkcs8_der().expect("to_pkcs8_der")));
            assert_eq!(
                back.public_key().algorithm(),
                algorithm,
                "PKCS#8 keeps the key's algorithm"
            );
            // PKCS#1 has no room for an RSASSA-PSS key's algorithm: refused.
            match k.to_pkcs1_pem() {
                Ok(pem) if !algorithm.is_pss() => {
                    again(RsaPrivateKey::from_pkcs1_pem(&pem));
                }
                Err(Error::Encoding(_)) if algorithm.is_pss() => {}
                other => panic!("to_pkcs1_pem of a key of {algorithm:?}: {:?}", other.map(|_| ())),
            }
            let pem = k.to_pkcs8_pem().expect("to_pkcs8_pem");
            match read_key(pem.as_bytes(), None) {
                Ok(AnyKey::Private(r)) => assert!(same_private(&k, &r)),
                other => panic!("written PKCS#8 PEM read back as {other:?}"),
            }
        }
        Ok(AnyKey::Public(k)) => {
            let back = RsaPublicKey::from_spki_der(&k.to_spki_der().expect("to_spki_der")).expect("re-read");
            assert_eq!(back, k);
            assert_eq!(back.algorithm(), k.algorithm(), "SPKI keeps the key's algorithm");
            match k.to_pkcs1_pem() {
                Ok(pem) if !k.algorithm().is_pss() => {
                    assert_eq!(RsaPublicKey::from_pkcs1_pem(&pem).as_ref(), Ok(&k));
                }
                Err(Error::Encoding(_)) if k.algorithm().is_pss() => {}
                other => panic!("to_pkcs1_pem of a key of {:?}: {other:?}", k.algorithm()),
            }
        }
        Err(_) => {}
    }
});
