//! DSA on the command line: `redc keygen --algorithm dsa` (new FIPS 186-4
//! parameters and a key), `redc sign` and `redc verify` with a DSA key, and
//! the batches `redc dsa sign-batch|verify-batch` in the JSON Lines
//! conventions of the RSA batches.

use crate::args::{DsaBatchArgs, KeygenArgs, NonceArg, SigOptions, SignArgs};
use crate::failure::bad_input;
use crate::jsonl::{self, LineError, field_hex};
use crate::keyfile::{ffc_as, ffc_error, ffc_key_from, load_ffc, refuse_options, to_hex};
use crate::keypair::write_ffc_pair;
use rand_core::OsRng;
use redc_ffc::dsa::{
    DsaPrivateKey, DsaPublicKey, GENERATED_SIZES, HASHES, Nonce, SigEncoding, Signature, generate_params, sign_batch,
    verify_batch,
};
use redc_ffc::encoding::{KeyKind, WrongKey};
use redc_ffc::{AnyKey, HashAlg};
use redc_rsa::encoding::PrivateFormat;
use serde_json::json;
use std::process::ExitCode;
use std::sync::Arc;

/// Run `redc keygen --algorithm dsa` (the output checks done by the caller).
pub(crate) fn keygen(a: &KeygenArgs) -> anyhow::Result<ExitCode> {
    for (given, option) in [
        (a.e.is_some(), "--e"),
        (a.primes.is_some(), "--primes"),
        (a.encrypt, "--encrypt"),
    ] {
        if given {
            return Err(bad_input!("{option}: only for --algorithm rsa"));
        }
    }
    if a.format.0 == PrivateFormat::Pkcs1 {
        return Err(bad_input!(
            "--format pkcs1: only for --algorithm rsa (DSA keys are PKCS#8)"
        ));
    }
    let qbits = a.qbits.unwrap_or(if a.bits == 2048 { 224 } else { 256 });
    if !GENERATED_SIZES.contains(&(a.bits, qbits)) {
        return Err(bad_input!(
            "--bits {} --qbits {qbits}: DSA keys are (2048, 224), (2048, 256) or (3072, 256) (FIPS 186-4 §4.2)",
            a.bits
        ));
    }
    write_ffc_pair(a.output.as_deref(), a.public.as_deref(), a.outform.0, || {
        let bar = crate::progress::spinner(format!("generating DSA parameters ({}, {qbits})", a.bits));
        let params = generate_params(a.bits, qbits, &mut OsRng).map_err(|e| ffc_error("keygen", &e))?;
        if let Some(bar) = &bar {
            bar.finish_and_clear();
        }
        let key = DsaPrivateKey::generate(Arc::new(params), &mut OsRng).map_err(|e| ffc_error("keygen", &e))?;
        let public = key.public_key().clone();
        Ok((key, public))
    })
}

/// A DSA hash: one of [`HASHES`], SHA-1 or SHA-2.
fn dsa_hash(name: &str, option: &str) -> anyhow::Result<HashAlg> {
    let hash = crate::keyfile::parse_hash(name, option)?;
    if HASHES.contains(&hash) {
        return Ok(hash);
    }
    let names: Vec<&str> = HASHES.iter().map(|h| h.name()).collect();
    Err(bad_input!("{option} {}: DSA takes {}", hash.name(), names.join(", ")))
}

fn nonce(arg: Option<NonceArg>) -> Nonce {
    match arg {
        Some(NonceArg::Random) => Nonce::Random,
        Some(NonceArg::Deterministic) => Nonce::Deterministic,
        Some(NonceArg::Hedged) | None => Nonce::Hedged,
    }
}

/// `redc sign` and `redc verify` with the DSA key in `file`: the other
/// algorithm's options refused, the hash of `--hash`, and the key as `into`
/// takes it.
fn hash_and_key<T>(
    o: &SigOptions,
    file: &[u8],
    into: fn(AnyKey) -> Result<T, WrongKey>,
) -> anyhow::Result<(HashAlg, T)> {
    refuse_options(o, KeyKind::Dsa, false)?;
    let hash = dsa_hash(o.hash.as_deref().unwrap_or("sha256"), "--hash")?;
    Ok((
        hash,
        ffc_as(ffc_key_from(file, &o.key, "--key")?, into, "--key", &o.key)?,
    ))
}

/// `redc sign` with the DSA key in `file` (read from `a.opts.key`): the
/// signature of `digest`'s message.
pub(crate) fn sign(
    a: &SignArgs,
    file: &[u8],
    digest: impl FnOnce(HashAlg) -> anyhow::Result<Vec<u8>>,
) -> anyhow::Result<Vec<u8>> {
    let o = &a.opts;
    // The security level refuses (1024, 160) parameters for signing by
    // default: SP 800-131A keeps them for verification.
    let (hash, key) = hash_and_key(o, file, AnyKey::into_dsa_private)?;
    let digest = digest(hash)?;
    let sig = key
        .sign_prehashed(hash, &digest, nonce(a.nonce), &mut OsRng)
        .map_err(|e| ffc_error("sign", &e))?;
    let format = o.sig_format.map_or(SigEncoding::Der, |f| f.0);
    key.public_key()
        .encode_signature(&sig, format)
        .map_err(|e| ffc_error("sign", &e))
}

/// `redc verify` with the DSA key in `file`: whether `sig` verifies.
pub(crate) fn verify(
    o: &SigOptions,
    file: &[u8],
    sig: &[u8],
    digest: impl FnOnce(HashAlg) -> anyhow::Result<Vec<u8>>,
) -> anyhow::Result<bool> {
    let (hash, key) = hash_and_key(o, file, AnyKey::into_dsa_public)?;
    let digest = digest(hash)?;
    Ok(key
        .decode_signature(sig, o.sig_format.map_or(SigEncoding::Der, |f| f.0))
        .is_ok_and(|sig| key.verify_prehashed(&digest, &sig).is_ok()))
}

/// Run `redc dsa sign-batch`: each chunk of lines one engine batch.
pub(crate) fn sign_batch_run(a: &DsaBatchArgs) -> anyhow::Result<ExitCode> {
    let hash = dsa_hash(&a.hash, "--hash")?;
    let key = ffc_as(load_ffc(&a.key, "--key")?, AnyKey::into_dsa_private, "--key", &a.key)?;
    jsonl::run_batch(
        &a.io,
        |obj| field_hex(obj, "in").map(|m| hash.digest(&m)),
        |engine, digests| {
            let refs: Vec<&[u8]> = digests.iter().map(Vec::as_slice).collect();
            sign_batch(engine, &key, hash, &refs, nonce(a.nonce), &mut OsRng)
                .into_iter()
                .map(|sig| {
                    sig.and_then(|sig| key.public_key().encode_signature(&sig, a.sig_format.into()))
                        .map(|sig| json!({ "sig": to_hex(&sig) }))
                        .map_err(|e| LineError::line(e.to_string()))
                })
                .collect()
        },
    )
}

/// Run `redc dsa verify-batch`: each chunk of lines one engine batch; a
/// malformed signature is `{"valid": false}`, as a wrong one.
pub(crate) fn verify_batch_run(a: &DsaBatchArgs) -> anyhow::Result<ExitCode> {
    if a.nonce.is_some() {
        return Err(bad_input!("--nonce: only for sign-batch"));
    }
    let hash = dsa_hash(&a.hash, "--hash")?;
    let key = ffc_as(load_ffc(&a.key, "--key")?, AnyKey::into_dsa_public, "--key", &a.key)?;
    jsonl::run_batch(
        &a.io,
        |obj| Ok((hash.digest(&field_hex(obj, "in")?), field_hex(obj, "sig")?)),
        |engine, lines| {
            let sigs: Vec<Option<Signature>> = lines
                .iter()
                .map(|(_, sig)| key.decode_signature(sig, a.sig_format.into()).ok())
                .collect();
            let items: Vec<(&DsaPublicKey, &[u8], &Signature)> = lines
                .iter()
                .zip(&sigs)
                .filter_map(|((digest, _), sig)| Some((&key, digest.as_slice(), sig.as_ref()?)))
                .collect();
            let mut verdicts = verify_batch(engine, &items).into_iter();
            sigs.iter()
                .map(|sig| Ok(json!({ "valid": sig.is_some() && verdicts.next().unwrap_or(false) })))
                .collect()
        },
    )
}
