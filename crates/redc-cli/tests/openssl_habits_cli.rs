//! An openssl or age user's habits (issue 39 items 1 and 2): openssl's
//! option spellings, positional input files, age's recipient and identity
//! flags, and the hints a failed verification or decryption gives.

mod common;

use common::{openssl, openssl_rsa_key, run, scratch_dir};

struct Files {
    dir: std::path::PathBuf,
}

impl Files {
    fn path(&self, name: &str) -> String {
        self.dir.join(name).to_str().unwrap().to_owned()
    }
}

/// A 2048-bit key (`k.pem`), its public half (`pub.pem`) and a message
/// (`msg.txt`), made by openssl.
fn files(tag: &str) -> Files {
    let f = Files { dir: scratch_dir(tag) };
    let (key, public) = (f.path("k.pem"), f.path("pub.pem"));
    openssl_rsa_key(&key);
    openssl(&["pkey", "-in", &key, "-pubout", "-out", &public]);
    std::fs::write(f.path("msg.txt"), b"hello\n").unwrap();
    f
}

/// Run redc; its status, stdout and stderr.
fn redc(args: &[&str]) -> (Option<i32>, String, String) {
    let out = run(args, "");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code(), text(&out.stdout), text(&out.stderr))
}

#[test]
fn openssl_spellings_and_positional_files_work() {
    let f = files("openssl-spellings");
    let (key, public, msg, sig) = (f.path("k.pem"), f.path("pub.pem"), f.path("msg.txt"), f.path("s.sig"));
    assert_eq!(
        redc(&["sign", "-sha256", "-inkey", &key, "-in", &msg, "-out", &sig]).0,
        Some(0)
    );
    let verified = redc(&[
        "verify",
        "-sha256",
        "-pubin",
        "-inkey",
        &public,
        "-signature",
        &sig,
        "-in",
        &msg,
    ]);
    assert_eq!(verified, (Some(0), "Verified OK\n".into(), String::new()));
    // The message as a positional file, as openssl dgst takes it.
    let verified = redc(&["verify", "--key", &public, "-sigfile", &sig, &msg]);
    assert_eq!(verified.1, "Verified OK\n");
    let both = redc(&["verify", "--key", &public, "--sig", &sig, "-i", &msg, &msg]);
    assert_eq!(both.0, Some(2), "{both:?}");
    std::fs::remove_dir_all(&f.dir).unwrap();
}

#[test]
fn a_failed_verification_names_the_signatures_scheme_and_hash() {
    let f = files("verify-hints");
    let (key, msg) = (f.path("k.pem"), f.path("msg.txt"));
    // openssl dgst signs PKCS#1 v1.5; redc verifies PSS by default.
    let v15 = f.path("v15.sig");
    openssl(&["dgst", "-sha384", "-sign", &key, "-out", &v15, &msg]);
    let (code, out, err) = redc(&["verify", "--key", &key, "--sig", &v15, &msg]);
    assert_eq!((code, out.as_str()), (Some(1), "Verification failure\n"));
    assert!(
        err.contains("the signature is a PKCS#1 v1.5 one (openssl dgst -sign's default;")
            && err.contains("verify it with --scheme pkcs1v15 --hash sha384"),
        "{err}"
    );
    let (code, _, err) = redc(&["verify", "--key", &key, "--sig", &v15, "--scheme", "pkcs1v15", &msg]);
    assert_eq!(code, Some(1));
    assert!(
        err.contains("the signature was made with sha384: verify it with --hash sha384"),
        "{err}"
    );
    let ok = redc(&[
        "verify", "--key", &key, "--sig", &v15, "--scheme", "pkcs1v15", "-sha384", &msg,
    ]);
    assert_eq!(ok.1, "Verified OK\n");
    // A PSS signature read as PKCS#1 v1.5, and a wrong message: no hint.
    let pss = f.path("pss.sig");
    assert_eq!(redc(&["sign", "--key", &key, "-i", &msg, "-o", &pss]).0, Some(0));
    let (_, _, err) = redc(&["verify", "--key", &key, "--sig", &pss, "--scheme", "pkcs1v15", &msg]);
    assert!(err.contains("the signature is an RSASSA-PSS one"), "{err}");
    let other = f.path("other.txt");
    std::fs::write(&other, b"other\n").unwrap();
    assert_eq!(
        redc(&["verify", "--key", &key, "--sig", &pss, &other]),
        (Some(1), "Verification failure\n".into(), String::new())
    );
    std::fs::remove_dir_all(&f.dir).unwrap();
}

#[test]
fn age_flags_and_openssls_default_padding_are_understood() {
    let f = files("age-flags");
    let (key, public, msg) = (f.path("k.pem"), f.path("pub.pem"), f.path("msg.txt"));
    let sealed = f.path("msg.redc");
    assert_eq!(redc(&["encrypt", "-r", &public, "-o", &sealed, &msg]).0, Some(0));
    assert_eq!(redc(&["decrypt", "--identity", &key, &sealed]).1, "hello\n");
    // openssl pkeyutl -encrypt pads with PKCS#1 v1.5: the OAEP failure
    // says so, in words that do not depend on the ciphertext.
    let ct = f.path("ct.bin");
    openssl(&[
        "pkeyutl", "-encrypt", "-pubin", "-inkey", &public, "-in", &msg, "-out", &ct,
    ]);
    let (code, out, err) = redc(&["rsa", "decrypt", "--key", &key, "-in", &ct]);
    assert_eq!((code, out.as_str(), err.lines().count()), (Some(2), "", 1), "{err}");
    assert!(err.contains("(its ciphertexts: --scheme pkcs1v15)"), "{err}");
    let plain = redc(&["rsa", "decrypt", "--key", &key, "-in", &ct, "--scheme", "pkcs1v15"]);
    assert_eq!(plain.1, "hello\n");
    std::fs::remove_dir_all(&f.dir).unwrap();
}
