//! RSASSA-PSS keys and MGF1 hashes on the command line, against openssl
//! both ways: `openssl genpkey -algorithm RSA-PSS` keys (restricted and
//! not) sign and verify through `redc sign`/`verify` and the batch
//! commands with the key's own parameters by default; `redc keygen
//! --algorithm rsa-pss` makes keys openssl reads with the same
//! restriction; `--mgf1-hash` gives PSS another MGF1 hash; what a key's
//! algorithm does not allow is refused with exit status 2.

mod common;

use common::{json_lines, openssl, redc, refused, run, scratch_dir};

fn path(name: &str) -> String {
    scratch_dir("pss").join(name).to_str().unwrap().to_owned()
}

fn verified_by_openssl(args: &[&str]) -> bool {
    let out = std::process::Command::new("openssl").args(args).output().unwrap();
    String::from_utf8_lossy(&out.stdout).contains("Verified OK")
}

/// The "PSS parameter restrictions" of `openssl pkey -text` of `key`.
fn restrictions(key: &str) -> String {
    let text = String::from_utf8(openssl(&["pkey", "-in", key, "-text", "-noout"])).unwrap();
    text.split("PSS parameter restrictions:")
        .nth(1)
        .unwrap_or_default()
        .to_owned()
}

#[test]
fn openssl_pss_keys_sign_and_verify_with_their_parameters() {
    let msg = path("msg");
    std::fs::write(&msg, b"a message").unwrap();
    let (key, public) = (path("r256.pem"), path("r256.pub"));
    openssl(&[
        "genpkey",
        "-algorithm",
        "RSA-PSS",
        "-pkeyopt",
        "rsa_keygen_bits:2048",
        "-pkeyopt",
        "rsa_pss_keygen_md:sha256",
        "-pkeyopt",
        "rsa_pss_keygen_mgf1_md:sha256",
        "-pkeyopt",
        "rsa_pss_keygen_saltlen:32",
        "-out",
        &key,
    ]);
    redc(&["pubkey", &key, "-o", &public], 0);
    assert_eq!(
        std::fs::read(&public).unwrap(),
        openssl(&["pkey", "-in", &key, "-pubout"]),
        "redc's SPKI is openssl's"
    );
    // redc signs with the key's parameters; openssl verifies.
    let sig = path("r256.sig");
    redc(&["sign", "--key", &key, "-i", &msg, "-o", &sig], 0);
    assert!(verified_by_openssl(&[
        "dgst",
        "-sha256",
        "-verify",
        &public,
        "-signature",
        &sig,
        &msg
    ]));
    // openssl signs; redc verifies (and with its public key only).
    let theirs = path("r256.theirs.sig");
    openssl(&["dgst", "-sha256", "-sign", &key, "-out", &theirs, &msg]);
    for k in [&key, &public] {
        assert_eq!(
            redc(&["verify", "--key", k, "--sig", &theirs, "-i", &msg], 0),
            "Verified OK\n"
        );
    }
    // Outside the restriction, or another scheme: refused, naming why.
    for (args, why) in [
        (vec!["--hash", "sha1"], "restricted to sha256"),
        (vec!["--mgf1-hash", "sha1"], "MGF1 hash asked for is sha1"),
        (vec!["--salt-len", "20"], "salt length asked for is 20"),
        (
            vec!["--scheme", "pkcs1v15"],
            "for PSS signatures only, not PKCS#1 v1.5 signatures",
        ),
    ] {
        let argv = [
            &["sign", "--key", key.as_str(), "-i", msg.as_str(), "-o", "/dev/null"][..],
            &args,
        ]
        .concat();
        let err = refused(&argv);
        assert!(err.contains(why), "{args:?}: {err}");
    }
    let err = refused(&["rsa", "encrypt", "--key", &public, "-i", &msg, "-o", "/dev/null"]);
    assert!(err.contains("not OAEP encryption"), "{err}");
    // The batch commands take the same defaults.
    let out = run(
        &["rsa", "private-batch", "--key", &key, "--op", "sign-pss"],
        "{\"in\": \"6d\"}\n",
    );
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let sig_hex = json_lines(&out.stdout)[0]["out"].as_str().unwrap().to_owned();
    let line = format!("{{\"in\": \"6d\", \"sig\": \"{sig_hex}\"}}\n");
    let out = run(&["rsa", "public-batch", "--key", &public, "--op", "verify-pss"], &line);
    assert_eq!(json_lines(&out.stdout)[0]["valid"], true);
}

#[test]
fn keygen_makes_pss_keys_openssl_reads_the_same() {
    let msg = path("msg2");
    std::fs::write(&msg, b"another message").unwrap();
    let (key, public) = (path("ours.pem"), path("ours.pub"));
    redc(
        &[
            "keygen",
            "--algorithm",
            "rsa-pss",
            "--bits",
            "2048",
            "--hash",
            "sha384",
            "--salt-len",
            "48",
            "-o",
            &key,
            "--pub",
            &public,
        ],
        0,
    );
    let text = restrictions(&key);
    assert!(
        text.contains("SHA2-384") && text.contains("MGF1 with SHA2-384") && text.contains("Minimum Salt Length: 48"),
        "{text}"
    );
    let theirs = path("ours.theirs.sig");
    openssl(&["dgst", "-sha384", "-sign", &key, "-out", &theirs, &msg]);
    assert_eq!(
        redc(&["verify", "--key", &public, "--sig", &theirs, "-i", &msg], 0),
        "Verified OK\n"
    );
    // Unrestricted: openssl reads it as RSA-PSS with no restriction.
    let free = path("free.pem");
    redc(&["keygen", "--algorithm", "rsa-pss", "--bits", "2048", "-o", &free], 0);
    let text = String::from_utf8(openssl(&["pkey", "-in", &free, "-text", "-noout"])).unwrap();
    assert!(text.contains("No PSS parameter restrictions"), "{text}");
    // Options of RSA-PSS only, and PKCS#1.
    assert!(refused(&["keygen", "--hash", "sha256"]).contains("--hash: only for --algorithm rsa-pss"));
    let err = refused(&["keygen", "--algorithm", "rsa-pss", "--format", "pkcs1"]);
    assert!(err.contains("PKCS#1 cannot say"), "{err}");
}

#[test]
fn mgf1_hash_gives_pss_another_mask_hash() {
    let msg = path("msg3");
    std::fs::write(&msg, b"mask").unwrap();
    let (key, public) = (path("rsa.pem"), path("rsa.pub"));
    redc(&["keygen", "--bits", "2048", "-o", &key, "--pub", &public], 0);
    let sig = path("mgf1.sig");
    redc(
        &[
            "sign",
            "--key",
            &key,
            "--hash",
            "sha256",
            "--mgf1-hash",
            "sha1",
            "-i",
            &msg,
            "-o",
            &sig,
        ],
        0,
    );
    assert!(verified_by_openssl(&[
        "dgst",
        "-sha256",
        "-sigopt",
        "rsa_padding_mode:pss",
        "-sigopt",
        "rsa_mgf1_md:sha1",
        "-sigopt",
        "rsa_pss_saltlen:32",
        "-verify",
        &public,
        "-signature",
        &sig,
        &msg,
    ]));
    assert_eq!(
        redc(
            &[
                "verify",
                "--key",
                &public,
                "--mgf1-hash",
                "sha1",
                "--sig",
                &sig,
                "-i",
                &msg
            ],
            0
        ),
        "Verified OK\n"
    );
    let out = run(&["verify", "--key", &public, "--sig", &sig, "-i", &msg], "");
    assert_eq!(out.status.code(), Some(1), "the default MGF1 hash is --hash");
    let err = refused(&[
        "sign",
        "--key",
        &key,
        "--scheme",
        "pkcs1v15",
        "--mgf1-hash",
        "sha1",
        "-o",
        "/dev/null",
    ]);
    assert!(err.contains("--mgf1-hash: only for --scheme pss"), "{err}");
}
