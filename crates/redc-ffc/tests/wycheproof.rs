//! Wycheproof: every `dsa_*_test.json` in the directory named by
//! `REDC_VECTORS` (default `../shared/vectors/wycheproof/testvectors_v1`
//! beside the workspace), dispatched on the file's `schema` (`dsa_verify`:
//! DER signatures; `dsa_p1363_verify`: `r || s`); `valid` must verify,
//! `invalid` must not, `acceptable` may do either; an unknown schema fails
//! the run. Each group's key is built from its hex integers (a key redc
//! refuses fails every case of the group), each case verified alone and
//! again in one batch of the whole group, and the two must agree.

#[path = "../../redc-rsa/tests/wycheproof_support/mod.rs"]
mod wycheproof_support;

use redc_ffc::dsa::{DsaParams, DsaPublicKey, Signature, verify_batch};
use redc_ffc::{HashAlg, Num};
use serde_json::Value;
use std::sync::Arc;
use wycheproof_support::{GroupRunner, Tally, field, tests};

/// The schemas this runner knows (names without `.json` and `_v1`).
const SCHEMAS: [&str; 2] = ["dsa_verify_schema", "dsa_p1363_verify_schema"];

/// The bytes of a hex string of the vectors (a malformed one is a broken
/// file: the run fails).
fn bytes(hex: &str) -> Vec<u8> {
    assert!(hex.len().is_multiple_of(2), "odd-length hex in the vectors: {hex}");
    (0..hex.len() / 2)
        .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).expect("hex in the vectors"))
        .collect()
}

fn public_key(group: &Value) -> Result<DsaPublicKey, String> {
    let key = &group["publicKey"];
    let int = |name: &str| Num::from_be_bytes(&bytes(field(key, name)));
    let params = DsaParams::new(int("p"), int("q"), int("g")).map_err(|e| format!("parameters rejected: {e}"))?;
    DsaPublicKey::new(Arc::new(params), int("y")).map_err(|e| format!("key rejected: {e}"))
}

fn run(group: &Value, t: &mut Tally, p1363: bool) -> Result<(), String> {
    let key = public_key(group)?;
    let hash = HashAlg::from_name(field(group, "sha")).ok_or("unknown hash")?;
    let q_len = key.params().q().bits().div_ceil(8);
    let cases: Vec<(&Value, Vec<u8>, Option<Signature>)> = tests(group)
        .iter()
        .map(|tc| {
            let sig = bytes(field(tc, "sig"));
            let sig = if p1363 {
                Signature::from_p1363(&sig, q_len)
            } else {
                Signature::from_der(&sig)
            };
            (tc, hash.digest(&bytes(field(tc, "msg"))), sig.ok())
        })
        .collect();
    let batch: Vec<(&DsaPublicKey, &[u8], &Signature)> = cases
        .iter()
        .filter_map(|(_, digest, sig)| Some((&key, digest.as_slice(), sig.as_ref()?)))
        .collect();
    let mut batched = verify_batch(redc::engine::default_engine(), &batch).into_iter();
    for (tc, digest, sig) in &cases {
        let Some(sig) = sig else {
            t.record(tc, false, "malformed signature");
            continue;
        };
        let single = key.verify_prehashed(digest, sig).is_ok();
        if batched.next() != Some(single) {
            t.fail(tc, "the batch disagrees with the single verification");
            continue;
        }
        t.record(tc, single, if single { "" } else { "does not verify" });
    }
    Ok(())
}

fn dispatch(schema: &str) -> Option<GroupRunner> {
    Some(match schema {
        "dsa_verify_schema" => |g, t| run(g, t, false),
        "dsa_p1363_verify_schema" => |g, t| run(g, t, true),
        _ => return None,
    })
}

#[test]
fn wycheproof_dsa() {
    wycheproof_support::run_all("dsa_", &SCHEMAS, dispatch);
}

/// A file of a schema the runner does not know fails the run.
#[test]
#[should_panic(expected = "unknown schema")]
fn an_unknown_schema_fails_the_run() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("wycheproof-unknown-schema");
    std::fs::create_dir_all(&dir).unwrap();
    let doc = r#"{"schema": "dsa_sign_schema_v9.json", "numberOfTests": 0, "testGroups": []}"#;
    std::fs::write(dir.join("dsa_future_test.json"), doc).unwrap();
    wycheproof_support::run_dir(&dir, "dsa_", &SCHEMAS, dispatch);
}
