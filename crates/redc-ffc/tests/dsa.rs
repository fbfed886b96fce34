//! DSA: parameters generated for every (L, N) redc makes and validated
//! (FIPS 186-4 A.1.1.3 from the seed, and by primality without it), bad
//! parameters and keys refused by name, signatures (random and RFC 6979
//! nonces) verified by num-bigint's arithmetic, batches against single
//! operations (proptest), and keys read back from their files.

mod common;

use common::{big, reference_verify};

use num_bigint::BigUint;
use proptest::prelude::*;
use rand_chacha::ChaCha8Rng;
use rand_core::{OsRng, SeedableRng};
use redc_ffc::dsa::{DsaParams, DsaPrivateKey, Nonce, Seed, Signature, generate_params, sign_batch, verify_batch};
use redc_ffc::encoding::KeyFile;
use redc_ffc::{AnyKey, Error, HashAlg, Num, read_key};
use std::sync::{Arc, OnceLock};

/// Parameters of (2048, 224), generated once for the tests of this file.
fn params() -> Arc<DsaParams> {
    static PARAMS: OnceLock<Arc<DsaParams>> = OnceLock::new();
    PARAMS
        .get_or_init(|| Arc::new(generate_params(2048, 224, &mut ChaCha8Rng::seed_from_u64(1)).unwrap()))
        .clone()
}

#[test]
fn generated_parameters_validate_for_every_size() {
    for (l, n) in redc_ffc::dsa::GENERATED_SIZES {
        let params = if (l, n) == (2048, 224) {
            params()
        } else {
            Arc::new(generate_params(l, n, &mut OsRng).unwrap())
        };
        assert_eq!(params.sizes(), (l, n));
        params.validate(&mut OsRng).unwrap();
        let seed = params.seed().expect("generated parameters keep their seed");
        assert!(seed.counter < 4 * l);
        // Without the seed: primality tests.
        let read = DsaParams::new(params.p().clone(), params.q().clone(), params.g().clone()).unwrap();
        assert!(read.seed().is_none());
        read.validate(&mut OsRng).unwrap();
        let (p, q, g) = (big(params.p()), big(params.q()), big(params.g()));
        assert_eq!((&p - 1u8) % &q, BigUint::from(0u8));
        assert_eq!(g.modpow(&q, &p), BigUint::from(1u8));
    }
    assert!(matches!(
        generate_params(1024, 160, &mut OsRng),
        Err(Error::Unsupported(_))
    ));
}

#[test]
fn bad_parameters_are_named() {
    let p = params();
    let two = Num::from_u64(2);
    let cases: [(Num, Num, Num, &str); 5] = [
        (p.p().add(&two), p.q().clone(), p.g().clone(), "q does not divide p - 1"),
        (p.p().clone(), p.q().clone(), Num::one(), "g is not in [2, p - 1]"),
        (p.p().clone(), p.q().clone(), p.p().clone(), "g is not in [2, p - 1]"),
        (
            p.p().clone(),
            p.q().clone(),
            p.p().checked_sub(&Num::one()).unwrap(),
            "g^q mod p is not 1",
        ),
        (p.p().clone(), p.q().shr(1), p.g().clone(), "(L, N) = (2048, 223)"),
    ];
    for (pp, q, g, why) in cases {
        let err = DsaParams::new(pp, q, g).unwrap_err();
        assert!(
            matches!(&err, Error::InvalidParameters(m) if m.contains(why)),
            "{err} / {why}"
        );
    }
}

#[test]
fn a_seed_that_does_not_give_the_primes_fails_validation() {
    let p = generate_params(2048, 256, &mut ChaCha8Rng::seed_from_u64(7)).unwrap();
    let seed = p.seed().unwrap().clone();
    for wrong in [
        Seed {
            counter: seed.counter + 1,
            ..seed.clone()
        },
        Seed {
            seed: seed.seed.iter().map(|b| b ^ 1).collect(),
            ..seed.clone()
        },
    ] {
        let err = p.with_seed(wrong).validate(&mut OsRng).unwrap_err();
        assert!(
            matches!(&err, Error::InvalidParameters(m) if m.contains("A.1.1.3")),
            "{err}"
        );
    }
    p.with_seed(seed).validate(&mut OsRng).unwrap();
}

#[test]
fn signatures_verify_with_num_bigint_and_tampering_is_caught() {
    let key = DsaPrivateKey::generate(params(), &mut OsRng).unwrap();
    for (hash, nonce) in [
        (HashAlg::Sha224, Nonce::Random),
        (HashAlg::Sha256, Nonce::Deterministic),
        (HashAlg::Sha1, Nonce::Deterministic),
        (HashAlg::Sha512, Nonce::Random),
        (HashAlg::Sha384, Nonce::Hedged),
    ] {
        let digest = hash.digest(b"redc");
        let sig = key.sign_prehashed(hash, &digest, nonce, &mut OsRng).unwrap();
        assert!(reference_verify(&key, &digest, &sig), "{hash:?}");
        key.public_key().verify_prehashed(&digest, &sig).unwrap();
        let again = key.sign_prehashed(hash, &digest, nonce, &mut OsRng).unwrap();
        assert_eq!(again == sig, nonce == Nonce::Deterministic, "{hash:?}");
        let other = hash.digest(b"redd");
        assert!(key.public_key().verify_prehashed(&other, &sig).is_err());
        for bad in [
            Signature {
                r: sig.r.add(&Num::one()),
                s: sig.s.clone(),
            },
            Signature {
                r: sig.r.clone(),
                s: sig.s.add(params().q()),
            },
            Signature {
                r: Num::zero(),
                s: sig.s.clone(),
            },
        ] {
            assert!(key.public_key().verify_prehashed(&digest, &bad).is_err());
        }
    }
    let err = key
        .sign_prehashed(HashAlg::Sha3_256, b"x", Nonce::Deterministic, &mut OsRng)
        .unwrap_err();
    assert!(matches!(err, Error::UnsupportedHash("sha3-256")), "{err}");
}

#[test]
fn keys_round_trip_through_pkcs8_and_spki() {
    let key = DsaPrivateKey::generate(params(), &mut OsRng).unwrap();
    for text in [
        key.to_pem().unwrap().as_bytes().to_vec(),
        key.to_der().unwrap().to_vec(),
    ] {
        let AnyKey::DsaPrivate(back) = read_key(&text).unwrap() else {
            panic!("not a DSA private key")
        };
        assert!(back.same_secret(&key));
    }
    let public = key.public_key();
    for text in [
        public.to_pem().unwrap().as_bytes().to_vec(),
        public.to_der().unwrap().to_vec(),
    ] {
        let AnyKey::DsaPublic(back) = read_key(&text).unwrap() else {
            panic!("not a DSA public key")
        };
        assert_eq!(&back, public);
    }
}

/// A PEM key after text that looks like an OpenSSH key type is read, as
/// RSA's reader does; the OpenSSH message is for input no reader accepts.
#[test]
fn pem_after_text_that_looks_like_openssh_is_read() {
    let key = DsaPrivateKey::generate(params(), &mut OsRng).unwrap();
    let text = format!("ecdsa-sha2-{}", key.to_pem().unwrap().as_str());
    let AnyKey::DsaPrivate(back) = read_key(text.as_bytes()).unwrap() else {
        panic!("not a DSA private key")
    };
    assert!(back.same_secret(&key));
    let Err(Error::Encoding(message)) = read_key(b"ssh-dss AAAAB3NzaC1kc3MAAACBAP user@host\n") else {
        panic!("an OpenSSH public key read")
    };
    assert!(message.contains("OpenSSH public key"), "{message}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(6))]

    /// Batches of signatures and verifications equal the single operations:
    /// deterministic signatures byte for byte, random ones verified, two
    /// keys mixed in a verification batch with tampered signatures among
    /// the good ones.
    #[test]
    fn batches_equal_single_operations(seed in any::<u64>(), n in 1usize..10, bad in 0usize..10) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let keys = [DsaPrivateKey::generate(params(), &mut rng).unwrap(), DsaPrivateKey::generate(params(), &mut rng).unwrap()];
        let digests: Vec<Vec<u8>> = (0..n).map(|i| HashAlg::Sha256.digest(&(seed ^ i as u64).to_be_bytes())).collect();
        let refs: Vec<&[u8]> = digests.iter().map(Vec::as_slice).collect();
        let engine = redc::engine::default_engine();
        let det = sign_batch(engine, &keys[0], HashAlg::Sha256, &refs, Nonce::Deterministic, &mut rng);
        let random = sign_batch(engine, &keys[1], HashAlg::Sha256, &refs, Nonce::Random, &mut rng);
        let mut items = Vec::new();
        let mut sigs = Vec::new();
        for i in 0..n {
            let single = keys[0].sign_prehashed(HashAlg::Sha256, &digests[i], Nonce::Deterministic, &mut rng).unwrap();
            prop_assert_eq!(det[i].as_ref().unwrap(), &single);
            let mut sig = random[i].clone().unwrap();
            prop_assert!(reference_verify(&keys[1], &digests[i], &sig));
            if i == bad {
                sig.s = sig.s.add(&Num::one());
            }
            sigs.push((i % 2, sig));
        }
        for (i, (k, sig)) in sigs.iter_mut().enumerate() {
            if *k == 0 {
                *sig = det[i].clone().unwrap();
                if i == bad { sig.r = sig.r.add(&Num::one()); }
            } else {
                *k = 1;
            }
        }
        for (i, (k, sig)) in sigs.iter().enumerate() {
            items.push((keys[*k].public_key(), digests[i].as_slice(), sig));
        }
        let batch = verify_batch(engine, &items);
        for (i, ((key, digest, sig), got)) in items.iter().zip(batch).enumerate() {
            prop_assert_eq!(got, key.verify_prehashed(digest, sig).is_ok(), "slot {}", i);
            prop_assert_eq!(got, i != bad);
        }
    }
}
