//! Wycheproof: every `rsa_*_test.json` in the directory named by
//! `REDC_VECTORS` (the `wycheproof` folder or its `testvectors_v1` folder;
//! default `../shared/vectors/wycheproof/testvectors_v1` beside the
//! workspace), dispatched on the file's `schema`, every test case checked
//! against its expected result as Wycheproof documents it: `valid` must
//! pass, `invalid` must fail, `acceptable` may do either. A schema the
//! runner does not know fails the test (never skipped).
//!
//! Keys are built from the hex integers of the test groups (`privateKey`
//! `{modulus, publicExponent, privateExponent, prime1, prime2, ...}`,
//! `publicKey {modulus, publicExponent}`, or the older `n`, `e`, `d`), so
//! this runner does not depend on the key encodings. A key that redc
//! rejects counts as "the operation failed": right for `invalid` cases, a
//! reported failure for `valid` ones.

#![allow(clippy::print_stderr)]

mod scheme_support;
mod wycheproof_support;

use rand_core::OsRng;
use redc_rsa::padding::{Oaep, Pkcs1v15Encrypt, Pkcs1v15Sign, Pss};
use redc_rsa::policy::SecurityLevel;
use redc_rsa::{Error, HashAlg, Num, RsaPrivateKey, RsaPublicKey, hazmat};
use scheme_support::{hex, key_from_ned, num, to_hex};
use serde_json::Value;
use wycheproof_support::{GroupRunner, Tally, field, tests};

/// The schemas this runner knows (names without `.json` and `_v1`).
const SCHEMAS: [&str; 6] = [
    "rsaes_oaep_decrypt_schema",
    "rsaes_pkcs1_decrypt_schema",
    "rsassa_pkcs1_generate_schema",
    "rsassa_pkcs1_verify_schema",
    "rsassa_pss_verify_schema",
    "rsassa_pss_with_parameters_verify_schema",
];

/// The key object of a group (`privateKey`/`publicKey`), or the group
/// itself for the older layout with `n`, `e`, `d` at group level.
fn key_object<'a>(group: &'a Value, name: &str) -> &'a Value {
    match group.get(name) {
        Some(v) if v.is_object() => v,
        _ => group,
    }
}

fn int(obj: &Value, long: &str, short: &str) -> Option<Num> {
    obj.get(long)
        .or_else(|| obj.get(short))
        .and_then(Value::as_str)
        .map(num)
}

fn public_key(group: &Value) -> Result<RsaPublicKey, String> {
    let obj = key_object(group, "publicKey");
    let n = int(obj, "modulus", "n").ok_or("no modulus")?;
    let e = int(obj, "publicExponent", "e").ok_or("no public exponent")?;
    RsaPublicKey::new(n, e)
        .map(|k| k.with_security_level(SecurityLevel::NONE))
        .map_err(|e| format!("key rejected: {e}"))
}

fn private_key(group: &Value) -> Result<RsaPrivateKey, String> {
    let obj = key_object(group, "privateKey");
    let n = int(obj, "modulus", "n").ok_or("no modulus")?;
    let e = int(obj, "publicExponent", "e").ok_or("no public exponent")?;
    let d = int(obj, "privateExponent", "d").ok_or("no private exponent")?;
    let mut primes: Vec<Num> = ["prime1", "prime2"]
        .iter()
        .zip(["p", "q"])
        .filter_map(|(long, short)| int(obj, long, short))
        .collect();
    if let Some(others) = obj.get("otherPrimeInfos").and_then(Value::as_array) {
        for info in others {
            if let Some(r) = info.get(0).and_then(Value::as_str) {
                primes.push(num(r));
            }
        }
    }
    if primes.len() < 2 {
        return key_from_ned(&n, &e, &d).map_err(|e| format!("key rejected: {e}"));
    }
    RsaPrivateKey::from_components(n, e, d, primes)
        .map(|k| k.with_security_level(SecurityLevel::NONE))
        .map_err(|e| format!("key rejected: {e}"))
}

fn hash_of(group: &Value) -> Result<HashAlg, String> {
    let name = field(group, "sha");
    HashAlg::from_name(name).ok_or_else(|| format!("unknown hash {name:?}"))
}

/// The MGF hash: `mgfSha` for MGF1, the SHAKE itself for RFC 8702 groups.
fn mgf_hash_of(group: &Value) -> Result<HashAlg, String> {
    let mgf = group.get("mgf").and_then(Value::as_str).unwrap_or("MGF1");
    let name = if mgf.eq_ignore_ascii_case("MGF1") {
        field(group, "mgfSha")
    } else {
        mgf
    };
    HashAlg::from_name(name).ok_or_else(|| format!("unknown MGF {mgf:?} / {name:?}"))
}

fn err_text(r: &Result<impl Sized, Error>) -> String {
    match r {
        Ok(_) => String::new(),
        Err(e) => e.to_string(),
    }
}

/// RSAES-OAEP decryption: the message must come back for valid cases;
/// every failure must be the one `Error::Decryption`.
fn run_oaep(group: &Value, t: &mut Tally) -> Result<(), String> {
    let key = private_key(group)?;
    let (hash, mgf) = (hash_of(group)?, mgf_hash_of(group)?);
    for tc in tests(group) {
        let r = key.decrypt(
            Oaep {
                hash,
                mgf_hash: mgf,
                label: <[u8]>::to_vec(&hex(field(tc, "label"))),
            },
            &hex(field(tc, "ct")),
            &mut OsRng,
        );
        if let Err(e) = &r {
            assert_eq!(
                *e,
                Error::Decryption,
                "OAEP must fail with one error only (tcId {})",
                tc["tcId"]
            );
        }
        let ok = matches!(&r, Ok(m) if m[..] == hex(field(tc, "msg"))[..]);
        t.record(tc, ok, &err_text(&r));
    }
    Ok(())
}

/// RSAES-PKCS1-v1_5 decryption: explicit rejection (hazmat) decides
/// valid/invalid; implicit rejection must give the same message for valid
/// ciphertexts, and for invalid ones a deterministic answer, not an error,
/// whenever the ciphertext is well-formed (k bytes, below n).
fn run_pkcs1_decrypt(group: &Value, t: &mut Tally) -> Result<(), String> {
    let key = private_key(group)?;
    let k = key.public_key().size();
    for tc in tests(group) {
        let ct = hex(field(tc, "ct"));
        let msg = hex(field(tc, "msg"));
        let explicit = hazmat::pkcs1v15_decrypt_explicit(&key, &ct, &mut OsRng);
        if let Err(e) = &explicit {
            assert_eq!(
                *e,
                Error::Decryption,
                "one error for every padding failure (tcId {})",
                tc["tcId"]
            );
        }
        let ok = matches!(&explicit, Ok(m) if m[..] == msg[..]);
        let implicit = key.decrypt(Pkcs1v15Encrypt, &ct, &mut OsRng);
        let well_formed = ct.len() == k && Num::from_be_bytes(&ct) < *key.public_key().n();
        if ok {
            assert!(
                matches!(&implicit, Ok(m) if m[..] == msg[..]),
                "implicit rejection changed a valid message (tcId {})",
                tc["tcId"]
            );
        } else if well_formed {
            let again = key.decrypt(Pkcs1v15Encrypt, &ct, &mut OsRng);
            match (&implicit, &again) {
                (Ok(a), Ok(b)) => assert_eq!(
                    a[..],
                    b[..],
                    "synthetic message not deterministic (tcId {})",
                    tc["tcId"]
                ),
                _ => panic!("implicit rejection returned an error for tcId {}", tc["tcId"]),
            }
        } else {
            assert_eq!(
                implicit,
                Err(Error::Decryption),
                "malformed ciphertext (tcId {})",
                tc["tcId"]
            );
        }
        t.record(tc, ok, &err_text(&explicit));
    }
    Ok(())
}

/// RSASSA-PKCS1-v1_5 generation: the signature must match byte for byte.
fn run_pkcs1_generate(group: &Value, t: &mut Tally) -> Result<(), String> {
    let key = private_key(group)?;
    let hash = hash_of(group)?;
    for tc in tests(group) {
        let r = key.sign(Pkcs1v15Sign::new(hash), &hex(field(tc, "msg")), &mut OsRng);
        let expected = hex(field(tc, "sig"));
        let ok = matches!(&r, Ok(s) if *s == expected);
        let why = match &r {
            Ok(s) if *s != expected => format!("signature {} differs", to_hex(s)),
            _ => err_text(&r),
        };
        t.record(tc, ok, &why);
    }
    Ok(())
}

/// RSASSA-PKCS1-v1_5 verification.
fn run_pkcs1_verify(group: &Value, t: &mut Tally) -> Result<(), String> {
    let key = public_key(group)?;
    let hash = hash_of(group)?;
    for tc in tests(group) {
        let r = key.verify(Pkcs1v15Sign::new(hash), &hex(field(tc, "msg")), &hex(field(tc, "sig")));
        t.record(tc, r.is_ok(), &err_text(&r));
    }
    Ok(())
}

/// RSASSA-PSS verification with the group's hash, MGF and salt length
/// (for both schemas: with parameters, they are also in the key's DER).
fn run_pss_verify(group: &Value, t: &mut Tally) -> Result<(), String> {
    let key = public_key(group)?;
    let (hash, mgf) = (hash_of(group)?, mgf_hash_of(group)?);
    let salt_len = group["sLen"].as_u64().ok_or("no sLen")? as usize;
    for tc in tests(group) {
        let r = key.verify(
            Pss {
                hash,
                mgf_hash: mgf,
                salt_len: Some(salt_len),
            },
            &hex(field(tc, "msg")),
            &hex(field(tc, "sig")),
        );
        t.record(tc, r.is_ok(), &err_text(&r));
    }
    Ok(())
}

/// Run one file; `Err` for an unknown schema.
fn dispatch(schema: &str) -> Option<GroupRunner> {
    Some(match schema {
        "rsaes_oaep_decrypt_schema" => run_oaep,
        "rsaes_pkcs1_decrypt_schema" => run_pkcs1_decrypt,
        "rsassa_pkcs1_generate_schema" => run_pkcs1_generate,
        "rsassa_pkcs1_verify_schema" => run_pkcs1_verify,
        "rsassa_pss_verify_schema" | "rsassa_pss_with_parameters_verify_schema" => run_pss_verify,
        _ => return None,
    })
}

#[test]
fn wycheproof_rsa() {
    wycheproof_support::run_all("rsa_", &SCHEMAS, dispatch);
}
