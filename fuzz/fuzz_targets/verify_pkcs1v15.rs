//! RSASSA-PKCS1-v1_5 verification (`RsaPublicKey::verify` with `Pkcs1v15Sign`,
//! `verify_prehashed`) against fixed keys, and the encoding `emsa_encode`,
//! differentially against EMSA-PKCS1-v1_5-ENCODE written from RFC 8017 with
//! its own DigestInfo table (`redc_fuzz::reference`).
//!
//! Input: `[mode] [hash] [em_len: u16] [msg_len: u16] [msg] [sig]`. `mode`
//! bit 0 picks the key (the 1024-bit key, or Wycheproof's 2048-bit key, the
//! key of the seeds' Wycheproof vectors); `hash` indexes `HashAlg::ALL`.
//!
//! Checks: no panic; `emsa_encode` for `em_len` equals the reference's;
//! `verify` equals `verify_prehashed` of the digest; a signature verifies
//! exactly when `sig` is `k` bytes and `sig^e mod n` is the reference
//! encoding; every failure is `Verification` (or `UnsupportedHash` for
//! SHAKE).
#![no_main]

use libfuzzer_sys::fuzz_target;
use redc_fuzz::{Input, hash, public_key, reference};
use redc_rsa::padding::Pkcs1v15Sign;
use redc_rsa::{Error, hazmat, pkcs1v15};

fuzz_target!(|data: &[u8]| {
    let mut input = Input(data);
    let mode = input.byte();
    let h = hash(input.byte());
    let em_len = usize::from(input.u16());
    let msg_len = usize::from(input.u16());
    let msg = input.take(msg_len);
    let sig = input.rest();
    let digest = h.digest(msg);

    let encoded = pkcs1v15::emsa_encode(h, &digest, em_len);
    match reference::pkcs1v15_encode(h, &digest, em_len) {
        Some(em) => assert_eq!(encoded.as_deref(), Ok(&em[..])),
        None if h.is_xof() => assert!(matches!(encoded, Err(Error::UnsupportedHash(..))), "{encoded:?}"),
        None => assert_eq!(encoded, Err(Error::KeyTooSmall)),
    }

    let key = public_key(mode);
    let got = key.verify(Pkcs1v15Sign::new(h), msg, sig);
    assert_eq!(got, key.verify_prehashed(Pkcs1v15Sign::new(h), &digest, sig));
    if h.is_xof() {
        assert!(matches!(got, Err(Error::UnsupportedHash(..))), "{got:?}");
        return;
    }
    let want = sig.len() == key.size()
        && hazmat::raw_public(key, sig).is_ok_and(|m| Some(m) == reference::pkcs1v15_encode(h, &digest, key.size()));
    assert_eq!(got.is_ok(), want, "verify: {got:?}, reference: {want}");
    if !want {
        assert_eq!(got, Err(Error::Verification));
    }
});
