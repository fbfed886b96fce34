//! Interop with the `openssl` command, both ways: Diffie-Hellman keys of
//! named groups (`genpkey -pkeyopt group:NAME`, `pkeyutl -derive`) and DSA
//! parameters, keys and signatures (`genpkey`, `dgst -sign`/`-verify`),
//! each made by one side and used by the other.

use rand_core::OsRng;
use redc_ffc::dh::DhPrivateKey;
use redc_ffc::dsa::{DsaPrivateKey, Nonce, Signature, generate_params};
use redc_ffc::encoding::KeyFile;
use redc_ffc::{AnyKey, Group, HashAlg, read_key};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

fn dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("openssl-{name}"));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn openssl(args: &[&str]) -> Vec<u8> {
    let out = Command::new("openssl")
        .args(args)
        .output()
        .expect("the openssl command");
    assert!(
        out.status.success(),
        "openssl {}: {}",
        args.join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn dh_keys_and_secrets_agree_with_openssl_both_ways() {
    for group in [Group::Ffdhe2048, Group::Modp2048, Group::Ffdhe3072] {
        let d = dir(group.name());
        let (theirs, theirs_pub) = (d.join("theirs.pem"), d.join("theirs_pub.pem"));
        let name = format!("group:{}", group.name());
        openssl(&["genpkey", "-algorithm", "DH", "-pkeyopt", &name, "-out", path(&theirs)]);
        openssl(&["pkey", "-in", path(&theirs), "-pubout", "-out", path(&theirs_pub)]);
        let AnyKey::DhPrivate(their_key) = read_key(&std::fs::read(&theirs).unwrap()).unwrap() else {
            panic!("openssl's private key is not read as DH")
        };
        assert_eq!(their_key.group(), group);
        assert_eq!(
            their_key.exponent_bits(),
            group.exponent_bits(),
            "openssl's exponent size"
        );
        let AnyKey::DhPublic(their_pub) = read_key(&std::fs::read(&theirs_pub).unwrap()).unwrap() else {
            panic!("openssl's public key is not read as DH")
        };
        assert_eq!(&their_pub, their_key.public_key());

        let ours = DhPrivateKey::generate(group, None, &mut OsRng).unwrap();
        let (ours_path, ours_pub) = (d.join("ours.pem"), d.join("ours_pub.der"));
        std::fs::write(&ours_path, ours.to_pem().unwrap().as_bytes()).unwrap();
        std::fs::write(&ours_pub, ours.public_key().to_der().unwrap()).unwrap();
        let text = String::from_utf8(openssl(&["pkey", "-in", path(&ours_path), "-text", "-noout"])).unwrap();
        assert!(text.contains(&format!("GROUP: {}", group.name())), "{text}");
        openssl(&["pkey", "-pubin", "-inform", "DER", "-in", path(&ours_pub), "-noout"]);

        let ours_pub_pem = d.join("ours_pub.pem");
        std::fs::write(&ours_pub_pem, ours.public_key().to_pem().unwrap().as_bytes()).unwrap();
        let by_openssl = openssl(&[
            "pkeyutl",
            "-derive",
            "-inkey",
            path(&theirs),
            "-peerkey",
            path(&ours_pub_pem),
            "-pkeyopt",
            "dh_pad:1",
        ]);
        let by_openssl_ours = openssl(&[
            "pkeyutl",
            "-derive",
            "-inkey",
            path(&ours_path),
            "-peerkey",
            path(&theirs_pub),
            "-pkeyopt",
            "dh_pad:1",
        ]);
        let by_redc = ours.derive(their_pub.y()).unwrap();
        let by_redc_theirs = their_key.derive(ours.public_key().y()).unwrap();
        assert_eq!(by_openssl, *by_redc, "{group}: openssl's key and ours");
        assert_eq!(by_openssl_ours, *by_redc, "{group}: our key in openssl");
        assert_eq!(by_redc_theirs, by_redc, "{group}: openssl's key in redc");
    }
}

#[test]
fn dsa_keys_and_signatures_agree_with_openssl_both_ways() {
    let d = dir("dsa");
    let msg = d.join("msg");
    std::fs::write(&msg, b"bulk DSA on the Montgomery engine\n").unwrap();
    let digest = HashAlg::Sha256.digest(&std::fs::read(&msg).unwrap());

    // openssl's parameters and key, used by redc.
    let (params, theirs, theirs_pub) = (d.join("params.pem"), d.join("theirs.pem"), d.join("theirs_pub.pem"));
    openssl(&[
        "genpkey",
        "-genparam",
        "-algorithm",
        "DSA",
        "-pkeyopt",
        "dsa_paramgen_bits:2048",
        "-pkeyopt",
        "dsa_paramgen_q_bits:256",
        "-out",
        path(&params),
    ]);
    openssl(&["genpkey", "-paramfile", path(&params), "-out", path(&theirs)]);
    openssl(&["pkey", "-in", path(&theirs), "-pubout", "-out", path(&theirs_pub)]);
    let AnyKey::DsaPrivate(their_key) = read_key(&std::fs::read(&theirs).unwrap()).unwrap() else {
        panic!("openssl's key is not read as DSA")
    };
    their_key.params().validate(&mut OsRng).unwrap();
    let their_sig = d.join("their.sig");
    openssl(&[
        "dgst",
        "-sha256",
        "-sign",
        path(&theirs),
        "-out",
        path(&their_sig),
        path(&msg),
    ]);
    let sig = Signature::from_der(&std::fs::read(&their_sig).unwrap()).unwrap();
    their_key.public_key().verify_prehashed(&digest, &sig).unwrap();
    let ours_with_theirs = d.join("ours_with_theirs.sig");
    let sig = their_key
        .sign_prehashed(HashAlg::Sha256, &digest, Nonce::Deterministic, &mut OsRng)
        .unwrap();
    std::fs::write(&ours_with_theirs, sig.to_der().unwrap()).unwrap();
    let out = openssl(&[
        "dgst",
        "-sha256",
        "-verify",
        path(&theirs_pub),
        "-signature",
        path(&ours_with_theirs),
        path(&msg),
    ]);
    assert_eq!(out, b"Verified OK\n");

    // redc's parameters and key, used by openssl.
    let params = Arc::new(generate_params(2048, 224, &mut OsRng).unwrap());
    let ours = DsaPrivateKey::generate(params, &mut OsRng).unwrap();
    let (ours_path, ours_pub) = (d.join("ours.pem"), d.join("ours_pub.pem"));
    std::fs::write(&ours_path, ours.to_pem().unwrap().as_bytes()).unwrap();
    std::fs::write(&ours_pub, ours.public_key().to_pem().unwrap().as_bytes()).unwrap();
    let check = openssl(&["pkey", "-in", path(&ours_path), "-check", "-noout"]);
    assert_eq!(check, b"Key is valid\n");
    let our_sig = d.join("our.sig");
    let digest224 = HashAlg::Sha224.digest(&std::fs::read(&msg).unwrap());
    let sig = ours
        .sign_prehashed(HashAlg::Sha224, &digest224, Nonce::Random, &mut OsRng)
        .unwrap();
    std::fs::write(&our_sig, sig.to_der().unwrap()).unwrap();
    let out = openssl(&[
        "dgst",
        "-sha224",
        "-verify",
        path(&ours_pub),
        "-signature",
        path(&our_sig),
        path(&msg),
    ]);
    assert_eq!(out, b"Verified OK\n");
    let their_sig = d.join("their_with_ours.sig");
    openssl(&[
        "dgst",
        "-sha224",
        "-sign",
        path(&ours_path),
        "-out",
        path(&their_sig),
        path(&msg),
    ]);
    let sig = Signature::from_der(&std::fs::read(&their_sig).unwrap()).unwrap();
    ours.public_key().verify_prehashed(&digest224, &sig).unwrap();
}
