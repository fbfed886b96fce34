//! `redc dh genkey|pubkey|derive|derive-batch`: Diffie-Hellman over the
//! named groups (RFC 7919, RFC 3526), keys in the PKCS#8 and SPKI forms
//! `openssl genpkey -algorithm DH -pkeyopt group:NAME` writes.

use crate::args::{DhBatchArgs, DhDeriveArgs, DhGenkeyArgs, DhPubkeyArgs};
use crate::failure::bad_input;
use crate::jsonl::{self, LineError, field_hex};
use crate::keyfile::{ffc_as, ffc_error, load_ffc, to_hex};
use crate::keypair::{check_outputs, ffc_bytes, open, write_ffc_pair};
use crate::output::Sink;
use rand_core::OsRng;
use redc_ffc::dh::{DhPrivateKey, DhPublicKey, derive_batch};
use redc_ffc::{AnyKey, Error, Group, Num};
use serde_json::json;
use std::path::Path;
use std::process::ExitCode;

/// Run `redc dh genkey`.
pub(crate) fn genkey(a: &DhGenkeyArgs) -> anyhow::Result<ExitCode> {
    let group = Group::from_name(&a.group).ok_or_else(|| {
        let names: Vec<&str> = Group::ALL.iter().map(|g| g.name()).collect();
        bad_input!(
            "--group {}: unknown group; possible values: {}",
            a.group,
            names.join(", ")
        )
    })?;
    if let Some(bits) = a.exponent_bits
        && !(group.exponent_bits()..group.bits()).contains(&bits)
    {
        return Err(bad_input!(
            "--exponent-bits {bits}: {group} takes {} (RFC 7919 §5.2) to {} (the size of q)",
            group.exponent_bits(),
            group.bits() - 1
        ));
    }
    let level = crate::policy::level();
    if group.bits() < level.ffc_min_bits() {
        return Err(bad_input!(
            "--group {group}: a key for new secrets needs a prime of at least {} bits at {level} ({})",
            level.ffc_min_bits(),
            crate::policy::HINT
        ));
    }
    check_outputs(a.output.as_deref(), a.public.as_deref(), a.force)?;
    write_ffc_pair(a.output.as_deref(), a.public.as_deref(), a.outform.0, || {
        let key = DhPrivateKey::generate(group, a.exponent_bits, &mut OsRng).map_err(|e| ffc_error("dh genkey", &e))?;
        let public = key.public_key().clone();
        Ok((key, public))
    })
}

/// The Diffie-Hellman private key in the file given as `--key`.
fn dh_private(path: &Path) -> anyhow::Result<DhPrivateKey> {
    ffc_as(load_ffc(path, "--key")?, AnyKey::into_dh_private, "--key", path)
}

/// The Diffie-Hellman public key (a private key's public half) in the file
/// given as `option`.
fn dh_public(path: &Path, option: &str) -> anyhow::Result<DhPublicKey> {
    ffc_as(load_ffc(path, option)?, AnyKey::into_dh_public, option, path)
}

/// Run `redc dh pubkey`.
pub(crate) fn pubkey(a: &DhPubkeyArgs) -> anyhow::Result<ExitCode> {
    let mut sink = open(&a.output, a.outform.0, "-o")?;
    let key = dh_public(&a.key, "KEY")?;
    sink.writer().write_all(&ffc_bytes(&key, a.outform.0)?)?;
    sink.finish()?;
    Ok(ExitCode::SUCCESS)
}

/// Run `redc dh derive`.
pub(crate) fn derive(a: &DhDeriveArgs) -> anyhow::Result<ExitCode> {
    let mut sink = Sink::open_binary(&a.output, "-o")?;
    let key = dh_private(&a.key)?;
    let peer = dh_public(&a.peer, "--peer")?;
    if peer.group() != key.group() {
        return Err(bad_input!(
            "--peer {}: a key of {}, --key {} is of {}",
            a.peer.display(),
            peer.group(),
            a.key.display(),
            key.group()
        ));
    }
    let z = key
        .derive(peer.y())
        .map_err(|e| ffc_error(&format!("--peer {}", a.peer.display()), &e))?;
    let start = if a.unpadded {
        z.iter().position(|&b| b != 0).unwrap_or(z.len())
    } else {
        0
    };
    sink.writer().write_all(&z[start..])?;
    sink.finish()?;
    Ok(ExitCode::SUCCESS)
}

/// Run `redc dh derive-batch`, [`jsonl::CHUNK`] lines at a time, each chunk
/// one engine batch.
pub(crate) fn derive_batch_run(a: &DhBatchArgs) -> anyhow::Result<ExitCode> {
    let key = dh_private(&a.key)?;
    jsonl::run_batch(
        &a.io,
        |obj| field_hex(obj, "peer").map(|y| Num::from_be_bytes(&y)),
        |engine, peers| {
            let items: Vec<(&DhPrivateKey, &Num)> = peers.iter().map(|y| (&key, y)).collect();
            derive_batch(engine, &items)
                .into_iter()
                .map(|z| match z {
                    Ok(z) => Ok(json!({ "out": to_hex(&z) })),
                    Err(e @ Error::InvalidPeer(_)) => Err(LineError::field("peer", e)),
                    Err(e) => Err(LineError::line(e.to_string())),
                })
                .collect()
        },
    )
}
