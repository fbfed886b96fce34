//! `redc keygen` and `redc pubkey`.

use crate::args::{KeyFormat, KeygenArgs, PubFormat, PubkeyArgs};
use crate::failure::bad_input;
use crate::keyfile::{load_public, password, rsa_error};
use crate::output::Sink;
use redc_rsa::encoding::Pbes2Kdf;
use redc_rsa::keygen::generate;
use std::io::Write;
use std::process::ExitCode;
use zeroize::Zeroizing;

/// Run `redc keygen`.
pub(crate) fn keygen(a: &KeygenArgs) -> anyhow::Result<ExitCode> {
    // Before any work: never replace a key without --force, never write
    // both keys to one file.
    for (option, path) in [("-o", &a.output), ("--pub", &a.public)] {
        if let Some(path) = path.as_deref().filter(|p| p.as_os_str() != "-")
            && !a.force
            && std::fs::metadata(path).is_ok_and(|m| m.is_file())
        {
            return Err(bad_input!(
                "{option} {}: the file exists; give --force to replace it",
                path.display()
            ));
        }
    }
    if let (Some(private), Some(public)) = (&a.output, &a.public)
        && private.as_os_str() != "-"
        && (private == public
            || std::fs::canonicalize(private)
                .ok()
                .zip(std::fs::canonicalize(public).ok())
                .is_some_and(|(x, y)| x == y))
    {
        return Err(bad_input!("--pub {}: the same file as -o", public.display()));
    }
    let pw = if a.encrypt {
        Some(password(&a.password)?.ok_or_else(|| {
            bad_input!(
                "--encrypt: no password (give --password-file or set {})",
                crate::keyfile::PASSWORD_ENV
            )
        })?)
    } else {
        None
    };
    let bar = crate::progress::spinner(format!("generating a {}-bit key", a.bits));
    let progress = |tried: u64| {
        if let Some(bar) = &bar {
            bar.set_message(format!(
                "generating a {}-bit key: {tried} prime candidates tried",
                a.bits
            ));
        }
    };
    let key = generate(a.bits, &a.e.to_nat(), &progress).map_err(|e| rsa_error("keygen", &e))?;
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    // PBKDF2-HMAC-SHA256 with 600 000 iterations (OWASP's 2023 figure).
    let kdf = Pbes2Kdf::Pbkdf2Sha256 { iterations: 600_000 };
    let pem = match (a.format, &pw) {
        (KeyFormat::Pkcs8, Some(pw)) => key
            .to_pkcs8_encrypted_pem(pw, kdf, &mut rand_core::OsRng)
            .map(Zeroizing::new),
        (KeyFormat::Pkcs8, None) => key.to_pkcs8_pem(),
        (KeyFormat::Pkcs1, None) => key.to_pkcs1_pem(),
        (KeyFormat::Pkcs1, Some(_)) => {
            return Err(bad_input!(
                "--encrypt: only PKCS#8 keys can be encrypted (use --format pkcs8)"
            ));
        }
    }
    .map_err(|e| rsa_error("keygen", &e))?;
    if let Some(path) = &a.public {
        let public = key.public_key().to_spki_pem().map_err(|e| rsa_error("keygen", &e))?;
        let mut sink = Sink::open(Some(path))?;
        sink.writer().write_all(public.as_bytes())?;
        sink.finish()?;
    }
    let mut sink = Sink::open(a.output.as_deref())?;
    sink.writer().write_all(pem.as_bytes())?;
    sink.finish()?;
    Ok(ExitCode::SUCCESS)
}

/// Run `redc pubkey`.
pub(crate) fn pubkey(a: &PubkeyArgs) -> anyhow::Result<ExitCode> {
    let key = load_public(&a.key, &a.password, "KEY")?;
    let pem = match a.format {
        PubFormat::Spki => key.to_spki_pem(),
        PubFormat::Pkcs1 => key.to_pkcs1_pem(),
    }
    .map_err(|e| rsa_error("pubkey", &e))?;
    std::io::stdout().lock().write_all(pem.as_bytes())?;
    Ok(ExitCode::SUCCESS)
}
