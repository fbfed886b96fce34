//! The Diffie-Hellman and DSA commands end to end, against the `openssl`
//! command both ways: `redc dh genkey|pubkey|derive|derive-batch` with
//! `openssl genpkey -pkeyopt group:NAME` and `pkeyutl -derive`; `redc keygen
//! --algorithm dsa`, `sign`, `verify` and `redc dsa sign-batch|verify-batch`
//! with `openssl dgst`; every refusal one line naming its field, status 2.

mod common;

use common::{json_lines, openssl, redc, refused};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

fn dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| common::scratch_dir("ffc-cli"))
}

fn path(name: &str) -> String {
    dir().join(name).to_str().unwrap().to_owned()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The public value `y` of an SPKI public key file, as openssl prints it.
fn openssl_y(public: &str) -> String {
    let text = String::from_utf8(openssl(&["pkey", "-pubin", "-in", public, "-text", "-noout"])).unwrap();
    let block = text.split("public-key:").nth(1).unwrap().split("P:").next().unwrap();
    let y: String = block.chars().filter(char::is_ascii_hexdigit).collect();
    y.trim_start_matches("00").to_string()
}

#[test]
fn dh_with_openssl_both_ways() {
    // modp_1536 is below the default security level (2048 bits): the test
    // names level 1 for it, as a user must.
    for (group, level) in [("ffdhe2048", "2"), ("modp_1536", "1")] {
        let (ours, ours_pub) = (path(&format!("{group}-ours.pem")), path(&format!("{group}-ours.pub")));
        let (theirs, theirs_pub) = (
            path(&format!("{group}-theirs.pem")),
            path(&format!("{group}-theirs.pub")),
        );
        if level == "1" {
            let err = refused(&["dh", "genkey", "--group", group, "-o", &ours]);
            assert!(
                err.contains("needs a prime of at least 2048 bits at security level 2"),
                "{err}"
            );
        }
        let at = ["--security-level", level];
        redc(
            &[
                &["dh", "genkey", "--group", group, "-o", &ours, "--pub", &ours_pub][..],
                &at,
            ]
            .concat(),
            0,
        );
        openssl(&[
            "genpkey",
            "-algorithm",
            "DH",
            "-pkeyopt",
            &format!("group:{group}"),
            "-out",
            &theirs,
        ]);
        redc(&["dh", "pubkey", &theirs, "-o", &theirs_pub], 0);
        // redc's public key file is openssl's.
        let pem = openssl(&["pkey", "-in", &ours, "-pubout"]);
        assert_eq!(pem, std::fs::read(&ours_pub).unwrap(), "{group}: SPKI");
        let (z1, z2) = (path(&format!("{group}.z1")), path(&format!("{group}.z2")));
        if level == "1" {
            let err = refused(&["dh", "derive", "--key", &ours, "--peer", &theirs_pub, "-o", &z1]);
            assert!(err.contains("1536-bit prime is refused at security level 2"), "{err}");
        }
        redc(
            &[
                &["dh", "derive", "--key", &ours, "--peer", &theirs_pub, "-o", &z1][..],
                &at,
            ]
            .concat(),
            0,
        );
        redc(
            &[
                &["dh", "derive", "--key", &theirs, "--peer", &ours_pub, "-o", &z2][..],
                &at,
            ]
            .concat(),
            0,
        );
        let z = std::fs::read(&z1).unwrap();
        assert_eq!(z, std::fs::read(&z2).unwrap(), "{group}: both sides");
        let by_openssl = openssl(&[
            "pkeyutl", "-derive", "-inkey", &theirs, "-peerkey", &ours_pub, "-pkeyopt", "dh_pad:1",
        ]);
        assert_eq!(by_openssl, z, "{group}: openssl's derivation");
        let unpadded = openssl(&["pkeyutl", "-derive", "-inkey", &ours, "-peerkey", &theirs_pub]);
        let z3 = path(&format!("{group}.z3"));
        redc(
            &[
                "dh",
                "derive",
                "--key",
                &ours,
                "--peer",
                &theirs_pub,
                "--unpadded",
                "-o",
                &z3,
                "--security-level",
                level,
            ],
            0,
        );
        assert_eq!(
            unpadded,
            std::fs::read(&z3).unwrap(),
            "{group}: unpadded as openssl's default"
        );

        // The batch: openssl's value, a bad one, and a good one again.
        let y = openssl_y(&theirs_pub);
        let input = format!("{{\"peer\": \"{y}\", \"id\": 7}}\n{{\"peer\": \"01\"}}\n{{\"peer\": \"{y}\"}}\n");
        let out = common::run(
            &["dh", "derive-batch", "--key", &ours, "--security-level", level],
            &input,
        );
        assert_eq!(out.status.code(), Some(2));
        let lines = json_lines(&out.stdout);
        assert_eq!(lines[0]["out"], hex(&z));
        assert_eq!(lines[0]["id"], 7);
        assert_eq!(lines[1]["field"], "peer");
        assert_eq!(lines[2]["out"], hex(&z));
    }
}

#[test]
fn dh_refusals_name_the_field() {
    let (a, b) = (path("r-a.pem"), path("r-b.pem"));
    redc(&["dh", "genkey", "-o", &a], 0);
    redc(&["dh", "genkey", "--group", "ffdhe3072", "-o", &b], 0);
    assert!(refused(&["dh", "genkey", "--group", "ffdhe1024"]).contains("--group ffdhe1024"));
    assert!(refused(&["dh", "genkey", "--exponent-bits", "100"]).contains("--exponent-bits 100"));
    assert!(refused(&["dh", "genkey", "-o", &a]).contains("--force"));
    assert!(refused(&["dh", "derive", "--key", &a, "--peer", &b, "-o", &path("r.z")]).contains("--peer"));
    let dsa = path("r-dsa.pem");
    redc(&["keygen", "--algorithm", "dsa", "--bits", "2048", "-o", &dsa], 0);
    assert!(
        refused(&["dh", "derive", "--key", &dsa, "--peer", &a, "-o", &path("r.z")])
            .contains("not a Diffie-Hellman key")
    );
    assert!(refused(&["sign", "--key", &a, "-o", &path("r.sig")]).contains("Diffie-Hellman key"));
    // A peer value outside the subgroup: p - 2 in a hand-made SPKI would need
    // DER; the batch takes the value directly.
    let p_minus_2 = "ffffffffffffffffadf85458a2bb4a9aafdc5620273d3cf1d8b9c583ce2d3695a9e13641146433fbcc939dce249b3ef97d2fe363630c75d8f681b202aec4617ad3df1ed5d5fd65612433f51f5f066ed0856365553ded1af3b557135e7f57c935984f0c70e0e68b77e2a689daf3efe8721df158a136ade73530acca4f483a797abc0ab182b324fb61d108a94bb2c8e3fbb96adab760d7f4681d4f42a3de394df4ae56ede76372bb190b07a7c8ee0a6d709e02fce1cdf7e2ecc03404cd28342f619172fe9ce98583ff8e4f1232eef28183c3fe3b1b4c6fad733bb5fcbc2ec22005c58ef1837d1683b2c6f34a26c1b2effa886b423861285c97fffffffffffffffd";
    let out = common::run(
        &["dh", "derive-batch", "--key", &a],
        &format!("{{\"peer\": \"{p_minus_2}\"}}\n"),
    );
    assert_eq!(out.status.code(), Some(2));
    let line = &json_lines(&out.stdout)[0];
    assert_eq!(line["field"], "peer");
    assert!(line["error"].as_str().unwrap().contains("subgroup"), "{line}");
}

#[test]
fn dsa_with_openssl_both_ways() {
    let msg = path("msg");
    std::fs::write(&msg, b"legacy signatures still need checking\n").unwrap();
    // redc's key, openssl's verification and signature.
    let (ours, ours_pub) = (path("dsa-ours.pem"), path("dsa-ours.pub"));
    redc(
        &[
            "keygen",
            "--algorithm",
            "dsa",
            "--bits",
            "2048",
            "--qbits",
            "256",
            "-o",
            &ours,
            "--pub",
            &ours_pub,
        ],
        0,
    );
    assert_eq!(openssl(&["pkey", "-in", &ours, "-check", "-noout"]), b"Key is valid\n");
    let sig = path("dsa-ours.sig");
    redc(&["sign", "--key", &ours, "-i", &msg, "-o", &sig], 0);
    let ok = openssl(&["dgst", "-sha256", "-verify", &ours_pub, "-signature", &sig, &msg]);
    assert_eq!(ok, b"Verified OK\n");
    let theirs_sig = path("dsa-theirs-with-ours.sig");
    openssl(&["dgst", "-sha256", "-sign", &ours, "-out", &theirs_sig, &msg]);
    assert_eq!(
        redc(&["verify", "--key", &ours_pub, "--sig", &theirs_sig, "-i", &msg], 0),
        "Verified OK\n"
    );
    assert_eq!(
        redc(
            &[
                "verify",
                "--key",
                &ours_pub,
                "--sig",
                &theirs_sig,
                "--hash",
                "sha384",
                "-i",
                &msg
            ],
            1
        ),
        "Verification failure\n"
    );
    // RFC 6979: the same signature twice; hedged (the default) and random
    // nonces: another each time.
    let (det, again) = (path("dsa-det.sig"), path("dsa-again.sig"));
    for out in [&det, &again] {
        redc(
            &[
                "sign",
                "--key",
                &ours,
                "--nonce",
                "deterministic",
                "-i",
                &msg,
                "-o",
                out,
            ],
            0,
        );
    }
    assert_eq!(std::fs::read(&det).unwrap(), std::fs::read(&again).unwrap());
    for nonce in ["hedged", "random"] {
        redc(&["sign", "--key", &ours, "--nonce", nonce, "-i", &msg, "-o", &again], 0);
        assert_ne!(std::fs::read(&det).unwrap(), std::fs::read(&again).unwrap());
    }
    redc(&["sign", "--key", &ours, "-i", &msg, "-o", &again], 0);
    assert_ne!(
        std::fs::read(&sig).unwrap(),
        std::fs::read(&again).unwrap(),
        "hedged by default"
    );

    // openssl's key, redc's signature.
    let (params, theirs) = (path("dsa-params.pem"), path("dsa-theirs.pem"));
    openssl(&[
        "genpkey",
        "-genparam",
        "-algorithm",
        "DSA",
        "-pkeyopt",
        "dsa_paramgen_bits:2048",
        "-out",
        &params,
    ]);
    openssl(&["genpkey", "-paramfile", &params, "-out", &theirs]);
    let theirs_pub = path("dsa-theirs.pub");
    redc(&["pubkey", &theirs, "-o", &theirs_pub], 0);
    let sig = path("dsa-ours-with-theirs.sig");
    redc(
        &["sign", "--key", &theirs, "--hash", "sha224", "-i", &msg, "-o", &sig],
        0,
    );
    let ok = openssl(&["dgst", "-sha224", "-verify", &theirs_pub, "-signature", &sig, &msg]);
    assert_eq!(ok, b"Verified OK\n");

    // The batches against the single commands (RFC 6979: the same
    // signatures).
    let messages = ["", "00", "6869", "ff".repeat(300).as_str()].map(String::from);
    let input: String = messages.iter().map(|m| format!("{{\"in\": \"{m}\"}}\n")).collect();
    let det = ["--nonce", "deterministic"];
    let out = common::run(&["dsa", "sign-batch", "--key", &ours, det[0], det[1]], &input);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let sigs = json_lines(&out.stdout);
    let mut verify_input = String::new();
    for (i, (m, s)) in messages.iter().zip(&sigs).enumerate() {
        let file = path(&format!("batch-{i}.msg"));
        std::fs::write(
            &file,
            (0..m.len() / 2)
                .map(|j| u8::from_str_radix(&m[2 * j..2 * j + 2], 16).unwrap())
                .collect::<Vec<_>>(),
        )
        .unwrap();
        let single = path(&format!("batch-{i}.sig"));
        redc(&["sign", "--key", &ours, det[0], det[1], "-i", &file, "-o", &single], 0);
        assert_eq!(s["sig"], hex(&std::fs::read(&single).unwrap()), "line {i}");
        verify_input += &format!("{{\"in\": \"{m}\", \"sig\": {}}}\n", s["sig"]);
        verify_input += &format!("{{\"in\": \"{m}ab\", \"sig\": {}}}\n", s["sig"]);
    }
    verify_input += "{\"in\": \"00\", \"sig\": \"3006020101020101\"}\n";
    let out = common::run(&["dsa", "verify-batch", "--key", &ours_pub], &verify_input);
    assert_eq!(out.status.code(), Some(0));
    let verdicts: Vec<bool> = json_lines(&out.stdout)
        .iter()
        .map(|v| v["valid"].as_bool().unwrap())
        .collect();
    assert_eq!(verdicts, [true, false, true, false, true, false, true, false, false]);
}

#[test]
fn dsa_refusals_name_the_field() {
    let key = path("dsa-r.pem");
    redc(&["keygen", "--algorithm", "dsa", "--bits", "2048", "-o", &key], 0);
    assert!(refused(&["keygen", "--algorithm", "dsa", "--bits", "1024", "-o", &path("x.pem")]).contains("--bits 1024"));
    assert!(refused(&["keygen", "--algorithm", "dsa", "--e", "3", "-o", &path("x.pem")]).contains("--e"));
    assert!(refused(&["keygen", "--qbits", "256", "-o", &path("x.pem")]).contains("--qbits"));
    assert!(refused(&["sign", "--key", &key, "--scheme", "pss", "-o", &path("x.sig")]).contains("--scheme"));
    assert!(refused(&["sign", "--key", &key, "--hash", "sha3-256", "-o", &path("x.sig")]).contains("--hash"));
    assert!(refused(&["pubkey", &key, "--format", "pkcs1"]).contains("--format pkcs1"));
    assert!(refused(&["dsa", "verify-batch", "--key", &key, "--nonce", "random"]).contains("--nonce"));
    // (1024, 160): verification only at the default security level.
    let (params, small) = (path("dsa1024-params.pem"), path("dsa1024.pem"));
    openssl(&[
        "genpkey",
        "-genparam",
        "-algorithm",
        "DSA",
        "-pkeyopt",
        "dsa_paramgen_bits:1024",
        "-pkeyopt",
        "dsa_paramgen_q_bits:160",
        "-out",
        &params,
    ]);
    openssl(&["genpkey", "-paramfile", &params, "-out", &small]);
    let msg = path("dsa1024.msg");
    std::fs::write(&msg, b"m").unwrap();
    let err = refused(&["sign", "--key", &small, "-i", &msg, "-o", &path("x.sig")]);
    assert!(
        err.contains("DSA signing with a 1024-bit prime is refused at security level 2")
            && err.contains("security level 1 accepts it")
            && err.contains("--security-level"),
        "{err}"
    );
    // Relaxed on purpose, it signs, and openssl verifies.
    let ours = path("dsa1024-ours.sig");
    redc(
        &[
            "sign",
            "--security-level",
            "1",
            "--key",
            &small,
            "--hash",
            "sha1",
            "-i",
            &msg,
            "-o",
            &ours,
        ],
        0,
    );
    let pub1024 = path("dsa1024.pub");
    redc(&["pubkey", &small, "-o", &pub1024], 0);
    openssl(&["dgst", "-sha1", "-verify", &pub1024, "-signature", &ours, &msg]);
    let sig = path("dsa1024.sig");
    openssl(&["dgst", "-sha1", "-sign", &small, "-out", &sig, &msg]);
    assert_eq!(
        redc(
            &["verify", "--key", &small, "--hash", "sha1", "--sig", &sig, "-i", &msg],
            0
        ),
        "Verified OK\n"
    );
    // Parameters that fail validation: the public key file rebuilt with
    // g = p - 1 (in range, but (p - 1)^q = -1, not 1).
    let public = path("dsa-r.der");
    redc(&["pubkey", &key, "--outform", "der", "-o", &public], 0);
    let der = std::fs::read(&public).unwrap();
    let [alg, bits] = children(content(&der));
    let [oid, params] = children(content(&alg));
    let [p, q, _g] = children(content(&params));
    let mut g = content(&p).to_vec();
    *g.last_mut().unwrap() -= 1;
    let params = tlv(0x30, &[p, q, tlv(0x02, &[g])]);
    let bad = tlv(0x30, &[tlv(0x30, &[oid, params]), bits]);
    let bad_key = path("dsa-bad-g.der");
    std::fs::write(&bad_key, &bad).unwrap();
    let err = refused(&["verify", "--key", &bad_key, "--sig", &public, "-i", &public]);
    assert!(err.contains("--key") && err.contains("g^q mod p is not 1"), "{err}");
}

/// The content of a DER TLV.
fn content(der: &[u8]) -> &[u8] {
    let (start, len) = header(der);
    &der[start..start + len]
}

/// Where a TLV's content starts, and its length.
fn header(der: &[u8]) -> (usize, usize) {
    match der[1] {
        n if n < 0x80 => (2, n as usize),
        n => {
            let k = (n & 0x7f) as usize;
            (2 + k, der[2..2 + k].iter().fold(0, |acc, &b| acc << 8 | b as usize))
        }
    }
}

/// The TLVs of a constructed content, whole.
fn children<const N: usize>(mut content: &[u8]) -> [Vec<u8>; N] {
    let mut out = Vec::new();
    while !content.is_empty() {
        let (start, len) = header(content);
        out.push(content[..start + len].to_vec());
        content = &content[start + len..];
    }
    out.try_into().unwrap()
}

/// A DER TLV of `tag` around the concatenation of `parts`.
fn tlv(tag: u8, parts: &[Vec<u8>]) -> Vec<u8> {
    let body = parts.concat();
    let len = body.len();
    let mut out = vec![tag];
    match len {
        0..0x80 => out.push(len as u8),
        0x80..0x100 => out.extend([0x81, len as u8]),
        _ => out.extend([0x82, (len >> 8) as u8, len as u8]),
    }
    out.extend(body);
    out
}
