//! Reading keys, passwords, inputs and hash names for the RSA commands, and
//! turning `redc_rsa` errors into the command line's exit statuses.

use crate::args::{PasswordArgs, SigOptions};
use crate::failure::{BadInput, bad_input};
use redc_ffc::encoding::{KeyKind, WrongKey, key_kind};
use redc_rsa::encoding::{AnyKey, read_key};
use redc_rsa::{Error, HashAlg, RsaPrivateKey, RsaPublicKey};
use std::io::Read;
use std::path::Path;
use zeroize::Zeroizing;

/// The environment variable that may hold a key password.
pub(crate) const PASSWORD_ENV: &str = "REDC_KEY_PASSWORD";

/// An error of the RSA layer as a command-line error: bad input (status 2)
/// for everything but a failing random generator, I/O and a detected fault.
pub(crate) fn rsa_error(context: &str, e: &Error) -> anyhow::Error {
    match e {
        Error::Rng | Error::Io(_) | Error::FaultDetected => anyhow::anyhow!("{context}: {e}"),
        Error::Policy(_) => anyhow::Error::new(BadInput(format!("{context}: {e} ({})", crate::policy::HINT))),
        _ => anyhow::Error::new(BadInput(format!("{context}: {e}"))),
    }
}

/// A password and where it came from (for messages).
struct Password {
    source: String,
    bytes: Zeroizing<Vec<u8>>,
}

/// The password from `--password-file` (first line) or `REDC_KEY_PASSWORD`,
/// as given (empty or not).
fn given_password(args: &PasswordArgs) -> anyhow::Result<Option<Password>> {
    if let Some(path) = &args.password_file {
        let text =
            Zeroizing::new(std::fs::read(path).map_err(|e| bad_input!("--password-file {}: {e}", path.display()))?);
        let line = text.split(|&b| b == b'\n').next().unwrap_or_default();
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        return Ok(Some(Password {
            source: format!("--password-file {}", path.display()),
            bytes: Zeroizing::new(line.to_vec()),
        }));
    }
    Ok(std::env::var_os(PASSWORD_ENV).map(|v| Password {
        source: PASSWORD_ENV.to_owned(),
        bytes: Zeroizing::new(v.into_encoded_bytes()),
    }))
}

/// The password to encrypt a key with (from `args`, else asked twice on
/// the terminal); an empty one is refused (it would protect nothing, and is
/// most often a mistake: an empty file, an unset variable expanded to
/// nothing).
pub(crate) fn password(args: &PasswordArgs) -> anyhow::Result<Option<Zeroizing<Vec<u8>>>> {
    let given = match given_password(args)? {
        Some(p) => Some(p),
        None => match prompt("Password to encrypt the key with: ")? {
            Some(first) => {
                let again = prompt("The same password again: ")?;
                if again.is_none_or(|again| again.bytes != first.bytes) {
                    return Err(bad_input!("the terminal: the two passwords differ"));
                }
                Some(first)
            }
            None => None,
        },
    };
    match given {
        Some(p) if p.bytes.is_empty() => Err(bad_input!("{}: the password is empty", p.source)),
        p => Ok(p.map(|p| p.bytes)),
    }
}

/// A password typed on the terminal (echo off, as `openssl` and `ssh-keygen`
/// ask), or `None` where no one can type one: only when stderr is a
/// terminal, so that scripts and pipelines never wait on a prompt.
fn prompt(text: &str) -> anyhow::Result<Option<Password>> {
    use std::io::IsTerminal;
    if !std::io::stderr().is_terminal() {
        return Ok(None);
    }
    let typed =
        rpassword::prompt_password(text).map_err(|e| bad_input!("the terminal: cannot read a password: {e}"))?;
    Ok(Some(Password {
        source: "the password typed".to_owned(),
        bytes: Zeroizing::new(typed.into_bytes()),
    }))
}

/// The most bytes [`read_input`] reads: a key file, a signature or one RSA
/// message is a few KB; a larger input is refused after this many bytes
/// rather than read whole.
pub(crate) const MAX_SMALL_INPUT: u64 = 1 << 20;

/// The bytes of `path` (`-` for stdin), at most [`MAX_SMALL_INPUT`]; `what`
/// names the option in errors.
pub(crate) fn read_input(path: &Path, what: &str) -> anyhow::Result<Vec<u8>> {
    let shown = path.display();
    // Sized up front (a file's length, or 64 KiB for stdin, more than any
    // key file): a growing buffer would leave copies of a private key's
    // bytes behind in freed memory.
    let (reader, size): (Box<dyn Read>, u64) = if path.as_os_str() == "-" {
        (Box::new(crate::stdin::take(what)?), 64 << 10)
    } else {
        let file = std::fs::File::open(path).map_err(|e| bad_input!("{what} {shown}: {e}"))?;
        let size = file.metadata().map_or(0, |m| m.len());
        (Box::new(file), size)
    };
    let mut buf = Vec::with_capacity(usize::try_from(size.min(MAX_SMALL_INPUT + 1)).unwrap_or(0));
    reader
        .take(MAX_SMALL_INPUT + 1)
        .read_to_end(&mut buf)
        .map_err(|e| bad_input!("{what} {shown}: {e}"))?;
    if buf.len() as u64 > MAX_SMALL_INPUT {
        return Err(bad_input!(
            "{what} {shown}: more than {} KiB; a key, a signature or one RSA message is a few KB",
            MAX_SMALL_INPUT >> 10
        ));
    }
    Ok(buf)
}

/// Any key file, given as `option` (`--key`, or `pubkey`'s `KEY`). An
/// encrypted key without a password is asked for one on the terminal, or
/// (no terminal) says how to give one; an empty
/// password is named as such, and ignored for a key that is not encrypted.
pub(crate) fn load_key(path: &Path, pw: &PasswordArgs, option: &str) -> anyhow::Result<AnyKey> {
    let bytes = Zeroizing::new(read_input(path, option)?);
    rsa_key_from(&bytes, path, pw, option)
}

/// An RSA key from the bytes of the file at `path`, as [`load_key`] reads it.
pub(crate) fn rsa_key_from(bytes: &[u8], path: &Path, pw: &PasswordArgs, option: &str) -> anyhow::Result<AnyKey> {
    let mut password = given_password(pw)?;
    let mut key = read_key(bytes, password.as_ref().map(|p| p.bytes.as_slice()));
    // An encrypted key and no password given: ask on the terminal, if any.
    if matches!(key, Err(Error::PasswordRequired))
        && let Some(typed) = prompt(&format!("Password for {}: ", path.display()))?
    {
        key = read_key(bytes, Some(&typed.bytes));
        password = Some(typed);
    }
    let level = crate::policy::level();
    key.map(|k| k.with_security_level(level)).map_err(|e| match (e, &password) {
        (Error::PasswordRequired, _) => bad_input!(
            "{option} {}: {} (give --password-file FILE or set {PASSWORD_ENV}, or run it on a terminal to be asked)",
            path.display(),
            Error::PasswordRequired
        ),
        // An empty password only matters for an encrypted key.
        (Error::WrongPassword, Some(p)) if p.bytes.is_empty() => {
            bad_input!("{}: the password is empty", p.source)
        }
        (e, _) => rsa_error(&format!("{option} {}", path.display()), &e),
    })
}

/// A private key file (`--key`).
pub(crate) fn load_private(path: &Path, pw: &PasswordArgs) -> anyhow::Result<RsaPrivateKey> {
    match load_key(path, pw, "--key")? {
        AnyKey::Private(k) => Ok(k),
        AnyKey::Public(_) => Err(bad_input!(
            "--key {}: a private key is needed, this is a public key",
            path.display()
        )),
    }
}

/// The public half of any key file, given as `option`.
pub(crate) fn load_public(path: &Path, pw: &PasswordArgs, option: &str) -> anyhow::Result<RsaPublicKey> {
    Ok(match load_key(path, pw, option)? {
        AnyKey::Private(k) => k.public_key().clone(),
        AnyKey::Public(k) => k,
    })
}

/// The hash and MGF1 hash of an RSA operation with `key`: `--hash`
/// (`hash`) and `--mgf1-hash` (`mgf1`) parsed, the rest as
/// [`redc_rsa::pss_key::KeyAlgorithm::scheme_hashes`] defaults them.
pub(crate) fn rsa_hashes(
    hash: Option<&str>,
    mgf1: Option<&str>,
    key: &RsaPublicKey,
) -> anyhow::Result<(HashAlg, HashAlg)> {
    let hash = hash.map(|name| parse_hash(name, "--hash")).transpose()?;
    let mgf1 = mgf1.map(|name| parse_hash(name, "--mgf1-hash")).transpose()?;
    Ok(key.algorithm().scheme_hashes(hash, mgf1))
}

/// A hash name; `field` names the option in errors.
pub(crate) fn parse_hash(name: &str, field: &str) -> anyhow::Result<HashAlg> {
    HashAlg::from_name(name).ok_or_else(|| {
        let all: Vec<&str> = HashAlg::ALL.iter().map(|h| h.name()).collect();
        bad_input!("{field}: unknown hash {name:?}; possible values: {}", all.join(", "))
    })
}

/// Hexadecimal bytes (after an optional `0x`), or a message saying what is
/// wrong.
pub(crate) fn hex_bytes(text: &str) -> Result<Vec<u8>, String> {
    // An optional 0x, as the numbers of `redc modexp` take.
    let (digits, skipped) = match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        Some(rest) => (rest, 2),
        None => (text, 0),
    };
    if let Some(i) = digits.bytes().position(|b| !b.is_ascii_hexdigit()) {
        return Err(format!("invalid hexadecimal at position {}", i + skipped));
    }
    if !digits.len().is_multiple_of(2) {
        return Err("odd number of hexadecimal digits".into());
    }
    // Constant time in the digits (an input may be secret: a message to
    // sign).
    base16ct::mixed::decode_vec(digits).map_err(|e| format!("invalid hexadecimal: {e}"))
}

/// Hexadecimal bytes; `field` names the option in errors.
pub(crate) fn parse_hex(text: &str, field: &str) -> anyhow::Result<Vec<u8>> {
    hex_bytes(text).map_err(|m| bad_input!("{field}: {m}"))
}

/// Lower-case hexadecimal, in constant time (RustCrypto's `base16ct`: the
/// bytes may be a decrypted secret).
pub(crate) fn to_hex(bytes: &[u8]) -> String {
    base16ct::lower::encode_string(bytes)
}

/// An error of the finite-field layer as a command-line error: bad input
/// (status 2) for everything but a failing random generator or engine and
/// a detected fault.
pub(crate) fn ffc_error(context: &str, e: &redc_ffc::Error) -> anyhow::Error {
    match e {
        redc_ffc::Error::Rng | redc_ffc::Error::Engine(_) | redc_ffc::Error::FaultDetected => {
            anyhow::anyhow!("{context}: {e}")
        }
        redc_ffc::Error::Policy(_) => anyhow::Error::new(BadInput(format!("{context}: {e} ({})", crate::policy::HINT))),
        _ => anyhow::Error::new(BadInput(format!("{context}: {e}"))),
    }
}

/// A key file given as `option`, and what kind of key it holds (RSA when
/// its structure says nothing else, so that RSA's reader names the problem).
pub(crate) fn key_file(path: &Path, option: &str) -> anyhow::Result<(Zeroizing<Vec<u8>>, KeyKind)> {
    let bytes = Zeroizing::new(read_input(path, option)?);
    let kind = key_kind(&bytes).unwrap_or(KeyKind::Rsa);
    Ok((bytes, kind))
}

/// A Diffie-Hellman or DSA key from the bytes of the file at `path`.
pub(crate) fn ffc_key_from(bytes: &[u8], path: &Path, option: &str) -> anyhow::Result<redc_ffc::AnyKey> {
    redc_ffc::read_key(bytes)
        .map(|key| key.with_security_level(crate::policy::level()))
        .map_err(|e| ffc_error(&format!("{option} {}", path.display()), &e))
}

/// A Diffie-Hellman or DSA key file given as `option`.
pub(crate) fn load_ffc(path: &Path, option: &str) -> anyhow::Result<redc_ffc::AnyKey> {
    let bytes = Zeroizing::new(read_input(path, option)?);
    ffc_key_from(&bytes, path, option)
}

/// The key of `key` that `into` takes (e.g. [`AnyKey::into_dsa_private`]),
/// or bad input naming `option` and `path` and saying what the key is.
///
/// [`AnyKey::into_dsa_private`]: redc_ffc::AnyKey::into_dsa_private
pub(crate) fn ffc_as<T>(
    key: redc_ffc::AnyKey,
    into: fn(redc_ffc::AnyKey) -> Result<T, WrongKey>,
    option: &str,
    path: &Path,
) -> anyhow::Result<T> {
    into(key).map_err(|e| bad_input!("{option} {}: {e}", path.display()))
}

/// The options of the other algorithm than `kind`'s, refused: RSA's
/// `--scheme` and `--salt-len` with a DSA key, DSA's `--nonce` (`nonce`:
/// given) and `--sig-format` with an RSA key.
pub(crate) fn refuse_options(o: &SigOptions, kind: KeyKind, nonce: bool) -> anyhow::Result<()> {
    let (given, other): (Vec<(&str, bool)>, &str) = match kind {
        KeyKind::Dsa => (
            vec![
                ("--scheme", o.scheme.is_some()),
                ("--salt-len", o.salt_len.is_some()),
                ("--mgf1-hash", o.mgf1_hash.is_some()),
            ],
            "RSA",
        ),
        _ => (
            vec![("--nonce", nonce), ("--sig-format", o.sig_format.is_some())],
            "DSA",
        ),
    };
    match given.into_iter().find(|&(_, g)| g) {
        Some((option, _)) => Err(bad_input!(
            "{option}: only for {other} keys; --key {} is {}",
            o.key.display(),
            kind.described()
        )),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every byte value through `to_hex` and back, against `format!`'s
    /// lower-case hexadecimal; upper case, mixed case and `0x` read too.
    #[test]
    fn hex_round_trips_every_byte() {
        let bytes: Vec<u8> = (0..=255).collect();
        let text: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(to_hex(&bytes), text);
        assert_eq!(hex_bytes(&text).unwrap(), bytes);
        assert_eq!(hex_bytes(&text.to_uppercase()).unwrap(), bytes);
        assert_eq!(hex_bytes("0XaBcD").unwrap(), [0xab, 0xcd]);
        assert_eq!(hex_bytes("0x").unwrap(), Vec::<u8>::new());
    }

    /// What is wrong, and where.
    #[test]
    fn bad_hex_is_named() {
        assert_eq!(hex_bytes("0xabg0").unwrap_err(), "invalid hexadecimal at position 4");
        assert_eq!(hex_bytes("abc").unwrap_err(), "odd number of hexadecimal digits");
        assert_eq!(hex_bytes("0x0x").unwrap_err(), "invalid hexadecimal at position 3");
    }
}
