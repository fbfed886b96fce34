//! `redc rsa encrypt|decrypt` (one message, raw ciphertext bytes as
//! `openssl pkeyutl` reads and writes them) and the batch commands.

use crate::args::{BatchArgs, EncScheme, PrivateOp, PublicOp, RsaMessageArgs};
use crate::jsonl::{self, LineError};
use crate::keyfile::{hex_bytes, load_private, load_public, parse_hash, parse_hex, read_input, rsa_error, to_hex};
use crate::output::Sink;
use rand_core::OsRng;
use redc_rsa::{CrtMode, Error, HashAlg, RsaPrivateKey, RsaPublicKey, hazmat, oaep, pkcs1v15, pss};
use serde_json::{Map, Value, json};
use std::process::ExitCode;

/// The OAEP label hash, MGF1 hash and label of `a`.
fn oaep_params(a: &RsaMessageArgs) -> anyhow::Result<(HashAlg, HashAlg, Vec<u8>)> {
    let hash = parse_hash(&a.hash, "--hash")?;
    let mgf = match &a.mgf1_hash {
        Some(h) => parse_hash(h, "--mgf1-hash")?,
        None => hash,
    };
    let label = match &a.label {
        Some(hex) => parse_hex(hex, "--label")?,
        None => Vec::new(),
    };
    Ok((hash, mgf, label))
}

/// Run `redc rsa encrypt`.
pub(crate) fn encrypt(a: &RsaMessageArgs) -> anyhow::Result<ExitCode> {
    let key = load_public(&a.key, &a.password)?;
    let msg = read_input(&a.input, "--in")?;
    let ct = match a.scheme {
        EncScheme::Oaep => {
            let (hash, mgf, label) = oaep_params(a)?;
            oaep::encrypt(&key, hash, mgf, &label, &msg, &mut OsRng)
        }
        EncScheme::Pkcs1v15 => pkcs1v15::encrypt(&key, &msg, &mut OsRng),
    }
    .map_err(|e| rsa_error("rsa encrypt", &e))?;
    write_all(&a.output, &ct)
}

/// Run `redc rsa decrypt`.
pub(crate) fn decrypt(a: &RsaMessageArgs) -> anyhow::Result<ExitCode> {
    let key = load_private(&a.key, &a.password)?;
    let ct = read_input(&a.input, "--in")?;
    let msg = match a.scheme {
        EncScheme::Oaep => {
            let (hash, mgf, label) = oaep_params(a)?;
            oaep::decrypt(&key, hash, mgf, &label, &ct, &mut OsRng)
        }
        EncScheme::Pkcs1v15 => pkcs1v15::decrypt(&key, &ct, &mut OsRng),
    }
    .map_err(|e| rsa_error("rsa decrypt", &e))?;
    write_all(&a.output, &msg)
}

fn write_all(path: &std::path::Path, bytes: &[u8]) -> anyhow::Result<ExitCode> {
    let mut sink = Sink::open(Some(path))?;
    sink.writer().write_all(bytes)?;
    sink.finish()?;
    Ok(ExitCode::SUCCESS)
}

/// Run `redc rsa private-batch`.
pub(crate) fn private_batch(a: &BatchArgs<PrivateOp>) -> anyhow::Result<ExitCode> {
    let key = load_private(&a.key, &a.password)?;
    let hash = parse_hash(&a.hash, "--hash")?;
    jsonl::run(&a.input, "--in", a.output.as_deref(), |obj| {
        let input = field_hex(obj, "in")?;
        private_op(&key, a.op, hash, &input).map(|out| json!({ "out": to_hex(&out) }))
    })
}

/// Run `redc rsa public-batch`.
pub(crate) fn public_batch(a: &BatchArgs<PublicOp>) -> anyhow::Result<ExitCode> {
    let key = load_public(&a.key, &a.password)?;
    let hash = parse_hash(&a.hash, "--hash")?;
    jsonl::run(&a.input, "--in", a.output.as_deref(), |obj| {
        let input = field_hex(obj, "in")?;
        public_op(&key, a.op, hash, obj, &input)
    })
}

fn private_op(key: &RsaPrivateKey, op: PrivateOp, hash: HashAlg, input: &[u8]) -> Result<Vec<u8>, LineError> {
    let r = match op {
        PrivateOp::Raw => hazmat::raw_private(key, input, CrtMode::Garner, &mut OsRng).map(|m| m.to_vec()),
        PrivateOp::SignPss => pss::sign(key, hash, hash, None, input, &mut OsRng),
        PrivateOp::SignPkcs1v15 => pkcs1v15::sign(key, hash, input, &mut OsRng),
        PrivateOp::DecryptOaep => oaep::decrypt(key, hash, hash, &[], input, &mut OsRng).map(|m| m.to_vec()),
        PrivateOp::DecryptPkcs1v15 => pkcs1v15::decrypt(key, input, &mut OsRng).map(|m| m.to_vec()),
    };
    r.map_err(|e| LineError::field("in", e))
}

fn public_op(
    key: &RsaPublicKey,
    op: PublicOp,
    hash: HashAlg,
    obj: &Map<String, Value>,
    input: &[u8],
) -> Result<Value, LineError> {
    let verdict = |r: Result<(), Error>| match r {
        Ok(()) => Ok(json!({ "valid": true })),
        Err(Error::Verification) => Ok(json!({ "valid": false })),
        Err(e) => Err(LineError::field("in", e)),
    };
    let out = |r: Result<Vec<u8>, Error>| {
        r.map(|o| json!({ "out": to_hex(&o) }))
            .map_err(|e| LineError::field("in", e))
    };
    match op {
        PublicOp::Raw => out(hazmat::raw_public(key, input)),
        PublicOp::VerifyPss => verdict(pss::verify(key, hash, hash, None, input, &field_hex(obj, "sig")?)),
        PublicOp::VerifyPkcs1v15 => verdict(pkcs1v15::verify(key, hash, input, &field_hex(obj, "sig")?)),
        PublicOp::EncryptOaep => out(oaep::encrypt(key, hash, hash, &[], input, &mut OsRng)),
        PublicOp::EncryptPkcs1v15 => out(pkcs1v15::encrypt(key, input, &mut OsRng)),
    }
}

/// A hexadecimal field of a batch line.
fn field_hex(obj: &Map<String, Value>, name: &'static str) -> Result<Vec<u8>, LineError> {
    match obj.get(name) {
        Some(Value::String(s)) => hex_bytes(s).map_err(|m| LineError::field(name, m)),
        Some(_) => Err(LineError::field(name, "expected a hexadecimal string")),
        None => Err(LineError {
            field: Some(name),
            message: format!("missing field \"{name}\""),
        }),
    }
}
