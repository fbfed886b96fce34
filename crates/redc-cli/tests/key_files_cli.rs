//! Key files redc cannot read, as a user meets them (issue 39 item 3): each
//! is named for what it is, with exit status 2 and the path; and a
//! directory given as an envelope's input.

mod common;

use common::{openssl, openssl_rsa_key, refused, scratch_dir};

/// An RSA key from `openssl genpkey`, as PEM and as DER, in `dir`.
fn rsa_key(dir: &std::path::Path) -> (String, String) {
    let pem = dir.join("k.pem");
    let der = dir.join("k.der");
    openssl_rsa_key(pem.to_str().unwrap());
    openssl(&[
        "pkey",
        "-in",
        pem.to_str().unwrap(),
        "-outform",
        "DER",
        "-out",
        der.to_str().unwrap(),
    ]);
    (pem.to_str().unwrap().to_owned(), der.to_str().unwrap().to_owned())
}

#[test]
fn every_unreadable_key_file_is_named_for_what_it_is() {
    let dir = scratch_dir("key-files");
    let (pem, der) = rsa_key(&dir);
    let msg = dir.join("msg.txt");
    std::fs::write(&msg, b"hello\n").unwrap();
    let msg = msg.to_str().unwrap();
    let file = |name: &str, bytes: &[u8]| {
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        path.to_str().unwrap().to_owned()
    };
    let cut_pem = file("cut.pem", &std::fs::read(&pem).unwrap()[..1000]);
    let cut_der = file("cut.der", &std::fs::read(&der).unwrap()[..500]);
    let ssh = file(
        "id_rsa",
        b"-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAABlwAAAAdzc2gtcn\n\
          -----END OPENSSH PRIVATE KEY-----\n",
    );
    let ssh_pub = file("id_rsa.pub", b"ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABgQC7 user@host\n");
    for (key, want) in [
        (
            &cut_pem,
            "PEM cut short: \"-----BEGIN PRIVATE KEY-----\" has no \"-----END PRIVATE KEY-----\" line",
        ),
        (&cut_der, "DER cut short: its outer SEQUENCE declares"),
        (
            &ssh,
            "an OpenSSH private key: redc reads PKCS#8 and PKCS#1; convert it in place with `ssh-keygen -p -m PKCS8 -f FILE`",
        ),
        (&ssh_pub, "an OpenSSH public key"),
    ] {
        for args in [
            vec!["sign", "--key", key, "-i", msg],
            vec!["pubkey", key],
            vec!["dh", "derive", "--key", key, "--peer", "05"],
        ] {
            let err = refused(&args);
            assert!(err.contains(key.as_str()) && err.contains(want), "{args:?}: {err}");
        }
    }
    // An RSA key where a DH key is wanted is named as an RSA key, whichever
    // encoding it comes in.
    for key in [&pem, &der] {
        let err = refused(&["dh", "derive", "--key", key, "--peer", "05"]);
        assert!(err.contains("an RSA key, not a Diffie-Hellman or DSA key"), "{err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_directory_as_an_envelopes_input_is_refused_by_name() {
    let dir = scratch_dir("envelope-dir");
    let (pem, _) = rsa_key(&dir);
    let out = dir.join("out.redc");
    let input = dir.to_str().unwrap();
    for command in ["encrypt", "decrypt"] {
        let err = refused(&[command, "--key", &pem, "-i", input, "-o", out.to_str().unwrap()]);
        assert!(
            err.contains(&format!("--in {input}: is a directory")),
            "{command}: {err}"
        );
        assert!(!out.exists(), "{command} left its output behind");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
