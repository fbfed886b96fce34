//! The schemes' batch forms (the keys' `sign_batch`, `verify_batch`,
//! `encrypt_batch` and `decrypt_batch` with every padding) on every backend this CPU can run,
//! against the single operations and num-bigint: batches of 0, 1 and 9
//! items with bad items among good ones (each gets its own error, the
//! others their answers), a two-prime and a three-prime key.

mod scheme_support;

use num_bigint::BigUint;
use rand_core::OsRng;
use redc_rsa::keygen::{generate, generate_multi};
use redc_rsa::padding::{Oaep, Pkcs1v15Encrypt, Pkcs1v15Sign, Pss};
use redc_rsa::policy::SecurityLevel;
use redc_rsa::scheme::Batch;
use redc_rsa::{Error, HashAlg, Num, RsaPrivateKey, pkcs1v15};
use scheme_support::engines;
use std::sync::OnceLock;

const SHA256: HashAlg = HashAlg::Sha256;

/// A 1024-bit two-prime key and a 2048-bit three-prime key, made once.
fn keys() -> &'static [RsaPrivateKey; 2] {
    static KEYS: OnceLock<[RsaPrivateKey; 2]> = OnceLock::new();
    KEYS.get_or_init(|| {
        let e = Num::from_u64(65537);
        [
            generate(1024, &e, &|_| {})
                .unwrap()
                .with_security_level(SecurityLevel::NONE),
            generate_multi(2048, 3, &e, &|_| {})
                .unwrap()
                .with_security_level(SecurityLevel::NONE),
        ]
    })
}

/// `count` distinct messages of various lengths.
fn messages(count: usize) -> Vec<Vec<u8>> {
    (0..count)
        .map(|i| (0..i * 7 % 50).map(|j| (i * 31 + j) as u8).collect())
        .collect()
}

fn slices(v: &[Vec<u8>]) -> Vec<&[u8]> {
    v.iter().map(Vec::as_slice).collect()
}

fn big(bytes: &[u8]) -> BigUint {
    BigUint::from_bytes_be(bytes)
}

#[test]
fn signatures_in_batches() {
    for engine in engines() {
        for key in keys() {
            let public = key.public_key();
            let (n, d) = (big(&public.n().to_be_bytes()), big(&key.d().reveal().to_be_bytes()));
            let k = public.size();
            for count in [0, 1, 9] {
                let msgs = messages(count);
                let msgs = slices(&msgs);
                // PKCS#1 v1.5: deterministic, so equal to the single form and
                // to EM^d mod n by num-bigint.
                let sigs = key.sign_batch(&engine, Pkcs1v15Sign::new(SHA256), Batch::Messages(&msgs), &mut OsRng);
                assert_eq!(sigs.len(), count);
                for (msg, sig) in msgs.iter().zip(&sigs) {
                    let sig = sig.as_ref().unwrap();
                    assert_eq!(sig, &key.sign(Pkcs1v15Sign::new(SHA256), msg, &mut OsRng).unwrap());
                    let em = pkcs1v15::emsa_encode(SHA256, &SHA256.digest(msg), k).unwrap();
                    assert_eq!(big(sig), big(&em).modpow(&d, &n), "{}", engine.name());
                }
                // PSS: randomized; every signature verifies, singly and in a batch.
                let pss_sigs: Vec<Vec<u8>> = key
                    .sign_batch(
                        &engine,
                        Pss {
                            hash: SHA256,
                            mgf_hash: SHA256,
                            salt_len: None,
                        },
                        Batch::Messages(&msgs),
                        &mut OsRng,
                    )
                    .into_iter()
                    .map(Result::unwrap)
                    .collect();
                for (msg, sig) in msgs.iter().zip(&pss_sigs) {
                    public
                        .verify(
                            Pss {
                                hash: SHA256,
                                mgf_hash: SHA256,
                                salt_len: None,
                            },
                            msg,
                            sig,
                        )
                        .unwrap();
                }
                // Verification: each valid pair, then the same pairs spoiled
                // three ways (another message, a short signature, s >= n).
                let mut items: Vec<(&[u8], Vec<u8>)> = msgs.iter().copied().zip(pss_sigs.iter().cloned()).collect();
                let too_big = vec![0xff; k];
                for (i, (_, sig)) in items.iter_mut().enumerate() {
                    match i % 4 {
                        1 => sig[k / 2] ^= 1,
                        2 => sig.truncate(k - 1),
                        3 => sig.clone_from(&too_big),
                        _ => {}
                    }
                }
                let pairs: Vec<(&[u8], &[u8])> = items.iter().map(|(m, s)| (*m, s.as_slice())).collect();
                let verdicts = public.verify_batch(
                    &engine,
                    Pss {
                        hash: SHA256,
                        mgf_hash: SHA256,
                        salt_len: None,
                    },
                    Batch::Messages(&pairs.iter().map(|p| p.0).collect::<Vec<_>>()),
                    &pairs.iter().map(|p| p.1).collect::<Vec<_>>(),
                );
                assert_eq!(verdicts.len(), count);
                for (i, ((msg, sig), verdict)) in pairs.iter().zip(&verdicts).enumerate() {
                    let single = public.verify(
                        Pss {
                            hash: SHA256,
                            mgf_hash: SHA256,
                            salt_len: None,
                        },
                        msg,
                        sig,
                    );
                    assert_eq!(verdict, &single, "item {i}");
                    assert_eq!(verdict.is_ok(), i % 4 == 0, "item {i}");
                }
                let v15: Vec<(&[u8], &[u8])> = msgs
                    .iter()
                    .copied()
                    .zip(sigs.iter().map(|s| s.as_ref().unwrap().as_slice()))
                    .collect();
                let mut v15 = v15;
                if count > 1 {
                    v15[1].0 = b"not the message";
                }
                let verdicts = public.verify_batch(
                    &engine,
                    Pkcs1v15Sign::new(SHA256),
                    Batch::Messages(&v15.iter().map(|p| p.0).collect::<Vec<_>>()),
                    &v15.iter().map(|p| p.1).collect::<Vec<_>>(),
                );
                assert_eq!(verdicts.len(), count);
                for (i, verdict) in verdicts.iter().enumerate() {
                    let want = if i == 1 { Err(Error::Verification) } else { Ok(()) };
                    assert_eq!(verdict, &want, "item {i}");
                }
            }
            // A salt too long for the key: every item says so.
            let msgs = messages(3);
            let refused = key.sign_batch(
                &engine,
                Pss {
                    hash: SHA256,
                    mgf_hash: SHA256,
                    salt_len: Some(k),
                },
                Batch::Messages(&slices(&msgs)),
                &mut OsRng,
            );
            assert_eq!(refused.len(), 3);
            for r in refused {
                assert_eq!(r, Err(Error::KeyTooSmall));
            }
        }
    }
}

/// The digest forms of the batches (`Batch::Digests` to `sign_batch`
/// and `verify_batch`) against the message forms, with a digest of the
/// wrong length in the middle answered by its own error.
#[test]
fn digest_batches() {
    let key = &keys()[0];
    let public = key.public_key();
    for engine in engines() {
        let msgs = messages(5);
        let mut digests: Vec<Vec<u8>> = msgs.iter().map(|m| SHA256.digest(m)).collect();
        digests[2].pop();
        let d = slices(&digests);
        let sigs = key.sign_batch(&engine, Pkcs1v15Sign::new(SHA256), Batch::Digests(&d), &mut OsRng);
        let by_message = key.sign_batch(
            &engine,
            Pkcs1v15Sign::new(SHA256),
            Batch::Messages(&slices(&msgs)),
            &mut OsRng,
        );
        for (i, (sig, want)) in sigs.iter().zip(&by_message).enumerate() {
            match i {
                2 => assert!(matches!(sig, Err(Error::InvalidParameters(_))), "{sig:?}"),
                _ => assert_eq!(sig, want, "item {i}"),
            }
        }
        let pairs: Vec<(&[u8], &[u8])> = d
            .iter()
            .zip(&by_message)
            .map(|(dg, s)| (*dg, s.as_ref().unwrap().as_slice()))
            .collect();
        let verdicts = public.verify_batch(
            &engine,
            Pkcs1v15Sign::new(SHA256),
            Batch::Digests(&pairs.iter().map(|p| p.0).collect::<Vec<_>>()),
            &pairs.iter().map(|p| p.1).collect::<Vec<_>>(),
        );
        assert_eq!(verdicts.iter().filter(|v| v.is_ok()).count(), 4);
        assert!(verdicts[2].is_err());

        let pss_sigs = key.sign_batch(
            &engine,
            Pss {
                hash: SHA256,
                mgf_hash: SHA256,
                salt_len: None,
            },
            Batch::Digests(&d),
            &mut OsRng,
        );
        assert!(pss_sigs[2].is_err());
        for (i, sig) in pss_sigs.iter().enumerate().filter(|(i, _)| *i != 2) {
            public
                .verify(
                    Pss {
                        hash: SHA256,
                        mgf_hash: SHA256,
                        salt_len: None,
                    },
                    &msgs[i],
                    sig.as_ref().unwrap(),
                )
                .unwrap();
        }
        let good: Vec<(&[u8], &[u8])> = d
            .iter()
            .zip(&pss_sigs)
            .filter_map(|(dg, s)| Some((*dg, s.as_ref().ok()?.as_slice())))
            .collect();
        let verdicts = public.verify_batch(
            &engine,
            Pss {
                hash: SHA256,
                mgf_hash: SHA256,
                salt_len: None,
            },
            Batch::Digests(&good.iter().map(|p| p.0).collect::<Vec<_>>()),
            &good.iter().map(|p| p.1).collect::<Vec<_>>(),
        );
        assert!(verdicts.iter().all(Result::is_ok));
        let wrong = [(good[0].0, good[1].1)];
        assert_eq!(
            public.verify_batch(
                &engine,
                Pss {
                    hash: SHA256,
                    mgf_hash: SHA256,
                    salt_len: None
                },
                Batch::Digests(&wrong.iter().map(|p| p.0).collect::<Vec<_>>()),
                &wrong.iter().map(|p| p.1).collect::<Vec<_>>()
            ),
            vec![Err(Error::Verification)]
        );
    }
}

#[test]
fn encryption_in_batches() {
    for engine in engines() {
        for key in keys() {
            let public = key.public_key();
            let k = public.size();
            for count in [0, 1, 9] {
                let mut msgs = messages(count);
                if count > 1 {
                    // Too long for either scheme, in the middle of the batch.
                    msgs[1] = vec![7; k];
                }
                let msgs = slices(&msgs);
                let label = b"batch label";
                let oaep_cts = public.encrypt_batch(
                    &engine,
                    Oaep {
                        hash: SHA256,
                        mgf_hash: SHA256,
                        label: <[u8]>::to_vec(label),
                    },
                    &msgs,
                    &mut OsRng,
                );
                let v15_cts = public.encrypt_batch(&engine, Pkcs1v15Encrypt, &msgs, &mut OsRng);
                assert_eq!((oaep_cts.len(), v15_cts.len()), (count, count));
                for (i, (o, v)) in oaep_cts.iter().zip(&v15_cts).enumerate() {
                    if count > 1 && i == 1 {
                        assert!(matches!(o, Err(Error::MessageTooLong { .. })), "{o:?}");
                        assert!(matches!(v, Err(Error::MessageTooLong { .. })), "{v:?}");
                        continue;
                    }
                    let (o, v) = (o.as_ref().unwrap(), v.as_ref().unwrap());
                    assert_eq!(
                        &key.decrypt(
                            Oaep {
                                hash: SHA256,
                                mgf_hash: SHA256,
                                label: <[u8]>::to_vec(label)
                            },
                            o,
                            &mut OsRng
                        )
                        .unwrap()[..],
                        msgs[i]
                    );
                    assert_eq!(&key.decrypt(Pkcs1v15Encrypt, v, &mut OsRng).unwrap()[..], msgs[i]);
                }
                // Decryption of good ciphertexts and spoiled ones (a flipped
                // bit, a wrong length), against the single forms.
                let spoil = |cts: &[redc_rsa::Result<Vec<u8>>]| -> Vec<Vec<u8>> {
                    cts.iter()
                        .enumerate()
                        .map(|(i, c)| {
                            let mut c = c.clone().unwrap_or_else(|_| vec![1; k]);
                            match i % 3 {
                                1 => c[k - 1] ^= 1,
                                2 => c.push(0),
                                _ => {}
                            }
                            c
                        })
                        .collect()
                };
                let oaep_in = spoil(&oaep_cts);
                let v15_in = spoil(&v15_cts);
                let oaep_out = key.decrypt_batch(
                    &engine,
                    Oaep {
                        hash: SHA256,
                        mgf_hash: SHA256,
                        label: <[u8]>::to_vec(label),
                    },
                    &slices(&oaep_in),
                    &mut OsRng,
                );
                let v15_out = key.decrypt_batch(&engine, Pkcs1v15Encrypt, &slices(&v15_in), &mut OsRng);
                assert_eq!((oaep_out.len(), v15_out.len()), (count, count));
                for i in 0..count {
                    let single = key.decrypt(
                        Oaep {
                            hash: SHA256,
                            mgf_hash: SHA256,
                            label: <[u8]>::to_vec(label),
                        },
                        &oaep_in[i],
                        &mut OsRng,
                    );
                    assert_eq!(oaep_out[i], single, "OAEP item {i}");
                    if i % 3 == 0 && !(count > 1 && i == 1) {
                        assert_eq!(&oaep_out[i].as_ref().unwrap()[..], msgs[i]);
                    } else {
                        assert_eq!(oaep_out[i], Err(Error::Decryption), "OAEP item {i}");
                    }
                    // Implicit rejection: a bad padding gives the same
                    // synthetic message as the single form; a bad length is
                    // an error.
                    let single = key.decrypt(Pkcs1v15Encrypt, &v15_in[i], &mut OsRng);
                    assert_eq!(v15_out[i], single, "v1.5 item {i}");
                    assert_eq!(v15_out[i].is_err(), i % 3 == 2, "v1.5 item {i}");
                }
            }
            // SHAKE has no OAEP: every item says so.
            let cts = [vec![0u8; k], vec![1u8; k]];
            let shake = HashAlg::Shake128;
            let refused = key.decrypt_batch(
                &engine,
                Oaep {
                    hash: shake,
                    mgf_hash: shake,
                    label: <[u8]>::to_vec(&[]),
                },
                &slices(&cts),
                &mut OsRng,
            );
            assert_eq!(refused.len(), 2);
            for r in refused {
                assert!(matches!(r, Err(Error::UnsupportedHash(..))), "{r:?}");
            }
        }
    }
}
