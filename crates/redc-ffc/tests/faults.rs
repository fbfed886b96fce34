//! Faults injected into DSA signing and Diffie-Hellman derivation (feature
//! `fault-injection`, redc-pki's `fault` module; `.ci/run` runs these tests
//! in a release build).
//!
//! - DSA with a deterministic nonce (RFC 6979): `g^k`, the nonce (flipped
//!   before both `r` and `s` use it) and `s`, each struck in every slot of a
//!   batch and in a single signature, must be `FaultDetected`, the other
//!   slots valid; with the check switched off, the faulty signature beside
//!   a correct one of the same message gives `x` away (two linear equations
//!   in `k` and `x`), so the check is what stands between them.
//! - DSA with a hedged (the default) or random nonce: the same faults are
//!   released, and the same algebra finds no `x` (a new `k` per signature).
//! - DH: the peer value struck after its check is `FaultDetected`; with the
//!   check off the result leaks `x mod 2` (Euler's criterion of `Z`). A
//!   fault in the result itself changes only `Z`, which the peer computes
//!   anyway.

mod common;

use common::big;
use num_bigint::BigUint;
use rand_chacha::ChaCha8Rng;
use rand_core::{OsRng, SeedableRng};
use redc_ffc::dh::{DhPrivateKey, derive_batch};
use redc_ffc::dsa::{DsaParams, DsaPrivateKey, Nonce, Signature, generate_params, sign_batch, verify_batch};
use redc_ffc::{Error, Group, HashAlg, Num};
use redc_pki::fault::{self, Stage};
use std::sync::{Arc, OnceLock};

/// A (2048, 256) key, its parameters generated once for this file.
fn dsa_key() -> DsaPrivateKey {
    static PARAMS: OnceLock<Arc<DsaParams>> = OnceLock::new();
    let params =
        PARAMS.get_or_init(|| Arc::new(generate_params(2048, 256, &mut ChaCha8Rng::seed_from_u64(7)).unwrap()));
    DsaPrivateKey::generate(params.clone(), &mut OsRng).unwrap()
}

const DSA_STAGES: [Stage; 3] = [Stage::DsaPower, Stage::DsaNonce, Stage::DsaS];

fn valid(key: &DsaPrivateKey, digest: &[u8], sig: &Signature) -> bool {
    verify_batch(redc::engine::default_engine(), &[(key.public_key(), digest, sig)])[0]
}

/// `x` from a correct signature `(r0, s0)` and another `(r1, s1)` of the
/// same digest whose nonce is the first one's plus `delta`: `s0·k = z +
/// x·r0` and `s1·(k + delta) = z + x·r1` solved for `x` modulo `q`, or
/// `None` when the system is singular.
fn solve_x(key: &DsaPrivateKey, digest: &[u8], good: &Signature, bad: &Signature, delta: i64) -> Option<BigUint> {
    let q = big(key.params().q());
    let inv = |v: &BigUint| (v % &q != BigUint::ZERO).then(|| v.modpow(&(&q - 2u8), &q));
    let z = BigUint::from_bytes_be(digest) % &q;
    let (r0, s0, r1, s1) = (big(&good.r), big(&good.s), big(&bad.r), big(&bad.s));
    let d = (BigUint::from(delta.unsigned_abs()) * &s1 * &s0) % &q;
    // x·(s1·r0 - s0·r1) = z·(s0 - s1) - s1·delta·s0
    let num = (&z * ((&s0 + &q - &s1) % &q)) % &q;
    let num = if delta >= 0 {
        (num + &q - d) % &q
    } else {
        (num + d) % &q
    };
    let den = ((&s1 * &r0) % &q + &q - (&s0 * &r1) % &q) % &q;
    Some((num * inv(&den)?) % &q)
}

/// Whether `x` is the key's exponent (`g^x = y`).
fn is_x(key: &DsaPrivateKey, x: &BigUint) -> bool {
    let p = key.params();
    big(p.g()).modpow(x, &big(p.p())) == big(key.public_key().y())
}

/// Whether a faulty signature beside a correct one of the same digest
/// yields `x` (the nonce off by 0 or ±1: the flips of these tests).
fn gives_x_away(key: &DsaPrivateKey, digest: &[u8], good: &Signature, bad: &Signature) -> bool {
    [0, 1, -1]
        .into_iter()
        .filter_map(|delta| solve_x(key, digest, good, bad, delta))
        .any(|x| is_x(key, &x))
}

#[test]
fn dsa_deterministic_faults_are_caught_in_every_slot() {
    let key = &dsa_key();
    let engine = redc::engine::default_engine();
    let digests: Vec<Vec<u8>> = (0..3u8).map(|i| HashAlg::Sha256.digest(&[i; 9])).collect();
    let refs: Vec<&[u8]> = digests.iter().map(Vec::as_slice).collect();
    for stage in DSA_STAGES {
        for victim in 0..3 {
            fault::arm(stage, victim);
            let sigs = sign_batch(engine, key, HashAlg::Sha256, &refs, Nonce::Deterministic, &mut OsRng);
            for (i, sig) in sigs.iter().enumerate() {
                if i == victim {
                    assert_eq!(sig.as_ref().err(), Some(&Error::FaultDetected), "{stage:?} in slot {i}");
                } else {
                    assert!(valid(key, refs[i], sig.as_ref().unwrap()), "{stage:?}: slot {i}");
                }
            }
        }
        fault::arm(stage, 0);
        let one = key.sign_prehashed(HashAlg::Sha256, refs[0], Nonce::Deterministic, &mut OsRng);
        assert_eq!(one.err(), Some(Error::FaultDetected), "{stage:?}, single");
        // The fault died with its batch: the key signs again at once.
        assert!(valid(
            key,
            refs[0],
            &key.sign_prehashed(HashAlg::Sha256, refs[0], Nonce::Deterministic, &mut OsRng)
                .unwrap()
        ));
    }
}

#[test]
fn dsa_without_the_check_a_deterministic_fault_gives_x_away() {
    let key = &dsa_key();
    let digest = HashAlg::Sha256.digest(b"message");
    let good = key
        .sign_prehashed(HashAlg::Sha256, &digest, Nonce::Deterministic, &mut OsRng)
        .unwrap();
    fault::skip_checks(true);
    for stage in DSA_STAGES {
        fault::arm(stage, 0);
        let bad = key
            .sign_prehashed(HashAlg::Sha256, &digest, Nonce::Deterministic, &mut OsRng)
            .unwrap();
        assert_ne!(bad, good, "{stage:?} struck");
        match stage {
            // s alone wrong: no equation in x, but the signature is invalid.
            Stage::DsaS => assert!(!valid(key, &digest, &bad)),
            _ => assert!(gives_x_away(key, &digest, &good, &bad), "{stage:?} gives x away"),
        }
    }
    fault::skip_checks(false);
}

#[test]
fn dsa_hedged_and_random_nonce_faults_give_nothing_away() {
    let key = &dsa_key();
    let digest = HashAlg::Sha256.digest(b"message");
    for nonce in [Nonce::Hedged, Nonce::Random] {
        let good = key.sign_prehashed(HashAlg::Sha256, &digest, nonce, &mut OsRng).unwrap();
        for stage in DSA_STAGES {
            fault::arm(stage, 0);
            let bad = key.sign_prehashed(HashAlg::Sha256, &digest, nonce, &mut OsRng).unwrap();
            assert!(!gives_x_away(key, &digest, &good, &bad), "{nonce:?}, {stage:?}");
            // A nonce flipped before both r and s use it is just another.
            assert_eq!(
                valid(key, &digest, &bad),
                stage == Stage::DsaNonce,
                "{nonce:?}, {stage:?}"
            );
        }
    }
}

/// A DH key and a peer value `y` such that `y` with its lowest bit flipped
/// lies outside the subgroup of order `q` (half of all `y` do).
fn dh_pair() -> (DhPrivateKey, Num) {
    let group = Group::Ffdhe2048;
    let key = DhPrivateKey::generate(group, None, &mut OsRng).unwrap();
    let p = big(group.params().p.n());
    let q = big(&group.params().q);
    loop {
        let y = DhPrivateKey::generate(group, None, &mut OsRng)
            .unwrap()
            .public_key()
            .y()
            .clone();
        if (big(&y) ^ BigUint::from(1u8)).modpow(&q, &p) != BigUint::from(1u8) {
            return (key, y);
        }
    }
}

#[test]
fn dh_a_fault_in_the_checked_peer_value_is_caught() {
    let (key, y) = &dh_pair();
    let engine = redc::engine::default_engine();
    let items = [(key, y), (key, y), (key, y)];
    let want = key.derive(y).unwrap();
    for victim in 0..3 {
        fault::arm(Stage::DhBase, victim);
        let got = derive_batch(engine, &items);
        for (i, z) in got.iter().enumerate() {
            if i == victim {
                assert_eq!(z.as_ref().err(), Some(&Error::FaultDetected), "slot {i}");
            } else {
                assert_eq!(z.as_ref().unwrap(), &want, "slot {i}");
            }
        }
    }
    // Without the check, the result is y'^x with y' outside the subgroup:
    // Euler's criterion of Z is (-1)^x, the exponent's lowest bit.
    fault::skip_checks(true);
    fault::arm(Stage::DhBase, 0);
    let z = BigUint::from_bytes_be(&key.derive(y).unwrap());
    fault::skip_checks(false);
    let params = key.group().params();
    let euler = z.modpow(&big(&params.q), &big(params.p.n()));
    let x_odd = key.exponent().reveal().digits()[0] & 1 == 1;
    assert_eq!(euler == BigUint::from(1u8), !x_odd, "Z's Euler criterion shows x mod 2");
}

#[test]
fn dh_a_fault_in_the_result_changes_only_the_result() {
    let (key, y) = &dh_pair();
    let want = key.derive(y).unwrap();
    fault::arm(Stage::DhResult, 0);
    let got = key.derive(y).unwrap();
    // Z with its lowest bit flipped: a function of Z alone, which the peer
    // computes anyway; nothing of x beyond it.
    let mut flipped = want.to_vec();
    *flipped.last_mut().unwrap() ^= 1;
    assert_eq!(&got[..], &flipped[..]);
}
