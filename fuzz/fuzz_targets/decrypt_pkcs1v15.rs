//! RSAES-PKCS1-v1_5 decryption with implicit rejection
//! (`RsaPrivateKey::decrypt` with `Pkcs1v15Encrypt`) and with explicit rejection
//! (`redc_rsa::hazmat::pkcs1v15_decrypt_explicit`) under fixed keys,
//! differentially against EME-PKCS1-v1_5 decoding written from RFC 8017
//! (`redc_fuzz::reference::pkcs1v15_decode`).
//!
//! Input: `[mode] [rest]`. `mode` bit 0 picks the key (the 1024-bit key, or
//! Wycheproof's 2048-bit key); bit 1: 0 `rest` is the ciphertext, 1 `rest`
//! is the encoded message `EM` (its ciphertext is made with the public key,
//! so the fuzzer shapes the padding itself).
//!
//! Checks: no panic; a ciphertext of the wrong length or not below `n` is
//! `Decryption` for both; otherwise implicit rejection always answers, the
//! same bytes for the same ciphertext whatever the blinding (two
//! generators), at most `k - 11` bytes; where the reference finds a valid
//! padding both answer its message, elsewhere the explicit one refuses.
#![no_main]

use libfuzzer_sys::fuzz_target;
use redc_fuzz::{Input, encrypt_em, private_key, reference, rng};
use redc_rsa::padding::Pkcs1v15Encrypt;
use redc_rsa::{Error, hazmat};

fuzz_target!(|data: &[u8]| {
    let mut input = Input(data);
    let mode = input.byte();
    let rest = input.rest();
    let key = private_key(mode);
    let public = key.public_key();
    let k = public.size();
    let ct = if mode & 2 != 0 {
        match encrypt_em(public, rest) {
            Some(ct) => ct,
            None => return,
        }
    } else {
        rest.to_vec()
    };

    let implicit = key.decrypt(Pkcs1v15Encrypt, &ct, &mut rng(1));
    let explicit = hazmat::pkcs1v15_decrypt_explicit(key, &ct, &mut rng(2));
    let em = if ct.len() == k {
        hazmat::raw_private(key, &ct, &mut rng(3)).ok()
    } else {
        None
    };
    let Some(em) = em else {
        assert_eq!(implicit, Err(Error::Decryption));
        assert_eq!(explicit, Err(Error::Decryption));
        return;
    };
    let implicit = implicit.expect("implicit rejection answers every ciphertext below n");
    assert!(implicit.len() <= k - 11, "{} bytes", implicit.len());
    let again = key
        .decrypt(Pkcs1v15Encrypt, &ct, &mut rng(4))
        .expect("second decryption");
    assert_eq!(implicit, again, "implicit rejection is not deterministic");
    match reference::pkcs1v15_decode(&em) {
        Some(msg) => {
            assert_eq!(&implicit[..], &msg[..]);
            assert_eq!(explicit.map(|m| m.to_vec()), Ok(msg));
        }
        None => assert_eq!(explicit, Err(Error::Decryption)),
    }
});
