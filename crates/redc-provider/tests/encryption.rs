//! RSA encryption through the provider with the system's `openssl pkeyutl`:
//! ciphertexts made by redc decrypt under the default provider and the
//! reverse, for PKCS#1 v1.5, OAEP (digests, MGF1 digest, label) and no
//! padding, two- and three-prime keys; a PKCS#1 v1.5 ciphertext with a bad
//! padding decrypts to the synthetic message of implicit rejection
//! (draft-irtf-cfrg-rsa-guidance §7), checked against an independent
//! Python computation of it; bad parameters fail naming themselves.

mod cli;

use cli::{Checked, WITH_REDC, run, scratch};
use std::path::Path;

/// `pkeyutl -encrypt` of `msg` by one provider and `-decrypt` by the other,
/// both ways, with the `-pkeyopt`s `opts`; the decryption must be `msg`.
fn both_ways(key: &str, opts: &[&str], msg: &[u8]) {
    let dir = scratch();
    let tag = format!("{key}{}", opts.join("").replace([':', '-', '_'], ""));
    std::fs::write(dir.join(format!("{tag}.msg")), msg).unwrap();
    let pkeyopts: Vec<String> = opts
        .iter()
        .flat_map(|o| ["-pkeyopt".to_owned(), (*o).to_owned()])
        .collect();
    for (encrypter, name) in [(true, "redc"), (false, "default")] {
        let ct = format!("{tag}.{name}.ct");
        let mut encrypt = run(dir, &["pkeyutl", "-encrypt", "-pubin", "-inkey", &format!("{key}.pub")]);
        encrypt
            .args(["-in", &format!("{tag}.msg"), "-out", &ct])
            .args(&pkeyopts);
        if encrypter {
            encrypt.args(WITH_REDC);
        }
        encrypt.ok();
        let mut decrypt = run(
            dir,
            &["pkeyutl", "-decrypt", "-inkey", &format!("{key}.pem"), "-in", &ct],
        );
        decrypt.args(&pkeyopts);
        if !encrypter {
            decrypt.args(WITH_REDC);
        }
        let out = decrypt.ok();
        assert_eq!(out.stdout, msg, "{tag} encrypted by {name}");
    }
}

#[test]
fn pkcs1v15_and_oaep_interoperate_both_ways() {
    for key in ["two", "three"] {
        both_ways(key, &[], b"attack at dawn");
        both_ways(key, &["rsa_padding_mode:oaep"], b"attack at dawn");
        both_ways(
            key,
            &[
                "rsa_padding_mode:oaep",
                "rsa_oaep_md:sha256",
                "rsa_mgf1_md:sha512",
                "rsa_oaep_label:00112233aabb",
            ],
            b"",
        );
    }
    both_ways("four", &["rsa_padding_mode:oaep", "rsa_oaep_md:sha3-512"], &[0x5a; 382]);
    // No padding: a whole block below n.
    let mut block = vec![0u8; 256];
    block[1..].fill(0xa5);
    both_ways("two", &["rsa_padding_mode:none"], &block);
}

/// The private exponent of the PEM key `key`, in hex, from `openssl pkey
/// -text`.
fn private_exponent(dir: &Path, key: &str) -> String {
    let out = run(dir, &["pkey", "-in", key, "-text", "-noout"]).ok();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let start = text.find("privateExponent:").expect("privateExponent");
    text[start..]
        .lines()
        .skip(1)
        .take_while(|l| l.starts_with(' '))
        .flat_map(|l| l.trim().split(':'))
        .collect()
}

/// The synthetic message of draft-irtf-cfrg-rsa-guidance §7.2 for the
/// ciphertext file `ct` under the private exponent `d` (hex) of a `k`-byte
/// key, computed by Python's `hmac` and `hashlib`.
fn synthetic(dir: &Path, d: &str, k: usize, ct: &str) -> Vec<u8> {
    let program = r#"
import hashlib, hmac, sys
d, k, ct = int(sys.argv[1], 16), int(sys.argv[2]), open(sys.argv[3], 'rb').read()
kdk = hmac.new(hashlib.sha256(d.to_bytes(k, 'big')).digest(), ct, 'sha256').digest()
def prf(label, n):
    out, i = b'', 0
    while len(out) < n:
        out += hmac.new(kdk, i.to_bytes(2, 'big') + label + (8 * n).to_bytes(2, 'big'), 'sha256').digest()
        i += 1
    return out[:n]
message, lengths, most = prf(b'message', k), prf(b'length', 256), k - 10
mask, length = (1 << most.bit_length()) - 1, 0
for j in range(128):
    candidate = int.from_bytes(lengths[2 * j:2 * j + 2], 'big') & mask
    if candidate < most:
        length = candidate
sys.stdout.buffer.write(message[k - length:])
"#;
    let out = std::process::Command::new("python3")
        .current_dir(dir)
        .args(["-c", program, d, &k.to_string(), ct])
        .ok();
    out.stdout
}

/// A PKCS#1 v1.5 ciphertext whose padding is wrong decrypts, with redc,
/// to the synthetic message (the default provider of OpenSSL 3.0 reports
/// an error instead; OpenSSL 3.2 and later answer as redc does).
#[test]
fn bad_pkcs1v15_padding_is_rejected_implicitly() {
    let dir = scratch();
    let d = private_exponent(dir, "two.pem");
    for (i, fill) in [0x11u8, 0x7f, 0x3c].into_iter().enumerate() {
        // Below n (a leading zero), not a type-2 block (byte 1 is not 2).
        let mut ct = vec![fill; 256];
        ct[0] = 0;
        ct[255] = i as u8;
        let name = format!("bad{i}.ct");
        std::fs::write(dir.join(&name), &ct).unwrap();
        let decrypt = || {
            run(dir, &["pkeyutl", "-decrypt", "-inkey", "two.pem", "-in", &name])
                .args(WITH_REDC)
                .ok()
                .stdout
        };
        let first = decrypt();
        assert_eq!(first, synthetic(dir, &d, 256, &name), "ciphertext {i}");
        assert_eq!(decrypt(), first, "the same answer each time");
    }
}

#[test]
fn bad_encryption_parameters_fail_with_redcs_message() {
    let dir = scratch();
    std::fs::write(dir.join("long.msg"), [1u8; 246]).unwrap();
    let encrypt = |opts: &[&str]| {
        let mut c = run(
            dir,
            &["pkeyutl", "-encrypt", "-pubin", "-inkey", "two.pub", "-in", "long.msg"],
        );
        for o in opts {
            c.args(["-pkeyopt", o]);
        }
        c.args(WITH_REDC).fails()
    };
    let err = encrypt(&["rsa_padding_mode:oaep"]);
    assert!(err.contains("redc") && err.contains("RSA encryption"), "{err}");
    let err = encrypt(&["rsa_padding_mode:x931"]);
    assert!(err.contains("not supported for encryption"), "{err}");
    let err = encrypt(&["rsa_padding_mode:none"]);
    assert!(err.contains("the key's 256 bytes, not 246"), "{err}");
    std::fs::write(dir.join("long.ct"), [1u8; 257]).unwrap();
    let err = run(dir, &["pkeyutl", "-decrypt", "-inkey", "two.pem", "-in", "long.ct"])
        .args(WITH_REDC)
        .fails();
    assert!(err.contains("more than the key's 256"), "{err}");
}
