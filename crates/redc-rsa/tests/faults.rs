//! Faults injected into the private operation (feature `fault-injection`;
//! `.ci/run` runs `REDC_FAULT_TESTS=1 cargo test --release -p redc-rsa
//! --features fault-injection --test faults`, a release build): one CRT half, Garner's recombination, the blinding factor
//! `r^-1`, and the e-check's own input (flipped, or a near miss that only a
//! comparison of all of `c` rejects), each in the first, a middle and the
//! last slot of batches of one and of five, with fresh and with chained
//! blinding, on every CPU backend this machine runs (a 2048-bit key: its
//! 1024-bit halves reach the IFMA 2-way kernel as well as the 4- and 8-lane
//! ones), and in single signatures and decryptions. Every fault must come
//! out as `Error::FaultDetected` for its slot alone, the others right; a
//! fault names a slot of the batch (an input out of range keeps its place)
//! and never outlives its batch.
//!
//! A signature's encoded message, struck before the private operation
//! (which the e-check cannot see: it checks against the input it was
//! given), is caught by the schemes' recheck of the representative against
//! the digest, in single signatures and in every slot of a batch.
//!
//! And why it matters: the refused value of a faulty CRT half, had it been
//! released as a signature `s`, factors `n` by `gcd(s^e - m, n)` (Boneh,
//! DeMillo and Lipton, 1997). With the checks switched off
//! (`fault::skip_checks`), every fault of these tests goes through: the
//! tests fail without the checks, and the released signature factors `n`.

#![allow(clippy::print_stderr)] // names the backends a CPU without IFMA skips

use num_bigint::BigUint;
use rand_core::OsRng;
use redc::Engine;
use redc::engine::backend_names;
use redc_rsa::fault::{self, Stage};
use redc_rsa::hazmat::{CrtMode, rsadp_with};
use redc_rsa::keygen::generate;
use redc_rsa::padding::{Oaep, Pkcs1v15Sign, Pss};
use redc_rsa::policy::SecurityLevel;
use redc_rsa::scheme::Batch;
use redc_rsa::{Error, HashAlg, Num, RsaPrivateKey, pkcs1v15, rsa_private_batch};

const STAGES: [Stage; 5] = [
    Stage::Half,
    Stage::Garner,
    Stage::Blinding,
    Stage::CheckInput,
    Stage::NearMiss,
];

/// A key of the test's own (its blinding chain is the test's alone).
fn key(bits: usize) -> RsaPrivateKey {
    generate(bits, &Num::from_u64(65537), &|_| {})
        .expect("keygen")
        .with_security_level(SecurityLevel::NONE)
}

fn big(x: &Num) -> BigUint {
    BigUint::from_bytes_be(&x.to_be_bytes())
}

fn engines() -> Vec<(&'static str, Engine)> {
    backend_names()
        .into_iter()
        .filter_map(|b| match Engine::named(b) {
            Ok(e) => Some((b, e)),
            Err(err) => {
                eprintln!("SKIPPED {b}: {err}");
                None
            }
        })
        .collect()
}

/// Each stage, struck in one operation of a batch: that operation fails
/// with `FaultDetected`, the others are right, and the refused value is
/// wrong (the check refused something a release would have given away).
#[test]
fn every_stage_is_caught_in_every_slot_on_every_backend() {
    let key = &key(2048);
    let public = key.public_key();
    for (name, engine) in engines() {
        for size in [1usize, 5] {
            let inputs: Vec<Num> = (0..size as u64).map(|i| Num::from_u64(i * 7919 + 2)).collect();
            for stage in STAGES {
                for victim in [0, size / 2, size - 1] {
                    // Twice: a fresh blinding factor (a fault drops the
                    // chain, and the key is this test's alone), then, after
                    // a good batch renews the chain, a chained one.
                    for chained in [false, true] {
                        if chained {
                            assert!(
                                rsa_private_batch(&engine, key, &inputs, &mut OsRng)
                                    .iter()
                                    .all(Result::is_ok)
                            );
                        }
                        fault::arm(stage, victim);
                        let got = rsa_private_batch(&engine, key, &inputs, &mut OsRng);
                        let what = format!("{name}, batch of {size}, {stage:?} in slot {victim}, chained {chained}");
                        for (i, (m, c)) in got.into_iter().zip(&inputs).enumerate() {
                            if i == victim {
                                assert_eq!(m.err(), Some(Error::FaultDetected), "{what}");
                            } else {
                                let m = m.unwrap_or_else(|e| panic!("{what}: slot {i}: {e}"));
                                assert_eq!(&public.rsaep(&m.reveal()).unwrap(), c, "{what}: slot {i}");
                            }
                        }
                        let refused = fault::refused();
                        assert_eq!(refused.len(), 1, "{what}: one refused value");
                        assert_ne!(public.rsaep(&refused[0]).ok().as_ref(), Some(&inputs[victim]), "{what}");
                    }
                }
            }
        }
    }
}

/// The schemes' single operations (on the default engine): a fault in any
/// stage gives `FaultDetected`, never a signature or a plaintext.
#[test]
fn single_operations_release_nothing_faulty() {
    let key = &key(1024);
    let ct = key
        .public_key()
        .encrypt(
            Oaep {
                hash: HashAlg::Sha256,
                mgf_hash: HashAlg::Sha256,
                label: <[u8]>::to_vec(b""),
            },
            b"secret",
            &mut OsRng,
        )
        .unwrap();
    for stage in STAGES {
        fault::arm(stage, 0);
        let sig = key.sign(
            Pss {
                hash: HashAlg::Sha256,
                mgf_hash: HashAlg::Sha256,
                salt_len: None,
            },
            b"message",
            &mut OsRng,
        );
        assert_eq!(sig.err(), Some(Error::FaultDetected), "PSS, {stage:?}");
        fault::arm(stage, 0);
        let sig = key.sign(Pkcs1v15Sign::new(HashAlg::Sha256), b"message", &mut OsRng);
        assert_eq!(sig.err(), Some(Error::FaultDetected), "PKCS#1 v1.5, {stage:?}");
        fault::arm(stage, 0);
        let m = key.decrypt(
            Oaep {
                hash: HashAlg::Sha256,
                mgf_hash: HashAlg::Sha256,
                label: <[u8]>::to_vec(b""),
            },
            &ct,
            &mut OsRng,
        );
        assert_eq!(m.err(), Some(Error::FaultDetected), "OAEP, {stage:?}");
        assert_eq!(fault::refused().len(), 3, "{stage:?}");
        // And the key works again at once.
        let m = key
            .decrypt(
                Oaep {
                    hash: HashAlg::Sha256,
                    mgf_hash: HashAlg::Sha256,
                    label: <[u8]>::to_vec(b""),
                },
                &ct,
                &mut OsRng,
            )
            .unwrap();
        assert_eq!(&m[..], b"secret");
    }
}

/// A fault in a signature's encoded message, before the private operation,
/// is caught by the recheck against the digest: in a single PSS or PKCS#1
/// v1.5 signature, and in the first, a middle and the last slot of a batch
/// (the others signed and valid).
#[test]
fn a_fault_in_the_encoding_is_caught() {
    let key = &key(2048);
    let public = key.public_key();
    let engine = redc::engine::default_engine();
    let (sha, msg) = (HashAlg::Sha256, b"message");
    fault::arm(Stage::Encoding, 0);
    assert_eq!(
        key.sign(
            Pss {
                hash: sha,
                mgf_hash: sha,
                salt_len: None
            },
            msg,
            &mut OsRng
        )
        .err(),
        Some(Error::FaultDetected)
    );
    fault::arm(Stage::Encoding, 0);
    assert_eq!(
        key.sign(Pkcs1v15Sign::new(sha), msg, &mut OsRng).err(),
        Some(Error::FaultDetected)
    );
    let msgs: Vec<Vec<u8>> = (0..5u8).map(|i| vec![i; 40]).collect();
    let refs: Vec<&[u8]> = msgs.iter().map(Vec::as_slice).collect();
    for victim in [0, 2, 4] {
        fault::arm(Stage::Encoding, victim);
        let sigs = key.sign_batch(
            engine,
            Pss {
                hash: sha,
                mgf_hash: sha,
                salt_len: None,
            },
            Batch::Messages(&refs),
            &mut OsRng,
        );
        fault::arm(Stage::Encoding, victim);
        let v15 = key.sign_batch(engine, Pkcs1v15Sign::new(sha), Batch::Messages(&refs), &mut OsRng);
        for (i, (s, t)) in sigs.iter().zip(&v15).enumerate() {
            if i == victim {
                assert_eq!(s.as_ref().err(), Some(&Error::FaultDetected), "PSS slot {i}");
                assert_eq!(t.as_ref().err(), Some(&Error::FaultDetected), "v1.5 slot {i}");
            } else {
                public
                    .verify(
                        Pss {
                            hash: sha,
                            mgf_hash: sha,
                            salt_len: None,
                        },
                        refs[i],
                        s.as_ref().unwrap(),
                    )
                    .unwrap();
                public
                    .verify(Pkcs1v15Sign::new(sha), refs[i], t.as_ref().unwrap())
                    .unwrap();
            }
        }
    }
}

/// With the checks switched off, every fault of these tests is released:
/// each stage gives a signature that does not verify (so the tests above
/// fail without the checks), and the faulty CRT half's signature factors
/// `n` with one gcd.
#[test]
fn without_the_checks_every_fault_is_released() {
    let key = &key(2048);
    let public = key.public_key();
    let (sha, msg) = (HashAlg::Sha256, b"message");
    fault::skip_checks(true);
    for stage in STAGES.into_iter().chain([Stage::Encoding]) {
        fault::arm(stage, 0);
        let sig = key
            .sign(Pkcs1v15Sign::new(sha), msg, &mut OsRng)
            .unwrap_or_else(|e| panic!("{stage:?}: {e}"));
        assert_eq!(
            public.verify(Pkcs1v15Sign::new(sha), msg, &sig),
            Err(Error::Verification),
            "{stage:?}: released, and wrong"
        );
        fault::arm(stage, 0);
        let sig = key
            .sign(
                Pss {
                    hash: sha,
                    mgf_hash: sha,
                    salt_len: None,
                },
                msg,
                &mut OsRng,
            )
            .unwrap_or_else(|e| panic!("{stage:?}: {e}"));
        assert_eq!(
            public.verify(
                Pss {
                    hash: sha,
                    mgf_hash: sha,
                    salt_len: None
                },
                msg,
                &sig
            ),
            Err(Error::Verification),
            "{stage:?}"
        );
        if stage == Stage::Half {
            let em = pkcs1v15::emsa_encode(sha, &sha.digest(msg), public.size()).unwrap();
            fault::arm(stage, 0);
            let s = BigUint::from_bytes_be(&key.sign(Pkcs1v15Sign::new(sha), msg, &mut OsRng).unwrap());
            let (n, e, m) = (big(public.n()), big(public.e()), BigUint::from_bytes_be(&em));
            let se = s.modpow(&e, &n);
            let diff = if se >= m { se - &m } else { se + &n - &m };
            assert_eq!(num_integer::Integer::gcd(&diff, &n), big(&key.primes()[1].reveal()));
        }
    }
    fault::skip_checks(false);
    assert!(fault::refused().is_empty(), "nothing refused with the checks off");
    fault::arm(Stage::Encoding, 0);
    assert_eq!(
        key.sign(Pkcs1v15Sign::new(sha), msg, &mut OsRng).err(),
        Some(Error::FaultDetected)
    );
}

/// Why the check exists: the signature a fault in one CRT half would have
/// released is right modulo the other prime only, so `gcd(s^e - m, n)` is
/// that prime (Boneh, DeMillo and Lipton, "On the importance of checking
/// cryptographic protocols for faults", 1997; Lenstra's one-signature form).
#[test]
fn a_released_faulty_signature_would_factor_n() {
    let key = &key(1024);
    let public = key.public_key();
    let digest = HashAlg::Sha256.digest(b"message");
    let em = pkcs1v15::emsa_encode(HashAlg::Sha256, &digest, public.size()).unwrap();
    fault::arm(Stage::Half, 0);
    let sig = key.sign(Pkcs1v15Sign::new(HashAlg::Sha256), b"message", &mut OsRng);
    assert_eq!(sig.err(), Some(Error::FaultDetected));
    let s = big(&fault::refused().pop().expect("the refused signature"));
    let (n, e, m) = (big(public.n()), big(public.e()), BigUint::from_bytes_be(&em));
    let se = s.modpow(&e, &n);
    let diff = if se >= m { se - &m } else { se + &n - &m };
    let g = num_integer::Integer::gcd(&diff, &n);
    // The fault struck the first prime's half: s is right modulo the second.
    assert_eq!(
        g,
        big(&key.primes()[1].reveal()),
        "gcd(s^e - m, n) is the prime the fault missed"
    );
    eprintln!("gcd(s^e - m, n) = the {}-bit prime of n the fault missed", g.bits());
}

/// The near miss is what it says: its `e`-th power is `c + 2^64`, equal to
/// `c` in the low digit; the check refused it all the same.
#[test]
fn the_near_miss_differs_from_c_in_its_second_digit_only() {
    let key = &key(1024);
    let public = key.public_key();
    let c = Num::from_u64(0x1234_5678);
    fault::arm(Stage::NearMiss, 0);
    let got = rsa_private_batch(
        redc::engine::default_engine(),
        key,
        std::slice::from_ref(&c),
        &mut OsRng,
    );
    assert_eq!(got[0].as_ref().err(), Some(&Error::FaultDetected));
    let back = public.rsaep(&fault::refused()[0]).unwrap();
    assert_eq!(back.digits(), [0x1234_5678, 1], "c + 2^64");
}

/// A fault names a slot of the batch, counting inputs that are out of
/// range; one armed for a slot the batch lacks does nothing and is gone
/// after the batch.
#[test]
fn a_fault_names_a_slot_of_the_batch_and_dies_with_it() {
    let key = &key(1024);
    let engine = redc::engine::default_engine();
    let inputs = [key.public_key().n().clone(), Num::from_u64(5), Num::from_u64(7)];
    for stage in STAGES {
        fault::arm(stage, 1);
        let got = rsa_private_batch(engine, key, &inputs, &mut OsRng);
        assert_eq!(got[0].as_ref().err(), Some(&Error::OutOfRange), "{stage:?}");
        assert_eq!(got[1].as_ref().err(), Some(&Error::FaultDetected), "{stage:?}");
        assert!(got[2].is_ok(), "{stage:?}");
        fault::arm(stage, 2);
        assert!(
            rsa_private_batch(engine, key, &inputs[1..], &mut OsRng)
                .iter()
                .all(Result::is_ok)
        );
        assert!(
            rsa_private_batch(engine, key, &inputs, &mut OsRng)[2].is_ok(),
            "{stage:?} outlived its batch"
        );
        fault::refused();
    }
}

/// The comparison modes (FDFM's four steps, no CRT): every stage they have
/// is caught; they have no CRT halves, so the Half fault does not strike
/// (and dies with its batch).
#[test]
fn the_comparison_modes_catch_their_stages() {
    let key = &key(1024);
    let engine = redc::engine::default_engine();
    let c = Num::from_u64(0xabcdef);
    for mode in [CrtMode::Fdfm, CrtMode::Plain] {
        for stage in STAGES {
            fault::arm(stage, 0);
            let got = rsadp_with(engine, key, &c, mode, &mut OsRng);
            if stage == Stage::Half {
                assert!(got.is_ok(), "{mode:?}: no halves to strike");
            } else {
                assert_eq!(got.err(), Some(Error::FaultDetected), "{mode:?}, {stage:?}");
            }
        }
    }
}
