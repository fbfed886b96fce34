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
use redc_rsa::{HashAlg, RsaPublicKey, envelope, hazmat, oaep};
use std::io::{BufReader, IsTerminal, Read, Write};
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
/// under the key's id ([`key_id`]).
pub(crate) fn encrypt(a: &EnvelopeArgs) -> anyhow::Result<ExitCode> {
    let keys = a
        .keys
        .iter()
        .map(|path| load_public(path, &a.password, "--key"))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let (input, len) = open_input(a)?;
    let mut sink = Sink::open_binary(&a.output, "-o")?;
    if a.raw_blocks {
        let [key] = &keys[..] else {
            return Err(bad_input!(
                "--key: --raw-blocks encrypts for one key, {} given",
                keys.len()
            ));
        };
        raw_encrypt(key, input, sink.writer())?;
    } else {
        let recipients = keys
            .iter()
            .map(|key| {
                Ok(envelope::Recipient {
                    id: key_id(key)?,
                    wrap: Box::new(move |k: &[u8; envelope::KEY_LEN]| {
                        oaep::encrypt(key, HashAlg::Sha256, HashAlg::Sha256, &[], k, &mut OsRng)
                    }),
                })
            })
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

/// The envelope's id of a key: SHA-256 of its DER SubjectPublicKeyInfo
/// (`openssl pkey -pubout -outform DER | sha256sum`).
fn key_id(key: &RsaPublicKey) -> anyhow::Result<envelope::KeyId> {
    let spki = key.to_spki_der().map_err(|e| rsa_error("--key", &e))?;
    Ok(envelope::key_id_of(&spki))
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
    let (input, len) = open_input(a)?;
    let mut sink = Sink::open(Some(&a.output))?;
    if a.raw_blocks {
        raw_decrypt(&key, input, sink.writer())?;
    } else {
        let bar = progress_bar(len, "decrypting");
        let unwrap = |w: &[u8]| oaep::decrypt(&key, HashAlg::Sha256, HashAlg::Sha256, &[], w, &mut OsRng);
        let mut progress = |n: u64| {
            if let Some(b) = &bar {
                b.set_position(n);
            }
        };
        let id = key_id(key.public_key())?;
        envelope::open_as(input, sink.writer(), &id, unwrap, &mut progress).map_err(|e| rsa_error("decrypt", &e))?;
        if let Some(b) = bar {
            b.finish_and_clear();
        }
    }
    sink.finish()?;
    Ok(ExitCode::SUCCESS)
}

/// Fill `buf` as far as the input allows; the number of bytes read.
fn read_full(input: &mut dyn Read, buf: &mut [u8]) -> anyhow::Result<usize> {
    let mut got = 0;
    while got < buf.len() {
        match input.read(&mut buf[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(bad_input!("--in: {e}")),
        }
    }
    Ok(got)
}

/// Textbook RSA block by block: an 8-byte big-endian length, then for each
/// block of `k - 1` plaintext bytes (the last one shorter) `m^e mod n` in `k`
/// bytes. Insecure by design; the input is read into memory first (the
/// length leads), which suits the paper's experiment, not large files.
fn raw_encrypt(key: &RsaPublicKey, mut input: Box<dyn Read>, out: &mut dyn Write) -> anyhow::Result<()> {
    let block = key.size() - 1;
    let mut data = Vec::new();
    input.read_to_end(&mut data).map_err(|e| bad_input!("--in: {e}"))?;
    out.write_all(&(data.len() as u64).to_be_bytes())?;
    for chunk in data.chunks(block) {
        let c = hazmat::raw_public(key, chunk).map_err(|e| rsa_error("encrypt --raw-blocks", &e))?;
        out.write_all(&c)?;
    }
    Ok(())
}

/// The inverse of [`raw_encrypt`].
fn raw_decrypt(key: &redc_rsa::RsaPrivateKey, mut input: Box<dyn Read>, out: &mut dyn Write) -> anyhow::Result<()> {
    let k = key.public_key().size();
    let mut len = [0u8; 8];
    if read_full(&mut *input, &mut len)? != 8 {
        return Err(bad_input!(
            "--in: not a --raw-blocks file (shorter than its 8-byte length)"
        ));
    }
    let mut left = u64::from_be_bytes(len);
    let mut c = vec![0u8; k];
    while left > 0 {
        if read_full(&mut *input, &mut c)? != k {
            return Err(bad_input!("--in: --raw-blocks file is truncated"));
        }
        let m = hazmat::raw_private(key, &c, &mut OsRng).map_err(|e| rsa_error("decrypt --raw-blocks", &e))?;
        let take = left.min((k - 1) as u64) as usize;
        // m is k bytes; the block's bytes are its last `take` bytes.
        if m[..k - take].iter().any(|&b| b != 0) {
            return Err(bad_input!(
                "--in: a block does not decrypt to {take} bytes (wrong key or corrupted file)"
            ));
        }
        out.write_all(&m[k - take..])?;
        left -= take as u64;
    }
    if read_full(&mut *input, &mut c[..1])? != 0 {
        return Err(bad_input!("--in: --raw-blocks file has bytes after its last block"));
    }
    Ok(())
}
