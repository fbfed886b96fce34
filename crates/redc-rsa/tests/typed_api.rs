//! The typed scheme API (`padding`, `scheme`, `signer`) on the fixed
//! 1024-bit test key, against an oracle outside it: the public operation
//! in num-bigint and the RFC 8017 encodings (`emsa_encode`,
//! `emsa_pss_verify`, `eme_encode`). PKCS#1 v1.5 signatures equal
//! `EMSA-PKCS1-v1_5(M)^d` byte for byte; PSS signatures raised to `e`
//! pass EMSA-PSS-VERIFY; ciphertexts made by num-bigint from
//! EME-OAEP and EME-PKCS1-v1_5 blocks decrypt; the batch forms equal the
//! single ones, digests equal messages, wrong paddings are refused, and
//! the RustCrypto traits work through generic code.

mod scheme_support;

use num_bigint::BigUint;
use rand_chacha::ChaCha20Rng;
use rand_core::{OsRng, SeedableRng};
use redc_rsa::padding::{EncryptionPadding, Oaep, Pkcs1v15Encrypt, Pkcs1v15Sign, Pss, SignaturePadding};
use redc_rsa::scheme::Batch;
use redc_rsa::signature::hazmat::{PrehashSigner, PrehashVerifier, RandomizedPrehashSigner};
use redc_rsa::signature::{Keypair, RandomizedSigner, SignatureEncoding, Signer, Verifier};
use redc_rsa::signer::{Signature, SigningKey, VerifyingKey};
use redc_rsa::{Error, HashAlg, Num, RsaPrivateKey, RsaPublicKey, oaep, pkcs1v15, pss};
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

fn big(x: &Num) -> BigUint {
    BigUint::from_bytes_be(&x.to_be_bytes())
}

/// `x^e mod n` in num-bigint, as `k` bytes.
fn public_op(public: &RsaPublicKey, x: &[u8]) -> Vec<u8> {
    let y = BigUint::from_bytes_be(x).modpow(&big(public.e()), &big(public.n()));
    let bytes = y.to_bytes_be();
    let mut out = vec![0; public.size() - bytes.len()];
    out.extend_from_slice(&bytes);
    out
}

/// The PKCS#1 v1.5 signature of `msg` by the oracle's rule: the one
/// value whose `e`-th power is EMSA-PKCS1-v1_5 of the message.
fn pkcs1v15_holds(public: &RsaPublicKey, hash: HashAlg, msg: &[u8], sig: &[u8]) -> bool {
    let em = pkcs1v15::emsa_encode(hash, &hash.digest(msg), public.size()).unwrap();
    sig.len() == public.size() && public_op(public, sig) == em
}

/// A PSS signature by the oracle: `sig^e` passes EMSA-PSS-VERIFY.
fn pss_holds(public: &RsaPublicKey, p: Pss, msg: &[u8], sig: &[u8]) -> bool {
    let em_bits = public.bits() - 1;
    let em = public_op(public, sig);
    let em = &em[em.len() - em_bits.div_ceil(8)..];
    pss::emsa_pss_verify(p.hash, p.mgf_hash, &p.hash.digest(msg), em, em_bits, p.salt_len).is_ok()
}

/// An OAEP ciphertext made by the oracle: EME-OAEP, then `^e` in num-bigint.
fn oaep_ciphertext(public: &RsaPublicKey, p: &Oaep, msg: &[u8]) -> Vec<u8> {
    let em = oaep::eme_encode(p.hash, p.mgf_hash, &p.label, msg, public.size(), &mut OsRng).unwrap();
    public_op(public, &em)
}

/// A PKCS#1 v1.5 ciphertext made by the oracle: 00 02 PS 00 M (RFC 8017
/// §7.2.1, PS eight or more nonzero bytes), then `^e` in num-bigint.
fn pkcs1v15_ciphertext(public: &RsaPublicKey, msg: &[u8]) -> Vec<u8> {
    let ps_len = public.size() - msg.len() - 3;
    let mut em = vec![0, 2];
    em.extend((0..ps_len).map(|i| 1 + (i % 255) as u8));
    em.push(0);
    em.extend_from_slice(msg);
    public_op(public, &em)
}

fn all_ok<T>(v: Vec<redc_rsa::Result<T>>) -> Vec<T> {
    v.into_iter().map(|r| r.unwrap()).collect()
}

#[test]
fn pkcs1v15_signatures_equal_the_oracle() {
    let (key, public) = (key(), key().public_key());
    for msg in MSGS {
        let sig = key.sign(PKCS, msg, &mut OsRng).unwrap();
        assert!(pkcs1v15_holds(public, SHA256, msg, &sig));
        let digest = SHA256.digest(msg);
        assert_eq!(key.sign_prehashed(PKCS, &digest, &mut OsRng).unwrap(), sig);
        public.verify(PKCS, msg, &sig).unwrap();
        public.verify_prehashed(PKCS, &digest, &sig).unwrap();
        assert_eq!(public.verify(PKCS, b"other", &sig), Err(Error::Verification));
    }
}

#[test]
fn pkcs1v15_batches_equal_single_and_oracle() {
    let (key, public, engine) = (key(), key().public_key(), engine());
    let digests = digests(SHA256);
    let digests = slices(&digests);
    let by_msg = all_ok(key.sign_batch(&engine, PKCS, Batch::Messages(&MSGS), &mut OsRng));
    let by_digest = all_ok(key.sign_batch(&engine, PKCS, Batch::Digests(&digests), &mut OsRng));
    let single: Vec<Vec<u8>> = MSGS.iter().map(|m| key.sign(PKCS, m, &mut OsRng).unwrap()).collect();
    assert!(
        MSGS.iter()
            .zip(&by_msg)
            .all(|(m, s)| pkcs1v15_holds(public, SHA256, m, s))
    );
    assert_eq!(by_digest, by_msg);
    assert_eq!(single, by_msg);
    let sigs = slices(&by_msg);
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
fn pss_signatures_pass_the_oracle() {
    let (key, public) = (key(), key().public_key());
    for pss in [
        Pss::new(SHA256),
        Pss::new(HashAlg::Sha384).with_mgf_hash(HashAlg::Sha1),
        Pss::new(SHA256).with_salt_len(0),
        Pss::new(HashAlg::Shake128),
    ] {
        for msg in MSGS {
            let sig = key.sign(pss, msg, &mut OsRng).unwrap();
            assert!(pss_holds(public, pss, msg, &sig));
            public.verify(pss, msg, &sig).unwrap();
            let digest = pss.hash.digest(msg);
            let pre = key.sign_prehashed(pss, &digest, &mut OsRng).unwrap();
            assert!(pss_holds(public, pss, msg, &pre));
            public.verify_prehashed(pss, &digest, &pre).unwrap();
            public.verify_prehashed(pss, &digest, &sig).unwrap();
            assert!(!pss_holds(public, pss, b"other", &sig));
            assert_eq!(public.verify(pss, b"other", &sig), Err(Error::Verification));
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
fn pss_batches_against_single_and_oracle() {
    let (key, public, engine) = (key(), key().public_key(), engine());
    let pss = Pss::new(SHA256);
    let digests = digests(SHA256);
    let digests = slices(&digests);
    let by_msg = all_ok(key.sign_batch(&engine, pss, Batch::Messages(&MSGS), &mut OsRng));
    let by_digest = all_ok(key.sign_batch(&engine, pss, Batch::Digests(&digests), &mut OsRng));
    for sigs in [slices(&by_msg), slices(&by_digest)] {
        assert!(MSGS.iter().zip(&sigs).all(|(m, s)| pss_holds(public, pss, m, s)));
        all_ok(public.verify_batch(&engine, pss, Batch::Messages(&MSGS), &sigs));
        all_ok(public.verify_batch(&engine, pss, Batch::Digests(&digests), &sigs));
        for (msg, sig) in MSGS.iter().zip(&sigs) {
            public.verify(pss, msg, sig).unwrap();
        }
    }
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
fn encryption_against_the_oracle() {
    let (key, public) = (key(), key().public_key());
    let oaep = Oaep::new(SHA256).with_mgf_hash(HashAlg::Sha1).with_label(&b"label"[..]);
    for msg in MSGS {
        let ct = oaep_ciphertext(public, &oaep, msg);
        assert_eq!(&key.decrypt(&oaep, &ct, &mut OsRng).unwrap()[..], msg);
        let ct = public.encrypt(&oaep, msg, &mut OsRng).unwrap();
        assert_eq!(&key.decrypt(&oaep, &ct, &mut OsRng).unwrap()[..], msg);

        let ct = pkcs1v15_ciphertext(public, msg);
        assert_eq!(&key.decrypt(Pkcs1v15Encrypt, &ct, &mut OsRng).unwrap()[..], msg);
        let ct = public.encrypt(Pkcs1v15Encrypt, msg, &mut OsRng).unwrap();
        assert_eq!(&key.decrypt(Pkcs1v15Encrypt, &ct, &mut OsRng).unwrap()[..], msg);
    }
    // Too long for the key.
    let long = vec![0u8; public.size()];
    assert!(matches!(
        public.encrypt(Pkcs1v15Encrypt, &long, &mut OsRng),
        Err(Error::MessageTooLong { .. })
    ));
}

#[test]
fn encryption_batches_against_single_and_oracle() {
    let (key, public, engine) = (key(), key().public_key(), engine());
    let oaep = Oaep::new(SHA256).with_label(&b"x"[..]);
    let paddings: [EncryptionPadding; 2] = [oaep.into(), Pkcs1v15Encrypt.into()];
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
        // Ciphertexts the oracle made decrypt in one batch.
        let oracle: Vec<Vec<u8>> = MSGS
            .iter()
            .map(|m| match padding {
                EncryptionPadding::Oaep(p) => oaep_ciphertext(public, p, m),
                EncryptionPadding::Pkcs1v15(_) => pkcs1v15_ciphertext(public, m),
            })
            .collect();
        let plain = all_ok(key.decrypt_batch(&engine, padding, &slices(&oracle), &mut OsRng));
        assert!(plain.iter().zip(MSGS).all(|(p, m)| &p[..] == m));
    }
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
        // The method accepts the trait's signature.
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
