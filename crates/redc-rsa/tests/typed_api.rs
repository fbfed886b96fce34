//! The typed scheme API (`padding`, `scheme`, `signer`) on the fixed
//! 1024-bit test key (the free functions it wraps are the crate's own
//! now): PKCS#1 v1.5 signatures compared byte for byte (they are
//! deterministic), PSS and
//! the encryptions checked by the other side both ways, the batch forms
//! against the single ones, digests against messages, wrong paddings
//! refused, and the RustCrypto traits through generic code.

mod scheme_support;

use rand_chacha::ChaCha20Rng;
use rand_core::{OsRng, SeedableRng};
use redc_rsa::padding::{EncryptionPadding, Oaep, Pkcs1v15Encrypt, Pkcs1v15Sign, Pss, SignaturePadding};
use redc_rsa::scheme::Batch;
use redc_rsa::signature::hazmat::{PrehashSigner, PrehashVerifier, RandomizedPrehashSigner};
use redc_rsa::signature::{Keypair, RandomizedSigner, SignatureEncoding, Signer, Verifier};
use redc_rsa::signer::{Signature, SigningKey, VerifyingKey};
use redc_rsa::{Error, HashAlg, RsaPrivateKey};
use scheme_support::K1024;
use std::sync::OnceLock;

const SHA256: HashAlg = HashAlg::Sha256;
const PKCS: Pkcs1v15Sign = Pkcs1v15Sign { hash: SHA256 };

/// The fixed 1024-bit key, made once.
fn key() -> &'static RsaPrivateKey {
    static KEY: OnceLock<RsaPrivateKey> = OnceLock::new();
    KEY.get_or_init(|| K1024.key())
}

fn engine() -> redc::Engine {
    redc::Engine::detect()
}

const MSGS: [&[u8]; 4] = [b"", b"a", b"hello", b"a longer message, for the batch"];

fn digests(hash: HashAlg) -> Vec<Vec<u8>> {
    MSGS.iter().map(|m| hash.digest(m)).collect()
}

fn slices(v: &[Vec<u8>]) -> Vec<&[u8]> {
    v.iter().map(Vec::as_slice).collect()
}

fn all_ok<T>(v: Vec<redc_rsa::Result<T>>) -> Vec<T> {
    v.into_iter().map(|r| r.unwrap()).collect()
}

#[test]
fn pkcs1v15_signatures_equal_the_free_functions() {
    let (key, public) = (key(), key().public_key());
    for msg in MSGS {
        let free = key.sign(Pkcs1v15Sign::new(SHA256), msg, &mut OsRng).unwrap();
        assert_eq!(key.sign(PKCS, msg, &mut OsRng).unwrap(), free);
        let digest = SHA256.digest(msg);
        assert_eq!(key.sign_prehashed(PKCS, &digest, &mut OsRng).unwrap(), free);
        public.verify(PKCS, msg, &free).unwrap();
        public.verify_prehashed(PKCS, &digest, &free).unwrap();
        assert_eq!(public.verify(PKCS, b"other", &free), Err(Error::Verification));
    }
}

#[test]
fn pkcs1v15_batches_equal_single_and_free() {
    let (key, public, engine) = (key(), key().public_key(), engine());
    let digests = digests(SHA256);
    let digests = slices(&digests);
    let free = all_ok(key.sign_batch(&engine, Pkcs1v15Sign::new(SHA256), Batch::Messages(&MSGS), &mut OsRng));
    let by_msg = all_ok(key.sign_batch(&engine, PKCS, Batch::Messages(&MSGS), &mut OsRng));
    let by_digest = all_ok(key.sign_batch(&engine, PKCS, Batch::Digests(&digests), &mut OsRng));
    let single: Vec<Vec<u8>> = MSGS.iter().map(|m| key.sign(PKCS, m, &mut OsRng).unwrap()).collect();
    assert_eq!(by_msg, free);
    assert_eq!(by_digest, free);
    assert_eq!(single, free);
    let sigs = slices(&free);
    all_ok(public.verify_batch(&engine, PKCS, Batch::Messages(&MSGS), &sigs));
    all_ok(public.verify_batch(&engine, PKCS, Batch::Digests(&digests), &sigs));
    // One signature swapped: that item alone fails.
    let mut swapped = sigs.clone();
    swapped.swap(1, 2);
    let got = public.verify_batch(&engine, PKCS, Batch::Messages(&MSGS), &swapped);
    assert_eq!(
        got,
        vec![Ok(()), Err(Error::Verification), Err(Error::Verification), Ok(())]
    );
}

#[test]
fn pss_typed_and_free_verify_each_other() {
    let (key, public) = (key(), key().public_key());
    for pss in [
        Pss::new(SHA256),
        Pss::new(HashAlg::Sha384).with_mgf_hash(HashAlg::Sha1),
        Pss::new(SHA256).with_salt_len(0),
        Pss::new(HashAlg::Shake128),
    ] {
        let (h, g, s) = (pss.hash, pss.mgf_hash, pss.salt_len);
        for msg in MSGS {
            let typed = key.sign(pss, msg, &mut OsRng).unwrap();
            public
                .verify(
                    Pss {
                        hash: h,
                        mgf_hash: g,
                        salt_len: s,
                    },
                    msg,
                    &typed,
                )
                .unwrap();
            let free = key
                .sign(
                    Pss {
                        hash: h,
                        mgf_hash: g,
                        salt_len: s,
                    },
                    msg,
                    &mut OsRng,
                )
                .unwrap();
            public.verify(pss, msg, &free).unwrap();
            let digest = h.digest(msg);
            let pre = key.sign_prehashed(pss, &digest, &mut OsRng).unwrap();
            public
                .verify_prehashed(
                    Pss {
                        hash: h,
                        mgf_hash: g,
                        salt_len: s,
                    },
                    &digest,
                    &pre,
                )
                .unwrap();
            public.verify_prehashed(pss, &digest, &free).unwrap();
            public.verify(pss, msg, &pre).unwrap();
            assert_eq!(public.verify(pss, b"other", &typed), Err(Error::Verification));
        }
    }
}

#[test]
fn pss_salt_lengths() {
    let (key, public) = (key(), key().public_key());
    let sig = key.sign(Pss::new(SHA256).with_salt_len(10), b"m", &mut OsRng).unwrap();
    // Pss::new verifies any salt length; an exact one must match.
    public.verify(Pss::new(SHA256), b"m", &sig).unwrap();
    public.verify(Pss::new(SHA256).with_salt_len(10), b"m", &sig).unwrap();
    assert_eq!(
        public.verify(Pss::new(SHA256).with_salt_len(32), b"m", &sig),
        Err(Error::Verification)
    );
    // Pss::new signs with the hash's length.
    let sig = key.sign(Pss::new(SHA256), b"m", &mut OsRng).unwrap();
    public.verify(Pss::new(SHA256).with_salt_len(32), b"m", &sig).unwrap();
}

#[test]
fn pss_batches_against_single_and_free() {
    let (key, public, engine) = (key(), key().public_key(), engine());
    let pss = Pss::new(SHA256);
    let digests = digests(SHA256);
    let digests = slices(&digests);
    let by_msg = all_ok(key.sign_batch(&engine, pss, Batch::Messages(&MSGS), &mut OsRng));
    let by_digest = all_ok(key.sign_batch(&engine, pss, Batch::Digests(&digests), &mut OsRng));
    for sigs in [slices(&by_msg), slices(&by_digest)] {
        let pairs: Vec<(&[u8], &[u8])> = MSGS.iter().copied().zip(sigs.iter().copied()).collect();
        all_ok(public.verify_batch(
            &engine,
            Pss {
                hash: SHA256,
                mgf_hash: SHA256,
                salt_len: None,
            },
            Batch::Messages(&pairs.iter().map(|p| p.0).collect::<Vec<_>>()),
            &pairs.iter().map(|p| p.1).collect::<Vec<_>>(),
        ));
        all_ok(public.verify_batch(&engine, pss, Batch::Messages(&MSGS), &sigs));
        all_ok(public.verify_batch(&engine, pss, Batch::Digests(&digests), &sigs));
        for (msg, sig) in MSGS.iter().zip(&sigs) {
            public.verify(pss, msg, sig).unwrap();
        }
    }
    let free = all_ok(key.sign_batch(
        &engine,
        Pss {
            hash: SHA256,
            mgf_hash: SHA256,
            salt_len: None,
        },
        Batch::Messages(&MSGS),
        &mut OsRng,
    ));
    all_ok(public.verify_batch(&engine, pss, Batch::Messages(&MSGS), &slices(&free)));
    // A digest of the wrong length fails alone.
    let mut bad = digests.clone();
    bad[1] = &bad[1][..31];
    let got = key.sign_batch(&engine, pss, Batch::Digests(&bad), &mut OsRng);
    assert!(matches!(got[1], Err(Error::InvalidParameters(_))));
    assert!(got[0].is_ok() && got[2].is_ok() && got[3].is_ok());
}

#[test]
fn verify_batch_needs_one_signature_per_item() {
    let (public, engine) = (key().public_key(), engine());
    let sig = key().sign(PKCS, b"", &mut OsRng).unwrap();
    let got = public.verify_batch(&engine, PKCS, Batch::Messages(&MSGS), &[&sig]);
    assert_eq!(got.len(), MSGS.len());
    assert!(got.iter().all(|r| matches!(r, Err(Error::InvalidParameters(_)))));
    assert!(public.verify_batch(&engine, PKCS, Batch::Messages(&[]), &[]).is_empty());
    assert!(Batch::Digests(&[]).is_empty());
    assert_eq!(Batch::Messages(&MSGS).len(), 4);
}

#[test]
fn wrong_padding_fails() {
    let (key, public) = (key(), key().public_key());
    let pss_sig = key.sign(Pss::new(SHA256), b"m", &mut OsRng).unwrap();
    let pkcs_sig = key.sign(PKCS, b"m", &mut OsRng).unwrap();
    assert_eq!(public.verify(PKCS, b"m", &pss_sig), Err(Error::Verification));
    assert_eq!(
        public.verify(Pss::new(SHA256), b"m", &pkcs_sig),
        Err(Error::Verification)
    );
    assert_eq!(
        public.verify(Pss::new(HashAlg::Sha384), b"m", &pss_sig),
        Err(Error::Verification)
    );
    assert_eq!(
        public.verify(Pss::new(SHA256).with_mgf_hash(HashAlg::Sha1), b"m", &pss_sig),
        Err(Error::Verification)
    );
    assert_eq!(
        public.verify(Pkcs1v15Sign::new(HashAlg::Sha1), b"m", &pkcs_sig),
        Err(Error::Verification)
    );
    assert!(matches!(
        key.sign(Pkcs1v15Sign::new(HashAlg::Shake128), b"m", &mut OsRng),
        Err(Error::UnsupportedHash(..))
    ));
    // OAEP: a wrong label or hash is the one decryption error; PKCS#1 v1.5
    // decryption of an OAEP ciphertext gives a synthetic message.
    let oaep = Oaep::new(SHA256).with_label(&b"L"[..]);
    let ct = public.encrypt(&oaep, b"secret", &mut OsRng).unwrap();
    assert_eq!(key.decrypt(Oaep::new(SHA256), &ct, &mut OsRng), Err(Error::Decryption));
    assert_eq!(
        key.decrypt(Oaep::new(HashAlg::Sha1).with_label(&b"L"[..]), &ct, &mut OsRng),
        Err(Error::Decryption)
    );
    let synthetic = key.decrypt(Pkcs1v15Encrypt, &ct, &mut OsRng).unwrap();
    assert_ne!(&synthetic[..], b"secret");
}

#[test]
fn encryption_typed_and_free_each_other() {
    let (key, public) = (key(), key().public_key());
    let oaep = Oaep::new(SHA256).with_mgf_hash(HashAlg::Sha1).with_label(&b"label"[..]);
    for msg in MSGS {
        let ct = public.encrypt(&oaep, msg, &mut OsRng).unwrap();
        assert_eq!(
            &key.decrypt(
                Oaep {
                    hash: SHA256,
                    mgf_hash: HashAlg::Sha1,
                    label: <[u8]>::to_vec(b"label")
                },
                &ct,
                &mut OsRng
            )
            .unwrap()[..],
            msg
        );
        let ct = public
            .encrypt(
                Oaep {
                    hash: SHA256,
                    mgf_hash: HashAlg::Sha1,
                    label: <[u8]>::to_vec(b"label"),
                },
                msg,
                &mut OsRng,
            )
            .unwrap();
        assert_eq!(&key.decrypt(&oaep, &ct, &mut OsRng).unwrap()[..], msg);

        let ct = public.encrypt(Pkcs1v15Encrypt, msg, &mut OsRng).unwrap();
        assert_eq!(&key.decrypt(Pkcs1v15Encrypt, &ct, &mut OsRng).unwrap()[..], msg);
        let ct = public.encrypt(Pkcs1v15Encrypt, msg, &mut OsRng).unwrap();
        assert_eq!(&key.decrypt(Pkcs1v15Encrypt, &ct, &mut OsRng).unwrap()[..], msg);
    }
    // Too long for the key: the free function's error.
    let long = vec![0u8; public.size()];
    assert!(matches!(
        public.encrypt(Pkcs1v15Encrypt, &long, &mut OsRng),
        Err(Error::MessageTooLong { .. })
    ));
}

#[test]
fn encryption_batches_against_single_and_free() {
    let (key, public, engine) = (key(), key().public_key(), engine());
    let paddings: [EncryptionPadding; 2] = [Oaep::new(SHA256).with_label(&b"x"[..]).into(), Pkcs1v15Encrypt.into()];
    let long = vec![7u8; public.size()];
    let mut msgs = MSGS.to_vec();
    msgs.push(&long);
    for padding in &paddings {
        let cts = public.encrypt_batch(&engine, padding, &msgs, &mut OsRng);
        assert!(matches!(cts[4], Err(Error::MessageTooLong { .. })));
        let cts: Vec<Vec<u8>> = cts.into_iter().take(4).map(Result::unwrap).collect();
        let plain = key.decrypt_batch(&engine, padding, &slices(&cts), &mut OsRng);
        for ((ct, msg), p) in cts.iter().zip(MSGS).zip(plain) {
            assert_eq!(&p.unwrap()[..], msg);
            assert_eq!(&key.decrypt(padding, ct, &mut OsRng).unwrap()[..], msg);
        }
        let free = match padding {
            EncryptionPadding::Oaep(p) => key.decrypt_batch(
                &engine,
                Oaep {
                    hash: p.hash,
                    mgf_hash: p.mgf_hash,
                    label: <[u8]>::to_vec(&p.label),
                },
                &slices(&cts),
                &mut OsRng,
            ),
            EncryptionPadding::Pkcs1v15(_) => key.decrypt_batch(&engine, Pkcs1v15Encrypt, &slices(&cts), &mut OsRng),
        };
        for (p, msg) in free.into_iter().zip(MSGS) {
            assert_eq!(&p.unwrap()[..], msg);
        }
    }
    // The free batch's ciphertexts decrypt through the method.
    let cts = all_ok(public.encrypt_batch(&engine, Pkcs1v15Encrypt, &MSGS, &mut OsRng));
    let plain = all_ok(key.decrypt_batch(&engine, Pkcs1v15Encrypt, &slices(&cts), &mut OsRng));
    assert!(plain.iter().zip(MSGS).all(|(p, m)| &p[..] == m));
}

/// Generic code written against the traits, as for the `rsa` crate.
fn sign_with<S: Signer<Signature>>(s: &S, m: &[u8]) -> Signature {
    s.sign(m)
}

fn verify_with<V: Verifier<Signature>>(v: &V, m: &[u8], sig: &Signature) -> bool {
    v.verify(m, sig).is_ok()
}

#[test]
fn signature_traits_through_generic_code() {
    for padding in [SignaturePadding::from(Pss::new(SHA256)), PKCS.into()] {
        let signer = SigningKey::new(key().clone(), padding);
        let verifier = signer.verifying_key();
        assert_eq!(verifier, VerifyingKey::new(key().public_key().clone(), padding));
        assert_eq!(verifier.padding(), signer.padding());
        let sig = sign_with(&signer, b"trait");
        assert!(verify_with(&verifier, b"trait", &sig));
        assert!(!verify_with(&verifier, b"other", &sig));
        // The free function and the method accept the trait's signature.
        key().public_key().verify(padding, b"trait", sig.as_ref()).unwrap();
        // Trait objects.
        let dyn_signer: &dyn Signer<Signature> = &signer;
        let dyn_verifier: Box<dyn Verifier<Signature>> = Box::new(verifier.clone());
        dyn_verifier.verify(b"dyn", &dyn_signer.sign(b"dyn")).unwrap();
        // The other padding's verifier refuses it.
        let other = match padding {
            SignaturePadding::Pss(_) => SignaturePadding::from(PKCS),
            SignaturePadding::Pkcs1v15(_) => Pss::new(SHA256).into(),
        };
        assert!(!verify_with(
            &VerifyingKey::new(verifier.key().clone(), other),
            b"trait",
            &sig
        ));
        // Prehash traits.
        let digest = SHA256.digest(b"trait");
        let pre = signer.sign_prehash(&digest).unwrap();
        verifier.verify_prehash(&digest, &pre).unwrap();
        verifier.verify(b"trait", &pre).unwrap();
        let pre = signer.sign_prehash_with_rng(&mut OsRng, &digest).unwrap();
        verifier.verify_prehash(&digest, &sig).unwrap();
        verifier.verify_prehash(&digest, &pre).unwrap();
        assert!(signer.sign_prehash(&digest[..20]).is_err());
    }
}

#[test]
fn randomized_signer_uses_the_given_rng() {
    let signer = SigningKey::new(key().clone(), PKCS);
    let sig = signer.sign_with_rng(&mut ChaCha20Rng::seed_from_u64(1), b"m");
    assert_eq!(
        sig.to_vec(),
        key().sign(Pkcs1v15Sign::new(SHA256), b"m", &mut OsRng).unwrap()
    );
    // PSS: the salt comes from the rng, so equal seeds give equal
    // signatures (the blinding does not change the result).
    let signer = SigningKey::new(key().clone(), Pss::new(SHA256));
    let a = signer.sign_with_rng(&mut ChaCha20Rng::seed_from_u64(7), b"m");
    let b = signer
        .try_sign_with_rng(&mut ChaCha20Rng::seed_from_u64(7), b"m")
        .unwrap();
    let c = signer.sign_with_rng(&mut ChaCha20Rng::seed_from_u64(8), b"m");
    assert_eq!(a, b);
    assert_ne!(a, c);
    signer.verifying_key().verify(b"m", &c).unwrap();
}

#[test]
fn signature_encoding() {
    let signer = SigningKey::new(key().clone(), PKCS);
    let sig = signer.sign(b"enc");
    assert_eq!(sig.encoded_len(), key().public_key().size());
    let bytes: Box<[u8]> = sig.to_bytes();
    assert_eq!(&bytes[..], sig.as_bytes());
    let back = Signature::try_from(&bytes[..]).unwrap();
    assert_eq!(back, sig);
    let boxed: Box<[u8]> = sig.clone().into();
    assert_eq!(Signature::from(boxed), sig);
    assert_eq!(Vec::from(sig.clone()), sig.to_vec());
    // A truncated signature is refused by the verifier, with redc's error
    // as the source.
    let short = Signature::try_from(&bytes[1..]).unwrap();
    let err = signer.verifying_key().verify(b"enc", &short).unwrap_err();
    let source = std::error::Error::source(&err).and_then(|e| e.downcast_ref::<Error>());
    assert_eq!(source, Some(&Error::Verification));
    assert_eq!(signer.into_key().public_key(), key().public_key());
}
