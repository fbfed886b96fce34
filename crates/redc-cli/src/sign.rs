//! `redc sign` and `redc verify`: raw signature bytes, as `openssl dgst
//! -sign` writes and `openssl dgst -verify` reads them. The message is
//! hashed as it is read, in 64 KiB blocks: constant memory for any size.

use crate::args::{SigOptions, SigScheme, SignArgs, VerifyArgs};
use crate::failure::bad_input;
use crate::keyfile::{load_private, load_public, parse_hash, read_input, rsa_error};
use crate::output::Sink;
use rand_core::OsRng;
use redc_rsa::{Error, HashAlg, pkcs1v15, pss};
use std::io::{Read, Write};
use std::path::Path;
use std::process::ExitCode;

/// The hash of the message at `path` (`-` for stdin), read in blocks: the
/// memory does not grow with the message.
fn digest_of(path: &Path, hash: HashAlg) -> anyhow::Result<Vec<u8>> {
    let mut reader: Box<dyn Read> = if path.as_os_str() == "-" {
        Box::new(crate::stdin::take("--in")?.lock())
    } else {
        Box::new(std::fs::File::open(path).map_err(|e| bad_input!("--in {}: {e}", path.display()))?)
    };
    let mut hasher = hash.hasher();
    let mut block = vec![0u8; 1 << 16];
    loop {
        match reader.read(&mut block) {
            Ok(0) => return Ok(hasher.finish()),
            Ok(n) => hasher.update(&block[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(bad_input!("--in {}: {e}", path.display())),
        }
    }
}

/// Run `redc sign`.
pub(crate) fn sign(a: &SignArgs) -> anyhow::Result<ExitCode> {
    let o = &a.opts;
    let hash = parse_hash(&o.hash, "--hash")?;
    if matches!(o.scheme, SigScheme::Pkcs1v15) {
        reject_salt(o)?;
    }
    // Before the key and the message are read: a terminal is refused, a
    // bad path fails.
    let mut sink = Sink::open_binary(&a.output, "-o")?;
    let key = load_private(&o.key, &o.password)?;
    let digest = digest_of(&o.input, hash)?;
    let sig = match o.scheme {
        SigScheme::Pss => pss::sign_digest(&key, hash, hash, o.salt_len, &digest, &mut OsRng),
        SigScheme::Pkcs1v15 => pkcs1v15::sign_digest(&key, hash, &digest, &mut OsRng),
    }
    .map_err(|e| rsa_error("sign", &e))?;
    sink.writer().write_all(&sig)?;
    sink.finish()?;
    Ok(ExitCode::SUCCESS)
}

/// Run `redc verify`: 0 valid, 1 invalid, 2 bad input.
pub(crate) fn verify(a: &VerifyArgs) -> anyhow::Result<ExitCode> {
    let o = &a.opts;
    let hash = parse_hash(&o.hash, "--hash")?;
    if matches!(o.scheme, SigScheme::Pkcs1v15) {
        reject_salt(o)?;
    }
    let key = load_public(&o.key, &o.password, "--key")?;
    let sig = read_input(&a.sig, "--sig")?;
    let digest = digest_of(&o.input, hash)?;
    let result = match o.scheme {
        SigScheme::Pss => pss::verify_digest(&key, hash, hash, o.salt_len, &digest, &sig),
        SigScheme::Pkcs1v15 => pkcs1v15::verify_digest(&key, hash, &digest, &sig),
    };
    match result {
        Ok(()) => {
            writeln!(std::io::stdout(), "Verified OK")?;
            Ok(ExitCode::SUCCESS)
        }
        Err(Error::Verification) => {
            writeln!(std::io::stdout(), "Verification failure")?;
            Ok(ExitCode::FAILURE)
        }
        Err(e) => Err(rsa_error("verify", &e)),
    }
}

/// `--salt-len` with a scheme that has no salt: bad input, checked before
/// the key is read (which may ask for a password).
fn reject_salt(o: &SigOptions) -> anyhow::Result<()> {
    match o.salt_len {
        Some(_) => Err(bad_input!("--salt-len: only for --scheme pss")),
        None => Ok(()),
    }
}
