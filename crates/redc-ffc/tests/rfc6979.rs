//! RFC 6979 Appendix A.2.1 and A.2.2: the DSA known answers (1024- and
//! 2048-bit keys, SHA-1 and SHA-2, messages "sample" and "test"): the nonce
//! `k` (through the signature it gives) and `(r, s)` byte for byte, then
//! each signature verified and a changed one refused.

use redc_ffc::dsa::{DsaParams, DsaPrivateKey, Nonce, Signature};
use redc_ffc::{HashAlg, Num, SecurityLevel};
use std::collections::HashMap;
use std::sync::Arc;

struct Case {
    group: String,
    hash: HashAlg,
    msg: String,
    r: Num,
    s: Num,
}

fn parse() -> (HashMap<String, DsaPrivateKey>, Vec<Case>) {
    let text = include_str!("data/rfc6979_dsa.txt");
    let mut keys = HashMap::new();
    let mut cases = Vec::new();
    let mut group = String::new();
    let mut fields: HashMap<String, String> = HashMap::new();
    let mut flush = |group: &str, fields: &mut HashMap<String, String>, keys: &mut HashMap<String, DsaPrivateKey>| {
        let hex = |k: &str| Num::from_hex(&fields[k]).unwrap();
        if fields.contains_key("p") {
            let params = Arc::new(DsaParams::new(hex("p"), hex("q"), hex("g")).unwrap());
            let x = redc::SecretNat::from_nat(&hex("x"), params.q().digits().len()).unwrap();
            // RFC 6979's keys include a (1024, 160) one: level 0, on purpose.
            let key = DsaPrivateKey::from_exponent(params, &x)
                .unwrap()
                .with_security_level(SecurityLevel::NONE);
            assert_eq!(*key.public_key().y(), hex("y"), "{group}: y = g^x mod p");
            keys.insert(group.to_string(), key);
        } else if fields.contains_key("hash") {
            cases.push(Case {
                group: group.to_string(),
                hash: HashAlg::from_name(&fields["hash"]).unwrap(),
                msg: fields["msg"].clone(),
                r: hex("r"),
                s: hex("s"),
            });
        }
        fields.clear();
    };
    for line in text.lines().map(str::trim) {
        if line.starts_with('#') {
            continue;
        }
        if let Some(name) = line.strip_prefix("[group ").and_then(|l| l.strip_suffix(']')) {
            flush(&group, &mut fields, &mut keys);
            group = name.to_string();
        } else if line.is_empty() {
            flush(&group, &mut fields, &mut keys);
        } else if let Some((k, v)) = line.split_once(" = ") {
            fields.insert(k.to_string(), v.to_string());
        }
    }
    flush(&group, &mut fields, &mut keys);
    (keys, cases)
}

#[test]
fn rfc6979_appendix_a2_dsa_signatures_are_reproduced() {
    let (keys, cases) = parse();
    assert_eq!(keys.len(), 2);
    assert_eq!(cases.len(), 20, "ten cases per key");
    for case in &cases {
        let key = &keys[&case.group];
        let digest = case.hash.digest(case.msg.as_bytes());
        let sig = key
            .sign_prehashed(case.hash, &digest, Nonce::Deterministic, &mut rand_core::OsRng)
            .unwrap();
        let name = format!("{} {} {:?}", case.group, case.hash.name(), case.msg);
        assert_eq!(sig.r, case.r, "{name}: r");
        assert_eq!(sig.s, case.s, "{name}: s");
        key.public_key().verify_prehashed(&digest, &sig).unwrap();
        let bad = Signature {
            r: sig.r.clone(),
            s: sig.s.add(&Num::one()),
        };
        assert!(key.public_key().verify_prehashed(&digest, &bad).is_err(), "{name}");
    }
}
