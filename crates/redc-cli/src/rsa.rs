//! `redc rsa encrypt|decrypt` (one message, raw ciphertext bytes as
//! `openssl pkeyutl` reads and writes them) and the batch commands.

use crate::args::{BatchArgs, EncScheme, PrivateOp, PublicOp, RsaMessageArgs};
use crate::failure::bad_input;
use crate::jsonl::{self, LineError, field_hex};
use crate::keyfile::{load_private, load_public, parse_hash, parse_hex, read_input, rsa_error, rsa_hashes, to_hex};
use crate::output::Sink;
use rand_core::OsRng;
use redc::Engine;
use redc_rsa::{Error, HashAlg, RsaPrivateKey, RsaPublicKey, hazmat, oaep, pkcs1v15, pss};
use serde_json::{Value, json};
use std::process::ExitCode;
use zeroize::Zeroizing;

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
    let sink = Sink::open_binary(&a.output, "-o")?;
    let key = load_public(&a.key, &a.password, "--key")?;
    let msg = read_input(&a.input, "--in")?;
    let ct = match a.scheme {
        EncScheme::Oaep => {
            let (hash, mgf, label) = oaep_params(a)?;
            oaep::encrypt(&key, hash, mgf, &label, &msg, &mut OsRng)
        }
        EncScheme::Pkcs1v15 => pkcs1v15::encrypt(&key, &msg, &mut OsRng),
    }
    .map_err(|e| rsa_error("rsa encrypt", &e))?;
    write_all(sink, &ct)
}

/// Run `redc rsa decrypt`.
pub(crate) fn decrypt(a: &RsaMessageArgs) -> anyhow::Result<ExitCode> {
    let key = load_private(&a.key, &a.password)?;
    let ct = read_input(&a.input, "--in")?;
    let msg = match a.scheme {
        EncScheme::Oaep => {
            let (hash, mgf, label) = oaep_params(a)?;
            oaep::decrypt(&key, hash, mgf, &label, &ct, &mut OsRng).map_err(|e| match e {
                // The same words whatever went wrong (no padding oracle):
                // the options only, and the two commonest causes.
                Error::Decryption => bad_input!(
                    "rsa decrypt: {e} (OAEP with {} and MGF1-{}). `openssl pkeyutl -encrypt` pads with \
                     PKCS#1 v1.5 unless given -pkeyopt rsa_padding_mode:oaep (its ciphertexts: --scheme \
                     pkcs1v15), and its OAEP hashes with SHA-1 unless given -pkeyopt rsa_oaep_md (--hash sha1)",
                    hash.name(),
                    mgf.name()
                ),
                e => rsa_error("rsa decrypt", &e),
            })
        }
        EncScheme::Pkcs1v15 => pkcs1v15::decrypt(&key, &ct, &mut OsRng).map_err(|e| rsa_error("rsa decrypt", &e)),
    }?;
    write_all(Sink::open(Some(&a.output))?, &msg)
}

/// Write `bytes` to `sink`, whole.
fn write_all(mut sink: Sink, bytes: &[u8]) -> anyhow::Result<ExitCode> {
    sink.writer().write_all(bytes)?;
    sink.finish()?;
    Ok(ExitCode::SUCCESS)
}

/// Run `redc rsa private-batch`, [`jsonl::CHUNK`] lines at a time, each
/// chunk one engine batch.
pub(crate) fn private_batch(a: &BatchArgs<PrivateOp>) -> anyhow::Result<ExitCode> {
    let key = load_private(&a.key, &a.password)?;
    let hashes = rsa_hashes(a.hash.as_deref(), a.mgf1_hash.as_deref(), key.public_key())?;
    jsonl::run_batch(
        &a.io,
        |obj| field_hex(obj, "in"),
        |engine, inputs| private_ops(engine, &key, a.op, hashes, &inputs),
    )
}

/// Run `redc rsa public-batch`, [`jsonl::CHUNK`] lines at a time, each
/// chunk one engine batch.
pub(crate) fn public_batch(a: &BatchArgs<PublicOp>) -> anyhow::Result<ExitCode> {
    let key = load_public(&a.key, &a.password, "--key")?;
    let hashes = rsa_hashes(a.hash.as_deref(), a.mgf1_hash.as_deref(), &key)?;
    let needs_sig = matches!(a.op, PublicOp::VerifyPss | PublicOp::VerifyPkcs1v15);
    jsonl::run_batch(
        &a.io,
        |obj| {
            let input = field_hex(obj, "in")?;
            let sig = if needs_sig { field_hex(obj, "sig")? } else { Vec::new() };
            Ok((input, sig))
        },
        |engine, lines| public_ops(engine, &key, a.op, hashes, &lines),
    )
}

/// The private operation `op` on every input of a chunk, as one engine
/// batch (the library's batch form of each scheme).
fn private_ops(
    engine: &Engine,
    key: &RsaPrivateKey,
    op: PrivateOp,
    (hash, mgf1): (HashAlg, HashAlg),
    inputs: &[Vec<u8>],
) -> Vec<Result<Value, LineError>> {
    let inputs: Vec<&[u8]> = inputs.iter().map(Vec::as_slice).collect();
    let secret = |answers: Vec<Result<Zeroizing<Vec<u8>>, Error>>| -> Vec<Result<Vec<u8>, Error>> {
        answers.into_iter().map(|m| m.map(|m| m.to_vec())).collect()
    };
    let answers = match op {
        PrivateOp::Raw => secret(hazmat::raw_private_batch(engine, key, &inputs, &mut OsRng)),
        PrivateOp::SignPss => pss::sign_batch(engine, key, hash, mgf1, None, &inputs, &mut OsRng),
        PrivateOp::SignPkcs1v15 => pkcs1v15::sign_batch(engine, key, hash, &inputs, &mut OsRng),
        PrivateOp::DecryptOaep => secret(oaep::decrypt_batch(engine, key, hash, mgf1, &[], &inputs, &mut OsRng)),
        PrivateOp::DecryptPkcs1v15 => secret(pkcs1v15::decrypt_batch(engine, key, &inputs, &mut OsRng)),
    };
    answers.into_iter().map(out).collect()
}

/// The public operation `op` on every (input, signature) of a chunk (the
/// signature is empty for the operations that take none), as one engine
/// batch.
fn public_ops(
    engine: &Engine,
    key: &RsaPublicKey,
    op: PublicOp,
    (hash, mgf1): (HashAlg, HashAlg),
    lines: &[(Vec<u8>, Vec<u8>)],
) -> Vec<Result<Value, LineError>> {
    let inputs: Vec<&[u8]> = lines.iter().map(|(input, _)| input.as_slice()).collect();
    let pairs: Vec<(&[u8], &[u8])> = lines
        .iter()
        .map(|(input, sig)| (input.as_slice(), sig.as_slice()))
        .collect();
    match op {
        PublicOp::Raw => hazmat::raw_public_batch(engine, key, &inputs)
            .into_iter()
            .map(out)
            .collect(),
        PublicOp::VerifyPss => pss::verify_batch(engine, key, hash, mgf1, None, &pairs)
            .into_iter()
            .map(verdict)
            .collect(),
        PublicOp::VerifyPkcs1v15 => pkcs1v15::verify_batch(engine, key, hash, &pairs)
            .into_iter()
            .map(verdict)
            .collect(),
        PublicOp::EncryptOaep => oaep::encrypt_batch(engine, key, hash, mgf1, &[], &inputs, &mut OsRng)
            .into_iter()
            .map(out)
            .collect(),
        PublicOp::EncryptPkcs1v15 => pkcs1v15::encrypt_batch(engine, key, &inputs, &mut OsRng)
            .into_iter()
            .map(out)
            .collect(),
    }
}

/// `{"valid": true|false}`, or the line's error.
fn verdict(r: Result<(), Error>) -> Result<Value, LineError> {
    match r {
        Ok(()) => Ok(json!({ "valid": true })),
        Err(Error::Verification) => Ok(json!({ "valid": false })),
        Err(e) => Err(LineError::field("in", e)),
    }
}

/// `{"out": HEX}`, or the line's error.
fn out(r: Result<Vec<u8>, Error>) -> Result<Value, LineError> {
    r.map(|o| json!({ "out": to_hex(&o) }))
        .map_err(|e| LineError::field("in", e))
}
