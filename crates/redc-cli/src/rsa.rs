//! `redc rsa encrypt|decrypt` (one message, raw ciphertext bytes as
//! `openssl pkeyutl` reads and writes them) and the batch commands.

use crate::args::{BatchArgs, EncScheme, PrivateOp, PublicOp, RsaMessageArgs};
use crate::failure::bad_input;
use crate::jsonl::{self, LineError, field_hex};
use crate::keyfile::{load_private, load_public, parse_hash, parse_hex, read_input, rsa_error, rsa_hashes, to_hex};
use crate::output::Sink;
use rand_core::OsRng;
use redc::Engine;
use redc_rsa::padding::{EncryptionPadding, Oaep, Pkcs1v15Encrypt, Pkcs1v15Sign, Pss, SignaturePadding};
use redc_rsa::scheme::Batch;
use redc_rsa::{Error, HashAlg, RsaPrivateKey, RsaPublicKey, hazmat};
use serde_json::{Value, json};
use std::process::ExitCode;
use zeroize::Zeroizing;

/// The encryption padding of `a`: OAEP with its label hash, MGF1 hash and
/// label, or PKCS#1 v1.5.
fn padding(a: &RsaMessageArgs) -> anyhow::Result<EncryptionPadding> {
    if let EncScheme::Pkcs1v15 = a.scheme {
        return Ok(Pkcs1v15Encrypt.into());
    }
    let hash = parse_hash(&a.hash, "--hash")?;
    let mgf_hash = match &a.mgf1_hash {
        Some(h) => parse_hash(h, "--mgf1-hash")?,
        None => hash,
    };
    let label = match &a.label {
        Some(hex) => parse_hex(hex, "--label")?,
        None => Vec::new(),
    };
    Ok(Oaep { hash, mgf_hash, label }.into())
}

/// Run `redc rsa encrypt`.
pub(crate) fn encrypt(a: &RsaMessageArgs) -> anyhow::Result<ExitCode> {
    let sink = Sink::open_binary(&a.output, "-o")?;
    let key = load_public(&a.key, &a.password, "--key")?;
    let msg = read_input(&a.input, "--in")?;
    let ct = key
        .encrypt(padding(a)?, &msg, &mut OsRng)
        .map_err(|e| rsa_error("rsa encrypt", &e))?;
    write_all(sink, &ct)
}

/// Run `redc rsa decrypt`.
pub(crate) fn decrypt(a: &RsaMessageArgs) -> anyhow::Result<ExitCode> {
    let key = load_private(&a.key, &a.password)?;
    let ct = read_input(&a.input, "--in")?;
    let padding = padding(a)?;
    let msg = key
        .decrypt(&padding, &ct, &mut OsRng)
        .map_err(|e| match (e, &padding) {
            // The same words whatever went wrong (no padding oracle): the
            // options only, and the two commonest causes.
            (e @ Error::Decryption, EncryptionPadding::Oaep(oaep)) => bad_input!(
                "rsa decrypt: {e} (OAEP with {} and MGF1-{}). `openssl pkeyutl -encrypt` pads with \
             PKCS#1 v1.5 unless given -pkeyopt rsa_padding_mode:oaep (its ciphertexts: --scheme \
             pkcs1v15), and its OAEP hashes with SHA-1 unless given -pkeyopt rsa_oaep_md (--hash sha1)",
                oaep.hash.name(),
                oaep.mgf_hash.name()
            ),
            (e, _) => rsa_error("rsa decrypt", &e),
        })?;
    write_all(Sink::open(Some(&a.output))?, &msg)
}

/// Write `bytes` to `sink`, whole.
fn write_all(mut sink: Sink, bytes: &[u8]) -> anyhow::Result<ExitCode> {
    sink.writer().write_all(bytes)?;
    sink.finish()?;
    Ok(ExitCode::SUCCESS)
}

/// What a batch command does to each line's input, chosen once per
/// command: raw RSA, or a scheme with its parameters.
enum Op {
    Raw,
    Signature(SignaturePadding),
    Encryption(EncryptionPadding),
}

impl Op {
    /// The operation of `redc rsa private-batch --op op`.
    fn private(op: PrivateOp, (hash, mgf1): (HashAlg, HashAlg)) -> Op {
        match op {
            PrivateOp::Raw => Op::Raw,
            PrivateOp::SignPss => Op::Signature(Pss::new(hash).with_mgf_hash(mgf1).into()),
            PrivateOp::SignPkcs1v15 => Op::Signature(Pkcs1v15Sign::new(hash).into()),
            PrivateOp::DecryptOaep => Op::Encryption(Oaep::new(hash).with_mgf_hash(mgf1).into()),
            PrivateOp::DecryptPkcs1v15 => Op::Encryption(Pkcs1v15Encrypt.into()),
        }
    }

    /// The operation of `redc rsa public-batch --op op`.
    fn public(op: PublicOp, (hash, mgf1): (HashAlg, HashAlg)) -> Op {
        match op {
            PublicOp::Raw => Op::Raw,
            PublicOp::VerifyPss => Op::Signature(Pss::new(hash).with_mgf_hash(mgf1).into()),
            PublicOp::VerifyPkcs1v15 => Op::Signature(Pkcs1v15Sign::new(hash).into()),
            PublicOp::EncryptOaep => Op::Encryption(Oaep::new(hash).with_mgf_hash(mgf1).into()),
            PublicOp::EncryptPkcs1v15 => Op::Encryption(Pkcs1v15Encrypt.into()),
        }
    }
}

/// Run `redc rsa private-batch`, [`jsonl::CHUNK`] lines at a time, each
/// chunk one engine batch.
pub(crate) fn private_batch(a: &BatchArgs<PrivateOp>) -> anyhow::Result<ExitCode> {
    let key = load_private(&a.key, &a.password)?;
    let op = Op::private(
        a.op,
        rsa_hashes(a.hash.as_deref(), a.mgf1_hash.as_deref(), key.public_key())?,
    );
    jsonl::run_batch(
        &a.io,
        |obj| field_hex(obj, "in"),
        |engine, inputs| private_ops(engine, &key, &op, &inputs),
    )
}

/// Run `redc rsa public-batch`, [`jsonl::CHUNK`] lines at a time, each
/// chunk one engine batch.
pub(crate) fn public_batch(a: &BatchArgs<PublicOp>) -> anyhow::Result<ExitCode> {
    let key = load_public(&a.key, &a.password, "--key")?;
    let op = Op::public(a.op, rsa_hashes(a.hash.as_deref(), a.mgf1_hash.as_deref(), &key)?);
    let needs_sig = matches!(op, Op::Signature(_));
    jsonl::run_batch(
        &a.io,
        |obj| {
            let input = field_hex(obj, "in")?;
            let sig = if needs_sig { field_hex(obj, "sig")? } else { Vec::new() };
            Ok((input, sig))
        },
        |engine, lines| public_ops(engine, &key, &op, &lines),
    )
}

/// The private operation `op` on every input of a chunk, as one engine
/// batch.
fn private_ops(engine: &Engine, key: &RsaPrivateKey, op: &Op, inputs: &[Vec<u8>]) -> Vec<Result<Value, LineError>> {
    let inputs: Vec<&[u8]> = inputs.iter().map(Vec::as_slice).collect();
    let secret = |answers: Vec<Result<Zeroizing<Vec<u8>>, Error>>| -> Vec<Result<Vec<u8>, Error>> {
        answers.into_iter().map(|m| m.map(|m| m.to_vec())).collect()
    };
    let answers = match op {
        Op::Raw => secret(hazmat::raw_private_batch(engine, key, &inputs, &mut OsRng)),
        Op::Signature(p) => key.sign_batch(engine, p, Batch::Messages(&inputs), &mut OsRng),
        Op::Encryption(p) => secret(key.decrypt_batch(engine, p, &inputs, &mut OsRng)),
    };
    answers.into_iter().map(out).collect()
}

/// The public operation `op` on every (input, signature) of a chunk (the
/// signature is empty for the operations that take none), as one engine
/// batch.
fn public_ops(
    engine: &Engine,
    key: &RsaPublicKey,
    op: &Op,
    lines: &[(Vec<u8>, Vec<u8>)],
) -> Vec<Result<Value, LineError>> {
    let inputs: Vec<&[u8]> = lines.iter().map(|(input, _)| input.as_slice()).collect();
    match op {
        Op::Raw => hazmat::raw_public_batch(engine, key, &inputs)
            .into_iter()
            .map(out)
            .collect(),
        Op::Signature(p) => {
            let sigs: Vec<&[u8]> = lines.iter().map(|(_, sig)| sig.as_slice()).collect();
            key.verify_batch(engine, p, Batch::Messages(&inputs), &sigs)
                .into_iter()
                .map(verdict)
                .collect()
        }
        Op::Encryption(p) => key
            .encrypt_batch(engine, p, &inputs, &mut OsRng)
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
