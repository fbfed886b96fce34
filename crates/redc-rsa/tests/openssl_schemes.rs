//! OpenSSL interop for the schemes, both ways, at 2048 and 3072 bits:
//! RSASSA-PKCS1-v1_5 signatures (every hash with a DigestInfo),
//! RSASSA-PSS signatures (several hash / MGF1 hash / salt-length
//! combinations, OpenSSL's maximal salt checked by automatic detection),
//! RSAES-OAEP (SHA-1, SHA-256, mixed hashes, a label) and RSAES-PKCS1-v1_5
//! encryption, each made by one side and checked by the other.
//!
//! Implicit rejection: when the `openssl` command is 3.2 or later, its
//! `pkeyutl -decrypt` answers a malformed PKCS#1 v1.5 ciphertext with a
//! synthetic message, and redc must give the same bytes. Older OpenSSL
//! (3.0, 3.1) rejects explicitly; then the same comparison is made with
//! Python's `cryptography` package if it is installed and linked against
//! OpenSSL 3.2 or later, and otherwise skipped with a note (the draft's own
//! vectors in `implicit_rejection.rs` always run).
//!
//! The `openssl` command must be installed. Keys come from
//! `openssl genpkey`; they are rebuilt here from the integers that
//! `openssl pkey -text` prints (no dependency on redc's key encodings).
//! Temporary files live in a directory of their own under
//! `std::env::temp_dir()`, removed afterwards.

#![allow(clippy::print_stderr)]

mod scheme_support;

use rand_core::{OsRng, RngCore};
use redc_rsa::padding::{Oaep, Pkcs1v15Encrypt, Pkcs1v15Sign, Pss};
use redc_rsa::{HashAlg, Num, RsaPrivateKey, hazmat};
use scheme_support::{TempDir, hex, openssl, openssl_genkey, openssl_output, to_hex};
use std::path::Path;
use std::process::{Command, Stdio};

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 temp path")
}

fn write(p: &Path, data: &[u8]) {
    std::fs::write(p, data).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
}

fn read(p: &Path) -> Vec<u8> {
    std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// Everything for one key size.
fn interop(bits: usize, all_hashes: bool) {
    let dir = TempDir::new(&format!("schemes{bits}"));
    let (key_path, pub_path, key) = openssl_genkey(&dir, "key", bits);
    let (kp, pp) = (s(&key_path), s(&pub_path));
    assert_eq!(key.public_key().bits(), bits);
    let msg_path = dir.path("msg");
    let msg = format!("redc interop message for a {bits}-bit key\n").into_bytes();
    write(&msg_path, &msg);
    let mp = s(&msg_path);
    let sig_path = dir.path("sig");
    let sp = s(&sig_path);

    // RSASSA-PKCS1-v1_5: deterministic, so both sides must produce the
    // same bytes; each verifies the other's.
    let hashes: Vec<HashAlg> = if all_hashes {
        HashAlg::ALL.into_iter().filter(|h| !h.is_xof()).collect()
    } else {
        vec![HashAlg::Sha256, HashAlg::Sha512, HashAlg::Sha3_256]
    };
    for hash in hashes {
        let flag = format!("-{}", hash.name());
        let ours = key.sign(Pkcs1v15Sign::new(hash), &msg, &mut OsRng).expect("sign");
        write(&sig_path, &ours);
        openssl(&["dgst", &flag, "-verify", pp, "-signature", sp, mp]);
        openssl(&["dgst", &flag, "-sign", kp, "-out", sp, mp]);
        let theirs = read(&sig_path);
        assert_eq!(theirs, ours, "PKCS#1 v1.5 {hash:?} signatures differ");
        key.public_key()
            .verify(Pkcs1v15Sign::new(hash), &msg, &theirs)
            .expect("verify OpenSSL's signature");
    }

    // RSASSA-PSS.
    let combos: &[(HashAlg, HashAlg, usize)] = &[
        (HashAlg::Sha256, HashAlg::Sha256, 32),
        (HashAlg::Sha1, HashAlg::Sha1, 20),
        (HashAlg::Sha512, HashAlg::Sha512, 0),
        (HashAlg::Sha384, HashAlg::Sha1, 17),
        (HashAlg::Sha3_256, HashAlg::Sha3_256, 32),
    ];
    for &(hash, mgf, salt) in combos {
        let flag = format!("-{}", hash.name());
        let salt_opt = format!("rsa_pss_saltlen:{salt}");
        let mgf_opt = format!("rsa_mgf1_md:{}", mgf.name());
        let pss_opts = [
            "-sigopt",
            "rsa_padding_mode:pss",
            "-sigopt",
            &salt_opt,
            "-sigopt",
            &mgf_opt,
        ];
        let ours = key
            .sign(
                Pss {
                    hash,
                    mgf_hash: mgf,
                    salt_len: Some(salt),
                },
                &msg,
                &mut OsRng,
            )
            .expect("sign");
        write(&sig_path, &ours);
        let mut args = vec!["dgst", &flag];
        args.extend_from_slice(&pss_opts);
        args.extend_from_slice(&["-verify", pp, "-signature", sp, mp]);
        openssl(&args);
        let mut args = vec!["dgst", &flag];
        args.extend_from_slice(&pss_opts);
        args.extend_from_slice(&["-sign", kp, "-out", sp, mp]);
        openssl(&args);
        let theirs = read(&sig_path);
        key.public_key()
            .verify(
                Pss {
                    hash,
                    mgf_hash: mgf,
                    salt_len: Some(salt),
                },
                &msg,
                &theirs,
            )
            .expect("verify OpenSSL's PSS");
        key.public_key()
            .verify(
                Pss {
                    hash,
                    mgf_hash: mgf,
                    salt_len: None,
                },
                &msg,
                &theirs,
            )
            .expect("auto salt length");
        assert!(
            key.public_key()
                .verify(
                    Pss {
                        hash,
                        mgf_hash: mgf,
                        salt_len: Some(salt + 1)
                    },
                    &msg,
                    &theirs
                )
                .is_err()
        );
    }
    // OpenSSL's maximal salt, found by automatic detection.
    openssl(&[
        "dgst",
        "-sha256",
        "-sigopt",
        "rsa_padding_mode:pss",
        "-sigopt",
        "rsa_pss_saltlen:max",
        "-sign",
        kp,
        "-out",
        sp,
        mp,
    ]);
    let theirs = read(&sig_path);
    // The largest salt: emLen - hLen - 2.
    let em_len = (key.public_key().bits() - 1).div_ceil(8);
    key.public_key()
        .verify(
            Pss {
                hash: HashAlg::Sha256,
                mgf_hash: HashAlg::Sha256,
                salt_len: None,
            },
            &msg,
            &theirs,
        )
        .expect("max salt");
    key.public_key()
        .verify(
            Pss {
                hash: HashAlg::Sha256,
                mgf_hash: HashAlg::Sha256,
                salt_len: Some(em_len - 34),
            },
            &msg,
            &theirs,
        )
        .expect("max salt, given");

    // RSAES-OAEP.
    let ct_path = dir.path("ct");
    let pt_path = dir.path("pt");
    let (cp, tp) = (s(&ct_path), s(&pt_path));
    let oaep_combos: &[(HashAlg, HashAlg, &str)] = &[
        (HashAlg::Sha1, HashAlg::Sha1, ""),
        (HashAlg::Sha256, HashAlg::Sha256, ""),
        (HashAlg::Sha256, HashAlg::Sha256, "6c6162656c20e282ac"),
        (HashAlg::Sha256, HashAlg::Sha1, ""),
        (HashAlg::Sha512, HashAlg::Sha512, "00"),
    ];
    for &(hash, mgf, label_hex) in oaep_combos {
        let label = hex(label_hex);
        let md = format!("rsa_oaep_md:{}", hash.name());
        let mgf_opt = format!("rsa_mgf1_md:{}", mgf.name());
        let label_opt = format!("rsa_oaep_label:{label_hex}");
        let mut opts = vec![
            "-pkeyopt",
            "rsa_padding_mode:oaep",
            "-pkeyopt",
            &md,
            "-pkeyopt",
            &mgf_opt,
        ];
        if !label.is_empty() {
            opts.extend_from_slice(&["-pkeyopt", &label_opt]);
        }
        // OpenSSL encrypts, redc decrypts.
        let mut args = vec!["pkeyutl", "-encrypt", "-pubin", "-inkey", pp, "-in", mp, "-out", cp];
        args.extend_from_slice(&opts);
        openssl(&args);
        let pt = key
            .decrypt(
                Oaep {
                    hash,
                    mgf_hash: mgf,
                    label: <[u8]>::to_vec(&label),
                },
                &read(&ct_path),
                &mut OsRng,
            )
            .expect("OAEP decrypt");
        assert_eq!(pt[..], msg[..], "OAEP {hash:?}/{mgf:?}");
        // redc encrypts, OpenSSL decrypts.
        let ct = key
            .public_key()
            .encrypt(
                Oaep {
                    hash,
                    mgf_hash: mgf,
                    label: <[u8]>::to_vec(&label),
                },
                &msg,
                &mut OsRng,
            )
            .expect("OAEP encrypt");
        write(&ct_path, &ct);
        let mut args = vec!["pkeyutl", "-decrypt", "-inkey", kp, "-in", cp, "-out", tp];
        args.extend_from_slice(&opts);
        openssl(&args);
        assert_eq!(read(&pt_path), msg, "OpenSSL OAEP decrypt {hash:?}/{mgf:?}");
    }

    // RSAES-PKCS1-v1_5 encryption.
    openssl(&["pkeyutl", "-encrypt", "-pubin", "-inkey", pp, "-in", mp, "-out", cp]);
    let pt = key
        .decrypt(Pkcs1v15Encrypt, &read(&ct_path), &mut OsRng)
        .expect("decrypt");
    assert_eq!(pt[..], msg[..]);
    let ct = key
        .public_key()
        .encrypt(Pkcs1v15Encrypt, &msg, &mut OsRng)
        .expect("encrypt");
    write(&ct_path, &ct);
    openssl(&["pkeyutl", "-decrypt", "-inkey", kp, "-in", cp, "-out", tp]);
    assert_eq!(read(&pt_path), msg);

    implicit_rejection_against_openssl(&dir, &key_path, &key);
}

/// Malformed PKCS#1 v1.5 ciphertexts: well-formed integers below `n` whose
/// plaintexts break the padding in different ways, plus random ones.
fn malformed_ciphertexts(key: &RsaPrivateKey) -> Vec<Vec<u8>> {
    let public = key.public_key();
    let k = public.size();
    let mut out = Vec::new();
    let mut padded = |tweak: &dyn Fn(&mut [u8])| {
        let mut em = vec![0u8; k];
        OsRng.fill_bytes(&mut em);
        for b in &mut em {
            *b |= 1; // no zero bytes: no separator unless a tweak adds one
        }
        em[0] = 0;
        em[1] = 2;
        em[k - 12] = 0;
        tweak(&mut em);
        let c = public.rsaep(&Num::from_be_bytes(&em)).expect("em < n");
        out.push(c.to_be_bytes_padded(k).expect("k bytes"));
    };
    padded(&|em| em[1] = 3); // wrong block type
    padded(&|em| em[0] = 1); // wrong leading byte
    padded(&|em| em[k - 12] = 1); // no separator
    padded(&|em| em[5] = 0); // separator after only 3 bytes of padding
    padded(&|em| em[9] = 0); // separator after 7 bytes
    for _ in 0..3 {
        let mut c = vec![0u8; k];
        OsRng.fill_bytes(&mut c);
        c[0] = 0;
        out.push(c);
    }
    // Sanity: these really are invalid.
    for c in &out {
        assert!(hazmat::pkcs1v15_decrypt_explicit(key, c, &mut OsRng).is_err());
    }
    out
}

/// `(major, minor)` of the `openssl` command.
fn openssl_version() -> (u32, u32) {
    let out = openssl(&["version"]);
    let text = String::from_utf8_lossy(&out.stdout);
    let ver = text.split_whitespace().nth(1).unwrap_or("0.0");
    let mut parts = ver.split('.').map(|p| p.parse::<u32>().unwrap_or(0));
    (parts.next().unwrap_or(0), parts.next().unwrap_or(0))
}

/// Python `cryptography` on OpenSSL >= 3.2: one line per ciphertext (hex
/// in, hex or ERROR out), or `None` when unavailable.
fn python_decrypt(key_path: &Path, cts: &[Vec<u8>]) -> Option<Vec<String>> {
    const SCRIPT: &str = r#"
import sys
try:
    from cryptography.hazmat.backends.openssl.backend import backend
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import padding
except Exception:
    print("UNAVAILABLE"); sys.exit(0)
text = backend.openssl_version_text()
if not text.startswith("OpenSSL ") or backend.openssl_version_number() < 0x30200000:
    print("UNAVAILABLE"); sys.exit(0)
key = serialization.load_pem_private_key(open(sys.argv[1], "rb").read(), None)
for line in sys.stdin:
    try:
        print(key.decrypt(bytes.fromhex(line.strip()), padding.PKCS1v15()).hex())
    except Exception:
        print("ERROR")
"#;
    let mut child = Command::new("python3")
        .args(["-c", SCRIPT, s(key_path)])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let input: String = cts.iter().map(|c| to_hex(c) + "\n").collect();
    {
        use std::io::Write;
        let mut stdin = child.stdin.take()?;
        stdin.write_all(input.as_bytes()).ok()?;
    }
    let out = child.wait_with_output().ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<String> = text.lines().map(str::to_owned).collect();
    (lines.len() == cts.len() && out.status.success()).then_some(lines)
}

fn implicit_rejection_against_openssl(dir: &TempDir, key_path: &Path, key: &RsaPrivateKey) {
    let cts = malformed_ciphertexts(key);
    let ours: Vec<String> = cts
        .iter()
        .map(|c| {
            to_hex(
                &key.decrypt(Pkcs1v15Encrypt, c, &mut OsRng)
                    .expect("implicit rejection never fails here"),
            )
        })
        .collect();
    let version = openssl_version();
    if version >= (3, 2) {
        let ct_path = dir.path("bad");
        let pt_path = dir.path("bad.out");
        for (c, want) in cts.iter().zip(&ours) {
            write(&ct_path, c);
            let out = openssl_output(&[
                "pkeyutl",
                "-decrypt",
                "-inkey",
                s(key_path),
                "-in",
                s(&ct_path),
                "-out",
                s(&pt_path),
            ]);
            assert!(out.status.success(), "OpenSSL {version:?} rejected explicitly");
            assert_eq!(
                to_hex(&read(&pt_path)),
                *want,
                "synthetic message differs from OpenSSL's"
            );
        }
        eprintln!(
            "implicit rejection: {} synthetic messages match openssl {version:?}",
            cts.len()
        );
    } else if let Some(theirs) = python_decrypt(key_path, &cts) {
        assert_eq!(
            theirs, ours,
            "synthetic messages differ from OpenSSL's (through Python cryptography)"
        );
        eprintln!(
            "implicit rejection: {} synthetic messages match OpenSSL >= 3.2 (Python cryptography)",
            cts.len()
        );
    } else {
        eprintln!(
            "implicit rejection: openssl {version:?} predates implicit rejection (3.2) and no Python \
             cryptography on OpenSSL >= 3.2 was found; compared with the draft's vectors only"
        );
    }
}

#[test]
fn openssl_interop_2048() {
    interop(2048, true);
}

#[test]
fn openssl_interop_3072() {
    interop(3072, false);
}
