//! Seeds from the Wycheproof vectors of the Wycheproof key (when their
//! directory is given): its key files and its signature and decryption
//! cases.

use super::*;

pub(super) fn wycheproof_keys(c: &mut Corpus, dir: &Path) {
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

pub(super) fn read_json(path: &Path) -> Option<Value> {
    match std::fs::read(path) {
        Ok(bytes) => Some(serde_json::from_slice(&bytes).expect("Wycheproof JSON")),
        Err(e) => {
            eprintln!("seeds: {}: {e}; skipped", path.display());
            None
        }
    }
}

pub(super) fn wycheproof_hash(name: &str) -> HashAlg {
    HashAlg::from_name(&name.to_lowercase().replace("sha-", "sha").replace('/', "-"))
        .unwrap_or_else(|| panic!("hash {name}"))
}

/// Wycheproof's tests of Wycheproof's key in `file`: (group, test) pairs.
pub(super) fn tests_of_key(file: &Value, n_hex: &str) -> Vec<(Value, Value)> {
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

pub(super) fn wycheproof_schemes(c: &mut Corpus, dir: &Path) {
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
