//! `redc sign` and `redc verify`: raw signature bytes, as `openssl dgst
//! -sign` writes and `openssl dgst -verify` reads them.

use crate::args::{SigOptions, SigScheme, SignArgs, VerifyArgs};
use crate::failure::bad_input;
use crate::keyfile::{load_private, load_public, parse_hash, read_input, rsa_error};
use crate::output::Sink;
use rand_core::OsRng;
use redc_rsa::{Error, pkcs1v15, pss};
use std::io::Write;
use std::process::ExitCode;

/// Run `redc sign`.
pub(crate) fn sign(a: &SignArgs) -> anyhow::Result<ExitCode> {
    let o = &a.opts;
    let hash = parse_hash(&o.hash, "--hash")?;
    let key = load_private(&o.key, &o.password)?;
    let msg = read_input(&o.input, "--in")?;
    let sig = match o.scheme {
        SigScheme::Pss => pss::sign(&key, hash, hash, o.salt_len, &msg, &mut OsRng),
        SigScheme::Pkcs1v15 => {
            reject_salt(o)?;
            pkcs1v15::sign(&key, hash, &msg, &mut OsRng)
        }
    }
    .map_err(|e| rsa_error("sign", &e))?;
    let mut sink = Sink::open(Some(&a.output))?;
    sink.writer().write_all(&sig)?;
    sink.finish()?;
    Ok(ExitCode::SUCCESS)
}

/// Run `redc verify`: 0 valid, 1 invalid, 2 bad input.
pub(crate) fn verify(a: &VerifyArgs) -> anyhow::Result<ExitCode> {
    let o = &a.opts;
    let hash = parse_hash(&o.hash, "--hash")?;
    let key = load_public(&o.key, &o.password, "--key")?;
    let msg = read_input(&o.input, "--in")?;
    let sig = read_input(&a.sig, "--sig")?;
    let result = match o.scheme {
        SigScheme::Pss => pss::verify(&key, hash, hash, o.salt_len, &msg, &sig),
        SigScheme::Pkcs1v15 => {
            reject_salt(o)?;
            pkcs1v15::verify(&key, hash, &msg, &sig)
        }
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

fn reject_salt(o: &SigOptions) -> anyhow::Result<()> {
    match o.salt_len {
        Some(_) => Err(bad_input!("--salt-len: only for --scheme pss")),
        None => Ok(()),
    }
}
