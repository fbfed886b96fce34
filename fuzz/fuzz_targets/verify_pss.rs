//! RSASSA-PSS verification (`RsaPublicKey::verify`, `verify_prehashed` with `Pss`,
//! `emsa_pss_verify`) against fixed keys, differentially against a
//! straightforward EMSA-PSS-VERIFY written from RFC 8017
//! (`redc_fuzz::reference::pss_verify`).
//!
//! Input: `[mode] [hash] [mgf] [salt] [em_bits: u16] [msg_len: u16] [msg]
//! [rest]`. `mode` bit 0: 0 verifies the signature `rest` under a key
//! (bit 1: the 1024-bit key or Wycheproof's 2048-bit key, the key of the
//! seeds' Wycheproof vectors), 1 runs `emsa_pss_verify` on `rest` as the
//! encoded message `EM` of `em_bits` bits (the decoder seen directly, past
//! RSA). `hash`/`mgf` index `HashAlg::ALL` (`mgf` >= 0x80: the same as
//! `hash`); `salt` 0xff: any salt length, else that length.
//!
//! Checks: no panic; the answer is the reference's (on `EM`, or on
//! `sig^e mod n`); `verify` equals `verify_prehashed` of the digest; a
//! signature valid with a given salt length is valid with `None`; only
//! SHAKE paired with anything but itself is `UnsupportedHash`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use redc_fuzz::{Input, public_key, reference};
use redc_rsa::padding::Pss;
use redc_rsa::{Error, hazmat, pss};

fuzz_target!(|data: &[u8]| {
    let mut input = Input(data);
    let mode = input.byte();
    let (h, mgf) = input.hash_pair();
    let salt = match input.byte() {
        0xff => None,
        s => Some(usize::from(s)),
    };
    let em_bits = usize::from(input.u16());
    let msg_len = usize::from(input.u16());
    let msg = input.take(msg_len);
    let rest = input.rest();
    let digest = h.digest(msg);
    let unsupported = (h.is_xof() || mgf.is_xof()) && h != mgf;

    if mode & 1 == 1 {
        let got = pss::emsa_pss_verify(h, mgf, &digest, rest, em_bits, salt);
        if unsupported {
            assert!(matches!(got, Err(Error::UnsupportedHash(..))), "{got:?}");
            return;
        }
        let want = reference::pss_verify(h, mgf, &digest, rest, em_bits, salt);
        assert_eq!(got.is_ok(), want, "emsa_pss_verify: {got:?}, reference: {want}");
        if !want {
            assert_eq!(got, Err(Error::Verification));
        }
        return;
    }

    let key = public_key(mode >> 1);
    let got = key.verify(
        Pss {
            hash: h,
            mgf_hash: mgf,
            salt_len: salt,
        },
        msg,
        rest,
    );
    assert_eq!(
        got,
        key.verify_prehashed(
            Pss {
                hash: h,
                mgf_hash: mgf,
                salt_len: salt
            },
            &digest,
            rest
        )
    );
    if unsupported {
        assert!(matches!(got, Err(Error::UnsupportedHash(..))), "{got:?}");
        return;
    }
    // The reference on sig^e mod n, when sig is a representative below n.
    let em_bits = key.bits() - 1;
    let want = rest.len() == key.size()
        && match hazmat::raw_public(key, rest) {
            // EM is the low emLen bytes; a set byte above them is invalid.
            Ok(m) => {
                let em_len = em_bits.div_ceil(8);
                let (high, em) = m.split_at(m.len() - em_len);
                high.iter().all(|&b| b == 0) && reference::pss_verify(h, mgf, &digest, em, em_bits, salt)
            }
            Err(_) => false,
        };
    assert_eq!(got.is_ok(), want, "verify: {got:?}, reference: {want}");
    if !want {
        assert_eq!(got, Err(Error::Verification));
    }
    if got.is_ok() && salt.is_some() {
        assert_eq!(
            key.verify(
                Pss {
                    hash: h,
                    mgf_hash: mgf,
                    salt_len: None
                },
                msg,
                rest
            ),
            Ok(())
        );
    }
});
