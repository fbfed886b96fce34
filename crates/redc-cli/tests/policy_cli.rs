//! Security levels on the command line: `--security-level N` (any command)
//! or `REDC_SECURITY_LEVEL`, default 2. At each level a key of each size is
//! accepted or refused for private and public operations, every refusal
//! naming the level, the level that accepts the key and how to give it;
//! public keys that cannot be RSA moduli (prime, a square, a factor just
//! above 2^16) are refused whatever the level.

mod common;

use common::{openssl, redc, refused, scratch_dir};
use std::process::Command;

fn dir() -> std::path::PathBuf {
    scratch_dir("policy")
}

fn path(name: &str) -> String {
    dir().join(name).to_str().unwrap().to_owned()
}

/// `a` then `b`.
fn cat<'a>(a: &[&'a str], b: &[&'a str]) -> Vec<&'a str> {
    [a, b].concat()
}

/// redc with `REDC_SECURITY_LEVEL=level`: its exit status and stderr.
fn with_env(level: &str, args: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_redc"))
        .args(args)
        .env("REDC_SECURITY_LEVEL", level)
        .output()
        .unwrap();
    (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn rsa_keys_at_every_level() {
    let msg = path("msg");
    std::fs::write(&msg, b"a message").unwrap();
    // 1024 bits: made and used only from level 1 down.
    let (k1024, p1024) = (path("k1024.pem"), path("k1024.pub"));
    let err = refused(&["keygen", "--bits", "1024", "-o", &k1024]);
    assert!(err.contains("at least 2048 bits at security level 2"), "{err}");
    redc(
        &[
            "keygen",
            "--bits",
            "1024",
            "--security-level",
            "1",
            "-o",
            &k1024,
            "--pub",
            &p1024,
        ],
        0,
    );
    let sig = path("k1024.sig");
    let sign_args = ["sign", "--key", k1024.as_str(), "-i", msg.as_str(), "-o", sig.as_str()];
    let sign = |extra: &[&'static str]| cat(&sign_args, extra);
    let err = refused(&sign(&[]));
    assert!(
        err.contains("1024-bit RSA key is refused for private operations at security level 2")
            && err.contains("security level 1 accepts it")
            && err.contains("give --security-level N or set REDC_SECURITY_LEVEL"),
        "{err}"
    );
    assert!(refused(&sign(&["--security-level", "3"])).contains("security level 3"));
    redc(&sign(&["--security-level", "1"]), 0);
    assert_eq!(with_env("1", &sign(&[])).0, Some(0));
    // The flag wins over the environment.
    assert_eq!(with_env("1", &sign(&["--security-level", "2"])).0, Some(2));
    // Verification keeps working one level down: 1024 bits at level 2.
    let verify_args = [
        "verify",
        "--key",
        p1024.as_str(),
        "--sig",
        sig.as_str(),
        "-i",
        msg.as_str(),
    ];
    let verify = |extra: &[&'static str]| cat(&verify_args, extra);
    assert_eq!(redc(&verify(&[]), 0), "Verified OK\n");
    let err = refused(&verify(&["--security-level", "3"]));
    assert!(
        err.contains("public operations at security level 3 (at least 2048 bits)"),
        "{err}"
    );

    // 512 bits (openssl makes them): refused at levels 1 and 2, used at 0.
    let k512 = path("k512.pem");
    openssl(&[
        "genpkey",
        "-algorithm",
        "RSA",
        "-pkeyopt",
        "rsa_keygen_bits:512",
        "-out",
        &k512,
    ]);
    let sig512 = path("k512.sig");
    let sign512_args = [
        "sign",
        "--scheme",
        "pkcs1v15",
        "--key",
        k512.as_str(),
        "-i",
        msg.as_str(),
        "-o",
        sig512.as_str(),
    ];
    let sign512 = |extra: &[&'static str]| cat(&sign512_args, extra);
    for level in ["1", "2"] {
        let err = refused(&sign512(&["--security-level", level]));
        assert!(err.contains("security level 0 accepts it"), "{level}: {err}");
    }
    redc(&sign512(&["--security-level", "0"]), 0);

    // Levels that do not exist.
    assert!(refused(&sign(&["--security-level", "6"])).contains("--security-level"));
    let (code, err) = with_env("9", &sign(&[]));
    assert_eq!(code, Some(2));
    assert!(
        err.contains("REDC_SECURITY_LEVEL=9: not a security level (0 to 5)"),
        "{err}"
    );
}

/// A PKCS#1 RSAPublicKey DER file of `n` (hexadecimal) and e = 65537,
/// written by openssl from an ASN.1 description.
fn public_key(name: &str, n_hex: &str) -> String {
    let conf = path(&format!("{name}.cnf"));
    std::fs::write(
        &conf,
        format!("asn1=SEQUENCE:key\n[key]\nn=INTEGER:0x{n_hex}\ne=INTEGER:65537\n"),
    )
    .unwrap();
    let der = path(&format!("{name}.der"));
    openssl(&["asn1parse", "-genconf", &conf, "-out", &der, "-noout"]);
    der
}

/// A random prime of `bits` bits from openssl, in hexadecimal.
fn prime(bits: &str) -> String {
    let dec = String::from_utf8(openssl(&["prime", "-generate", "-bits", bits, "-hex"])).unwrap();
    dec.trim().to_owned()
}

fn mul_hex(a: &str, b: &str) -> String {
    let big = |x: &str| num_bigint::BigUint::parse_bytes(x.as_bytes(), 16).unwrap();
    (big(a) * big(b)).to_str_radix(16)
}

#[test]
fn public_keys_that_cannot_be_rsa_moduli_are_refused_at_any_level() {
    let msg = path("m2");
    std::fs::write(&msg, b"x").unwrap();
    let p = prime("1024");
    for (name, n, why) in [
        ("prime", prime("2048"), "the modulus is prime"),
        (
            "square",
            mul_hex(&p, &p),
            "the modulus is a perfect power (an integer to the power 2)",
        ),
        (
            "f65537",
            mul_hex(&p, &format!("{:x}", 65537)),
            "small prime factor 65537",
        ),
    ] {
        let key = public_key(name, &n);
        for level in ["0", "2"] {
            let out = path("c");
            let err = refused(&[
                "rsa",
                "encrypt",
                "--key",
                &key,
                "-i",
                &msg,
                "-o",
                &out,
                "--security-level",
                level,
            ]);
            assert!(err.contains(why), "{name} at level {level}: {err}");
        }
    }
}
