//! RSASSA-PSS keys (`id-RSASSA-PSS`, RFC 4055 §3.1) made by `openssl
//! genpkey -algorithm RSA-PSS`, with and without parameter restrictions:
//! read as private and public keys with their restriction, written back as
//! the same SPKI and as PKCS#8 that openssl reads with the same
//! restriction, never as PKCS#1; signatures both ways (redc signs, openssl
//! verifies; openssl signs, redc verifies); and every use the key's
//! algorithm does not allow refused: PKCS#1 v1.5 and OAEP for any PSS
//! key, another hash, MGF1 hash or a shorter salt for a restricted one (a
//! signature with a shorter salt does not verify).

mod scheme_support;

use rand_core::OsRng;
use redc_rsa::padding::{Oaep, Pkcs1v15Sign, Pss};
use redc_rsa::pss_key::{KeyAlgorithm, PssRestriction};
use redc_rsa::{AnyKey, Error, HashAlg, RsaPrivateKey, RsaPublicKey, read_key};
use scheme_support::{TempDir, openssl};

const MSG: &[u8] = b"a message for an RSASSA-PSS key";

/// An RSA-PSS key made by openssl with `opts` (`-pkeyopt` values), its
/// file names, and the key and public key as redc reads them.
fn openssl_pss_key(dir: &TempDir, name: &str, opts: &[&str]) -> (String, String, RsaPrivateKey, RsaPublicKey) {
    let key = dir.path(&format!("{name}.pem")).to_str().unwrap().to_owned();
    let public = dir.path(&format!("{name}.pub")).to_str().unwrap().to_owned();
    let mut args = vec!["genpkey", "-algorithm", "RSA-PSS", "-pkeyopt", "rsa_keygen_bits:2048"];
    for opt in opts {
        args.extend(["-pkeyopt", opt]);
    }
    args.extend(["-out", &key]);
    openssl(&args);
    openssl(&["pkey", "-in", &key, "-pubout", "-out", &public]);
    let private = match read_key(&std::fs::read(&key).unwrap(), None).unwrap() {
        AnyKey::Private(k) => k,
        AnyKey::Public(_) => panic!("{name}: a public key"),
    };
    let pub_key = read_key(&std::fs::read(&public).unwrap(), None)
        .unwrap()
        .into_public_key();
    (key, public, private, pub_key)
}

fn usage(r: Result<impl std::fmt::Debug, Error>) -> String {
    match r {
        Err(Error::KeyUsage(why)) => why,
        other => panic!("expected a key-usage refusal, got {other:?}"),
    }
}

#[test]
fn restricted_keys_round_trip_and_sign_both_ways() {
    let dir = TempDir::new("pss-keys");
    let r256 = PssRestriction {
        hash: HashAlg::Sha256,
        mgf1_hash: HashAlg::Sha256,
        salt_len: 32,
    };
    // OpenSSL's MGF1 hash stays SHA-1 unless named.
    let r384 = PssRestriction {
        hash: HashAlg::Sha384,
        mgf1_hash: HashAlg::Sha1,
        salt_len: 48,
    };
    for (name, opts, restriction) in [
        (
            "r256",
            &[
                "rsa_pss_keygen_md:sha256",
                "rsa_pss_keygen_mgf1_md:sha256",
                "rsa_pss_keygen_saltlen:32",
            ][..],
            r256,
        ),
        (
            "r384",
            &["rsa_pss_keygen_md:sha384", "rsa_pss_keygen_saltlen:48"][..],
            r384,
        ),
    ] {
        let (key_path, pub_path, key, public) = openssl_pss_key(&dir, name, opts);
        assert_eq!(
            key.public_key().algorithm(),
            KeyAlgorithm::Pss(Some(restriction)),
            "{name}"
        );
        assert_eq!(public.algorithm(), KeyAlgorithm::Pss(Some(restriction)), "{name}");
        // SPKI byte for byte as openssl writes it; PKCS#8 that openssl
        // reads with the same restriction; PKCS#1 refused.
        let theirs = openssl(&["pkey", "-in", &key_path, "-pubout", "-outform", "DER"]).stdout;
        assert_eq!(public.to_spki_der().unwrap(), theirs, "{name}: SPKI");
        assert_eq!(
            key.public_key().to_spki_der().unwrap(),
            theirs,
            "{name}: SPKI of the private key"
        );
        let ours = dir.write(&format!("{name}-ours.der"), &key.to_pkcs8_der().unwrap());
        let restrictions = |args: &[&str]| -> String {
            let text = String::from_utf8(openssl(args).stdout).unwrap();
            text.split("PSS parameter restrictions:")
                .nth(1)
                .unwrap_or_default()
                .to_owned()
        };
        let theirs_text = restrictions(&["pkey", "-in", &key_path, "-text", "-noout"]);
        let ours_text = restrictions(&[
            "pkey",
            "-in",
            ours.to_str().unwrap(),
            "-inform",
            "DER",
            "-text",
            "-noout",
        ]);
        assert!(theirs_text.contains("Hash Algorithm"), "{name}: {theirs_text}");
        assert_eq!(
            ours_text, theirs_text,
            "{name}: openssl reads redc's PKCS#8 with the same restriction"
        );
        let h = restriction.hash.name();
        let salt = restriction.salt_len;
        assert!(matches!(key.to_pkcs1_der(), Err(Error::Encoding(_))));
        assert!(public.to_pkcs1_pem().is_err());

        // redc signs with the key's defaults (its hash, its salt length);
        // openssl verifies with the key's parameters.
        let (hash, mgf) = (restriction.hash, restriction.mgf1_hash);
        let sig = key
            .sign(
                Pss {
                    hash,
                    mgf_hash: mgf,
                    salt_len: None,
                },
                MSG,
                &mut OsRng,
            )
            .unwrap();
        let (msg_path, sig_path) = (dir.write("msg", MSG), dir.write(&format!("{name}.sig"), &sig));
        let verified = openssl(&[
            "dgst",
            &format!("-{h}"),
            "-verify",
            &pub_path,
            "-signature",
            sig_path.to_str().unwrap(),
            msg_path.to_str().unwrap(),
        ]);
        assert!(
            String::from_utf8_lossy(&verified.stdout).contains("Verified OK"),
            "{name}"
        );
        // openssl signs; redc verifies (salt detected, at least the key's).
        let theirs_sig = dir.path(&format!("{name}.theirs.sig"));
        openssl(&[
            "dgst",
            &format!("-{h}"),
            "-sign",
            &key_path,
            "-out",
            theirs_sig.to_str().unwrap(),
            msg_path.to_str().unwrap(),
        ]);
        let theirs_sig = std::fs::read(&theirs_sig).unwrap();
        public
            .verify(
                Pss {
                    hash,
                    mgf_hash: mgf,
                    salt_len: None,
                },
                MSG,
                &theirs_sig,
            )
            .unwrap();
        public
            .verify(
                Pss {
                    hash,
                    mgf_hash: mgf,
                    salt_len: Some(salt),
                },
                MSG,
                &theirs_sig,
            )
            .unwrap();

        // What the restriction does not allow.
        let other = if restriction.hash == HashAlg::Sha256 {
            HashAlg::Sha1
        } else {
            HashAlg::Sha256
        };
        let why = usage(key.sign(
            Pss {
                hash: other,
                mgf_hash: other,
                salt_len: None,
            },
            MSG,
            &mut OsRng,
        ));
        assert!(why.contains(&format!("restricted to {h}")), "{why}");
        let other_mgf = if restriction.mgf1_hash == HashAlg::Sha1 {
            HashAlg::Sha256
        } else {
            HashAlg::Sha1
        };
        usage(key.sign(
            Pss {
                hash: restriction.hash,
                mgf_hash: other_mgf,
                salt_len: None,
            },
            MSG,
            &mut OsRng,
        ));
        usage(key.sign(
            Pss {
                hash,
                mgf_hash: mgf,
                salt_len: Some(salt - 1),
            },
            MSG,
            &mut OsRng,
        ));
        usage(public.verify(
            Pss {
                hash: other,
                mgf_hash: other,
                salt_len: None,
            },
            MSG,
            &theirs_sig,
        ));
        usage(key.sign(Pkcs1v15Sign::new(restriction.hash), MSG, &mut OsRng));
        usage(public.verify(Pkcs1v15Sign::new(restriction.hash), MSG, &sig));
        usage(public.encrypt(
            Oaep {
                hash: HashAlg::Sha256,
                mgf_hash: HashAlg::Sha256,
                label: <[u8]>::to_vec(b""),
            },
            b"m",
            &mut OsRng,
        ));
        usage(key.decrypt(
            Oaep {
                hash: HashAlg::Sha256,
                mgf_hash: HashAlg::Sha256,
                label: <[u8]>::to_vec(b""),
            },
            &sig,
            &mut OsRng,
        ));
        // A signature with a shorter salt, made with the same numbers as an
        // rsaEncryption key, does not verify with the restricted key.
        let twin = key.clone().with_algorithm(KeyAlgorithm::Rsa);
        let short = twin
            .sign(
                Pss {
                    hash,
                    mgf_hash: mgf,
                    salt_len: Some(salt - 1),
                },
                MSG,
                &mut OsRng,
            )
            .unwrap();
        assert_eq!(
            public.verify(
                Pss {
                    hash,
                    mgf_hash: mgf,
                    salt_len: None
                },
                MSG,
                &short
            ),
            Err(Error::Verification)
        );
        twin.public_key()
            .verify(
                Pss {
                    hash,
                    mgf_hash: mgf,
                    salt_len: None,
                },
                MSG,
                &short,
            )
            .unwrap();
    }
}

#[test]
fn an_unrestricted_key_signs_any_pss_and_nothing_else() {
    let dir = TempDir::new("pss-free");
    let (key_path, pub_path, key, public) = openssl_pss_key(&dir, "free", &[]);
    assert_eq!(key.public_key().algorithm(), KeyAlgorithm::Pss(None));
    assert_eq!(public.algorithm(), KeyAlgorithm::Pss(None));
    let theirs = openssl(&["pkey", "-in", &key_path, "-pubout", "-outform", "DER"]).stdout;
    assert_eq!(public.to_spki_der().unwrap(), theirs);
    // Any hash, MGF1 hash and salt.
    for (h, m, s) in [
        (HashAlg::Sha256, HashAlg::Sha256, None),
        (HashAlg::Sha512, HashAlg::Sha1, Some(0)),
    ] {
        let sig = key
            .sign(
                Pss {
                    hash: h,
                    mgf_hash: m,
                    salt_len: s,
                },
                MSG,
                &mut OsRng,
            )
            .unwrap();
        public
            .verify(
                Pss {
                    hash: h,
                    mgf_hash: m,
                    salt_len: s,
                },
                MSG,
                &sig,
            )
            .unwrap();
    }
    // openssl's signature with its defaults (SHA-256, salt of the hash's
    // length for an unrestricted key) verifies.
    let msg_path = dir.write("msg", MSG);
    let sig_path = dir.path("free.sig");
    openssl(&[
        "dgst",
        "-sha256",
        "-sign",
        &key_path,
        "-out",
        sig_path.to_str().unwrap(),
        msg_path.to_str().unwrap(),
    ]);
    public
        .verify(
            Pss {
                hash: HashAlg::Sha256,
                mgf_hash: HashAlg::Sha256,
                salt_len: None,
            },
            MSG,
            &std::fs::read(&sig_path).unwrap(),
        )
        .unwrap();
    let why = usage(key.sign(Pkcs1v15Sign::new(HashAlg::Sha256), MSG, &mut OsRng));
    assert!(
        why.contains("for PSS signatures only, not PKCS#1 v1.5 signatures"),
        "{why}"
    );
    let _ = pub_path;
}
