//! Writing the files of a new key pair (`redc keygen`, `redc dh genkey`):
//! the outputs checked and opened before the key is made, PEM or DER, the
//! finite-field keys' bytes.

use crate::failure::bad_input;
use crate::keyfile::ffc_error;
use crate::output::Sink;
use redc_ffc::encoding::KeyFile;
use redc_rsa::encoding::Form;
use std::path::Path;
use std::process::ExitCode;
use zeroize::Zeroizing;

/// Before any work: never replace a key without `--force`, never write
/// both keys to one file.
pub(crate) fn check_outputs(output: Option<&Path>, public: Option<&Path>, force: bool) -> anyhow::Result<()> {
    for (option, path) in [("-o", output), ("--pub", public)] {
        if let Some(path) = path.filter(|p| p.as_os_str() != "-")
            && !force
            && std::fs::metadata(path).is_ok_and(|m| m.is_file())
        {
            return Err(bad_input!(
                "{option} {}: the file exists; give --force to replace it",
                path.display()
            ));
        }
    }
    if let (Some(private), Some(public)) = (output, public)
        && private.as_os_str() != "-"
        && (private == public
            || std::fs::canonicalize(private)
                .ok()
                .zip(std::fs::canonicalize(public).ok())
                .is_some_and(|(x, y)| x == y))
    {
        return Err(bad_input!("--pub {}: the same file as -o", public.display()));
    }
    Ok(())
}

/// Writes a new key pair of the finite-field algorithms: both files opened
/// first (a terminal refused for DER, a bad path failing), then `make`
/// runs, then the public key and the private key are written whole.
pub(crate) fn write_ffc_pair<K: KeyFile, P: KeyFile>(
    output: Option<&Path>,
    public: Option<&Path>,
    form: Form,
    make: impl FnOnce() -> anyhow::Result<(K, P)>,
) -> anyhow::Result<ExitCode> {
    let mut public = public.map(|path| open(path, form, "--pub")).transpose()?;
    let mut sink = open(output.unwrap_or(Path::new("-")), form, "-o")?;
    let (key, public_key) = make()?;
    if let Some(public) = &mut public {
        public.writer().write_all(&ffc_bytes(&public_key, form)?)?;
    }
    sink.writer().write_all(&ffc_bytes(&key, form)?)?;
    if let Some(public) = public {
        public.finish()?;
    }
    sink.finish()?;
    Ok(ExitCode::SUCCESS)
}

/// A finite-field key file's bytes in `form`.
pub(crate) fn ffc_bytes(key: &impl KeyFile, form: Form) -> anyhow::Result<Zeroizing<Vec<u8>>> {
    match form {
        Form::Der => key.to_der(),
        Form::Pem => key.to_pem().map(|p| Zeroizing::new(p.as_bytes().to_vec())),
    }
    .map_err(|e| ffc_error("key file", &e))
}

/// The sink of a key file given as `option`: DER is binary, never written
/// to a terminal.
pub(crate) fn open(path: &Path, form: Form, option: &str) -> anyhow::Result<Sink> {
    match form {
        Form::Pem => Sink::open_for(Some(path), option),
        Form::Der => Sink::open_binary(path, option),
    }
}
