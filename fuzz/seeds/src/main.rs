//! Writes the seed corpora `fuzz/corpus/<target>/seed-*` (usage:
//! `redc-fuzz-seeds CORPUS_DIR [WYCHEPROOF_DIR]`). Every seed is built from
//! the fixed keys of `fuzz/keys`, by the library itself (key files, signatures,
//! ciphertexts, envelopes, with a seeded generator so the output is the same
//! on every run), from the Wycheproof vectors of the Wycheproof key when
//! their directory is given, and from known corner cases. Files named
//! otherwise (the `regression-*` inputs) are left alone.

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use redc_fuzz::{KEY_1024_PEM, KEY_WYCHEPROOF_PEM, PASSWORD, key_1024, key_wycheproof};
use redc_rsa::{HashAlg, Pbes2Kdf, RsaPrivateKey, RsaPublicKey, envelope, hazmat, oaep, pkcs1v15, pss};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const KEY_3PRIMES_PEM: &str = include_str!("../../keys/rsa1024-3primes.pem");

/// The seeds of every target, by target and name.
#[derive(Default)]
struct Corpus(BTreeMap<&'static str, Vec<(String, Vec<u8>)>>);

impl Corpus {
    fn add(&mut self, target: &'static str, name: impl Into<String>, bytes: impl Into<Vec<u8>>) {
        self.0.entry(target).or_default().push((name.into(), bytes.into()));
    }

    fn write(&self, dir: &Path) -> std::io::Result<()> {
        for (target, seeds) in &self.0 {
            let tdir = dir.join(target);
            std::fs::create_dir_all(&tdir)?;
            for entry in std::fs::read_dir(&tdir)? {
                let path = entry?.path();
                if path
                    .file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with("seed-"))
                {
                    std::fs::remove_file(path)?;
                }
            }
            for (name, bytes) in seeds {
                std::fs::write(tdir.join(format!("seed-{name}")), bytes)?;
            }
            let total: usize = seeds.iter().map(|(_, b)| b.len()).sum();
            println!("{target}: {} seeds, {total} bytes", seeds.len());
        }
        Ok(())
    }
}

fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

fn hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex"))
        .collect()
}

fn to_hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// The index of `h` in `HashAlg::ALL` (the targets' hash byte).
fn hash_index(h: HashAlg) -> u8 {
    HashAlg::ALL.iter().position(|&x| x == h).expect("a hash of ALL") as u8
}

fn u16be(x: usize) -> [u8; 2] {
    u16::try_from(x).expect("fits in u16").to_be_bytes()
}

fn key_files(c: &mut Corpus) {
    let keys = [
        ("1024", RsaPrivateKey::from_pkcs8_pem(KEY_1024_PEM).expect("1024")),
        (
            "3primes",
            RsaPrivateKey::from_pkcs8_pem(KEY_3PRIMES_PEM).expect("3 primes"),
        ),
        (
            "wycheproof",
            RsaPrivateKey::from_pkcs8_pem(KEY_WYCHEPROOF_PEM).expect("wycheproof"),
        ),
    ];
    for (name, key) in &keys {
        let p = key.public_key();
        c.add(
            "key_read",
            format!("{name}-pkcs1.der"),
            key.to_pkcs1_der().unwrap().to_vec(),
        );
        c.add(
            "key_read",
            format!("{name}-pkcs1.pem"),
            key.to_pkcs1_pem().unwrap().as_bytes(),
        );
        c.add(
            "key_read",
            format!("{name}-pkcs8.der"),
            key.to_pkcs8_der().unwrap().to_vec(),
        );
        c.add(
            "key_read",
            format!("{name}-pkcs8.pem"),
            key.to_pkcs8_pem().unwrap().as_bytes(),
        );
        c.add("key_read", format!("{name}-spki.der"), p.to_spki_der().unwrap());
        c.add("key_read", format!("{name}-spki.pem"), p.to_spki_pem().unwrap());
        c.add("key_read", format!("{name}-rsapublic.der"), p.to_pkcs1_der().unwrap());
        c.add("key_read", format!("{name}-rsapublic.pem"), p.to_pkcs1_pem().unwrap());
    }
    // Encrypted PKCS#8 with the fixed password (cheap KDFs only).
    let key = &keys[0].1;
    let kdfs = [
        ("pbkdf2-1", Pbes2Kdf::Pbkdf2Sha256 { iterations: 1 }),
        ("pbkdf2-2048", Pbes2Kdf::Pbkdf2Sha256 { iterations: 2048 }),
        ("scrypt-n16", Pbes2Kdf::Scrypt { log_n: 4, r: 1, p: 1 }),
        ("scrypt-n256-r4", Pbes2Kdf::Scrypt { log_n: 8, r: 4, p: 2 }),
    ];
    for (i, (name, kdf)) in kdfs.iter().enumerate() {
        let der = key.to_pkcs8_encrypted_der(PASSWORD, *kdf, &mut rng(i as u64)).unwrap();
        let pem = key
            .to_pkcs8_encrypted_pem(PASSWORD, *kdf, &mut rng(10 + i as u64))
            .unwrap();
        for target in ["key_read", "key_read_encrypted"] {
            c.add(target, format!("encrypted-{name}.der"), der.clone());
            c.add(target, format!("encrypted-{name}.pem"), pem.as_bytes());
        }
    }
    // PBES1 (pbeWithMD5AndDES-CBC), which this OpenSSL no longer writes: refused by name.
    let tlv = |tag: u8, body: &[u8]| [&[tag, body.len() as u8][..], body].concat();
    let oid = tlv(0x06, &[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x05, 0x03]);
    let params = tlv(0x30, &[tlv(0x04, &[1; 8]), tlv(0x02, &[1])].concat());
    let pbes1 = tlv(
        0x30,
        &[tlv(0x30, &[oid, params].concat()), tlv(0x04, &[0; 32])].concat(),
    );
    for target in ["key_read", "key_read_encrypted"] {
        c.add(target, "pbes1-md5-des.der", pbes1.clone());
    }
    let three = &keys[1].1;
    let der = three.to_pkcs8_encrypted_der(PASSWORD, kdfs[0].1, &mut rng(20)).unwrap();
    c.add("key_read_encrypted", "encrypted-3primes.der", der);
    // Malformed or refused inputs the readers name.
    for (name, text) in [
        ("empty", ""),
        (
            "certificate.pem",
            "-----BEGIN CERTIFICATE-----\nMAA=\n-----END CERTIFICATE-----\n",
        ),
        (
            "legacy-encrypted.pem",
            "-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-256-CBC,00112233445566778899AABBCCDDEEFF\n\nMAA=\n-----END RSA PRIVATE KEY-----\n",
        ),
        ("no-end.pem", "-----BEGIN PUBLIC KEY-----\nMAA=\n"),
        (
            "text-around.pem",
            "garbage before\n-----BEGIN PUBLIC KEY-----\nMAA=\n-----END PUBLIC KEY-----\ntrailing",
        ),
    ] {
        c.add("key_read", name, text.as_bytes());
    }
    c.add("key_read", "empty-sequence.der", vec![0x30, 0x00]);
}

fn wycheproof_keys(c: &mut Corpus, dir: &Path) {
    // A few 2048-bit private keys of the PKCS#1 decryption vectors (DER and PEM).
    let Some(file) = read_json(&dir.join("rsa_pkcs1_2048_test.json")) else {
        return;
    };
    for (i, group) in file["testGroups"].as_array().unwrap().iter().take(3).enumerate() {
        c.add(
            "key_read",
            format!("wycheproof-pkcs1-{i}.der"),
            hex(group["privateKeyPkcs8"].as_str().unwrap()),
        );
        c.add(
            "key_read",
            format!("wycheproof-pkcs1-{i}.pem"),
            group["privateKeyPem"].as_str().unwrap(),
        );
    }
    // The public keys of the signature vectors (one of them Wycheproof's key).
    if let Some(file) = read_json(&dir.join("rsa_signature_2048_sha256_test.json")) {
        for (i, group) in file["testGroups"].as_array().unwrap().iter().enumerate() {
            c.add(
                "key_read",
                format!("wycheproof-sig-{i}.der"),
                hex(group["publicKeyDer"].as_str().unwrap()),
            );
            c.add(
                "key_read",
                format!("wycheproof-sig-{i}.asn"),
                hex(group["publicKeyAsn"].as_str().unwrap()),
            );
        }
    }
}

fn read_json(path: &Path) -> Option<Value> {
    match std::fs::read(path) {
        Ok(bytes) => Some(serde_json::from_slice(&bytes).expect("Wycheproof JSON")),
        Err(e) => {
            eprintln!("seeds: {}: {e}; skipped", path.display());
            None
        }
    }
}

fn wycheproof_hash(name: &str) -> HashAlg {
    HashAlg::from_name(&name.to_lowercase().replace("sha-", "sha").replace('/', "-"))
        .unwrap_or_else(|| panic!("hash {name}"))
}

/// Wycheproof's tests of Wycheproof's key in `file`: (group, test) pairs.
fn tests_of_key(file: &Value, n_hex: &str) -> Vec<(Value, Value)> {
    let mut out = Vec::new();
    for group in file["testGroups"].as_array().unwrap() {
        let key = group.get("publicKey").or_else(|| group.get("privateKey")).unwrap();
        if !key["modulus"]
            .as_str()
            .unwrap()
            .trim_start_matches('0')
            .eq_ignore_ascii_case(n_hex)
        {
            continue;
        }
        for t in group["tests"].as_array().unwrap() {
            out.push((group.clone(), t.clone()));
        }
    }
    out
}

fn wycheproof_schemes(c: &mut Corpus, dir: &Path) {
    let n_hex = key_wycheproof().public_key().n().to_hex();
    // PSS: [mode = 2: Wycheproof's key, signature] [hash] [mgf] [salt] [em_bits] [msg_len] [msg] [sig].
    for name in [
        "rsa_pss_2048_sha256_mgf1_32_test.json",
        "rsa_pss_2048_sha256_mgf1_0_test.json",
    ] {
        let Some(file) = read_json(&dir.join(name)) else {
            continue;
        };
        for (g, t) in tests_of_key(&file, &n_hex) {
            let h = wycheproof_hash(g["sha"].as_str().unwrap());
            let mgf = wycheproof_hash(g["mgfSha"].as_str().unwrap());
            let salt = g["sLen"].as_u64().unwrap() as u8;
            let (msg, sig) = (hex(t["msg"].as_str().unwrap()), hex(t["sig"].as_str().unwrap()));
            let mut s = vec![2, hash_index(h), hash_index(mgf), salt, 0, 0];
            s.extend(u16be(msg.len()));
            s.extend(&msg);
            s.extend(&sig);
            c.add(
                "verify_pss",
                format!("wycheproof-{}-{}", &name[..name.len() - 10], t["tcId"]),
                s,
            );
        }
    }
    // PKCS#1 v1.5 signatures: [mode = 1] [hash] [em_len] [msg_len] [msg] [sig].
    for name in [
        "rsa_signature_2048_sha256_test.json",
        "rsa_pkcs1_2048_sig_gen_test.json",
    ] {
        let Some(file) = read_json(&dir.join(name)) else {
            continue;
        };
        for (g, t) in tests_of_key(&file, &n_hex) {
            let h = wycheproof_hash(g["sha"].as_str().unwrap());
            let (msg, sig) = (hex(t["msg"].as_str().unwrap()), hex(t["sig"].as_str().unwrap()));
            let mut s = vec![1, hash_index(h)];
            s.extend(u16be(256));
            s.extend(u16be(msg.len()));
            s.extend(&msg);
            s.extend(&sig);
            c.add(
                "verify_pkcs1v15",
                format!("wycheproof-{}-{}", &name[..name.len() - 10], t["tcId"]),
                s,
            );
        }
    }
    // OAEP: [mode = 1: Wycheproof's key, ciphertext] [hash] [mgf] [label_len] [label] [ct].
    for name in [
        "rsa_oaep_2048_sha256_mgf1sha256_test.json",
        "rsa_oaep_2048_sha256_mgf1sha1_test.json",
    ] {
        let Some(file) = read_json(&dir.join(name)) else {
            continue;
        };
        for (g, t) in tests_of_key(&file, &n_hex) {
            let h = wycheproof_hash(g["sha"].as_str().unwrap());
            let mgf = wycheproof_hash(g["mgfSha"].as_str().unwrap());
            let (label, ct) = (hex(t["label"].as_str().unwrap()), hex(t["ct"].as_str().unwrap()));
            if label.len() > 255 {
                continue;
            }
            let mut s = vec![1, hash_index(h), hash_index(mgf), label.len() as u8];
            s.extend(&label);
            s.extend(&ct);
            c.add(
                "decrypt_oaep",
                format!("wycheproof-{}-{}", &name[..name.len() - 10], t["tcId"]),
                s,
            );
        }
    }
}

fn signatures(c: &mut Corpus) {
    let key = key_1024();
    let k = key.public_key().size();
    let em_bits = key.public_key().bits() - 1;
    for (i, h) in HashAlg::ALL.into_iter().enumerate() {
        let msg = format!("message {i}").into_bytes();
        // PSS under the 1024-bit key (mode 0), salt = hLen and any.
        if let Ok(sig) = pss::sign(key, h, h, None, &msg, &mut rng(i as u64)) {
            for salt in [h.output_len() as u8, 0xff] {
                let mut s = vec![0, hash_index(h), 0x80, salt, 0, 0];
                s.extend(u16be(msg.len()));
                s.extend(&msg);
                s.extend(&sig);
                c.add("verify_pss", format!("1024-{}-salt{salt}", h.name()), s);
            }
        }
        // PSS encodings seen directly (mode 1), at several em_bits.
        for (j, bits) in [em_bits, 1024, 1017, 520, 8 * (h.output_len() + 2)]
            .into_iter()
            .enumerate()
        {
            let salt = [7u8; 20];
            let salt = &salt[..if j % 2 == 0 { 20 } else { 0 }];
            if let Ok(em) = pss::emsa_pss_encode(h, h, &h.digest(&msg), salt, bits) {
                let mut s = vec![1, hash_index(h), 0x80, salt.len() as u8];
                s.extend(u16be(bits));
                s.extend(u16be(msg.len()));
                s.extend(&msg);
                s.extend(&em);
                c.add("verify_pss", format!("em-{}-{bits}", h.name()), s);
            }
        }
        // PKCS#1 v1.5 under the 1024-bit key (mode 0).
        if let Ok(sig) = pkcs1v15::sign(key, h, &msg, &mut rng(100 + i as u64)) {
            let mut s = vec![0, hash_index(h)];
            s.extend(u16be(k));
            s.extend(u16be(msg.len()));
            s.extend(&msg);
            s.extend(&sig);
            c.add("verify_pkcs1v15", format!("1024-{}", h.name()), s);
        }
    }
    // A PSS pair of unlike hashes, and SHAKE with an MGF1 (refused).
    let sig = pss::sign(key, HashAlg::Sha512, HashAlg::Sha1, Some(0), b"m", &mut rng(200)).unwrap();
    let mut s = vec![
        0,
        hash_index(HashAlg::Sha512),
        hash_index(HashAlg::Sha1),
        0,
        0,
        0,
        0,
        1,
        b'm',
    ];
    s.extend(&sig);
    c.add("verify_pss", "1024-sha512-mgf1sha1-salt0", s);
    c.add(
        "verify_pss",
        "shake-with-mgf1",
        vec![1, hash_index(HashAlg::Shake128), hash_index(HashAlg::Sha256), 0xff],
    );
}

fn decryption(c: &mut Corpus) {
    for (sel, key) in [(0u8, key_1024()), (1, key_wycheproof())] {
        let public = key.public_key();
        let k = public.size();
        let tag = if sel == 0 { "1024" } else { "wycheproof" };
        // OAEP ciphertexts (mode: key, ciphertext).
        for (i, (h, g, label)) in [
            (HashAlg::Sha256, HashAlg::Sha256, &b""[..]),
            (HashAlg::Sha1, HashAlg::Sha1, b"label"),
            (HashAlg::Sha512, HashAlg::Sha256, b""),
            (HashAlg::Sha3_256, HashAlg::Sha224, b"L"),
        ]
        .into_iter()
        .enumerate()
        {
            let Some(max) = k.checked_sub(2 * h.output_len() + 2) else {
                continue;
            };
            for len in [0, 1, max] {
                let msg = vec![0x5a; len];
                let ct = oaep::encrypt(public, h, g, label, &msg, &mut rng(i as u64)).unwrap();
                let mut s = vec![sel, hash_index(h), hash_index(g), label.len() as u8];
                s.extend(label);
                s.extend(&ct);
                c.add("decrypt_oaep", format!("{tag}-{}-{}-{len}", h.name(), g.name()), s);
                if sel == 0 && len == 1 {
                    // The same as EM (mode 2), and for eme_decode alone (mode 4).
                    let em = oaep::eme_encode(h, g, label, &msg, k, &mut rng(50)).unwrap();
                    for mode in [2u8, 4] {
                        let mut s = vec![mode, hash_index(h), hash_index(g), label.len() as u8];
                        s.extend(label);
                        s.extend(em.iter());
                        c.add("decrypt_oaep", format!("em{mode}-{}-{}", h.name(), g.name()), s);
                    }
                }
            }
        }
        // PKCS#1 v1.5 ciphertexts (mode: key) and encoded messages (mode | 2).
        for len in [0, 1, 16, k - 11] {
            let ct = pkcs1v15::encrypt(public, &vec![0xa5; len], &mut rng(len as u64)).unwrap();
            let mut s = vec![sel];
            s.extend(&ct);
            c.add("decrypt_pkcs1v15", format!("{tag}-{len}"), s);
        }
        let valid = |ps: usize, msg: &[u8]| {
            let mut em = vec![0x00, 0x02];
            em.extend(std::iter::repeat_n(0x11, ps));
            em.push(0);
            em.extend(msg);
            em
        };
        let mut ems: Vec<(&str, Vec<u8>)> = vec![
            ("valid", valid(k - 3 - 5, b"hello")),
            ("ps7", valid(7, &vec![1; k - 10])),
            ("ps8-max", valid(8, &vec![1; k - 11])),
            ("empty-msg", valid(k - 3, b"")),
            ("no-zero", {
                let mut em = vec![0x00, 0x02];
                em.resize(k, 0x33);
                em
            }),
            ("zero-in-ps", {
                let mut em = valid(k - 3 - 5, b"hello");
                em[5] = 0;
                em
            }),
        ];
        let mut wrong = valid(k - 4, b"x");
        wrong[1] = 0x01;
        ems.push(("block-type-1", wrong));
        let mut wrong = valid(k - 4, b"x");
        wrong[0] = 0x01;
        ems.push(("first-byte", wrong));
        for (name, em) in ems {
            assert_eq!(em.len(), k);
            let mut s = vec![sel | 2];
            s.extend(&em);
            c.add("decrypt_pkcs1v15", format!("{tag}-em-{name}"), s);
        }
        // Wrong lengths and c >= n.
        c.add(
            "decrypt_pkcs1v15",
            format!("{tag}-above-n"),
            [&[sel][..], &vec![0xff; k]].concat(),
        );
        c.add(
            "decrypt_oaep",
            format!("{tag}-above-n"),
            [&[sel, 2, 0x80, 0][..], &vec![0xff; k]].concat(),
        );
        c.add("decrypt_pkcs1v15", format!("{tag}-short"), vec![sel, 1, 2, 3]);
    }
}

fn envelopes(c: &mut Corpus) {
    let dummy = |k: &[u8; 32]| Ok(k.to_vec());
    for (chunk, len) in [
        (16, 0),
        (16, 15),
        (16, 16),
        (16, 17),
        (17, 50),
        (64, 200),
        (1 << 16, 100),
    ] {
        let data: Vec<u8> = (0..len).map(|i| i as u8).collect();
        let mut out = vec![0u8];
        envelope::seal_with_chunk_size(&data[..], &mut out, dummy, &mut rng(len as u64), &mut |_| {}, chunk).unwrap();
        c.add("envelope_open", format!("dummy-{chunk}-{len}"), out);
    }
    let public = key_1024().public_key().clone();
    for (chunk, len) in [(16, 40), (1 << 16, 0)] {
        let data = vec![0x42u8; len];
        let wrap = |k: &[u8; 32]| oaep::encrypt(&public, HashAlg::Sha256, HashAlg::Sha256, &[], k, &mut rng(9));
        let mut out = vec![1u8];
        envelope::seal_with_chunk_size(&data[..], &mut out, wrap, &mut rng(len as u64), &mut |_| {}, chunk).unwrap();
        c.add("envelope_open", format!("oaep-{chunk}-{len}"), out);
    }
    // Version 2: two recipients (ids 0x11.. and 0x22..), dummy wrapping,
    // opened by id (mode bit 1) and by trying each entry.
    for (mode, len) in [(2u8, 30usize), (0, 30), (2, 0)] {
        let data = vec![0x24u8; len];
        let recipients: Vec<envelope::Recipient<'_>> = [0x11u8, 0x22]
            .map(|b| envelope::Recipient {
                id: [b; envelope::KEY_ID_LEN],
                wrap: Box::new(|k: &[u8; 32]| Ok(k.to_vec())),
            })
            .into_iter()
            .collect();
        let mut out = vec![mode];
        envelope::seal_for(&data[..], &mut out, &recipients, &mut rng(len as u64), &mut |_| {}).unwrap();
        c.add("envelope_open", format!("v2-mode{mode}-{len}"), out);
    }
    // Headers that stop at each check.
    let mut h = vec![0u8];
    h.extend(envelope::MAGIC);
    c.add("envelope_open", "magic-only", h.clone());
    h.push(2);
    h.extend(16u32.to_be_bytes());
    h.extend(1u16.to_be_bytes());
    c.add("envelope_open", "version-2", h.clone());
    h[9] = 1;
    h.extend([0u8; 1 + 7]);
    c.add("envelope_open", "wrapped-1-no-chunks", h);
}

fn numbers(c: &mut Corpus) {
    let n = key_wycheproof().public_key().n();
    let texts = [
        "0".to_owned(),
        "1".into(),
        "00042".into(),
        "0x".into(),
        "0xff".into(),
        "0XABCdef0123456789".into(),
        "-5".into(),
        "0x-5".into(),
        "12a".into(),
        " 1".into(),
        "1_000".into(),
        "١".into(),
        "9999999999999999999".into(),
        "10000000000000000000".into(),
        "18446744073709551615".into(),
        "18446744073709551616".into(),
        "340282366920938463463374607431768211456".into(),
        n.to_dec(),
        format!("0x{}", n.to_hex()),
        format!("0x{}", "0".repeat(40)),
        "0".repeat(57),
    ];
    for (i, t) in texts.iter().enumerate() {
        c.add("number_text", format!("{i:02}"), t.as_bytes());
    }
}

fn modexp_cases(c: &mut Corpus) {
    // Python's pow corner cases and a few sizes: (base, exp, mod).
    let cases: [(&[u8], &[u8], &[u8]); 12] = [
        (&[], &[], &[1]),
        (&[], &[], &[2]),
        (&[5], &[], &[1]),
        (&[2], &[10], &[4, 0]),
        (&[3], &[0xff, 0xff], &[0x10, 0, 0]),
        (&[7], &[13], &[0x01, 0xf1]),
        (&[0xff; 20], &[0xff; 16], &[0x80; 24]),
        (
            &[1, 2, 3, 4, 5, 6, 7, 8, 9],
            &[0x01, 0x00, 0x01],
            &[0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xc5],
        ),
        (&[9; 64], &[0xaa; 32], &[0x55; 64]),
        (&[4], &[13], &[]),
        (&[0xde, 0xad], &[0xbe, 0xef], &[0x0c, 0, 0, 0, 0, 0, 0, 0, 0]),
        (&[1; 33], &[3], &[0xff; 33]),
    ];
    for (i, (b, e, n)) in cases.iter().enumerate() {
        // (width, product, schedule) as modexp_diff's flags byte.
        let all = [(3u8, 0u8, 0u8), (0, 1, 3), (1, 5, 1), (2, 3, 4), (3, 2, 2)];
        for flags in all.map(|(w, p, s)| w | p << 2 | s << 5) {
            let mut s = vec![flags, b.len() as u8];
            s.extend(*b);
            s.push(e.len() as u8);
            s.extend(*e);
            s.extend(*n);
            c.add("modexp_diff", format!("{i:02}-{flags:02x}"), s.clone());
            if flags == all[1].0 | all[1].1 << 2 | all[1].2 << 5 {
                // Any bytes decode as a batch case; these carry the same numbers.
                let mut r = vec![0u8; 64];
                rng(i as u64).fill_bytes(&mut r);
                c.add("batch_vs_single", format!("{i:02}"), [s, r].concat());
            }
        }
    }
    for len in [32usize, 256, 1024] {
        let mut r = vec![0u8; len];
        rng(1000 + len as u64).fill_bytes(&mut r);
        c.add("batch_vs_single", format!("random-{len}"), r);
    }
}

fn batch_lines(c: &mut Corpus) {
    let key = key_1024();
    let public: &RsaPublicKey = key.public_key();
    let k = public.size();
    let line = |v: Value| format!("{v}\n");
    // modexp: [command] lines; commands 0-5 (word 64, 32, 16, 8, auto, scalar), bit 4 --hex.
    let modexp = [
        line(json!({"base": 4, "exp": 13, "mod": 497})),
        line(json!({"base": "0x10", "exp": "0", "mod": "1"})),
        line(json!({"base": 2, "exp": 100, "mod": 1024})),
        line(json!({"base": "123456789", "exp": "0xfff", "mod": "1000000007"})),
        line(json!({"base": 1, "exp": 1, "mod": 0})),
        line(json!({"base": -1, "exp": 1, "mod": 7})),
        line(json!({"base": 1.5, "exp": 1, "mod": 7})),
        line(json!({"base": 1e3, "exp": 1, "mod": 7})),
        line(json!({"exp": 1, "mod": 7})),
        line(json!({"base": [1], "exp": 1, "mod": 7})),
        "{\"base\": 1, \"base\": 2, \"exp\": 1, \"mod\": 7}\n".into(),
        "\u{feff}{\"base\": 3, \"exp\": 5, \"mod\": 11}\r\n".into(),
        "\n".into(),
        "[1, 2, 3]\n".into(),
        "{\"base\": 3\n".into(),
        "not json\n".into(),
    ];
    let all: String = modexp.concat();
    for command in [0u8, 1, 2, 3, 4, 5, 16, 20] {
        c.add(
            "batch_jsonl",
            format!("modexp-{command:02}"),
            [&[command][..], all.as_bytes()].concat(),
        );
    }
    c.add("batch_jsonl", "modexp-one", [&[0u8][..], modexp[0].as_bytes()].concat());
    // RSA: [command] lines; 6-10 private ops, 11-15 public ops; bits 5-6 the hash (0: sha256).
    let hexline = |name: &str, b: &[u8]| line(json!({ name: to_hex(b) }));
    let msg = b"batch message";
    let ct_oaep = oaep::encrypt(public, HashAlg::Sha256, HashAlg::Sha256, &[], msg, &mut rng(1)).unwrap();
    let ct_v15 = pkcs1v15::encrypt(public, msg, &mut rng(2)).unwrap();
    let sig_pss = pss::sign(key, HashAlg::Sha256, HashAlg::Sha256, None, msg, &mut rng(3)).unwrap();
    let sig_v15 = pkcs1v15::sign(key, HashAlg::Sha256, msg, &mut rng(4)).unwrap();
    let raw = hazmat::raw_public(public, &[7; 32]).unwrap();
    let bad = [
        line(json!({"in": "0"})),
        line(json!({"in": "zz"})),
        line(json!({"in": 5})),
        line(json!({"out": "00"})),
        hexline("in", &vec![0xff; k]),
    ]
    .concat();
    let private = [
        (6u8, hexline("in", &raw)),
        (7, hexline("in", msg)),
        (8, hexline("in", msg)),
        (9, hexline("in", &ct_oaep)),
        (10, hexline("in", &ct_v15)),
    ];
    for (command, good) in private {
        c.add(
            "batch_jsonl",
            format!("rsa-{command:02}"),
            [&[command][..], good.as_bytes(), bad.as_bytes()].concat(),
        );
    }
    let pair = |sig: &[u8]| line(json!({"in": to_hex(msg), "sig": to_hex(sig)}));
    let public_lines = [
        (11u8, hexline("in", &[7; 32])),
        (12, pair(&sig_pss)),
        (13, pair(&sig_v15)),
        (14, hexline("in", msg)),
        (15, hexline("in", msg)),
    ];
    for (command, good) in public_lines {
        let lines = [good.as_str(), &line(json!({"in": "00", "sig": "00"})), &bad].concat();
        c.add(
            "batch_jsonl",
            format!("rsa-{command:02}"),
            [&[command][..], lines.as_bytes()].concat(),
        );
    }
    let shake = pss::sign(key, HashAlg::Shake256, HashAlg::Shake256, Some(16), msg, &mut rng(5)).unwrap();
    c.add(
        "batch_jsonl",
        "rsa-pss-shake256",
        [&[12u8 | 0x60][..], pair(&shake).as_bytes()].concat(),
    );
}

fn main() {
    let mut args = std::env::args_os().skip(1);
    let dir = PathBuf::from(args.next().expect("usage: redc-fuzz-seeds CORPUS_DIR [WYCHEPROOF_DIR]"));
    let vectors = args.next().map(PathBuf::from);
    let mut c = Corpus::default();
    key_files(&mut c);
    signatures(&mut c);
    decryption(&mut c);
    envelopes(&mut c);
    numbers(&mut c);
    modexp_cases(&mut c);
    batch_lines(&mut c);
    match &vectors {
        Some(v) if v.is_dir() => {
            wycheproof_keys(&mut c, v);
            wycheproof_schemes(&mut c, v);
        }
        _ => eprintln!("seeds: no Wycheproof directory given or found; its seeds are left out"),
    }
    c.write(&dir).expect("write the corpus");
}
