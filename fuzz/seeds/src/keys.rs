//! Seeds of the key readers: key files in every format the library
//! writes, encrypted ones, multi-prime ones and corner cases.

use super::*;

pub(super) fn key_files(c: &mut Corpus) {
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
