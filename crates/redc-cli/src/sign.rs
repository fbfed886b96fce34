//! `redc sign` and `redc verify` with an RSA or a DSA key (chosen by the
//! key file; DSA in [`crate::dsa`]): raw signature bytes, as `openssl dgst
//! -sign` writes and `openssl dgst -verify` reads them. The message is
//! hashed as it is read, in 64 KiB blocks: constant memory for any size.

use crate::args::{SigOptions, SigScheme, SignArgs, VerifyArgs};
use crate::failure::bad_input;
use crate::keyfile::{key_file, read_input, refuse_options, rsa_error, rsa_hashes, rsa_key_from};
use crate::output::Sink;
use rand_core::OsRng;
use redc_ffc::encoding::KeyKind;
use redc_rsa::encoding::AnyKey;
use redc_rsa::padding::{Pkcs1v15Sign, Pss, SignaturePadding};
use redc_rsa::signature_shape::SignatureShape;
use redc_rsa::{Error, HashAlg, RsaPublicKey};
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

/// Run `redc sign`: the key's kind chooses RSA or DSA.
pub(crate) fn sign(a: &SignArgs) -> anyhow::Result<ExitCode> {
    let o = &a.opts;
    check_salt(o)?;
    // Before the key and the message are read: a terminal is refused, a
    // bad path fails.
    let mut sink = Sink::open_binary(&a.output, "-o")?;
    let (file, kind) = key_file(&o.key, "--key")?;
    let sig = match kind {
        KeyKind::Dsa => crate::dsa::sign(a, &file, |hash| digest_of(&o.input, hash))?,
        KeyKind::Dh => return Err(cannot_sign(&o.key)),
        KeyKind::Rsa => {
            refuse_options(o, KeyKind::Rsa, a.nonce.is_some())?;
            let scheme = o.scheme.unwrap_or(SigScheme::Pss);
            let key = match rsa_key_from(&file, &o.key, &o.password, "--key")? {
                AnyKey::Private(k) => k,
                AnyKey::Public(_) => {
                    return Err(bad_input!(
                        "--key {}: a private key is needed, this is a public key",
                        o.key.display()
                    ));
                }
            };
            let (hash, mgf1) = rsa_hashes(o.hash.as_deref(), o.mgf1_hash.as_deref(), key.public_key())?;
            let digest = digest_of(&o.input, hash)?;
            key.sign_prehashed(padding(scheme, hash, mgf1, o.salt_len), &digest, &mut OsRng)
                .map_err(|e| rsa_error("sign", &e))?
        }
    };
    sink.writer().write_all(&sig)?;
    sink.finish()?;
    Ok(ExitCode::SUCCESS)
}

/// Run `redc verify`: 0 valid, 1 invalid, 2 bad input; the key's kind
/// chooses RSA or DSA.
pub(crate) fn verify(a: &VerifyArgs) -> anyhow::Result<ExitCode> {
    let o = &a.opts;
    check_salt(o)?;
    let (file, kind) = key_file(&o.key, "--key")?;
    let valid = match kind {
        KeyKind::Dsa => {
            let sig = read_input(&a.sig, "--sig")?;
            crate::dsa::verify(o, &file, &sig, |hash| digest_of(&o.input, hash))?
        }
        KeyKind::Dh => return Err(cannot_sign(&o.key)),
        KeyKind::Rsa => {
            refuse_options(o, KeyKind::Rsa, false)?;
            let scheme = o.scheme.unwrap_or(SigScheme::Pss);
            let key = rsa_key_from(&file, &o.key, &o.password, "--key")?.into_public_key();
            let (hash, mgf1) = rsa_hashes(o.hash.as_deref(), o.mgf1_hash.as_deref(), &key)?;
            let sig = read_input(&a.sig, "--sig")?;
            let digest = digest_of(&o.input, hash)?;
            match key.verify_prehashed(padding(scheme, hash, mgf1, o.salt_len), &digest, &sig) {
                Ok(()) => true,
                Err(Error::Verification) => {
                    if let Some(hint) = other_shape(&key, &sig, scheme, hash) {
                        writeln!(std::io::stderr(), "redc: {hint}")?;
                    }
                    false
                }
                Err(e) => return Err(rsa_error("verify", &e)),
            }
        }
    };
    if valid {
        writeln!(std::io::stdout(), "Verified OK")?;
        Ok(ExitCode::SUCCESS)
    } else {
        writeln!(std::io::stdout(), "Verification failure")?;
        Ok(ExitCode::FAILURE)
    }
}

/// The signature padding of `scheme` with `hash`, MGF1 over `mgf1` and
/// PSS's `salt_len` (checked by [`check_salt`] to be given for PSS only).
fn padding(scheme: SigScheme, hash: HashAlg, mgf1: HashAlg, salt_len: Option<usize>) -> SignaturePadding {
    match scheme {
        SigScheme::Pss => Pss {
            hash,
            mgf_hash: mgf1,
            salt_len,
        }
        .into(),
        SigScheme::Pkcs1v15 => Pkcs1v15Sign::new(hash).into(),
    }
}

/// For an RSA signature that failed to verify as `scheme` with `hash`: what
/// its block shows it to be ([`RsaPublicKey::signature_shape`]), when that
/// is another scheme or another hash.
fn other_shape(key: &RsaPublicKey, sig: &[u8], scheme: SigScheme, hash: HashAlg) -> Option<String> {
    let with = |h: Option<HashAlg>| h.map_or(String::new(), |h| format!(" --hash {}", h.name()));
    match (scheme, key.signature_shape(sig)?) {
        // A PSS block is named only where v1.5 was asked for.
        (SigScheme::Pkcs1v15, SignatureShape::Pss) => {
            Some("the signature is an RSASSA-PSS one: verify it without --scheme pkcs1v15".into())
        }
        (SigScheme::Pss, SignatureShape::Pkcs1v15(signed)) => Some(format!(
            "the signature is a PKCS#1 v1.5 one (openssl dgst -sign's default; redc signs and verifies \
             RSASSA-PSS unless told otherwise): verify it with --scheme pkcs1v15{}",
            with(signed)
        )),
        (SigScheme::Pkcs1v15, SignatureShape::Pkcs1v15(Some(h))) if h != hash => Some(format!(
            "the signature was made with {}: verify it with{}",
            h.name(),
            with(Some(h))
        )),
        _ => None,
    }
}

/// A Diffie-Hellman key given to sign or verify, refused.
fn cannot_sign(key: &Path) -> anyhow::Error {
    bad_input!(
        "--key {}: a Diffie-Hellman key neither signs nor verifies (use redc dh)",
        key.display()
    )
}

/// `--salt-len` or `--mgf1-hash` with `--scheme pkcs1v15`, refused before the key is read
/// (which may ask for a password).
fn check_salt(o: &SigOptions) -> anyhow::Result<()> {
    if matches!(o.scheme, Some(SigScheme::Pkcs1v15)) {
        if o.salt_len.is_some() {
            return Err(bad_input!("--salt-len: only for --scheme pss"));
        }
        if o.mgf1_hash.is_some() {
            return Err(bad_input!("--mgf1-hash: only for --scheme pss"));
        }
    }
    Ok(())
}
