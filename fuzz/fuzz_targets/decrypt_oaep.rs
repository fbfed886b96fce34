//! RSAES-OAEP decryption (`RsaPrivateKey::decrypt` with `Oaep`, `eme_decode`) with
//! fixed keys, differentially against EME-OAEP decoding written from
//! RFC 8017 (`redc_fuzz::reference::oaep_decode`).
//!
//! Input: `[mode] [hash] [mgf] [label_len] [label] [rest]`. `mode` bit 0
//! picks the key (the 1024-bit key, or Wycheproof's 2048-bit key, the key of
//! the seeds' Wycheproof OAEP vectors); bits 1–2: 0 `rest` is the
//! ciphertext, 1 `rest` is the encoded message `EM` (its ciphertext is made
//! with the public key, so the fuzzer shapes the padding itself), 2
//! `eme_decode` on `rest` alone (any length, no RSA). `hash`/`mgf` index
//! `HashAlg::ALL` (`mgf` >= 0x80: the same as `hash`).
//!
//! Checks: no panic; SHAKE is `UnsupportedHash`; every other failure is the
//! single `Decryption`; the answer is the reference's on `c^d mod n` (or
//! on `EM`); a decrypted message is at most `k - 2·hLen - 2` bytes, and
//! re-encrypted it decrypts to itself; two decryptions (other blinding)
//! agree.
#![no_main]

use libfuzzer_sys::fuzz_target;
use redc_fuzz::{Input, encrypt_em, private_key, reference, rng};
use redc_rsa::padding::Oaep;
use redc_rsa::{Error, hazmat, oaep};

fuzz_target!(|data: &[u8]| {
    let mut input = Input(data);
    let mode = input.byte();
    let (h, mgf) = input.hash_pair();
    let label = input.prefixed();
    let rest = input.rest();
    let shake = h.is_xof() || mgf.is_xof();

    if (mode >> 1) & 3 == 2 {
        let got = oaep::eme_decode(h, mgf, label, rest);
        if shake {
            assert!(matches!(got, Err(Error::UnsupportedHash(..))), "{got:?}");
            return;
        }
        let want = reference::oaep_decode(h, mgf, label, rest);
        assert_eq!(got.as_ref().ok().map(|m| m.to_vec()), want, "eme_decode: {got:?}");
        if want.is_none() {
            assert_eq!(got, Err(Error::Decryption));
        }
        return;
    }

    let key = private_key(mode);
    let public = key.public_key();
    let k = public.size();
    let ct = if (mode >> 1) & 3 == 1 {
        // rest as EM: k bytes below n, else nothing to decrypt.
        match encrypt_em(public, rest) {
            Some(ct) => ct,
            None => return,
        }
    } else {
        rest.to_vec()
    };

    let got = key.decrypt(
        Oaep {
            hash: h,
            mgf_hash: mgf,
            label: <[u8]>::to_vec(label),
        },
        &ct,
        &mut rng(1),
    );
    if shake {
        assert!(matches!(got, Err(Error::UnsupportedHash(..))), "{got:?}");
        return;
    }
    let again = key.decrypt(
        Oaep {
            hash: h,
            mgf_hash: mgf,
            label: <[u8]>::to_vec(label),
        },
        &ct,
        &mut rng(2),
    );
    assert_eq!(got, again, "two decryptions differ");
    let em = if ct.len() == k {
        hazmat::raw_private(key, &ct, &mut rng(3)).ok()
    } else {
        None
    };
    let want = em.and_then(|em| reference::oaep_decode(h, mgf, label, &em));
    assert_eq!(got.as_ref().ok().map(|m| m.to_vec()), want, "decrypt: {got:?}");
    match got {
        Err(e) => assert_eq!(e, Error::Decryption),
        Ok(msg) => {
            assert!(msg.len() + 2 * h.output_len() + 2 <= k);
            let ct2 = public
                .encrypt(
                    Oaep {
                        hash: h,
                        mgf_hash: mgf,
                        label: <[u8]>::to_vec(label),
                    },
                    &msg,
                    &mut rng(4),
                )
                .expect("re-encrypt");
            let back = key
                .decrypt(
                    Oaep {
                        hash: h,
                        mgf_hash: mgf,
                        label: <[u8]>::to_vec(label),
                    },
                    &ct2,
                    &mut rng(5),
                )
                .map(|m| m.to_vec());
            assert_eq!(back, Ok(msg.to_vec()));
        }
    }
});
