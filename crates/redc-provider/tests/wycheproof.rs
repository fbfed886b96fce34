//! Wycheproof's RSA vectors through the provider, as a program linked to
//! OpenSSL meets them: every `rsa_*_test.json` of the vector directory
//! (`REDC_VECTORS`, or `../shared/vectors/wycheproof` beside the
//! workspace; redc-rsa's runner and harness), its keys read from their PEM
//! by libcrypto and moved into the provider by OpenSSL, each case run on a
//! context fetched from redc with the group's parameters set by OpenSSL's
//! names (`pad-mode`, `digest`, `mgf1-digest`, `saltlen`, `oaep-label`):
//! PKCS#1 v1.5 and PSS verification (the hash computed here), PKCS#1 v1.5
//! signing (the signature must be Wycheproof's), OAEP and PKCS#1 v1.5
//! decryption (the plaintext must be Wycheproof's; a bad PKCS#1 v1.5
//! padding must give a synthetic message, no error). `valid`
//! must pass, `invalid` must fail, `acceptable` may do either; an unknown
//! schema fails.

#![allow(clippy::print_stderr, unsafe_code)]

mod evp;
#[path = "../../redc-rsa/tests/wycheproof_support/mod.rs"]
mod wycheproof_support;

use core::ffi::{CStr, c_void};
use evp::{Op, Value};
use redc_rsa::HashAlg;
use serde_json::Value as Json;
use wycheproof_support::{GroupRunner, Tally, field, run_all, tests};

/// The schemas this runner knows (names without `.json` and `_v1`).
const SCHEMAS: [&str; 5] = [
    "rsaes_oaep_decrypt_schema",
    "rsaes_pkcs1_decrypt_schema",
    "rsassa_pkcs1_generate_schema",
    "rsassa_pkcs1_verify_schema",
    "rsassa_pss_verify_schema",
];

/// The bytes of a hex field of a test case.
fn hex(tc: &Json, name: &str) -> Vec<u8> {
    let text = field(tc, name);
    (0..text.len() / 2)
        .map(|i| u8::from_str_radix(&text[2 * i..2 * i + 2], 16).expect("hex"))
        .collect()
}

/// The hash a group names in `name` (`SHA-256`, ...), and that name.
fn hash<'a>(group: &'a Json, name: &str) -> Result<(HashAlg, &'a str), String> {
    let named = field(group, name);
    HashAlg::from_name(named)
        .map(|h| (h, named))
        .ok_or_else(|| format!("no hash {named:?}"))
}

/// The MGF1 hash of a group, which must name MGF1.
fn mgf1(group: &Json) -> Result<&str, String> {
    match field(group, "mgf") {
        "MGF1" => Ok(field(group, "mgfSha")),
        other => Err(format!("mask generation {other:?}")),
    }
}

/// Runs `case` on every test of `group`, each on a fresh context of the
/// group's key (its `privateKeyPem` or `publicKeyPem`) fetched from redc
/// for `op`, with `params` and the case's own set first; records whether
/// the case succeeded.
fn each(
    group: &Json,
    tally: &mut Tally,
    op: Op,
    params: &[(&CStr, Value<'_>)],
    case: impl Fn(*mut c_void, &Json) -> bool,
) -> Result<(), String> {
    let private = matches!(op, Op::Sign | Op::Decrypt);
    let pem = field(group, if private { "privateKeyPem" } else { "publicKeyPem" });
    let key = evp::pem_key(pem.as_bytes(), private);
    if key.is_null() {
        return Err("libcrypto cannot read the key".into());
    }
    for tc in tests(group) {
        let ctx = evp::new_context(key, "provider=redc", op);
        let ok = evp::set_params(ctx, params) && case(ctx, tc);
        evp::free_context(ctx);
        tally.record(tc, ok, "");
    }
    evp::free_key(key);
    Ok(())
}

fn pkcs1_verify(group: &Json, tally: &mut Tally) -> Result<(), String> {
    let (md, name) = hash(group, "sha")?;
    let params = [(c"pad-mode", Value::Utf8("pkcs1")), (c"digest", Value::Utf8(name))];
    each(group, tally, Op::Verify, &params, |ctx, tc| {
        evp::verifies(ctx, &hex(tc, "sig"), &md.digest(&hex(tc, "msg")))
    })
}

fn pss_verify(group: &Json, tally: &mut Tally) -> Result<(), String> {
    let (md, name) = hash(group, "sha")?;
    let salt = group["sLen"]
        .as_i64()
        .and_then(|s| i32::try_from(s).ok())
        .ok_or("no sLen")?;
    let params = [
        (c"pad-mode", Value::Utf8("pss")),
        (c"digest", Value::Utf8(name)),
        (c"mgf1-digest", Value::Utf8(mgf1(group)?)),
        (c"saltlen", Value::Int(salt)),
    ];
    each(group, tally, Op::Verify, &params, |ctx, tc| {
        evp::verifies(ctx, &hex(tc, "sig"), &md.digest(&hex(tc, "msg")))
    })
}

fn pkcs1_sign(group: &Json, tally: &mut Tally) -> Result<(), String> {
    let (md, name) = hash(group, "sha")?;
    let params = [(c"pad-mode", Value::Utf8("pkcs1")), (c"digest", Value::Utf8(name))];
    each(group, tally, Op::Sign, &params, |ctx, tc| {
        evp::try_sign(ctx, &md.digest(&hex(tc, "msg"))).is_some_and(|sig| sig == hex(tc, "sig"))
    })
}

/// The decryption of each case's `ct` must be its `msg`.
fn decrypts(ctx: *mut c_void, tc: &Json) -> bool {
    evp::decrypt(ctx, &hex(tc, "ct")).is_some_and(|m| m == hex(tc, "msg"))
}

fn oaep_decrypt(group: &Json, tally: &mut Tally) -> Result<(), String> {
    let (_, name) = hash(group, "sha")?;
    let params = [
        (c"pad-mode", Value::Utf8("oaep")),
        (c"digest", Value::Utf8(name)),
        (c"mgf1-digest", Value::Utf8(mgf1(group)?)),
    ];
    each(group, tally, Op::Decrypt, &params, |ctx, tc| {
        let label = hex(tc, "label");
        evp::set_params(ctx, &[(c"oaep-label", Value::Octets(&label))]) && decrypts(ctx, tc)
    })
}

/// PKCS#1 v1.5 decryption: a case whose padding is wrong
/// (`InvalidPkcs1Padding`) must be rejected implicitly, a synthetic
/// message other than `msg` and no error (else it counts as accepted);
/// every other case must decrypt to `msg`.
fn pkcs1_decrypt(group: &Json, tally: &mut Tally) -> Result<(), String> {
    each(
        group,
        tally,
        Op::Decrypt,
        &[(c"pad-mode", Value::Utf8("pkcs1"))],
        |ctx, tc| {
            let bad_padding = tc["flags"]
                .as_array()
                .is_some_and(|f| f.iter().any(|x| x == "InvalidPkcs1Padding"));
            if !bad_padding {
                return decrypts(ctx, tc);
            }
            let synthetic = evp::decrypt(ctx, &hex(tc, "ct")).is_some_and(|m| m != hex(tc, "msg"));
            !synthetic
        },
    )
}

fn dispatch(schema: &str) -> Option<GroupRunner> {
    Some(match schema {
        "rsaes_oaep_decrypt_schema" => oaep_decrypt,
        "rsaes_pkcs1_decrypt_schema" => pkcs1_decrypt,
        "rsassa_pkcs1_generate_schema" => pkcs1_sign,
        "rsassa_pkcs1_verify_schema" => pkcs1_verify,
        "rsassa_pss_verify_schema" => pss_verify,
        _ => return None,
    })
}

#[test]
fn wycheproof_rsa_vectors_through_the_provider() {
    evp::with_providers();
    run_all("rsa_", &SCHEMAS, dispatch);
}
