//! `redc keygen` and `redc pubkey` (every key kind).

use crate::args::{Algorithm, KeygenArgs, PubkeyArgs};
use crate::failure::bad_input;
use crate::keyfile::{ffc_key_from, key_file, parse_hash, password, rsa_error, rsa_key_from};
use crate::keypair::{check_outputs, ffc_bytes, open};
use crate::number::Number;
use rand_core::OsRng;
use redc_ffc::AnyKey;
use redc_ffc::encoding::KeyKind;
use redc_rsa::RsaPrivateKey;
use redc_rsa::encoding::{Form, Pbes2Kdf, PrivateFormat, PublicFormat};
use redc_rsa::keygen::{SizeError, check_exponent, check_size, generate_multi};
use redc_rsa::pss_key::{KeyAlgorithm, PssRestriction};
use std::path::Path;
use std::process::ExitCode;
use zeroize::Zeroizing;

/// Run `redc keygen`.
pub(crate) fn keygen(a: &KeygenArgs) -> anyhow::Result<ExitCode> {
    check_outputs(a.output.as_deref(), a.public.as_deref(), a.force)?;
    if a.algorithm == Algorithm::Dsa {
        return crate::dsa::keygen(a);
    }
    if let Some(qbits) = a.qbits {
        return Err(bad_input!("--qbits {qbits}: only for --algorithm dsa"));
    }
    let algorithm = pss_algorithm(a)?;
    let primes = a.primes.unwrap_or(2);
    check_size(a.bits, primes, crate::policy::level()).map_err(|e| match e {
        SizeError::Primes { .. } => bad_input!("--primes {primes}: {e}"),
        SizeError::Level { .. } => bad_input!("--bits {}: {e} ({})", a.bits, crate::policy::HINT),
        SizeError::Bits => bad_input!("--bits {}: {e}", a.bits),
    })?;
    let e =
        a.e.as_ref()
            .map_or_else(|| redc_rsa::Num::from_u64(redc_rsa::keygen::DEFAULT_E), Number::to_nat);
    check_exponent(&e).map_err(|err| match err {
        redc_rsa::Error::InvalidParameters(m) => bad_input!("--e {e}: {m}"),
        other => rsa_error("keygen", &other),
    })?;
    if a.encrypt && a.format.0 == PrivateFormat::Pkcs1 {
        return Err(bad_input!(
            "--encrypt: only PKCS#8 keys can be encrypted (use --format pkcs8)"
        ));
    }
    // Both files are opened before any work (a terminal refused for DER, a
    // bad path failing) and before either is written: a failure leaves
    // neither behind.
    let mut public = a
        .public
        .as_deref()
        .map(|path| open(path, a.outform.0, "--pub"))
        .transpose()?;
    let mut sink = open(a.output.as_deref().unwrap_or(Path::new("-")), a.outform.0, "-o")?;
    let pw = if a.encrypt {
        Some(password(&a.password)?.ok_or_else(|| {
            bad_input!(
                "--encrypt: no password (give --password-file or set {}, or run it on a terminal to be asked)",
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
    let key = generate_multi(a.bits, primes, &e, &progress)
        .map_err(|e| rsa_error("keygen", &e))?
        .with_algorithm(algorithm);
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let private = private_bytes(&key, a.format.0, pw.as_deref().map(|p| &p[..]), a.outform.0)?;
    if let Some(public) = &mut public {
        let bytes = key
            .public_key()
            .to_key_file(PublicFormat::Spki, a.outform.0)
            .map_err(|e| rsa_error("keygen", &e))?;
        public.writer().write_all(&bytes)?;
    }
    sink.writer().write_all(&private)?;
    if let Some(public) = public {
        public.finish()?;
    }
    sink.finish()?;
    Ok(ExitCode::SUCCESS)
}

/// The algorithm of the key `keygen` makes: `rsaEncryption`, or for
/// `--algorithm rsa-pss` an RSASSA-PSS key, restricted when `--hash` is
/// given (the MGF1 hash defaults to it, the salt to its length). The
/// restriction's options are refused for plain RSA, and PKCS#1 (which has
/// no room for the algorithm) for RSA-PSS.
fn pss_algorithm(a: &KeygenArgs) -> anyhow::Result<KeyAlgorithm> {
    if a.algorithm != Algorithm::RsaPss {
        if let Some(option) = [
            ("--hash", a.hash.is_some()),
            ("--mgf1-hash", a.mgf1_hash.is_some()),
            ("--salt-len", a.salt_len.is_some()),
        ]
        .into_iter()
        .find_map(|(o, given)| given.then_some(o))
        {
            return Err(bad_input!("{option}: only for --algorithm rsa-pss"));
        }
        return Ok(KeyAlgorithm::Rsa);
    }
    if a.format.0 == PrivateFormat::Pkcs1 {
        return Err(bad_input!(
            "--format pkcs1: an RSA-PSS key is written as PKCS#8 (PKCS#1 cannot say it is one)"
        ));
    }
    let Some(hash) = a.hash.as_deref() else {
        return Ok(KeyAlgorithm::Pss(None));
    };
    let hash = parse_hash(hash, "--hash")?;
    let mgf1_hash = a
        .mgf1_hash
        .as_deref()
        .map_or(Ok(hash), |h| parse_hash(h, "--mgf1-hash"))?;
    if hash.oid_der().is_none() || mgf1_hash.oid_der().is_none() {
        return Err(bad_input!(
            "--hash: SHAKE has no identifier in RSASSA-PSS key parameters"
        ));
    }
    Ok(KeyAlgorithm::Pss(Some(PssRestriction {
        hash,
        mgf1_hash,
        salt_len: a.salt_len.unwrap_or(hash.output_len()),
    })))
}

/// The private key file: `format` (PKCS#8 encrypted with `pw` if given;
/// the caller never gives a password with PKCS#1) in `form`.
fn private_bytes(
    key: &RsaPrivateKey,
    format: PrivateFormat,
    pw: Option<&[u8]>,
    form: Form,
) -> anyhow::Result<Zeroizing<Vec<u8>>> {
    // PBKDF2-HMAC-SHA256 with 600 000 iterations (OWASP's 2023 figure).
    let kdf = Pbes2Kdf::Pbkdf2Sha256 { iterations: 600_000 };
    key.to_key_file(format, form, pw.map(|pw| (pw, kdf)), &mut OsRng)
        .map_err(|e| rsa_error("keygen", &e))
}

/// Run `redc pubkey`.
pub(crate) fn pubkey(a: &PubkeyArgs) -> anyhow::Result<ExitCode> {
    let mut sink = open(&a.output, a.outform.0, "-o")?;
    let (file, kind) = key_file(&a.key, "KEY")?;
    if kind != KeyKind::Rsa {
        if a.format.0 == PublicFormat::Pkcs1 {
            return Err(bad_input!(
                "--format pkcs1: only for RSA keys; KEY {} is {}",
                a.key.display(),
                kind.described()
            ));
        }
        let bytes = match ffc_key_from(&file, &a.key, "KEY")? {
            AnyKey::DhPrivate(k) => ffc_bytes(k.public_key(), a.outform.0)?,
            AnyKey::DhPublic(k) => ffc_bytes(&k, a.outform.0)?,
            AnyKey::DsaPrivate(k) => ffc_bytes(k.public_key(), a.outform.0)?,
            AnyKey::DsaPublic(k) => ffc_bytes(&k, a.outform.0)?,
        };
        sink.writer().write_all(&bytes)?;
        sink.finish()?;
        return Ok(ExitCode::SUCCESS);
    }
    let key = rsa_key_from(&file, &a.key, &a.password, "KEY")?.into_public_key();
    let bytes = key
        .to_key_file(a.format.0, a.outform.0)
        .map_err(|e| rsa_error("pubkey", &e))?;
    sink.writer().write_all(&bytes)?;
    sink.finish()?;
    Ok(ExitCode::SUCCESS)
}
