//! Diffie-Hellman and DSA key files and DSA signatures through redc-ffc's
//! readers: `key_kind` and `read_key` (PEM by label, DER as PKCS#8 then
//! SPKI, a DH key only of a named group), `Signature::from_der` and
//! `from_p1363`.
//!
//! Checks: no panic; a key read is written back (DER and PEM) and read
//! again as the same key, and `key_kind` names its kind; a DER signature
//! read goes through its P1363 form unchanged; a P1363 signature
//! round-trips at its length.
#![no_main]

use libfuzzer_sys::fuzz_target;
use redc_ffc::dsa::Signature;
use redc_ffc::encoding::{KeyFile, KeyKind, key_kind};
use redc_ffc::{AnyKey, read_key};

/// `key` written as DER and as PEM, each read back.
fn again(key: &impl KeyFile) -> [AnyKey; 2] {
    let der = key.to_der().expect("to_der");
    let pem = key.to_pem().expect("to_pem");
    [
        read_key(&der).expect("DER read back"),
        read_key(pem.as_bytes()).expect("PEM read back"),
    ]
}

fuzz_target!(|data: &[u8]| {
    let kind = key_kind(data);
    match read_key(data) {
        Ok(AnyKey::DhPrivate(k)) => {
            assert_eq!(kind, Some(KeyKind::Dh));
            for back in again(&k) {
                let AnyKey::DhPrivate(b) = back else {
                    panic!("a DH private key read back as another kind")
                };
                assert_eq!(b.public_key(), k.public_key());
            }
        }
        Ok(AnyKey::DhPublic(k)) => {
            assert_eq!(kind, Some(KeyKind::Dh));
            for back in again(&k) {
                assert!(matches!(back, AnyKey::DhPublic(b) if b == k));
            }
        }
        Ok(AnyKey::DsaPrivate(k)) => {
            assert_eq!(kind, Some(KeyKind::Dsa));
            for back in again(&k) {
                let AnyKey::DsaPrivate(b) = back else {
                    panic!("a DSA private key read back as another kind")
                };
                assert!(b.same_secret(&k));
            }
        }
        Ok(AnyKey::DsaPublic(k)) => {
            assert_eq!(kind, Some(KeyKind::Dsa));
            for back in again(&k) {
                assert!(matches!(back, AnyKey::DsaPublic(b) if b == k));
            }
        }
        Err(_) => {}
    }
    if let Ok(sig) = Signature::from_der(data) {
        // Its P1363 form reads back as the same (r, s).
        let len = sig.r.bits().max(sig.s.bits()).div_ceil(8).max(1);
        let p1363 = sig.to_p1363(len).expect("to_p1363");
        assert_eq!(Signature::from_p1363(&p1363, len).expect("from_p1363"), sig);
    }
    for q_len in [20, 28, 32] {
        if let Ok(sig) = Signature::from_p1363(data, q_len) {
            assert_eq!(sig.to_p1363(q_len).expect("to_p1363"), data);
        }
    }
});
