//! The RSA commands end to end, against the `openssl` command both ways:
//! keys, signatures (PSS, PKCS#1 v1.5), OAEP and PKCS#1 v1.5 encryption, the
//! file envelope (round trip, tampering, truncation, 1 GiB with flat
//! memory), the textbook `--raw-blocks` mode and the batch commands.

mod common;

use common::{json_lines, openssl, redc, refused};
use redc_rsa::padding::Oaep;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

/// A scratch directory for this test process.
fn dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| common::scratch_dir("rsa-cli"))
}

fn path(name: &str) -> String {
    dir().join(name).to_str().unwrap().to_owned()
}

/// A fresh 2048-bit key at `key`, encrypted with the password in the file `pw`.
fn encrypted_key(key: &str, pw: &str) {
    redc(
        &[
            "keygen",
            "--bits",
            "2048",
            "--encrypt",
            "--password-file",
            pw,
            "-o",
            key,
        ],
        0,
    );
}

/// A key pair made by redc (2048 bits) and one made by openssl (3072 bits),
/// generated once per test process.
fn keys() -> &'static (String, String, String, String) {
    static KEYS: OnceLock<(String, String, String, String)> = OnceLock::new();
    KEYS.get_or_init(|| {
        let (rk, rp) = (path("redc.pem"), path("redc.pub"));
        redc(&["keygen", "--bits", "2048", "-o", &rk, "--pub", &rp], 0);
        let ok = path("openssl.pem");
        openssl(&[
            "genpkey",
            "-algorithm",
            "RSA",
            "-pkeyopt",
            "rsa_keygen_bits:3072",
            "-out",
            &ok,
        ]);
        let op = path("openssl.pub");
        openssl(&["pkey", "-in", &ok, "-pubout", "-out", &op]);
        (rk, rp, ok, op)
    })
}

#[test]
fn keys_open_both_ways() {
    let (rk, rp, ok, _) = keys();
    openssl(&["pkey", "-in", rk, "-check", "-noout"]);
    openssl(&["pkey", "-pubin", "-in", rp, "-noout"]);
    // redc's public key of openssl's key equals openssl's.
    let ours = redc(&["pubkey", ok], 0);
    let theirs = String::from_utf8(openssl(&["pkey", "-in", ok, "-pubout"])).unwrap();
    assert_eq!(ours, theirs);
    // PKCS#1 forms.
    let trad = path("trad.pem");
    openssl(&["rsa", "-in", ok, "-traditional", "-out", &trad]);
    assert_eq!(redc(&["pubkey", &trad], 0), theirs);
    let p1 = redc(&["pubkey", ok, "--format", "pkcs1"], 0);
    // An odd-size key (p of 1025 bits, q of 1024): redc signs, openssl verifies.
    let odd = path("odd.pem");
    openssl(&[
        "genpkey",
        "-algorithm",
        "RSA",
        "-pkeyopt",
        "rsa_keygen_bits:2049",
        "-out",
        &odd,
    ]);
    let (m, s) = (path("odd.msg"), path("odd.sig"));
    std::fs::write(&m, b"2049").unwrap();
    redc(&["sign", "--key", &odd, "-i", &m, "-o", &s], 0);
    openssl(&[
        "dgst",
        "-sha256",
        "-sigopt",
        "rsa_padding_mode:pss",
        "-prverify",
        &odd,
        "-signature",
        &s,
        &m,
    ]);
    let p1f = path("p1.pub");
    std::fs::write(&p1f, &p1).unwrap();
    openssl(&["rsa", "-RSAPublicKey_in", "-in", &p1f, "-noout"]);
}

#[test]
fn signatures_both_ways() {
    let (rk, rp, ok, op) = keys();
    let msg = path("msg.txt");
    std::fs::write(&msg, b"Montgomery multiplication, 1985\n").unwrap();
    for (key, pubkey) in [(rk, rp), (ok, op)] {
        for hash in ["sha256", "sha1", "sha512", "sha3-256"] {
            // redc signs, openssl verifies (PSS with salt = hash length, and PKCS#1 v1.5).
            let sig = path(&format!("sig-{hash}"));
            redc(&["sign", "--key", key, "--hash", hash, "-i", &msg, "-o", &sig], 0);
            let dg = format!("-{hash}");
            openssl(&[
                "dgst",
                &dg,
                "-sigopt",
                "rsa_padding_mode:pss",
                "-sigopt",
                "rsa_pss_saltlen:digest",
                "-verify",
                pubkey,
                "-signature",
                &sig,
                &msg,
            ]);
            redc(
                &[
                    "sign", "--key", key, "--scheme", "pkcs1v15", "--hash", hash, "-i", &msg, "-o", &sig,
                ],
                0,
            );
            openssl(&["dgst", &dg, "-verify", pubkey, "-signature", &sig, &msg]);
            // openssl signs, redc verifies; a flipped message fails with status 1.
            openssl(&[
                "dgst",
                &dg,
                "-sigopt",
                "rsa_padding_mode:pss",
                "-sign",
                key,
                "-out",
                &sig,
                &msg,
            ]);
            redc(
                &["verify", "--key", pubkey, "--hash", hash, "-i", &msg, "--sig", &sig],
                0,
            );
            openssl(&["dgst", &dg, "-sign", key, "-out", &sig, &msg]);
            redc(
                &[
                    "verify", "--key", key, "--scheme", "pkcs1v15", "--hash", hash, "-i", &msg, "--sig", &sig,
                ],
                0,
            );
            let other = path("other.txt");
            std::fs::write(&other, b"Montgomery multiplication, 1986\n").unwrap();
            redc(
                &[
                    "verify", "--key", pubkey, "--scheme", "pkcs1v15", "--hash", hash, "-i", &other, "--sig", &sig,
                ],
                1,
            );
        }
    }
}

#[test]
fn oaep_and_pkcs1v15_encryption_both_ways() {
    let (rk, rp, ok, op) = keys();
    let msg = path("secret.txt");
    std::fs::write(&msg, b"attack at dawn").unwrap();
    for (key, pubkey) in [(rk, rp), (ok, op)] {
        for hash in ["sha1", "sha256"] {
            let ct = path(&format!("ct-{hash}"));
            let pt = path(&format!("pt-{hash}"));
            let (oaep_md, mgf_md) = (format!("rsa_oaep_md:{hash}"), format!("rsa_mgf1_md:{hash}"));
            let oaep = [
                "-pkeyopt",
                "rsa_padding_mode:oaep",
                "-pkeyopt",
                &oaep_md,
                "-pkeyopt",
                &mgf_md,
            ];
            redc(
                &["rsa", "encrypt", "--key", pubkey, "--hash", hash, "-i", &msg, "-o", &ct],
                0,
            );
            openssl(
                &[
                    &["pkeyutl", "-decrypt", "-inkey", key][..],
                    &oaep,
                    &["-in", &ct, "-out", &pt],
                ]
                .concat(),
            );
            assert_eq!(std::fs::read(&pt).unwrap(), b"attack at dawn");
            openssl(
                &[
                    &["pkeyutl", "-encrypt", "-pubin", "-inkey", pubkey][..],
                    &oaep,
                    &["-in", &msg, "-out", &ct],
                ]
                .concat(),
            );
            redc(
                &["rsa", "decrypt", "--key", key, "--hash", hash, "-i", &ct, "-o", &pt],
                0,
            );
            assert_eq!(std::fs::read(&pt).unwrap(), b"attack at dawn");
        }
        let ct = path("ct-v15");
        let pt = path("pt-v15");
        redc(
            &[
                "rsa", "encrypt", "--scheme", "pkcs1v15", "--key", pubkey, "-i", &msg, "-o", &ct,
            ],
            0,
        );
        openssl(&["pkeyutl", "-decrypt", "-inkey", key, "-in", &ct, "-out", &pt]);
        assert_eq!(std::fs::read(&pt).unwrap(), b"attack at dawn");
        openssl(&[
            "pkeyutl", "-encrypt", "-pubin", "-inkey", pubkey, "-in", &msg, "-out", &ct,
        ]);
        redc(
            &[
                "rsa", "decrypt", "--scheme", "pkcs1v15", "--key", key, "-i", &ct, "-o", &pt,
            ],
            0,
        );
        assert_eq!(std::fs::read(&pt).unwrap(), b"attack at dawn");
    }
}

#[test]
fn envelope_round_trip_and_tampering() {
    let (rk, rp, ok, _) = keys();
    let data: Vec<u8> = (0..200_000u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    let (plain, sealed, back) = (path("env.bin"), path("env.redc"), path("env.out"));
    std::fs::write(&plain, &data).unwrap();
    redc(&["encrypt", "--key", rp, "-i", &plain, "-o", &sealed], 0);
    redc(&["decrypt", "--key", rk, "-i", &sealed, "-o", &back], 0);
    assert_eq!(std::fs::read(&back).unwrap(), data);
    std::fs::remove_file(&back).unwrap();
    // The wrong key: status 2, nothing written.
    let out = common::run(&["decrypt", "--key", ok, "-i", &sealed, "-o", &back], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(!Path::new(&back).exists());
    // A tampered byte anywhere, or a truncation: status 2, nothing written.
    let sealed_bytes = std::fs::read(&sealed).unwrap();
    let bad = path("env.bad");
    let mut positions: Vec<usize> = (0..40).collect();
    positions.extend((40..sealed_bytes.len()).step_by(9973));
    positions.push(sealed_bytes.len() - 1);
    for pos in positions {
        let mut t = sealed_bytes.clone();
        t[pos] ^= 0x20;
        std::fs::write(&bad, &t).unwrap();
        let out = common::run(&["decrypt", "--key", rk, "-i", &bad, "-o", &back], "");
        assert_eq!(out.status.code(), Some(2), "tampered byte {pos}");
        assert!(!Path::new(&back).exists(), "tampered byte {pos} left output");
    }
    for len in [0, 10, 300, sealed_bytes.len() / 2, sealed_bytes.len() - 1] {
        std::fs::write(&bad, &sealed_bytes[..len]).unwrap();
        let out = common::run(&["decrypt", "--key", rk, "-i", &bad, "-o", &back], "");
        assert_eq!(out.status.code(), Some(2), "truncated to {len}");
        assert!(!Path::new(&back).exists());
    }
}

#[test]
fn raw_blocks_round_trip() {
    let (rk, rp, _, _) = keys();
    let data: Vec<u8> = (0..1000u32).map(|i| (i * 7 % 251) as u8).collect();
    let (plain, sealed, back) = (path("raw.bin"), path("raw.redc"), path("raw.out"));
    std::fs::write(&plain, &data).unwrap();
    redc(
        &["encrypt", "--raw-blocks", "--key", rp, "-i", &plain, "-o", &sealed],
        0,
    );
    // 8-byte length, then ceil(1000 / 255) blocks of 256 bytes.
    assert_eq!(std::fs::metadata(&sealed).unwrap().len(), 8 + 4 * 256);
    redc(&["decrypt", "--raw-blocks", "--key", rk, "-i", &sealed, "-o", &back], 0);
    assert_eq!(std::fs::read(&back).unwrap(), data);
    let help = redc(&["encrypt", "--help"], 0);
    assert!(help.contains("INSECURE"));
}

#[test]
fn batches() {
    let (rk, rp, _, _) = keys();
    let input = "{\"in\": \"00112233\"}\n{\"in\": \"zz\"}\n";
    let out = common::run(&["rsa", "private-batch", "--key", rk, "--op", "sign-pss"], input);
    assert_eq!(out.status.code(), Some(2));
    let lines = json_lines(&out.stdout);
    assert_eq!(lines.len(), 2);
    let sig = lines[0]["out"].as_str().unwrap().to_owned();
    assert_eq!(sig.len(), 512);
    assert_eq!(lines[1]["field"], "in");
    let verify =
        format!("{{\"in\": \"00112233\", \"sig\": \"{sig}\"}}\n{{\"in\": \"00112234\", \"sig\": \"{sig}\"}}\n");
    let out = common::run(&["rsa", "public-batch", "--key", rp, "--op", "verify-pss"], &verify);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "{\"valid\":true}\n{\"valid\":false}\n"
    );
    // raw: public then private is the identity.
    let out = common::run(
        &["rsa", "public-batch", "--key", rp, "--op", "raw"],
        "{\"in\": \"05\"}\n",
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let back = common::run(
        &["rsa", "private-batch", "--key", rk, "--op", "raw"],
        &format!("{{\"in\": \"{}\"}}\n", v["out"].as_str().unwrap()),
    );
    let v: serde_json::Value = serde_json::from_slice(&back.stdout).unwrap();
    assert!(v["out"].as_str().unwrap().trim_start_matches('0') == "5");
    // Hex with 0x (as modexp's numbers), and an "id" of any JSON value
    // echoed in its answer, error or not.
    let input = "{\"id\": {\"shard\": 3}, \"in\": \"0x05\"}\n{\"id\": 7, \"in\": \"+5\"}\n{\"in\": \"0X05\"}\n";
    let out = common::run(&["rsa", "public-batch", "--key", rp, "--op", "raw"], input);
    assert_eq!(out.status.code(), Some(2));
    let lines = json_lines(&out.stdout);
    assert_eq!(lines[0]["id"], serde_json::json!({"shard": 3}));
    assert_eq!(lines[0]["out"], lines[2]["out"], "0x and 0X");
    assert_eq!(lines[1]["id"], 7);
    assert_eq!(
        lines[1]["error"],
        "line 2: field \"in\": invalid hexadecimal at position 0"
    );
    assert!(lines[2].get("id").is_none());
}

/// `pow(m, e, n)` by Python for every hex input (lower-case hex, `k` bytes).
fn python_pow_hex(inputs: &[String], e: u64, n: &str, k: usize) -> Vec<String> {
    let script = format!(
        "import sys\nn = int('{n}', 16)\nfor line in sys.stdin.read().split():\n    \
         print(format(pow(int(line, 16), {e}, n), '0{}x'))\n",
        2 * k
    );
    let mut child = Command::new("python3")
        .args(["-c", &script])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 is installed (.ci/run installs it)");
    let text = inputs.join("\n");
    let mut pipe = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || pipe.write_all(text.as_bytes()));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

#[test]
fn raw_batches_run_in_chunks_in_order_against_python() {
    // openssl's 3072-bit key (e = 65537); more lines than one chunk (256),
    // with a bad line, one out of range and one too long among them.
    let (_, _, ok, op) = keys();
    let modulus = String::from_utf8(openssl(&["rsa", "-in", ok, "-noout", "-modulus"])).unwrap();
    let n = modulus.trim().strip_prefix("Modulus=").unwrap().to_lowercase();
    let k = n.len() / 2;
    let bad = |i: usize| [100, 200, 250].contains(&i);
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let inputs: Vec<String> = (0..300)
        .map(|i| {
            let bytes: Vec<u8> = (0..k)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    state as u8
                })
                .collect();
            // The top byte below 0x80 keeps the input below n (which has 3072 bits).
            let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
            match i {
                100 => "zz".to_owned(),
                200 => "ff".repeat(k),
                250 => "01".repeat(k + 1),
                _ => format!("{:02x}{}", bytes[0] & 0x7f, &hex[2..]),
            }
        })
        .collect();
    let jsonl = |xs: &[String]| xs.iter().map(|x| format!("{{\"in\": \"{x}\"}}\n")).collect::<String>();
    let parse = |out: std::process::Output| -> Vec<serde_json::Value> {
        assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    };
    let public = parse(common::run(
        &["rsa", "public-batch", "--key", op, "--op", "raw"],
        &jsonl(&inputs),
    ));
    assert_eq!(public.len(), inputs.len());
    let good: Vec<String> = (0..inputs.len())
        .filter(|&i| !bad(i))
        .map(|i| inputs[i].clone())
        .collect();
    let mut expect = python_pow_hex(&good, 65537, &n, k).into_iter();
    let mut ciphertexts = Vec::new();
    for (i, line) in public.iter().enumerate() {
        if bad(i) {
            assert_eq!(line["line"], i + 1, "{line}");
            assert_eq!(line["field"], "in", "{line}");
            ciphertexts.push(inputs[i].clone());
        } else {
            let out = line["out"].as_str().unwrap().to_owned();
            assert_eq!(out, expect.next().unwrap(), "line {}", i + 1);
            ciphertexts.push(out);
        }
    }
    // Private is the inverse, line by line, with the same three errors.
    let private = parse(common::run(
        &["rsa", "private-batch", "--key", ok, "--op", "raw"],
        &jsonl(&ciphertexts),
    ));
    assert_eq!(private.len(), inputs.len());
    for (i, line) in private.iter().enumerate() {
        if bad(i) {
            assert_eq!(line["line"], i + 1, "{line}");
        } else {
            assert_eq!(line["out"].as_str().unwrap(), inputs[i], "line {}", i + 1);
        }
    }
    assert!(private[200]["error"].as_str().unwrap().contains("out of range"));
    assert!(private[250]["error"].as_str().unwrap().contains("too long"));
}

#[test]
fn raw_batch_answers_a_line_before_the_next_is_written() {
    // A chunk never waits for input that is not there: a driver that writes
    // one line and waits for its answer is served.
    let (_, rp, _, _) = keys();
    let mut child = Command::new(env!("CARGO_BIN_EXE_redc"))
        .args(["rsa", "public-batch", "--key", rp, "--op", "raw"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let stdout = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        use std::io::BufRead;
        for line in std::io::BufReader::new(stdout).lines() {
            let _ = tx.send(line.unwrap());
        }
    });
    for x in ["02", "03", "04"] {
        writeln!(stdin, "{{\"in\": \"{x}\"}}").unwrap();
        stdin.flush().unwrap();
        let answer = rx
            .recv_timeout(std::time::Duration::from_secs(60))
            .expect("an answer before the next line is written");
        assert!(answer.starts_with("{\"out\":"), "{answer}");
    }
    drop(stdin);
    assert!(child.wait().unwrap().success());
}

#[test]
fn bad_rsa_input_exits_2() {
    let (rk, _, _, _) = keys();
    let msg = path("m.txt");
    std::fs::write(&msg, b"x").unwrap();
    for args in [
        vec!["sign", "--key", "/nonexistent/key.pem", "-i", &msg, "-o", "/dev/null"],
        vec!["sign", "--key", &msg, "-i", &msg, "-o", "/dev/null"],
        vec!["sign", "--key", rk, "--hash", "md5", "-i", &msg, "-o", "/dev/null"],
        vec!["keygen", "--bits", "512"],
        vec!["keygen", "--e", "4"],
        vec![
            "rsa",
            "encrypt",
            "--key",
            rk,
            "--label",
            "abc",
            "-i",
            &msg,
            "-o",
            "/dev/null",
        ],
    ] {
        let out = common::run(&args, "");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    }
}

/// keygen never replaces a key without --force (checked before any work),
/// and never writes both keys to one file.
#[test]
fn keygen_refuses_to_overwrite_without_force() {
    let (k, p) = (path("kept.pem"), path("kept.pub"));
    redc(&["keygen", "--bits", "2048", "-o", &k, "--pub", &p], 0);
    let (key, public) = (std::fs::read(&k).unwrap(), std::fs::read(&p).unwrap());
    for (args, message) in [
        (
            vec!["keygen", "--bits", "2048", "-o", &k],
            format!("redc: -o {k}: the file exists; give --force to replace it\n"),
        ),
        (
            vec!["keygen", "--bits", "2048", "-o", "-", "--pub", &p],
            format!("redc: --pub {p}: the file exists; give --force to replace it\n"),
        ),
        (
            vec!["keygen", "--bits", "2048", "--force", "-o", &k, "--pub", &k],
            format!("redc: --pub {k}: the same file as -o\n"),
        ),
    ] {
        let out = common::run(&args, "");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_eq!(String::from_utf8_lossy(&out.stderr), message, "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}: nothing generated");
    }
    assert_eq!(
        (std::fs::read(&k).unwrap(), std::fs::read(&p).unwrap()),
        (key.clone(), public)
    );
    redc(&["keygen", "--bits", "2048", "--force", "-o", &k, "--pub", &p], 0);
    assert_ne!(std::fs::read(&k).unwrap(), key, "replaced with --force");
}

/// Key errors say what to do: `pubkey` names its KEY argument, an
/// encrypted key without a password says how to give one, an empty
/// password is refused, a key of another algorithm is named.
#[test]
fn key_errors_say_what_to_do() {
    let (empty, pw) = (path("empty.pw"), path("secret.pw"));
    std::fs::write(&empty, b"\n").unwrap();
    std::fs::write(&pw, b"secret\n").unwrap();
    let enc = path("enc.pem");
    encrypted_key(&enc, &pw);
    let ed = path("ed.pem");
    openssl(&["genpkey", "-algorithm", "ed25519", "-out", &ed]);
    let missing = path("missing.pem");
    for (args, line) in [
        (
            vec!["pubkey", missing.as_str()],
            format!("redc: KEY {missing}: No such file or directory (os error 2)"),
        ),
        (
            vec!["pubkey", enc.as_str()],
            format!(
                "redc: KEY {enc}: the private key is encrypted: a password is needed \
                 (give --password-file FILE or set REDC_KEY_PASSWORD, or run it on a terminal to be asked)"
            ),
        ),
        (
            vec!["pubkey", enc.as_str(), "--password-file", empty.as_str()],
            format!("redc: --password-file {empty}: the password is empty"),
        ),
        (
            vec![
                "keygen",
                "--bits",
                "2048",
                "--encrypt",
                "--password-file",
                empty.as_str(),
            ],
            format!("redc: --password-file {empty}: the password is empty"),
        ),
        (
            vec!["sign", "--key", ed.as_str(), "-i", pw.as_str(), "-o", "/dev/null"],
            format!(
                "redc: --key {ed}: key encoding: PKCS#8 PrivateKeyInfo: an Ed25519 key (1.3.101.112), \
                 not an RSA key"
            ),
        ),
    ] {
        let out = common::run(&args, "");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_eq!(String::from_utf8_lossy(&out.stderr), format!("{line}\n"), "{args:?}");
    }
    let out = common::run(&["pubkey", &enc, "--password-file", &pw], "");
    assert!(out.status.success() && out.stdout.starts_with(b"-----BEGIN PUBLIC KEY-----"));
    // An empty REDC_KEY_PASSWORD does not matter for a key that is not
    // encrypted, and is named for one that is.
    let (rk, _, _, _) = keys();
    let with_empty_env = |key: &str| {
        Command::new(env!("CARGO_BIN_EXE_redc"))
            .args(["pubkey", key])
            .env("REDC_KEY_PASSWORD", "")
            .output()
            .unwrap()
    };
    assert!(with_empty_env(rk).status.success());
    let out = with_empty_env(&enc);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "redc: REDC_KEY_PASSWORD: the password is empty\n"
    );
}

/// Peak resident memory (KiB) and exit status of `redc args`, fed `len`
/// pseudo-random bytes on stdin, as `/usr/bin/time` reports them.
fn measured(args: &[&str], len: u64) -> (u64, i32) {
    let report = path("time.txt");
    let mut child = Command::new("/usr/bin/time")
        .args(["-f", "%M", "-o", &report, env!("CARGO_BIN_EXE_redc")])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("/usr/bin/time is installed (.ci/run installs it)");
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut buf = vec![0u8; 1 << 16];
        let mut left = len;
        while left > 0 {
            for chunk in buf.chunks_mut(8) {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                chunk.copy_from_slice(&x.to_le_bytes()[..chunk.len()]);
            }
            let n = left.min(buf.len() as u64) as usize;
            if stdin.write_all(&buf[..n]).is_err() {
                return;
            }
            left -= n as u64;
        }
    });
    let mut err = String::new();
    child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    let status = child.wait().unwrap();
    writer.join().unwrap();
    let kib = std::fs::read_to_string(&report)
        .unwrap()
        .trim()
        .lines()
        .last()
        .unwrap_or("0")
        .parse()
        .unwrap_or(0);
    (kib, status.code().unwrap_or(-1))
}

/// `sign` and `verify` hash the message as they read it: a 1 GiB message
/// takes no more memory than a 16 MiB one (give or take 4 MiB), and the
/// signature of the stream verifies.
#[test]
fn one_gib_sign_and_verify_in_flat_memory() {
    let (rk, rp, _, _) = keys();
    let sig = path("big.sig");
    let (small_kib, code) = measured(&["sign", "--key", rk, "-i", "-", "-o", &sig], 16 << 20);
    assert_eq!(code, 0);
    let (big_kib, code) = measured(&["sign", "--key", rk, "-i", "-", "-o", &sig], 1 << 30);
    assert_eq!(code, 0);
    assert!(
        big_kib < small_kib + 4 * 1024,
        "sign: {small_kib} KiB for 16 MiB, {big_kib} KiB for 1 GiB"
    );
    let (verify_kib, code) = measured(&["verify", "--key", rp, "-i", "-", "--sig", &sig], 1 << 30);
    assert_eq!(code, 0, "the signature of the 1 GiB stream verifies");
    assert!(verify_kib < small_kib + 4 * 1024, "verify: {verify_kib} KiB for 1 GiB");
    let (_, code) = measured(&["verify", "--key", rp, "-i", "-", "--sig", &sig], (1 << 30) - 1);
    assert_eq!(code, 1, "one byte less: invalid");
}

#[test]
fn one_gib_round_trip_in_flat_memory() {
    let (rk, rp, _, _) = keys();
    let (small, big) = (path("small.redc"), path("big.redc"));
    let (small_kib, code) = measured(&["encrypt", "--key", rp, "-i", "-", "-o", &small], 16 << 20);
    assert_eq!(code, 0);
    let (big_kib, code) = measured(&["encrypt", "--key", rp, "-i", "-", "-o", &big], 1 << 30);
    assert_eq!(code, 0);
    assert!(std::fs::metadata(&big).unwrap().len() > 1 << 30);
    // Memory is flat in the file size: 1 GiB needs no more than 16 MiB does, give or take 8 MiB.
    assert!(
        big_kib < small_kib + 8 * 1024,
        "encrypt: {small_kib} KiB for 16 MiB, {big_kib} KiB for 1 GiB"
    );
    let back = path("big.out");
    let out = Command::new("/usr/bin/time")
        .args([
            "-f",
            "%M",
            env!("CARGO_BIN_EXE_redc"),
            "decrypt",
            "--key",
            rk,
            "-i",
            &big,
            "-o",
            &back,
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let dec_kib: u64 = String::from_utf8_lossy(&out.stderr)
        .trim()
        .lines()
        .last()
        .unwrap()
        .parse()
        .unwrap();
    assert!(dec_kib < small_kib + 8 * 1024, "decrypt: {dec_kib} KiB for 1 GiB");
    assert_eq!(std::fs::metadata(&back).unwrap().len(), 1 << 30);
    // A tampered byte near the end: status 2 and no output at all.
    std::fs::remove_file(&back).unwrap();
    let mut f = std::fs::OpenOptions::new().read(true).write(true).open(&big).unwrap();
    use std::io::{Seek, SeekFrom};
    let end = f.seek(SeekFrom::End(-100)).unwrap();
    let mut b = [0u8; 1];
    f.read_exact(&mut b).unwrap();
    f.seek(SeekFrom::Start(end)).unwrap();
    f.write_all(&[b[0] ^ 1]).unwrap();
    drop(f);
    let out = common::run(&["decrypt", "--key", rk, "-i", &big, "-o", &back], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(!Path::new(&back).exists());
    for f in [small, big] {
        let _ = std::fs::remove_file(f);
    }
}

/// Run redc with `args` on a pseudo-terminal (stdin, stdout and stderr),
/// typing each of `typed` (and Enter) once its prompt ("...password...: ")
/// has appeared; its exit status and everything the terminal showed.
fn on_terminal(args: &[&str], typed: &[&str]) -> (i32, String) {
    const SCRIPT: &str = r#"
import os, pty, signal, sys, time
typed = [t.encode() for t in os.environ["TYPED"].split("\n") if t]
expected = len(typed)
pid, fd = pty.fork()
if pid == 0:
    os.execv(sys.argv[1], sys.argv[1:])
def expire(*_):
    os.kill(pid, 9)
    sys.exit("redc did not finish within 60 s (waiting on a prompt?)")
signal.signal(signal.SIGALRM, expire)
signal.alarm(60)
out = b""
while True:
    try:
        d = os.read(fd, 4096)
    except OSError:
        break
    if not d:
        break
    out += d
    # The k-th prompt has appeared: type the k-th answer (after echo is off).
    if typed and out.lower().count(b"password") + len(typed) > expected:
        time.sleep(0.3)
        os.write(fd, typed.pop(0) + b"\n")
_, st = os.waitpid(pid, 0)
sys.stdout.write(str(os.waitstatus_to_exitcode(st)) + "\n" + out.decode(errors="replace"))
"#;
    let out = Command::new("python3")
        .arg("-c")
        .arg(SCRIPT)
        .arg(env!("CARGO_BIN_EXE_redc"))
        .args(args)
        .env("TYPED", typed.join("\n"))
        .output()
        .expect("python3 runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let (code, printed) = text.split_once('\n').expect("a status line");
    (code.parse().unwrap(), printed.to_owned())
}

/// `-i` and `-o` default to stdin and stdout (as in openssl and age), and
/// binary output is never written into a terminal.
#[test]
fn stdin_stdout_by_default_but_no_binary_on_a_terminal() {
    let (rk, rp, _, _) = keys();
    let sig = common::run(&["sign", "--key", rk], "a message");
    assert_eq!(sig.status.code(), Some(0), "{}", String::from_utf8_lossy(&sig.stderr));
    let sig_path = path("stdin.sig");
    std::fs::write(&sig_path, &sig.stdout).unwrap();
    let ok = common::run(&["verify", "--key", rp, "--sig", &sig_path], "a message");
    assert_eq!(
        (ok.status.code(), ok.stdout.as_slice()),
        (Some(0), &b"Verified OK\n"[..])
    );
    let bad = common::run(&["verify", "--key", rp, "--sig", &sig_path], "another message");
    assert_eq!(bad.status.code(), Some(1));
    for (enc, dec) in [
        (
            vec!["encrypt", "--key", rp.as_str()],
            vec!["decrypt", "--key", rk.as_str()],
        ),
        (vec!["rsa", "encrypt", "--key", rp], vec!["rsa", "decrypt", "--key", rk]),
    ] {
        let ct = common::run(&enc, "plain text");
        assert_eq!(ct.status.code(), Some(0), "{enc:?}");
        let ct_path = path("stdin.ct");
        std::fs::write(&ct_path, &ct.stdout).unwrap();
        let mut dec_args = dec.clone();
        dec_args.extend(["-i", &ct_path]);
        let pt = common::run(&dec_args, "");
        assert_eq!(
            (pt.status.code(), pt.stdout.as_slice()),
            (Some(0), &b"plain text"[..]),
            "{dec:?}"
        );
    }
    // On a terminal: binary output is refused (status 2, one line naming -o),
    // text output is written.
    let msg = path("tty.txt");
    std::fs::write(&msg, b"x").unwrap();
    for args in [
        vec!["sign", "--key", rk.as_str(), "-i", &msg],
        vec!["encrypt", "--key", rp.as_str(), "-i", &msg],
        vec!["rsa", "encrypt", "--key", rp.as_str(), "-i", &msg],
    ] {
        let (code, printed) = on_terminal(&args, &[]);
        assert_eq!(code, 2, "{args:?}: {printed}");
        assert_eq!(printed.trim_end().lines().count(), 1, "{args:?}: {printed}");
        assert!(
            printed.contains("-o: the output is binary and stdout is a terminal"),
            "{printed}"
        );
    }
    let (code, printed) = on_terminal(&["modexp", "4", "13", "497"], &[]);
    assert_eq!((code, printed.trim_end()), (0, "445"));
}

/// OpenSSL's default OAEP hash (SHA-1) against redc's (SHA-256): the
/// failure names both and says which option to try.
#[test]
fn oaep_hash_mismatch_says_what_to_try() {
    let (rk, rp, _, _) = keys();
    let (msg, ct) = (path("oaep-sha1.txt"), path("oaep-sha1.ct"));
    std::fs::write(&msg, b"from openssl").unwrap();
    openssl(&[
        "pkeyutl",
        "-encrypt",
        "-pubin",
        "-inkey",
        rp,
        "-pkeyopt",
        "rsa_padding_mode:oaep",
        "-in",
        &msg,
        "-out",
        &ct,
    ]);
    let out = common::run(&["rsa", "decrypt", "--key", rk, "-i", &ct], "");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!((out.status.code(), err.lines().count()), (Some(2), 1), "{err}");
    assert!(
        err.contains("decryption error (OAEP with sha256 and MGF1-sha256).")
            && err.contains("(its ciphertexts: --scheme pkcs1v15)")
            && err.contains("-pkeyopt rsa_oaep_md (--hash sha1)"),
        "{err}"
    );
    assert!(out.stdout.is_empty());
    let out = common::run(&["rsa", "decrypt", "--key", rk, "-i", &ct, "--hash", "sha1"], "");
    assert_eq!(
        (out.status.code(), out.stdout.as_slice()),
        (Some(0), &b"from openssl"[..])
    );
}

/// `keygen --primes` (multi-prime keys OpenSSL accepts and uses) and DER
/// output (`--outform der`) for keygen and pubkey, encrypted keys included.
#[test]
fn keygen_primes_and_der_output() {
    let (k3, p3) = (path("three.pem"), path("three.pub"));
    redc(
        &["keygen", "--bits", "2048", "--primes", "3", "-o", &k3, "--pub", &p3],
        0,
    );
    assert!(openssl(&["pkey", "-in", &k3, "-check", "-noout"]).starts_with(b"Key is valid"));
    let text = String::from_utf8(openssl(&["rsa", "-in", &k3, "-text", "-noout"])).unwrap();
    assert!(text.starts_with("Private-Key: (2048 bit, 3 primes)"), "{text}");
    // OpenSSL verifies what the three-prime key signs.
    let (msg, sig) = (path("three.txt"), path("three.sig"));
    std::fs::write(&msg, b"three primes").unwrap();
    redc(
        &["sign", "--key", &k3, "--scheme", "pkcs1v15", "-i", &msg, "-o", &sig],
        0,
    );
    openssl(&["dgst", "-sha256", "-verify", &p3, "-signature", &sig, &msg]);

    let (kd, pd, pw) = (path("key.der"), path("pub.der"), path("der.pw"));
    std::fs::write(&pw, b"der password\n").unwrap();
    redc(
        &["keygen", "--bits", "2048", "--outform", "der", "-o", &kd, "--pub", &pd],
        0,
    );
    assert_eq!(std::fs::read(&kd).unwrap()[0], 0x30, "a DER SEQUENCE");
    assert!(openssl(&["pkey", "-inform", "DER", "-in", &kd, "-check", "-noout"]).starts_with(b"Key is valid"));
    let from_openssl = openssl(&["pkey", "-inform", "DER", "-in", &kd, "-pubout", "-outform", "DER"]);
    assert_eq!(std::fs::read(&pd).unwrap(), from_openssl);
    // pubkey: SPKI and PKCS#1 DER, as openssl writes them.
    let spki = common::run(&["pubkey", &kd, "--outform", "der"], "").stdout;
    assert_eq!(spki, from_openssl);
    let pkcs1 = common::run(&["pubkey", &kd, "--format", "pkcs1", "--outform", "der"], "").stdout;
    let pkcs1_openssl = openssl(&[
        "rsa",
        "-inform",
        "DER",
        "-in",
        &kd,
        "-RSAPublicKey_out",
        "-outform",
        "DER",
    ]);
    assert_eq!(pkcs1, pkcs1_openssl);
    // Encrypted PKCS#8 DER opens in openssl with the password.
    let ke = path("enc.der");
    redc(
        &[
            "keygen",
            "--bits",
            "2048",
            "--outform",
            "der",
            "--encrypt",
            "--password-file",
            &pw,
            "-o",
            &ke,
        ],
        0,
    );
    let pass = format!("file:{pw}");
    openssl(&[
        "pkey", "-inform", "DER", "-in", &ke, "-passin", &pass, "-check", "-noout",
    ]);
    redc(&["pubkey", &ke, "--password-file", &pw], 0);

    for (args, needle) in [
        (
            vec!["keygen", "--bits", "2048", "--primes", "4"],
            "--primes 4: a 2048-bit key has 2 to 3 primes",
        ),
        (
            vec!["keygen", "--bits", "2048", "--primes", "1"],
            "--primes 1: a 2048-bit key has 2 to 3 primes",
        ),
        // The default security level refuses a key too small to sign with,
        // naming the level and how to relax it.
        (
            vec!["keygen", "--bits", "1024"],
            "--bits 1024: a key for private operations needs at least 2048 bits at security level 2 \
             (give --security-level N or set REDC_SECURITY_LEVEL to accept it)",
        ),
        (vec!["keygen", "--security-level", "6"], "--security-level"),
        (
            vec!["keygen", "--bits", "512"],
            "--bits 512: redc generates keys of 1024 to 16384 bits",
        ),
        (
            vec!["keygen", "--outform", "ber"],
            "invalid value 'ber' for '--outform <OUTFORM>'",
        ),
        // Checked before any password is asked or key read.
        (
            vec!["keygen", "--e", "4", "--encrypt"],
            "--e 4: public exponent must be odd, at least 3 and at most 256 bits",
        ),
        (
            vec![
                "verify",
                "--key",
                "/nonexistent/k.pem",
                "--scheme",
                "pkcs1v15",
                "--salt-len",
                "5",
                "--sig",
                "/nonexistent/s",
            ],
            "--salt-len: only for --scheme pss",
        ),
    ] {
        let err = refused(&args);
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

/// On a terminal, an encrypted key without a password is asked for one
/// (echo off), and `keygen --encrypt` asks twice; without a terminal
/// nothing waits on a prompt (the other tests).
#[test]
fn password_prompt_on_a_terminal() {
    let (pw, enc) = (path("prompt.pw"), path("prompt.pem"));
    std::fs::write(&pw, b"typed secret\n").unwrap();
    encrypted_key(&enc, &pw);
    let (code, shown) = on_terminal(&["pubkey", &enc], &["typed secret"]);
    assert_eq!(code, 0, "{shown}");
    assert!(shown.contains(&format!("Password for {enc}: ")), "{shown}");
    assert!(shown.contains("-----BEGIN PUBLIC KEY-----"), "{shown}");
    assert!(!shown.contains("typed secret"), "the password was echoed: {shown}");
    let (code, shown) = on_terminal(&["pubkey", &enc], &["wrong"]);
    assert_eq!(code, 2, "{shown}");
    assert!(
        shown.contains(&format!("KEY {enc}: cannot decrypt the private key: wrong password")),
        "{shown}"
    );

    let made = path("prompted.pem");
    let (code, shown) = on_terminal(
        &["keygen", "--bits", "2048", "--encrypt", "-o", &made],
        &["new one", "new one"],
    );
    assert_eq!(code, 0, "{shown}");
    assert!(shown.contains("Password to encrypt the key with: ") && shown.contains("The same password again: "));
    let new_pw = path("prompted.pw");
    std::fs::write(&new_pw, b"new one\n").unwrap();
    redc(&["pubkey", &made, "--password-file", &new_pw], 0);
    let other = path("mistyped.pem");
    let (code, shown) = on_terminal(
        &["keygen", "--bits", "2048", "--encrypt", "-o", &other],
        &["one", "two"],
    );
    assert_eq!(code, 2, "{shown}");
    assert!(shown.contains("the terminal: the two passwords differ"), "{shown}");
    assert!(!Path::new(&other).exists());
}

/// `redc encrypt --key A --key B`: one file that either private key opens
/// (version 2, entries under key ids); a third key is told it is not a
/// recipient, with the ids; version 1 files (an older redc's) still open.
#[test]
fn envelope_for_several_recipients() {
    let (rk, rp, ok, op) = keys();
    let stranger = path("stranger.pem");
    redc(&["keygen", "--bits", "2048", "-o", &stranger], 0);
    let (plain, sealed) = (path("multi.txt"), path("multi.env"));
    std::fs::write(&plain, b"for two recipients").unwrap();
    redc(&["encrypt", "--key", rp, "--key", op, "-i", &plain, "-o", &sealed], 0);
    let env = std::fs::read(&sealed).unwrap();
    assert_eq!((&env[..8], env[8], &env[13..15]), (&b"REDC-ENV"[..], 2, &[0u8, 2][..]));
    // Each entry is under SHA-256 of the recipient's SPKI DER.
    let id_of = |public: &str| {
        let der = openssl(&["pkey", "-pubin", "-in", public, "-outform", "DER"]);
        let out = Command::new("sha256sum")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        out.stdin.as_ref().unwrap().write_all(&der).unwrap();
        let hex = String::from_utf8(out.wait_with_output().unwrap().stdout).unwrap();
        hex[..64].to_owned()
    };
    let hex = |b: &[u8]| b.iter().map(|x| format!("{x:02x}")).collect::<String>();
    assert_eq!(hex(&env[15..47]), id_of(rp));
    let second = 15 + 32 + 2 + 256;
    assert_eq!(hex(&env[second..second + 32]), id_of(op));
    for key in [rk, ok] {
        let out = common::run(&["decrypt", "--key", key, "-i", &sealed], "");
        assert_eq!(
            (out.status.code(), out.stdout.as_slice()),
            (Some(0), &b"for two recipients"[..]),
            "{key}"
        );
    }
    let out = common::run(
        &[
            "decrypt",
            "--key",
            &stranger,
            "-i",
            &sealed,
            "-o",
            &path("stranger.out"),
        ],
        "",
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(
        err,
        format!(
            "redc: decrypt: envelope: not encrypted to this key (key id {}…); its recipients are {}, {}\n",
            &id_of(&{
                let p = path("stranger.pub");
                std::fs::write(&p, common::run(&["pubkey", &stranger], "").stdout).unwrap();
                p
            })[..16],
            &id_of(rp)[..16],
            &id_of(op)[..16]
        )
    );
    assert!(!Path::new(&path("stranger.out")).exists(), "nothing written");
    for (args, line) in [
        (
            vec![
                "encrypt",
                "--key",
                rp.as_str(),
                "--key",
                rk.as_str(),
                "-i",
                &plain,
                "-o",
                "/dev/null",
            ],
            "redc: encrypt: envelope: recipient 2 is given twice (the same key id)\n".to_owned(),
        ),
        (
            vec!["decrypt", "--key", rk.as_str(), "--key", ok.as_str(), "-i", &sealed],
            "redc: --key: decrypt takes one private key, 2 given\n".to_owned(),
        ),
        (
            vec![
                "encrypt",
                "--raw-blocks",
                "--key",
                rp.as_str(),
                "--key",
                op.as_str(),
                "-i",
                &plain,
                "-o",
                "/dev/null",
            ],
            "redc: --key: --raw-blocks encrypts for one key, 2 given\n".to_owned(),
        ),
    ] {
        let out = common::run(&args, "");
        assert_eq!(
            (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned()),
            (Some(2), line),
            "{args:?}"
        );
        assert!(out.stdout.is_empty());
    }

    // A version 1 envelope, as redc wrote them before: still opened.
    let key = redc_rsa::encoding::read_key(&std::fs::read(rp).unwrap(), None)
        .unwrap()
        .into_public_key();
    let mut v1 = Vec::new();
    let wrap = |k: &[u8; 32]| {
        key.encrypt(
            Oaep {
                hash: redc_rsa::HashAlg::Sha256,
                mgf_hash: redc_rsa::HashAlg::Sha256,
                label: <[u8]>::to_vec(&[]),
            },
            k,
            &mut rand_core::OsRng,
        )
    };
    redc_rsa::envelope::seal(&b"version one"[..], &mut v1, wrap, &mut rand_core::OsRng, &mut |_| {}).unwrap();
    assert_eq!(v1[8], 1);
    let v1_path = path("v1.env");
    std::fs::write(&v1_path, &v1).unwrap();
    let out = common::run(&["decrypt", "--key", rk, "-i", &v1_path], "");
    assert_eq!(
        (out.status.code(), out.stdout.as_slice()),
        (Some(0), &b"version one"[..])
    );
}

/// Inputs that are a few KB at most (a key, a signature, one RSA message)
/// are read up to 1 MiB and refused beyond it, never read whole (the
/// message of `sign` and the envelope's input stream: the 1 GiB tests).
#[test]
fn small_inputs_are_capped() {
    let (rk, rp, _, _) = keys();
    let big = path("two-mib.bin");
    std::fs::write(&big, vec![0x5a; 2 << 20]).unwrap();
    for args in [
        vec!["rsa", "encrypt", "--key", rp.as_str(), "-i", &big, "-o", "/dev/null"],
        vec!["rsa", "decrypt", "--key", rk.as_str(), "-i", &big, "-o", "/dev/null"],
        vec!["pubkey", &big],
        vec!["verify", "--key", rp.as_str(), "-i", rp.as_str(), "--sig", &big],
    ] {
        let err = refused(&args);
        assert!(
            err.contains(&format!(
                "{big}: more than 1024 KiB; a key, a signature or one RSA message is a few KB"
            )),
            "{args:?}: {err}"
        );
    }
}

/// stdin goes to one option per command: `--key -` with the default
/// `-i -` (or `--sig -` with it) is refused, naming both, rather than
/// reading the key and then an empty message.
#[test]
fn stdin_is_given_to_one_option() {
    let (rk, rp, _, _) = keys();
    let public = std::fs::read_to_string(rp).unwrap();
    let private = std::fs::read_to_string(rk).unwrap();
    let sig = path("one-stdin.sig");
    let msg = path("one-stdin.txt");
    std::fs::write(&msg, b"m").unwrap();
    redc(&["sign", "--key", rk, "-i", &msg, "-o", &sig], 0);
    let key_then_in = "redc: --in -: standard input is already read as --key; give --in FILE (or --key FILE)\n";
    for (args, stdin, line) in [
        (vec!["encrypt", "--key", "-"], public.as_str(), key_then_in.to_owned()),
        (
            vec!["sign", "--key", "-", "-o", "/dev/null"],
            private.as_str(),
            key_then_in.to_owned(),
        ),
        (
            vec!["rsa", "private-batch", "--key", "-", "--op", "raw"],
            private.as_str(),
            key_then_in.to_owned(),
        ),
        (
            vec!["verify", "--key", rp.as_str(), "--sig", "-"],
            "m",
            "redc: --in -: standard input is already read as --sig; give --in FILE (or --sig FILE)\n".to_owned(),
        ),
        (
            vec!["encrypt", "--key", "-", "--key", "-", "-i", msg.as_str()],
            public.as_str(),
            "redc: --key -: standard input is already read for another --key; give files\n".to_owned(),
        ),
    ] {
        let out = common::run(&args, stdin);
        assert_eq!(
            (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned()),
            (Some(2), line),
            "{args:?}"
        );
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    // One option reading stdin is fine: the key from a file, the message from stdin.
    let out = common::run(&["verify", "--key", rp, "--sig", &sig], "m");
    assert_eq!(out.status.code(), Some(0));
}
