//! Output destinations: stdout, or a file written whole or not at all.

use crate::failure::bad_input;
use anyhow::Context;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// Where a command's output goes.
///
/// A regular file (or a path that does not exist yet) is written under a
/// fresh temporary name in the same directory and renamed into place by
/// [`Sink::finish`], keeping the permissions of a file it replaces (a new
/// file is readable by its owner only, mode 0600, unless it is public
/// output: [`Sink::open_public`]); dropped
/// without `finish` (an error on the way), failing to rename, or on SIGINT,
/// SIGTERM or SIGHUP ([`crate::interrupt`]), the temporary file is removed,
/// so nothing half-written is left behind. Anything else —
/// a device such as `/dev/null`, a pipe — is written directly. A symbolic
/// link is followed: its target is what gets replaced.
pub(crate) enum Sink {
    /// Standard output.
    Stdout(BufWriter<std::io::Stdout>),
    /// A special file, written in place.
    Direct(BufWriter<File>),
    /// A temporary file and its final name.
    Replace {
        out: Option<BufWriter<File>>,
        tmp: PathBuf,
        dest: PathBuf,
    },
}

impl Sink {
    /// Standard output (for `None` or `-`), or the file `path` given with `-o`.
    pub(crate) fn open(path: Option<&Path>) -> anyhow::Result<Self> {
        Self::open_for(path, "-o")
    }

    /// As [`Sink::open`], for a path given with `option` (named in errors).
    pub(crate) fn open_for(path: Option<&Path>, option: &str) -> anyhow::Result<Self> {
        Self::open_with(path, option, 0o600)
    }

    /// As [`Sink::open_for`], for public output (test vectors, bench
    /// results): a new file gets mode 0666 less the umask, as `cp` or a
    /// shell redirection would give it, instead of 0600.
    pub(crate) fn open_public(path: Option<&Path>, option: &str) -> anyhow::Result<Self> {
        Self::open_with(path, option, 0o666)
    }

    /// As [`Sink::open`], for binary output (signatures, ciphertexts): to
    /// stdout only when it is not a terminal, as `age` does, so that
    /// forgetting `-o` never prints bytes into the terminal.
    /// `option` (`-o`, `--pub`) names the path in errors.
    pub(crate) fn open_binary(path: &Path, option: &str) -> anyhow::Result<Self> {
        use std::io::IsTerminal;
        if path.as_os_str() == "-" && std::io::stdout().is_terminal() {
            return Err(bad_input!(
                "{option}: the output is binary and stdout is a terminal; give {option} FILE or redirect stdout"
            ));
        }
        Self::open_for(Some(path), option)
    }

    /// The sink; a new file is created with `mode` (less the umask).
    fn open_with(path: Option<&Path>, option: &str, mode: u32) -> anyhow::Result<Self> {
        let Some(path) = path.filter(|p| p.as_os_str() != "-") else {
            return Ok(Sink::Stdout(BufWriter::new(std::io::stdout())));
        };
        let dest = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        match std::fs::metadata(&dest) {
            Ok(m) if m.is_dir() => return Err(bad_input!("{option} {}: is a directory", path.display())),
            Ok(m) if !m.is_file() => {
                let file = std::fs::OpenOptions::new()
                    .write(true)
                    .open(&dest)
                    .with_context(|| format!("cannot open output {}", path.display()))?;
                return Ok(Sink::Direct(BufWriter::new(file)));
            }
            _ => {}
        }
        let name = dest
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        // A fresh name (never an existing file or a planted link), readable
        // by the owner only while it is written unless the output is
        // public: it may hold plaintext or a private key. A file it
        // replaces keeps its permissions.
        let mut tag = [0u8; 8];
        rand_core::RngCore::try_fill_bytes(&mut rand_core::OsRng, &mut tag)
            .map_err(|e| anyhow::anyhow!("random generator: {e}"))?;
        let tmp = dest.with_file_name(format!(".{name}.redc-{:016x}.tmp", u64::from_le_bytes(tag)));
        // Created and registered at once: SIGINT, SIGTERM or SIGHUP
        // removes it ([`crate::interrupt`]).
        let file = crate::interrupt::create(&tmp, || {
            use std::os::unix::fs::OpenOptionsExt;
            std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .mode(mode)
                .open(&tmp)
        })
        .map_err(|e| bad_input!("{option} {}: cannot create the file: {e}", path.display()))?;
        if let Ok(m) = std::fs::metadata(&dest) {
            let _ = file.set_permissions(m.permissions());
        }
        Ok(Sink::Replace {
            out: Some(BufWriter::new(file)),
            tmp,
            dest,
        })
    }

    /// The writer.
    pub(crate) fn writer(&mut self) -> &mut dyn Write {
        match self {
            Sink::Stdout(w) => w,
            Sink::Direct(w) => w,
            Sink::Replace { out, .. } => out.as_mut().expect("sink already finished"),
        }
    }

    /// Flush, and move a replacement file into place.
    pub(crate) fn finish(mut self) -> anyhow::Result<()> {
        match &mut self {
            Sink::Stdout(w) => w.flush().context("cannot write to stdout"),
            Sink::Direct(w) => w.flush().context("cannot write output"),
            Sink::Replace { out, tmp, dest } => {
                let w = out.as_mut().expect("sink already finished");
                w.flush().context("cannot write output")?;
                w.get_ref().sync_all().context("cannot write output")?;
                // Moved into place, or removed if it cannot be.
                crate::interrupt::settle(tmp, || {
                    std::fs::rename(&*tmp, &*dest).inspect_err(|_| {
                        let _ = std::fs::remove_file(&*tmp);
                    })
                })
                .with_context(|| format!("cannot move output into place at {}", dest.display()))?;
                *out = None;
                Ok(())
            }
        }
    }
}

impl Drop for Sink {
    fn drop(&mut self) {
        if let Sink::Replace { out: Some(_), tmp, .. } = self {
            let _ = crate::interrupt::settle(tmp, || std::fs::remove_file(&*tmp));
        }
    }
}
