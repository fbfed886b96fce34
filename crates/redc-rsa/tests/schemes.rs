//! The schemes on fixed keys: RSASSA-PSS with SHAKE128 against Wycheproof's
//! RFC 8702 vectors; property tests for round trips (OAEP, PKCS#1 v1.5
//! encryption and signatures, PSS with every hash, raw RSA with every CRT
//! mode); and malformed inputs — random, truncated and extended
//! ciphertexts and signatures — giving errors, never panics.
//!
//! Keys: a 1024-bit key (fast) and the 2049-bit key of
//! draft-irtf-cfrg-rsa-guidance (a modulus of `1 mod 8` bits, where the PSS
//! encoding is one byte shorter than the modulus).

mod scheme_support;

use proptest::prelude::*;
use rand_core::OsRng;
use redc_rsa::hazmat::CrtMode;
use redc_rsa::padding::{Oaep, Pkcs1v15Encrypt, Pkcs1v15Sign, Pss};
use redc_rsa::policy::SecurityLevel;
use redc_rsa::{Error, HashAlg, RsaPrivateKey, RsaPublicKey, hazmat};
use scheme_support::{DRAFT_K2049, K1024, hex, num};
use std::sync::OnceLock;

fn keys() -> &'static [RsaPrivateKey; 2] {
    static KEYS: OnceLock<[RsaPrivateKey; 2]> = OnceLock::new();
    KEYS.get_or_init(|| [K1024.key(), DRAFT_K2049.key()])
}

/// Hashes that fit OAEP on the 1024-bit key (`2·hLen + 2 <= 128`).
const OAEP_HASHES: [HashAlg; 8] = [
    HashAlg::Sha1,
    HashAlg::Sha224,
    HashAlg::Sha256,
    HashAlg::Sha384,
    HashAlg::Sha512_256,
    HashAlg::Sha3_224,
    HashAlg::Sha3_256,
    HashAlg::Sha3_384,
];

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 24,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

// ---------------------------------------------------------------------------
// Known answers: RSASSA-PSS with SHAKE128 (RFC 8702), Wycheproof
// rsa_pss_2048_shake128_test.json, tcId 1, 3 and 7 (sLen 32).

const SHAKE_N: &str = concat!(
    "00ac7ae7bde0bc9067fff5d5b4229350f8f6a1b285cda38b86ab61a54b02350889de49ff3ae1e243d380d4349ee3df25",
    "05d6041938fc270f8dcc265c5d022e3610d5f06ea2247e634b08d7aa3e24a347f6d61c127813e0302a5727c10292afa8",
    "3b9775e5ba26d6b7ae217d05c469d193376d70ee92ff40f8424baaa4ded3814ac523016d8c7d7ccd1eec17459f3d2449",
    "f4cbfae3f2d51e506827282bde589a52e66320f54ca930a21f6aa7e3b0bc531ad1b568d7e32c0afed523ca6da62e5f22",
    "fed6f7ee722974b5f70aad710dcb14fa7a3c561b3d4c8696a455abe4cb9b351a6c0b6e478c60a81f02fb3a285245ebfe",
    "93221e36ad8787b3e7f3099d7c23225641",
);

const SHAKE_CASES: [(&str, &str); 3] = [
    (
        "",
        concat!(
            "52a8d6268ccd58630f277cda433a8f28b73b91f9040df0831bf9f6df069320fc49e655cb551f3d0604a033254b268f63",
            "77a9b576f3eaa981daad23d4580cf05688c42b64e1fa671cc79348231274cbdfaa493cb3c3824304324d77920e48e3fc",
            "5fa7da8ef3c99de7006112ea02b471c8adad0f9e9b06d536ac0f345335b462d6bcfcdf1711a5f31d46508e226ea9d663",
            "b618046c91d3004a74480fd6fe1808561a709362cf74e8de3d964142186f6e8ba736fb8a1c7eba6d7c2b92cab9e3aab8",
            "5af28fb4d95573525eaccf581d5e82b7b967309bfd1a6ea36849cdb8f79d41e89ff4f8b59059ab6d30a518ec29387327",
            "370a81e440f054f27d7ccd7d0dcc86e5",
        ),
    ),
    (
        "54657374",
        concat!(
            "62f31cf2a408ddae7a46914951080377319f310df9930d41566926a7aaa8938fcf3e91852abd12897aef378a13ad670b",
            "93ec13d5ace695377f3cf83d95d10375a6c14ffaf1ae6459cd381da1be9571a1de6e8e32dd741cb10d692ef0caaaa477",
            "70b86ca05a2cf251d203aeaa048dbedc7d99e6e4c5a51e8b820d9df7b904834aef30190e9e36630794b687147a000167",
            "f599f902a22568fdb556518090f3e671734ec87874759e3efbf25b31582ef6b8cc687addea20c85917a941e59118b1e9",
            "d847129fc6c2e071a6ef1a282e7b99d991208c6c127b87cc263af8c4942ead189f30c446a48161c465e71714265b4058",
            "c4a7410a589c89fd8e1ef821528e18c2",
        ),
    ),
    (
        "e0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff",
        concat!(
            "9f017bbffae27064f82c97a9c88cf60beb82ea03000aacab495ae5c72f4e85cd21876b87ec14d20015f6d74db5e3d03c",
            "0b45d0defa84959a6ea3021b677745f725ff322eb83c6fc752a90e8ea48487ad1e3ca076bc7bf33370879642dd701c21",
            "241818a0969a76c4bd123200a1d3e4e72666fa391929c6c3e6adfd9820a9d781026af685a9bba6e74fb70df314a2efed",
            "a11f554b00ac728e4da2be3df96620b27e10cbd712ec1d1e5e348e7a5cd1a27d4820403e27a2d4c4f5a366e591824dbc",
            "1bf48d59b956db1cdd643d2062c5245e8576ff0bca881a4233ac18d19d631ba824004021eaf74f8b7d4a6d819884f4b8",
            "57e8555b29d3cc9cb8e55019a840b099",
        ),
    ),
];

#[test]
fn pss_shake128_wycheproof() {
    let key = RsaPublicKey::new(num(SHAKE_N), num("010001"))
        .unwrap()
        .with_security_level(SecurityLevel::NONE);
    let sh = HashAlg::Shake128;
    for (msg, sig) in SHAKE_CASES {
        let (msg, sig) = (hex(msg), hex(sig));
        assert_eq!(
            key.verify(
                Pss {
                    hash: sh,
                    mgf_hash: sh,
                    salt_len: Some(32)
                },
                &msg,
                &sig
            ),
            Ok(())
        );
        assert_eq!(
            key.verify(
                Pss {
                    hash: sh,
                    mgf_hash: sh,
                    salt_len: None
                },
                &msg,
                &sig
            ),
            Ok(())
        );
        assert_eq!(
            key.verify(
                Pss {
                    hash: sh,
                    mgf_hash: sh,
                    salt_len: Some(31)
                },
                &msg,
                &sig
            ),
            Err(Error::Verification)
        );
        assert_eq!(
            key.verify(
                Pss {
                    hash: HashAlg::Shake256,
                    mgf_hash: HashAlg::Shake256,
                    salt_len: None
                },
                &msg,
                &sig
            ),
            Err(Error::Verification)
        );
        assert!(matches!(
            key.verify(
                Pss {
                    hash: sh,
                    mgf_hash: HashAlg::Sha256,
                    salt_len: None
                },
                &msg,
                &sig
            ),
            Err(Error::UnsupportedHash(..))
        ));
    }
}

#[test]
fn shake_is_pss_only() {
    let key = &keys()[1];
    for h in [HashAlg::Shake128, HashAlg::Shake256] {
        assert!(matches!(
            key.public_key().encrypt(
                Oaep {
                    hash: h,
                    mgf_hash: h,
                    label: <[u8]>::to_vec(b"")
                },
                b"x",
                &mut OsRng
            ),
            Err(Error::UnsupportedHash(..))
        ));
        assert!(matches!(
            key.decrypt(
                Oaep {
                    hash: HashAlg::Sha256,
                    mgf_hash: h,
                    label: <[u8]>::to_vec(b"")
                },
                &[0; 257],
                &mut OsRng
            ),
            Err(Error::UnsupportedHash(..))
        ));
        assert!(matches!(
            key.sign(Pkcs1v15Sign::new(h), b"x", &mut OsRng),
            Err(Error::UnsupportedHash(..))
        ));
        // RFC 8702: SHAKE hash, SHAKE mask, 32/64-byte digest; salt default hLen.
        let sig = key
            .sign(
                Pss {
                    hash: h,
                    mgf_hash: h,
                    salt_len: None,
                },
                b"msg",
                &mut OsRng,
            )
            .unwrap();
        assert_eq!(
            key.public_key().verify(
                Pss {
                    hash: h,
                    mgf_hash: h,
                    salt_len: Some(h.output_len())
                },
                b"msg",
                &sig
            ),
            Ok(())
        );
    }
}

#[test]
fn size_limits() {
    let key = &keys()[0]; // k = 128
    let public = key.public_key();
    assert_eq!(
        public.encrypt(
            Oaep {
                hash: HashAlg::Sha512,
                mgf_hash: HashAlg::Sha512,
                label: <[u8]>::to_vec(b"")
            },
            b"",
            &mut OsRng
        ),
        Err(Error::KeyTooSmall)
    );
    assert_eq!(
        public.encrypt(
            Oaep {
                hash: HashAlg::Sha256,
                mgf_hash: HashAlg::Sha256,
                label: <[u8]>::to_vec(b"")
            },
            &[0; 63],
            &mut OsRng
        ),
        Err(Error::MessageTooLong { len: 63, max: 62 })
    );
    assert_eq!(
        public.encrypt(Pkcs1v15Encrypt, &[0; 118], &mut OsRng),
        Err(Error::MessageTooLong { len: 118, max: 117 })
    );
    assert!(public.encrypt(Pkcs1v15Encrypt, &[0; 117], &mut OsRng).is_ok());
    // PSS: emLen = 128 (1023 bits); SHA-512 with a 63-byte salt is too much.
    assert_eq!(
        key.sign(
            Pss {
                hash: HashAlg::Sha512,
                mgf_hash: HashAlg::Sha512,
                salt_len: Some(63)
            },
            b"",
            &mut OsRng
        ),
        Err(Error::KeyTooSmall)
    );
    assert!(
        key.sign(
            Pss {
                hash: HashAlg::Sha512,
                mgf_hash: HashAlg::Sha512,
                salt_len: Some(62)
            },
            b"",
            &mut OsRng
        )
        .is_ok()
    );
    // Prehash variants check the digest length.
    assert!(matches!(
        key.sign_prehashed(Pkcs1v15Sign::new(HashAlg::Sha256), &[0; 20], &mut OsRng),
        Err(Error::InvalidParameters(_))
    ));
    assert!(matches!(
        public.verify_prehashed(
            Pss {
                hash: HashAlg::Sha256,
                mgf_hash: HashAlg::Sha256,
                salt_len: None
            },
            &[0; 33],
            &[0; 128]
        ),
        Err(Error::InvalidParameters(_))
    ));
}

#[test]
fn prehash_matches_message_api() {
    let key = &keys()[1];
    for hash in [HashAlg::Sha256, HashAlg::Sha3_512, HashAlg::Sha512_224] {
        let digest = hash.digest(b"prehashed");
        let sig = key
            .sign_prehashed(Pkcs1v15Sign::new(hash), &digest, &mut OsRng)
            .unwrap();
        assert_eq!(
            sig,
            key.sign(Pkcs1v15Sign::new(hash), b"prehashed", &mut OsRng).unwrap()
        );
        assert_eq!(
            key.public_key().verify(Pkcs1v15Sign::new(hash), b"prehashed", &sig),
            Ok(())
        );
        assert_eq!(
            key.public_key()
                .verify_prehashed(Pkcs1v15Sign::new(hash), &digest, &sig),
            Ok(())
        );
        let sig = key
            .sign_prehashed(
                Pss {
                    hash,
                    mgf_hash: hash,
                    salt_len: None,
                },
                &digest,
                &mut OsRng,
            )
            .unwrap();
        assert_eq!(
            key.public_key().verify(
                Pss {
                    hash,
                    mgf_hash: hash,
                    salt_len: None
                },
                b"prehashed",
                &sig
            ),
            Ok(())
        );
        assert_eq!(
            key.public_key().verify_prehashed(
                Pss {
                    hash,
                    mgf_hash: hash,
                    salt_len: None
                },
                &digest,
                &sig
            ),
            Ok(())
        );
    }
}

#[test]
fn raw_rsa_crt_modes_agree() {
    for key in keys() {
        let k = key.public_key().size();
        let x = vec![0x5a; k - 1];
        let c = hazmat::raw_public(key.public_key(), &x).unwrap();
        assert_eq!(c.len(), k);
        for mode in [CrtMode::Garner, CrtMode::Fdfm, CrtMode::Plain] {
            let m = hazmat::raw_private_with(key, &c, mode, &mut OsRng).unwrap();
            assert_eq!(m[1..], x[..], "{mode:?}");
            assert_eq!(m[0], 0);
        }
        let n = key.public_key().n().to_be_bytes_padded(k).unwrap();
        assert_eq!(hazmat::raw_public(key.public_key(), &n), Err(Error::OutOfRange));
        assert_eq!(hazmat::raw_private(key, &n, &mut OsRng), Err(Error::OutOfRange));
        assert_eq!(
            hazmat::raw_public(key.public_key(), &vec![0; k + 1]),
            Err(Error::MessageTooLong { len: k + 1, max: k })
        );
    }
}

// ---------------------------------------------------------------------------
// Round trips.

proptest! {
    #![proptest_config(config())]

    #[test]
    fn oaep_round_trip(
        key_idx in 0..2usize,
        h in 0..OAEP_HASHES.len(),
        g in 0..OAEP_HASHES.len(),
        label in proptest::collection::vec(any::<u8>(), 0..40),
        msg in proptest::collection::vec(any::<u8>(), 0..200),
    ) {
        let key = &keys()[key_idx];
        let (hash, mgf) = (OAEP_HASHES[h], OAEP_HASHES[g]);
        let max = key.public_key().size() - 2 * hash.output_len() - 2;
        let msg = &msg[..msg.len().min(max)];
        let ct = key.public_key().encrypt(Oaep { hash, mgf_hash: mgf, label: <[u8]>::to_vec(&label) }, msg, &mut OsRng).unwrap();
        prop_assert_eq!(ct.len(), key.public_key().size());
        let pt = key.decrypt(Oaep { hash, mgf_hash: mgf, label: <[u8]>::to_vec(&label) }, &ct, &mut OsRng).unwrap();
        prop_assert_eq!(&pt[..], msg);
        // Another label is the one decryption error.
        let mut other = label;
        other.push(1);
        prop_assert_eq!(key.decrypt(Oaep { hash, mgf_hash: mgf, label: <[u8]>::to_vec(&other) }, &ct, &mut OsRng), Err(Error::Decryption));
    }

    #[test]
    fn pkcs1v15_encryption_round_trip(
        key_idx in 0..2usize,
        msg in proptest::collection::vec(any::<u8>(), 0..250),
    ) {
        let key = &keys()[key_idx];
        let msg = &msg[..msg.len().min(key.public_key().size() - 11)];
        let ct = key.public_key().encrypt(Pkcs1v15Encrypt, msg, &mut OsRng).unwrap();
        let pt = key.decrypt(Pkcs1v15Encrypt, &ct, &mut OsRng).unwrap();
        prop_assert_eq!(&pt[..], msg);
        let pt = hazmat::pkcs1v15_decrypt_explicit(key, &ct, &mut OsRng).unwrap();
        prop_assert_eq!(&pt[..], msg);
    }

    #[test]
    fn pkcs1v15_signature_round_trip(
        key_idx in 0..2usize,
        h in 0..11usize,
        msg in proptest::collection::vec(any::<u8>(), 0..100),
    ) {
        let key = &keys()[key_idx];
        let hash = HashAlg::ALL[h];
        let public = key.public_key();
        // Every DigestInfo (at most 19 + 64 bytes) fits a 1024-bit key.
        let sig = key.sign(Pkcs1v15Sign::new(hash), &msg, &mut OsRng).unwrap();
        prop_assert_eq!(public.verify(Pkcs1v15Sign::new(hash), &msg, &sig), Ok(()));
        let mut other = msg.clone();
        other.push(0);
        prop_assert_eq!(public.verify(Pkcs1v15Sign::new(hash), &other, &sig), Err(Error::Verification));
        let mut bad = sig;
        bad[public.size() / 2] ^= 0x10;
        prop_assert_eq!(public.verify(Pkcs1v15Sign::new(hash), &msg, &bad), Err(Error::Verification));
    }

    #[test]
    fn pss_round_trip(
        key_idx in 0..2usize,
        h in 0..13usize,
        salt in proptest::option::of(0..40usize),
        msg in proptest::collection::vec(any::<u8>(), 0..100),
    ) {
        let key = &keys()[key_idx];
        let hash = HashAlg::ALL[h];
        let public = key.public_key();
        let s_len = salt.unwrap_or(hash.output_len());
        let em_len = (public.bits() - 1).div_ceil(8);
        if em_len < hash.output_len() + s_len + 2 {
            // RFC 8017 §9.1.1 step 3: "encoding error".
            prop_assert_eq!(key.sign(Pss { hash, mgf_hash: hash, salt_len: salt }, &msg, &mut OsRng), Err(Error::KeyTooSmall));
            return Ok(());
        }
        let sig = key.sign(Pss { hash, mgf_hash: hash, salt_len: salt }, &msg, &mut OsRng).unwrap();
        prop_assert_eq!(public.verify(Pss { hash, mgf_hash: hash, salt_len: Some(s_len) }, &msg, &sig), Ok(()));
        prop_assert_eq!(public.verify(Pss { hash, mgf_hash: hash, salt_len: None }, &msg, &sig), Ok(()));
        prop_assert_eq!(public.verify(Pss { hash, mgf_hash: hash, salt_len: Some(s_len + 1) }, &msg, &sig), Err(Error::Verification));
        let mut other = msg;
        other.push(0);
        prop_assert_eq!(public.verify(Pss { hash, mgf_hash: hash, salt_len: None }, &other, &sig), Err(Error::Verification));
    }
}

// ---------------------------------------------------------------------------
// Malformed inputs: errors, never panics.

proptest! {
    #![proptest_config(config())]

    #[test]
    fn random_ciphertexts(key_idx in 0..2usize, ct in proptest::collection::vec(any::<u8>(), 0..300)) {
        let key = &keys()[key_idx];
        let k = key.public_key().size();
        prop_assert_eq!(
            key.decrypt(Oaep { hash: HashAlg::Sha256, mgf_hash: HashAlg::Sha256, label: <[u8]>::to_vec(b"") }, &ct, &mut OsRng),
            Err(Error::Decryption)
        );
        let well_formed = ct.len() == k && redc_rsa::Num::from_be_bytes(&ct) < *key.public_key().n();
        let implicit = key.decrypt(Pkcs1v15Encrypt, &ct, &mut OsRng);
        if well_formed {
            let m = implicit.unwrap();
            prop_assert!(m.len() <= k - 11);
            prop_assert_eq!(&key.decrypt(Pkcs1v15Encrypt, &ct, &mut OsRng).unwrap()[..], &m[..]);
        } else {
            prop_assert_eq!(implicit, Err(Error::Decryption));
        }
        let _ = hazmat::pkcs1v15_decrypt_explicit(key, &ct, &mut OsRng);
    }

    #[test]
    fn truncated_and_extended_ciphertexts(
        key_idx in 0..2usize,
        cut in 0..300usize,
        extra in any::<u8>(),
    ) {
        let key = &keys()[key_idx];
        let k = key.public_key().size();
        let ct = key.public_key().encrypt(Oaep { hash: HashAlg::Sha1, mgf_hash: HashAlg::Sha1, label: <[u8]>::to_vec(b"") }, b"secret", &mut OsRng).unwrap();
        let cut = cut % k;
        let short = &ct[..cut];
        let mut long = ct.clone();
        long.insert(0, extra);
        for bad in [short, &long[..]] {
            prop_assert_eq!(
                key.decrypt(Oaep { hash: HashAlg::Sha1, mgf_hash: HashAlg::Sha1, label: <[u8]>::to_vec(b"") }, bad, &mut OsRng),
                Err(Error::Decryption)
            );
            prop_assert_eq!(key.decrypt(Pkcs1v15Encrypt, bad, &mut OsRng), Err(Error::Decryption));
            prop_assert_eq!(hazmat::pkcs1v15_decrypt_explicit(key, bad, &mut OsRng), Err(Error::Decryption));
        }
    }

    #[test]
    fn random_and_truncated_signatures(
        key_idx in 0..2usize,
        sig in proptest::collection::vec(any::<u8>(), 0..300),
        cut in 0..300usize,
    ) {
        let key = &keys()[key_idx];
        let public = key.public_key();
        let h = HashAlg::Sha256;
        prop_assert_eq!(public.verify(Pkcs1v15Sign::new(h), b"m", &sig), Err(Error::Verification));
        prop_assert_eq!(public.verify(Pss { hash: h, mgf_hash: h, salt_len: None }, b"m", &sig), Err(Error::Verification));
        prop_assert_eq!(public.verify(Pss { hash: h, mgf_hash: h, salt_len: Some(32) }, b"m", &sig), Err(Error::Verification));
        let good = key.sign(Pss { hash: h, mgf_hash: h, salt_len: None }, b"m", &mut OsRng).unwrap();
        let truncated = &good[..cut % good.len()];
        prop_assert_eq!(public.verify(Pss { hash: h, mgf_hash: h, salt_len: None }, b"m", truncated), Err(Error::Verification));
        let good = key.sign(Pkcs1v15Sign::new(h), b"m", &mut OsRng).unwrap();
        let truncated = &good[..cut % good.len()];
        prop_assert_eq!(public.verify(Pkcs1v15Sign::new(h), b"m", truncated), Err(Error::Verification));
    }
}
