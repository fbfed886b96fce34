//! Output destinations: stdout, or a file written whole or not at all.

use crate::failure::bad_input;
use anyhow::Context;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// Where a command's output goes.
///
/// A regular file (or a path that does not exist yet) is written whole or
/// not at all, and nothing of it is readable by others before it is
/// complete: it is written into an unnamed file in the destination's
/// directory (Linux's `O_TMPFILE`; elsewhere, or where the file system has
/// none, a fresh hidden temporary name), created with mode 0600 whatever
/// the file it replaces. [`Sink::finish`] links it under a temporary name,
/// renames it onto the destination, and only then gives it its final
/// permissions: those of the file it replaces, else 0600 (or 0666 less
/// the umask for public output: [`Sink::open_public`]). Dropped without
/// `finish` (an error on the way, a late chunk failing authentication) or
/// on SIGINT, SIGTERM or SIGHUP ([`crate::interrupt`], which also refuses
/// a `finish` after a signal), the output is discarded; SIGKILL leaves
/// nothing (or, without unnamed files, a 0600 hidden file). Anything else
/// — a device such as `/dev/null`, a pipe — is written directly. A
/// symbolic link is followed: its target is what gets replaced.
pub(crate) enum Sink {
    /// Standard output.
    Stdout(BufWriter<std::io::Stdout>),
    /// A special file, written in place.
    Direct(BufWriter<File>),
    /// A file staged for its final name.
    Replace(Staged),
}

/// A regular file's output until it is moved into place.
pub(crate) struct Staged {
    out: Option<BufWriter<File>>,
    /// The temporary name of a named temporary file; `None` for an
    /// unnamed one (linked under a temporary name only in `finish`).
    tmp: Option<PathBuf>,
    dest: PathBuf,
    /// The permissions the output gets once in place.
    mode: u32,
    /// The group of the file it replaces, given back to it at the end.
    group: Option<u32>,
    registration: crate::interrupt::Registration,
}

/// A fresh hidden temporary name beside `dest`.
fn temporary_name(dest: &Path) -> anyhow::Result<PathBuf> {
    let name = dest
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut tag = [0u8; 8];
    rand_core::RngCore::try_fill_bytes(&mut rand_core::OsRng, &mut tag)
        .map_err(|e| anyhow::anyhow!("random generator: {e}"))?;
    Ok(dest.with_file_name(format!(".{name}.redc-{:016x}.tmp", u64::from_le_bytes(tag))))
}

/// The process's umask, from Linux's `/proc/self/status` (022 elsewhere).
fn umask() -> u32 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("Umask:"))
                .and_then(|m| u32::from_str_radix(m.trim(), 8).ok())
        })
        .unwrap_or(0o022)
}

/// An unnamed regular file in `dir`, mode 0600 (Linux's `O_TMPFILE`), or
/// `None` where the system or the file system has none.
#[cfg(target_os = "linux")]
fn unnamed_file(dir: &Path) -> Option<File> {
    use rustix::fs::{CWD, Mode, OFlags, openat};
    // Linked at the end through /proc/self/fd: without /proc, a named file.
    if !Path::new("/proc/self/fd").is_dir() {
        return None;
    }
    openat(
        CWD,
        dir,
        OFlags::WRONLY | OFlags::TMPFILE | OFlags::CLOEXEC,
        Mode::from_raw_mode(0o600),
    )
    .ok()
    .map(File::from)
}

#[cfg(not(target_os = "linux"))]
fn unnamed_file(_dir: &Path) -> Option<File> {
    None
}

/// Give the unnamed file `file` the name `tmp`: through `/proc/self/fd`
/// (any user), else `AT_EMPTY_PATH` (which needs a capability).
#[cfg(target_os = "linux")]
fn link_unnamed(file: &File, tmp: &Path) -> std::io::Result<()> {
    use rustix::fs::{AtFlags, CWD, linkat};
    use std::os::fd::AsRawFd;
    let proc_path = format!("/proc/self/fd/{}", file.as_raw_fd());
    linkat(CWD, proc_path.as_str(), CWD, tmp, AtFlags::SYMLINK_FOLLOW)
        .or_else(|_| linkat(file, "", CWD, tmp, AtFlags::EMPTY_PATH))
        .map_err(std::io::Error::from)
}

#[cfg(not(target_os = "linux"))]
fn link_unnamed(_file: &File, _tmp: &Path) -> std::io::Result<()> {
    Err(std::io::Error::from(std::io::ErrorKind::Unsupported))
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
    /// results): a new file ends with mode 0666 less the umask, as `cp` or
    /// a shell redirection would give it, instead of 0600.
    pub(crate) fn open_public(path: Option<&Path>, option: &str) -> anyhow::Result<Self> {
        Self::open_with(path, option, 0o666 & !umask())
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

    /// The sink; a new file ends with mode `new_mode`, a replaced one
    /// keeps its own.
    fn open_with(path: Option<&Path>, option: &str, new_mode: u32) -> anyhow::Result<Self> {
        use std::os::unix::fs::PermissionsExt;
        // `-`, and the names of standard output itself (which a shell may
        // have pointed at a file the command must not replace).
        let stdout_names = ["-", "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"];
        let Some(path) = path.filter(|p| !stdout_names.iter().any(|s| p.as_os_str() == *s)) else {
            return Ok(Sink::Stdout(BufWriter::new(std::io::stdout())));
        };
        let dest = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        let group = std::fs::metadata(&dest)
            .ok()
            .filter(std::fs::Metadata::is_file)
            .map(|m| std::os::unix::fs::MetadataExt::gid(&m));
        let mode = match std::fs::metadata(&dest) {
            Ok(m) if m.is_dir() => return Err(bad_input!("{option} {}: is a directory", path.display())),
            Ok(m) if !m.is_file() => {
                let file = std::fs::OpenOptions::new()
                    .write(true)
                    .open(&dest)
                    .with_context(|| format!("cannot open output {}", path.display()))?;
                return Ok(Sink::Direct(BufWriter::new(file)));
            }
            // Its permission bits, not its set-id ones.
            Ok(m) => m.permissions().mode() & 0o777,
            Err(_) => new_mode,
        };
        let dir = match dest.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        // Registered at once: SIGINT, SIGTERM or SIGHUP discards it
        // ([`crate::interrupt`]).
        let staged = crate::interrupt::register(None, || unnamed_file(&dir).ok_or(()));
        let (file, tmp, registration) = match staged {
            Ok((file, registration)) => (file, None, registration),
            Err(()) => {
                // A fresh name (never an existing file or a planted link).
                let tmp = temporary_name(&dest)?;
                let (file, registration) = crate::interrupt::register(Some(&tmp), || {
                    use std::os::unix::fs::OpenOptionsExt;
                    std::fs::OpenOptions::new()
                        .write(true)
                        .create_new(true)
                        .mode(0o600)
                        .open(&tmp)
                })
                .map_err(|e| bad_input!("{option} {}: cannot create the file: {e}", path.display()))?;
                (file, Some(tmp), registration)
            }
        };
        Ok(Sink::Replace(Staged {
            out: Some(BufWriter::new(file)),
            tmp,
            dest,
            mode,
            group,
            registration,
        }))
    }

    /// The writer.
    pub(crate) fn writer(&mut self) -> &mut dyn Write {
        match self {
            Sink::Stdout(w) => w,
            Sink::Direct(w) => w,
            Sink::Replace(s) => s.out.as_mut().expect("sink already finished"),
        }
    }

    /// Flush, and move a staged file into place, then give it its
    /// permissions.
    pub(crate) fn finish(mut self) -> anyhow::Result<()> {
        match &mut self {
            Sink::Stdout(w) => w.flush().context("cannot write to stdout"),
            Sink::Direct(w) => w.flush().context("cannot write output"),
            Sink::Replace(staged) => staged.finish(),
        }
    }
}

impl Staged {
    fn finish(&mut self) -> anyhow::Result<()> {
        use std::os::unix::fs::PermissionsExt;
        let w = self.out.as_mut().expect("sink already finished");
        w.flush().context("cannot write output")?;
        w.get_ref().sync_all().context("cannot write output")?;
        let file = w.get_ref();
        let dest = &self.dest;
        let tmp = match &self.tmp {
            Some(tmp) => tmp.clone(),
            None => temporary_name(dest)?,
        };
        let unnamed = self.tmp.is_none();
        // Linked (if unnamed) and renamed where no signal is handled, or
        // not at all after one; what was linked is removed if the rename
        // fails.
        crate::interrupt::publish(&self.registration, || {
            if unnamed {
                link_unnamed(file, &tmp)?;
            }
            std::fs::rename(&tmp, dest).inspect_err(|_| {
                let _ = std::fs::remove_file(&tmp);
            })
        })
        .with_context(|| format!("cannot move output into place at {}", dest.display()))?;
        let done = self.out.take().expect("sink already finished");
        // The last steps: the group of the file it replaced (a new file in
        // a set-group-id directory may have another), or no group access
        // if that group cannot be given; then the permissions.
        let mut mode = self.mode;
        if let Some(gid) = self.group {
            let given = rustix::fs::fchown(done.get_ref(), None, Some(rustix::fs::Gid::from_raw(gid)));
            let now = done
                .get_ref()
                .metadata()
                .map(|m| std::os::unix::fs::MetadataExt::gid(&m));
            if given.is_err() && now.ok() != Some(gid) {
                mode &= !0o070;
            }
        }
        done.get_ref()
            .set_permissions(std::fs::Permissions::from_mode(mode))
            .with_context(|| format!("cannot set the permissions of {}", dest.display()))
    }
}

impl Drop for Staged {
    fn drop(&mut self) {
        if self.out.is_some() {
            let tmp = self.tmp.as_deref();
            crate::interrupt::discard(&self.registration, || {
                if let Some(tmp) = tmp {
                    let _ = std::fs::remove_file(tmp);
                }
            });
        }
    }
}
