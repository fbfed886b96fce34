//! The typed API of DSA and Diffie-Hellman keys (`dsa::scheme`, `signer`,
//! `DhPrivateKey::derive_batch`): each method gives what the primitive it
//! calls gives and what num-bigint computes (FIPS 186-4 §4.7, SP 800-56A
//! §5.7.1.1), a batch what single calls give, the RustCrypto traits work
//! through generic code, and a prehashed signature is the signature of the
//! hashed message.

mod common;

use common::{big, reference_verify};

use num_bigint::BigUint;
use rand_chacha::ChaCha8Rng;
use rand_core::{OsRng, SeedableRng};
use redc_ffc::dh::DhPrivateKey;
use redc_ffc::dsa::{
    DsaParams, DsaPrivateKey, HASHES, Nonce, SigEncoding, Signature, generate_params, sign_batch, verify_batch,
};
use redc_ffc::encoding::{AnyKey, KeyKind};
use redc_ffc::signature::hazmat::{PrehashSigner, PrehashVerifier, RandomizedPrehashSigner};
use redc_ffc::signature::{Keypair, RandomizedSigner, Signer, Verifier};
use redc_ffc::signer::{SigningKey, VerifyingKey};
use redc_ffc::{Batch, Error, Group, HashAlg, Num, SecurityLevel};
use std::sync::{Arc, OnceLock};

/// A key of (2048, 224) parameters, made once for the tests of this file.
fn key() -> DsaPrivateKey {
    static KEY: OnceLock<DsaPrivateKey> = OnceLock::new();
    KEY.get_or_init(|| {
        let mut rng = ChaCha8Rng::seed_from_u64(36);
        let params: Arc<DsaParams> = Arc::new(generate_params(2048, 224, &mut rng).unwrap());
        DsaPrivateKey::generate(params, &mut rng).unwrap()
    })
    .clone()
}

const MSGS: [&[u8]; 4] = [b"", b"a", b"typed keys", b"issue 36"];

#[test]
fn dsa_methods_give_the_primitives_and_the_oracle() {
    let key = key();
    let engine = redc::engine::default_engine();
    let public = key.public_key();
    for hash in [HashAlg::Sha1, HashAlg::Sha256, HashAlg::Sha512] {
        let digest = hash.digest(b"typed keys");
        let sig = key.sign(hash, b"typed keys", Nonce::Deterministic, &mut OsRng).unwrap();
        let primitive = sign_batch(engine, &key, hash, &[&digest], Nonce::Deterministic, &mut OsRng);
        assert_eq!(primitive, vec![Ok(sig.clone())], "{hash:?}");
        assert_eq!(
            key.sign_prehashed(hash, &digest, Nonce::Deterministic, &mut OsRng),
            Ok(sig.clone()),
            "prehashed = hash, then sign ({hash:?})"
        );
        assert!(reference_verify(&key, &digest, &sig), "{hash:?}");
        public.verify(hash, b"typed keys", &sig).unwrap();
        public.verify_prehashed(&digest, &sig).unwrap();
        assert_eq!(verify_batch(engine, &[(public, &digest, &sig)]), [true]);
        assert_eq!(public.verify(hash, b"typed kezs", &sig), Err(Error::Verification));
        // Hedged and random nonces: new signatures, each verifying.
        for nonce in [Nonce::Hedged, Nonce::Random] {
            let other = key.sign(hash, b"typed keys", nonce, &mut OsRng).unwrap();
            assert_ne!(other, sig, "{nonce:?}");
            assert!(reference_verify(&key, &digest, &other), "{hash:?} {nonce:?}");
        }
    }
}

#[test]
fn dsa_batches_equal_single_calls() {
    let key = key();
    let engine = redc::Engine::detect();
    let public = key.public_key();
    let hash = HashAlg::Sha256;
    let digests: Vec<Vec<u8>> = MSGS.iter().map(|m| hash.digest(m)).collect();
    let digests: Vec<&[u8]> = digests.iter().map(Vec::as_slice).collect();
    let singles: Vec<Signature> = MSGS
        .iter()
        .map(|m| key.sign(hash, m, Nonce::Deterministic, &mut OsRng).unwrap())
        .collect();
    for input in [Batch::Messages(&MSGS), Batch::Digests(&digests)] {
        let sigs = key.sign_batch(&engine, hash, input, Nonce::Deterministic, &mut OsRng);
        assert_eq!(sigs, singles.iter().cloned().map(Ok).collect::<Vec<_>>(), "{input:?}");
        let refs: Vec<&Signature> = singles.iter().collect();
        assert!(
            public
                .verify_batch(&engine, hash, input, &refs)
                .iter()
                .all(Result::is_ok)
        );
        // One signature on the wrong message fails its slot only.
        let mut swapped = refs.clone();
        swapped.swap(1, 2);
        let verdicts = public.verify_batch(&engine, hash, input, &swapped);
        assert_eq!(
            verdicts.iter().map(Result::is_ok).collect::<Vec<_>>(),
            [true, false, false, true]
        );
        // A signature short: every item fails.
        let short = public.verify_batch(&engine, hash, input, &refs[1..]);
        assert_eq!(short, vec![Err(Error::Verification); MSGS.len()]);
    }
    let hedged = key.sign_batch(&engine, hash, Batch::Messages(&MSGS), Nonce::Hedged, &mut OsRng);
    for (digest, sig) in digests.iter().zip(&hedged) {
        assert!(reference_verify(&key, digest, sig.as_ref().unwrap()));
    }
}

/// Signs through the traits only, as code written for RustCrypto's `dsa`
/// crate would.
fn sign_generic<S>(signer: &S, msg: &[u8]) -> (Signature, Signature)
where
    S: Signer<Signature> + RandomizedSigner<Signature> + Keypair,
    S::VerifyingKey: Verifier<Signature>,
{
    let sig = signer.sign(msg);
    let randomized = signer.sign_with_rng(&mut OsRng, msg);
    let verifier = signer.verifying_key();
    verifier.verify(msg, &sig).unwrap();
    verifier.verify(msg, &randomized).unwrap();
    assert!(verifier.verify(b"another message", &sig).is_err());
    (sig, randomized)
}

/// Signs a digest through the prehash traits only.
fn sign_prehash_generic<S, V>(signer: &S, verifier: &V, digest: &[u8]) -> Signature
where
    S: PrehashSigner<Signature> + RandomizedPrehashSigner<Signature>,
    V: PrehashVerifier<Signature>,
{
    let sig = signer.sign_prehash(digest).unwrap();
    let randomized = signer.sign_prehash_with_rng(&mut OsRng, digest).unwrap();
    verifier.verify_prehash(digest, &sig).unwrap();
    verifier.verify_prehash(digest, &randomized).unwrap();
    sig
}

#[test]
fn the_signature_traits_work_through_generic_code() {
    let key = key();
    for hash in [HashAlg::Sha224, HashAlg::Sha256, HashAlg::Sha384] {
        let deterministic = SigningKey::new(key.clone(), hash, Nonce::Deterministic);
        let verifier = VerifyingKey::from(&deterministic);
        assert_eq!(verifier, VerifyingKey::new(key.public_key().clone(), hash));
        let (sig, randomized) = sign_generic(&deterministic, b"generic");
        assert_eq!(sig, randomized, "a deterministic nonce ignores the generator");
        assert_eq!(
            sig,
            key.sign(hash, b"generic", Nonce::Deterministic, &mut OsRng).unwrap()
        );
        // Prehashed = hash, then sign.
        let digest = hash.digest(b"generic");
        assert_eq!(
            sign_prehash_generic(&deterministic, &verifier, &digest),
            sig,
            "{hash:?}"
        );
        assert!(reference_verify(&key, &digest, &sig));

        let hedged = SigningKey::new(key.clone(), hash, Nonce::Hedged);
        let (a, b) = sign_generic(&hedged, b"generic");
        assert_ne!(a, b, "hedged nonces differ");
        sign_prehash_generic(&hedged, &hedged.verifying_key(), &digest);
    }
    // A refusal comes through as `signature::Error` with redc's as its source.
    let refused = SigningKey::new(
        key.with_security_level(SecurityLevel::new(3).unwrap()),
        HashAlg::Sha256,
        Nonce::Hedged,
    );
    let err = refused.try_sign(b"m").unwrap_err();
    let source = std::error::Error::source(&err).and_then(|e| e.downcast_ref::<Error>());
    assert!(matches!(source, Some(Error::Policy(_))), "{err:?}");
}

#[test]
fn dh_batch_method_equals_single_derivations_and_num_bigint() {
    let group = Group::Ffdhe2048;
    let key = DhPrivateKey::generate(group, None, &mut ChaCha8Rng::seed_from_u64(7)).unwrap();
    let peers: Vec<DhPrivateKey> = (0..5)
        .map(|i| DhPrivateKey::generate(group, None, &mut ChaCha8Rng::seed_from_u64(100 + i)).unwrap())
        .collect();
    let mut ys: Vec<&Num> = peers.iter().map(|k| k.public_key().y()).collect();
    let bad = Num::one();
    ys.push(&bad);
    let engine = redc::Engine::detect();
    let batch = key.derive_batch(&engine, &ys);
    let (p, x) = (big(group.params().p.n()), big(&key.exponent().reveal()));
    for (y, z) in ys.iter().zip(&batch) {
        assert_eq!(z, &key.derive(y), "batch = single");
    }
    for (y, z) in ys.iter().zip(&batch).take(peers.len()) {
        let z = z.as_ref().unwrap();
        assert_eq!(z.len(), group.bits() / 8);
        assert_eq!(BigUint::from_bytes_be(z), big(y).modpow(&x, &p));
    }
    assert!(matches!(batch.last(), Some(Err(Error::InvalidPeer(_)))));
}

#[test]
fn signature_encodings_round_trip_through_the_key() {
    let key = key();
    let public = key.public_key();
    let sig = key
        .sign(HashAlg::Sha256, b"m", Nonce::Deterministic, &mut OsRng)
        .unwrap();
    assert_eq!(public.q_len(), 28);
    for (encoding, bytes) in [
        (SigEncoding::Der, sig.to_der().unwrap()),
        (SigEncoding::P1363, sig.to_p1363(28).unwrap()),
    ] {
        assert_eq!(public.encode_signature(&sig, encoding).unwrap(), bytes);
        assert_eq!(public.decode_signature(&bytes, encoding).unwrap(), sig);
        assert_eq!(public.decode_signature(&bytes[1..], encoding), Err(Error::Verification));
    }
}

#[test]
fn any_key_levels_and_kind_names() {
    let level = SecurityLevel::new(3).unwrap();
    let AnyKey::DsaPrivate(k) = AnyKey::DsaPrivate(key()).with_security_level(level) else {
        panic!("not a DSA private key")
    };
    assert_eq!(k.security_level(), level);
    let public = AnyKey::DsaPublic(key().public_key().clone()).with_security_level(level);
    assert!(matches!(public, AnyKey::DsaPublic(_)));
    assert_eq!(KeyKind::Rsa.described(), "an RSA key");
    assert_eq!(KeyKind::Dh.described(), "a Diffie-Hellman key");
    assert_eq!(KeyKind::Dsa.described(), "a DSA key");
    for hash in HashAlg::ALL {
        let signed = key().sign(hash, b"m", Nonce::Deterministic, &mut OsRng);
        assert_eq!(signed.is_ok(), HASHES.contains(&hash), "{}", hash.name());
    }
}

#[test]
fn any_key_converts_to_the_kind_asked_or_says_what_it_is() {
    use redc_ffc::encoding::WrongKey;
    let dsa = key();
    let dh = DhPrivateKey::generate(Group::Ffdhe2048, None, &mut ChaCha8Rng::seed_from_u64(8)).unwrap();
    let dsa_pub = || AnyKey::DsaPublic(dsa.public_key().clone());
    let dh_pub = || AnyKey::DhPublic(dh.public_key().clone());
    // The right kind: the key, or a private key's public half.
    let y = |k: &redc_ffc::dsa::DsaPublicKey| k.y().clone();
    assert_eq!(
        y(AnyKey::DsaPrivate(dsa.clone()).into_dsa_private().unwrap().public_key()),
        y(dsa.public_key())
    );
    assert_eq!(
        y(&AnyKey::DsaPrivate(dsa.clone()).into_dsa_public().unwrap()),
        y(dsa.public_key())
    );
    assert_eq!(y(&dsa_pub().into_dsa_public().unwrap()), y(dsa.public_key()));
    let dh_y = dh.public_key().y().clone();
    assert_eq!(
        AnyKey::DhPrivate(dh.clone())
            .into_dh_private()
            .unwrap()
            .public_key()
            .y(),
        &dh_y
    );
    assert_eq!(AnyKey::DhPrivate(dh.clone()).into_dh_public().unwrap().y(), &dh_y);
    assert_eq!(dh_pub().into_dh_public().unwrap().y(), &dh_y);
    // A public key where a private one is needed.
    let not_private = "a private key is needed, this is a public key";
    assert_eq!(dsa_pub().into_dsa_private().unwrap_err(), WrongKey::NotPrivate);
    assert_eq!(dh_pub().into_dh_private().unwrap_err().to_string(), not_private);
    // The other algorithm's key, public or private, named.
    for k in [AnyKey::DhPrivate(dh.clone()), dh_pub()] {
        assert_eq!(k.kind(), KeyKind::Dh);
        assert_eq!(
            k.clone().into_dsa_private().unwrap_err().to_string(),
            "a Diffie-Hellman key, not a DSA key"
        );
        assert_eq!(
            k.into_dsa_public().unwrap_err().to_string(),
            "a Diffie-Hellman key, not a DSA key"
        );
    }
    for k in [AnyKey::DsaPrivate(dsa.clone()), dsa_pub()] {
        assert_eq!(k.kind(), KeyKind::Dsa);
        let e = k.clone().into_dh_private().unwrap_err();
        assert_eq!(
            e,
            WrongKey::Kind {
                found: KeyKind::Dsa,
                wanted: KeyKind::Dh
            }
        );
        assert_eq!(e.to_string(), "a DSA key, not a Diffie-Hellman key");
        assert_eq!(k.into_dh_public().unwrap_err(), e);
    }
}
