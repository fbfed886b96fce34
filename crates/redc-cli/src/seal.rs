//! `redc encrypt` and `redc decrypt`: the streaming envelope
//! (`redc_rsa::envelope`: AES-256-GCM chunks, key wrapped with
//! RSA-OAEP-SHA256 for each recipient, under its key id), or with `--raw-blocks` the insecure textbook mode of
//! 000_be478b6750af4540.txt §5.

use crate::args::EnvelopeArgs;
use crate::failure::bad_input;
use crate::keyfile::{load_private, load_public, rsa_error};
use crate::output::Sink;
use indicatif::{ProgressBar, ProgressStyle};
use rand_core::OsRng;
use redc_rsa::envelope;
use redc_rsa::hazmat::raw_blocks::{self, RawBlocksError};
use std::io::{BufReader, IsTerminal, Read};
use std::process::ExitCode;

/// The input stream and its size when known.
fn open_input(a: &EnvelopeArgs) -> anyhow::Result<(Box<dyn Read>, Option<u64>)> {
    if a.input.as_os_str() == "-" {
        return Ok((Box::new(crate::stdin::take("--in")?.lock()), None));
    }
    let file = std::fs::File::open(&a.input).map_err(|e| bad_input!("--in {}: {e}", a.input.display()))?;
    let meta = file.metadata().ok();
    if meta.as_ref().is_some_and(std::fs::Metadata::is_dir) {
        return Err(bad_input!("--in {}: is a directory, not a file", a.input.display()));
    }
    let len = meta.filter(|m| m.is_file()).map(|m| m.len());
    Ok((Box::new(BufReader::with_capacity(1 << 16, file)), len))
}

/// A progress bar on a terminal, nothing otherwise.
fn progress_bar(len: Option<u64>, what: &str) -> Option<ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = match len {
        Some(n) => ProgressBar::new(n),
        None => ProgressBar::new_spinner(),
    };
    let template = "{msg} {wide_bar} {bytes}/{total_bytes} {bytes_per_sec} eta {eta}";
    bar.set_style(ProgressStyle::with_template(template).unwrap_or(ProgressStyle::default_bar()));
    bar.set_message(what.to_owned());
    Some(bar)
}

/// Run `redc encrypt`: a version 2 envelope for every `--key`, each entry
/// under the key's id ([`envelope::rsa_key_id`]).
pub(crate) fn encrypt(a: &EnvelopeArgs) -> anyhow::Result<ExitCode> {
    let keys = a
        .keys
        .iter()
        .map(|path| load_public(path, &a.password, "--key"))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let (mut input, len) = open_input(a)?;
    let mut sink = Sink::open_binary(&a.output, "-o")?;
    if a.raw_blocks {
        let [key] = &keys[..] else {
            return Err(bad_input!(
                "--key: --raw-blocks encrypts for one key, {} given",
                keys.len()
            ));
        };
        raw_blocks::encrypt(key, &mut input, sink.writer()).map_err(|e| raw_blocks_error("encrypt", e))?;
    } else {
        let recipients = keys
            .iter()
            .map(|key| envelope::Recipient::rsa(key).map_err(|e| rsa_error("--key", &e)))
            .collect::<anyhow::Result<Vec<_>>>()?;
        let bar = progress_bar(len, "encrypting");
        let mut progress = |n: u64| {
            if let Some(b) = &bar {
                b.set_position(n);
            }
        };
        envelope::seal_for(input, sink.writer(), &recipients, &mut OsRng, &mut progress)
            .map_err(|e| rsa_error("encrypt", &e))?;
        if let Some(b) = bar {
            b.finish_and_clear();
        }
    }
    sink.finish()?;
    Ok(ExitCode::SUCCESS)
}

/// Run `redc decrypt`. Written to a file, the plaintext appears only when
/// the whole envelope authenticated; to stdout, each chunk is written once it
/// authenticated, and a failure later ends the stream with status 2.
pub(crate) fn decrypt(a: &EnvelopeArgs) -> anyhow::Result<ExitCode> {
    let [path] = &a.keys[..] else {
        return Err(bad_input!(
            "--key: decrypt takes one private key, {} given",
            a.keys.len()
        ));
    };
    let key = load_private(path, &a.password)?;
    let (mut input, len) = open_input(a)?;
    let mut sink = Sink::open(Some(&a.output))?;
    if a.raw_blocks {
        raw_blocks::decrypt(&key, &mut input, sink.writer(), &mut OsRng).map_err(|e| raw_blocks_error("decrypt", e))?;
    } else {
        let bar = progress_bar(len, "decrypting");
        let mut progress = |n: u64| {
            if let Some(b) = &bar {
                b.set_position(n);
            }
        };
        let id = envelope::rsa_key_id(key.public_key()).map_err(|e| rsa_error("--key", &e))?;
        envelope::open_as(input, sink.writer(), &id, envelope::rsa_unwrap(&key), &mut progress)
            .map_err(|e| rsa_error("decrypt", &e))?;
        if let Some(b) = bar {
            b.finish_and_clear();
        }
    }
    sink.finish()?;
    Ok(ExitCode::SUCCESS)
}

/// An error of `redc encrypt|decrypt --raw-blocks` (`what`: which) as a
/// command-line error: the input's faults are bad input (status 2).
fn raw_blocks_error(what: &str, e: RawBlocksError) -> anyhow::Error {
    match e {
        RawBlocksError::Read(e) => bad_input!("--in: {e}"),
        RawBlocksError::Write(e) => e.into(),
        RawBlocksError::Rsa(e) => rsa_error(&format!("{what} --raw-blocks"), &e),
        RawBlocksError::NoLength => bad_input!("--in: not a --raw-blocks file (shorter than its 8-byte length)"),
        RawBlocksError::Truncated => bad_input!("--in: --raw-blocks file is truncated"),
        RawBlocksError::BadBlock(take) => {
            bad_input!("--in: a block does not decrypt to {take} bytes (wrong key or corrupted file)")
        }
        RawBlocksError::TrailingBytes => bad_input!("--in: --raw-blocks file has bytes after its last block"),
    }
}
