//! Diffie-Hellman against num-bigint: keys, derivation single and batched
//! (proptest: a batch equals its items derived one at a time), every peer
//! check of SP 800-56A §5.6.2.3.1, and the keys' files read back.

mod common;

use common::big;
use num_bigint::BigUint;
use proptest::prelude::*;
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use redc_ffc::dh::{DhPrivateKey, check_public, derive_batch};
use redc_ffc::encoding::KeyFile;
use redc_ffc::{AnyKey, Error, Group, Num, SecurityLevel, read_key};

/// A key of `group` at security level 0: the tests cover every group,
/// modp_1536 too.
fn key(group: Group, seed: u64) -> DhPrivateKey {
    DhPrivateKey::generate(group, None, &mut ChaCha8Rng::seed_from_u64(seed))
        .unwrap()
        .with_security_level(SecurityLevel::NONE)
}

#[test]
fn a_group_below_the_level_is_refused_naming_it() {
    let (a, b) = (key(Group::Modp1536, 1), key(Group::Modp1536, 2));
    let a = a.with_security_level(SecurityLevel::DEFAULT);
    match a.derive(b.public_key().y()) {
        Err(Error::Policy(why)) => assert!(
            why.contains("Diffie-Hellman with a 1536-bit prime is refused at security level 2")
                && why.contains("security level 1 accepts it"),
            "{why}"
        ),
        other => panic!("{other:?}"),
    }
    let a = a.with_security_level(SecurityLevel::new(1).unwrap());
    assert!(a.derive(b.public_key().y()).is_ok());
    // ffdhe2048 at the default level; not at level 3.
    let c = key(Group::Ffdhe2048, 3).with_security_level(SecurityLevel::DEFAULT);
    let d = key(Group::Ffdhe2048, 4);
    assert!(c.derive(d.public_key().y()).is_ok());
    let c = c.with_security_level(SecurityLevel::new(3).unwrap());
    assert!(matches!(c.derive(d.public_key().y()), Err(Error::Policy(_))));
}

#[test]
fn keys_and_shared_secrets_match_num_bigint_in_every_group() {
    for (i, group) in Group::ALL.into_iter().enumerate() {
        let (a, b) = (key(group, 2 * i as u64), key(group, 2 * i as u64 + 1));
        let p = big(group.params().p.n());
        let x = big(&a.exponent().reveal());
        assert!(x.bits() as usize <= group.exponent_bits(), "{group}");
        assert_eq!(big(a.public_key().y()), BigUint::from(2u8).modpow(&x, &p), "{group}: y");
        let z = a.derive(b.public_key().y()).unwrap();
        assert_eq!(z.len(), group.bits() / 8, "{group}: Z has the length of p");
        assert_eq!(
            BigUint::from_bytes_be(&z),
            big(b.public_key().y()).modpow(&x, &p),
            "{group}: Z"
        );
        assert_eq!(*z, *b.derive(a.public_key().y()).unwrap(), "{group}: both sides agree");
    }
}

#[test]
fn full_size_exponents_on_request_and_bad_sizes_refused() {
    let group = Group::Ffdhe2048;
    let full = DhPrivateKey::generate(group, Some(2047), &mut ChaCha8Rng::seed_from_u64(9)).unwrap();
    assert_eq!(full.exponent_bits(), 2047);
    assert!(full.exponent().reveal().bits() > 2000);
    for bits in [224, 2048] {
        let err = DhPrivateKey::generate(group, Some(bits), &mut ChaCha8Rng::seed_from_u64(9)).unwrap_err();
        assert!(
            matches!(err, Error::Unsupported(ref m) if m.contains("private exponent length")),
            "{err}"
        );
    }
}

#[test]
fn peer_values_are_checked() {
    let group = Group::Ffdhe2048;
    let p = group.params().p.n().clone();
    let pm1 = p.checked_sub(&Num::one()).unwrap();
    for (y, why) in [
        (Num::zero(), "not above 1"),
        (Num::one(), "not above 1"),
        (pm1.clone(), "not below p - 1"),
        (p.clone(), "not below p - 1"),
        (p.add(&Num::from_u64(4)), "not below p - 1"),
    ] {
        assert_eq!(check_public(group, &y), Err(Error::InvalidPeer(why)));
    }
    // p - 2 = -2 mod p is outside the subgroup of order q: for p = 7 mod 8,
    // 2 is a square and -1 (p = 3 mod 4) is not, so -2 is not.
    let outside = p.checked_sub(&Num::from_u64(2)).unwrap();
    assert!(matches!(check_public(group, &outside), Err(Error::InvalidPeer(m)) if m.contains("subgroup")));
    let a = key(group, 1);
    assert!(a.derive(&outside).is_err());
    // 4 = 2^2 is in it, and y^q = 1 by num-bigint too.
    let q = big(&group.params().q);
    assert_eq!(BigUint::from(4u8).modpow(&q, &big(&p)), BigUint::from(1u8));
    assert!(check_public(group, &Num::from_u64(4)).is_ok());
    assert_eq!(
        BigUint::from_bytes_be(&outside.to_be_bytes()).modpow(&q, &big(&p)),
        big(&pm1)
    );
}

#[test]
fn keys_round_trip_through_pkcs8_and_spki() {
    for group in [Group::Ffdhe2048, Group::Modp1536] {
        let a = key(group, 5);
        for text in [a.to_pem().unwrap().as_bytes().to_vec(), a.to_der().unwrap().to_vec()] {
            let AnyKey::DhPrivate(back) = read_key(&text).unwrap() else {
                panic!("not a DH private key")
            };
            assert_eq!(back.public_key(), a.public_key());
            assert_eq!(back.exponent_bits(), group.exponent_bits());
        }
        let public = a.public_key();
        for text in [
            public.to_pem().unwrap().as_bytes().to_vec(),
            public.to_der().unwrap().to_vec(),
        ] {
            let AnyKey::DhPublic(back) = read_key(&text).unwrap() else {
                panic!("not a DH public key")
            };
            assert_eq!(&back, public);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(8))]

    /// A batch of mixed groups and keys, bad peer values among them, equals
    /// its items derived one at a time.
    #[test]
    fn a_batch_equals_single_derivations(seed in any::<u64>(), n in 1usize..12, bad in 0usize..12) {
        let groups = [Group::Ffdhe2048, Group::Modp1536, Group::Ffdhe3072];
        let keys: Vec<DhPrivateKey> = (0..n).map(|i| key(groups[i % 3], seed ^ i as u64)).collect();
        let peers: Vec<Num> = (0..n)
            .map(|i| {
                let peer = key(keys[i].group(), !seed ^ i as u64);
                if i == bad { Num::one() } else { peer.public_key().y().clone() }
            })
            .collect();
        let items: Vec<(&DhPrivateKey, &Num)> = keys.iter().zip(&peers).collect();
        let batch = derive_batch(redc::engine::default_engine(), &items);
        for (i, ((k, y), got)) in items.iter().zip(batch).enumerate() {
            let single = k.derive(y);
            prop_assert_eq!(got.as_deref().map(|z| z.to_vec()), single.as_deref().map(|z| z.to_vec()), "slot {}", i);
            prop_assert_eq!(got.is_err(), i == bad);
        }
    }
}
