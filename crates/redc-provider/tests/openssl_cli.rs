//! The provider through the system's `openssl` command, as a user loads it
//! (`-provider-path DIR -provider redc -provider default -propquery
//! ?provider=redc`): listed by OpenSSL; RSA signatures made with it verify
//! under the default provider and the default provider's verify with it,
//! for PKCS#1 v1.5 and PSS, of messages (`dgst`) and of digests and raw
//! bytes (`pkeyutl`), for two-prime and three-prime keys; bad parameters
//! and bad signatures fail with redc's message on OpenSSL's error queue.

mod cli;

use cli::{Checked, WITH_REDC, config, free_port, run, scratch, self_signed};

#[test]
fn openssl_lists_the_provider_and_its_algorithms() {
    let dir = scratch();
    let out = run(
        dir,
        &[
            "list",
            "-signature-algorithms",
            "-key-managers",
            "-asymcipher-algorithms",
        ],
    )
    .args(WITH_REDC)
    .ok();
    let text = String::from_utf8_lossy(&out.stdout);
    let ours: Vec<&str> = text.lines().filter(|l| l.ends_with("@ redc")).collect();
    assert_eq!(ours.len(), 3, "{text}");
    assert!(ours.iter().all(|l| l.contains("rsaEncryption")), "{text}");
    let out = run(dir, &["list", "-providers", "-verbose"]).args(WITH_REDC).ok();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("name: redc") && text.contains("status: active"), "{text}");
}

/// `dgst` signatures with `opts` (`-sigopt` pairs) and `digest`: made by
/// redc, verified by the default provider, and the reverse.
fn dgst_both_ways(key: &str, digest: &str, opts: &[&str]) {
    let dir = scratch();
    let (private, public) = (format!("{key}.pem"), format!("{key}.pub"));
    let sigopts: Vec<String> = opts
        .iter()
        .flat_map(|o| ["-sigopt".to_owned(), (*o).to_owned()])
        .collect();
    let tag = format!("{key}{digest}{}", opts.join("").replace([':', '-'], ""));
    for (signer, verifier, name) in [(true, false, "redc"), (false, true, "default")] {
        let sig = format!("{tag}.{name}.sig");
        let mut sign = run(dir, &["dgst", digest, "-sign", &private, "-out", &sig]);
        sign.args(&sigopts);
        if signer {
            sign.args(WITH_REDC);
        }
        sign.arg("msg").ok();
        let mut verify = run(dir, &["dgst", digest, "-verify", &public, "-signature", &sig]);
        verify.args(&sigopts);
        if verifier {
            verify.args(WITH_REDC);
        }
        let out = verify.arg("msg").ok();
        assert_eq!(
            String::from_utf8_lossy(&out.stdout).trim(),
            "Verified OK",
            "{tag} signed by {name}"
        );
    }
}

#[test]
fn pkcs1v15_signatures_interoperate_both_ways() {
    for key in ["two", "three"] {
        for digest in ["-sha256", "-sha384", "-sha512", "-sha1", "-sha3-256"] {
            dgst_both_ways(key, digest, &[]);
        }
    }
}

#[test]
fn pss_signatures_interoperate_both_ways() {
    for key in ["two", "three"] {
        for salt in ["-1", "-2", "0", "20"] {
            let salt = format!("rsa_pss_saltlen:{salt}");
            dgst_both_ways(key, "-sha256", &["rsa_padding_mode:pss", &salt]);
        }
    }
    dgst_both_ways("two", "-sha512", &["rsa_padding_mode:pss", "rsa_mgf1_md:sha256"]);
}

#[test]
fn pkeyutl_signs_digests_and_raw_bytes_both_ways() {
    let dir = scratch();
    run(dir, &["dgst", "-sha256", "-binary", "-out", "digest", "msg"]).ok();
    let cases: [(&str, &[&str]); 3] = [
        ("digest", &["-pkeyopt", "digest:sha256"]),
        (
            "digest",
            &["-pkeyopt", "digest:sha256", "-pkeyopt", "rsa_padding_mode:pss"],
        ),
        ("msg", &[]),
    ];
    for (i, (input, opts)) in cases.iter().enumerate() {
        for (signer, name) in [(true, "redc"), (false, "default")] {
            let sig = format!("pkeyutl{i}.{name}.sig");
            let mut sign = run(
                dir,
                &["pkeyutl", "-sign", "-inkey", "two.pem", "-in", input, "-out", &sig],
            );
            sign.args(*opts);
            if signer {
                sign.args(WITH_REDC);
            }
            sign.ok();
            let mut verify = run(
                dir,
                &[
                    "pkeyutl", "-verify", "-pubin", "-inkey", "two.pub", "-in", input, "-sigfile", &sig,
                ],
            );
            verify.args(*opts);
            if !signer {
                verify.args(WITH_REDC);
            }
            let out = verify.ok();
            assert!(
                String::from_utf8_lossy(&out.stdout).contains("Signature Verified Successfully"),
                "case {i} signed by {name}"
            );
        }
    }
}

#[test]
fn bad_parameters_and_signatures_fail_with_redcs_message() {
    let dir = scratch();
    let sign = |opts: &[&str]| {
        run(dir, &["dgst", "-sha256", "-sign", "two.pem", "-out", "bad.sig"])
            .args(opts)
            .args(WITH_REDC)
            .arg("msg")
            .fails()
    };
    let err = sign(&["-sigopt", "rsa_padding_mode:pss", "-sigopt", "rsa_pss_saltlen:-9"]);
    assert!(err.contains("salt length -9 is not valid"), "{err}");
    let err = sign(&["-sigopt", "rsa_padding_mode:x931"]);
    assert!(err.contains("padding mode x931 is not supported"), "{err}");
    // A salt too long for the key.
    let err = sign(&["-sigopt", "rsa_padding_mode:pss", "-sigopt", "rsa_pss_saltlen:300"]);
    assert!(err.contains("RSA signing"), "{err}");
    // A digest of the wrong length.
    std::fs::write(dir.join("short"), [7u8; 10]).unwrap();
    let err = run(
        dir,
        &[
            "pkeyutl",
            "-sign",
            "-inkey",
            "two.pem",
            "-in",
            "short",
            "-pkeyopt",
            "digest:sha256",
        ],
    )
    .args(WITH_REDC)
    .fails();
    assert!(err.contains("redc") && err.contains("RSA signing"), "{err}");
    // A signature with one bit flipped, verified by redc.
    run(dir, &["dgst", "-sha256", "-sign", "two.pem", "-out", "good.sig", "msg"]).ok();
    let mut sig = std::fs::read(dir.join("good.sig")).unwrap();
    sig[100] ^= 1;
    std::fs::write(dir.join("flipped.sig"), sig).unwrap();
    let out = run(
        dir,
        &["dgst", "-sha256", "-verify", "two.pub", "-signature", "flipped.sig"],
    )
    .args(WITH_REDC)
    .arg("msg")
    .output()
    .unwrap();
    assert!(!out.status.success());
    let text = String::from_utf8_lossy(&out.stdout) + String::from_utf8_lossy(&out.stderr);
    assert!(
        text.contains("Verification failure") && text.contains("RSA verification"),
        "{text}"
    );
}

#[test]
fn certificates_signed_with_redc_verify() {
    let dir = scratch();
    for (i, opts) in [
        &[][..],
        &["-sigopt", "rsa_padding_mode:pss", "-sigopt", "rsa_pss_saltlen:-1"][..],
        &["-sha512", "-sigopt", "rsa_padding_mode:pss"][..],
    ]
    .iter()
    .enumerate()
    {
        let cert = format!("cert{i}.pem");
        self_signed(dir, "three.pem", "/CN=redc", &cert)
            .args(*opts)
            .args(WITH_REDC)
            .ok();
        let out = run(dir, &["verify", "-CAfile", &cert, &cert]).ok();
        assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), format!("{cert}: OK"));
        let text = run(dir, &["x509", "-in", &cert, "-noout", "-text"]).ok();
        let text = String::from_utf8_lossy(&text.stdout);
        let want = if opts.is_empty() {
            "sha256WithRSAEncryption"
        } else {
            "rsassaPss"
        };
        assert!(text.contains(want), "{text}");
    }
}

/// A TLS server through the provider with a 4096-bit key, its handshakes
/// in OpenSSL's async jobs or not (`-async`: each on a 32 KiB fibre stack,
/// which redc's kernels once overflowed, aborting the server after the
/// handshake), answering a verifying client with TLS 1.3, TLS 1.2
/// ECDHE-RSA (redc signs) and TLS 1.2 RSA key exchange (redc decrypts the
/// premaster secret with the TLS padding).
#[test]
fn a_tls_server_runs_its_handshakes_on_redc() {
    let dir = scratch();
    self_signed(dir, "four.pem", "/CN=localhost", "tls.pem").ok();
    let cases = [
        ("-tls1_3", None),
        ("-tls1_2", Some("ECDHE-RSA-AES128-GCM-SHA256")),
        // RSA key exchange: redc decrypts the client's premaster secret.
        ("-tls1_2", Some("AES128-GCM-SHA256")),
    ];
    for ((version, cipher), mode) in cases.into_iter().flat_map(|c| [(c, None), (c, Some("-async"))]) {
        // A free port on loopback, then a server that answers one client.
        let port = free_port();
        let accept = format!("127.0.0.1:{port}");
        let mut server = run(
            dir,
            &["s_server", "-accept", &accept, "-naccept", "1", "-key", "four.pem"],
        )
        .args(["-cert", "tls.pem", "-www", "-quiet"])
        .args(mode)
        .args(WITH_REDC)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
        let mut client = run(
            dir,
            &[
                "s_client",
                "-connect",
                &accept,
                version,
                "-brief",
                "-verify_return_error",
            ],
        );
        client.args(["-CAfile", "tls.pem", "-verify_hostname", "localhost"]);
        if let Some(c) = cipher {
            client.args(["-cipher", c]);
        }
        // The server may need a moment to listen.
        let mut out = None;
        for _ in 0..50 {
            let input = std::fs::File::open(dir.join("newline")).unwrap();
            let o = client.stdin(input).output().unwrap();
            if o.status.success() {
                out = Some(o);
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
        // A server that served its one client has exited by itself, 0.
        let mut status = None;
        for _ in 0..50 {
            status = server.try_wait().unwrap();
            if status.is_some() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
        if status.is_none() {
            let _ = server.kill();
        }
        let status = status.or_else(|| server.wait().ok());
        let out = out.expect("the handshake never completed");
        assert!(
            status.is_some_and(|s| s.success()),
            "{version} {mode:?}: the server ended with {status:?}"
        );
        let text = String::from_utf8_lossy(&out.stderr);
        assert!(text.contains("CONNECTION ESTABLISHED"), "{text}");
        assert!(text.contains("Verification: OK"), "{text}");
        assert!(text.contains(&version.replace("-tls1_", "TLSv1.")), "{text}");
    }
}

/// With redc preferred, OpenSSL asks its key management for new RSA keys:
/// `genpkey` makes them (any size and prime count redc makes), and a size
/// it refuses is named.
#[test]
fn genpkey_makes_keys_through_redc() {
    let dir = scratch();
    for (bits, primes) in [("2048", "2"), ("3072", "3")] {
        let key = format!("gen{bits}.pem");
        run(dir, &["genpkey", "-algorithm", "RSA", "-out", &key])
            .args(["-pkeyopt", &format!("rsa_keygen_bits:{bits}")])
            .args(["-pkeyopt", &format!("rsa_keygen_primes:{primes}")])
            .args(WITH_REDC)
            .ok();
        let out = run(dir, &["pkey", "-in", &key, "-check", "-noout"]).ok();
        assert!(String::from_utf8_lossy(&out.stdout).contains("Key is valid"), "{bits}");
        let out = run(dir, &["rsa", "-in", &key, "-text", "-noout"]).ok();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            text.starts_with(&format!("Private-Key: ({bits} bit, {primes} primes)")),
            "{text}"
        );
    }
    let err = run(
        dir,
        &[
            "genpkey",
            "-algorithm",
            "RSA",
            "-out",
            "small.pem",
            "-pkeyopt",
            "rsa_keygen_bits:100",
        ],
    )
    .args(WITH_REDC)
    .fails();
    assert!(err.contains("redc generates keys of 1024 to 16384 bits"), "{err}");
}

/// `batch-wait-us` in the provider's section: a number of microseconds up
/// to a second is taken; anything else keeps the provider from loading.
#[test]
fn the_batch_wait_is_configured_in_openssl_cnf() {
    let dir = scratch();
    for (lines, loads) in [
        ("", true),
        ("batch-wait-us = 250", true),
        ("batch-wait-us = 0", true),
        ("batch-wait-us = lots", false),
        ("batch-wait-us = 2000000", false),
    ] {
        let cnf = config("wait.cnf", lines);
        let out = run(dir, &["list", "-providers"])
            .env("OPENSSL_CONF", &cnf)
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(text.contains("  redc\n"), loads, "{lines:?}: {text}");
        if loads {
            run(dir, &["dgst", "-sha256", "-sign", "two.pem", "-out", "cnf.sig", "msg"])
                .env("OPENSSL_CONF", &cnf)
                .ok();
            run(
                dir,
                &["dgst", "-sha256", "-verify", "two.pub", "-signature", "cnf.sig", "msg"],
            )
            .ok();
        }
    }
}

/// Keys OpenSSL's default provider takes (1024 and 512 bits) are taken as
/// well, the program's policy deciding, unless `security-level` in the
/// provider's section asks for redc's (then smaller keys are neither used
/// nor made); a level that does not exist keeps the provider from
/// loading.
#[test]
fn small_keys_work_unless_a_security_level_is_set() {
    let dir = scratch();
    for bits in ["512", "1024"] {
        let key = format!("small{bits}.pem");
        run(dir, &["genpkey", "-algorithm", "RSA", "-out", &key])
            .args(["-pkeyopt", &format!("rsa_keygen_bits:{bits}")])
            .ok();
        let sig = format!("small{bits}.sig");
        run(dir, &["dgst", "-sha256", "-sign", &key, "-out", &sig])
            .args(WITH_REDC)
            .arg("msg")
            .ok();
        run(dir, &["dgst", "-sha256", "-prverify", &key, "-signature", &sig, "msg"]).ok();
        let strict = config("strict.cnf", "security-level = 2");
        let err = run(dir, &["dgst", "-sha256", "-sign", &key, "-out", &sig, "msg"])
            .env("OPENSSL_CONF", &strict)
            .fails();
        assert!(
            err.contains(&format!(
                "a {bits}-bit RSA key is refused for private operations at security level 2"
            )),
            "{err}"
        );
    }
    // Nor does it make keys the level refuses.
    let err = run(dir, &["genpkey", "-algorithm", "RSA", "-out", "small.pem"])
        .args(["-pkeyopt", "rsa_keygen_bits:1024"])
        .env("OPENSSL_CONF", config("strict.cnf", "security-level = 2"))
        .fails();
    assert!(err.contains("1024 bits is below security level 2's 2048"), "{err}");
    let out = run(dir, &["list", "-providers"])
        .env("OPENSSL_CONF", config("bad-level.cnf", "security-level = 9"))
        .output()
        .unwrap();
    assert!(!String::from_utf8_lossy(&out.stdout).contains("  redc\n"));
}
