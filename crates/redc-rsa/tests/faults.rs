//! Faults injected into the private operation (feature `fault-injection`;
//! `.ci/run` runs `cargo test -p redc-rsa --features fault-injection --test
//! faults`): one CRT half, Garner's recombination, the blinding factor
//! `r^-1`, and the e-check's own input, each in the first, a middle and the
//! last operation of batches of one and of five on every backend this CPU
//! runs, and in single signatures and decryptions. Every fault must come
//! out as `Error::FaultDetected` for its operation alone, the others right.
//!
//! And why it matters: the refused value of a faulty CRT half, had it been
//! released as a signature `s`, factors `n` by `gcd(s^e - m, n)` (Boneh,
//! DeMillo and Lipton, 1997).

#![allow(clippy::print_stderr)] // names the backends a CPU without IFMA skips

use num_bigint::BigUint;
use rand_core::OsRng;
use redc::Engine;
use redc::engine::backend_names;
use redc_rsa::fault::{self, Stage};
use redc_rsa::keygen::generate;
use redc_rsa::{Error, HashAlg, Num, RsaPrivateKey, oaep, pkcs1v15, pss, rsa_private_batch};
use std::sync::OnceLock;

const STAGES: [Stage; 4] = [Stage::Half, Stage::Garner, Stage::Blinding, Stage::CheckInput];

fn key() -> &'static RsaPrivateKey {
    static KEY: OnceLock<RsaPrivateKey> = OnceLock::new();
    KEY.get_or_init(|| generate(1024, &Num::from_u64(65537), &|_| {}).expect("keygen"))
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
    let key = key();
    let public = key.public_key();
    for (name, engine) in engines() {
        for size in [1usize, 5] {
            let inputs: Vec<Num> = (0..size as u64).map(|i| Num::from_u64(i * 7919 + 2)).collect();
            for stage in STAGES {
                for victim in [0, size / 2, size - 1] {
                    // Twice: a fresh blinding factor, then (after a good
                    // batch primes the chain) a chained one.
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
    let key = key();
    let ct = oaep::encrypt(
        key.public_key(),
        HashAlg::Sha256,
        HashAlg::Sha256,
        b"",
        b"secret",
        &mut OsRng,
    )
    .unwrap();
    for stage in STAGES {
        fault::arm(stage, 0);
        let sig = pss::sign(key, HashAlg::Sha256, HashAlg::Sha256, None, b"message", &mut OsRng);
        assert_eq!(sig.err(), Some(Error::FaultDetected), "PSS, {stage:?}");
        fault::arm(stage, 0);
        let sig = pkcs1v15::sign(key, HashAlg::Sha256, b"message", &mut OsRng);
        assert_eq!(sig.err(), Some(Error::FaultDetected), "PKCS#1 v1.5, {stage:?}");
        fault::arm(stage, 0);
        let m = oaep::decrypt(key, HashAlg::Sha256, HashAlg::Sha256, b"", &ct, &mut OsRng);
        assert_eq!(m.err(), Some(Error::FaultDetected), "OAEP, {stage:?}");
        assert_eq!(fault::refused().len(), 3, "{stage:?}");
        // And the key works again at once.
        let m = oaep::decrypt(key, HashAlg::Sha256, HashAlg::Sha256, b"", &ct, &mut OsRng).unwrap();
        assert_eq!(&m[..], b"secret");
    }
}

/// Why the check exists: the signature a fault in one CRT half would have
/// released is right modulo the other prime only, so `gcd(s^e - m, n)` is
/// that prime (Boneh, DeMillo and Lipton, "On the importance of checking
/// cryptographic protocols for faults", 1997; Lenstra's one-signature form).
#[test]
fn a_released_faulty_signature_would_factor_n() {
    let key = key();
    let public = key.public_key();
    let digest = HashAlg::Sha256.digest(b"message");
    let em = pkcs1v15::emsa_encode(HashAlg::Sha256, &digest, public.size()).unwrap();
    fault::arm(Stage::Half, 0);
    let sig = pkcs1v15::sign(key, HashAlg::Sha256, b"message", &mut OsRng);
    assert_eq!(sig.err(), Some(Error::FaultDetected));
    let s = big(&fault::refused().pop().expect("the refused signature"));
    let (n, e, m) = (big(public.n()), big(public.e()), BigUint::from_bytes_be(&em));
    let se = s.modpow(&e, &n);
    let diff = if se >= m { se - &m } else { se + &n - &m };
    let g = num_integer::Integer::gcd(&diff, &n);
    let primes: Vec<BigUint> = key.primes().iter().map(|p| big(&p.reveal())).collect();
    assert!(primes.contains(&g), "gcd(s^e - m, n) is a prime of n");
    eprintln!("gcd(s^e - m, n) = the {}-bit prime of n the fault missed", g.bits());
}
